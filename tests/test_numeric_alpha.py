"""Interval alpha of continuous scores read as numbers (#28): from per-item moment sums, without
the category encoding, equal to the category path's result member for member (to 1e-12), with
the categories and the inference encoded only when first asked."""

from __future__ import annotations

import math
import pickle
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pdagree
from pdagree import Coefficient, Ratings
from pdagree._kernels import alpha_sums as KS


def _category_path(ratings: Ratings) -> Ratings:
    """The same ratings through the category encoding (what alpha read before)."""
    return Ratings(ratings._data.enc)


def _assert_same(a: object, b: object) -> None:
    """Two alpha results: every member equal (floats to 1e-12), the same type."""
    if isinstance(b, pd.DataFrame):
        assert isinstance(a, pd.DataFrame)
        pd.testing.assert_frame_equal(a, b, rtol=1e-12, atol=1e-13)
        return
    assert type(a) is type(b) is Coefficient
    assert isinstance(a, Coefficient) and isinstance(b, Coefficient)
    x, y = float(a), float(b)
    assert (math.isnan(x) and math.isnan(y)) or x == pytest.approx(y, rel=1e-12, abs=1e-13)
    assert a.categories == b.categories
    keys = [k for k in b.__dict__ if not k.startswith("_")]
    assert sorted(k for k in a.__dict__ if not k.startswith("_")) == sorted(keys)
    for key in keys:
        got, want = getattr(a, key), getattr(b, key)
        if isinstance(want, float):
            assert got == pytest.approx(want, rel=1e-12, abs=1e-13, nan_ok=True), key
        else:
            assert got == want, key
    pd.testing.assert_frame_equal(a.to_frame(), b.to_frame(), rtol=1e-12, atol=1e-13)


def _wide(seed: int, n: int, k: int, holes: float, groups: int, dtype: str) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n * groups, 1)) * 2 + rng.normal(size=(n * groups, k)) + 0.123
    if dtype == "int":
        x = np.round(x * 3)
    frame = pd.DataFrame(x, columns=[f"r{j}" for j in range(k)])
    if holes:
        mask = rng.random(frame.shape) < holes  # some items lose all but one rating
        mask[0, :2] = False  # two raters keep a rating
        frame = frame.mask(mask)
    frame = frame.astype("Int64" if dtype == "int" else dtype)
    frame["g"] = np.repeat([f"g{i}" for i in range(groups)], n)
    frame.index = pd.Index(rng.permutation(len(frame)) * 3, name="doc")
    return frame


def _long(wide: pd.DataFrame, seed: int) -> pd.DataFrame:
    long = wide.reset_index().melt(id_vars=["doc", "g"], var_name="coder", value_name="score")
    return long.sample(frac=1.0, random_state=seed).reset_index(drop=True)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 10_000),
    st.integers(2, 12),
    st.integers(2, 5),
    st.sampled_from([0.0, 0.2, 0.5]),
    st.booleans(),
    st.sampled_from(["float64", "float32", "int"]),
    st.booleans(),
)
def test_interval_alpha_equals_the_category_path(
    seed: int, n: int, k: int, holes: float, grouped: bool, dtype: str, long: bool
) -> None:
    wide = _wide(seed, n, k, holes, 3 if grouped else 1, dtype)
    by = "g" if grouped else None
    if long:
        ratings = _long(wide, seed).agree(item="doc", rater="coder", label="score", by=by)
    else:
        ratings = wide.agree(raters=[c for c in wide.columns if c != "g"], by=by)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        got = ratings.alpha(level="interval")
    with warnings.catch_warnings(record=True) as told:
        warnings.simplefilter("always")
        want = _category_path(ratings).alpha(level="interval")
    assert [str(w.message) for w in seen] == [str(w.message) for w in told]
    if dtype != "int" and not grouped and not math.isnan(got):
        assert "_deferred" in got.__dict__  # read as numbers, from moment sums
    _assert_same(got, want)


def _continuous(n: int = 60, k: int = 4, seed: int = 1) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 1)) * 2 + rng.normal(size=(n, k))
    return pd.DataFrame(x, columns=list("abcd")[:k])


