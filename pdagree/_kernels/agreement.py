"""Kernels of the kappa family: observed agreement and the chance models.

Symbols (Artstein & Poesio 2005; Gwet 2014): ``n_ik`` ratings of item ``i`` in category
``k``; ``r_i = sum_k n_ik``; ``w_kl`` agreement weights (identity for nominal data); ``n_gk``
ratings rater ``g`` gave in category ``k``. Every coefficient is
``(A_o - A_e) / (1 - A_e)`` (:func:`chance_corrected`); the functions here compute ``A_o`` and
the various ``A_e``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._segment import segment_sum, times
from ._typing import BoolArray, FloatArray, IntArray, as_float

__all__ = [
    "AlphaSums",
    "bennett_expected",
    "chance_corrected",
    "conger_expected",
    "fleiss_expected",
    "fleiss_from_pi",
    "gwet_expected",
    "gwet_from_pi",
    "item_agreement",
    "observed_components",
    "pair_components",
    "pair_margin_components",
    "pairable_mean",
    "rater_proportions",
    "weighted_alpha_components",
    "weighted_alpha_sums",
]


def chance_corrected(observed: FloatArray, expected: FloatArray) -> FloatArray:
    """``(A_o - A_e) / (1 - A_e)``, nan where ``A_e = 1`` (the coefficient is undefined).

    >>> import numpy as np
    >>> chance_corrected(np.array([0.7, 1.0]), np.array([0.545, 1.0]))
    array([0.34065934,        nan])
    """
    observed = np.asarray(observed, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    denominator = 1.0 - expected
    undefined = np.isclose(denominator, 0.0, rtol=0.0, atol=1e-12) | np.isnan(denominator)
    safe = np.where(undefined, 1.0, denominator)
    return np.where(undefined, np.nan, (observed - expected) / safe)


def _row_sums(x: FloatArray) -> FloatArray:
    """Sums over the last axis: ``x.sum(axis=-1)``, several times faster for the few
    categories of a count table (NumPy reduces a short last axis slowly)."""
    return as_float(np.einsum("...k->...", x))


def _is_identity(weights: FloatArray) -> bool:
    """Whether the (K, K) weights are the identity (no (K, K) temporary for the check)."""
    k = weights.shape[0]
    return (
        weights.shape == (k, k)
        and int(np.count_nonzero(weights)) == k
        and bool((np.diagonal(weights) == 1.0).all())
    )


def item_agreement(nik: FloatArray, weights: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Per-item rating count ``r_i`` and pairwise agreement ``a_i``.

    ``a_i = sum_k n_ik (sum_l w_kl n_il - 1) / (r_i (r_i - 1))``: the weighted proportion of
    agreeing ordered pairs of ratings (Artstein & Poesio's agr_i); nan where ``r_i < 2``.
    """
    r = _row_sums(nik)
    pairs = r * (r - 1.0)
    # sum_k n_ik (sum_l w_kl n_il - 1) = n_i' W n_i - r_i, without an (items, K) temporary
    # for identity weights.
    weighted = nik if _is_identity(weights) else nik @ weights.T
    agreeing = np.einsum("...k,...k->...", nik, weighted) - r
    with np.errstate(invalid="ignore", divide="ignore"):
        a = np.where(r >= 2, agreeing / np.where(r >= 2, pairs, 1.0), np.nan)
    return r, a


def observed_components(
    nik: FloatArray,
    weights: FloatArray,
    group: IntArray,
    n_groups: int,
    m: FloatArray | None = None,
) -> tuple[FloatArray, FloatArray]:
    """``A_o`` per group, the mean of ``a_i`` over items with ``r_i >= 2``, and their number.

    ``m`` (here and in every kernel that sums over items): per row of ``nik``, how many
    identical items it stands for (rows of counts with their multiplicities); ``None``: one."""
    r, a = item_agreement(nik, weights)
    return pairable_mean(r, a, group, n_groups, m)


