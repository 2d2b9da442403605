"""Coefficients as functions of sums of per-item rows, for the item bootstrap.

A bootstrap replicate draws items with replacement; item ``i`` drawn ``c_i`` times. Every
coefficient here is a smooth function of column sums ``T = sum_i c_i S_i`` of a per-item
matrix ``S`` (n_items, m) computed once, so a replicate costs O(items x m) through one
matrix product instead of re-encoding its annotations (:mod:`pdagree.resampling` draws the
counts and multiplies). Each builder returns an :class:`~.base.ItemSums`, ``S`` and
``finish(T)``; with every ``c_i = 1`` (the rows of a ``by=`` group summed), ``finish`` gives
what the definition computes, up to rounding (``tests/test_item_sums.py`` checks every
registered coefficient).

The columns, in the symbols of the definitions (``n_ik`` ratings of item ``i`` in
category ``k``, ``r_i = sum_k n_ik``, ``a_i`` its weighted pairwise agreement):

- ``A_o`` (observed, Bennett, Fleiss, Scott, Gwet, Cohen, Conger): ``[r_i >= 2]`` and
  ``[r_i >= 2] a_i``; ``A_o`` is their ratio.
- the pooled ``pi`` (Fleiss, Scott, Gwet, bias): ``[r_i >= 1]`` and ``n_ik / r_i``.
- rater proportions (Cohen, Conger, bias, Light): each rating as a one-hot (rater, category)
  row, whose sums are ``n_ck`` (sparse when raters x categories is large).
- Light's pairs: per rater pair, whether both rated the item and whether they agree.
- Krippendorff's alpha: the pairable values ``[m_i >= 2] n_ik`` (their sums are the margins
  ``n_c``) and the item's term of ``sum_ck o_ck delta2_ck``; for ordinal alpha, whose
  distances depend on the margins, the coincidences ``n_ic n_ik / (m_i - 1)`` (c < k).
- Gwet's weighted alpha: ``[r_i >= 2]``, ``[r_i >= 2] r_i``, ``n_i (n_i W' - 1) / (r_i - 1)``
  and ``[r_i >= 2] n_ik``.
- Rosenberg & Binkowski's multi-label kappa: per rater pair, whether both annotated the
  item, its own agreement ``sum_y M_a[i, y] M_b[i, y]`` at ``p``, and both annotators'
  rows ``M_a[i, :]``, ``M_b[i, :]`` where both annotated it.
- SPA: ``k_i`` and ``k_i P_i``; for ``inv_var_class`` with the pooled ``p`` (the weights
  depend on the replicate's ``p``), ``n_ik`` and, per distinct label count ``v``, how many
  items have ``n_i = v`` and the sum of their ``P_i``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._errors import RatersNeeded
from .._kernels import agreement as K
from .._kernels import alpha as KA
from .._kernels import multilabel as KM
from .._kernels import spa as KS
from .._lazy import scipy_sparse as sp
from .._typing import FloatArray
from ..encoding.levels import metric_for
from ..tensors.data import RatingData
from .base import MIN_SHARED_ITEMS, ItemSums
from .multilabel import DEFAULT_P, check_p
from .spa import item_weights

__all__ = [
    "alpha_sums",
    "bennett_sums",
    "bias_sums",
    "conger_sums",
    "fleiss_sums",
    "gwet_sums",
    "light_sums",
    "multilabel_sums",
    "observed_sums",
    "spa_sums",
]

#: Most columns of a per-item matrix; above it the bootstrap recomputes the definition.
MAX_COLUMNS = 4096
#: Most columns of a dense per-item matrix; wider ones are sparse (scipy.sparse CSR).
DENSE_COLUMNS = 256
#: Most categories for a custom or ratio metric, whose ``finish`` is a (K, K) form per row.
MAX_SQUARE_CATEGORIES = 512

# --------------------------------------------------------------------------- shared columns


def _agreement(data: RatingData, w: FloatArray) -> FloatArray:
    """``[r_i >= 2]`` and ``[r_i >= 2] a_i``: the columns of ``A_o``."""
    r, a = K.item_agreement(data.nik, w)
    pairable = r >= 2
    return np.column_stack([pairable.astype(np.float64), np.where(pairable, a, 0.0)])


def _observed(t: FloatArray) -> FloatArray:
    """``A_o`` from the sums of :func:`_agreement`'s columns."""
    with np.errstate(invalid="ignore", divide="ignore"):
        out: FloatArray = t[:, 1] / t[:, 0]
    return out


