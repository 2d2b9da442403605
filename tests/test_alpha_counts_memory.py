"""Krippendorff's alpha on many annotations (#29, ``token_agreement().alpha()`` on 10^7
characters): the sparse (item, category) counts of the pairable values come from a dense count
over ranges of keys and a rank over the value table instead of sorts, and the annotations are
not copied when every item is pairable. The same numbers as ``np.unique``, bit for bit, and
less memory (tracemalloc counts numpy's buffers)."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pdagree
from pdagree._kernels import alpha as KA
from pdagree._kernels import key_counts as KC


def _unique_counts(key: np.ndarray, weight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    entries, inverse = np.unique(key, return_inverse=True)
    return entries, np.bincount(inverse.ravel(), weights=weight, minlength=len(entries))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 400), st.integers(1, 300), st.integers(1, 9))
def test_entry_counts_equal_unique_in_every_range(
    seed: int, n: int, n_keys: int, chunks: int
) -> None:
    rng = np.random.default_rng(seed)
    key = rng.integers(0, n_keys, size=n)
    weight = rng.random(n) * rng.integers(0, 2, size=n)  # zero weights count as present
    want = _unique_counts(key, weight)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(KC, "DENSE_CHUNK", 1 + int(rng.integers(0, 50)))
        patch.setattr(KC, "DENSE_CHUNKS", chunks)
        patch.setattr(KC, "DENSE_KEYS_PER_ANNOTATION", int(rng.integers(0, 6)))
        got = KC.entry_counts(key, weight, n_keys)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])  # the same sums in the same order
    entries, rows = KC.distinct_keys(key, n_keys)
    unique, inverse = np.unique(key, return_inverse=True)
    np.testing.assert_array_equal(entries, unique)
    np.testing.assert_array_equal(rows, inverse.ravel())


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 40), st.integers(1, 6), st.integers(1, 4))
def test_pairable_values_equal_the_sorted_reduction(
    seed: int, n_items: int, k: int, n_groups: int
) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 4 * n_items + 2))
    item = rng.integers(0, n_items, size=n)
    code = rng.integers(0, k, size=n)
    weight = rng.integers(1, 3, size=n).astype(float)
    group = np.sort(rng.integers(0, n_groups, size=n_items))
    got = KA.pairable_values(item, code, weight, group, n_groups, k)
    # The reduction written with np.unique (the sorts the kernel used before).
    total = np.bincount(item, weights=weight, minlength=n_items)
    keep = (total >= 2)[item]
    entries, count = _unique_counts(item[keep] * k + code[keep], weight[keep])
    values, value_index = np.unique(group[entries // k] * k + entries % k, return_inverse=True)
    np.testing.assert_array_equal(got.item, entries // k)
    np.testing.assert_array_equal(got.code, entries % k)
    np.testing.assert_array_equal(got.frequency, count)
    np.testing.assert_array_equal(got.value_index, value_index.ravel())
    np.testing.assert_array_equal(got.value_group, values // k)
    np.testing.assert_array_equal(got.value_code, values % k)
    np.testing.assert_array_equal(
        got.value_frequency, np.bincount(value_index.ravel(), weights=count)
    )


def _peak(call: Callable[[], Any]) -> int:
    """The bytes ``call`` allocates at its peak, beyond what was held before."""
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        call()
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def test_nominal_alpha_of_many_annotations_needs_few_bytes_each() -> None:
    # 10^6 characters, 3 annotators each, 5 labels: every item pairable. The sorts of
    # np.unique needed 56 bytes an annotation beyond the annotations; now under 45.
    rng = np.random.default_rng(0)
    n_items = 1_000_000
    item = np.repeat(np.arange(n_items), 3)
    code = np.where(rng.random(3 * n_items) < 0.8, np.repeat(rng.integers(0, 5, n_items), 3), 0)
    weight = np.ones(len(item))
    group = np.zeros(n_items, dtype=np.int64)
    peak = _peak(lambda: KA.alpha_components(item, code, weight, group, 1, 5, KA.Nominal()))
    assert peak / len(item) < 45


def test_token_agreement_builds_its_cells_with_few_temporaries() -> None:
    # 2,000 documents of 1,000 characters, 3 annotators: the peak while building the cells
    # is under 1.4 times the arrays kept (1.5 before).
    rng = np.random.default_rng(1)
    n_docs, n_spans = 2_000, 20
    frames = []
    for r in range(3):
        start = np.tile(np.arange(0, 1000, 50), n_docs) + rng.integers(0, 3, n_docs * n_spans)
        frames.append(
            pd.DataFrame(
                {
                    "doc": np.repeat(np.arange(n_docs), n_spans),
                    "who": f"ann{r}",
                    "start": start,
                    "end": start + rng.integers(3, 30, n_docs * n_spans),
                    "label": rng.choice(["PER", "ORG", "LOC"], n_docs * n_spans),
                }
            )
        )
    spans = pd.concat(frames, ignore_index=True).agree.spans(
        item="doc", rater="who", start="start", end="end", label="label"
    )
    kept: list[pdagree.Ratings] = []
    peak = _peak(lambda: kept.append(spans.token_agreement()))
    enc = kept[0]._data.enc
    held = sum(getattr(enc, k).nbytes for k in ("item", "rater", "code", "weight", "group"))
    assert peak / held < 1.4
