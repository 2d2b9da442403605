"""A contingency table computed from its K x K cells equals the table read as one item per count.

:class:`pdagree.tensors.table_data.TableData` computes every coefficient the registry
marks ``on_table`` from the (G, K, K) table; ``TableData.rows`` is the same table read as one
item per count, which the rest of pdagree computes on item by item. The two must agree on
every value, component and analytic variance; the bootstrap draws the cells from the
multinomial, each resample's value must be the value of the items it stands for, and BCa's
jackknife over cells must equal the jackknife over items.
"""

from __future__ import annotations

import pickle
import re
import tracemalloc
import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special

from pdagree import resampling
from pdagree.definitions import REGISTRY, get
from pdagree.ratings import Ratings
from pdagree.tensors.table_data import TableData

VALUES = [1, 2, 4, 5]

#: Every option set of the coefficients computed from the table.
CASES: list[tuple[str, dict[str, Any]]] = [
    *[
        (name, {"weights": w})
        for name in ("observed", "bennett", "fleiss", "gwet", "scott", "cohen", "conger")
        for w in (None, "linear", "quadratic", "ordinal", "bipolar")
    ],
    ("light", {}),
    ("bias", {}),
    *[("alpha", {"level": level}) for level in ("nominal", "ordinal", "interval", "ratio")],
    ("alpha", {"weights": "quadratic"}),
    ("alpha", {"level": np.abs(np.subtract.outer(VALUES, VALUES)).astype(float)}),
]


def table_frame(counts: Any, labels: list[Any] = VALUES) -> pd.DataFrame:
    k = len(counts)
    return pd.DataFrame(
        np.asarray(counts, dtype=np.int64),
        index=pd.Index(labels[:k], name="first"),
        columns=pd.Index(labels[:k], name="second"),
    )


def as_items(ratings: Ratings) -> Ratings:
    """The same ratings, read as one item per count (what pdagree computed before)."""
    expanded = Ratings.__new__(Ratings)
    expanded._hold(ratings._data.rows)
    return expanded


def run(ratings: Ratings, name: str, options: dict[str, Any], **inference: Any) -> Any:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = getattr(ratings, name)(**options, **inference)
    return result, sorted(str(w.message) for w in caught)


def same(a: Any, b: Any) -> None:
    """The same coefficient: value, components, members and warnings."""
    (ours, our_warnings), (theirs, their_warnings) = a, b
    assert our_warnings == their_warnings
    np.testing.assert_allclose(float(ours), float(theirs), rtol=1e-9, atol=1e-12, equal_nan=True)
    for member in ("observed", "expected", "n_items", "n_raters", "n_categories"):
        np.testing.assert_allclose(
            getattr(ours, member), getattr(theirs, member), rtol=1e-9, atol=1e-12, equal_nan=True
        )
    extras = ("D_o", "D_e", "n_values", "max_delta2", "n_pairs", "expected_pi", "marginal_gap")
    for member in (*extras, "se", "low", "high", "se_h0"):
        if hasattr(theirs, member):
            np.testing.assert_allclose(
                getattr(ours, member),
                getattr(theirs, member),
                rtol=1e-9,
                atol=1e-12,
                equal_nan=True,
            )
    assert ours.name == theirs.name


@st.composite
def tables(draw: st.DrawFn) -> pd.DataFrame:
    k = draw(st.integers(1, 4))
    cell = st.integers(0, 6)
    counts = draw(st.lists(st.lists(cell, min_size=k, max_size=k), min_size=k, max_size=k))
    if sum(map(sum, counts)) == 0:
        counts[0][0] = 1
    return table_frame(counts)


def test_the_registry_marks_what_is_computed_from_the_table() -> None:
    on_table = {name for name, d in REGISTRY.items() if d.on_table}
    assert on_table == {name for name, _ in CASES}
    assert {"spa", "multilabel"}.isdisjoint(on_table)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(table=tables())
