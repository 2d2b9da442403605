"""Hypothesis properties of the weighted coefficients and of their analytic standard errors.

Weighted observed agreement, Bennett's S, Fleiss', Conger's and Gwet's coefficients and Gwet's
weighted alpha (``alpha(weights=...)``) with linear and quadratic weights on numeric labels, and
Scott's pi and Cohen's kappa on two raters; Gwet's linearised standard error of each. For every
one: rater order, item order, an added all-missing rater, wide = long = counts (for those that
need no rater identity), ``by=`` equal to a loop over groups (value and standard error), and the
user's frame unchanged. Labels are numbers from a small set with uneven gaps, so weights built
on the values differ from weights built on the ranks.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from layouts import to_counts
from layouts import to_long as _to_long

import pdagree
from pdagree.definitions import REGISTRY

SETTINGS = settings(max_examples=20, deadline=None)
HEAVY = settings(max_examples=10, deadline=None)

LABELS = (1, 2, 4, 7)
WEIGHTS = ("linear", "quadratic")

# Coefficients by what they need: any layout; rater identity; exactly two raters.
# Every coefficient of the registry that takes agreement weights, by what it needs.
WEIGHTED = {n: d for n, d in REGISTRY.items() if d.weights}
ANY_LAYOUT = tuple(n for n, d in WEIGHTED.items() if not (d.needs_raters or d.two_raters))
WITH_RATERS = tuple(n for n, d in WEIGHTED.items() if d.needs_raters and not d.two_raters)
TWO_RATERS = tuple(n for n, d in WEIGHTED.items() if d.two_raters)
MEMBERS = ("value", "observed", "expected", "n_items", "n_raters")
# A counts table knows no raters: its n_raters is the most ratings an item has.
COUNTS_MEMBERS = MEMBERS[:-1]


def methods_for(n_raters: int) -> tuple[str, ...]:
    return ANY_LAYOUT + WITH_RATERS + (TWO_RATERS if n_raters == 2 else ())


def quiet(fn: Callable[[], Any]) -> Any:
    """Run ``fn``, ignoring only the warning that flags undefined (nan) values."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pdagree.UndefinedStatisticWarning)
        return fn()


def call(ratings: pdagree.Ratings, coefficient: str, weights: Any, **options: Any) -> Any:
    """``coefficient`` with ``weights`` (for alpha: Gwet's weighted alpha) and ``options``."""
    return quiet(lambda: getattr(ratings, coefficient)(weights=weights, **options))


def summary(result: Any, keys: tuple[str, ...] = MEMBERS) -> list[float]:
    """The members ``keys``, the analytic standard error and the 95% interval."""
    values = [float(result) if key == "value" else float(getattr(result, key)) for key in keys]
    return [*values, quiet(result.standard_error), *quiet(result.confidence_interval)]


def assert_same(a: Any, b: Any, keys: tuple[str, ...] = MEMBERS) -> None:
    np.testing.assert_allclose(
        summary(a, keys), summary(b, keys), rtol=1e-9, atol=1e-12, equal_nan=True
    )


def two_active_raters(wide: pd.DataFrame) -> bool:
    return int(wide.notna().any().sum()) >= 2


def pairable_items(wide: pd.DataFrame) -> int:
    return int((wide.notna().sum(axis=1) >= 2).sum())


@st.composite
def wide_frames(draw: st.DrawFn, min_raters: int = 2, max_raters: int = 4) -> pd.DataFrame:
    n_items = draw(st.integers(1, 8))
    n_raters = draw(st.integers(min_raters, max_raters))
    labels = draw(st.lists(st.sampled_from(LABELS), min_size=1, max_size=len(LABELS), unique=True))
    label = st.sampled_from(sorted(labels)).map(float)
    cell = st.one_of(st.just(np.nan), label, label)
    rows = draw(
        st.lists(
            st.lists(cell, min_size=n_raters, max_size=n_raters),
            min_size=n_items,
            max_size=n_items,
        )
    )
    df = pd.DataFrame(
        rows,
        columns=[f"r{j}" for j in range(n_raters)],
        index=pd.Index([f"i{i}" for i in range(n_items)], name="item"),
        dtype=np.float64,
    )
    # A frame needs two raters with ratings (fewer is a ValueError by design).
    assume(two_active_raters(df))
    # Two edge cases are pinned on their own at the end of this file: a single category and
    # fewer than two items to estimate a variance from.
    assume(df.stack().nunique() >= 2)
    assume(pairable_items(df) >= 2)
    return df


