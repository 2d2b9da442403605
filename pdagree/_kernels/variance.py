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

from ._segment import times
from ._typing import BoolArray, FloatArray, IntArray, as_float
from .agreement import item_agreement, rater_proportions, weighted_alpha_sums

__all__ = [
    "TABLE_KINDS",
    "conger_item_expected",
    "fleiss_item_expected",
    "fleiss_null_from_counts",
    "fleiss_null_variance",
    "gwet_item_expected",
    "linearised_variance",
    "table_variance",
    "weighted_alpha_variance",
]

#: The two-rater coefficients whose contingency-table variance :func:`table_variance` gives.
TABLE_KINDS = ("observed", "bennett", "cohen", "scott", "gwet")


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
    _, n_raters, k = nck.shape
    with np.errstate(invalid="ignore", divide="ignore"):
        # The rated-item term of each (group, rater, category) cell, read once per annotation.
        cells = (n_rated[:, None] / n_g)[..., None] * (wv - base[..., None])
        cell = (group[item] * n_raters + rater) * k + code
        term = cells.reshape(-1)[cell]
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
    m: FloatArray | None = None,
) -> tuple[FloatArray, FloatArray]:
    """Gwet's variance of ``value`` per group and the number ``n`` of rated items.

    ``item_expected`` is ``A_e,i`` per item; ``None`` when chance agreement does not depend on
    the data (percent agreement, Bennett's S), so ``A_e,i = A_e``. ``m``: the items'
    multiplicities.
    """
    r, a = item_agreement(nik, weights)
    rated = r >= 1
    pairable = r >= 2
    n = np.bincount(group, weights=times(m, rated.astype(np.float64)), minlength=n_groups)
    n2 = np.bincount(group, weights=times(m, pairable.astype(np.float64)), minlength=n_groups)
    pe = expected[group]
    kappa = value[group]
    with np.errstate(invalid="ignore", divide="ignore"):
        k_i = (n / n2)[group] * (np.where(pairable, a, 0.0) - pe * pairable) / (1.0 - pe)
        if item_expected is not None:
            k_i = k_i - 2.0 * (1.0 - kappa) * (item_expected - pe) / (1.0 - pe)
        sq = np.where(rated, (k_i - kappa) ** 2, 0.0)
        total = np.bincount(group, weights=times(m, sq), minlength=n_groups)
        f = n / population
        var = np.where(n >= 2, (1.0 - f) / (n * (n - 1.0)) * total, np.nan)
    return as_float(var), as_float(n)


def weighted_alpha_variance(
    nik: FloatArray,
    weights: FloatArray,
    group: IntArray,
    n_groups: int,
    population: float = np.inf,
    m: FloatArray | None = None,
) -> tuple[FloatArray, FloatArray]:
    """Gwet's linearised variance of (weighted) Krippendorff's alpha per group, and ``n'``
    (``m``: the items' multiplicities).

    Over the ``n'`` pairable items, with ``A_o'``, ``A_e``, ``pi`` and ``rbar`` as in
    :func:`~pdagree._kernels.agreement.weighted_alpha_components` and
    ``alpha' = (A_o' - A_e) / (1 - A_e)``:
    ``A_o,i = sum_k n_ik (n*_ik - 1) / (rbar (r_i - 1)) - A_o' (r_i - rbar) / rbar``,
    ``A_e,i = sum_k n_ik (W_s pi)_k / rbar - A_e (r_i - rbar) / rbar``,
    ``alpha*_i = (A_o,i - A_e) / (1 - A_e) - 2 (1 - alpha') (A_e,i - A_e) / (1 - A_e)`` and
    ``var = (1 - f) / (n' (n' - 1)) sum_i (alpha*_i - alpha')^2`` (Gwet 2014, ch. 5).
    """
    sums = weighted_alpha_sums(nik, weights, group, n_groups, m)
    _, expected, observed_prime, n2, r, pairable, agreeing, total, rbar = sums
    with np.errstate(invalid="ignore", divide="ignore"):
        pi = (
            np.bincount(
                (group[:, None] * nik.shape[1] + np.arange(nik.shape[1])).ravel(),
                weights=times(m, np.where(pairable[:, None], nik, 0.0)).ravel(),
                minlength=n_groups * nik.shape[1],
            ).reshape(n_groups, -1)
            / total[:, None]
        )
        rb, pe, pa1 = rbar[group], expected[group], observed_prime[group]
        pa_i = agreeing / (rb * (r - 1.0)) - pa1 * (r - rb) / rb
        pi_w = pi @ ((weights + weights.T) / 2.0)
        pe_i = (nik * pi_w[group]).sum(axis=-1) / rb - pe * (r - rb) / rb
    return _alpha_variance(pa_i, pe_i, pa1, pe, pairable, group, n2, population, m)


