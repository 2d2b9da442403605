"""Hypothesis properties of every coefficient in the registry.

Invariances (rater order, item order, label renaming, an added all-missing rater), layout
equivalence (wide = long = counts), ``by=`` equal to a loop over groups, the user's frame
unchanged after every call, and the inequalities of Artstein & Poesio (2005) and Fort (2011).
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
from layouts import to_counts, to_long

import pdagree
from pdagree.definitions import REGISTRY

SETTINGS = settings(max_examples=30, deadline=None)
HEAVY = settings(max_examples=15, deadline=None)

# Coefficients by what they need: any layout; rater identity; exactly two raters. Read from
# the registry, so a new coefficient cannot escape these properties.
ANY_LAYOUT = tuple(n for n, d in REGISTRY.items() if not (d.needs_raters or d.two_raters))
WITH_RATERS = tuple(n for n, d in REGISTRY.items() if d.needs_raters and not d.two_raters)
TWO_RATERS = tuple(n for n, d in REGISTRY.items() if d.two_raters)
MEMBERS = ("value", "observed", "expected", "n_items", "n_raters", "n_categories")
LABELS = ("a", "b", "c", "d")


def methods_for(n_raters: int) -> tuple[str, ...]:
    return ANY_LAYOUT + WITH_RATERS + (TWO_RATERS if n_raters == 2 else ())


def call(ratings: pdagree.Ratings, method: str) -> Any:
    """Run a method, ignoring the warning that flags undefined (nan) values."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pdagree.UndefinedStatisticWarning)
        return getattr(ratings, method)()


def members(result: Any, keys: tuple[str, ...] = MEMBERS) -> list[float]:
    return [float(result) if key == "value" else float(getattr(result, key)) for key in keys]


def assert_same(a: Any, b: Any, keys: tuple[str, ...] = MEMBERS) -> None:
    np.testing.assert_allclose(
        members(a, keys), members(b, keys), rtol=1e-9, atol=1e-12, equal_nan=True
    )


@st.composite
def wide_frames(
    draw: st.DrawFn, min_raters: int = 2, max_raters: int = 4, complete: bool = False
) -> pd.DataFrame:
    n_items = draw(st.integers(1, 8))
    n_raters = draw(st.integers(min_raters, max_raters))
    n_labels = draw(st.integers(1, len(LABELS)))
    label = st.sampled_from(LABELS[:n_labels])
    cell = label if complete else st.one_of(st.none(), label, label)
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
        dtype=object,
    )
    # A frame needs two raters with ratings (else ValueError, as for a long frame).
    assume(int(df.notna().any().sum()) >= 2)
    return df


# ------------------------------------------------------------------------------ invariances


@SETTINGS
@given(wide=wide_frames(), data=st.data())
def test_rater_order(wide: pd.DataFrame, data: st.DataObject) -> None:
    order = data.draw(st.permutations(list(wide.columns)))
    a, b = wide.agree(), wide[order].agree()
    for method in methods_for(wide.shape[1]):
        assert_same(call(a, method), call(b, method))


@SETTINGS
@given(wide=wide_frames(), data=st.data())
def test_item_order(wide: pd.DataFrame, data: st.DataObject) -> None:
    order = data.draw(st.permutations(list(wide.index)))
    a, b = wide.agree(), wide.loc[order].agree()
    for method in methods_for(wide.shape[1]):
        assert_same(call(a, method), call(b, method))


@SETTINGS
@given(wide=wide_frames(), data=st.data())
def test_label_renaming(wide: pd.DataFrame, data: st.DataObject) -> None:
    # Any one-to-one renaming, into labels of another type and another sort order.
    targets = data.draw(st.permutations([10, 3, 7, 1]))
    mapping = dict(zip(LABELS, targets, strict=True))
    renamed = wide.apply(lambda col: col.map(mapping, na_action="ignore"))
    a, b = wide.agree(), renamed.agree()
    assert list(b.categories) == sorted(mapping[k] for k in a.categories)
    for method in methods_for(wide.shape[1]):
        assert_same(call(a, method), call(b, method))