def _shares(data: RatingData) -> FloatArray:
    """``[r_i >= 1]`` and ``n_ik / r_i``: the columns of the pooled ``pi``."""
    nik = data.nik
    r = nik.sum(axis=-1)
    rated = r >= 1
    share = np.where(rated[:, None], nik / np.where(rated, r, 1.0)[:, None], 0.0)
    return np.column_stack([rated.astype(np.float64), share])


def _pi(t: FloatArray) -> FloatArray:
    """The pooled ``pi`` (n, K) from the sums of :func:`_shares`' columns."""
    with np.errstate(invalid="ignore", divide="ignore"):
        out: FloatArray = t[:, 1:] / t[:, :1]
    return out


def _too_wide(*widths: int) -> bool:
    return sum(widths) > MAX_COLUMNS


def _onehot(data: RatingData) -> Any:
    """Each rating as a one-hot row over (rater, category), (n_items, R K) sparse: its sums
    are the raters' category counts ``n_ck``."""
    enc = data.enc
    if enc.rater is None:  # pragma: no cover - the coefficients refuse counts tables first
        raise RatersNeeded("needs raters")
    width = enc.n_raters * enc.n_categories
    column = enc.rater * enc.n_categories + enc.code
    return sp.csr_matrix((np.ones(len(enc.item)), (enc.item, column)), shape=(enc.n_items, width))


def _assemble(*blocks: Any) -> Any:
    """The blocks of columns side by side: dense up to :data:`DENSE_COLUMNS` columns, a
    sparse CSR matrix beyond."""
    if sum(block.shape[1] for block in blocks) <= DENSE_COLUMNS:
        dense = [block.toarray() if sp.issparse(block) else block for block in blocks]
        return np.column_stack(dense).astype(np.float64)
    return sp.hstack([sp.csr_matrix(block, dtype=np.float64) for block in blocks], format="csr")


def _conger_expected(t: FloatArray, w: FloatArray, r: int) -> FloatArray:
    """Conger's ``A_e`` from the sums of :func:`_onehot`'s columns, (n, R K)."""
    nck = t.reshape(len(t), r, -1)
    with np.errstate(invalid="ignore", divide="ignore"):
        expected, _, _ = K.conger_expected(nck, w)
    return expected


# --------------------------------------------------------------------------- the kappa family


def observed_sums(data: RatingData, options: dict[str, Any]) -> ItemSums:
    """Observed agreement ``A_o``."""
    w, _ = data.weights(options.get("weights"))
    return ItemSums(_assemble(_agreement(data, w)), _observed)


def bennett_sums(data: RatingData, options: dict[str, Any]) -> ItemSums:
    """Bennett's S: ``A_o`` against the fixed ``A_e = sum_kl w_kl / K^2``."""
    w, _ = data.weights(options.get("weights"))
    expected = K.bennett_expected(w)

    def finish(t: FloatArray) -> FloatArray:
        return K.chance_corrected(_observed(t), np.full(len(t), expected))

    return ItemSums(_assemble(_agreement(data, w)), finish)


