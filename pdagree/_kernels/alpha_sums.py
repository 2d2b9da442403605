"""Krippendorff's alpha from sums, for the two metrics that need no pairs of values.

The general kernels (:mod:`pdagree._kernels.alpha`) reduce the pairable values to sparse
``(item, category)`` and ``(group, category)`` counts, two sorts of the annotations. Two
metrics need less:

- nominal, when the dense item x category table ``n_uc`` exists: every sum is a row or column
  sum of that table, ``sum_ck n_c n_k [c != k] = n^2 - sum_c n_c^2`` (and the same per item);
- interval: ``delta2 = (x_c - x_k)^2``, so ``sum_ck n_c n_k delta2_ck = 2 n sum_c n_c
  (x_c - xbar)^2`` needs only the weighted sum and sum of squares of the values, per item and
  per group (moment sums), with no table of categories at all: O(E) time and memory for ``E``
  annotations however many distinct values there are.

Symbols as in :mod:`pdagree._kernels.alpha`: ``m_u`` ratings of item ``u`` (pairable when
``m_u >= 2``), ``n`` the pairable values of a group. Both return the same
:class:`~pdagree._kernels.alpha.AlphaComponents` as
:func:`~pdagree._kernels.alpha.alpha_components`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._segment import segment_sum, times
from ._typing import FloatArray, IntArray, as_float
from .alpha import AlphaComponents

__all__ = [
    "interval_alpha_components",
    "interval_alpha_one_group",
    "nominal_alpha_components",
]

Array = np.ndarray[Any, np.dtype[Any]]


def _finish(
    observed: Array, expected: Array, n_items: Array, n: Array, top: Array
) -> AlphaComponents:
    with np.errstate(invalid="ignore", divide="ignore"):
        d_o = np.where(n > 0, observed / n, np.nan)
        d_e = np.where(n > 0, expected / (n * (n - 1.0)), np.nan)
    return AlphaComponents(
        as_float(d_o), as_float(d_e), as_float(n_items), as_float(n), as_float(top)
    )


def nominal_alpha_components(
    nik: FloatArray, group: IntArray, n_groups: int, m: FloatArray | None = None
) -> AlphaComponents:
    """Nominal ``D_o``, ``D_e``, pairable items, pairable values and the largest ``delta2``
    (1 where two categories are present) per group, from the (n_items, K) table ``n_uc``.

    >>> import numpy as np
    >>> nik = np.array([[2.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
    >>> c = nominal_alpha_components(nik, np.zeros(3, dtype=np.int64), 1)
    >>> c.observed_disagreement, c.expected_disagreement
    (array([0.33333333]), array([0.6]))
    """
    r = np.einsum("ik->i", nik)
    pairable = r >= 2
    same = np.einsum("ik,ik->i", nik, nik)
    with np.errstate(invalid="ignore", divide="ignore"):
        per_item = np.where(pairable, (r * r - same) / (r - 1.0), 0.0)
    observed = np.bincount(group, weights=times(m, per_item), minlength=n_groups)
    n_items = np.bincount(group, weights=times(m, pairable.astype(np.float64)), minlength=n_groups)
    n_gc = segment_sum(times(m, np.where(pairable[:, None], nik, 0.0)), group, n_groups)
    n = np.einsum("gk->g", n_gc)
    expected = n * n - np.einsum("gk,gk->g", n_gc, n_gc)
    top = np.where((n_gc > 0).sum(axis=-1) >= 2, 1.0, 0.0)
    return _finish(observed, expected, n_items, n, top)


def _spread(x: FloatArray, w: FloatArray, segment: IntArray, n_segments: int) -> FloatArray:
    """Per segment ``sum w (x - xbar)^2`` with ``xbar`` the weighted mean; the values are
    first shifted by one value of their segment, so equal values give exactly 0 and large
    offsets do not cancel. One segment (no ``by=``) takes plain reductions."""
    if n_segments == 1:
        if x.size == 0:
            return np.zeros(1)
        shifted = x - x[0]
        deviation = shifted - np.dot(w, shifted) / w.sum()
        return np.array([np.dot(w * deviation, deviation)])
    reference = np.zeros(n_segments)
    reference[segment] = x
    shifted = x - reference[segment]
    total = np.bincount(segment, weights=w, minlength=n_segments)
    moment = np.bincount(segment, weights=w * shifted, minlength=n_segments)
    mean = moment / np.where(total > 0, total, 1.0)
    deviation = shifted - mean[segment]
    return as_float(np.bincount(segment, weights=w * deviation * deviation, minlength=n_segments))


def _squared_range(x: FloatArray, segment: IntArray, n_segments: int) -> FloatArray:
    """Per segment ``(max x - min x)^2``, 0 for a segment without values."""
    if n_segments == 1:
        return np.array([float(x.max() - x.min()) ** 2 if x.size else 0.0])
    highest = np.full(n_segments, -np.inf)
    lowest = np.full(n_segments, np.inf)
    np.maximum.at(highest, segment, x)
    np.minimum.at(lowest, segment, x)
    return np.where(highest >= lowest, highest - lowest, 0.0) ** 2


def interval_alpha_components(
    item: IntArray,
    x: FloatArray,
    weight: FloatArray,
    group: IntArray,
    n_groups: int,
) -> AlphaComponents:
    """Interval ``D_o``, ``D_e``, pairable items, pairable values and the largest ``delta2``
    (the squared range of the pairable values) per group, from per-item moment sums.

    ``item``, ``x`` (the value), ``weight``: per annotation; ``group``: per item.

    >>> import numpy as np
    >>> item = np.array([0, 0, 1, 1, 2])
    >>> c = interval_alpha_components(item, np.array([1.0, 2.0, 3.0, 3.0, 9.0]), np.ones(5),
    ...                               np.zeros(3, dtype=np.int64), 1)
    >>> c.observed_disagreement, c.expected_disagreement, c.max_delta2
    (array([0.5]), array([1.83333333]), array([4.]))
    """
    n_items = len(group)
    total = np.bincount(item, weights=weight, minlength=n_items)
    pairable = total >= 2
    keep = pairable[item]
    if not keep.all():
        item, x, weight = item[keep], x[keep], weight[keep]
    spread_items = _spread(x, weight, item, n_items)
    with np.errstate(invalid="ignore", divide="ignore"):
        per_item = np.where(pairable, 2.0 * total * spread_items / (total - 1.0), 0.0)
    observed = np.bincount(group, weights=per_item, minlength=n_groups)
    pairable_items = np.bincount(group, weights=pairable.astype(np.float64), minlength=n_groups)
    value_group = group[item]
    n = np.bincount(value_group, weights=weight, minlength=n_groups)
    expected = 2.0 * n * _spread(x, weight, value_group, n_groups)
    top = _squared_range(x, value_group, n_groups)
    return _finish(observed, expected, pairable_items, n, top)


def interval_alpha_one_group(item: IntArray, x: FloatArray, n_items: int) -> AlphaComponents:
    """:func:`interval_alpha_components` for one group and one weight per annotation, in
    fewer passes over the annotations (ratings read as numbers: one per item and rater).

    The same sums: per item, the values shifted by one of the item's own (equal values give
    exactly 0) and their deviations from the shifted mean; over the pairable values, the same
    about the first of them.

    >>> import numpy as np
    >>> c = interval_alpha_one_group(np.array([0, 0, 1, 1, 2]),
    ...                              np.array([1.0, 2.0, 3.0, 3.0, 9.0]), 3)
    >>> c.observed_disagreement, c.expected_disagreement, c.max_delta2
    (array([0.5]), array([1.83333333]), array([4.]))
    """
    count = np.bincount(item, minlength=n_items)
    pairable = count >= 2
    if not pairable.all():
        keep = pairable[item]
        item, x = item[keep], x[keep]
    reference = np.zeros(n_items)
    reference[item] = x
    shifted = x - reference[item]
    size = np.where(pairable, count, 1).astype(np.float64)
    deviation = shifted - (np.bincount(item, weights=shifted, minlength=n_items) / size)[item]
    spread = np.bincount(item, weights=deviation * deviation, minlength=n_items)
    with np.errstate(invalid="ignore", divide="ignore"):
        per_item = np.where(pairable, 2.0 * count * spread / (count - 1.0), 0.0)
    n = np.array([float(len(x))])
    centred = x - x[0] if len(x) else x
    deviation = centred - centred.mean() if len(x) else centred
    total = np.array([np.dot(deviation, deviation)])
    return _finish(
        np.array([per_item.sum()]),
        2.0 * n * total,
        np.array([float(np.count_nonzero(pairable))]),
        n,
        _squared_range(x, np.zeros(0, dtype=np.int64), 1),
    )