@SETTINGS
@given(wide=wide_frames(max_raters=3))
def test_added_all_missing_rater(wide: pd.DataFrame) -> None:
    a, b = wide.agree(), wide.assign(nobody=None).agree()
    for method in ANY_LAYOUT + WITH_RATERS:
        assert_same(call(a, method), call(b, method))


@pytest.mark.parametrize("method", TWO_RATERS)
def test_added_all_missing_rater_two_rater_coefficients(method: str) -> None:
    # A column nobody filled in is no rater: the long form of the same frame has two raters,
    # and Coefficient.n_raters counts raters with at least one rating. Adding it should not
    # turn a two-rater coefficient into an error.
    wide = pd.DataFrame({"a": ["x", "y", "x", "y"], "b": ["x", "y", "y", "y"]})
    padded = wide.assign(c=None)
    long = to_long(padded.rename_axis("item"), drop_missing=False)
    assert_same(
        getattr(long.agree(item="item", rater="coder", label="tag"), method)(),
        getattr(wide.agree, method)(),
    )
    assert_same(getattr(padded.agree, method)(), getattr(wide.agree, method)())


# --------------------------------------------------------------------------------- layouts


@SETTINGS
@given(wide=wide_frames(), drop_missing=st.booleans())
def test_wide_equals_long_equals_counts(wide: pd.DataFrame, drop_missing: bool) -> None:
    long = to_long(wide, drop_missing)
    assume(long["tag"].notna().any())
    w = wide.agree()
    active = int(wide.notna().any().sum())
    if active < 2:
        # The long frame sees only raters with labels: fewer than two is an error there.
        with pytest.raises(ValueError, match="at least two raters"):
            long.agree(item="item", rater="coder", label="tag")
        return
    lg = long.agree(item="item", rater="coder", label="tag")
    assert list(lg.categories) == list(w.categories)
    for method in methods_for(wide.shape[1]):
        assert_same(call(w, method), call(lg, method))
    counts = to_counts(wide).agree(layout="counts")
    pd.testing.assert_frame_equal(counts.counts(), w.counts())
    # Scott's pi needs no rater identity either: two raters give at most two ratings an item.
    for method in ANY_LAYOUT + (("scott",) if wide.shape[1] == 2 else ()):
        assert_same(
            call(w, method), call(counts, method), ("value", "observed", "expected", "n_items")
        )


@SETTINGS
@given(wide=wide_frames(complete=True))
def test_counts_n_raters_complete(wide: pd.DataFrame) -> None:
    counts = to_counts(wide).agree(layout="counts")
    for method in ANY_LAYOUT:
        assert_same(call(wide.agree(), method), call(counts, method))


# ------------------------------------------------------------------------------------- by=


def by_rows(result: pd.DataFrame, key: Any) -> list[float]:
    return [float(result.loc[key, k]) for k in MEMBERS]


@HEAVY
@given(wide=wide_frames(), data=st.data(), declare=st.booleans())
def test_by_equals_loop(wide: pd.DataFrame, data: st.DataObject, declare: bool) -> None:
    # With declared categories every group uses them; without, each group uses its own
    # labels, exactly as the loop (or groupby(...).apply) would.
    groups = data.draw(
        st.lists(st.sampled_from(["u", "v", "w"]), min_size=len(wide), max_size=len(wide))
    )
    df = wide.assign(g=groups)
    declared = list(LABELS) if declare else None
    grouped = df.agree(by="g", categories=declared)
    for method in methods_for(wide.shape[1]):
        result = call(grouped, method)
        assert isinstance(result, pd.DataFrame)
        assert list(result.index) == sorted(set(groups))
        assert result.index.name == "g"
        for key, sub in df.groupby("g"):
            sub_wide = sub.drop(columns="g")
            if int(sub_wide.notna().any().sum()) < 2:
                # Alone this group is not a frame that can hold agreement (ValueError); in a
                # by= call it is a group with a single rater: nan.
                assert np.isnan(result.loc[key, "value"])
                continue
            alone = call(sub_wide.agree(categories=declared), method)
            np.testing.assert_allclose(
                by_rows(result, key), members(alone), rtol=1e-9, atol=1e-12, equal_nan=True
            )