def fleiss_sums(data: RatingData, options: dict[str, Any]) -> ItemSums | None:
    """Fleiss' kappa and Scott's pi: ``A_o`` and the pooled ``pi``."""
    w, _ = data.weights(options.get("weights"))
    if _too_wide(3, data.enc.n_categories):
        return None

    def finish(t: FloatArray) -> FloatArray:
        pi = _pi(t[:, 2:])
        return K.chance_corrected(_observed(t[:, :2]), np.einsum("gk,kl,gl->g", pi, w, pi))

    return ItemSums(_assemble(_agreement(data, w), _shares(data)), finish)


def gwet_sums(data: RatingData, options: dict[str, Any]) -> ItemSums | None:
    """Gwet's AC1/AC2: ``A_o`` and the pooled ``pi``."""
    w, _ = data.weights(options.get("weights"))
    k = data.enc.n_categories
    if _too_wide(3, k):
        return None
    scale = w.sum() / (k * (k - 1.0)) if k > 1 else np.nan

    def finish(t: FloatArray) -> FloatArray:
        pi = _pi(t[:, 2:])
        return K.chance_corrected(_observed(t[:, :2]), scale * (pi * (1.0 - pi)).sum(axis=-1))

    return ItemSums(_assemble(_agreement(data, w), _shares(data)), finish)


def conger_sums(data: RatingData, options: dict[str, Any]) -> ItemSums | None:
    """Conger's and Cohen's kappa: ``A_o`` and the raters' category counts ``n_ck``."""
    enc = data.enc
    if _too_wide(2, enc.n_raters * enc.n_categories):
        return None
    w, _ = data.weights(options.get("weights"))
    r, k = enc.n_raters, enc.n_categories

    def finish(t: FloatArray) -> FloatArray:
        return K.chance_corrected(_observed(t[:, :2]), _conger_expected(t[:, 2:], w, r))

    matrix = _assemble(_agreement(data, w), _onehot(data))
    return ItemSums(matrix, finish, row_floats=2 * r * k + 3 * k * k)


def bias_sums(data: RatingData, options: dict[str, Any]) -> ItemSums | None:
    """Annotator bias ``A_e(pi) - A_e(kappa)``: the pooled ``pi`` and ``n_ck``."""
    enc = data.enc
    k, r = enc.n_categories, enc.n_raters
    if _too_wide(1, k, r * k):
        return None
    w = np.eye(k)  # item sums run on dense data only (see pdagree.resampling)

    def finish(t: FloatArray) -> FloatArray:
        pi = _pi(t[:, : k + 1])
        e_pi = np.einsum("gk,kl,gl->g", pi, w, pi)
        e_kappa = _conger_expected(t[:, k + 1 :], w, r)
        undefined = np.isnan(e_kappa) | np.isnan(e_pi)
        return np.where(undefined, np.nan, e_pi - e_kappa)

    matrix = _assemble(_shares(data), _onehot(data))
    return ItemSums(matrix, finish, row_floats=2 * r * k + 3 * k * k)


def light_sums(data: RatingData, options: dict[str, Any]) -> ItemSums | None:
    """Light's kappa: ``n_ck`` and, per rater pair, whether both rated the item and
    whether they agree."""
    enc = data.enc
    if enc.rater is None:  # pragma: no cover - light() refuses counts tables first
        raise RatersNeeded("needs raters")
    k, r = enc.n_categories, enc.n_raters
    n_pairs = r * (r - 1) // 2
    if _too_wide(r * k, 2 * n_pairs):  # checked before the pairs are listed
        return None
    first, second = np.triu_indices(r, k=1)
    codes = np.full((enc.n_items, r), -1, dtype=np.int64)
    codes[enc.item, enc.rater] = enc.code
    a, b = codes[:, first], codes[:, second]
    both = (a >= 0) & (b >= 0)
    agree = both & (a == b)
    del codes, a, b
    if 2 * n_pairs + r * k > DENSE_COLUMNS:
        both, agree = sp.csr_matrix(both), sp.csr_matrix(agree)

    def finish(t: FloatArray) -> FloatArray:
        n_common, agreeing = t[:, :n_pairs], t[:, n_pairs : 2 * n_pairs]
        nck = t[:, 2 * n_pairs :].reshape(len(t), r, k)
        p, _ = K.rater_proportions(nck)
        expected = (p[:, first, :] * p[:, second, :]).sum(axis=-1)
        with np.errstate(invalid="ignore", divide="ignore"):
            kappa = K.chance_corrected(agreeing / n_common, expected)
            usable = (n_common >= MIN_SHARED_ITEMS) & ~np.isnan(kappa)
            value: FloatArray = np.where(usable, kappa, 0.0).sum(axis=1) / usable.sum(axis=1)
        return value

    matrix = _assemble(both, agree, _onehot(data))
    return ItemSums(matrix, finish, row_floats=3 * n_pairs * k + 2 * r * k)


