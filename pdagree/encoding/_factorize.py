"""Codes of key columns with as few passes over the annotations as possible.

Part of the encoding layer (:mod:`pdagree.encoding`). Each function returns exactly what the
plain pandas or NumPy call named in its docstring returns, only faster on the columns that
annotation exports hold (integer ids, a handful of text labels, millions of rows):

- integer ids whose range is not much larger than their number are compacted with one
  scatter and a cumulative sum over the range (no hash table, no sort);
- other values are hashed once (``pd.factorize``) and only the *uniques* are sorted;
- text held as Python strings (pandas' Python-backed string dtype) is hashed from the object
  array behind it, not through the string array's own ``factorize``, which first copies the
  values and masks the missing ones;
- combined integer keys are deduplicated with ``np.bincount`` when their range is small,
  and through the nesting of items in groups otherwise, before falling back to a sort.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable
from typing import Any, cast

import numpy as np
import pandas as pd

from .._typing import IntArray

__all__ = [
    "MissingKeyError",
    "compact_keys",
    "distinct_keys",
    "duplicated_keys",
    "factorize_columns",
    "factorize_sorted",
    "hash_input",
]

#: A range of integer keys up to ``SPAN_FACTOR`` times the number of rows (plus
#: ``SPAN_SLACK``) is counted densely: its count array costs at most a few times the codes.
SPAN_FACTOR = 4
SPAN_SLACK = 1 << 20


def _dense(span: int, n: int) -> bool:
    return span <= SPAN_FACTOR * n + SPAN_SLACK


def _integer_values(values: Any) -> np.ndarray[Any, Any] | None:
    """The values as a NumPy integer array when they are integers with no missing value:
    a NumPy integer dtype, or a nullable one (``Int64``, ``int64[pyarrow]``, as
    ``read_csv(dtype_backend=...)`` gives) holding no missing value."""
    dtype = getattr(values, "dtype", None)
    if isinstance(dtype, np.dtype):
        return np.asarray(values) if dtype.kind in "iu" and dtype.itemsize <= 8 else None
    numpy_dtype = getattr(dtype, "numpy_dtype", None)
    if not isinstance(numpy_dtype, np.dtype) or numpy_dtype.kind not in "iu":
        return None
    if numpy_dtype.itemsize > 8 or bool(values.isna().any()):
        return None
    return np.asarray(values.to_numpy(dtype=numpy_dtype))


def _factorize_range(
    x: np.ndarray[Any, Any],
) -> tuple[IntArray, np.ndarray[Any, Any]] | None:
    """Sorted codes and uniques of integers spanning a small range, else ``None``."""
    if x.size == 0:
        return None
    lo, hi = int(x.min()), int(x.max())
    if hi >= 2**63 or not _dense(hi - lo + 1, x.size):
        return None
    if lo >= 0 and _dense(hi + 1, x.size):  # ids from (near) 0: index by the id itself
        lo, shifted = 0, x
    else:
        shifted = np.subtract(x, lo, dtype=np.int64)
    present = np.zeros(hi - lo + 1, dtype=bool)
    present[shifted] = True
    rank = np.cumsum(present, dtype=np.int64) - 1
    return rank[shifted], (np.flatnonzero(present) + lo).astype(x.dtype)


def hash_input(values: pd.Series | pd.Index) -> Any:
    """What ``pd.factorize`` hashes fastest with the same codes: the object array behind
    Python strings (pandas' Python-backed ``str``, or an object column: a view, no copy;
    missing values are NaN, None or ``pd.NA`` there, all coded -1), else the values."""
    dtype = values.dtype
    if getattr(dtype, "storage", None) == "python" or (
        isinstance(dtype, np.dtype) and dtype.kind == "O"
    ):
        return values.to_numpy(dtype=object)
    return values


def factorize_sorted(values: pd.Series | pd.Index) -> tuple[IntArray, pd.Index]:
    """``pd.factorize(values, sort=True)``: codes (int64, -1 for missing) and the sorted
    uniques as an Index.

    Where the uniques cannot be ordered, the TypeError of ``pd.factorize(..., sort=True)``
    is raised, as pandas raises it.

    >>> codes, uniques = factorize_sorted(pd.Series([30, 10, 30, 20]))
    >>> codes.tolist(), uniques.tolist()
    ([2, 0, 2, 1], [10, 20, 30])
    >>> codes, uniques = factorize_sorted(pd.Series(["b", "a", None, "b"]))
    >>> codes.tolist(), uniques.tolist()
    ([1, 0, -1, 1], ['a', 'b'])
    """
    x = _integer_values(values)
    if x is not None:
        dense = _factorize_range(x)
        if dense is not None:
            codes, uniques = dense
            return codes, pd.Index(uniques, dtype=values.dtype)
    codes, uniques = pd.factorize(hash_input(values))
    codes = np.asarray(codes, dtype=np.int64)
    if len(uniques) < 2:
        return codes, pd.Index(uniques, dtype=values.dtype)
    # Sorting only the uniques gives the same order (pandas' safe_sort) as sort=True.
    position, ordered = pd.factorize(uniques, sort=True)
    position = np.asarray(position, dtype=np.int64)
    keys = pd.Index(ordered, dtype=values.dtype)
    if (codes < 0).any():
        return np.where(codes >= 0, position[codes], -1), keys
    return position[codes], keys


class MissingKeyError(ValueError):
    """A key column that every row needs holds missing values (``column`` names it)."""

    def __init__(self, column: Hashable) -> None:
        super().__init__(f"column {column!r} has missing values")
        self.column = column


def factorize_columns(
    frame: pd.DataFrame, cols: list[Hashable], required: Collection[Hashable] = ()
) -> tuple[IntArray, pd.Index]:
    """Codes of the rows' key tuples in sorted order, and the keys (a MultiIndex for several
    columns). Each column is factorized on its own and the codes combined into one integer
    key, which is much faster than factorizing tuples. A missing value in a column of
    ``required`` raises :class:`MissingKeyError` (found by the factorization itself, with no
    pass of its own).

    >>> codes, keys = factorize_columns(pd.DataFrame({"g": ["b", "a", "b"], "i": [1, 1, 2]}),
    ...                                 ["g", "i"])
    >>> codes.tolist(), keys.tolist()
    ([1, 0, 2], [('a', 1), ('b', 1), ('b', 2)])
    """
    level_codes: list[IntArray] = []
    levels: list[pd.Index] = []
    for col in cols:  # over key columns, not rows
        try:
            codes, uniques = factorize_sorted(frame[col])
        except TypeError:  # mixed types that cannot be ordered: first-seen order
            codes, uniques = pd.factorize(frame[col], sort=False)
        if col in required and bool((codes < 0).any()):
            raise MissingKeyError(col)
        level_codes.append(np.asarray(codes, dtype=np.int64))
        levels.append(pd.Index(uniques, name=col))
    if len(cols) == 1:
        return level_codes[0], levels[0]
    sizes = [max(len(level), 1) for level in levels]
    if float(np.prod(np.asarray(sizes, dtype=np.float64))) >= 2.0**62:
        mi = pd.MultiIndex.from_frame(frame[cols])
        mi_codes, uniq_mi = mi.factorize(sort=True)
        keys = cast(pd.Index, uniq_mi)
        keys.names = cols
        return np.asarray(mi_codes, dtype=np.int64), keys
    key = level_codes[0]
    for codes, size in zip(level_codes[1:-1], sizes[1:-1], strict=True):
        key = key * size + codes
    total = int(np.prod(np.asarray(sizes, dtype=np.int64)))
    unique_keys, inverse = compact_keys(key, level_codes[-1], sizes[-1], total)
    out: list[IntArray] = []
    rest = unique_keys
    for size in reversed(sizes):
        rest, code = np.divmod(rest, size)
        out.append(code)
    index = pd.MultiIndex(levels=cast(Any, levels), codes=cast(Any, out[::-1]), names=cols)
    return inverse, index


def distinct_keys(key: IntArray, size: int) -> IntArray:
    """``np.unique(key)`` for non-negative integer keys below ``size``.

    >>> distinct_keys(np.array([5, 1, 5, 2]), 8).tolist()
    [1, 2, 5]
    """
    if _dense(size, key.size):
        present = np.zeros(size, dtype=bool)
        present[key] = True
        return np.flatnonzero(present).astype(np.int64)
    return np.unique(key).astype(np.int64)


def duplicated_keys(key: IntArray, size: int) -> IntArray:
    """The distinct values of ``key`` (non-negative, below ``size``) that occur more than
    once, sorted: ``np.unique(key, return_counts=True)`` filtered to counts above 1.

    >>> duplicated_keys(np.array([5, 1, 5, 2, 1, 7]), 8).tolist()
    [1, 5]
    """
    if _dense(size, key.size):
        seen = np.zeros(size, dtype=bool)
        seen[key] = True
        if np.count_nonzero(seen) == key.size:  # the usual case: no key twice
            return np.zeros(0, dtype=np.int64)
        counts = np.bincount(key, minlength=size)
        return np.flatnonzero(counts > 1).astype(np.int64)
    uniq, counts = np.unique(key, return_counts=True)
    return np.asarray(uniq[counts > 1], dtype=np.int64)


def compact_keys(
    prefix: IntArray, last: IntArray, n_last: int, size: int
) -> tuple[IntArray, IntArray]:
    """``np.unique(prefix * n_last + last, return_inverse=True)``: the sorted distinct
    combined keys and each row's position among them.

    ``prefix`` codes the leading key columns (below ``size // n_last``), ``last`` the last one
    (codes ``0 .. n_last - 1``, every one present). Items nested in groups (each ``last``
    code with one ``prefix``) need no pass beyond a scatter and a sort of the ``n_last``
    codes.

    >>> keys, inverse = compact_keys(np.array([1, 0, 1]), np.array([0, 1, 0]), 2, 4)
    >>> keys.tolist(), inverse.tolist()
    ([1, 2], [1, 0, 1])
    """
    if _dense(size, last.size):
        key = prefix * n_last + last
        present = np.zeros(size, dtype=bool)
        present[key] = True
        rank = np.cumsum(present, dtype=np.int64) - 1
        return np.flatnonzero(present).astype(np.int64), rank[key]
    owner = np.zeros(n_last, dtype=np.int64)
    owner[last] = prefix
    if bool((owner[last] == prefix).all()):  # each last code has one prefix
        order = np.argsort(owner, kind="stable")  # by prefix, then by code
        rank = np.empty(n_last, dtype=np.int64)
        rank[order] = np.arange(n_last, dtype=np.int64)
        return owner[order] * n_last + order, rank[last]
    unique_keys, inverse = np.unique(prefix * n_last + last, return_inverse=True)
    return unique_keys.astype(np.int64), np.asarray(inverse, dtype=np.int64).ravel()