def _alpha_variance(
    pa_i: FloatArray,
    pe_i: FloatArray,
    observed: FloatArray,
    expected: FloatArray,
    pairable: BoolArray,
    group: IntArray,
    n2: FloatArray,
    population: float,
    m: FloatArray | None = None,
) -> tuple[FloatArray, FloatArray]:
    """Gwet's variance of alpha from the items' linearised terms ``A_o,i`` and ``A_e,i`` and
    their group's ``A_o'`` and ``A_e`` (per item): ``alpha*_i = (A_o,i - A_e) / (1 - A_e) -
    2 (1 - alpha') (A_e,i - A_e) / (1 - A_e)``, ``var = (1 - f) / (n' (n' - 1)) sum_i
    (alpha*_i - alpha')^2`` over the pairable items."""
    with np.errstate(invalid="ignore", divide="ignore"):
        alpha1 = (observed - expected) / (1.0 - expected)
        a_i = (pa_i - expected) / (1.0 - expected) - 2.0 * (1.0 - alpha1) * (pe_i - expected) / (
            1.0 - expected
        )
        sq = np.where(pairable, (a_i - alpha1) ** 2, 0.0)
        f = n2 / population
        spread = np.bincount(group, weights=times(m, sq), minlength=len(n2))
        var = np.where(n2 >= 2, (1.0 - f) / (n2 * (n2 - 1.0)) * spread, np.nan)
    return as_float(var), as_float(n2)


def interval_alpha_variance(
    item: IntArray,
    x: FloatArray,
    weight: FloatArray,
    group: IntArray,
    n_groups: int,
    top: float,
    population: float = np.inf,
) -> tuple[FloatArray, FloatArray]:
    """:func:`weighted_alpha_variance` for interval weights ``w_kl = 1 - (x_k - x_l)^2 / top``
    from per-item moment sums, without a (K, K) matrix: O(annotations) whatever the number
    of distinct values.

    ``item``, ``x`` (the value), ``weight``: per annotation; ``group``: per item. With
    ``r_i``, ``S1_i = sum x``, ``S2_i = sum x^2`` per item and ``m1``, ``m2`` the pooled
    moments of the pairable values: ``sum_k n_ik (n*_ik - 1) = r_i^2 - r_i - 2 (r_i S2_i -
    S1_i^2) / top``, ``sum_k n_ik (W pi)_k = r_i - (S2_i - 2 m1 S1_i + r_i m2) / top`` and
    ``A_e = 1 - 2 (m2 - m1^2) / top``; the rest as in :func:`weighted_alpha_variance`. The
    values are centred first (the weights do not change under a shift).
    """
    n_items = len(group)
    r = np.bincount(item, weights=weight, minlength=n_items)
    centre = float(np.dot(weight, x) / weight.sum()) if weight.sum() > 0 else 0.0
    xc = x - centre
    s1 = np.bincount(item, weights=weight * xc, minlength=n_items)
    s2 = np.bincount(item, weights=weight * xc * xc, minlength=n_items)
    pairable = r >= 2
    keep = np.where(pairable, 1.0, 0.0)
    n2 = np.bincount(group, weights=keep, minlength=n_groups)
    total = np.bincount(group, weights=keep * r, minlength=n_groups)
    with np.errstate(invalid="ignore", divide="ignore"):
        rbar = total / n2
        m1 = np.bincount(group, weights=keep * s1, minlength=n_groups) / total
        m2 = np.bincount(group, weights=keep * s2, minlength=n_groups) / total
        pe = 1.0 - 2.0 * (m2 - m1 * m1) / top
        agreeing = r * r - r - 2.0 * (r * s2 - s1 * s1) / top
        per_item = np.where(pairable, agreeing / np.where(pairable, r - 1.0, 1.0), 0.0)
        pa1 = np.bincount(group, weights=per_item, minlength=n_groups) / (n2 * rbar)
        rb, e, o, g1, g2 = rbar[group], pe[group], pa1[group], m1[group], m2[group]
        pa_i = agreeing / (rb * (r - 1.0)) - o * (r - rb) / rb
        pe_i = (r - (s2 - 2.0 * g1 * s1 + r * g2) / top) / rb - e * (r - rb) / rb
    return _alpha_variance(pa_i, pe_i, o, e, pairable, group, as_float(n2), population)