def test_every_coefficient_equals_the_table_read_as_items(table: pd.DataFrame) -> None:
    ratings = table.agree(layout="contingency")
    assert isinstance(ratings._data, TableData)
    items = as_items(ratings)
    assert not isinstance(items._data, TableData)
    assert ratings.n_items == items.n_items == int(table.to_numpy().sum())
    for name, options in CASES:
        if len(table) != 4 and isinstance(options.get("level"), np.ndarray):
            continue  # the matrix is for four categories
        same(run(ratings, name, options), run(items, name, options))


@pytest.mark.parametrize(("name", "options"), CASES, ids=[f"{n}-{o}" for n, o in CASES])
def test_analytic_and_large_sample_errors_equal_the_items(name: str, options: Any) -> None:
    table = table_frame([[9, 3, 1, 0], [2, 7, 2, 1], [0, 3, 8, 2], [1, 0, 2, 6]])
    ratings = table.agree(layout="contingency")
    items = as_items(ratings)
    definition = get(name)
    if definition.variance is not None:
        try:
            same(
                run(ratings, name, options, confidence_level=0.9, method="analytic"),
                run(items, name, options, confidence_level=0.9, method="analytic"),
            )
        except ValueError as error:  # ordinal alpha has none: both refuse alike
            with pytest.raises(ValueError, match=re.escape(str(error))):
                run(items, name, options, confidence_level=0.9, method="analytic")
    if definition.large_sample is not None:
        same(
            run(ratings, name, options, confidence_level=0.9, method="large-sample"),
            run(items, name, options, confidence_level=0.9, method="large-sample"),
        )
    if definition.null_se is not None and options.get("weights") is None:
        a = getattr(ratings, name)(**options).z_test(method="large-sample")
        b = getattr(items, name)(**options).z_test(method="large-sample")
        np.testing.assert_allclose(a, b, rtol=1e-12)


@pytest.mark.parametrize(("name", "options"), CASES, ids=[f"{n}-{o}" for n, o in CASES])
def test_each_resample_is_the_value_of_the_items_it_draws(name: str, options: Any) -> None:
    table = table_frame([[9, 3, 1, 0], [2, 7, 2, 1], [0, 3, 8, 2], [1, 0, 2, 6]])
    ratings = table.agree(layout="contingency")
    data = ratings._data
    assert isinstance(data, TableData)
    definition = get(name)
    call = dict(options)
    _, _, count = data.cells
    draws = np.random.default_rng(7).multinomial(int(count.sum()), count / count.sum(), 6)
    draws = np.vstack([draws, count - np.eye(len(count))[3]])  # and a jackknife table
    values = resampling._table_values(data, definition, call, draws.astype(float))
    k = len(table)
    first, second, _ = data.cells
    for drawn, value in zip(draws, values, strict=True):
        cells = np.zeros((k, k))
        np.add.at(cells, (first, second), drawn)
        alone = table_frame(cells).agree(layout="contingency", categories=VALUES)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = float(getattr(as_items(alone), name)(**options))
        np.testing.assert_allclose(value, want, rtol=1e-9, atol=1e-12, equal_nan=True)


def test_bca_jackknife_over_cells_equals_the_jackknife_over_items() -> None:
    # scipy's BCa (Efron & Tibshirani 1993, 14.3): z0 from the replicates, the acceleration
    # from the jackknife over the n items. Items of one cell leave the same table out, so
    # the table path weighs each cell's jackknife value by its count; here the n values are
    # computed item by item on the expanded frame and the interval is built by hand.
    table = table_frame([[9, 3, 1], [2, 7, 2], [0, 3, 8]])
    ratings = table.agree(layout="contingency")
    data = ratings._data
    definition = get("cohen")
    se, low, high, reps = resampling.table_bootstrap(
        data,
        definition,
        {"weights": None},
        confidence_level=0.9,
        n_resamples=999,
        rng=4,
        interval="BCa",
    )
    wide = pd.DataFrame(
        [(a, b) for a in table.index for b in table.columns for _ in range(table.loc[a, b])],
        columns=["first", "second"],
    )
    theta_i = np.array(
        [float(wide.drop(index=i).agree(categories=[1, 2, 4]).cohen()) for i in wide.index]
    )
    value = float(wide.agree().cohen())
    d = theta_i.mean() - theta_i
    accel = (d**3).sum() / (6.0 * ((d**2).sum()) ** 1.5)
    b = reps[:, 0]
    z0 = special.ndtri(((b < value).sum() + (b <= value).sum()) / (2.0 * len(b)))
    z = special.ndtri(np.array([0.05, 0.95]))
    levels = special.ndtr(z0 + (z0 + z) / (1.0 - accel * (z0 + z)))
    np.testing.assert_allclose([low, high], np.quantile(b, levels), rtol=1e-12)
    assert se == pytest.approx(float(np.std(b, ddof=1)), rel=1e-12)


