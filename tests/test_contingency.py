"""``layout="contingency"``: two raters' K x K table of counts (issue 9).

Point values equal the wide frame the table expands to, for every coefficient of the
registry, the breakdowns, the report and the command line; the analytic standard errors are
Gwet's two-rater table formulas, as R irrCAC's ``*.table`` functions print them (reference
values in ``tests/references.py`` with their sources); bad tables are clear errors.
"""

from __future__ import annotations

import io
import math
import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
import references as ref
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import pdagree
from pdagree.cli import main
from pdagree.definitions import REGISTRY

MEMBERS = ("value", "observed", "expected", "n_items", "n_raters", "n_categories")
WEIGHTED = tuple(n for n, d in REGISTRY.items() if d.weights and n != "alpha")
SCHEMES = ("identity", "linear", "quadratic", "ordinal", "radical", "ratio", "circular", "bipolar")
# irrCAC's function names for pdagree's methods (the keys of references.py).
IRRCAC_NAMES = {
    "cohen": "cohen",
    "scott": "scott",
    "gwet": "gwet",
    "brennan_prediger": "bennett",
    "percent_agreement": "observed",
    "krippendorff": "alpha",
}


# --------------------------------------------------------------------------- helpers


def table_frame(
    counts: list[list[int]], categories: list[Any], names: tuple[Any, Any] = (None, None)
) -> pd.DataFrame:
    return pd.DataFrame(
        counts,
        index=pd.Index(categories, name=names[0]),
        columns=pd.Index(categories, name=names[1]),
    )


def expand(table: pd.DataFrame, names: tuple[str, str] = ("rater1", "rater2")) -> pd.DataFrame:
    """The wide frame a contingency table stands for: one row per counted item, in the
    table's row-major order (built with pandas alone, no pdagree code)."""
    rows = [
        (a, b)
        for a, line in zip(table.index, table.to_numpy(), strict=True)
        for b, count in zip(table.columns, line, strict=True)
        for _ in range(int(count))
    ]
    return pd.DataFrame(rows, columns=list(names))


def cont3x3() -> pd.DataFrame:
    # irrCAC README (commit 7fb7509), cont3x3abstractors.
    return table_frame(ref.IRRCAC_CONT3X3ABSTRACTORS, ref.IRRCAC_CONT3X3ABSTRACTORS_CATEGORIES)


def cont4x4() -> pd.DataFrame:
    # irrCAC inst/extdata/cont4x4diagnosis.csv (commit 7fb7509).
    return table_frame(ref.IRRCAC_CONT4X4DIAGNOSIS, ref.IRRCAC_CONT4X4DIAGNOSIS_CATEGORIES)


NUMERIC = table_frame([[5, 1, 0, 0], [2, 6, 1, 0], [0, 1, 7, 2], [0, 0, 3, 4]], [1, 2, 3, 5])


def members(result: Any) -> list[float]:
    return [float(result) if k == "value" else float(getattr(result, k)) for k in MEMBERS]


def assert_same(a: Any, b: Any) -> None:
    np.testing.assert_allclose(members(a), members(b), rtol=1e-12, atol=1e-14, equal_nan=True)


def quiet(fn: Any, *args: Any, **kwargs: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pdagree.UndefinedStatisticWarning)
        return fn(*args, **kwargs)


def assert_decimals(actual: float, printed: float, decimals: int) -> None:
    """``actual`` rounds to ``printed`` at ``decimals`` places (half a unit of the last digit)."""
    assert abs(actual - printed) <= 0.5 * 10.0**-decimals * (1 + 1e-9), (actual, printed)


def assert_significant(actual: float, printed: float, digits: int = 7) -> None:
    exponent = math.floor(math.log10(abs(printed)))
    assert abs(actual - printed) <= 0.5 * 10.0 ** (exponent - digits + 1) * (1 + 1e-9), (
        actual,
        printed,
    )


# --------------------------------------------------------------------------- point values