@HEAVY
@given(wide=wide_frames(), data=st.data())
def test_by_long_equals_by_wide(wide: pd.DataFrame, data: st.DataObject) -> None:
    groups = data.draw(st.lists(st.sampled_from([1, 2]), min_size=len(wide), max_size=len(wide)))
    df = wide.assign(g=groups)
    long = df.reset_index().melt(id_vars=["item", "g"], var_name="coder", value_name="tag")
    assume(long.dropna()["coder"].nunique() >= 2)
    # A long frame has no trace of a group whose labels are all missing (a wide frame keeps
    # it as a row of nan); compare the groups both can see.
    assume(set(long.dropna()["g"]) == set(groups))
    w = df.agree(by="g")
    lg = long.agree(item="item", rater="coder", label="tag", by="g")
    for method in ANY_LAYOUT + WITH_RATERS:
        a, b = call(w, method), call(lg, method)
        pd.testing.assert_frame_equal(a[list(MEMBERS)], b[list(MEMBERS)], check_dtype=False)


@HEAVY
@given(wide=wide_frames(), data=st.data())
def test_by_several_columns_equals_loop(wide: pd.DataFrame, data: st.DataObject) -> None:
    n = len(wide)
    g = data.draw(st.lists(st.sampled_from([1, 2]), min_size=n, max_size=n))
    h = data.draw(st.lists(st.sampled_from(["x", "y"]), min_size=n, max_size=n))
    df = wide.assign(g=g, h=h)
    grouped = df.agree(by=["g", "h"])
    result = call(grouped, "fleiss")
    assert list(result.index.names) == ["g", "h"]
    for key, sub in df.groupby(["g", "h"]):
        sub_wide = sub.drop(columns=["g", "h"])
        if int(sub_wide.notna().any().sum()) < 2:
            assert np.isnan(by_rows(result, key)[0])  # a group with a single rater
            continue
        alone = call(sub_wide.agree(), "fleiss")  # each group on its own labels
        np.testing.assert_allclose(
            by_rows(result, key), members(alone), rtol=1e-9, atol=1e-12, equal_nan=True
        )


# ------------------------------------------------------------------- the frame is unchanged


def every_call(ratings: pdagree.Ratings) -> list[Callable[[], Any]]:
    calls: list[Callable[[], Any]] = [
        ratings.observed,
        ratings.bennett,
        ratings.fleiss,
        ratings.counts,
        ratings.items,
        ratings.per_category,
        ratings.report,
    ]
    if ratings.raters is not None:
        calls += [
            ratings.conger,
            ratings.light,
            ratings.bias,
            ratings.frequencies,
            ratings.pairwise,
            lambda: ratings.pairwise("scott"),
            lambda: ratings.contingency(ratings.raters[0], ratings.raters[1]),
        ]
        if ratings.n_raters == 2:
            calls += [ratings.scott, ratings.cohen]
    return calls


def assert_unchanged(df: pd.DataFrame, make: Callable[[pd.DataFrame], pdagree.Ratings]) -> None:
    snapshot = df.copy(deep=True)
    dtypes = df.dtypes.copy()
    index, columns = df.index, df.columns
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pdagree.UndefinedStatisticWarning)
        ratings = make(df)
        for fn in every_call(ratings):
            out = fn()
            # Results never share the user's data: editing them leaves the frame alone.
            if isinstance(out, pd.DataFrame) and out.size:
                out.iloc[0, 0] = out.iloc[0, 0]
    pd.testing.assert_frame_equal(df, snapshot, check_exact=True)
    pd.testing.assert_series_equal(df.dtypes, dtypes)
    assert df.index is index
    assert df.columns is columns
    assert df.attrs == snapshot.attrs


