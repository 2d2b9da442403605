"""The two-way layout of numeric ratings as mean squares, per ``by=`` group, from moment sums.

Targets (items) ``i = 1..n`` are rated by judges (raters) ``j = 1..k``, one rating each. With
the grand mean ``m``, the sums of squares of the two-way ANOVA without replication (Shrout &
Fleiss 1979, Table 1; McGraw & Wong 1996, Table 3) are

    SS_rows = k sum_i (mean_i - m)^2            (n - 1 degrees of freedom)
    SS_cols = n sum_j (mean_j - m)^2            (k - 1)
    SS_total = sum_ij (x_ij - m)^2              (nk - 1)
    SS_error = SS_total - SS_rows - SS_cols     ((n - 1)(k - 1))
    SS_within = SS_total - SS_rows              (n (k - 1))

and each mean square is its sum over its degrees of freedom. Every sum comes from one
``np.bincount`` pass over the ratings (per item, per (group, rater), per group), after the
ratings are centred on their group's mean so that large values keep their precision: no
items x raters matrix is formed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._typing import BoolArray, FloatArray, IntArray, as_float

__all__ = ["MeanSquares", "mean_squares"]


@dataclass(frozen=True, eq=False)
class MeanSquares:
    """Per group: targets ``n``, judges ``k`` and the four mean squares."""

    n: FloatArray
    k: FloatArray
    ms_rows: FloatArray
    ms_columns: FloatArray
    ms_error: FloatArray
    ms_within: FloatArray


def mean_squares(
    x: FloatArray,
    item: IntArray,
    rater: IntArray,
    group: IntArray,
    n_items: int,
    n_raters: int,
    n_groups: int,
    keep: BoolArray,
) -> MeanSquares:
    """The mean squares of each group's complete two-way layout: the ratings ``x`` of the
    items ``keep`` marks (each rated once by each of its group's judges)."""
    if not keep.all():
        rows = keep[item]
        x, item, rater = x[rows], item[rows], rater[rows]
    n = as_float(np.bincount(group, weights=keep.astype(np.float64), minlength=n_groups))
    if n_groups == 1:  # no per-annotation group codes to gather
        d = x - x.mean() if len(x) else x
        key = rater
        total = np.array([d @ d])
    else:
        g_item = group[item]
        count = np.bincount(g_item, minlength=n_groups).astype(np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.bincount(g_item, weights=x, minlength=n_groups) / count
        d = x - np.nan_to_num(mean)[g_item]
        key = g_item * n_raters + rater
        total = as_float(np.bincount(g_item, weights=d * d, minlength=n_groups))
    per_rater = np.bincount(key, minlength=n_groups * n_raters).reshape(n_groups, n_raters)
    k = as_float((per_rater > 0).sum(axis=1))
    item_sum = np.bincount(item, weights=d, minlength=n_items)
    col_sum = np.bincount(key, weights=d, minlength=n_groups * n_raters)
    with np.errstate(invalid="ignore", divide="ignore"):
        ss_rows = np.bincount(group, weights=item_sum * item_sum, minlength=n_groups) / k
        col = (col_sum * col_sum).reshape(n_groups, n_raters).sum(axis=1)
        ss_cols = col / n
        ss_error = total - ss_rows - ss_cols
        ss_within = total - ss_rows
        return MeanSquares(
            n=n,
            k=k,
            ms_rows=ss_rows / (n - 1.0),
            ms_columns=ss_cols / (k - 1.0),
            ms_error=np.maximum(ss_error, 0.0) / ((n - 1.0) * (k - 1.0)),
            ms_within=np.maximum(ss_within, 0.0) / (n * (k - 1.0)),
        )