@pytest.mark.parametrize("table", [cont3x3(), cont4x4(), NUMERIC], ids=["3x3", "4x4", "numeric"])
@pytest.mark.parametrize("method", list(REGISTRY))
def test_every_coefficient_equals_the_expanded_frame(table: pd.DataFrame, method: str) -> None:
    ratings = table.agree(layout="contingency")
    wide = expand(table).agree(categories=list(table.index))
    assert ratings.layout == "contingency"
    assert list(ratings.raters) == ["rater1", "rater2"]
    assert_same(quiet(getattr(ratings, method)), quiet(getattr(wide, method)))


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("method", WEIGHTED)
def test_weighted_coefficients_equal_the_expanded_frame(method: str, scheme: str) -> None:
    for table in (cont4x4(), NUMERIC):
        ratings = table.agree(layout="contingency")
        wide = expand(table).agree(categories=list(table.index))
        got = getattr(ratings, method)(weights=scheme)
        assert got.name == getattr(wide, method)(weights=scheme).name
        assert_same(got, getattr(wide, method)(weights=scheme))


@pytest.mark.parametrize(
    "options",
    [
        {"level": "nominal"},
        {"level": "ordinal"},
        {"level": "interval"},
        {"level": "ratio"},
        {"weights": "quadratic"},
        {"level": np.abs(np.subtract.outer(np.arange(4.0), np.arange(4.0)))},
    ],
    ids=["nominal", "ordinal", "interval", "ratio", "weights", "matrix"],
)
def test_alpha_at_every_level_equals_the_expanded_frame(options: dict[str, Any]) -> None:
    ratings = NUMERIC.agree(layout="contingency")
    wide = expand(NUMERIC).agree()
    assert_same(ratings.alpha(**options), wide.alpha(**options))


@pytest.mark.parametrize("weights", ["flat", "annotations", "edges", "inv_var", "inv_var_class"])
def test_spa_weightings_equal_the_expanded_frame(weights: str) -> None:
    ratings = cont4x4().agree(layout="contingency")
    wide = expand(cont4x4()).agree()
    assert_same(ratings.spa(weights=weights), wide.spa(weights=weights))  # type: ignore[arg-type]


def test_breakdowns_equal_the_expanded_frame() -> None:
    table = cont4x4().rename_axis(index="clinical", columns="research")
    ratings = table.agree(layout="contingency")
    wide = expand(table, ("clinical", "research")).agree(categories=list(table.index))
    assert list(ratings.raters) == ["clinical", "research"]
    pd.testing.assert_frame_equal(ratings.per_category(), wide.per_category())
    pd.testing.assert_frame_equal(ratings.frequencies(), wide.frequencies())
    pd.testing.assert_frame_equal(ratings.pairwise(), wide.pairwise())
    pd.testing.assert_frame_equal(ratings.pairwise("n_items"), wide.pairwise("n_items"))
    pd.testing.assert_frame_equal(ratings.report(), wide.report())
    # The analytic intervals are the same; the bootstrap draws the table's cells
    # (tests/test_table_data.py), so its replicates differ from the items' draws.
    # The table's variance is irrCAC's *.table one, which divides by n where the raw
    # ratings' divides by n - 1 (table_variance's docstring).
    ours, theirs = ratings.report(confidence_level=0.95), wide.report(confidence_level=0.95)
    analytic = ours["ci_method"] == "analytic"
    assert analytic.sum() >= 8
    n = ratings.n_items
    np.testing.assert_allclose(
        ours.loc[analytic, "se"], theirs.loc[analytic, "se"] * math.sqrt((n - 1) / n), rtol=1e-12
    )
    pd.testing.assert_frame_equal(
        ours[["value", "observed", "expected"]], theirs[["value", "observed", "expected"]]
    )
    np.testing.assert_array_equal(ratings.counts().to_numpy(), wide.counts().to_numpy())
    np.testing.assert_array_equal(ratings.items().to_numpy(), wide.items().to_numpy())
    # The table comes back from contingency(), labelled by the raters.
    pd.testing.assert_frame_equal(ratings.contingency("clinical", "research"), table)


