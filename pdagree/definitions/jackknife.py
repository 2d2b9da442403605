"""Jackknife variances over items for the coefficients without a linearised one.

Light's kappa (Light 1971; Conger 1980) and Artstein & Poesio's (2005) annotator bias have no
variance in Gwet's (2014) linearised form. Their standard error is the jackknife over items
(Quenouille 1956; Tukey 1958; Efron 1982): with ``theta_(i)`` the coefficient without item
``i`` and ``theta_(.)`` the mean of the ``n`` values,
``v = (n - 1) / n sum_i (theta_(i) - theta_(.))^2`` (Efron & Tibshirani 1993, eq. 11.5), times
``1 - n / N`` with a finite population of ``N`` items, as Gwet's variances. The ``n`` values
come in closed form from the sums over all items and each item's own annotations
(:mod:`pdagree._kernels.jackknife`), in one vectorised pass: no resampling, and memory that
grows with the annotations and the rater pairs x categories, not with items x pairs.

The units are the rated items, as for the item bootstrap; with ``by=``, the items of each
group. A contingency table's items are its counts: leaving out one item of a cell gives every
item of that cell the same value, so one value per cell, weighted by its count, suffices.

Each function has the registry's ``variance`` signature:
``(data, options, components, population) -> (var, n)`` per group.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._kernels import jackknife as KJ
from .._typing import FloatArray, IntArray
from ..tensors.data import RatingData
from ..tensors.table_data import TableData, replicate_tables
from .base import MIN_SHARED_ITEMS, Components
from .bias import bias
from .kappa import light

__all__ = ["bias_jackknife", "light_jackknife"]

#: Contingency tables: most cells across the left-out tables computed at once.
_TABLE_CELLS = 1 << 21

LeaveOneOut = Callable[[RatingData], FloatArray]


def _slots(data: RatingData, method: str) -> IntArray:
    """Per annotation its rater's slot: the rater numbered within its group, as the
    (G, S, K) rater counts and the rater-pair tables are (:attr:`RatingData.slots`)."""
    data.rater_codes(method)  # the ValueError of a layout without raters
    return data.slots[0]


def _in_item_order(data: RatingData, method: str) -> tuple[IntArray, IntArray]:
    """Each annotation's slot and category code in item order (:attr:`RatingData.by_item`),
    gathered once for both kernels and all their chunks: the gather is a random access."""
    _slots(data, method)
    return data.by_item_ratings


def _light_values(data: RatingData) -> FloatArray:
    sizes, _ = data.by_item
    rater, code = _in_item_order(data, "light")
    return KJ.light_leave_one_out(
        data.enc.group,
        sizes,
        None,
        rater,
        code,
        data.nck,
        data.pair_agreements,
        MIN_SHARED_ITEMS,
    )


def _bias_values(data: RatingData) -> FloatArray:
    sizes, _ = data.by_item
    rater, code = _in_item_order(data, "bias")
    return KJ.bias_leave_one_out(data.enc.group, sizes, None, rater, code, data.nck)


def _table_values(
    data: TableData, coefficient: Callable[[RatingData], Components]
) -> tuple[FloatArray, FloatArray]:
    """A one-group table's leave-one-out values, one per cell, and the cells' counts."""
    _, _, count = data.cells
    n_cells = len(count)
    per_chunk = max(1, _TABLE_CELLS // max(n_cells, 1))
    theta = np.empty(n_cells)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        for lo in range(0, n_cells, per_chunk):
            hi = min(lo + per_chunk, n_cells)
            left_out = np.tile(count, (hi - lo, 1))
            left_out[np.arange(hi - lo), np.arange(lo, hi)] -= 1.0
            theta[lo:hi] = coefficient(replicate_tables(data, left_out)).value
    return theta, count


def _jackknife(
    data: RatingData,
    population: float,
    values: LeaveOneOut,
    coefficient: Callable[[RatingData], Components],
) -> tuple[FloatArray, FloatArray]:
    if isinstance(data, TableData):
        if data.enc.groups is None:
            theta, count = _table_values(data, coefficient)
            var, n = KJ.jackknife_variance(theta, np.zeros(len(theta), np.int64), 1, count)
            return _corrected(var, n, population), n
        data = data.rows
    data.require_items("the jackknife over items")
    enc = data.enc
    rated = np.flatnonzero(data.by_item[0] > 0)
    theta = values(data)[rated]
    var, n = KJ.jackknife_variance(theta, enc.group[rated], enc.n_groups)
    return _corrected(var, n, population), n


def _corrected(var: FloatArray, n: FloatArray, population: float) -> FloatArray:
    """The finite-population correction ``1 - n / N`` (none for ``N`` infinite)."""
    out: FloatArray = var * (1.0 - n / population) if np.isfinite(population) else var
    return out


def light_jackknife(
    data: RatingData, options: dict[str, Any], parts: Components, population: float
) -> tuple[FloatArray, FloatArray]:
    """The jackknife variance over items of Light's kappa (Efron 1982:
    ``(n - 1) / n sum_i (theta_(i) - theta_(.))^2``), each ``theta_(i)`` in closed form."""
    return _jackknife(data, population, _light_values, light)


def bias_jackknife(
    data: RatingData, options: dict[str, Any], parts: Components, population: float
) -> tuple[FloatArray, FloatArray]:
    """The jackknife variance over items of Artstein & Poesio's annotator bias (Efron 1982:
    ``(n - 1) / n sum_i (theta_(i) - theta_(.))^2``), each ``theta_(i)`` in closed form."""
    return _jackknife(data, population, _bias_values, bias)
