"""Distinct integer keys and their summed weights without a sort where the key range allows.

The pairable values of Krippendorff's alpha (:mod:`.alpha`) are (item, category) entries and
(group, value) rows of a few hundred million annotations at most: where the range of their
keys is no more than a few times the annotations, a presence mask and ``np.bincount`` over
that range (in a few ranges of keys, so that no count array outweighs the keys) give the same
distinct keys, in the same order, and the same sums as ``np.unique``, with less memory than a
sort's permutations; otherwise ``np.unique``.
"""

from __future__ import annotations

import numpy as np

from ._typing import FloatArray, IntArray, as_float

__all__ = [
    "DENSE_CHUNK",
    "DENSE_CHUNKS",
    "DENSE_KEYS_PER_ANNOTATION",
    "distinct_keys",
    "entry_counts",
]

#: The dense count of :func:`entry_counts` is used up to this many keys per annotation,
#: in at most ``DENSE_CHUNKS`` ranges of keys of at least ``DENSE_CHUNK`` keys each.
DENSE_KEYS_PER_ANNOTATION = 4
DENSE_CHUNKS = 8
DENSE_CHUNK = 1 << 22


def entry_counts(key: IntArray, weight: FloatArray, n_keys: int) -> tuple[IntArray, FloatArray]:
    """The distinct ``key``s (in ``range(n_keys)``), sorted, and the summed ``weight`` of
    each: counted over the whole key range where it is at most a few times the annotations
    (no sort, and less memory than a sort's permutations), else through ``np.unique``. The
    same sums in the same order either way.

    >>> import numpy as np
    >>> keys, counts = entry_counts(np.array([5, 1, 5]), np.array([1.0, 2.0, 3.0]), 6)
    >>> keys.tolist(), counts.tolist()
    ([1, 5], [2.0, 4.0])
    """
    if n_keys <= DENSE_KEYS_PER_ANNOTATION * len(key):
        present = np.zeros(n_keys, dtype=bool)
        present[key] = True
        entries = np.flatnonzero(present).astype(np.int64, copy=False)
        del present
        # in ranges of keys: a count the size of the key range would outweigh the keys
        step = max(DENSE_CHUNK, -(-n_keys // DENSE_CHUNKS))
        if step >= n_keys:
            return entries, as_float(np.bincount(key, weights=weight, minlength=n_keys)[entries])
        counts = []
        for low in range(0, n_keys, step):  # a few ranges, not a loop over rows
            high = min(low + step, n_keys)
            inside = (key >= low) & (key < high)
            dense = np.bincount(key[inside] - low, weights=weight[inside], minlength=high - low)
            del inside
            lo, hi = np.searchsorted(entries, [low, high])
            counts.append(dense[entries[lo:hi] - low])
        return entries, as_float(np.concatenate(counts))
    distinct, inverse = np.unique(key, return_inverse=True)
    count = np.bincount(inverse.ravel(), weights=weight, minlength=len(distinct))
    return distinct.astype(np.int64, copy=False), as_float(count)


def distinct_keys(key: IntArray, n_keys: int) -> tuple[IntArray, IntArray]:
    """The distinct ``key``s (in ``range(n_keys)``), sorted, and each key's row among them,
    as ``np.unique(key, return_inverse=True)``: by a rank over the key range where it is no
    larger than the keys (no sort).

    >>> import numpy as np
    >>> keys, rows = distinct_keys(np.array([5, 1, 5]), 6)
    >>> keys.tolist(), rows.tolist()
    ([1, 5], [1, 0, 1])
    """
    if n_keys <= len(key):
        present = np.zeros(n_keys, dtype=bool)
        present[key] = True
        rank = np.cumsum(present, dtype=np.int64) - 1
        return np.flatnonzero(present), rank[key]
    distinct, inverse = np.unique(key, return_inverse=True)
    return distinct, inverse.ravel().astype(np.int64, copy=False)
