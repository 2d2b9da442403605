"""The counting layer: integer codes become count tensors with ``np.bincount``.

Every function here takes the flat per-annotation code arrays of the encoding layer and
returns dense count arrays whose size depends on the number of items, raters, groups and
categories only (never on their products with one another beyond what the tensor holds).
"""

from __future__ import annotations

import numpy as np

from .._lazy import scipy_sparse as sp
from .._typing import FloatArray, IntArray, as_float

__all__ = ["item_counts", "pair_agreements", "pair_confusions", "pair_margins", "rater_counts"]


def item_counts(
    item: IntArray, code: IntArray, weight: FloatArray, n_items: int, n_categories: int
) -> FloatArray:
    """n_ik: how many ratings item ``i`` received in category ``k``, shape (n_items, K)."""
    key = item * n_categories + code
    counts = np.bincount(key, weights=weight, minlength=n_items * n_categories)
    return as_float(counts.reshape(n_items, n_categories))


def rater_counts(
    group_of_item: IntArray,
    item: IntArray,
    rater: IntArray,
    code: IntArray,
    n_groups: int,
    n_raters: int,
    n_categories: int,
) -> FloatArray:
    """n_gck: how many items rater ``c`` put in category ``k`` within group ``g``, (G, R, K)."""
    key = (group_of_item[item] * n_raters + rater) * n_categories + code
    counts = np.bincount(key, minlength=n_groups * n_raters * n_categories)
    return as_float(counts.reshape(n_groups, n_raters, n_categories))


def pair_confusions(
    group_of_item: IntArray,
    item: IntArray,
    rater: IntArray,
    code: IntArray,
    n_items: int,
    n_groups: int,
    n_raters: int,
    n_categories: int,
) -> FloatArray:
    """Confusion tables of every rater pair within every group, shape (G, R, R, K, K).

    Entry ``[g, a, b, k, l]`` counts the items of group ``g`` that rater ``a`` put in ``k``
    and rater ``b`` in ``l``. Computed as the sparse product X^T X of the one-hot
    annotation matrix X (items x group·rater·category), so the work grows with the number
    of co-rated annotation pairs and no (items, K, K) temporary is made.
    """
    pair, k, l_, count = _co_ratings(
        group_of_item, item, rater, code, n_items, n_groups, n_raters, n_categories
    )
    key = (pair * n_categories + k) * n_categories + l_
    size = n_groups * n_raters * n_raters * n_categories * n_categories
    out = np.bincount(key, weights=count, minlength=size)
    return as_float(out.reshape(n_groups, n_raters, n_raters, n_categories, n_categories))


def pair_margins(
    group_of_item: IntArray,
    item: IntArray,
    rater: IntArray,
    code: IntArray,
    n_items: int,
    n_groups: int,
    n_raters: int,
    n_categories: int,
    weights: FloatArray | None,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """What two-rater coefficients need of every pair's confusion table, without the table.

    ``weights`` is the (K, K) agreement-weight matrix, or ``None`` for identity weights
    (no K x K array: agreement is ``k == l``).

    Returns, for every group and rater pair ``(g, a, b)``: the items both rated (G, R, R),
    their weighted agreement ``sum_kl w_kl C_kl`` (G, R, R), and the table's row and column
    sums (G, R, R, K). Memory grows with ``G R^2 K``, a factor ``K`` below the tables of
    :func:`pair_confusions`.
    """
    pair, k, l_, count = _co_ratings(
        group_of_item, item, rater, code, n_items, n_groups, n_raters, n_categories
    )
    n_pairs = n_groups * n_raters * n_raters
    shape = (n_groups, n_raters, n_raters)
    n_common = np.bincount(pair, weights=count, minlength=n_pairs).reshape(shape)
    credit = (k == l_).astype(np.float64) if weights is None else weights[k, l_]
    agree = np.bincount(pair, weights=count * credit, minlength=n_pairs).reshape(shape)
    size = n_pairs * n_categories
    rows = np.bincount(pair * n_categories + k, weights=count, minlength=size)
    cols = np.bincount(pair * n_categories + l_, weights=count, minlength=size)
    return (
        as_float(n_common),
        as_float(agree),
        as_float(rows.reshape(*shape, n_categories)),
        as_float(cols.reshape(*shape, n_categories)),
    )


def pair_agreements(
    group_of_item: IntArray,
    item: IntArray,
    rater: IntArray,
    code: IntArray,
    n_items: int,
    n_groups: int,
    n_raters: int,
    n_categories: int,
) -> tuple[IntArray, IntArray, IntArray, FloatArray, FloatArray]:
    """The rater pairs ``a < b`` that share at least one item, per group, with the items both
    rated and the items they agree on (identity weights): ``(group, a, b, n_common, agree)``,
    one entry per such pair. Memory grows with the co-rated annotation pairs, never with
    ``G R^2``: a sparse crowd of 10^5 raters has few pairs that meet."""
    pair, k, l_, count = _co_ratings(
        group_of_item, item, rater, code, n_items, n_groups, n_raters, n_categories
    )
    rest = pair % (n_raters * n_raters)
    upper = rest // n_raters < rest % n_raters
    keys, inverse = np.unique(pair[upper], return_inverse=True)
    weight = count[upper]
    n_common = np.bincount(inverse, weights=weight, minlength=len(keys))
    agree = np.bincount(inverse, weights=weight * (k[upper] == l_[upper]), minlength=len(keys))
    group, rest = np.divmod(keys, n_raters * n_raters)
    first, second = np.divmod(rest, n_raters)
    return group, first, second, as_float(n_common), as_float(agree)


def _co_ratings(
    group_of_item: IntArray,
    item: IntArray,
    rater: IntArray,
    code: IntArray,
    n_items: int,
    n_groups: int,
    n_raters: int,
    n_categories: int,
) -> tuple[IntArray, IntArray, IntArray, FloatArray]:
    """Every (group, rater a, rater b) pair key with categories ``k``, ``l`` and how many items
    of the group have a's rating ``k`` and b's rating ``l``: the non-zero entries of the
    sparse product X^T X of the one-hot annotation matrix X (items x group·rater·category), so
    the work grows with the co-rated annotation pairs and no (items, K, K) temporary is made.
    """
    width = n_raters * n_categories
    column = group_of_item[item] * width + rater * n_categories + code
    x = sp.csr_matrix((np.ones(len(item)), (item, column)), shape=(n_items, n_groups * width))
    product = (x.T @ x).tocoo()
    g_a, rest_a = np.divmod(product.row.astype(np.int64), width)
    a, k = np.divmod(rest_a, n_categories)
    b, l_ = np.divmod(product.col.astype(np.int64) % width, n_categories)
    pair = (g_a * n_raters + a) * n_raters + b
    return pair, k, l_, as_float(product.data)