def table_variance(
    table: FloatArray, weights: FloatArray, kind: str, population: float = np.inf
) -> tuple[FloatArray, FloatArray]:
    """Gwet's variance of a two-rater coefficient from its contingency tables, per group, and
    the number ``n`` of items of each table.

    ``table`` has shape (G, K, K): rows the first rater's categories, columns the second's.
    With ``p_kl`` the table over ``n``, margins ``p_k.`` and ``p_.l``, ``pi_k = (p_k. +
    p_.k) / 2``, ``A_o = sum_kl w_kl p_kl``, the coefficient ``c = (A_o - A_e) / (1 - A_e)``
    and ``f = n / N`` (Gwet 2014, ch. 5, the two-rater case):

    ``var = (1 - f) / (n (1 - A_e)^2) [sum_kl p_kl (w_kl - t_kl)^2 - (A_o - 2 (1 - c) A_e)^2]``

    with, by ``kind``,

    - ``"observed"``: ``A_e = 0``, ``t_kl = 0`` (the bracket is ``sum p_kl w_kl^2 - A_o^2``);
    - ``"bennett"``: ``A_e = sum_kl w_kl / K^2``, ``t_kl = 0`` and ``A_o`` in place of
      ``A_o - 2 (1 - c) A_e``;
    - ``"cohen"``: ``A_e = sum_kl w_kl p_k. p_.l``,
      ``t_kl = (1 - c) (sum_j w_kj p_.j + sum_j w_jl p_j.)``;
    - ``"scott"``: ``A_e = sum_kl w_kl pi_k pi_l``, ``t_kl = (1 - c) (wbar_k + wbar_l)`` with
      ``wbar_k = (sum_j w_kj p_.j + sum_j w_jk p_j.) / 2``;
    - ``"gwet"``: ``A_e = T_w / (K (K - 1)) sum_k pi_k (1 - pi_k)``,
      ``t_kl = 2 (1 - c) T_w (1 - (pi_k + pi_l) / 2) / (K (K - 1))``, ``T_w = sum_kl w_kl``.

    This is the linearised variance of raw ratings (:func:`linearised_variance`) on the items
    of the table, with the divisor ``n^2`` where the raw-ratings formula has ``n (n - 1)``.
    """
    k = weights.shape[0]
    n = table.sum(axis=(1, 2))
    with np.errstate(invalid="ignore", divide="ignore"):
        p = table / n[:, None, None]
        row, col = p.sum(axis=2), p.sum(axis=1)
        a_o = np.einsum("gkl,kl->g", p, weights)
        pi = (row + col) / 2.0
        total_w = weights.sum()
        if kind == "observed":
            a_e = np.zeros_like(a_o)
        elif kind == "bennett":
            a_e = np.full_like(a_o, total_w / (k * k))
        elif kind == "cohen":
            a_e = np.einsum("gk,kl,gl->g", row, weights, col)
        elif kind == "scott":
            a_e = np.einsum("gk,kl,gl->g", pi, weights, pi)
        elif kind == "gwet":
            scale = total_w / (k * (k - 1.0)) if k > 1 else np.nan
            a_e = scale * (pi * (1.0 - pi)).sum(axis=-1)
        else:
            raise ValueError(f"unknown kind {kind!r}; one of {TABLE_KINDS}")
        c = (a_o - a_e) / (1.0 - a_e)
        shrink = (1.0 - c)[:, None, None]
        if kind in ("observed", "bennett"):
            target = np.zeros_like(p)
        elif kind == "cohen":
            target = shrink * ((col @ weights.T)[:, :, None] + (row @ weights)[:, None, :])
        elif kind == "scott":
            wbar = ((col @ weights.T) + (row @ weights)) / 2.0
            target = shrink * (wbar[:, :, None] + wbar[:, None, :])
        else:
            target = 2.0 * shrink * scale * (1.0 - (pi[:, :, None] + pi[:, None, :]) / 2.0)
        centre = a_o if kind == "bennett" else a_o - 2.0 * (1.0 - c) * a_e
        spread = (p * (weights[None] - target) ** 2).sum(axis=(1, 2)) - centre**2
        f = n / population
        var = (1.0 - f) / (n * (1.0 - a_e) ** 2) * np.maximum(spread, 0.0)
        var = np.where(n >= 1, var, np.nan)
    return as_float(var), as_float(n)