def to_long(wide: pd.DataFrame, drop_missing: bool) -> pd.DataFrame:
    return _to_long(wide, drop_missing, label="score")


# ------------------------------------------------------------------------------ invariances


@SETTINGS
@given(wide=wide_frames(), data=st.data())
def test_rater_order(wide: pd.DataFrame, data: st.DataObject) -> None:
    order = data.draw(st.permutations(list(wide.columns)))
    a, b = wide.agree(), wide[order].agree()
    for weights in WEIGHTS:
        for method in methods_for(wide.shape[1]):
            assert_same(call(a, method, weights), call(b, method, weights))


@SETTINGS
@given(wide=wide_frames(), data=st.data())
def test_item_order(wide: pd.DataFrame, data: st.DataObject) -> None:
    order = data.draw(st.permutations(list(wide.index)))
    a, b = wide.agree(), wide.loc[order].agree()
    for weights in WEIGHTS:
        for method in methods_for(wide.shape[1]):
            assert_same(call(a, method, weights), call(b, method, weights))


@SETTINGS
@given(wide=wide_frames(max_raters=3))
def test_added_all_missing_rater(wide: pd.DataFrame) -> None:
    a, b = wide.agree(), wide.assign(nobody=np.nan).agree()
    for weights in WEIGHTS:
        # An empty column is no rater: two-rater coefficients still apply.
        for method in methods_for(wide.shape[1]):
            assert_same(call(a, method, weights), call(b, method, weights))


@SETTINGS
@given(wide=wide_frames())
def test_weights_follow_the_values(wide: pd.DataFrame) -> None:
    # Linear weights on the values 1, 2, 4, 7 are the matrix 1 - |k - l| / (max - min) over
    # the categories present; the same matrix given by hand gives the same coefficient.
    ratings = wide.agree()
    x = np.asarray(ratings.categories, dtype=np.float64)
    span = x.max() - x.min() if len(x) > 1 else 1.0
    matrix = 1.0 - np.abs(x[:, None] - x[None, :]) / span
    for method in methods_for(wide.shape[1]):
        by_name = call(ratings, method, "linear")
        by_matrix = call(ratings, method, matrix)
        np.testing.assert_allclose(
            summary(by_name), summary(by_matrix), rtol=1e-9, atol=1e-12, equal_nan=True
        )


# --------------------------------------------------------------------------------- layouts


@SETTINGS
@given(wide=wide_frames(), drop_missing=st.booleans())
def test_wide_equals_long_equals_counts(wide: pd.DataFrame, drop_missing: bool) -> None:
    w = wide.agree()
    lg = to_long(wide, drop_missing).agree(item="item", rater="coder", label="score")
    counts = to_counts(wide).agree(layout="counts")
    assert list(lg.categories) == list(w.categories)
    assert [float(c) for c in counts.categories] == [float(c) for c in w.categories]
    for weights in WEIGHTS:
        for method in methods_for(wide.shape[1]):
            assert_same(call(w, method, weights), call(lg, method, weights))
        for method in ANY_LAYOUT:
            assert_same(call(w, method, weights), call(counts, method, weights), COUNTS_MEMBERS)


# ------------------------------------------------------------------------------------- by=


@HEAVY
@given(wide=wide_frames(), data=st.data())
def test_by_equals_loop(wide: pd.DataFrame, data: st.DataObject) -> None:
    # Declared categories apply to every group; without, each group weighs its own values.
    groups = data.draw(
        st.lists(st.sampled_from(["u", "v", "w"]), min_size=len(wide), max_size=len(wide))
    )
    categories = list(LABELS) if data.draw(st.booleans()) else None
    df = wide.assign(g=groups)
    grouped = df.agree(by="g", categories=categories)
    for weights in WEIGHTS:
        for method in methods_for(wide.shape[1]):
            result = call(grouped, method, weights, confidence_level=0.95)
            assert isinstance(result, pd.DataFrame)
            assert list(result.index) == sorted(set(groups))
            for key, sub in df.groupby("g"):
                sub_wide = sub.drop(columns="g")
                row = result.loc[key]
                if not two_active_raters(sub_wide):
                    # Alone this group is a ValueError; in a by= call, a group with one rater.
                    assert np.isnan(row["value"])
                    continue
                alone = call(sub_wide.agree(categories=categories), method, weights)
                got = [float(row[k]) for k in (*MEMBERS, "se", "low", "high")]
                expected = summary(alone)
                np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-12, equal_nan=True)