# --------------------------------------------------------------------------- alpha


def alpha_sums(data: RatingData, options: dict[str, Any]) -> ItemSums | None:
    """Krippendorff's alpha at every level (Gwet's weighted alpha with ``weights=``)."""
    if options.get("weights") is not None:
        return _weighted_alpha_sums(data, options)
    enc = data.enc
    k = enc.n_categories
    metric, _ = metric_for(options.get("level", "nominal"), enc.categories, enc.values)
    pv = KA.pairable_values(enc.item, enc.code, enc.weight, enc.group, enc.n_groups, k)
    if isinstance(metric, KA.Ordinal):
        return _ordinal_sums(pv, enc.n_items, k)
    if isinstance(metric, KA.Interval):
        return _interval_sums(pv, metric.values, enc.n_items)
    square = isinstance(metric, KA.Pairwise)
    if _too_wide(k, 1) or (square and k > MAX_SQUARE_CATEGORIES):
        return None
    margins = _margins(pv, enc.n_items, k)
    matrix = _assemble(margins, KA.item_disagreement(pv, metric)[:, None])
    if isinstance(metric, KA.Nominal):

        def expected(n_c: FloatArray, n: FloatArray) -> FloatArray:
            out: FloatArray = n**2 - (n_c**2).sum(axis=-1)
            return out

    elif isinstance(metric, KA.Interval):
        x = metric.values

        def expected(n_c: FloatArray, n: FloatArray) -> FloatArray:
            return 2.0 * n * _spread(x, n_c)

    else:
        codes = np.arange(k, dtype=np.int64)
        delta2 = np.asarray(metric.delta2(codes[:, None], codes[None, :]), dtype=np.float64)

        def expected(n_c: FloatArray, n: FloatArray) -> FloatArray:
            out: FloatArray = ((n_c @ delta2) * n_c).sum(axis=-1)
            return out

    def finish(t: FloatArray) -> FloatArray:
        n_c = t[:, :k]
        n = n_c.sum(axis=-1)
        return _alpha(t[:, k], expected(n_c, n), n)

    return ItemSums(matrix, finish, row_floats=2 * k)


