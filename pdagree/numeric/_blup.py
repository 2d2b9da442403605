"""Best linear unbiased predictions of the two-way random-effects model, from the mixed-model
equations with the item effects absorbed (Henderson 1975; Searle, Casella & McCulloch 1992,
ch. 7).

The model of :mod:`pdagree.icc._reml`: ``y_ij = mu + a_i + b_j + e_ij``, with variance
components ``s_a`` (items), ``s_b`` (raters) and ``s_e``. Henderson's equations for ``theta =
(mu, b, a)`` are ``C theta = r`` with ``C = [[A, B'], [B, D]]``: ``A`` the (1 + k) block of
``mu`` and the raters (``N``, each rater's count ``n_j``, ``n_j + s_e / s_b`` on the
diagonal), ``B`` the items' rows (``n_i``, and 1 for each rater who rated the item) and ``D``
diagonal, ``d_i = n_i + s_e / s_a``. Absorbing the items leaves the (1 + k) system
``S (mu, b) = r_1 - B' D^-1 r_2`` with ``S = A - B' D^-1 B``, solved per group (all groups in
one batched call, raters numbered within their group); then ``a = D^-1 (r_2 - B (mu, b))``.
Prediction error variances come from ``C^-1 s_e``: for the item score ``mu + a_i``,
``s_e (1 / d_i + w_i' S^-1 w_i)`` with ``w_i = e_mu - b_i / d_i``; for a rater, ``s_e
(S^-1)_jj``. Every sum over items is one ``np.bincount``, and over pairs of ratings of one
item, a pass over those pairs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._kernels.multilabel import annotation_pairs
from .._typing import FloatArray, IntArray, as_float
from ..scores import Scores

__all__ = ["Predictions", "predict"]


@dataclass(frozen=True)
class Predictions:
    """Per item: ``mu + a_i`` and its prediction error variance; per (group, rater) pair:
    ``b_j`` and its prediction error variance; per rating: its residual. In the groups' units
    (:attr:`Scores.centred`)."""

    item_score: FloatArray
    item_pev: FloatArray
    rater_effect: FloatArray
    rater_pev: FloatArray
    residual: FloatArray


def _inverse_ratio(num: FloatArray, den: FloatArray) -> FloatArray:
    """``num / den`` with 0 where ``num`` is 0 (a component estimated at 0 removes its
    effects: their shrinkage factor is 0)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        out: FloatArray = np.where(num > 0, num / den, 0.0)
    return out


def predict(scores: Scores, s_a: FloatArray, s_b: FloatArray, s_e: FloatArray) -> Predictions:
    """The BLUPs of every group at the components ``(s_a, s_b, s_e)`` (per group, in the
    groups' units), from the ratings ``scores.centred``."""
    y = scores.centred
    item, g_item = scores.item, scores.group
    pair, pair_group, slot = scores.pairs
    n_groups, n_items, n_pairs = scores.n_groups, scores.n_items, scores.n_pairs
    p = int(scores.raters_per_group.max()) + 1 if n_pairs else 1  # mu, then the slots
    g_rating = scores.rating_group
    j = slot[pair] + 1  # per rating: its rater's position in the (1 + k) system
    n_i = scores.per_item.astype(np.float64)
    # 1 / d_i = s_a / (n_i s_a + s_e): 0 when s_a is 0 (no item effects)
    inv_d = _inverse_ratio(
        np.broadcast_to(s_a[g_item], n_i.shape), n_i * s_a[g_item] + s_e[g_item]
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        lam_b = s_e / np.maximum(s_b, s_e * 1e-30)  # s_b = 0: rater effects held at 0
    y_i = np.bincount(item, weights=y, minlength=n_items)  # r_2
    cell = g_rating * p * p
    size = n_groups * p * p

    def add(key: IntArray, weight: FloatArray) -> FloatArray:
        out: FloatArray = np.bincount(key, weights=weight, minlength=size).astype(np.float64)
        return out

    # S = A - B' D^-1 B, entry by entry (mu row/column 0, raters 1..k).
    ones = np.ones_like(y)
    w_rating = inv_d[item]
    s_mat = add(g_rating * p * p, ones)  # A: N at (0, 0)
    s_mat -= add(g_item * p * p, n_i * n_i * inv_d)  # (0, 0): sum n_i^2 / d_i
    n_col = ones - n_i[item] * w_rating  # (0, j): n_j - sum_i n_i n_ij / d_i
    s_mat += add(cell + j, n_col) + add(cell + j * p, n_col)
    s_mat += add(cell + j * p + j, ones - w_rating)  # (j, j): n_j - sum_i n_ij / d_i
    u, v = annotation_pairs(item, scores.rater)
    if len(u):
        gu = g_rating[u] * p * p
        s_mat -= add(gu + j[u] * p + j[v], w_rating[u]) + add(gu + j[v] * p + j[u], w_rating[u])
    s_mat = s_mat.reshape(n_groups, p, p)
    used = np.zeros((n_groups, p), dtype=bool)
    used[:, 0] = True
    used[pair_group, slot + 1] = True
    s_mat[:, np.arange(1, p), np.arange(1, p)] += np.where(used[:, 1:], lam_b[:, None], 1.0)
    rhs = np.zeros((n_groups, p))
    rhs[:, 0] = np.bincount(g_rating, weights=y, minlength=n_groups)
    rhs[:, 0] -= np.bincount(g_item, weights=n_i * y_i * inv_d, minlength=n_groups)
    per_pair = np.bincount(pair, weights=y - y_i[item] * w_rating, minlength=n_pairs)
    rhs[pair_group, slot + 1] = per_pair
    with np.errstate(invalid="ignore"):
        bad = ~np.isfinite(s_mat).all(axis=(1, 2)) | ~np.isfinite(rhs).all(axis=1)
        bad |= ~(s_e > 0) | ~np.isfinite(s_a) | ~np.isfinite(s_b)
    s_mat[bad] = np.eye(p)
    rhs[bad] = 0.0
    inverse = np.linalg.inv(s_mat)
    solution = np.einsum("gij,gj->gi", inverse, rhs)
    solution[bad] = np.nan
    mu = solution[:, 0]
    b = solution[pair_group, slot + 1]  # per (group, rater) pair
    a = inv_d * (y_i - n_i * mu[g_item] - np.bincount(item, weights=b[pair], minlength=n_items))
    residual = y - mu[g_rating] - a[item] - b[pair]
    # PEV of mu + a_i: s_e (1 / d_i + w' S^-1 w), w = e_mu - b_i / d_i.
    inv = inverse.reshape(n_groups, p * p)
    first = 1.0 - n_i * inv_d
    quad = first**2 * inv[g_item, 0]
    cross = np.bincount(item, weights=inv[g_rating, j], minlength=n_items)
    quad -= 2.0 * first * inv_d * cross
    within = as_float(np.bincount(item, weights=inv[g_rating, j * p + j], minlength=n_items))
    if len(u):
        within += 2.0 * np.bincount(
            item[u], weights=inv[g_rating[u], j[u] * p + j[v]], minlength=n_items
        )
    quad += inv_d**2 * within
    item_pev = s_e[g_item] * (inv_d + quad)
    rater_pev = s_e[pair_group] * inverse[pair_group, slot + 1, slot + 1]
    item_pev[bad[g_item]] = np.nan
    rater_pev[bad[pair_group]] = np.nan
    return Predictions(mu[g_item] + a, item_pev, b, rater_pev, residual)
