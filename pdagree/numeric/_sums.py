"""Moment sums of numeric ratings per (group, rater) and per pair of raters, from integer
keys with ``np.bincount``: what Cronbach's alpha, Lin's concordance and Bland & Altman's
limits are functions of. No items x raters matrix is built."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._kernels.multilabel import annotation_pairs
from .._typing import BoolArray, FloatArray, IntArray
from ..scores import Scores

__all__ = ["PairSums", "pair_sums", "rater_variances", "two_raters"]


def rater_variances(scores: Scores, x: FloatArray, rows: BoolArray | None = None) -> FloatArray:
    """Per (group, rater) pair (:attr:`Scores.pairs`), the variance (``ddof=1``) of its
    ratings ``x`` (those ``rows`` marks); nan with fewer than two."""
    pair = scores.group_rater
    weight = None if rows is None else rows.astype(np.float64)
    n = np.bincount(pair, weights=weight, minlength=scores.n_pairs)
    xs = x if rows is None else np.where(rows, x, 0.0)
    s1 = np.bincount(pair, weights=xs, minlength=scores.n_pairs)
    s2 = np.bincount(pair, weights=xs * xs, minlength=scores.n_pairs)
    with np.errstate(invalid="ignore", divide="ignore"):
        out: FloatArray = np.where(n >= 2, (s2 - s1 * s1 / n) / (n - 1), np.nan)
    return out


@dataclass(frozen=True)
class PairSums:
    """Per pair of raters of one group who rated an item in common: the pair's two (group,
    rater) codes, its group, and the covariance (``ddof=1``) of their ratings over the items
    both rated (nan over fewer than two)."""

    first: IntArray
    second: IntArray
    group: IntArray
    covariance: FloatArray


def pair_sums(scores: Scores, x: FloatArray) -> PairSums:
    """Every pair of raters' covariance over the items they both rated (pandas'
    ``DataFrame.cov``, pairwise complete), from the pairs of ratings within items."""
    u, v = annotation_pairs(scores.item, scores.rater)
    pair = scores.group_rater
    n_pairs = max(scores.n_pairs, 1)
    keys, which = np.unique(pair[u] * n_pairs + pair[v], return_inverse=True)
    which = which.reshape(-1)
    m = len(keys)
    n = np.bincount(which, minlength=m).astype(np.float64)
    sx = np.bincount(which, weights=x[u], minlength=m)
    sy = np.bincount(which, weights=x[v], minlength=m)
    sxy = np.bincount(which, weights=x[u] * x[v], minlength=m)
    with np.errstate(invalid="ignore", divide="ignore"):
        cov = np.where(n >= 2, (sxy - sx * sy / n) / (n - 1), np.nan)
    first, second = keys // n_pairs, keys % n_pairs
    return PairSums(first, second, scores.pairs[1][first], cov)


def two_raters(scores: Scores, x: FloatArray, slots: IntArray) -> tuple[FloatArray, ...]:
    """The items rated once by each of two raters: per such item its group and the two
    ratings (the rater in slot ``slots[0]`` of its group, then ``slots[1]``), from ``x``.

    ``slots`` holds, per (group, rater) pair, 0 or 1 for the two raters compared and -1 for
    any other rater."""
    slot = slots[scores.group_rater]
    n_items = scores.n_items
    counted = [np.bincount(scores.item, weights=slot == s, minlength=n_items) for s in (0, 1)]
    both = (counted[0] == 1) & (counted[1] == 1)
    values = [
        np.bincount(scores.item, weights=np.where(slot == s, x, 0.0), minlength=n_items)[both]
        for s in (0, 1)
    ]
    group = scores.group[both].astype(np.float64)
    return group, values[0], values[1]