def _interval_sums(pv: KA.PairableValues, values: FloatArray, n_items: int) -> ItemSums:
    """Interval alpha from four moment sums per item, whatever the number of distinct values:
    the pairable values ``m_i``, the item's ``sum o delta2`` (``2 m_i sum (x - xbar_i)^2 /
    (m_i - 1)``), ``sum x`` and ``sum x^2`` (values centred on their pooled mean, so the
    expected disagreement ``2 n (sum x^2 - (sum x)^2 / n)`` does not cancel)."""
    x = values[pv.code]
    f = pv.frequency
    centre = float(np.dot(f, x) / f.sum()) if f.sum() > 0 else 0.0
    xc = x - centre
    m = np.bincount(pv.item, weights=f, minlength=n_items)
    s1 = np.bincount(pv.item, weights=f * xc, minlength=n_items)
    s2 = np.bincount(pv.item, weights=f * xc * xc, minlength=n_items)
    with np.errstate(invalid="ignore", divide="ignore"):
        within = np.where(m >= 2, s2 - s1 * s1 / np.where(m > 0, m, 1.0), 0.0)
        per_item = np.where(m >= 2, 2.0 * m * within / (m - 1.0), 0.0)
    matrix = _assemble(np.column_stack([m, per_item, s1, s2]))

    def finish(t: FloatArray) -> FloatArray:
        n = t[:, 0]
        with np.errstate(invalid="ignore", divide="ignore"):
            spread = np.where(n > 0, t[:, 3] - t[:, 2] ** 2 / n, 0.0)
        # Rounding leaves a spread of about 1e-16 of the sum of squares where every value of a
        # resample is the same: that is no spread (alpha undefined), as the direct sums say.
        spread = np.where(spread <= 1e-12 * np.abs(t[:, 3]), 0.0, spread)
        return _alpha(t[:, 1], 2.0 * n * spread, n)

    return ItemSums(matrix, finish, row_floats=8)


def _margins(pv: KA.PairableValues, n_items: int, k: int) -> Any:
    """The pairable values ``[m_i >= 2] n_ik`` (sparse, (n_items, K)): sums are ``n_c``."""
    return sp.csr_matrix((pv.frequency, (pv.item, pv.code)), shape=(n_items, k))


def _alpha(observed: FloatArray, expected: FloatArray, n: FloatArray) -> FloatArray:
    """alpha from the numerators ``sum_ck o_ck delta2_ck``, ``sum_ck n_c n_k delta2_ck``."""
    with np.errstate(invalid="ignore", divide="ignore"):
        d_o = np.where(n > 0, observed / n, np.nan)
        d_e = np.where(n > 0, expected / (n * (n - 1.0)), np.nan)
    return KA.alpha_from_disagreement(d_o, d_e)


def _spread(x: FloatArray, count: FloatArray) -> FloatArray:
    """Per row of ``count`` (n, K): ``sum_k count_k (x_k - xbar)^2`` with ``xbar`` the
    weighted mean, for coordinates ``x`` (K,) or (n, K), after shifting ``x`` by its value
    at the first category with a count (as the kernel does, so that a single category
    present gives exactly 0)."""
    x = np.broadcast_to(x, count.shape)
    first = np.argmax(count > 0, axis=-1)
    shifted = x - np.take_along_axis(x, first[:, None], axis=-1)
    weight = count.sum(axis=-1)
    mean = (count * shifted).sum(axis=-1) / np.where(weight > 0, weight, 1.0)
    deviation = shifted - mean[:, None]
    out: FloatArray = (count * deviation * deviation).sum(axis=-1)
    return out


def _ordinal_sums(pv: KA.PairableValues, n_items: int, k: int) -> ItemSums | None:
    """Ordinal alpha: the margins ``n_c`` give the mid-ranks ``M_c``, and the coincidences
    ``o_ck = sum_i n_ic n_ik / (m_i - 1)`` (c < k) give
    ``sum_ck o_ck delta2_ck = 2 sum_{c<k} o_ck (M_c - M_k)^2``."""
    first, second = np.triu_indices(k, k=1)
    if _too_wide(k, len(first)):
        return None
    # Every pair of entries (distinct categories c < k) of one item: entries are sorted by
    # item, then code.
    new_item = np.r_[True, pv.item[1:] != pv.item[:-1]] if len(pv.item) else np.zeros(0, bool)
    starts = np.flatnonzero(new_item)
    stops = (np.r_[starts[1:], len(pv.item)] if len(starts) else starts).astype(np.int64)
    lengths = stops - starts
    rows = np.arange(len(pv.item), dtype=np.int64)
    cost = np.repeat(stops, lengths) - rows - 1
    a = np.repeat(rows, cost)
    b = a + 1 + np.arange(len(a), dtype=np.int64) - np.repeat(np.cumsum(cost) - cost, cost)
    c, d = pv.code[a], pv.code[b]
    column = c * k - c * (c + 1) // 2 + (d - c - 1)  # position of (c, d) in triu order
    item = pv.item[a]
    with np.errstate(invalid="ignore", divide="ignore"):
        scale = np.where(pv.pairable, 1.0 / (pv.total - 1.0), 0.0)
    value = pv.frequency[a] * pv.frequency[b] * scale[item]
    coincidences = sp.csr_matrix((value, (item, column)), shape=(n_items, len(first)))

    def finish(t: FloatArray) -> FloatArray:
        n_c = t[:, :k]
        n = n_c.sum(axis=-1)
        ranks = np.cumsum(n_c, axis=-1) - n_c / 2.0
        gaps = ranks[:, first] - ranks[:, second]
        observed = 2.0 * (t[:, k:] * gaps * gaps).sum(axis=-1)
        expected = 2.0 * n * _spread(ranks, n_c)
        return _alpha(observed, expected, n)

    matrix = _assemble(_margins(pv, n_items, k), coincidences)
    return ItemSums(matrix, finish, row_floats=3 * len(first) + 5 * k)