def test_bootstrap_agrees_with_the_expanded_frames_item_bootstrap() -> None:
    # The table's cells are drawn from the multinomial, the expanded frame's items with
    # replacement: the same distribution of resamples, so the same standard error up to
    # Monte Carlo error (about 1.6% for two estimates from 4,000 resamples each; 8% is 5 sd).
    ratings = cont3x3().agree(layout="contingency")
    wide = expand(cont3x3()).agree(categories=ref.IRRCAC_CONT3X3ABSTRACTORS_CATEGORIES)
    for method in ("light", "cohen", "bias"):
        ours = getattr(ratings, method)(
            confidence_level=0.95, method="bootstrap", rng=5, n_resamples=4000
        )
        theirs = getattr(wide, method)(
            confidence_level=0.95, method="bootstrap", rng=5, n_resamples=4000
        )
        assert ours.se == pytest.approx(theirs.se, rel=0.08)
        if method != "bias":  # bias >= 0 has a skewed, lumpy distribution: its tails vary more
            assert ours.low == pytest.approx(theirs.low, abs=0.2 * theirs.se)
            assert ours.high == pytest.approx(theirs.high, abs=0.2 * theirs.se)


def test_transposed_table_gives_the_same_coefficients() -> None:
    # Every coefficient here is symmetric in the two raters: the table and its transpose
    # (how the irrCAC Python port stores cont4x4diagnosis) give the same values and SEs.
    table = cont4x4()
    for method in ("cohen", "scott", "gwet", "bennett", "observed", "alpha"):
        for weights in (None, "quadratic", "bipolar"):
            a = getattr(table.agree(layout="contingency"), method)(weights=weights)
            b = getattr(table.T.agree(layout="contingency"), method)(weights=weights)
            assert float(a) == pytest.approx(float(b), abs=1e-14)
            assert a.standard_error() == pytest.approx(b.standard_error(), rel=1e-12)


@st.composite
def tables(draw: st.DrawFn) -> pd.DataFrame:
    k = draw(st.integers(1, 4))
    counts = draw(
        st.lists(st.lists(st.integers(0, 4), min_size=k, max_size=k), min_size=k, max_size=k)
    )
    if sum(map(sum, counts)) == 0:
        counts[0][0] = 1
    return table_frame(counts, list("abcd"[:k]))


@given(tables())
@settings(max_examples=40, deadline=None)
def test_random_tables_equal_the_expanded_frame(table: pd.DataFrame) -> None:
    before = table.copy()
    ratings = table.agree(layout="contingency")
    wide = expand(table).agree(categories=list(table.index))
    for method in REGISTRY:
        assert_same(quiet(getattr(ratings, method)), quiet(getattr(wide, method)))
    pd.testing.assert_frame_equal(table, before)  # the user's frame is unchanged


# --------------------------------------------------------------------------- alignment


def test_axes_are_aligned_by_label() -> None:
    table = cont3x3()
    shuffled = table.loc[["NIU", "Ectopic", "AIU"], ["AIU", "NIU", "Ectopic"]]
    categories = ref.IRRCAC_CONT3X3ABSTRACTORS_CATEGORIES
    a = table.agree(layout="contingency").cohen()
    b = shuffled.agree(layout="contingency", categories=categories).cohen()
    assert_same(a, b)
    # Different orders on the two axes: the union sorted, an order nobody declared.
    ratings = shuffled.agree(layout="contingency")
    assert list(ratings.categories) == ["AIU", "Ectopic", "NIU"]
    with pytest.raises(ValueError, match="the order of these text labels was not declared"):
        ratings.cohen(weights="linear")
    # The same order on both axes is the table's own order, declared.
    assert list(table.agree(layout="contingency").categories) == categories