def test_interval_alpha_reads_no_category_encoding() -> None:
    ratings = _continuous().agree()
    result = ratings.alpha(level="interval")
    assert ratings._state.data is None  # the category path encoded the ratings here
    assert "_deferred" in result.__dict__
    assert result.n_categories == 240  # now encoded, for this member only
    assert ratings._state.data is not None
    _assert_same(result, _category_path(ratings).alpha(level="interval"))


def test_intervals_and_bootstrap_are_the_category_paths() -> None:
    ratings = _continuous().agree()
    got = ratings.alpha(level="interval")
    want = _category_path(ratings).alpha(level="interval")
    assert got.confidence_interval() == want.confidence_interval()
    assert got.standard_error() == want.standard_error()
    boot = {"method": "bootstrap", "n_resamples": 200, "rng": 7}
    assert got.confidence_interval(**boot) == want.confidence_interval(**boot)
    np.testing.assert_array_equal(got.z_test(), want.z_test())
    with_ci = ratings.alpha(level="interval", confidence_level=0.9)  # the category path
    _assert_same(with_ci, _category_path(ratings).alpha(level="interval", confidence_level=0.9))


def test_pickle_remove_data_and_replace_keep_every_member() -> None:
    ratings = _continuous(seed=3).agree()
    want = _category_path(ratings).alpha(level="interval")
    light = ratings.alpha(level="interval").remove_data()
    _assert_same(light, want)
    assert light.confidence_interval() == want.confidence_interval()
    _assert_same(pickle.loads(pickle.dumps(ratings.alpha(level="interval"))), want)
    replaced = ratings.alpha(level="interval")._replace(note="x")
    assert "_deferred" in replaced.__dict__ and replaced.note == "x"
    assert replaced.categories == want.categories and replaced.n_categories == want.n_categories


def test_the_frame_is_read_once_and_never_modified() -> None:
    frame = _continuous(seed=4)
    before = frame.copy()
    ratings = frame.agree()
    result = ratings.alpha(level="interval")
    frame.iloc[0, 0] = 1e6  # changed after the call: the deferred categories are the old ones
    pd.testing.assert_frame_equal(frame.iloc[1:], before.iloc[1:])
    assert before.iloc[0, 0] in result.categories and 1e6 not in result.categories


def test_undefined_and_bad_values_as_the_category_path() -> None:
    constant = pd.DataFrame({"a": [0.5, 1.5, np.nan], "b": [0.5, 1.5, 2.5]})
    constant["b"] = constant["a"].fillna(2.5)  # items agree perfectly: D_o = 0, alpha = 1
    _assert_same(
        constant.agree.alpha(level="interval"),
        _category_path(constant.agree()).alpha(level="interval"),
    )
    single = pd.DataFrame({"a": [0.5, np.nan, 1.5], "b": [np.nan, 2.5, np.nan]})
    with pytest.warns(pdagree.UndefinedStatisticWarning, match="no item has two or more"):
        assert math.isnan(single.agree.alpha(level="interval"))
    bad = _continuous()
    bad.iloc[3, 1] = np.inf
    with pytest.raises(ValueError) as numeric:
        bad.agree.alpha(level="interval")
    with pytest.raises(ValueError) as category:
        _category_path(bad.agree()).alpha(level="interval")
    assert str(numeric.value) == str(category.value)


@pytest.mark.parametrize("scale", [1e-200, 1e-3, 1.0, 1e150, 1e200])
def test_extreme_magnitudes(scale: float) -> None:
    frame = _continuous(seed=5) * scale
    ratings = frame.agree()
    _assert_same(ratings.alpha(level="interval"), _category_path(ratings).alpha(level="interval"))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 30), st.integers(1, 6))
def test_one_group_kernel_equals_the_general_kernel(seed: int, n: int, k: int) -> None:
    rng = np.random.default_rng(seed)
    item = rng.integers(0, n, size=n * k)
    x = np.round(rng.normal(size=n * k), int(rng.integers(0, 3)))
    got = KS.interval_alpha_one_group(item, x, n)
    want = KS.interval_alpha_components(item, x, np.ones(len(x)), np.zeros(n, dtype=np.int64), 1)
    for a, b in zip(got, want, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-13)