def _weighted_alpha_sums(data: RatingData, options: dict[str, Any]) -> ItemSums | None:
    """Gwet's weighted alpha: ``[r_i >= 2]``, ``[r_i >= 2] r_i``, the item's share of
    ``A_o'`` and its pairable ratings ``[r_i >= 2] n_ik``."""
    w, _ = data.weights(options["weights"])
    nik = data.nik
    if _too_wide(3, nik.shape[1]):
        return None
    r = nik.sum(axis=-1)
    pairable = r >= 2
    with np.errstate(invalid="ignore", divide="ignore"):
        agreeing = (nik * (nik @ w.T - 1.0)).sum(axis=-1)
        share = np.where(pairable, agreeing / np.where(pairable, r - 1.0, 1.0), 0.0)
    matrix = _assemble(
        np.column_stack([pairable, np.where(pairable, r, 0.0), share]).astype(np.float64),
        np.where(pairable[:, None], nik, 0.0),
    )

    def finish(t: FloatArray) -> FloatArray:
        n2, total = t[:, 0], t[:, 1]
        with np.errstate(invalid="ignore", divide="ignore"):
            rbar = total / n2
            observed_prime = t[:, 2] / (n2 * rbar)
            epsilon = 1.0 / total
            observed = (1.0 - epsilon) * observed_prime + epsilon
            pi = t[:, 3:] / total[:, None]
        expected = np.einsum("gk,kl,gl->g", pi, w, pi)
        return K.chance_corrected(observed, expected)

    return ItemSums(matrix, finish)


# --------------------------------------------------------------------------- SPA


def spa_sums(data: RatingData, options: dict[str, Any]) -> ItemSums | None:
    """SPA: ``sum_i k_i P_i / sum_i k_i``; the weights of ``inv_var_class`` with the pooled
    ``p`` depend on the replicate's ``p``, hence on its margins."""
    weights, p = options.get("weights"), options.get("p")
    n, agreement = KS.spa_item_agreement(data.nik)
    counts = n >= 2
    if isinstance(weights, str) and weights == "inv_var_class" and p is None:
        return _spa_class_sums(data, n, np.where(counts, agreement, 0.0))
    k, _, _, _ = item_weights(data, weights, p)
    weight = np.where(counts, k, 0.0)
    weighted = np.where(counts, weight * np.where(counts, agreement, 0.0), 0.0)

    def finish(t: FloatArray) -> FloatArray:
        defined = t[:, 0] > 0
        return np.where(defined, t[:, 1] / np.where(defined, t[:, 0], 1.0), np.nan)

    return ItemSums(_assemble(np.column_stack([weight, weighted])), finish)


