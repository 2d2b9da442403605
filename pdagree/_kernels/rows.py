"""Row maxima, sums, all-true and first maximum of (items, K) arrays with few columns, column by
column: NumPy's reductions along a short last axis are several times slower than K
element-wise passes (3.3 ms against 0.9 ms for the maxima of 10^5 x 5)."""

from __future__ import annotations

import numpy as np

from ._typing import FloatArray, IntArray

__all__ = ["first_true", "row_all", "row_max", "row_sum"]


def row_max(a: FloatArray) -> FloatArray:
    """``a.max(axis=1)`` (no nan handling: the inputs have none)."""
    out = a[:, 0].copy()
    for c in range(1, a.shape[1]):
        np.maximum(out, a[:, c], out=out)
    return out


def row_sum(a: FloatArray) -> FloatArray:
    """``a.sum(axis=1)``, accumulated column by column in order."""
    out = a[:, 0].copy()
    for c in range(1, a.shape[1]):
        out += a[:, c]
    return out


def row_all(mask: np.ndarray) -> np.ndarray:
    """``mask.all(axis=1)`` (True for a row of no columns)."""
    out = np.ones(mask.shape[0], dtype=bool)
    for c in range(mask.shape[1]):
        out &= mask[:, c]
    return out


def first_true(mask: np.ndarray) -> IntArray:
    """Per row, the first column where ``mask`` holds (``mask.argmax(axis=1)``: 0 where none
    does)."""
    out = np.zeros(mask.shape[0], dtype=np.int64)
    for c in range(mask.shape[1] - 1, -1, -1):
        out[mask[:, c]] = c
    return out
