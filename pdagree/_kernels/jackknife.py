"""The jackknife over items: leave-one-item-out values in closed form, and their variance.

Efron's (1982) jackknife estimates the variance of a statistic ``theta`` of ``n`` items from
its ``n`` leave-one-out values ``theta_(i)``: ``v = (n - 1) / n sum_i (theta_(i) - theta_(.))^2``
with ``theta_(.)`` their mean (Efron & Tibshirani 1993, ch. 11). No item is resampled: for
Light's kappa and Artstein & Poesio's annotator bias, removing item ``i`` changes only the
counts of the raters who rated it, so every ``theta_(i)`` follows in closed form from the sums
over all items and item ``i``'s own annotations.

- :func:`light_leave_one_out`: Light's (1971) kappa, the mean of the rater pairs' Cohen's
  kappas (Conger 1980). Removing item ``i`` changes, for each rater ``c`` who rated it (in
  category ``k``), ``n_c`` and ``n_ck`` by one, so ``P(.|c)`` becomes ``(n_c P(.|c) - e_k) /
  (n_c - 1)``; a pair with one rater in item ``i`` keeps its co-rated items and its chance
  agreement becomes ``(n_c A_e - P(k|partner)) / (n_c - 1)``; a pair with both loses one
  co-rated item (and one agreement if they agreed). The first kind, summed over a rater's
  partners, is a table over (rater, category), O(pairs x K) to build; the second is one
  term per pair of annotations of item ``i``, as the pairs' counts themselves are.
- :func:`bias_leave_one_out`: ``B = A_e(pi) - A_e(kappa)``. The pooled ``pi`` loses item
  ``i``'s shares ``n_ik / r_i``; Conger's ``A_e = (|s|^2 - q) / (c (c - 1))``, with ``s`` the
  sum and ``q`` the sum of squared norms of the raters' proportion vectors, changes through
  item ``i``'s raters only.

Memory is O(annotations + pairs x K + rater pairs of one chunk of items): items are taken in
chunks at item boundaries.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ._typing import FloatArray, IntArray, as_float
from .agreement import chance_corrected

__all__ = ["bias_leave_one_out", "jackknife_variance", "light_leave_one_out"]

#: Most annotation pairs (Light) or annotations x categories (bias) per chunk of items.
CHUNK = 1 << 17


def jackknife_variance(
    theta: FloatArray, group: IntArray, n_groups: int, weight: FloatArray | None = None
) -> tuple[FloatArray, FloatArray]:
    """Per group, Efron's jackknife variance ``(n - 1) / n sum_i w_i (theta_(i) - theta_(.))^2``
    of the leave-one-out values ``theta`` (one per unit, ``w_i`` units each, default one),
    ``theta_(.)`` their weighted mean and ``n = sum_i w_i``; and ``n``. nan where a group has
    fewer than two units or an undefined ``theta_(i)``."""
    w = np.ones(len(theta)) if weight is None else np.asarray(weight, dtype=np.float64)
    n = np.bincount(group, weights=w, minlength=n_groups)
    bad = np.bincount(group, weights=w * ~np.isfinite(theta), minlength=n_groups) > 0
    finite = np.where(np.isfinite(theta), theta, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.bincount(group, weights=w * finite, minlength=n_groups) / n
        spread = finite - mean[group]
        total = np.bincount(group, weights=w * spread * spread, minlength=n_groups)
        var = (n - 1.0) / n * total
    return as_float(np.where(bad | (n < 2), np.nan, var)), as_float(n)


def _chunks(cost: FloatArray, limit: int) -> Iterator[tuple[int, int]]:
    """Consecutive item ranges ``[lo, hi)`` whose ``cost`` sums to about ``limit`` (an item
    costlier than ``limit`` is a range of its own)."""
    total = np.cumsum(cost)
    lo, n = 0, len(cost)
    while lo < n:
        reached = total[lo - 1] if lo else 0.0
        hi = int(np.searchsorted(total, reached + limit, side="right"))
        hi = min(max(hi, lo + 1), n)
        yield lo, hi
        lo = hi


def _within_items(sizes: IntArray) -> tuple[IntArray, IntArray]:
    """Every pair ``(x, y)``, ``x < y``, of positions within consecutive segments of
    ``sizes``, segment by segment, ``x`` then ``y`` ascending."""
    if len(sizes) and sizes.min() == sizes.max():  # one size (a complete design): a template
        x, y = np.triu_indices(int(sizes[0]), 1)
        start = (np.arange(len(sizes), dtype=np.int64) * int(sizes[0]))[:, None]
        return (start + x).ravel(), (start + y).ravel()
    n = int(sizes.sum())
    segment = np.repeat(np.arange(len(sizes)), sizes)
    start = np.cumsum(sizes) - sizes
    later = sizes[segment] - (np.arange(n) - start[segment]) - 1
    first = np.repeat(np.arange(n, dtype=np.int64), later)
    offset = np.arange(len(first), dtype=np.int64) - np.repeat(np.cumsum(later) - later, later)
    return first, first + 1 + offset


def _in_item_order(values: IntArray, order: IntArray | None, span: slice) -> IntArray:
    """``values`` of the annotations ``span`` of the item order: ``values[order[span]]``, or
    ``values[span]`` when ``order`` is ``None`` (``values`` already in item order)."""
    return values[span] if order is None else values[order[span]]


def _segment_sums(values: FloatArray, sizes: IntArray) -> FloatArray:
    """Sums of ``values`` (rows along the first axis) over consecutive segments of
    ``sizes`` (0 for an empty segment)."""
    out = np.zeros((len(sizes), *values.shape[1:]))
    present = np.flatnonzero(sizes)
    if len(present):
        starts = (np.cumsum(sizes) - sizes)[present]
        out[present] = np.add.reduceat(values, starts, axis=0)
    return out


def _kappa(
    a_o: FloatArray, a_e: FloatArray, n_common: FloatArray, min_shared: int
) -> tuple[FloatArray, FloatArray]:
    """A pair's kappa where it counts towards Light's mean (0 elsewhere), and whether it does."""
    with np.errstate(invalid="ignore", divide="ignore"):
        kappa = chance_corrected(a_o, a_e)
    usable = (n_common >= min_shared) & ~np.isnan(kappa)
    return np.where(usable, kappa, 0.0), usable.astype(np.float64)


def _one_side(
    a_o: FloatArray,
    a_e: FloatArray,
    n_common: FloatArray,
    n_side: FloatArray,
    p_other: FloatArray,
    base: tuple[FloatArray, FloatArray],
    min_shared: int,
) -> tuple[FloatArray, FloatArray]:
    """The change of a pair's (kappa, usable) when one of its raters, with ``n_side``
    ratings, loses a rating in category ``k`` on an item the other did not rate
    (``p_other``: the other's proportion of ``k``); 0 where the rater had one rating."""
    with np.errstate(invalid="ignore", divide="ignore"):
        a_e1 = (n_side * a_e - p_other) / (n_side - 1.0)
    kappa, usable = _kappa(a_o, a_e1, n_common, min_shared)
    keep = n_side > 1
    return np.where(keep, kappa - base[0], 0.0), np.where(keep, usable - base[1], 0.0)


def _both_sides(
    j: IntArray,
    ka: IntArray,
    kb: IntArray,
    pair: tuple[IntArray, IntArray, IntArray, FloatArray, FloatArray],
    a_o: FloatArray,
    a_e: FloatArray,
    base: tuple[FloatArray, FloatArray],
    n_c: FloatArray,
    p: FloatArray,
    min_shared: int,
) -> tuple[FloatArray, FloatArray]:
    """For pair ``j`` whose raters ``a < b`` rated an item in categories ``ka`` and ``kb``:
    the change of its (kappa, usable) when the item goes, less the two one-sided changes
    that the (rater, category) tables count for it."""
    pg, pa, pb, n_common, agree = pair
    g, ra, rb = pg[j], pa[j], pb[j]
    b = (base[0][j], base[1][j])
    n_a, n_b = n_c[g, ra], n_c[g, rb]
    same = (ka == kb).astype(np.float64)
    n_j, o_j, e_j = n_common[j], a_o[j], a_e[j]
    with np.errstate(invalid="ignore", divide="ignore"):
        a_o2 = (agree[j] - same) / (n_j - 1.0)
        a_e2 = (n_a * n_b * e_j - n_a * p[g, ra, kb] - n_b * p[g, rb, ka] + same) / (
            (n_a - 1.0) * (n_b - 1.0)
        )
    k2, u2 = _kappa(a_o2, a_e2, n_j - 1.0, min_shared)
    both = (n_a > 1) & (n_b > 1)
    side_a = _one_side(o_j, e_j, n_j, n_a, p[g, rb, ka], b, min_shared)
    side_b = _one_side(o_j, e_j, n_j, n_b, p[g, ra, kb], b, min_shared)
    fix_k = np.where(both, k2, 0.0) - b[0] - side_a[0] - side_b[0]
    fix_u = np.where(both, u2, 0.0) - b[1] - side_a[1] - side_b[1]
    return fix_k, fix_u


#: Most (rater pair, category, category) corrections tabulated at once; beyond, only the
#: combinations that occur are computed, per chunk of items.
DENSE_KEYS = 1 << 20
#: Most (group, rater, category) x (rater, category) corrections tabulated by cells.
CELL_KEYS = 1 << 20


def light_leave_one_out(
    group_of_item: IntArray,
    sizes: IntArray,
    order: IntArray | None,
    rater: IntArray,
    code: IntArray,
    nck: FloatArray,
    pairs: tuple[IntArray, IntArray, IntArray, FloatArray, FloatArray],
    min_shared: int,
) -> FloatArray:
    """Light's kappa without each item, (n_items,) (only rated items' values are
    meaningful). ``order`` puts the annotations (``rater``, ``code``) in item order (``None``:
    they are), ``sizes`` of them per item; ``nck`` (G, R, K) are the raters' category
    counts, ``pairs`` the rater pairs sharing items ``(group, a, b, n_common, agree)``
    (``a < b``, sorted by group, a, b), ``min_shared`` the fewest co-rated items a pair's
    kappa needs."""
    n_groups, n_raters, k = nck.shape
    n_items = len(group_of_item)
    pg, pa, pb, n_common, agree = pairs
    n_pairs = len(pg)
    n_c = nck.sum(axis=-1)
    p = nck / np.where(n_c > 0, n_c, 1.0)[..., None]
    with np.errstate(invalid="ignore", divide="ignore"):
        a_o = agree / n_common
    a_e = np.einsum("pk,pk->p", p[pg, pa], p[pg, pb])
    base = _kappa(a_o, a_e, n_common, min_shared)
    total_k = np.bincount(pg, weights=base[0], minlength=n_groups)
    total_u = np.bincount(pg, weights=base[1], minlength=n_groups)
    # Pairs with one rater in the item: per (group, rater, category), summed over partners.
    table_k = np.zeros(n_groups * n_raters * k)
    table_u = np.zeros(n_groups * n_raters * k)
    step = max(1, CHUNK // max(k, 1))
    for lo in range(0, n_pairs, step):
        s = slice(lo, lo + step)
        g = pg[s]
        for side, other in ((pa[s], pb[s]), (pb[s], pa[s])):
            d_k, d_u = _one_side(
                a_o[s, None],
                a_e[s, None],
                n_common[s, None],
                n_c[g, side][:, None],
                p[g, other],
                (base[0][s, None], base[1][s, None]),
                min_shared,
            )
            key = ((g * n_raters + side) * k)[:, None] + np.arange(k)
            table_k += np.bincount(key.ravel(), weights=d_k.ravel(), minlength=len(table_k))
            table_u += np.bincount(key.ravel(), weights=d_u.ravel(), minlength=len(table_u))
    # Pairs with both raters in the item: a correction per rater pair, its orientation in the
    # item (``2 j`` for ``a`` first, ``2 j + 1`` for ``b`` first) and the two categories.
    args = (pairs, a_o, a_e, base, n_c, p, min_shared)

    def oriented(key: IntArray) -> FloatArray:
        j, rest = np.divmod(key, 2 * k * k)
        flip, rest = np.divmod(rest, k * k)
        first, second = np.divmod(rest, k)
        ka, kb = np.where(flip == 1, second, first), np.where(flip == 1, first, second)
        return np.column_stack(_both_sides(j, ka, kb, *args))

    dense = 2 * n_pairs * k * k <= DENSE_KEYS
    fixes = oriented(np.arange(2 * n_pairs * k * k, dtype=np.int64)) if dense else None
    cells = n_groups * n_raters * n_raters
    pair_key = (pg * n_raters + pa) * n_raters + pb
    pair_of = None
    if cells <= DENSE_KEYS:
        pair_of = np.full(cells, -1, dtype=np.int64)
        pair_of[pair_key] = 2 * np.arange(n_pairs)
        pair_of[(pg * n_raters + pb) * n_raters + pa] = 2 * np.arange(n_pairs) + 1
    # Few (rater, category) cells: the corrections by the two annotations' cells directly,
    # so that an annotation pair costs two gathers and an addition.
    width = n_raters * k
    by_cells = None
    small = n_pairs > 0 and n_groups * width * width <= CELL_KEYS
    if fixes is not None and pair_of is not None and small:
        every = np.arange(n_groups * width * width, dtype=np.int64)
        g_of, rest = np.divmod(every, width * width)
        first, second = np.divmod(rest, width)
        (r1, k1), (r2, k2) = np.divmod(first, k), np.divmod(second, k)
        j = pair_of[(g_of * n_raters + r1) * n_raters + r2]
        by_cells = np.where((j >= 0)[:, None], fixes[(np.maximum(j, 0) * k + k1) * k + k2], 0.0)
        del every, g_of, rest, first, second, r1, k1, r2, k2, j
    num = np.zeros((n_items, 2))
    starts = np.r_[0, np.cumsum(sizes)].astype(np.int64)
    table = np.column_stack([table_k, table_u])
    last: tuple[IntArray, IntArray, IntArray] | None = None  # a chunk's sizes and pairs
    for lo, hi in _chunks(sizes * (sizes + 1) / 2.0, CHUNK >> 2):
        span = slice(starts[lo], starts[hi])
        size = sizes[lo:hi]
        rr, kk = _in_item_order(rater, order, span), _in_item_order(code, order, span)
        gg = np.repeat(group_of_item[lo:hi], size)
        # `take` along the first axis: several times faster than fancy indexing of rows
        num[lo:hi] = _segment_sums(table.take((gg * n_raters + rr) * k + kk, axis=0), size)
        if last is None or not np.array_equal(size, last[0]):  # else the last chunk's pairs
            last = (size, *_within_items(size))
        x, y = last[1], last[2]
        if not len(x):
            continue
        if by_cells is not None:
            cell = rr * k + kk
            key = ((gg * width + cell) * width).take(x)
            key += cell.take(y)
            num[lo:hi] += _segment_sums(by_cells.take(key, axis=0), size * (size - 1) // 2)
            continue
        rx, ry = rr[x], rr[y]
        if pair_of is not None:
            j = pair_of[(gg[x] * n_raters + rx) * n_raters + ry]
        else:
            low, high = np.minimum(rx, ry), np.maximum(rx, ry)
            j = 2 * np.searchsorted(pair_key, (gg[x] * n_raters + low) * n_raters + high)
            j += rx > ry
        del rx, ry
        key = (j * k + kk[x]) * k + kk[y]
        del x, y, j
        if fixes is not None:
            fix = fixes.take(key, axis=0)
        else:
            uniq, inverse = np.unique(key, return_inverse=True)
            fix = oriented(uniq)[inverse]
        num[lo:hi] += _segment_sums(fix, size * (size - 1) // 2)
    num_k, num_u = num[:, 0], num[:, 1]
    used = np.rint(total_u[group_of_item] + num_u)  # pairs averaged: a whole number
    with np.errstate(invalid="ignore", divide="ignore"):
        theta = (total_k[group_of_item] + num_k) / np.where(used > 0, used, 1.0)
    return as_float(np.where(used > 0, theta, np.nan))


def bias_leave_one_out(
    group_of_item: IntArray,
    sizes: IntArray,
    order: IntArray | None,
    rater: IntArray,
    code: IntArray,
    nck: FloatArray,
) -> FloatArray:
    """Artstein & Poesio's bias ``A_e(pi) - A_e(kappa)`` without each item, (n_items,)
    (only rated items' values are meaningful). ``order`` puts the annotations (``rater``,
    ``code``, one per (item, rater)) in item order (``None``: they are), ``sizes`` of them per
    item; ``nck``
    (G, R, K) are the raters' category counts."""
    n_groups, n_raters, k = nck.shape
    n_items = len(group_of_item)
    starts = np.r_[0, np.cumsum(sizes)].astype(np.int64)
    r = sizes.astype(np.float64)
    rated = r >= 1
    inv_r = np.where(rated, 1.0 / np.where(rated, r, 1.0), 0.0)
    cost = sizes * (k + 8.0)  # floats per annotation of a chunk
    spans = list(_chunks(as_float(cost), CHUNK >> 1))

    def chunk(lo: int, hi: int) -> tuple[IntArray, IntArray, IntArray, FloatArray]:
        """The annotations of items ``lo:hi``: their item (from ``lo``), (group, rater,
        category) cell, category and ``1 / r_i``."""
        span = slice(starts[lo], starts[hi])
        local = np.repeat(np.arange(hi - lo), sizes[lo:hi])
        kk = _in_item_order(code, order, span)
        at = (group_of_item[lo:hi][local] * n_raters + _in_item_order(rater, order, span)) * k + kk
        return local, at, kk, inv_r[lo:hi][local]

    # A_e(pi) = sum_k pi_k^2, pi_k the mean over rated items of n_ik / r_i.
    n_rated = np.bincount(group_of_item, weights=rated, minlength=n_groups)
    cell = np.zeros(n_groups * k)
    for lo, hi in spans:
        local = np.repeat(np.arange(hi - lo), sizes[lo:hi])
        kk = _in_item_order(code, order, slice(starts[lo], starts[hi]))
        at = group_of_item[lo:hi][local] * k + kk
        cell += np.bincount(at, weights=inv_r[lo:hi][local], minlength=len(cell))
    with np.errstate(invalid="ignore", divide="ignore"):
        pi = cell.reshape(n_groups, k) / n_rated[:, None]
    # A_e(kappa) = (|s|^2 - q) / (c (c - 1)) over the c raters with ratings.
    n_c = nck.sum(axis=-1)
    active = n_c > 0
    p = nck / np.where(active, n_c, 1.0)[..., None]
    c = active.sum(axis=-1).astype(np.float64)
    s = p.sum(axis=1)
    norm = (p * p).sum(axis=-1)  # (G, R)
    s_dot = np.einsum("grk,gk->gr", p, s)
    # What removing one rating of (group, rater, category) changes: rater c's proportions
    # become alpha P(.|c) - beta e_k, which changes q, s . d (d: the sum of an item's
    # raters' changes) and, where c rated one item only, the raters counted.
    one = n_c == 1
    with np.errstate(invalid="ignore", divide="ignore"):
        beta = np.where(one | ~active, 0.0, 1.0 / (n_c - 1.0))
    alpha = np.where(one, -1.0, beta)
    nn = n_c[..., None]
    new_norm = (nn * nn * norm[..., None] - 2.0 * nn * p + 1.0) * (beta * beta)[..., None]
    moved = (s_dot[..., None] - s[:, None, :]) * beta[..., None]
    tables = np.stack(
        [
            np.broadcast_to(pi[:, None, :], p.shape),
            np.where(one[..., None], -1.0, new_norm - norm[..., None]),
            np.where(one[..., None], -s[:, None, :], moved),
            np.broadcast_to(one[..., None], p.shape),
        ],
        axis=-1,
    ).reshape(-1, 4)
    moving, flat_beta = p.reshape(-1, k) * alpha.reshape(-1, 1), beta.ravel()
    # Per item: pi . (n_i. / r_i), the changes of q, of s . d and of c, |n_i. / r_i|^2, and
    # |d|^2 with d the sum of the item's raters' changes of P(.|c) (a K-vector).
    per_item = np.zeros((n_items, 6))
    for lo, hi in spans:
        if starts[lo] == starts[hi]:
            continue
        size = sizes[lo:hi]
        local, at, kk, share = chunk(lo, hi)
        terms = tables.take(at, axis=0)
        terms[:, 0] *= share
        per_item[lo:hi, :4] = _segment_sums(terms, size)
        del terms
        n_ik = np.bincount(local * k + kk, minlength=(hi - lo) * k).astype(np.float64)
        per_item[lo:hi, 4] = (n_ik * n_ik).reshape(-1, k).sum(axis=-1)
        who = at // k
        # d: the item's sum of alpha P(.|c) (rows of one table) less beta at each category
        d = _segment_sums(moving.take(who, axis=0), size)
        d.ravel()[:] -= np.bincount(local * k + kk, weights=flat_beta[who], minlength=d.size)
        per_item[lo:hi, 5] = np.einsum("ik,ik->i", d, d)
    pi_dot, delta_q, delta_s, dropped, own, square = per_item.T
    own = own * inv_r * inv_r
    g = group_of_item
    m = n_rated[g]
    with np.errstate(invalid="ignore", divide="ignore"):
        sum_pi2 = (pi * pi).sum(axis=-1)[g]
        e_pi = (m * m * sum_pi2 - 2.0 * m * pi_dot + own) / ((m - 1.0) ** 2)
        size2 = (s * s).sum(axis=-1)[g] + 2.0 * delta_s + square
        q = norm.sum(axis=-1)[g] + delta_q
        c1 = c[g] - dropped
        e_kappa = np.where(c1 >= 2, (size2 - q) / (c1 * (c1 - 1.0)), np.nan)
    return as_float(np.where(m >= 2, e_pi, np.nan) - e_kappa)
