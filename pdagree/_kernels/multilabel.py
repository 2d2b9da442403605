"""Kernels of Rosenberg & Binkowski's (2004) kappa for primary and secondary labels.

Symbols (the paper's, as the issue reconstructs them): annotator ``a``'s annotation matrix
``M_a`` (items x labels) holds 1 where ``a`` gave a single label, ``p`` for ``a``'s primary and
``1 - p`` for ``a``'s secondary label, 0 elsewhere. For a pair ``(a, b)`` and the ``N`` items
both annotated: ``Ag = M_a ∘ M_b``; ``p(A) = sum(Ag) / N``; ``Freq_a = colsum(M_a) / N`` over
the same items; ``p(E) = sum_y Freq_a[y] Freq_b[y]``.

The kernels never build ``M_a``. Each annotation (one per item and annotator) has a primary
label ``code`` and a secondary label ``secondary`` (-1 for none), so its row of ``M_a`` has at
most two non-zero cells, whose weights are polynomials in ``p``: 1, ``p`` and ``1 - p``. The
annotations are paired once, on the item (:func:`annotation_pairs`), and every sum the
coefficient needs is a sum over those pairs of products of at most two such weights: a
polynomial in ``p`` of degree two, stored as its coefficients ``(c_0, c_1, c_2)`` on a leading
axis. A sweep over ``p`` evaluates the same sums (:func:`evaluate`); the pairs are never
recounted. Every rater pair of every group is computed in one pass: no loop over pairs,
items or labels. A rater pair ``(a, b)``, ``a < b``, has the key ``(g * R + a) * R + b``; sums
per pair and label have the key ``pair * K + y``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._typing import FloatArray, IntArray, as_float
from .agreement import chance_corrected

__all__ = [
    "PairSums",
    "annotation_pairs",
    "evaluate",
    "item_kappa",
    "one_vs_rest",
    "pair_agreement",
    "pair_components",
    "pair_mean",
    "pair_sums",
]

#: Above this many (pair, label) keys the sums are keyed sparsely (``np.unique``), not densely.
DENSE_KEYS = 1 << 22


def evaluate(coefficients: FloatArray, p: FloatArray) -> FloatArray:
    """The polynomials ``sum_d c_d p^d`` (coefficients on the leading axis) at every ``p``:
    shape (P, ...).

    >>> import numpy as np
    >>> evaluate(np.array([[1.0, 0.0], [0.0, 2.0], [0.0, 1.0]]), np.array([0.5, 1.0]))
    array([[1.  , 1.25],
           [1.  , 3.  ]])
    """
    p = np.asarray(p, dtype=np.float64)
    powers = p[:, None] ** np.arange(len(coefficients))[None, :]
    flat = coefficients.reshape(len(coefficients), -1)
    return as_float((powers @ flat).reshape(len(p), *coefficients.shape[1:]))


# Weights as polynomials in p, coefficients of (1, p, p²). A primary label weighs 1 (single)
# or p (with a secondary), a secondary 1 - p.
#: Primaries, and products of two primaries, by how many of them have a secondary (0, 1, 2):
#: 1, p, p².
_PRIMARY = np.eye(3)
#: A secondary: 1 - p.
_SECONDARY = np.array([1.0, -1.0, 0.0])
#: A primary times a secondary, by whether the primary has a secondary (0, 1): 1 - p, p(1 - p).
_PRIMARY_TIMES_SECONDARY = np.array([[1.0, -1.0, 0.0], [0.0, 1.0, -1.0]])
#: A secondary times a secondary: (1 - p)².
_SECONDARY_SQUARED = np.array([1.0, -2.0, 1.0])


def annotation_pairs(item: IntArray, rater: IntArray) -> tuple[IntArray, IntArray]:
    """Every pair of annotations ``(u, v)`` of one item by two annotators, ``rater[u] <
    rater[v]`` (one annotation per item and annotator), ordered by item, then by ``u``'s and
    ``v``'s raters.

    >>> import numpy as np
    >>> u, v = annotation_pairs(np.array([0, 1, 0, 0, 1]), np.array([2, 0, 0, 1, 1]))
    >>> u.tolist(), v.tolist()
    ([2, 2, 3, 1], [3, 0, 0, 4])
    """
    order = np.lexsort((rater, item))
    sorted_item = item[order]
    n = len(order)
    start = np.flatnonzero(np.r_[True, sorted_item[1:] != sorted_item[:-1]])
    size = np.diff(np.r_[start, n])
    segment = np.repeat(np.arange(len(start)), size)
    later = size[segment] - (np.arange(n) - start[segment]) - 1  # annotations after this one
    first = np.repeat(np.arange(n, dtype=np.int64), later)
    offset = np.arange(len(first), dtype=np.int64) - np.repeat(np.cumsum(later) - later, later)
    return order[first], order[first + 1 + offset]


def _agreement_terms(
    u: IntArray, v: IntArray, code: IntArray, secondary: IntArray
) -> list[tuple[IntArray, IntArray, FloatArray]]:
    """The four ways two annotations' labels can meet: primary of ``u`` with primary of ``v``,
    primary with secondary, secondary with primary, secondary with secondary. For each: the
    pairs where they meet, the label they meet on, and the product of the two weights as
    polynomial coefficients (3, n)."""
    has = secondary >= 0
    hu, hv = has[u], has[v]
    cu, cv, su, sv = code[u], code[v], secondary[u], secondary[v]
    both = np.flatnonzero(cu == cv)
    first_second = np.flatnonzero((cu == sv) & hv)
    second_first = np.flatnonzero((su == cv) & hu)
    seconds = np.flatnonzero((su == sv) & hu)
    return [
        (both, cu[both], _PRIMARY[hu[both].astype(np.int64) + hv[both]].T),
        (first_second, cu[first_second], _PRIMARY_TIMES_SECONDARY[hu[first_second].astype(int)].T),
        (second_first, su[second_first], _PRIMARY_TIMES_SECONDARY[hv[second_first].astype(int)].T),
        (seconds, su[seconds], np.repeat(_SECONDARY_SQUARED[:, None], len(seconds), axis=1)),
    ]


def pair_agreement(u: IntArray, v: IntArray, code: IntArray, secondary: IntArray) -> FloatArray:
    """``sum_y M_a[x, y] M_b[x, y]`` for every pair of annotations ``(u, v)`` of one item, as
    polynomial coefficients (3, n_pairs): the item's own agreement for that rater pair (1 for
    ``{a,a}``, ``p`` for ``{ab,a}``, ``2p(1 - p)`` for ``{ab,ba}``, ...)."""
    total = np.zeros((3, len(u)))
    for at, _, c in _agreement_terms(u, v, code, secondary):  # four terms, not items
        total[:, at] += c  # each pair at most once per term
    return total


class PairSums(NamedTuple):
    """What every rater pair's kappa needs, per (pair, label) key, as polynomials in ``p``.

    Attributes
    ----------
    n_common
        Items both annotators of the pair annotated, shape (G * R * R,).
    key
        ``pair * n_codes + y``, ascending and unique.
    agree
        (3, n_keys): ``sum_x M_a[x, y] M_b[x, y]`` over the pair's common items.
    first, second
        (3, n_keys): ``sum_x M_a[x, y]`` and ``sum_x M_b[x, y]`` over them (``a < b``).
    """

    n_common: FloatArray
    key: IntArray
    agree: FloatArray
    first: FloatArray
    second: FloatArray


def _keyed(
    keys: list[IntArray], weights: list[FloatArray], size: int
) -> tuple[IntArray, list[FloatArray]]:
    """Sum the weights (coefficients (3, n) each) of each list entry by key: densely over
    ``range(size)`` when it is small, else over the keys present. Returns the keys and one
    (3, n_keys) array per list entry."""
    if size <= DENSE_KEYS:
        key = np.arange(size, dtype=np.int64)
        at = keys
    else:
        key, inverse = np.unique(np.concatenate(keys), return_inverse=True)
        at = np.split(inverse.ravel(), np.cumsum([len(k) for k in keys])[:-1])
    sums = [
        as_float(
            np.stack(
                [
                    np.bincount(i, weights=w[d], minlength=len(key))
                    if w[d].any()
                    else np.zeros(len(key))
                    for d in range(3)
                ]
            )
        )
        for i, w in zip(at, weights, strict=True)
    ]
    return key, sums


def pair_sums(
    group_of_item: IntArray,
    item: IntArray,
    rater: IntArray,
    code: IntArray,
    secondary: IntArray,
    n_groups: int,
    n_raters: int,
    n_codes: int,
    pairs: tuple[IntArray, IntArray] | None = None,
) -> PairSums:
    """Sums of the annotation matrices over every rater pair's common items, by label.

    ``item``, ``rater``, ``code``, ``secondary``: per annotation (one per item and annotator);
    ``pairs``: their :func:`annotation_pairs`, if already at hand.
    """
    r = n_raters
    u, v = annotation_pairs(item, rater) if pairs is None else pairs
    pair = (group_of_item[item[u]] * r + rater[u]) * r + rater[v]
    n_common = np.bincount(pair, minlength=n_groups * r * r).astype(np.float64)
    has = secondary >= 0

    def margin(ann: IntArray) -> tuple[IntArray, FloatArray]:
        """Keys and weights of the labels of annotations ``ann`` in their pairs: the primary
        weighs 1 or p, the secondary 1 - p."""
        with_second = has[ann].astype(np.float64)
        at = np.flatnonzero(with_second)
        keys = np.concatenate(
            [pair * n_codes + code[ann], pair[at] * n_codes + secondary[ann[at]]]
        )
        ones, zeros = np.ones(len(at)), np.zeros(len(ann) + len(at))
        weights = np.stack(
            [
                np.concatenate([1.0 - with_second, ones]),
                np.concatenate([with_second, -ones]),
                zeros,
            ]
        )
        return keys, weights

    terms = _agreement_terms(u, v, code, secondary)
    agree_key = np.concatenate([pair[at] * n_codes + label for at, label, _ in terms])
    agree_weight = np.concatenate([c for _, _, c in terms], axis=1)
    (first_key, first_weight), (second_key, second_weight) = margin(u), margin(v)
    key, (agree, first, second) = _keyed(
        [agree_key, first_key, second_key],
        [agree_weight, first_weight, second_weight],
        n_groups * r * r * n_codes,
    )
    return PairSums(n_common, key, agree, first, second)


def pair_components(sums: PairSums, p: FloatArray, n_codes: int) -> tuple[FloatArray, FloatArray]:
    """Every pair's ``p(A)`` and ``p(E)`` at every ``p``, shape (P, G * R * R); nan where the
    pair shares no item."""
    n_pairs = len(sums.n_common)
    pair = sums.key // n_codes
    agree = evaluate(sums.agree, p)
    chance = evaluate(sums.first, p) * evaluate(sums.second, p)
    n = sums.n_common
    with np.errstate(invalid="ignore", divide="ignore"):
        observed = _batched_bincount(pair, agree, n_pairs) / n
        expected = _batched_bincount(pair, chance, n_pairs) / (n * n)
    return as_float(observed), as_float(expected)


def one_vs_rest(
    sums: PairSums, p: FloatArray, n_codes: int
) -> tuple[IntArray, IntArray, FloatArray, FloatArray]:
    """Per (pair, label) key: the label ``y`` against all others, as two labels.

    With ``m_a = M_a[x, y]``: ``p(A) = (1 / N) sum_x [m_a m_b + (1 - m_a)(1 - m_b)]`` and
    ``p(E) = f_a f_b + (1 - f_a)(1 - f_b)``, ``f_a = (1 / N) sum_x m_a``, over the pair's
    ``N`` common items. Returns ``(pair, label, p(A), p(E))``, the last two shape
    (P, n_keys).
    """
    pair = sums.key // n_codes
    n = sums.n_common[pair]
    agree, first, second = (evaluate(x, p) for x in (sums.agree, sums.first, sums.second))
    with np.errstate(invalid="ignore", divide="ignore"):
        observed = (n - first - second + 2.0 * agree) / n
        f_a, f_b = first / n, second / n
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


def _batched_bincount(index: IntArray, weight: FloatArray, size: int) -> FloatArray:
    """``np.bincount(index, weight[b], size)`` for every row ``b`` of ``weight``, at once."""
    n_batch = weight.shape[0]
    key = (index[None, :] + size * np.arange(n_batch, dtype=np.int64)[:, None]).ravel()
    out = np.bincount(key, weights=weight.ravel(), minlength=n_batch * size)
    return as_float(out.reshape(n_batch, size))


def item_kappa(
    agree: FloatArray,
    p: FloatArray,
    expected: FloatArray,
    pair: IntArray,
    item: IntArray,
    n_items: int,
) -> FloatArray:
    """Each item's kappa at every ``p``: the mean over its pairs of annotations of
    ``(sum_y Ag[x, y] - p(E)) / (1 - p(E))``, ``p(E)`` being the rater pair's.

    ``agree`` (3, n) holds each pair of annotations' own agreement (:func:`pair_agreement`),
    ``pair`` its rater pair and ``item`` its item; ``expected`` (P, G * R * R) the rater
    pairs' ``p(E)`` at each ``p``. Pairs whose ``p(E)`` is 1 have no kappa and are left out,
    as are items without a pair (nan). Shape (P, n_items); memory O(n) whatever P.
    """
    p = np.asarray(p, dtype=np.float64)
    defined = ~np.isnan(chance_corrected(np.zeros_like(expected), expected))
    denominator = np.where(defined, 1.0 - expected, np.nan)
    out = np.empty((len(p), n_items))
    for row in range(len(p)):  # over the values of p, not over items or pairs
        own = evaluate(agree, p[row : row + 1])[0]
        kappa = (own - expected[row, pair]) / denominator[row, pair]
        usable = ~np.isnan(kappa)
        total = np.bincount(item, weights=np.where(usable, kappa, 0.0), minlength=n_items)
        count = np.bincount(item, weights=usable, minlength=n_items)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[row] = total / count
    return out
