"""Gwet's linearised variance of the kappa family, per group.

For ``kappa = (A_o - A_e) / (1 - A_e)`` over ``n`` rated items (``n2`` of them with two or
more ratings), Gwet (2014, ch. 5) writes each item's contribution as

    kappa_i   = (n / n2) (a_i - A_e [r_i >= 2]) / (1 - A_e)
    kappa*_i  = kappa_i - 2 (1 - kappa) (A_e,i - A_e) / (1 - A_e)
    var       = (1 - f) / (n (n - 1)) sum_i (kappa*_i - kappa)^2

with ``a_i`` the item's agreement, ``A_e,i`` the item's share of chance agreement (one formula
per coefficient, below) and ``f = n / N`` the sampling fraction. Every function works on per-item
arrays with a group code and sums within groups with ``np.bincount``.
"""

from __future__ import annotations

import numpy as np

from ._typing import FloatArray, IntArray, as_float
from .agreement import item_agreement, rater_proportions

__all__ = [
    "conger_item_expected",
    "fleiss_item_expected",
    "gwet_item_expected",
    "linearised_variance",
    "weighted_alpha_variance",
]


def fleiss_item_expected(
    nik: FloatArray, weights: FloatArray, pi: FloatArray, group: IntArray
) -> FloatArray:
    """``A_e,i = sum_k n_ik (W_s pi)_k / r_i`` with ``W_s = (W + W') / 2`` (Fleiss, Scott)."""
    r = nik.sum(axis=-1)
    pi_w = pi @ ((weights + weights.T) / 2.0)  # (G, K), symmetric so orientation is moot
    with np.errstate(invalid="ignore", divide="ignore"):
        return as_float((nik * pi_w[group]).sum(axis=-1) / r)


def gwet_item_expected(
    nik: FloatArray, weights: FloatArray, pi: FloatArray, group: IntArray
) -> FloatArray:
    """``A_e,i = T_w / (K (K - 1)) sum_k n_ik (1 - pi_k) / r_i`` (Gwet's AC1/AC2)."""
    k = weights.shape[0]
    r = nik.sum(axis=-1)
    scale = weights.sum() / (k * (k - 1.0)) if k > 1 else np.nan
    with np.errstate(invalid="ignore", divide="ignore"):
        return as_float(scale * (nik * (1.0 - pi[group])).sum(axis=-1) / r)


def conger_item_expected(
    nck: FloatArray,
    weights: FloatArray,
    n_rated: FloatArray,
    group: IntArray,
    item: IntArray,
    rater: IntArray,
    code: IntArray,
    n_items: int,
) -> FloatArray:
    """Item shares of Conger's (and two-rater Cohen's) chance agreement.

    With ``c`` active raters, ``p_g`` rater ``g``'s proportions over its ``n_g`` ratings,
    ``pbar`` their mean and ``v_g = c pbar - p_g``, each rater adds
    ``lambda_ig = v_g . (W p_g)`` for an item it did not rate and
    ``lambda_ig = v_g . (W p_g) + (n / n_g) ((W' v_g)_x - v_g . (W p_g))`` for an item it rated
    as ``x``; ``A_e,i = sum_g lambda_ig / (c (c - 1))``.
    """
    p, active = rater_proportions(nck)  # (G, R, K)
    c = active.sum(axis=-1).astype(np.float64)  # (G,)
    pbar = p.sum(axis=1) / np.where(c > 0, c, 1.0)[:, None]
    v = np.where(active[..., None], c[:, None, None] * pbar[:, None, :] - p, 0.0)
    wp = p @ weights.T  # (G, R, K): (W p_g)_k
    base = (v * wp).sum(axis=-1)  # (G, R)
    wv = v @ weights  # (G, R, K): (W' v_g)_x
    n_g = nck.sum(axis=-1)  # (G, R)
    g = group[item]
    with np.errstate(invalid="ignore", divide="ignore"):
        term = (n_rated[g] / n_g[g, rater]) * (wv[g, rater, code] - base[g, rater])
        per_item = np.bincount(item, weights=term, minlength=n_items)
        total = base.sum(axis=-1)[group] + per_item
        return as_float(total / (c * (c - 1.0))[group])