def pairable_mean(
    r: FloatArray, a: FloatArray, group: IntArray, n_groups: int, m: FloatArray | None = None
) -> tuple[FloatArray, FloatArray]:
    """Per group, the mean of the items' agreement ``a_i`` over items with ``r_i >= 2``, and
    their number."""
    pairable = r >= 2
    n_pairable = np.bincount(
        group, weights=times(m, pairable.astype(np.float64)), minlength=n_groups
    )
    total = np.bincount(group, weights=times(m, np.where(pairable, a, 0.0)), minlength=n_groups)
    with np.errstate(invalid="ignore", divide="ignore"):
        observed = total / n_pairable
    return as_float(observed), as_float(n_pairable)


def fleiss_expected(
    nik: FloatArray,
    weights: FloatArray,
    group: IntArray,
    n_groups: int,
    m: FloatArray | None = None,
) -> tuple[FloatArray, FloatArray]:
    """Fleiss' (multi-pi) ``A_e = sum_kl w_kl pi_k pi_l`` and ``pi`` per group.

    ``pi_k`` is the mean over items with at least one rating of ``n_ik / r_i`` (Gwet's
    generalisation to incomplete designs; for complete designs it is the pooled proportion
    ``P(k)`` of Artstein & Poesio).
    """
    r = _row_sums(nik)
    rated = r >= 1
    n_rated = np.bincount(group, weights=times(m, rated.astype(np.float64)), minlength=n_groups)
    inverse = times(m, np.where(rated, 1.0 / np.where(rated, r, 1.0), 0.0))
    if n_groups == 1 and nik.ndim == 2:  # one product, no (items, K) temporary
        total = (inverse @ nik)[None, :]
    else:
        total = segment_sum(nik * inverse[..., None], group, n_groups)
    with np.errstate(invalid="ignore", divide="ignore"):
        pi = total / n_rated[:, None]
    return fleiss_from_pi(pi, weights), pi


def fleiss_from_pi(pi: FloatArray, weights: FloatArray) -> FloatArray:
    """Fleiss' ``A_e = sum_kl w_kl pi_k pi_l`` from the pooled ``pi`` (G, K)."""
    out: FloatArray = np.einsum("gk,kl,gl->g", pi, weights, pi)
    return out


def gwet_expected(
    nik: FloatArray,
    weights: FloatArray,
    group: IntArray,
    n_groups: int,
    m: FloatArray | None = None,
) -> tuple[FloatArray, FloatArray]:
    """Gwet's AC1/AC2 ``A_e = T_w / (K (K - 1)) sum_k pi_k (1 - pi_k)`` and ``pi`` per group.

    ``T_w`` is the sum of all weights (``K`` for identity weights) and ``pi`` as in
    :func:`fleiss_expected`.
    """
    _, pi = fleiss_expected(nik, weights, group, n_groups, m)
    return gwet_from_pi(pi, weights), pi


def gwet_from_pi(pi: FloatArray, weights: FloatArray) -> FloatArray:
    """Gwet's ``A_e = T_w / (K (K - 1)) sum_k pi_k (1 - pi_k)`` from the pooled ``pi``."""
    k = weights.shape[0]
    scale = weights.sum() / (k * (k - 1.0)) if k > 1 else np.nan
    out: FloatArray = scale * (pi * (1.0 - pi)).sum(axis=-1)
    return out


