"""Two raters' contingency tables: the components of the coefficients from (G, K, K) counts.

A table ``T_g`` counts the items of group ``g`` that the first rater put in category ``k`` and
the second in ``l``; every item has one rating from each. What the other kernels sum over
items is then a sum over the K x K cells, each item of cell ``(k, l)`` contributing the same
amount, so memory and time are O(G K^2) whatever the number of items the tables count. Each
function gives what its counterpart over items gives on the table read as one item per count
(``tests/test_table_data.py``).
"""

from __future__ import annotations

import numpy as np

from . import alpha as KA
from ._typing import FloatArray

__all__ = [
    "alpha_components",
    "cell_agreement",
    "margins",
    "multinomial_tables",
    "observed",
    "pooled",
    "rater_counts",
    "weighted_alpha_components",
]


def margins(tables: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Per group the items ``n`` (G,), the first rater's counts (G, K) and the second's."""
    rows = tables.sum(axis=2)
    return rows.sum(axis=1), rows, tables.sum(axis=1)


def rater_counts(tables: FloatArray) -> FloatArray:
    """``n_gck``: the two raters' category counts, shape (G, 2, K)."""
    _, rows, cols = margins(tables)
    return np.stack([rows, cols], axis=1)


def cell_agreement(weights: FloatArray | None, k: int) -> FloatArray:
    """The pairwise agreement ``a_i`` of an item in cell ``(k, l)``, (K, K): with ``n_i`` the
    item's counts ``e_k + e_l``, ``a_i = (n_i' W n_i - 2) / 2``, which is ``w_kl`` for a
    symmetric ``W`` with a unit diagonal (``None``: identity weights)."""
    if weights is None:
        return np.eye(k)
    d = np.diagonal(weights)
    return (d[:, None] + d[None, :] + weights + weights.T - 2.0) / 2.0


def observed(tables: FloatArray, weights: FloatArray | None) -> tuple[FloatArray, FloatArray]:
    """``A_o`` (the mean agreement of the items) and the items, per group."""
    n, _, _ = margins(tables)
    agreement = cell_agreement(weights, tables.shape[-1])
    with np.errstate(invalid="ignore", divide="ignore"):
        a_o = np.einsum("gkl,kl->g", tables, agreement) / n
    return a_o, n


def pooled(tables: FloatArray) -> FloatArray:
    """The pooled ``pi``: the mean over items of ``n_ik / 2``, (G, K)."""
    n, rows, cols = margins(tables)
    with np.errstate(invalid="ignore", divide="ignore"):
        out: FloatArray = (rows + cols) / (2.0 * n[:, None])
    return out


def weighted_alpha_components(
    tables: FloatArray, weights: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Gwet's weighted alpha as :func:`pdagree._kernels.agreement.weighted_alpha_components`
    computes it, for two ratings per item (``rbar = 2``, ``epsilon = 1 / (2 n)``):
    ``A_o``, ``A_e``, ``A_o'`` and the pairable items."""
    n = margins(tables)[0]
    observed_prime, _ = observed(tables, weights)
    pi = pooled(tables)
    with np.errstate(invalid="ignore", divide="ignore"):
        epsilon = 1.0 / (2.0 * n)
    a_o = (1.0 - epsilon) * observed_prime + epsilon
    a_e = np.einsum("gk,kl,gl->g", pi, weights, pi)
    return a_o, a_e, observed_prime, n


def alpha_components(tables: FloatArray, metric: KA.Metric) -> KA.AlphaComponents:
    """Krippendorff's ``D_o`` and ``D_e`` from the coincidences ``o = T + T'`` (each item's
    two values are one pair each way): ``D_o = sum o delta2 / n`` and
    ``D_e = sum n_c n_k delta2 / (n (n - 1))`` with ``n_c = sum_k o_ck`` and ``n = 2 items``;
    as :func:`pdagree._kernels.alpha.alpha_components` on the items."""
    k = tables.shape[-1]
    coincidences = tables + tables.transpose(0, 2, 1)
    n_c = coincidences.sum(axis=2)
    n = n_c.sum(axis=1)
    present = n_c > 0
    codes = np.arange(k, dtype=np.int64)
    if isinstance(metric, KA.Nominal):
        delta2 = (1.0 - np.eye(k))[None]
    elif isinstance(metric, KA.Ordinal):
        mid = np.cumsum(n_c, axis=1) - n_c / 2.0  # the mid-ranks of the categories
        delta2 = (mid[:, :, None] - mid[:, None, :]) ** 2
    elif isinstance(metric, KA.Interval):
        delta2 = ((metric.values[:, None] - metric.values[None, :]) ** 2)[None]
    else:
        first, second = np.repeat(codes, k), np.tile(codes, k)
        delta2 = np.asarray(metric.delta2(first, second), dtype=np.float64).reshape(1, k, k)
    both = present[:, :, None] & present[:, None, :]
    top = np.where(both, np.broadcast_to(delta2, both.shape), 0.0).max(axis=(1, 2))
    disagreeing = (coincidences * delta2).sum(axis=(1, 2))
    chance = np.einsum("gk,gkl,gl->g", n_c, np.broadcast_to(delta2, coincidences.shape), n_c)
    with np.errstate(invalid="ignore", divide="ignore"):
        d_o = np.where(n > 0, disagreeing / n, np.nan)
        d_e = np.where(n > 0, chance / (n * (n - 1.0)), np.nan)
    return KA.AlphaComponents(d_o, d_e, n / 2.0, n, top)


def multinomial_tables(
    count: FloatArray, n_resamples: int, gen: np.random.Generator
) -> FloatArray:
    """Bootstrap resamples of a table whose non-zero cells count ``count``: drawing its ``n``
    items with replacement is drawing how many fall in each cell from the multinomial of
    ``n`` trials on the cells' shares. Shape (n_resamples, cells)."""
    n = float(count.sum())
    drawn = gen.multinomial(int(n), count / n, size=n_resamples)
    return np.asarray(drawn, dtype=np.float64).reshape(n_resamples, len(count))
