"""Sums of per-item arrays within groups."""

from __future__ import annotations

import numpy as np

from ._typing import FloatArray, IntArray

__all__ = ["segment_sum", "times"]


_FEW_COLUMNS = 16


def segment_sum(x: FloatArray, group: IntArray, n_groups: int) -> FloatArray:
    """Sum the rows of ``x`` (shape (n, ...)) within groups, giving shape (n_groups, ...).

    One ``np.bincount`` on the combined key ``group * width + column``; no loop over groups
    or columns.

    >>> import numpy as np
    >>> segment_sum(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), np.array([0, 1, 0]), 2)
    array([[6., 8.],
           [3., 4.]])
    """
    x = np.asarray(x, dtype=np.float64)
    tail = x.shape[1:]
    width = int(np.prod(tail)) if tail else 1
    flat = x.reshape(len(x), width)
    if n_groups == 1:  # every item in one group (no by=): a column sum
        total: FloatArray = np.einsum("ik->k", flat).reshape((1, *tail))
        return total
    if width <= _FEW_COLUMNS:  # one bincount per column: the same sums, no (n, width) key
        columns = [
            np.bincount(group, weights=flat[:, j], minlength=n_groups) for j in range(width)
        ]
        return np.stack(columns, axis=-1).reshape((n_groups, *tail))
    key = (group[:, None] * width + np.arange(width)).ravel()
    out = np.bincount(key, weights=flat.ravel(), minlength=n_groups * width)
    return out.reshape((n_groups, *tail))


def times(m: FloatArray | None, x: FloatArray) -> FloatArray:
    """``x`` (one value per item, or per item and column) weighted by the items'
    multiplicities ``m`` (rows of counts standing for several identical items); ``x`` itself
    when ``m`` is ``None``."""
    if m is None:
        return x
    out: FloatArray = x * (m if x.ndim == 1 else m[:, None])
    return out