def rater_proportions(nck: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Each rater's category proportions ``p_gk = n_gk / n_g`` and whether it rated at all.

    Shapes: ``nck`` (G, R, K) -> proportions (G, R, K) (zeros for raters without ratings in a
    group) and ``active`` (G, R).
    """
    n_g = nck.sum(axis=-1)
    active = n_g > 0
    p = nck / np.where(active, n_g, 1.0)[..., None]
    return p, active


def conger_expected(
    nck: FloatArray, weights: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Conger's (Artstein & Poesio's multi-kappa) ``A_e`` per group.

    ``A_e = sum_kl w_kl (pbar_k pbar_l - s2_kl / c)`` where ``pbar`` is the mean over the ``c``
    raters with ratings in the group of ``p_gk`` and ``s2_kl`` their sample covariance: the mean
    over rater pairs of ``sum_kl w_kl P(k|c_m) P(l|c_n)`` (Artstein & Poesio 2005, section 13.4).

    Returns ``A_e`` (G,), ``pbar`` (G, K) and the number of active raters (G,).
    """
    p, active = rater_proportions(nck)
    c = active.sum(axis=-1).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        pbar = p.sum(axis=1) / c[:, None]
        # sum_{m != n} P(k|m) P(l|n) / (c (c - 1)) = (c^2 pbar pbar' - sum_m P P') / (c (c - 1))
        outer_sum = np.einsum("grk,grl->gkl", p, p)
        mean_pairs = (c[:, None, None] ** 2 * np.einsum("gk,gl->gkl", pbar, pbar) - outer_sum) / (
            c * (c - 1.0)
        )[:, None, None]
    expected = np.einsum("gkl,kl->g", mean_pairs, weights)
    expected = np.where(c >= 2, expected, np.nan)
    return expected, pbar, c


def bennett_expected(weights: FloatArray) -> float:
    """Bennett's S (Brennan-Prediger) chance agreement ``sum_kl w_kl / K^2`` over the declared
    categories."""
    k = weights.shape[0]
    return float(weights.sum() / (k * k))


def pair_components(
    confusion: FloatArray, nck: FloatArray, weights: FloatArray, pooled: bool
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Two-rater ``A_o`` and ``A_e`` for every rater pair, shapes (G, R, R).

    ``A_o`` is the weighted proportion of agreement over the items both raters rated (from the
    pair's confusion table). ``A_e`` uses each rater's category proportions over all the
    items it rated: Cohen's ``sum_kl w_kl p_ak p_bl`` (Conger's ``A_e`` for two raters) or,
    with ``pooled``, Scott's ``sum_kl w_kl pi_k pi_l`` with ``pi`` as in
    :func:`fleiss_expected` over the items either rater rated. Also returns the number of
    items both rated.
    """
    n_common = confusion.sum(axis=(-2, -1))
    agree = np.einsum("gabkl,kl->gab", confusion, weights)
    rows = confusion.sum(axis=-1)
    cols = confusion.sum(axis=-2)
    return pair_margin_components(n_common, agree, rows, cols, nck, weights, pooled)


def pair_margin_components(
    n_common: FloatArray,
    agree: FloatArray,
    rows: FloatArray,
    cols: FloatArray,
    nck: FloatArray,
    weights: FloatArray | None,
    pooled: bool,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """:func:`pair_components` from the pairs' margins: the items both rated ``n_common``
    (G, R, R), their weighted agreement ``agree`` and the tables' row and column sums
    (G, R, R, K), as :func:`pdagree.encoding._counts.pair_margins` counts them. ``weights=None`` is
    identity weights, without a (K, K) array."""
    with np.errstate(invalid="ignore", divide="ignore"):
        observed = agree / n_common
    if pooled:
        # Fleiss' pi restricted to the pair: the mean over items rated by either rater of
        # n_ik / r_i. Items both rated give half of each rating; items one rated give all.
        n_a = nck.sum(axis=-1)
        share = (rows + cols) / 2.0 + (nck[:, :, None, :] - rows) + (nck[:, None, :, :] - cols)
        n_either = n_a[:, :, None] + n_a[:, None, :] - n_common
        with np.errstate(invalid="ignore", divide="ignore"):
            pi = share / n_either[..., None]
        if weights is None:
            expected = np.einsum("gabk,gabk->gab", pi, pi)
        else:
            expected = np.einsum("gabk,kl,gabl->gab", pi, weights, pi)
    else:
        p, _ = rater_proportions(nck)
        if weights is None:
            expected = np.einsum("gak,gbk->gab", p, p)
        else:
            expected = np.einsum("gak,kl,gbl->gab", p, weights, p)
    return observed, expected, n_common


def weighted_alpha_components(
    nik: FloatArray,
    weights: FloatArray,
    group: IntArray,
    n_groups: int,
    m: FloatArray | None = None,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Gwet's weighted Krippendorff's alpha: ``A_o``, ``A_e``, ``A_o'`` and pairable items.

    Over the ``n'`` items with ``r_i >= 2``, with ``rbar`` their mean number of ratings and
    ``epsilon = 1 / sum_i r_i``:
    ``A_o' = (1 / n') sum_i sum_k n_ik (n*_ik - 1) / (rbar (r_i - 1))`` with ``n* = n W'``,
    ``A_o = (1 - epsilon) A_o' + epsilon``, ``pi_k = (1 / n') sum_i n_ik / rbar`` and
    ``A_e = sum_kl w_kl pi_k pi_l``; alpha is ``(A_o - A_e) / (1 - A_e)`` (Gwet 2014, ch. 4),
    which equals Krippendorff's ``1 - D_o / D_e`` for ``delta2 = 1 - w``.
    """
    s = weighted_alpha_sums(nik, weights, group, n_groups, m)
    return s.observed, s.expected, s.observed_prime, s.n2


class AlphaSums(NamedTuple):
    """:func:`weighted_alpha_components` and the arrays they come from, for the variance to
    reuse (:func:`~pdagree._kernels.variance.weighted_alpha_variance`)."""

    observed: FloatArray  #: ``A_o`` per group
    expected: FloatArray  #: ``A_e`` per group
    observed_prime: FloatArray  #: ``A_o'`` per group
    n2: FloatArray  #: pairable items ``n'`` per group
    r: FloatArray  #: ratings per item
    pairable: BoolArray  #: ``r_i >= 2`` per item
    agreeing: FloatArray  #: ``sum_k n_ik (n*_ik - 1)`` per item
    total: FloatArray  #: ``sum_i r_i`` over the pairable items, per group
    rbar: FloatArray  #: ``total / n'`` per group


def weighted_alpha_sums(
    nik: FloatArray,
    weights: FloatArray,
    group: IntArray,
    n_groups: int,
    m: FloatArray | None = None,
) -> AlphaSums:
    """:func:`weighted_alpha_components` with the per-item arrays and per-group sums they
    come from (:class:`AlphaSums`), computed once for the value and its variance."""
    r = nik.sum(axis=-1)
    pairable = r >= 2
    fp = pairable.astype(np.float64)
    n2 = np.bincount(group, weights=times(m, fp), minlength=n_groups)
    total = np.bincount(group, weights=times(m, np.where(pairable, r, 0.0)), minlength=n_groups)
    with np.errstate(invalid="ignore", divide="ignore"):
        rbar = total / n2
        # n* = n W' (n itself for identity weights: no matrix product over the items).
        weighted = nik if _is_identity(weights) else nik @ weights.T
        agreeing = (nik * (weighted - 1.0)).sum(axis=-1)
        share = np.where(pairable, agreeing / np.where(pairable, r - 1.0, 1.0), 0.0)
        observed_prime = np.bincount(group, weights=times(m, share), minlength=n_groups) / (
            n2 * rbar
        )
        epsilon = 1.0 / total
        observed = (1.0 - epsilon) * observed_prime + epsilon
        kept = times(m, np.where(pairable[:, None], nik, 0.0))
        pi = segment_sum(kept, group, n_groups) / total[:, None]
    expected = np.einsum("gk,kl,gl->g", pi, weights, pi)
    return AlphaSums(
        as_float(observed),
        as_float(expected),
        as_float(observed_prime),
        as_float(n2),
        as_float(r),
        pairable,
        as_float(agreeing),
        as_float(total),
        as_float(rbar),
    )
