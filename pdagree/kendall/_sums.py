"""Kendall's coefficient of concordance W (Kendall & Babington Smith 1939).

Each of ``m`` raters ranks the same ``n`` items (mid-ranks for ties). With ``R_i`` the sum of
item ``i``'s ranks and ``S = sum_i (R_i - m (n + 1) / 2)^2``,

    W = 12 S / (m^2 (n^3 - n) - m T),    T = sum over raters of sum over tie groups (t^3 - t),

(``T = 0`` without the tie correction), and ``m (n - 1) W`` is approximately chi-square with
``n - 1`` degrees of freedom. The tie correction is R irr's ``kendall(correct = TRUE)``.
Ranks come from one sort of (group, rater, value) keys with ``by=`` (no groups x items x
raters matrix); one group's complete items are a raters x items matrix, one sort per row.
"""

from __future__ import annotations

import numpy as np

from .._typing import BoolArray, FloatArray, IntArray, as_float
from ..scores import Scores

__all__ = ["kendall_sums"]


def _starts(a: IntArray, b: FloatArray | None = None) -> BoolArray:
    """Where a run of equal ``a`` (and ``b``) values starts, in sorted arrays."""
    out = np.ones(len(a), dtype=bool)
    out[1:] = a[1:] != a[:-1]
    if b is not None:
        out[1:] |= b[1:] != b[:-1]
    return out


def kendall_sums(
    scores: Scores, keep: BoolArray, correct_ties: bool
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Per group: W, chi-square, its degrees of freedom, and (n, m), from the ratings of the
    items ``keep`` marks."""
    kept = scores.kept(keep)
    if kept.n_groups == 1:
        return _one_group(kept, keep, correct_ties)
    return _by_groups(kept, keep, correct_ties)


def _by_groups(
    kept: Scores, keep: BoolArray, correct_ties: bool
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """:func:`kendall_sums` of every group at once, from one sort of (group, rater, value)."""
    x, item, group = kept.x, kept.item, kept.group
    n_raters, n_groups = kept.n_raters, kept.n_groups
    key = kept.rating_group * n_raters + kept.rater  # one ranking per (group, rater)
    # Sorted by key, then value: the values once (quicksort: the order among equal values
    # does not matter, they share a mid-rank), then the keys by a stable sort.
    by_value = np.argsort(x)
    keys = key[by_value]
    if len(keys) and int(keys.max()) < 2**16:  # NumPy's stable sort of 16-bit keys is a radix sort
        keys = keys.astype(np.uint16)
    order = by_value[np.argsort(keys, kind="stable")]
    sk, sx = key[order], x[order]
    new_run = _starts(sk, sx)
    run = np.cumsum(new_run) - 1
    starts = np.flatnonzero(new_run)
    size = np.diff(np.append(starts, len(sx))).astype(np.float64)
    # Position within its ranking (1-based) of each run's first value.
    first_of_key = _starts(sk)
    key_start = np.maximum.accumulate(np.where(first_of_key, np.arange(len(sx)), 0))
    position = np.arange(len(sx)) - key_start + 1.0
    mid = position[starts] + (size - 1.0) / 2.0
    ranks = np.empty(len(sx))
    ranks[order] = mid[run]
    n = np.bincount(group, weights=keep.astype(np.float64), minlength=n_groups)
    m = kept.raters_per_group.astype(np.float64)
    rank_sum = np.bincount(item, weights=ranks, minlength=kept.n_items)
    dev = rank_sum - (m * (n + 1.0) / 2.0)[group]
    s = np.bincount(group, weights=np.where(keep, dev * dev, 0.0), minlength=n_groups)
    ties = np.zeros(n_groups)
    if correct_ties:
        t3 = size**3 - size
        ties = as_float(
            np.bincount(sk[starts] // max(n_raters, 1), weights=t3, minlength=n_groups)
        )
    with np.errstate(invalid="ignore", divide="ignore"):
        w = 12.0 * s / (m * m * (n**3 - n) - m * ties)
        w = np.where((n >= 2) & (m >= 2), w, np.nan)
    return as_float(w), as_float(m * (n - 1.0) * w), as_float(n - 1.0), np.stack([n, m])


def _one_group(
    kept: Scores, keep: BoolArray, correct_ties: bool
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """:func:`kendall_sums` of one group: its complete items as a raters x items matrix,
    each rater's row ranked by one sort (a sort per row is faster than one of the keys)."""
    n = int(keep.sum())
    m = int(kept.raters_per_group[0]) if n else 0
    if n < 2 or m < 2:
        nan = np.array([np.nan])
        return nan, nan, np.array([n - 1.0]), np.array([[float(n)], [float(m)]])
    column = (np.cumsum(keep) - 1)[kept.item]  # the kept items numbered 0..n-1
    slot = kept.pairs[2][kept.group_rater]  # the raters numbered 0..m-1
    matrix = np.empty((m, n))
    matrix[slot, column] = kept.x
    order = np.argsort(matrix, axis=1)
    values = np.take_along_axis(matrix, order, axis=1)
    tied = values[:, 1:] == values[:, :-1]
    ranks = np.empty((m, n))
    position = np.broadcast_to(np.arange(1.0, n + 1.0), (m, n))
    ties = 0.0
    if not tied.any():  # continuous scores: every rank is its position
        np.put_along_axis(ranks, order, position, axis=1)
    else:
        starts = np.ones((m, n), dtype=bool)
        starts[:, 1:] = ~tied
        flat = starts.ravel()
        run = np.cumsum(flat) - 1
        first = np.flatnonzero(flat)
        size = np.diff(np.append(first, m * n)).astype(np.float64)
        mid = (first % n + 1.0) + (size - 1.0) / 2.0
        np.put_along_axis(ranks, order, mid[run].reshape(m, n), axis=1)
        ties = float((size**3 - size).sum()) if correct_ties else 0.0
    dev = ranks.sum(axis=0) - m * (n + 1.0) / 2.0
    s = float(dev @ dev)
    with np.errstate(invalid="ignore", divide="ignore"):  # every score tied: 0 / 0
        out = np.array([12.0 * s]) / np.array([m * m * (n**3 - n) - m * ties])
    return out, m * (n - 1.0) * out, np.array([n - 1.0]), np.array([[float(n)], [float(m)]])