def _spa_class_sums(data: RatingData, n: FloatArray, agreement: FloatArray) -> ItemSums | None:
    nik = data.nik
    k = nik.shape[1]
    sizes = np.unique(n[n >= 2])
    if _too_wide(k, 2 * len(sizes)):
        return None
    which = (n[:, None] == sizes[None, :]).astype(np.float64)
    matrix = _assemble(nik, which, which * agreement[:, None])
    j = len(sizes)

    def finish(t: FloatArray) -> FloatArray:
        totals = t[:, :k]
        with np.errstate(invalid="ignore", divide="ignore"):
            dist = totals / totals.sum(axis=-1, keepdims=True)
        zeta1, zeta2 = KS.class_moments(dist)
        size = np.broadcast_to(sizes, (len(t), j))
        weight = KS.scheme_weights(size, "inv_var_class", zeta1[:, None], zeta2[:, None])
        sum_weights = (t[:, k : k + j] * weight).sum(axis=-1)
        total = (t[:, k + j :] * weight).sum(axis=-1)
        defined = sum_weights > 0
        return np.where(defined, total / np.where(defined, sum_weights, 1.0), np.nan)

    return ItemSums(matrix, finish)


# --------------------------------------------------------------------------- multi-label


def multilabel_sums(data: RatingData, options: dict[str, Any]) -> ItemSums | None:
    """Rosenberg & Binkowski's kappa: per rater pair, whether both annotated the item, its own
    agreement at ``p``, and the two annotators' label weights on it where both did."""
    enc = data.enc
    if enc.rater is None:  # pragma: no cover - multilabel() refuses counts tables first
        raise RatersNeeded("needs raters")
    p = check_p(options.get("p", DEFAULT_P))
    k, r, n = enc.n_categories, enc.n_raters, enc.n_items
    first, second = np.triu_indices(r, k=1)
    n_pairs = len(first)
    if _too_wide(2 * n_pairs, 2 * n_pairs * k):
        return None
    secondary = enc.secondary if enc.secondary is not None else np.full(len(enc.code), -1)
    has = secondary >= 0
    weights = np.zeros((n, r, k))  # M_a[i, :] for every annotator a
    weights[enc.item, enc.rater, enc.code] = np.where(has, p, 1.0)
    weights[enc.item[has], enc.rater[has], secondary[has]] = 1.0 - p
    annotated = np.zeros((n, r), dtype=bool)
    annotated[enc.item, enc.rater] = True
    both = annotated[:, first] & annotated[:, second]
    pair_of = np.zeros((r, r), dtype=np.int64)
    pair_of[first, second] = np.arange(n_pairs)
    u, v = KM.annotation_pairs(enc.item, enc.rater)
    agree = np.zeros((n, n_pairs))
    own = KM.evaluate(KM.pair_agreement(u, v, enc.code, secondary), np.array([p]))[0]
    agree[enc.item[u], pair_of[enc.rater[u], enc.rater[v]]] = own
    margins = [weights[:, side, :] * both[:, :, None] for side in (first, second)]
    matrix = _assemble(both, agree, *(m.reshape(n, n_pairs * k) for m in margins))

    def finish(t: FloatArray) -> FloatArray:
        n_common, agreeing = t[:, :n_pairs], t[:, n_pairs : 2 * n_pairs]
        f_a, f_b = (
            t[:, (2 + j * k) * n_pairs : (2 + (j + 1) * k) * n_pairs].reshape(-1, n_pairs, k)
            for j in (0, 1)
        )
        with np.errstate(invalid="ignore", divide="ignore"):
            observed = agreeing / n_common
            expected = (f_a * f_b).sum(axis=-1) / n_common**2
            kappa = np.where(
                n_common >= MIN_SHARED_ITEMS, K.chance_corrected(observed, expected), np.nan
            )
        value: FloatArray = KM.pair_mean(kappa)[0]
        return value

    return ItemSums(matrix, finish, row_floats=3 * n_pairs * k)