def fleiss_null_variance(
    nik: FloatArray, group: IntArray, n_groups: int
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """The variance of Fleiss' kappa under H0 (no agreement beyond chance) of Fleiss, Nee &
    Landis (1979), per group, for ``n`` items rated by ``m`` raters each:

    ``var0 = 2 / (n m (m - 1)) [(sum_k p_k q_k)^2 - sum_k p_k q_k (q_k - p_k)]
    / (sum_k p_k q_k)^2`` with ``p_k`` the share of the ratings in category ``k`` and
    ``q_k = 1 - p_k``.

    Returns ``var0``, ``n`` (items with a rating) and the fewest and most ratings of those
    items per group; the formula holds when they are equal (``m``).
    """
    k = nik.shape[-1]
    r = nik.sum(axis=-1)
    rated = r > 0
    n = np.bincount(group, weights=rated.astype(np.float64), minlength=n_groups)
    ratings = np.bincount(group, weights=r, minlength=n_groups)
    counts = np.bincount(
        (group[:, None] * k + np.arange(k)).ravel(), weights=nik.ravel(), minlength=n_groups * k
    ).reshape(n_groups, k)
    fewest = np.full(n_groups, np.inf)
    most = np.zeros(n_groups)
    np.minimum.at(fewest, group[rated], r[rated])
    np.maximum.at(most, group[rated], r[rated])
    var0 = fleiss_null_from_counts(as_float(counts), as_float(n), as_float(ratings))
    return var0, as_float(n), as_float(np.where(n > 0, fewest, np.nan)), as_float(most)


def fleiss_null_from_counts(counts: FloatArray, n: FloatArray, ratings: FloatArray) -> FloatArray:
    """:func:`fleiss_null_variance` from the ratings per group and category ``counts``
    (G, K), the rated items ``n`` and the ratings per group, ``m`` ratings on every item."""
    with np.errstate(invalid="ignore", divide="ignore"):
        m = ratings / n
        p = counts / ratings[:, None]
        pq = p * (1.0 - p)
        spread = pq.sum(axis=-1)
        skew = (pq * ((1.0 - p) - p)).sum(axis=-1)
        var0 = 2.0 / (n * m * (m - 1.0)) * (spread**2 - skew) / spread**2
    return as_float(var0)