def linearised_variance(
    nik: FloatArray,
    weights: FloatArray,
    group: IntArray,
    n_groups: int,
    value: FloatArray,
    expected: FloatArray,
    item_expected: FloatArray | None,
    population: float = np.inf,
) -> tuple[FloatArray, FloatArray]:
    """Gwet's variance of ``value`` per group and the number ``n`` of rated items.

    ``item_expected`` is ``A_e,i`` per item; ``None`` when chance agreement does not depend on
    the data (percent agreement, Bennett's S), so ``A_e,i = A_e``.
    """
    r, a = item_agreement(nik, weights)
    rated = r >= 1
    pairable = r >= 2
    n = np.bincount(group, weights=rated.astype(np.float64), minlength=n_groups)
    n2 = np.bincount(group, weights=pairable.astype(np.float64), minlength=n_groups)
    pe = expected[group]
    kappa = value[group]
    with np.errstate(invalid="ignore", divide="ignore"):
        k_i = (n / n2)[group] * (np.where(pairable, a, 0.0) - pe * pairable) / (1.0 - pe)
        if item_expected is not None:
            k_i = k_i - 2.0 * (1.0 - kappa) * (item_expected - pe) / (1.0 - pe)
        sq = np.where(rated, (k_i - kappa) ** 2, 0.0)
        total = np.bincount(group, weights=sq, minlength=n_groups)
        f = n / population
        var = np.where(n >= 2, (1.0 - f) / (n * (n - 1.0)) * total, np.nan)
    return as_float(var), as_float(n)


def weighted_alpha_variance(
    nik: FloatArray,
    weights: FloatArray,
    group: IntArray,
    n_groups: int,
    population: float = np.inf,
) -> tuple[FloatArray, FloatArray]:
    """Gwet's linearised variance of (weighted) Krippendorff's alpha per group, and ``n'``.

    Over the ``n'`` pairable items, with ``A_o'``, ``A_e``, ``pi`` and ``rbar`` as in
    :func:`~pdagree._kernels.agreement.weighted_alpha_components` and
    ``alpha' = (A_o' - A_e) / (1 - A_e)``:
    ``A_o,i = sum_k n_ik (n*_ik - 1) / (rbar (r_i - 1)) - A_o' (r_i - rbar) / rbar``,
    ``A_e,i = sum_k n_ik (W_s pi)_k / rbar - A_e (r_i - rbar) / rbar``,
    ``alpha*_i = (A_o,i - A_e) / (1 - A_e) - 2 (1 - alpha') (A_e,i - A_e) / (1 - A_e)`` and
    ``var = (1 - f) / (n' (n' - 1)) sum_i (alpha*_i - alpha')^2`` (Gwet 2014, ch. 5).
    """
    from .agreement import weighted_alpha_components

    _, expected, observed_prime, n2 = weighted_alpha_components(nik, weights, group, n_groups)
    r = nik.sum(axis=-1)
    pairable = r >= 2
    total = np.bincount(group, weights=np.where(pairable, r, 0.0), minlength=n_groups)
    with np.errstate(invalid="ignore", divide="ignore"):
        rbar = total / n2
        pi = (
            np.bincount(
                (group[:, None] * nik.shape[1] + np.arange(nik.shape[1])).ravel(),
                weights=np.where(pairable[:, None], nik, 0.0).ravel(),
                minlength=n_groups * nik.shape[1],
            ).reshape(n_groups, -1)
            / total[:, None]
        )
        rb, pe, pa1 = rbar[group], expected[group], observed_prime[group]
        agreeing = (nik * (nik @ weights.T - 1.0)).sum(axis=-1)
        pa_i = agreeing / (rb * (r - 1.0)) - pa1 * (r - rb) / rb
        pi_w = pi @ ((weights + weights.T) / 2.0)
        pe_i = (nik * pi_w[group]).sum(axis=-1) / rb - pe * (r - rb) / rb
        alpha1 = (pa1 - pe) / (1.0 - pe)
        a_i = (pa_i - pe) / (1.0 - pe) - 2.0 * (1.0 - alpha1) * (pe_i - pe) / (1.0 - pe)
        sq = np.where(pairable, (a_i - alpha1) ** 2, 0.0)
        f = n2 / population
        spread = np.bincount(group, weights=sq, minlength=n_groups)
        var = np.where(n2 >= 2, (1.0 - f) / (n2 * (n2 - 1.0)) * spread, np.nan)
    return as_float(var), as_float(n2)
