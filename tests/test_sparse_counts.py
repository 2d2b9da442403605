"""Many distinct labels (issue 8, point 9): unweighted coefficients count (item, category)
pairs sparsely, never in an items x categories table nor a categories x categories matrix."""

from __future__ import annotations

import contextlib
import tracemalloc
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pdagree
from pdagree.definitions import REGISTRY
from pdagree.tensors import data as data_module

MEMBERS = ("value", "observed", "expected", "n_items", "n_raters", "n_categories")


@contextlib.contextmanager
def dense_limits(cells: int, categories: int) -> Iterator[None]:
    old = data_module.DENSE_CELLS, data_module.DENSE_CATEGORIES
    data_module.DENSE_CELLS, data_module.DENSE_CATEGORIES = cells, categories
    try:
        yield
    finally:
        data_module.DENSE_CELLS, data_module.DENSE_CATEGORIES = old


def quiet(fn: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pdagree.UndefinedStatisticWarning)
        return fn()


def many_labels(n_items: int, n_raters: int, n_labels: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, n_labels, n_items)
    cells = np.where(
        rng.random((n_items, n_raters)) < 0.6,
        truth[:, None],
        rng.integers(0, n_labels, (n_items, n_raters)),
    )
    frame = pd.DataFrame(cells, columns=[f"r{j}" for j in range(n_raters)]).astype(str)
    return frame.mask(rng.random(frame.shape) < 0.1)


@settings(max_examples=25, deadline=None)
@given(
    cells=st.lists(
        st.lists(st.sampled_from(["a", "b", "c", None]), min_size=3, max_size=3),
        min_size=1,
        max_size=8,
    ),
    groups=st.lists(st.sampled_from([1, 2]), min_size=8, max_size=8),
)
def test_sparse_path_equals_dense_path(cells: list[list[Any]], groups: list[int]) -> None:
    wide = pd.DataFrame(cells, columns=["r0", "r1", "r2"], dtype=object)
    if int(wide.notna().any().sum()) < 2:
        return
    for frame, by in ((wide, None), (wide.assign(g=groups[: len(wide)]), "g")):
        names = [n for n, d in REGISTRY.items() if not d.two_raters]
        dense = frame.agree(by=by)
        with dense_limits(0, 0):
            sparse = frame.agree(by=by)
            assert sparse._data.sparse
            for name in names:
                a = quiet(getattr(sparse, name))
                b = quiet(getattr(dense, name))
                left = a[list(MEMBERS)] if by else [getattr(a, m, float(a)) for m in MEMBERS]
                right = b[list(MEMBERS)] if by else [getattr(b, m, float(b)) for m in MEMBERS]
                np.testing.assert_allclose(
                    np.asarray(left, dtype=float),
                    np.asarray(right, dtype=float),
                    rtol=1e-12,
                    atol=1e-12,
                    equal_nan=True,
                )
            pd.testing.assert_frame_equal(quiet(sparse.report), quiet(dense.report))


def test_two_rater_coefficients_on_sparse_counts() -> None:
    frame = many_labels(300, 2, 40, seed=1)
    dense = frame.agree()
    with dense_limits(0, 0):
        sparse = frame.agree()
        for name in ("scott", "cohen"):
            assert float(getattr(sparse, name)()) == pytest.approx(float(getattr(dense, name)()))
        pd.testing.assert_frame_equal(sparse.pairwise(), dense.pairwise())


def test_many_distinct_labels_fit_in_memory() -> None:
    # 50,000 items x 3 raters with ~20,000 distinct labels: a dense items x categories table
    # would take 7.4 GiB (the report); sparse counting needs a few MiB.
    frame = many_labels(50_000, 3, 20_000, seed=2)
    ratings = frame.agree()
    assert ratings.n_categories > 15_000
    tracemalloc.start()
    try:
        for name in ("observed", "bennett", "fleiss", "gwet", "conger", "light", "bias"):
            quiet(getattr(ratings, name))
        quiet(ratings.report)
        table = ratings.per_category()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(table) == ratings.n_categories
    assert peak < 200 * 2**20, f"peak {peak / 2**20:.0f} MiB"
    pair = frame[["r0", "r1"]].agree()
    assert -1 <= float(quiet(pair.cohen)) <= 1


def test_weights_on_many_categories_is_a_clear_error() -> None:
    frame = many_labels(20_000, 3, 9_000, seed=3).apply(pd.to_numeric)
    ratings = frame.agree()
    message = (
        r"`weights` needs a \d+ x \d+ matrix of agreement weights .*alpha\(level='interval'\)"
    )
    with pytest.raises(ValueError, match=message):
        ratings.fleiss(weights="linear")
    assert np.isfinite(float(ratings.alpha("interval")))


def test_dense_table_that_would_not_fit_is_a_clear_error() -> None:
    frame = many_labels(20_000, 3, 9_000, seed=4)
    with pytest.raises(ValueError, match=r"dense table of \d+ items x \d+ categories"):
        frame.agree().counts()