@HEAVY
@given(wide=wide_frames())
def test_frame_unchanged_wide(wide: pd.DataFrame) -> None:
    assert_unchanged(wide, lambda df: df.agree())
    assert_unchanged(wide.assign(g=np.arange(len(wide)) % 2), lambda df: df.agree(by="g"))
    for method in ("observed", "fleiss", "counts"):
        snapshot = wide.copy(deep=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", pdagree.UndefinedStatisticWarning)
            getattr(wide.agree, method)()
        pd.testing.assert_frame_equal(wide, snapshot, check_exact=True)


@HEAVY
@given(wide=wide_frames())
def test_frame_unchanged_long(wide: pd.DataFrame) -> None:
    long = to_long(wide, drop_missing=False)
    assume(long.dropna()["coder"].nunique() >= 2)
    assert_unchanged(long, lambda df: df.agree(item="item", rater="coder", label="tag"))
    grouped = long.assign(g=long["item"].str[1:].astype(int) % 2)
    assert_unchanged(grouped, lambda df: df.agree(item="item", rater="coder", label="tag", by="g"))


@HEAVY
@given(wide=wide_frames())
def test_frame_unchanged_counts(wide: pd.DataFrame) -> None:
    counts = to_counts(wide)
    assert_unchanged(counts, lambda df: df.agree(layout="counts"))


def test_frame_unchanged_ordered_categorical() -> None:
    dtype = pd.CategoricalDtype(["lo", "mid", "hi"], ordered=True)
    wide = pd.DataFrame(
        {
            "a": pd.Series(["lo", "hi", None, "mid"], dtype=dtype),
            "b": pd.Series(["lo", "mid", "hi", "mid"], dtype=dtype),
        }
    )
    assert_unchanged(wide, lambda df: df.agree())


# --------------------------------------------------------------------------- inequalities


@SETTINGS
@given(wide=wide_frames(min_raters=2, max_raters=2, complete=True))
def test_fort_inequalities_two_raters(wide: pd.DataFrame) -> None:
    # Fort (2011), slide "S, pi and kappa": for any sample A_e^pi >= A_e^S and
    # A_e^pi >= A_e^kappa, hence pi <= S and pi <= kappa.
    ratings = wide.agree()
    s, pi, kappa = (call(ratings, m) for m in ("bennett", "scott", "cohen"))
    assert pi.expected >= s.expected - 1e-12
    assert pi.expected >= kappa.expected - 1e-12
    if not np.isnan(float(pi)):
        assert float(pi) <= float(s) + 1e-12
        assert float(pi) <= float(kappa) + 1e-12


@SETTINGS
@given(wide=wide_frames(max_raters=5, complete=True))
def test_bias_is_variance_over_c_minus_one(wide: pd.DataFrame) -> None:
    # Artstein & Poesio (2005), section 13.4, for complete designs.
    ratings = wide.agree()
    bias = call(ratings, "bias")
    c = ratings.n_raters
    assert float(bias) == pytest.approx(bias.variances.sum() / (c - 1), abs=1e-12)
    assert float(bias) == pytest.approx(
        call(ratings, "fleiss").expected - call(ratings, "conger").expected, abs=1e-12
    )
    assert float(bias) >= -1e-12


@SETTINGS
@given(wide=wide_frames())
def test_bounds(wide: pd.DataFrame) -> None:
    ratings = wide.agree()
    for method in methods_for(wide.shape[1]):
        result = call(ratings, method)
        if method == "bias" or np.isnan(float(result)):
            continue
        assert 0.0 <= result.observed <= 1.0 + 1e-12
        assert float(result) <= 1.0 + 1e-12
