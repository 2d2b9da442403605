"""Krippendorff's alpha: published values, differential tests, properties, errors and scale.

Published values are compared at the precision the source prints (half a unit of the last
printed digit); differential tests against the ``krippendorff`` package and nltk at full
precision. irrCAC prints its own ``pa``/``pe`` for alpha (Gwet's formulation), which are not
pdagree's ``1 - D_o`` and ``1 - D_e``; only irrCAC's coefficient is compared.
"""

from __future__ import annotations

import re
import tracemalloc
import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
import references as ref
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import pdagree
from pdagree._kernels import alpha as KA

LEVELS = ("nominal", "ordinal", "interval", "ratio")
SETTINGS = settings(max_examples=40, deadline=None)
MEMBERS = ("value", "observed", "expected", "n_items", "n_values")


def members(result: Any) -> list[float]:
    return [float(result) if k == "value" else float(getattr(result, k)) for k in MEMBERS]


def assert_same(a: Any, b: Any) -> None:
    np.testing.assert_allclose(members(a), members(b), rtol=1e-9, atol=1e-12, equal_nan=True)


def quiet(ratings: pdagree.Ratings, level: Any = "nominal") -> Any:
    """alpha, ignoring the warning that flags an undefined (nan) value."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pdagree.UndefinedStatisticWarning)
        return ratings.alpha(level)


def squared(x: np.ndarray) -> np.ndarray:
    return np.subtract.outer(x, x) ** 2


def pairable_values(wide: pd.DataFrame) -> np.ndarray:
    """The values of items (rows) with two or more ratings."""
    arr = wide.to_numpy(dtype=float)
    rows = (~np.isnan(arr)).sum(axis=1) >= 2
    sub = arr[rows]
    return sub[~np.isnan(sub)]


# --------------------------------------------------------------------------- published

KRIPP = pd.DataFrame(ref.KRIPPENDORFF_2011_RELIABILITY_DATA, index=ref.KRIPPENDORFF_2011_UNITS)


@pytest.mark.parametrize("level", LEVELS)
def test_krippendorff_2011_published(level: str) -> None:
    """Krippendorff (2011), "Computing Krippendorff's alpha-reliability", sections C-F: the
    4 observers x 12 units example with missing data (data p. 8): nominal 0.743, ordinal
    0.815, interval 0.849, ratio 0.797 (values in tests/references.py)."""
    a = KRIPP.agree.alpha(level)
    assert a.name == f"alpha[{level}]"
    assert abs(float(a) - ref.KRIPPENDORFF_2011_ALPHA[level]) <= 0.0005
    assert a.n_items == 11  # unit 12 has a single value
    assert a.n_values == ref.KRIPPENDORFF_2011_N_PAIRABLE  # n = 40 pairable values


@pytest.mark.parametrize("level", LEVELS)
def test_krippendorff_2011_package(level: str) -> None:
    """Full precision against the krippendorff package (0.9.0) on the same data."""
    krippendorff = pytest.importorskip("krippendorff")
    a = KRIPP.agree.alpha(level)
    expected = ref.KRIPPENDORFF_PACKAGE_0_9_0_ALPHA[level]
    live = krippendorff.alpha(KRIPP.to_numpy(dtype=float).T, level_of_measurement=level)
    assert float(a) == pytest.approx(expected, rel=1e-12)
    assert float(a) == pytest.approx(live, rel=1e-12)


def test_krippendorff_2011_components() -> None:
    """Nominal: D_e from the published marginals n_c (Krippendorff 2011, section C)."""
    a = KRIPP.agree.alpha()
    n = ref.KRIPPENDORFF_2011_N_PAIRABLE
    n_c = np.array(list(ref.KRIPPENDORFF_2011_NOMINAL_MARGINALS.values()), dtype=float)
    d_e = (n * n - (n_c**2).sum()) / (n * (n - 1))
    assert a.expected_disagreement == pytest.approx(d_e, rel=1e-12)
    assert a.expected == pytest.approx(1 - d_e, rel=1e-12)
    assert a.observed == pytest.approx(1 - a.observed_disagreement, rel=1e-12)
    assert float(a) == pytest.approx(1 - a.observed_disagreement / d_e, rel=1e-12)


def test_krippendorff_2011_two_observers() -> None:
    """Krippendorff (2011) section A (binary, alpha 0.095) and section B (nominal, 0.692)."""
    binary = pd.DataFrame(ref.KRIPPENDORFF_2011_BINARY)
    assert abs(float(binary.agree.alpha()) - ref.KRIPPENDORFF_2011_BINARY_ALPHA) <= 0.0005
    nominal = pd.DataFrame(ref.KRIPPENDORFF_2011_NOMINAL_2OBS)
    value = float(nominal.agree.alpha())
    assert abs(value - ref.KRIPPENDORFF_2011_NOMINAL_2OBS_ALPHA) <= 0.0005


def test_irrcac_raw4raters() -> None:
    """irrCAC README (krippen.alpha.raw, 0.74342) and weighting.html (quadratic, 0.84911,
    which is interval alpha on the scores 1..5)."""
    wide = pd.DataFrame(ref.IRRCAC_RAW4RATERS)
    nominal = ref.IRRCAC_RAW4RATERS_EXPECTED["krippendorff"]["value"]
    quadratic = ref.IRRCAC_RAW4RATERS_QUADRATIC_EXPECTED["krippendorff"]["value"]
    assert abs(float(wide.agree.alpha()) - nominal) <= 0.000005
    assert abs(float(wide.agree.alpha("interval")) - quadratic) <= 0.000005


def test_irrcac_distrib_6raters_counts() -> None:
    """A counts table: irrCAC README krippen.alpha.dist 0.4204384; weighting.html with
    quadratic.weights(1:5) 0.259511 (a (K, K) matrix of squared score differences)."""
    table = pd.DataFrame(ref.IRRCAC_DISTRIB_6RATERS, columns=ref.IRRCAC_DISTRIB_6RATERS_CATEGORIES)
    ratings = table.agree(layout="counts")
    nominal = ref.IRRCAC_DISTRIB_6RATERS_EXPECTED["krippendorff"]["value"]
    quadratic = ref.IRRCAC_DISTRIB_6RATERS_QUADRATIC_EXPECTED["krippendorff"]["value"]
    assert abs(float(ratings.alpha()) - nominal) <= 0.00000005
    custom = ratings.alpha(squared(np.arange(1.0, 6.0)))
    assert custom.name == "alpha[custom]"
    assert abs(float(custom) - quadratic) <= 0.0000005


def test_irrcac_cont3x3abstractors() -> None:
    """Two raters from a contingency table: irrCAC README krippen2.table 0.7972585 and
    weighting.html quadratic 0.8926487."""
    cats = ref.IRRCAC_CONT3X3ABSTRACTORS_CATEGORIES
    table = ref.IRRCAC_CONT3X3ABSTRACTORS
    rows = [(cats[i], cats[j]) for i in range(3) for j in range(3) for _ in range(table[i][j])]
    ratings = pd.DataFrame(rows, columns=["a", "b"]).agree(categories=cats)
    nominal = ref.IRRCAC_CONT3X3ABSTRACTORS_EXPECTED["krippendorff"]["value"]
    quadratic = ref.IRRCAC_CONT3X3ABSTRACTORS_QUADRATIC_EXPECTED["krippendorff"]["value"]
    assert abs(float(ratings.alpha()) - nominal) <= 0.00000005
    assert abs(float(ratings.alpha(squared(np.arange(3.0)))) - quadratic) <= 0.00000005


# --------------------------------------------------------------------------- differential


@st.composite
def reliability_data(
    draw: st.DrawFn, continuous: bool = False, min_raters: int = 2, max_raters: int = 5
) -> pd.DataFrame:
    """A wide frame (items x raters) of non-negative numbers with missing values, whose
    pairable values hold at least two distinct values."""
    n_items = draw(st.integers(2, 12))
    n_raters = draw(st.integers(min_raters, max_raters))
    if continuous:
        value = st.floats(0.0, 50.0, allow_nan=False).map(lambda v: round(v, 3))
    else:
        value = st.integers(0, 6).map(float)
    cells = st.one_of(value, st.just(np.nan)) if draw(st.booleans()) else value
    data = draw(
        st.lists(
            st.lists(cells, min_size=n_raters, max_size=n_raters),
            min_size=n_items,
            max_size=n_items,
        )
    )
    wide = pd.DataFrame(data, columns=[f"r{j}" for j in range(n_raters)], dtype=float)
    assume(len(np.unique(pairable_values(wide))) >= 2)
    return wide


@pytest.mark.parametrize("level", LEVELS)
@SETTINGS
@given(data=st.data())
@pytest.mark.filterwarnings("ignore:.*continuous ratings:pdagree.PdagreeWarning")
def test_matches_krippendorff_package(level: str, data: st.DataObject) -> None:
    krippendorff = pytest.importorskip("krippendorff")
    wide = data.draw(reliability_data(continuous=data.draw(st.booleans())))
    expected = krippendorff.alpha(wide.to_numpy(dtype=float).T, level_of_measurement=level)
    assert float(wide.agree.alpha(level)) == pytest.approx(expected, rel=1e-9, abs=1e-12)


@SETTINGS
@given(data=st.data())
def test_nominal_matches_nltk(data: st.DataObject) -> None:
    """nltk's AnnotationTask.alpha() pools every value (pairable or not): compare on two
    raters with complete data, where every value is pairable."""
    agreement = pytest.importorskip("nltk.metrics.agreement")
    n = data.draw(st.integers(2, 15))
    labels = st.sampled_from(["a", "b", "c", "d"])
    wide = pd.DataFrame(
        {
            "x": data.draw(st.lists(labels, min_size=n, max_size=n)),
            "y": data.draw(st.lists(labels, min_size=n, max_size=n)),
        }
    )
    assume(wide.stack().nunique() >= 2)
    task = agreement.AnnotationTask(
        data=[(c, str(i), v) for c in wide.columns for i, v in wide[c].items()]
    )
    assert float(wide.agree.alpha()) == pytest.approx(task.alpha(), rel=1e-9, abs=1e-12)


# --------------------------------------------------------------------------- invariances


@pytest.mark.parametrize("level", LEVELS)
@SETTINGS
@given(data=st.data())
def test_rater_item_order_and_missing_rater(level: str, data: st.DataObject) -> None:
    wide = data.draw(reliability_data())
    base = wide.agree.alpha(level)
    columns = data.draw(st.permutations(list(wide.columns)))
    rows = data.draw(st.permutations(list(range(len(wide)))))
    assert_same(wide[columns].agree.alpha(level), base)
    assert_same(wide.iloc[rows].agree.alpha(level), base)
    assert_same(wide.assign(extra=np.nan).agree.alpha(level), base)


@SETTINGS
@given(data=st.data())
def test_nominal_label_renaming(data: st.DataObject) -> None:
    wide = data.draw(reliability_data())
    present = sorted(set(wide.stack().dropna()))
    names = data.draw(st.permutations([f"label{j}" for j in range(len(present))]))
    renamed = wide.apply(lambda col: col.map(dict(zip(present, names, strict=True))))
    assert_same(renamed.agree.alpha(), wide.agree.alpha())


@SETTINGS
@given(data=st.data())
def test_scale_invariances(data: st.DataObject) -> None:
    """Interval alpha ignores shifts and scales; ratio alpha scales; ordinal alpha any
    increasing map (it sees ranks only)."""
    wide = data.draw(reliability_data(continuous=True))
    shift = data.draw(st.floats(-100, 100).map(lambda v: round(v, 2)))
    scale = data.draw(st.floats(0.5, 20).map(lambda v: round(v, 2)))
    value = {level: float(wide.agree.alpha(level)) for level in ("ordinal", "interval", "ratio")}
    assert float((wide * scale + shift).agree.alpha("interval")) == pytest.approx(
        value["interval"], rel=1e-7, abs=1e-9
    )
    assert float((wide * scale).agree.alpha("ratio")) == pytest.approx(
        value["ratio"], rel=1e-7, abs=1e-9
    )
    assert float(np.exp(wide / 10).agree.alpha("ordinal")) == pytest.approx(
        value["ordinal"], rel=1e-9, abs=1e-12
    )


@pytest.mark.parametrize("level", LEVELS)
@SETTINGS
@given(data=st.data())
def test_wide_long_counts(level: str, data: st.DataObject) -> None:
    wide = data.draw(reliability_data())
    base = wide.agree.alpha(level)
    long = (
        wide.rename_axis("unit")
        .reset_index()
        .melt(id_vars="unit", var_name="coder", value_name="value")
    )
    from_long = long.agree(item="unit", rater="coder", label="value").alpha(level)
    counts = wide.agree().counts()
    from_counts = counts.agree(layout="counts").alpha(level)
    assert_same(from_long, base)
    assert_same(from_counts, base)


@pytest.mark.parametrize("level", LEVELS)
@SETTINGS
@given(data=st.data())
def test_by_equals_loop(level: str, data: st.DataObject) -> None:
    wide = data.draw(reliability_data())
    groups = data.draw(
        st.lists(st.sampled_from(["g1", "g2", "g3"]), min_size=len(wide), max_size=len(wide))
    )
    framed = wide.assign(site=groups)
    table = quiet(framed.agree(by="site"), level)
    for key, sub in framed.groupby("site"):
        row = table.loc[key]
        assert row["name"] == f"alpha[{level}]"
        alone = sub.drop(columns="site")
        if alone.notna().any().sum() < 2:  # fewer than two raters: not a frame on its own
            assert np.isnan(row["value"]) and row["n_items"] == 0
            continue
        single = quiet(alone.agree(), level)
        got = [row[k] for k in MEMBERS]
        np.testing.assert_allclose(got, members(single), rtol=1e-9, atol=1e-12, equal_nan=True)


@pytest.mark.parametrize("level", [*LEVELS, "matrix", "callable"])
def test_frame_unchanged(level: str) -> None:
    wide = KRIPP.copy()
    before = wide.copy()
    arg: Any = level
    if level == "matrix":
        arg = squared(np.arange(1.0, 6.0))
    elif level == "callable":
        arg = lambda c, k: np.abs(c - k)  # noqa: E731
    wide.agree.alpha(arg)
    long = wide.reset_index().melt(id_vars="index")
    long_before = long.copy()
    long.agree(item="index", rater="variable", label="value").alpha(arg)
    pd.testing.assert_frame_equal(wide, before)
    pd.testing.assert_frame_equal(long, long_before)


# --------------------------------------------------------------------------- custom metrics


@SETTINGS
@given(data=st.data())
@pytest.mark.filterwarnings("ignore:.*continuous ratings:pdagree.PdagreeWarning")
def test_matrix_and_callable_equal_named_levels(data: st.DataObject) -> None:
    wide = data.draw(reliability_data(continuous=data.draw(st.booleans())))
    ratings = wide.agree()
    x = np.asarray(ratings.categories, dtype=float)
    nominal = 1.0 - np.eye(len(x))
    assert_same(ratings.alpha(nominal), ratings.alpha("nominal"))
    assert_same(ratings.alpha(squared(x)), ratings.alpha("interval"))
    assert_same(ratings.alpha(lambda c, k: (c - k) ** 2), ratings.alpha("interval"))

    def ratio(c: np.ndarray, k: np.ndarray) -> np.ndarray:
        total = c + k
        return np.divide(c - k, total, out=np.zeros_like(total), where=total != 0) ** 2

    assert_same(ratings.alpha(ratio), ratings.alpha("ratio"))
    frame = pd.DataFrame(squared(x), index=ratings.categories, columns=ratings.categories)
    assert_same(ratings.alpha(frame.iloc[::-1, ::-1]), ratings.alpha("interval"))


def test_callable_on_labels_gets_positions() -> None:
    wide = pd.DataFrame({"a": ["lo", "mid", "hi", "lo"], "b": ["lo", "hi", "hi", "mid"]})
    ratings = wide.agree(categories=["lo", "mid", "hi"])
    seen: list[np.ndarray] = []

    def delta2(c: np.ndarray, k: np.ndarray) -> np.ndarray:
        seen.append(np.unique(np.r_[c.ravel(), k.ravel()]))
        return (c - k) ** 2

    custom = ratings.alpha(delta2)
    assert set(np.concatenate(seen)) <= {0.0, 1.0, 2.0}
    assert_same(custom, ratings.alpha(squared(np.arange(3.0))))


def test_ordinal_uses_frequencies_not_positions() -> None:
    """Krippendorff's ordinal metric depends on how many values lie between two categories;
    an unused category in between changes nothing, unlike a rank-based distance."""
    wide = pd.DataFrame(
        {"a": ["lo", "mid", "hi", "lo", "hi"], "b": ["lo", "hi", "hi", "mid", "lo"]}
    )
    three = wide.agree(categories=["lo", "mid", "hi"]).alpha("ordinal")
    four = wide.agree(categories=["lo", "mid", "unused", "hi"]).alpha("ordinal")
    assert_same(three, four)
    by_rank = wide.agree(categories=["lo", "mid", "unused", "hi"]).alpha(squared(np.arange(4.0)))
    assert abs(float(by_rank) - float(four)) > 1e-3


# --------------------------------------------------------------------------- undefined


def test_no_pairable_item_is_nan() -> None:
    wide = pd.DataFrame({"a": [1.0, np.nan, 3.0], "b": [np.nan, 2.0, np.nan]})
    message = "`alpha[interval]` is undefined: no item has two or more ratings; the value is nan."
    with pytest.warns(pdagree.UndefinedStatisticWarning, match=re.escape(message)):
        a = wide.agree.alpha("interval")
    assert np.isnan(float(a))
    assert a.n_items == 0
    assert a.n_values == 0


@pytest.mark.parametrize("level", LEVELS)
def test_one_pairable_value_is_nan(level: str) -> None:
    """D_e = 0 (every pairable value equal; the lone 9 is not pairable): alpha is nan, and
    the warning reports it as A_e = 1 - D_e = 1."""
    wide = pd.DataFrame({"a": [4.0, 4.0, 9.0], "b": [4.0, 4.0, np.nan]})
    message = (
        f"`alpha[{level}]` is undefined: the expected agreement A_e is 1 (all ratings fall in "
        "one category); the value is nan."
    )
    with pytest.warns(pdagree.UndefinedStatisticWarning, match=re.escape(message)):
        a = wide.agree.alpha(level)
    assert np.isnan(float(a))
    assert a.expected_disagreement == 0.0
    assert a.observed_disagreement == 0.0
    assert a.n_items == 2


def test_undefined_group_is_nan() -> None:
    wide = pd.DataFrame(
        {"a": [1.0, 2.0, 5.0, 5.0], "b": [1.0, 3.0, 5.0, 5.0], "site": ["x", "x", "y", "y"]}
    )
    message = (
        "`alpha[ratio]` is undefined in 1 of 2 groups (e.g. ['y']): the expected agreement "
        "A_e is 1 (all ratings fall in one category); the value is nan."
    )
    with pytest.warns(pdagree.UndefinedStatisticWarning, match=re.escape(message)):
        table = wide.agree(by="site").alpha("ratio")
    assert np.isnan(table.loc["y", "value"])
    assert table.loc["x", "value"] == pytest.approx(
        float(wide[:2].drop(columns="site").agree.alpha("ratio"))
    )


# --------------------------------------------------------------------------- errors


def test_unknown_level() -> None:
    message = (
        "`level` must be one of 'nominal', 'ordinal', 'interval', 'ratio', a (K, K) matrix or "
        "a callable; got 'nominall'."
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        KRIPP.agree.alpha("nominall")
    with pytest.raises(TypeError, match=re.escape("a callable; got int 3.")):
        KRIPP.agree.alpha(3)  # type: ignore[arg-type]


@pytest.mark.parametrize("level", ["interval", "ratio"])
def test_interval_ratio_need_numbers(level: str) -> None:
    wide = pd.DataFrame({"a": ["x", "y"], "b": ["x", "x"]})
    message = (
        f"`level={level!r}` needs numeric labels (it takes differences of values); the "
        "categories are ['x', 'y']. Use level='ordinal' for ordered labels or 'nominal' for "
        "unordered ones, or pass a (K, K) matrix."
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        wide.agree.alpha(level)
    booleans = pd.DataFrame({"a": [True, False], "b": [True, True]})
    with pytest.raises(ValueError, match="needs numeric labels"):
        booleans.agree.alpha(level)


def test_ratio_needs_non_negative_values() -> None:
    wide = pd.DataFrame({"a": [-2.0, 1.0], "b": [1.0, 1.0]})
    message = (
        "`level='ratio'` needs non-negative values (ratio data have an absolute zero and the "
        "metric divides by c + k); got -2.0. Use level='interval' for values without a "
        "natural zero."
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        wide.agree.alpha("ratio")


def test_interval_needs_finite_values() -> None:
    wide = pd.DataFrame({"a": [np.inf, 1.0], "b": [1.0, 1.0]})
    message = "`level='interval'` needs finite values; got inf. Drop those ratings or use"
    with pytest.raises(ValueError, match=re.escape(message)):
        wide.agree.alpha("interval")


@pytest.mark.parametrize(
    ("matrix", "message"),
    [
        (
            np.zeros((4, 4)),
            "`level` as a matrix must be (5, 5), one row and column per category "
            "[1.0, 2.0, 3.0, 4.0, 5.0]; got shape (4, 4).",
        ),
        (
            np.triu(np.ones((5, 5)), 1),
            "`level` as a matrix must be symmetric (delta2[c, k] == delta2[k, c]); got an "
            "asymmetric matrix. Use (D + D.T) / 2 if the asymmetry is unintended.",
        ),
        (
            np.ones((5, 5)),
            "`level` as a matrix must have 0 on the diagonal (equal values do not disagree); "
            "got diagonal [1.0, 1.0, 1.0, 1.0, 1.0].",
        ),
        (
            -squared(np.arange(5.0)),
            "`level` as a matrix holds squared differences delta2[c, k], which cannot be "
            "negative; got -1.0.",
        ),
        (
            np.full((5, 5), np.nan),
            "`level` as a matrix must hold finite numbers; got nan or inf entries.",
        ),
    ],
)
def test_bad_matrix(matrix: np.ndarray, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        KRIPP.agree.alpha(matrix)


def test_bad_matrix_frame_and_type() -> None:
    frame = pd.DataFrame(squared(np.arange(4.0)), index=[1, 2, 3, 4], columns=[1, 2, 3, 4])
    message = (
        "a `level` DataFrame must have every category as a row and a column; missing [5.0]. "
        "Label it with the categories [1.0, 2.0, 3.0, 4.0, 5.0]."
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        KRIPP.agree.alpha(frame)
    with pytest.raises(TypeError, match="that is not a numeric matrix"):
        KRIPP.agree.alpha([["a", "b"], ["c", "d"]])  # type: ignore[arg-type]


def test_bad_callable() -> None:
    message = (
        "a `level` callable must give 0 for equal values (delta2(c, c) == 0); got 1.0 for "
        "category 1.0."
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        KRIPP.agree.alpha(lambda c, k: (c - k) ** 2 + 1)
    message = (
        "a `level` callable must be symmetric (delta2(c, k) == delta2(k, c)); got 0.0 and 1.0 "
        "for categories 1.0 and 2.0."
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        KRIPP.agree.alpha(lambda c, k: np.maximum(c - k, 0.0))
    message = (
        "a `level` callable must return delta2 elementwise, an array of the shape of its "
        "arguments (5,); got shape ()."
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        KRIPP.agree.alpha(lambda c, k: float(np.sum((c - k) ** 2)))
    message = "a `level` callable must return finite, non-negative squared differences; got"
    with pytest.raises(ValueError, match=re.escape(message)):
        KRIPP.agree.alpha(lambda c, k: k - c)


# --------------------------------------------------------------------------- inference


def test_bootstrap_interval_and_no_analytic() -> None:
    a = KRIPP.agree.alpha(
        "interval", confidence_level=0.9, method="bootstrap", n_resamples=200, rng=0
    )
    assert a.low < float(a) < a.high
    message = (
        "no analytic variance is available for `alpha[ordinal]` here: ordinal distances depend "
        "on the observed frequencies; use method='bootstrap'."
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        KRIPP.agree.alpha("ordinal", confidence_level=0.9, method="analytic")
    # The default method falls back to the bootstrap where there is no analytic variance
    # (issue 8, point 7) and says so.
    b = KRIPP.agree.alpha("ordinal", confidence_level=0.9, n_resamples=200, rng=0)
    assert b.ci_method == "bootstrap" and b.low < float(b) < b.high


RAW4 = pd.DataFrame(ref.IRRCAC_RAW4RATERS)


@pytest.mark.parametrize(
    ("kwargs", "expected", "alternative"),
    [
        # irrCAC README, krippen.alpha.raw(cac.raw4raters): one-sided p.
        ({}, ref.IRRCAC_RAW4RATERS_EXPECTED["krippendorff"], "greater"),
        # irrCAC weighting vignette, krippen.alpha.raw(cac.raw4raters, "quadratic"): two-sided p.
        (
            {"weights": "quadratic"},
            ref.IRRCAC_RAW4RATERS_QUADRATIC_EXPECTED["krippendorff"],
            "two-sided",
        ),
        # Krippendorff's interval metric is the quadratic weighting in Gwet's form.
        (
            {"level": "interval"},
            ref.IRRCAC_RAW4RATERS_QUADRATIC_EXPECTED["krippendorff"],
            "two-sided",
        ),
    ],
)
def test_analytic_inference_matches_irrcac(
    kwargs: dict[str, Any], expected: dict[str, Any], alternative: str
) -> None:
    a = RAW4.agree.alpha(**kwargs)
    assert round(float(a), 5) == expected["value"]
    assert round(a.standard_error(), 5) == expected["se"]
    low, high = a.confidence_interval()
    assert (round(low, 3), round(high, 3)) == expected["ci"]
    assert a.p_value(alternative=alternative) == pytest.approx(expected["p"], rel=1e-6)


def test_weighted_alpha_equals_metric_alpha() -> None:
    # Gwet's weighted alpha with w = 1 - delta2 / max(delta2) is Krippendorff's alpha.
    values = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    w = 1.0 - (values[:, None] - values[None, :]) ** 2 / 16.0
    assert float(KRIPP.agree.alpha(weights=w)) == pytest.approx(
        float(KRIPP.agree.alpha("interval")), rel=1e-12
    )
    assert float(KRIPP.agree.alpha(weights="identity")) == pytest.approx(
        float(KRIPP.agree.alpha()), rel=1e-12
    )
    assert KRIPP.agree.alpha(weights="quadratic").name == "alpha[weights=quadratic]"


def test_level_and_weights_together_is_an_error() -> None:
    message = (
        "`alpha()` takes `level=` (Krippendorff's metrics) or `weights=` (Gwet's weighted "
        "alpha), not both; got level='interval' and weights='quadratic'."
    )
    with pytest.raises(TypeError, match=re.escape(message)):
        KRIPP.agree.alpha("interval", weights="quadratic")


# --------------------------------------------------------------------------- kernel


def random_annotations(
    rng: np.random.Generator, n_items: int, n_groups: int, n_categories: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    per_item = rng.integers(0, 6, n_items)
    item = np.repeat(np.arange(n_items), per_item)
    code = rng.integers(0, n_categories, len(item))
    weight = rng.integers(1, 3, len(item)).astype(float)  # counts-table multiplicities
    group = rng.integers(0, n_groups, n_items)
    return item, code, weight, group


def metrics(values: np.ndarray) -> dict[str, KA.Metric]:
    return {
        "nominal": KA.Nominal(),
        "ordinal": KA.Ordinal(),
        "interval": KA.Interval(values),
        "ratio": KA.Pairwise(KA.ratio_delta2(values)),
        "matrix": KA.Pairwise(KA.matrix_delta2(np.abs(np.subtract.outer(values, values)))),
    }


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("budget", [1, 7, KA.DEFAULT_BUDGET])
def test_kernel_batch_equals_loop(seed: int, budget: int) -> None:
    rng = np.random.default_rng(seed)
    k = 9
    item, code, weight, group = random_annotations(rng, 60, 4, k)
    values = np.sort(rng.uniform(0, 10, k))
    for name, metric in metrics(values).items():
        batch = KA.alpha_components(item, code, weight, group, 4, k, metric, budget)
        for g in range(4):
            items = np.flatnonzero(group == g)
            keep = np.isin(item, items)
            local = np.searchsorted(items, item[keep])
            alone = KA.alpha_components(
                local,
                code[keep],
                weight[keep],
                np.zeros(len(items), dtype=np.int64),
                1,
                k,
                metric,
                budget,
            )
            for got, want in zip(batch, alone, strict=True):
                np.testing.assert_allclose(
                    got[g], want[0], rtol=1e-10, equal_nan=True, err_msg=name
                )


def brute_force(
    item: np.ndarray, code: np.ndarray, weight: np.ndarray, delta2: np.ndarray
) -> tuple[float, float]:
    """D_o and D_e from the coincidence matrix, straight from Krippendorff (2011)."""
    k = delta2.shape[0]
    n_items = int(item.max()) + 1
    table = np.zeros((n_items, k))
    np.add.at(table, (item, code), weight)  # n_uc
    m = table.sum(axis=1)
    scale = np.where(m >= 2, 1.0 / np.where(m >= 2, m - 1.0, 1.0), 0.0)
    o = table.T @ (scale[:, None] * table) - np.diag(scale @ table)
    n_c = o.sum(axis=1)
    n = n_c.sum()
    d_o = (o * delta2).sum() / n
    d_e = (np.outer(n_c, n_c) * delta2).sum() / (n * (n - 1))
    return d_o, d_e


@pytest.mark.parametrize("seed", range(3))
def test_kernel_long_segments_against_coincidences(seed: int) -> None:
    """Groups and items with more than 512 distinct values take the dense tiled path."""
    rng = np.random.default_rng(seed)
    k = 1500
    values = np.sort(rng.uniform(0, 100, k))
    item = np.r_[np.repeat(np.arange(300), 4), np.full(700, 300)]  # item 300: 700 values
    code = rng.integers(0, k, len(item))
    weight = np.ones(len(item))
    group = np.zeros(301, dtype=np.int64)
    x, y = np.meshgrid(values, values, indexing="ij")
    total = np.where(x + y == 0, 1.0, x + y)
    truth = {"ratio": ((x - y) / total) ** 2, "interval": (x - y) ** 2}
    for name, metric in (
        ("ratio", KA.Pairwise(KA.ratio_delta2(values))),
        ("interval", KA.Interval(values)),
        ("interval", KA.Pairwise(KA.matrix_delta2(truth["interval"]))),
    ):
        for budget in (1000, KA.DEFAULT_BUDGET):
            parts = KA.alpha_components(item, code, weight, group, 1, k, metric, budget)
            d_o, d_e = brute_force(item, code, weight, truth[name])
            assert parts.observed_disagreement[0] == pytest.approx(d_o, rel=1e-10)
            assert parts.expected_disagreement[0] == pytest.approx(d_e, rel=1e-10)


def test_kernel_ordinal_is_interval_on_midranks() -> None:
    rng = np.random.default_rng(3)
    k = 7
    item, code, weight, group = random_annotations(rng, 40, 1, k)
    pv = KA.pairable_values(item, code, weight, group, 1, k)
    counts = np.bincount(pv.value_code, weights=pv.value_frequency, minlength=k)
    cumulative = np.cumsum(counts)
    delta2 = np.zeros((k, k))
    for c in range(k):
        for d in range(c, k):
            between = cumulative[d] - (cumulative[c - 1] if c else 0.0)
            delta2[c, d] = delta2[d, c] = (between - (counts[c] + counts[d]) / 2) ** 2
    parts = KA.alpha_components(item, code, weight, group, 1, k, KA.Ordinal())
    d_o, d_e = brute_force(item, code, weight, delta2)
    assert parts.observed_disagreement[0] == pytest.approx(d_o, rel=1e-12)
    assert parts.expected_disagreement[0] == pytest.approx(d_e, rel=1e-12)


# --------------------------------------------------------------------------- scale


def peak_mib(func: Any) -> tuple[Any, float]:
    tracemalloc.start()
    try:
        result = func()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak / 2**20


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval"])
def test_scale_many_distinct_values(level: str) -> None:
    """200,000 annotations with about 150,000 distinct float values: no (V, V) array (that
    would be 180 GB); the whole call, encoding included, stays within 256 MiB."""
    rng = np.random.default_rng(0)
    truth = rng.normal(size=50_000) * 10
    values = np.round(truth[:, None] + rng.normal(size=(50_000, 4)), 4)
    wide = pd.DataFrame(values, columns=["a", "b", "c", "d"])
    if level == "nominal":  # announced: every value its own category
        with pytest.warns(pdagree.PdagreeWarning, match="continuous ratings"):
            a, peak = peak_mib(lambda: wide.agree.alpha(level))
    else:
        a, peak = peak_mib(lambda: wide.agree.alpha(level))
    assert a.n_categories > 140_000
    assert a.n_values == 200_000
    if level == "nominal":  # continuous values almost never coincide exactly
        assert abs(float(a)) < 0.01
    else:
        assert 0.9 < float(a) < 1.0
    assert peak < 256


def test_scale_ratio_memory() -> None:
    """Ratio alpha sums over value pairs in tiles: 20,000 distinct values (a (V, V) float
    array would take 3 GB) within 128 MiB."""
    rng = np.random.default_rng(1)
    truth = rng.uniform(1, 100, size=10_000)
    values = np.round(truth[:, None] * rng.lognormal(0, 0.05, size=(10_000, 2)), 3)
    wide = pd.DataFrame(values, columns=["a", "b"])
    a, peak = peak_mib(lambda: wide.agree.alpha("ratio"))
    assert a.n_categories > 15_000
    assert 0.9 < float(a) < 1.0
    assert peak < 128
