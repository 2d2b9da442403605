"""Kernels of the unweighted kappa family on sparse item × category counts.

With many distinct labels the dense ``n_ik`` table (items × categories) and the identity weight
matrix (categories × categories) do not fit in memory, while the ratings do. These kernels
take the non-zero cells of ``n_ik`` as *entries* ``(item, code, count)`` and compute the same
components as :mod:`pdagree._kernels.agreement` with identity weights, in memory that grows
with the entries (at most one per annotation), the groups × categories present, and never
with items × categories or categories².
"""

from __future__ import annotations

import numpy as np

from ._segment import times
from ._typing import FloatArray, IntArray, as_float
from .agreement import pairable_mean

__all__ = [
    "category_entries",
    "identity_conger_expected",
    "identity_item_agreement",
    "identity_observed",
    "pooled_proportions",
]


def category_entries(
    item: IntArray, code: IntArray, weight: FloatArray, n_categories: int
) -> tuple[IntArray, IntArray, FloatArray]:
    """The non-zero cells of ``n_ik``: ``(item, code, count)``, sorted by item then code.

    >>> import numpy as np
    >>> category_entries(np.array([1, 0, 1, 1]), np.array([2, 0, 2, 0]), np.ones(4), 3)
    (array([0, 1, 1]), array([0, 0, 2]), array([1., 1., 2.]))
    """
    width = max(int(n_categories), 1)
    key = item.astype(np.int64) * width + code
    cells, inverse = np.unique(key, return_inverse=True)
    count = np.bincount(inverse.ravel(), weights=weight, minlength=len(cells))
    return (cells // width).astype(np.int64), (cells % width).astype(np.int64), as_float(count)


def identity_item_agreement(
    e_item: IntArray, e_count: FloatArray, n_items: int
) -> tuple[FloatArray, FloatArray]:
    """Per item ``r_i`` and ``a_i = sum_k n_ik (n_ik - 1) / (r_i (r_i - 1))`` (nan for
    ``r_i < 2``): :func:`pdagree._kernels.agreement.item_agreement` with identity weights."""
    r = np.bincount(e_item, weights=e_count, minlength=n_items).astype(np.float64)
    same = np.bincount(e_item, weights=e_count * (e_count - 1.0), minlength=n_items)
    with np.errstate(invalid="ignore", divide="ignore"):
        a = np.where(r >= 2, same / np.where(r >= 2, r * (r - 1.0), 1.0), np.nan)
    return r, as_float(a)


def identity_observed(
    e_item: IntArray,
    e_count: FloatArray,
    group: IntArray,
    n_groups: int,
    m: FloatArray | None = None,
) -> tuple[FloatArray, FloatArray]:
    """``A_o`` per group over items with ``r_i >= 2``, and their number (identity weights;
    ``m``: the items' multiplicities)."""
    r, a = identity_item_agreement(e_item, e_count, len(group))
    return pairable_mean(r, a, group, n_groups, m)


def pooled_proportions(
    e_item: IntArray,
    e_code: IntArray,
    e_count: FloatArray,
    group: IntArray,
    n_groups: int,
    n_categories: int,
    m: FloatArray | None = None,
) -> tuple[IntArray, IntArray, FloatArray]:
    """Fleiss' ``pi_gk`` (the mean over rated items of ``n_ik / r_i``) as sparse cells
    ``(group, code, pi)`` for the categories each group uses (``m``: the items'
    multiplicities).

    ``sum pi^2`` per group is Fleiss' ``A_e`` with identity weights.
    """
    n_items = len(group)
    r = np.bincount(e_item, weights=e_count, minlength=n_items)
    rated = r >= 1
    n_rated = np.bincount(group, weights=times(m, rated.astype(np.float64)), minlength=n_groups)
    width = max(int(n_categories), 1)
    key = group[e_item] * width + e_code
    cells, inverse = np.unique(key, return_inverse=True)
    each = e_count / r[e_item] if m is None else e_count / r[e_item] * m[e_item]
    share = np.bincount(inverse.ravel(), weights=each, minlength=len(cells))
    g = (cells // width).astype(np.int64)
    with np.errstate(invalid="ignore", divide="ignore"):
        pi = share / n_rated[g]
    return g, (cells % width).astype(np.int64), as_float(pi)


def identity_conger_expected(nck: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Conger's ``A_e`` with identity weights, per group, from ``n_gck`` (G, R, K), and the
    number of raters with ratings: the mean over rater pairs of ``sum_k P(k|m) P(k|n)``,
    ``(c^2 sum_k pbar_k^2 - sum_m sum_k P(k|m)^2) / (c (c - 1))``, without a (K, K) array."""
    n_g = nck.sum(axis=-1)
    active = n_g > 0
    p = nck / np.where(active, n_g, 1.0)[..., None]
    c = active.sum(axis=-1).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        pbar = p.sum(axis=1) / c[:, None]
        within = (p * p).sum(axis=(1, 2))
        expected = (c * c * (pbar * pbar).sum(axis=-1) - within) / (c * (c - 1.0))
    return as_float(np.where(c >= 2, expected, np.nan)), c
