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
``np.bincount`` pass over the ratings (per item, per (group, rater) pair, per group), on the
deviations :attr:`Scores.centred` gives (each group centred in two passes and scaled by
powers of two): no items x raters matrix is formed, and a common offset or scale changes
nothing.

A sum of squares of ``N`` terms carries a rounding error of a few ulps times ``N`` relative to
the total sum of squares; the error and within sums are differences of such sums. A sum below
``ZERO_ULPS * N * eps * SS_total`` is therefore indistinguishable from 0 and is taken as 0:
items whose ratings do not differ give ``MS_rows = 0`` (and the forms that divide by it are
undefined), not ``1e-31``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._typing import BoolArray, FloatArray, as_float
from ..scores import Scores

__all__ = ["ZERO_ULPS", "MeanSquares", "mean_squares"]

#: Ulps per term below which a sum of squares, relative to the total, is zero (see above).
ZERO_ULPS = 4.0


@dataclass(frozen=True, eq=False)
class MeanSquares:
    """Per group: targets ``n``, judges ``k`` and the four mean squares, in the group's
    unit: the mean squares of the ratings themselves are ``ms * 4**exponent``
    (:meth:`in_units`)."""

    n: FloatArray
    k: FloatArray
    ms_rows: FloatArray
    ms_columns: FloatArray
    ms_error: FloatArray
    ms_within: FloatArray
    exponent: FloatArray

    def in_units(self, ms: FloatArray) -> FloatArray:
        """A mean square in the ratings' own units (``inf`` or 0 beyond float range)."""
        with np.errstate(over="ignore", under="ignore"):
            return np.ldexp(ms, 2 * self.exponent.astype(np.int64))


def mean_squares(scores: Scores, keep: BoolArray) -> MeanSquares:
    """The mean squares of each group's complete two-way layout: the ratings of the items
    ``keep`` marks (each rated once by each of its group's judges)."""
    s = scores.kept(keep)
    item = s.item
    n_items, n_groups, group = s.n_items, s.n_groups, s.group
    n = as_float(np.bincount(group, weights=keep.astype(np.float64), minlength=n_groups))
    d = s.centred  # per group, centred and of unit size: offsets and scales drop out
    pair, pair_group, _ = s.pairs
    total = as_float(np.bincount(s.rating_group, weights=d * d, minlength=n_groups))
    k = as_float(s.raters_per_group)
    item_sum = np.bincount(item, weights=d, minlength=n_items)
    col_sum = np.bincount(pair, weights=d, minlength=s.n_pairs)
    zero = ZERO_ULPS * np.finfo(np.float64).eps * s.group_count * total

    def exact(ss: FloatArray) -> FloatArray:
        return np.where(ss <= zero, 0.0, ss)  # nan (no degrees of freedom) stays nan

    with np.errstate(invalid="ignore", divide="ignore"):
        ss_rows = exact(np.bincount(group, weights=item_sum * item_sum, minlength=n_groups) / k)
        col = np.bincount(pair_group, weights=col_sum * col_sum, minlength=n_groups)
        ss_cols = exact(col / n)
        ss_error = exact(total - ss_rows - ss_cols)
        ss_within = exact(total - ss_rows)
        return MeanSquares(
            n=n,
            k=k,
            ms_rows=ss_rows / (n - 1.0),
            ms_columns=ss_cols / (k - 1.0),
            ms_error=ss_error / ((n - 1.0) * (k - 1.0)),
            ms_within=ss_within / (n * (k - 1.0)),
            exponent=s.exponent.astype(np.float64),
        )
