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

from .._typing import BoolArray, FloatArray, as_float
from ._scores import Scores

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


def mean_squares(scores: Scores, keep: BoolArray) -> MeanSquares:
    """The mean squares of each group's complete two-way layout: the ratings of the items
    ``keep`` marks (each rated once by each of its group's judges)."""
    s = scores.kept(keep)
    item = s.item
    n_items, n_raters, n_groups, group = s.n_items, s.n_raters, s.n_groups, s.group
    n = as_float(np.bincount(group, weights=keep.astype(np.float64), minlength=n_groups))
    d = s.centred  # on each group's mean: groups of very different levels stay exact
    key = s.group_rater
    total = as_float(np.bincount(s.rating_group, weights=d * d, minlength=n_groups))
    k = as_float(s.raters_per_group)
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