# ------------------------------------------------------------------- the frame is unchanged


def assert_unchanged(df: pd.DataFrame, make: Callable[[pd.DataFrame], pdagree.Ratings]) -> None:
    snapshot = df.copy(deep=True)
    dtypes = df.dtypes.copy()
    index, columns = df.index, df.columns
    ratings = make(df)
    n_raters = ratings.n_raters if ratings.raters is not None else 0
    methods = ANY_LAYOUT if ratings.raters is None else methods_for(n_raters)
    for weights in WEIGHTS:
        for method in methods:
            for options in (
                {"confidence_level": 0.9},
                {"confidence_level": 0.9, "method": "bootstrap", "n_resamples": 20, "rng": 0},
            ):
                out = call(ratings, method, weights, **options)
                if isinstance(out, pd.DataFrame):
                    out.iloc[0, 1] = out.iloc[0, 1]  # results never share the user's data
                else:
                    quiet(out.standard_error)
    pd.testing.assert_frame_equal(df, snapshot, check_exact=True)
    pd.testing.assert_series_equal(df.dtypes, dtypes)
    assert df.index is index
    assert df.columns is columns
    assert df.attrs == snapshot.attrs


@HEAVY
@given(wide=wide_frames())
def test_frame_unchanged(wide: pd.DataFrame) -> None:
    assert_unchanged(wide, lambda df: df.agree())
    assert_unchanged(wide.assign(g=np.arange(len(wide)) % 2), lambda df: df.agree(by="g"))
    long = to_long(wide, drop_missing=False)
    assert_unchanged(long, lambda df: df.agree(item="item", rater="coder", label="score"))
    assert_unchanged(to_counts(wide), lambda df: df.agree(layout="counts"))


# ----------------------------------------------------------------------------- edge cases

ALL_WEIGHTED = ANY_LAYOUT + WITH_RATERS + TWO_RATERS


def se_or_error(ratings: pdagree.Ratings, method: str, weights: Any) -> float | str:
    """The analytic standard error, or the name of the exception (numpy warnings are errors)."""
    try:
        return float(quiet(call(ratings, method, weights).standard_error))
    except Exception as exc:
        return type(exc).__name__


def test_single_category_standard_error_is_quiet() -> None:
    # Every coefficient but observed agreement is undefined (nan, with a pdagree warning) when
    # all ratings fall in one category; its standard error is nan too, without numpy warnings.
    ratings = pd.DataFrame({"a": [2.0, 2.0, 2.0], "b": [2.0, 2.0, np.nan]}).agree()
    got = {
        (method, weights): se_or_error(ratings, method, weights)
        for method in ALL_WEIGHTED
        for weights in (None, *WEIGHTS)
        if method != "observed"
    }
    assert all(isinstance(se, float) and np.isnan(se) for se in got.values()), got


def test_one_item_gives_no_standard_error() -> None:
    # One item rated 1, 2 and 7 (and, for alpha, another item with a single rating): no
    # variance can be estimated from one item, so the standard error is nan, never inf.
    one = pd.DataFrame({"a": [1.0], "b": [2.0], "c": [7.0]})
    got = {
        (method, weights): se_or_error(one.agree(), method, weights)
        for method in ANY_LAYOUT + WITH_RATERS
        for weights in (None, *WEIGHTS)
    }
    with_single = pd.DataFrame({"a": [1.0, np.nan], "b": [2.0, np.nan], "c": [7.0, 4.0]})
    for weights in (None, *WEIGHTS):
        got["alpha with a single-rating item", weights] = se_or_error(
            with_single.agree(), "alpha", weights
        )
    for level in ("interval", "ratio"):
        # Undefined is announced (issue 8, point 6).
        with pytest.warns(
            pdagree.UndefinedStatisticWarning,
            match=r"the analytic standard error of `alpha` is undefined",
        ):
            got["alpha", level] = float(with_single.agree.alpha(level).standard_error())
    assert all(isinstance(se, float) and np.isnan(se) for se in got.values()), got
