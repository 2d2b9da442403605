"""Row maxima and sums of (items, K) arrays with few columns, column by column: NumPy's
reductions along a short last axis are several times slower than K element-wise passes
(3.3 ms against 0.9 ms for the maxima of 10^5 x 5), and the EM takes one of each per
iteration."""

from __future__ import annotations

import numpy as np

from .._typing import FloatArray

__all__ = ["row_max", "row_sum"]


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
