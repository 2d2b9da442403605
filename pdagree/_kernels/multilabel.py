"""Kernels of Rosenberg & Binkowski's (2004) kappa for primary and secondary labels.

Symbols (the paper's, as the issue reconstructs them): annotator ``a``'s annotation matrix
``M_a`` (items x labels) holds 1 where ``a`` gave a single label, ``p`` for ``a``'s primary and
``1 - p`` for ``a``'s secondary label, 0 elsewhere. For a pair ``(a, b)`` and the ``N`` items
both annotated: ``Ag = M_a ∘ M_b``; ``p(A) = sum(Ag) / N``; ``Freq_a = colsum(M_a) / N`` over
the same items; ``p(E) = sum_y Freq_a[y] Freq_b[y]``.

The kernels never build ``M_a``: they work on its non-zero *entries* (annotation, label code,
weight), at most two per (item, annotator), and join them on the item (for ``N`` and
``Freq``) and on the (item, label) pair (for ``Ag``) with sorted searches. Every rater pair of
every group is computed at once (no loop over pairs, items or labels); memory grows with the
co-annotated entry pairs. Weights carry a leading batch axis ``P`` (one row per value of
``p``), so a sweep over ``p`` is one call. A pair ``(a, b)`` is stored once, with ``a < b``,
under the key ``(g * R + a) * R + b``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._typing import FloatArray, IntArray, as_float

__all__ = [
    "PairSums",
    "annotation_pairs",
    "entry_weights",
    "item_means",
    "item_pair_agreement",
    "one_vs_rest",
    "pair_components",
    "pair_mean",
    "pair_sums",
    "subset_entries",
]


def entry_weights(
    code: IntArray, secondary: IntArray, p: FloatArray
) -> tuple[IntArray, IntArray, FloatArray]:
    """The non-zero entries of the annotation matrices: annotation, label code and weight.

    ``code`` is each annotation's primary label, ``secondary`` its secondary label (``-1``
    for none); ``p`` has shape (P,). Returns ``(annotation, code, weight)`` with weight shape
    (P, n_entries): 1 for a single label, ``p`` for a primary, ``1 - p`` for its secondary.

    >>> import numpy as np
    >>> ann, codes, w = entry_weights(np.array([0, 1]), np.array([2, -1]), np.array([0.75]))
    >>> ann.tolist(), codes.tolist(), w.tolist()
    ([0, 1, 0], [0, 1, 2], [[0.75, 1.0, 0.25]])
    """
    p = np.asarray(p, dtype=np.float64)
    has = secondary >= 0
    n = len(code)
    second = np.flatnonzero(has)
    annotation = np.concatenate([np.arange(n, dtype=np.int64), second])
    codes = np.concatenate([code, secondary[second]]).astype(np.int64)
    primary_weight = np.where(has[None, :], p[:, None], 1.0)
    secondary_weight = np.broadcast_to(1.0 - p[:, None], (len(p), len(second)))
    weight = np.concatenate([primary_weight, secondary_weight], axis=1)
    return annotation, codes, as_float(weight)


def subset_entries(
    annotation: IntArray,
    code: IntArray,
    weight: FloatArray,
    member_code: IntArray,
    member_subset: IntArray,
    n_subsets: int,
) -> tuple[IntArray, IntArray, FloatArray]:
    """Entries of the annotation matrices with the labels merged into subsets: label
    ``member_code[j]`` belongs to subset ``member_subset[j]`` (a label may be in several). The
    weight of an annotation in a subset is the sum of its labels' weights there (a primary and
    a secondary in one subset give 1). Returns ``(annotation, subset, weight)``."""
    order = np.argsort(member_code, kind="stable")
    member_code, member_subset = member_code[order], member_subset[order]
    e, m = _matches(code, member_code)
    key = annotation[e] * n_subsets + member_subset[m]
    unique, inverse = np.unique(key, return_inverse=True)
    summed = _batched_bincount(inverse.ravel(), weight[:, e], len(unique))
    return unique // n_subsets, unique % n_subsets, summed


def _matches(left: IntArray, right_sorted: IntArray) -> tuple[IntArray, IntArray]:
    """Every ``(i, j)`` with ``left[i] == right_sorted[j]`` (``right_sorted`` ascending)."""
    lo = np.searchsorted(right_sorted, left, side="left")
    hi = np.searchsorted(right_sorted, left, side="right")
    count = hi - lo
    i = np.repeat(np.arange(len(left), dtype=np.int64), count)
    before = np.cumsum(count) - count
    j = lo[i] + np.arange(len(i), dtype=np.int64) - before[i]
    return i, j.astype(np.int64)


def _batched_bincount(index: IntArray, weight: FloatArray, size: int) -> FloatArray:
    """``np.bincount(index, weight[b], size)`` for every row ``b`` of ``weight``, at once."""
    n_batch = weight.shape[0]
    key = (index[None, :] + size * np.arange(n_batch, dtype=np.int64)[:, None]).ravel()
    out = np.bincount(key, weights=weight.ravel(), minlength=n_batch * size)
    return as_float(out.reshape(n_batch, size))


def annotation_pairs(item: IntArray, rater: IntArray) -> tuple[IntArray, IntArray]:
    """Every pair of annotations of one item by two annotators ``(u, v)``, ``rater[u] <
    rater[v]`` (one annotation per item and annotator), in ascending order of
    ``u * n + v``."""
    order = np.lexsort((rater, item))
    u, v = _matches(item, item[order])
    v = order[v]
    keep = rater[u] < rater[v]
    u, v = u[keep], v[keep]
    sort = np.argsort(u * len(item) + v, kind="stable")
    return u[sort], v[sort]


class PairSums(NamedTuple):
    """What every rater pair's kappa needs, per (pair, label) key.

    Attributes
    ----------
    n_common
        Items both annotators of the pair annotated, shape (G * R * R,).
    key
        ``pair * n_codes + code``, ascending and unique.
    agree, first, second
        Shape (P, n_keys): over the items both annotated, ``sum_x M_a[x, c] M_b[x, c]``,
        ``sum_x M_a[x, c]`` and ``sum_x M_b[x, c]`` (``a < b``).
    """

    n_common: FloatArray
    key: IntArray
    agree: FloatArray
    first: FloatArray
    second: FloatArray


def pair_sums(
    group_of_item: IntArray,
    item: IntArray,
    rater: IntArray,
    e_annotation: IntArray,
    e_code: IntArray,
    e_weight: FloatArray,
    n_groups: int,
    n_raters: int,
    n_codes: int,
) -> PairSums:
    """Sums of the annotation matrices over every rater pair's common items.

    ``item``, ``rater``: per annotation (one per item and annotator); the entries
    ``(e_annotation, e_code, e_weight)`` are the non-zero cells of the annotation matrices
    (:func:`entry_weights` or :func:`subset_entries`), at most one per annotation and code.
    """
    r = n_raters
    e_item, e_rater = item[e_annotation], rater[e_annotation]
    e_group = group_of_item[e_item]
    # N: pairs of annotations of one item.
    u, v = annotation_pairs(item, rater)
    pair_uv = (group_of_item[item[u]] * r + rater[u]) * r + rater[v]
    n_common = np.bincount(pair_uv, minlength=n_groups * r * r).astype(np.float64)
    # Freq: each entry against every other annotator's annotation of its item.
    by_item = np.argsort(item, kind="stable")
    e, o = _matches(e_item, item[by_item])
    o = by_item[o]
    other = rater[o]
    keep = other != e_rater[e]
    e, other = e[keep], other[keep]
    is_first = e_rater[e] < other
    low = np.where(is_first, e_rater[e], other)
    high = np.where(is_first, other, e_rater[e])
    margin_key = ((e_group[e] * r + low) * r + high) * n_codes + e_code[e]
    # Ag: pairs of entries with the same item and code from two annotators.
    cell = e_item * n_codes + e_code
    by_cell = np.argsort(cell, kind="stable")
    f, g = _matches(cell, cell[by_cell])
    g = by_cell[g]
    keep = e_rater[f] < e_rater[g]
    f, g = f[keep], g[keep]
    agree_key = ((e_group[f] * r + e_rater[f]) * r + e_rater[g]) * n_codes + e_code[f]
    key, inverse = np.unique(np.concatenate([margin_key, agree_key]), return_inverse=True)
    inverse = inverse.ravel()
    margin_at, agree_at = inverse[: len(margin_key)], inverse[len(margin_key) :]
    size = len(key)
    weight_e = e_weight[:, e]
    first = _batched_bincount(margin_at, np.where(is_first, weight_e, 0.0), size)
    second = _batched_bincount(margin_at, np.where(is_first, 0.0, weight_e), size)
    agree = _batched_bincount(agree_at, e_weight[:, f] * e_weight[:, g], size)
    return PairSums(n_common, key.astype(np.int64), agree, first, second)


def pair_components(sums: PairSums, n_codes: int) -> tuple[FloatArray, FloatArray]:
    """Every pair's ``p(A)`` and ``p(E)``, shape (P, G * R * R); nan where the pair shares no
    item."""
    n_pairs = len(sums.n_common)
    pair = sums.key // n_codes
    agree = _batched_bincount(pair, sums.agree, n_pairs)
    chance = _batched_bincount(pair, sums.first * sums.second, n_pairs)
    n = sums.n_common
    with np.errstate(invalid="ignore", divide="ignore"):
        return as_float(agree / n), as_float(chance / (n * n))


def one_vs_rest(sums: PairSums, n_codes: int) -> tuple[IntArray, IntArray, FloatArray, FloatArray]:
    """Per (pair, code) key: each code against all others as two labels, ``y`` and not ``y``.

    With ``m_a = M_a[x, y]``: ``p(A) = (1 / N) sum_x [m_a m_b + (1 - m_a)(1 - m_b)]`` and
    ``p(E) = f_a f_b + (1 - f_a)(1 - f_b)``, ``f_a = (1 / N) sum_x m_a``, over the pair's
    ``N`` common items. Returns ``(pair, code, p(A), p(E))``, the last two shape (P, n_keys).
    """
    pair = sums.key // n_codes
    n = sums.n_common[pair]
    with np.errstate(invalid="ignore", divide="ignore"):
        observed = (n - sums.first - sums.second + 2.0 * sums.agree) / n
        f_a, f_b = sums.first / n, sums.second / n
    expected = f_a * f_b + (1.0 - f_a) * (1.0 - f_b)
    return pair, sums.key % n_codes, as_float(observed), as_float(expected)


def pair_mean(kappa: FloatArray, *parts: FloatArray) -> tuple[FloatArray, ...]:
    """Means over pairs along the last axis, each over the pairs where it is not nan: of
    ``kappa`` and of each of ``parts`` (e.g. ``p(A)``, ``p(E)``, defined for every pair that
    shares an item); then the number of pairs with a kappa."""
    means = []
    for x in (kappa, *parts):
        usable = ~np.isnan(x)
        with np.errstate(invalid="ignore", divide="ignore"):
            total = np.where(usable, x, 0.0).sum(axis=-1)
            means.append(as_float(total / usable.sum(axis=-1)))
    return (*means, as_float((~np.isnan(kappa)).sum(axis=-1)))


def item_pair_agreement(
    item: IntArray,
    rater: IntArray,
    e_annotation: IntArray,
    e_code: IntArray,
    e_weight: FloatArray,
    n_codes: int,
) -> tuple[IntArray, IntArray, FloatArray]:
    """Every pair of annotations of one item ``(u, v)`` (:func:`annotation_pairs`) with its
    ``sum_y Ag[x, y]``, shape (P, n_pairs): the item's own agreement for that rater pair."""
    u, v = annotation_pairs(item, rater)
    n = len(item)
    uv = u * n + v
    cell = item[e_annotation] * n_codes + e_code
    by_cell = np.argsort(cell, kind="stable")
    f, g = _matches(cell, cell[by_cell])
    g = by_cell[g]
    a, b = e_annotation[f], e_annotation[g]
    keep = rater[a] < rater[b]
    f, g, a, b = f[keep], g[keep], a[keep], b[keep]
    at = np.searchsorted(uv, a * n + b)
    agree = _batched_bincount(at, e_weight[:, f] * e_weight[:, g], len(uv))
    return u, v, agree


def item_means(values: FloatArray, item: IntArray, n_items: int) -> FloatArray:
    """Per item, the mean of ``values`` (P, n) over the entries of the item that are not nan
    (``item`` gives each entry's item); nan for an item without one. Shape (P, n_items)."""
    usable = ~np.isnan(values)
    total = _batched_bincount(item, np.where(usable, values, 0.0), n_items)
    count = _batched_bincount(item, usable.astype(np.float64), n_items)
    with np.errstate(invalid="ignore", divide="ignore"):
        return as_float(total / count)