def test_a_table_of_billions_costs_what_its_cells_cost() -> None:
    # The table divided by 10^6 has the same proportions: the same values (but alpha's, which
    # corrects for the sample size and tends to Scott's pi); the analytic and large-sample
    # standard errors are 1000 times smaller (variances proportional to 1 / n).
    shares = np.array([[7, 1, 0], [1, 6, 1], [0, 1, 3]], dtype=float)
    big = table_frame(shares * 1e8, [1, 2, 3]).agree(layout="contingency")
    small = table_frame(shares * 1e2, [1, 2, 3]).agree(layout="contingency")
    small.report(confidence_level=0.95)  # imports done before measuring
    tracemalloc.start()
    try:
        report = big.report(confidence_level=0.95)
        bootstrap = big.alpha("ordinal", confidence_level=0.95, n_resamples=500, rng=1)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 * 2**20
    reference = small.report(confidence_level=0.95)
    proportional = report.index != "alpha[nominal]"
    pd.testing.assert_frame_equal(
        report.loc[proportional, ["value", "observed", "expected"]],
        reference.loc[proportional, ["value", "observed", "expected"]],
    )
    assert report.loc["alpha[nominal]", "value"] == pytest.approx(
        report.loc["scott", "value"], abs=1e-9
    )
    analytic = report["ci_method"] == "analytic"
    np.testing.assert_allclose(
        report.loc[analytic, "se"], reference.loc[analytic, "se"] / 1e3, rtol=1e-6
    )
    assert big.n_items == 2_000_000_000
    assert "2000000000 items" in repr(big)
    large = big.cohen(confidence_level=0.95, method="large-sample")
    assert large.se == pytest.approx(
        small.cohen(confidence_level=0.95, method="large-sample").se / 1e3, rel=1e-6
    )
    assert 0 < bootstrap.se < 1e-4
    # What reads items one by one is refused, before allocating, with the remedy.
    for analysis in (big.items, big.per_category, big.spa, lambda: big.multilabel()):
        with pytest.raises(ValueError, match="reads the contingency table as one item per count"):
            analysis()


def test_spa_and_the_breakdowns_read_the_items() -> None:
    table = table_frame([[9, 3, 1], [2, 7, 2], [0, 3, 8]])
    ratings = table.agree(layout="contingency")
    items = as_items(ratings)
    same(run(ratings, "spa", {}), run(items, "spa", {}))
    pd.testing.assert_frame_equal(ratings.items(), items.items())
    pd.testing.assert_frame_equal(ratings.per_category(), items.per_category())
    again = pickle.loads(pickle.dumps(ratings))
    assert isinstance(again._data, TableData)
    assert float(again.cohen()) == float(ratings.cohen())


def test_a_jackknife_or_bootstrap_replicate_without_items_is_nan_not_an_error() -> None:
    # One item: every resample is that item, no spread; the coefficient warns itself.
    table = table_frame([[1, 0], [0, 0]], [1, 2])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = table.agree(layout="contingency").observed(
            confidence_level=0.9, method="bootstrap"
        )
    assert np.isnan(result.se)