def test_a_category_on_one_side_only() -> None:
    # Rater 2 never chose "c": the table lacks its column; the union is the categories.
    table = pd.DataFrame([[3, 1], [1, 4], [2, 0]], index=["a", "b", "c"], columns=["a", "b"])
    ratings = table.agree(layout="contingency")
    assert list(ratings.categories) == ["a", "b", "c"]
    square = table.assign(c=0)
    assert_same(ratings.cohen(), square.agree(layout="contingency").cohen())
    assert_same(ratings.cohen(), expand(table).agree(categories=["a", "b", "c"]).cohen())


def test_declared_categories_add_unused_ones() -> None:
    ratings = cont3x3().agree(layout="contingency", categories=["Ectopic", "AIU", "NIU", "x"])
    assert ratings.n_categories == 4
    assert ratings.bennett().expected == pytest.approx(0.25)
    with pytest.raises(
        ValueError, match=re.escape("labels missing from `categories`, e.g. ['NIU']")
    ):
        cont3x3().agree(layout="contingency", categories=["Ectopic", "AIU"])


def test_disjoint_axes_need_declared_categories() -> None:
    table = pd.DataFrame([[2, 1], [0, 3]], index=["a", "b"], columns=["x", "y"])
    message = (
        "a contingency table's index holds the first rater's categories and its columns the "
        "second's; its index ['a', 'b'] and columns ['x', 'y'] have no label in common, so they "
        "cannot be aligned. Label both axes with the categories (e.g. table.columns = "
        "table.index when they are in the same order), or pass `categories=[...]` if the "
        "raters really share no category."
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        table.agree(layout="contingency")
    nonsquare = pd.DataFrame([[2, 1, 1]], index=["a"], columns=["x", "y", "z"])
    with pytest.raises(ValueError, match="have no label in common"):
        nonsquare.agree(layout="contingency")
    # Raters who share no category: declared, the table is total disagreement.
    ratings = table.agree(layout="contingency", categories=["a", "b", "x", "y"])
    assert ratings.observed() == 0.0


def test_numbers_in_the_index_and_as_text_in_the_header() -> None:
    # read_csv(index_col=0) reads the first column as numbers and the header as text.
    table = NUMERIC.copy()
    table.columns = pd.Index([str(c) for c in table.columns])
    ratings = table.agree(layout="contingency")
    assert list(ratings.categories) == [1, 2, 3, 5]
    assert_same(
        ratings.cohen(weights="linear"),
        NUMERIC.agree(layout="contingency").cohen(weights="linear"),
    )


def test_confusion_matrix_and_crosstab() -> None:
    from sklearn.metrics import confusion_matrix

    wide = expand(cont4x4(), ("truth", "model"))
    # scikit-learn's confusion matrix: rows = y_true, columns = y_pred, in `labels` order.
    labels = ref.IRRCAC_CONT4X4DIAGNOSIS_CATEGORIES
    cm = confusion_matrix(wide["truth"], wide["model"], labels=labels)
    table = pd.DataFrame(cm, index=labels, columns=labels)
    assert_same(table.agree(layout="contingency").cohen(), wide.agree(categories=labels).cohen())
    # pd.crosstab names the axes by its Series: the raters.
    crosstab = pd.crosstab(wide["truth"], wide["model"])
    ratings = crosstab.agree(layout="contingency")
    assert list(ratings.raters) == ["truth", "model"]
    assert_same(ratings.cohen(), wide.agree().cohen())
    # Categoricals: pd.crosstab keeps an ordered dtype's order on both axes.
    dtype = pd.CategoricalDtype(labels, ordered=True)
    ordered = pd.crosstab(wide["truth"].astype(dtype), wide["model"].astype(dtype))
    assert list(ordered.agree(layout="contingency").categories) == labels


def test_float_table_of_whole_numbers() -> None:
    assert_same(
        cont3x3().astype(float).agree(layout="contingency").cohen(),
        cont3x3().agree(layout="contingency").cohen(),
    )


# --------------------------------------------------------------------------- bad tables


@pytest.mark.parametrize(
    ("cells", "error", "message"),
    [
        (
            [[1, -2], [0, 3]],
            ValueError,
            "counts must be non-negative integers; got [-2]. A cell counts the items the two "
            "raters put in that pair of categories.",
        ),
        (
            [[1, 0.5], [0, 3]],
            ValueError,
            "counts must be whole numbers; got [0.5]. A cell counts the items the two raters "
            "put in that pair of categories.",
        ),
        (
            [[1, np.nan], [0, 3]],
            ValueError,
            "counts must not be missing; 1 cells are NaN, e.g. at [('a', 'b')]. Use 0 for a "
            "category nobody chose.",
        ),
        (
            [[1, np.inf], [0, 3]],
            ValueError,
            "counts must be finite; got infinite cells. A cell counts the items the two raters "
            "put in that pair of categories.",
        ),
        (
            [[0, 0], [0, 0]],
            ValueError,
            "the contingency table holds no items (every count is 0). Agreement needs items "
            "rated by both raters.",
        ),
    ],
    ids=["negative", "fractional", "nan", "inf", "all-zero"],
)
def test_bad_counts(cells: list[list[float]], error: type[Exception], message: str) -> None:
    table = pd.DataFrame(cells, index=["a", "b"], columns=["a", "b"])
    with pytest.raises(error, match=re.escape(message)):
        table.agree(layout="contingency")


def test_empty_tables() -> None:
    with pytest.raises(ValueError, match=re.escape("the frame is empty (0 rows)")):
        pd.DataFrame({"a": [], "b": []}).agree(layout="contingency")
    message = (
        "the contingency table has no columns: it needs one row per category of the first "
        "rater and one column per category of the second."
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        pd.DataFrame(index=["a", "b"]).agree(layout="contingency")


def test_text_cells() -> None:
    # A table read without its first column as the index: the labels became a column.
    table = cont3x3().rename_axis("rater1").reset_index()
    message = (
        "counts must be numbers; columns ['rater1'] are not numeric. A contingency table holds "
        "numbers of items only: make the first rater's categories the index (df.set_index(col) "
        "or read_csv(..., index_col=0))."
    )
    with pytest.raises(TypeError, match=re.escape(message)):
        table.agree(layout="contingency")


def test_repeated_labels_and_multiindex() -> None:
    table = pd.DataFrame([[1, 2], [3, 4]], index=["a", "a"], columns=["a", "b"])
    message = (
        "a contingency table lists each category once per axis; its index repeats ['a']. Add "
        "up the repeated rows."
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        table.agree(layout="contingency")
    multi = cont3x3()
    multi.columns = pd.MultiIndex.from_product([["x"], multi.columns])
    message = (
        "a contingency table has one level of labels on each axis; its columns is a MultiIndex "
        "of 2 levels. Select one table (e.g. with `.xs(...)`), or pass the ratings as a wide or "
        "long frame."
    )
    with pytest.raises(TypeError, match=re.escape(message)):
        multi.agree(layout="contingency")


def test_one_name_for_both_raters() -> None:
    table = cont3x3().rename_axis(index="coder", columns="coder")
    message = (
        "the index and columns names of a contingency table name its two raters; both are "
        "'coder'. Rename one, e.g. table.rename_axis(index='first', columns='second')."
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        table.agree(layout="contingency")


def test_arguments_that_do_not_apply() -> None:
    table = cont3x3().assign(group="g")
    message = (
        "`by` does not apply to layout='contingency'; got by='group'. A contingency table "
        "holds the items of one pair of raters: call agree on each group's table, or pass the "
        "ratings as a wide or long frame with `by=`."
    )
    with pytest.raises(TypeError, match=re.escape(message)):
        table.agree(layout="contingency", by="group")
    with pytest.raises(TypeError, match=re.escape("a contingency table names its two raters")):
        cont3x3().agree(layout="contingency", raters=["AIU", "NIU"])
    with pytest.raises(TypeError, match=re.escape("they do not apply to layout='contingency'")):
        cont3x3().agree(layout="contingency", item="AIU", rater="NIU", label="Ectopic")


# --------------------------------------------------------------------------- table variances

N_CONT = 100  # cont3x3abstractors holds 100 items


@pytest.mark.parametrize("weights", [None, "quadratic"])
@pytest.mark.parametrize("key", sorted(IRRCAC_NAMES))
def test_irrcac_cont3x3abstractors_table_functions(key: str, weights: str | None) -> None:
    # irrCAC README (commit 7fb7509): kappa2.table, scott2.table, gwet.ac1.table, bp2.table,
    # krippen2.table, pa2.table on cont3x3abstractors; quadratic: the weighting vignette
    # (weighting.html, 2021-08-28), the same functions with quadratic.weights(1:q). Value and
    # SE printed to 7 significant digits, the CI to 3 decimals.
    table = (
        ref.IRRCAC_CONT3X3ABSTRACTORS_EXPECTED
        if weights is None
        else ref.IRRCAC_CONT3X3ABSTRACTORS_QUADRATIC_EXPECTED
    )
    expected = table[{"gwet": "gwet_ac1" if weights is None else "gwet_ac2"}.get(key, key)]
    result = getattr(cont3x3().agree(layout="contingency"), IRRCAC_NAMES[key])(weights=weights)
    assert result.n_items == N_CONT
    assert_significant(float(result), expected["value"])
    assert_significant(result.standard_error(), expected["se"])
    low, high = result.confidence_interval()
    assert_decimals(low, expected["ci"][0], 3)
    assert_decimals(high, expected["ci"][1], 3)
    # The interval is irrCAC's: value +/- qt(0.975, n - 1) * SE.
    t = stats.t.ppf(0.975, N_CONT - 1)
    assert low == pytest.approx(float(result) - t * result.standard_error(), abs=1e-14)
    # Printed "0e+00": 1 - pt(value / SE, n - 1) underflows in R.
    assert expected["p"] == 0.0
    assert result.p_value() < 2.0**-52


@pytest.mark.parametrize("weights", [None, "quadratic"])
def test_fleiss_and_conger_on_a_table_are_scott_and_cohen(weights: str | None) -> None:
    # With two raters Fleiss' kappa is Scott's pi and Conger's kappa Cohen's: on a table their
    # SEs are scott2.table's and kappa2.table's (irrCAC README / weighting vignette values).
    ratings = cont3x3().agree(layout="contingency")
    table = (
        ref.IRRCAC_CONT3X3ABSTRACTORS_EXPECTED
        if weights is None
        else ref.IRRCAC_CONT3X3ABSTRACTORS_QUADRATIC_EXPECTED
    )
    assert_significant(ratings.fleiss(weights=weights).standard_error(), table["scott"]["se"])
    assert_significant(ratings.conger(weights=weights).standard_error(), table["cohen"]["se"])


@pytest.mark.parametrize("key", sorted(ref.IRRCAC_PY_0_4_4_TABLES, key=str))
def test_irrcac_port_every_weighting(key: tuple[str, str, str]) -> None:
    # afergadis/irrCAC 0.4.4 (Python port of R irrCAC), test/unit/irrCAC/table/*.py: every
    # weighting on cont3x3abstractors and cont4x4diagnosis, rounded to 3 decimals.
    dataset, coefficient, weights = key
    expected = ref.IRRCAC_PY_0_4_4_TABLES[key]
    table = cont3x3() if dataset == "cont3x3abstractors" else cont4x4()
    result = getattr(table.agree(layout="contingency"), IRRCAC_NAMES[coefficient])(weights=weights)
    assert_decimals(float(result), expected["value"], 3)
    if "se" in expected:
        assert_decimals(result.standard_error(), expected["se"], 3)
    low, high = result.confidence_interval()
    assert_decimals(low, expected["ci"][0], 3)
    assert_decimals(high, expected["ci"][1], 3)


@pytest.mark.parametrize("weights", ["identity", "linear", "quadratic", "bipolar"])
@pytest.mark.parametrize("method", ["observed", "bennett", "cohen", "scott", "gwet", "fleiss"])
def test_table_variance_is_the_raw_variance_times_n_minus_one_over_n(
    method: str, weights: str
) -> None:
    # The two formulas on the same items: the table's divides by n where the raw ratings'
    # divides by n - 1 (the README's uncertainty section says so).
    for table in (cont4x4(), NUMERIC):
        n = int(table.to_numpy().sum())
        on_table = getattr(table.agree(layout="contingency"), method)(weights=weights)
        raw = getattr(expand(table).agree(categories=list(table.index)), method)(weights=weights)
        assert on_table.standard_error() == pytest.approx(
            raw.standard_error() * math.sqrt((n - 1) / n), rel=1e-10
        )
        assert on_table.standard_error(N=500) == pytest.approx(
            raw.standard_error(N=500) * math.sqrt((n - 1) / n), rel=1e-10
        )


def test_alpha_on_a_table_uses_krippen2_table() -> None:
    # krippen2.table's SE is scott2.table's (irrCAC README: both 0.05905473); the raw-ratings
    # variance of alpha is another formula.
    ratings = cont3x3().agree(layout="contingency")
    assert ratings.alpha().standard_error() == ratings.scott().standard_error()
    ordinal = NUMERIC.agree(layout="contingency").alpha("ordinal", confidence_level=0.95)
    assert ordinal.ci_method == "bootstrap"  # no analytic variance for ordinal alpha


# --------------------------------------------------------------------------- command line


def test_cli_contingency(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "cont4x4diagnosis.csv"
    cont4x4().rename_axis("Diagnosis").to_csv(path)
    assert main(["report", str(path), "--layout", "contingency", "--format", "csv"]) == 0
    out = capsys.readouterr().out
    got = pd.read_csv(io.StringIO(out), index_col=0)
    expected = cont4x4().agree(layout="contingency").report()
    np.testing.assert_allclose(got["value"].to_numpy(), expected["value"].to_numpy(), rtol=1e-12)
    assert main(["report", str(path), "--layout", "contingency"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert header == (
        f"{path} (contingency): 223 items, 2 raters, 4 categories (Schizophrenia, Bipolar "
        "Disorder, Depression, Other)"
    )


def test_cli_contingency_numbers(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "numbers.csv"
    NUMERIC.rename_axis("first").to_csv(path)
    argv = ["report", str(path), "--layout", "contingency", "--format", "csv"]
    assert main([*argv, "--categories", "1,2,3,4,5", "--coefficients", "bennett"]) == 0
    out = capsys.readouterr().out
    bennett = float(out.splitlines()[1].split(",")[1])
    assert bennett == pytest.approx(
        float(NUMERIC.agree(layout="contingency", categories=[1, 2, 3, 4, 5]).bennett())
    )
    assert main([*argv, "--by", "first"]) == 2
    assert "`--by` does not apply to --layout contingency" in capsys.readouterr().err


def test_crosstab_margins_are_not_a_category() -> None:
    wide = expand(cont3x3())
    table = pd.crosstab(wide["rater1"], wide["rater2"], margins=True)
    message = (
        "the contingency table's last row and column, 'All', hold the totals of the others "
        "(pd.crosstab(..., margins=True) adds them), not a category. Drop them: "
        "table.drop(index='All', columns='All')."
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        table.agree(layout="contingency")
    dropped = table.drop(index="All", columns="All").agree(layout="contingency")
    assert_same(dropped.cohen(), wide.agree().cohen())


def test_a_table_read_as_a_wide_frame_warns() -> None:
    # Without layout="contingency" a table is read as a wide frame: columns are raters, cells
    # their labels. A square frame of counts whose index and columns match says so.
    message = (
        "the frame looks like two raters' contingency table: its index and columns hold the "
        "same labels ['Ectopic', 'AIU', 'NIU'] and its cells are counts. If it is one (rows "
        "the first rater's categories, columns the second's), pass layout='contingency'; as a "
        "wide frame its columns are raters and its cells their labels."
    )
    with pytest.warns(pdagree.LayoutWarning, match=re.escape(message)):
        cont3x3().agree()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cont3x3().agree(layout="contingency")
        expand(cont3x3()).agree()
