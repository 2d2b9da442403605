"""The kappa family: observed agreement, Bennett's S, Scott, Cohen, Fleiss, Conger, Gwet, Light.

Each function computes a coefficient's :class:`~pdagree.definitions.base.Components` from the
count tensors of a :class:`~pdagree.tensors.data.RatingData`; its docstring is the
documentation of the :class:`pdagree.Ratings` method of the same name (the method forwards
here and its result is labelled by :mod:`pdagree.evaluate`). Gwet's linearised standard errors
and the large-sample variance of two-rater Cohen's kappa are here too, beside the coefficients
they belong to.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._errors import RatersNeeded
from .._kernels import agreement as K
from .._kernels import sparse as KS
from .._kernels import table as KT
from .._kernels import variance as V
from .._typing import FloatArray, as_float
from ..encoding import plain
from ..tensors.data import RatingData, Weights
from .base import MIN_SHARED_ITEMS, Components

__all__ = [
    "bennett",
    "bennett_variance",
    "cohen",
    "cohen_large_sample",
    "cohen_null_se",
    "conger",
    "conger_variance",
    "fleiss",
    "fleiss_null_se",
    "fleiss_variance",
    "gwet",
    "gwet_variance",
    "light",
    "observed",
    "observed_variance",
    "scott",
    "table_variance",
    "two_rater_tables",
]


def _components(name: str, observed: FloatArray, expected: FloatArray) -> Components:
    return Components(name, K.chance_corrected(observed, expected), observed, expected)


def observed(data: RatingData, weights: Weights = None) -> Components:
    """Observed agreement ``A_o``: the mean over items of pairwise agreement.

    ``A_o = (1 / i) sum_i sum_k n_ik (n_ik - 1) / (r_i (r_i - 1))`` over the ``i`` items
    with two or more ratings (Artstein & Poesio 2005, section 13.4; for two raters it is
    the proportion of items they agree on, Fort 2011). The per-item values are in
    :meth:`items`. The result's ``expected`` is 0, so ``value == observed``.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdagree
    >>> df = pd.DataFrame({"a": ["x", "x", "y"], "b": ["x", "y", "y"], "c": ["x", "x", "y"]})
    >>> round(float(df.agree.observed()), 4)  # items agree 1, 1/3 and 1
    0.7778
    """
    name, _, a_o = data.weighted("observed", weights)
    return _components(name, a_o, np.zeros_like(a_o))


def bennett(data: RatingData, weights: Weights = None) -> Components:
    """Bennett, Alpert & Goldstein's S (Brennan & Prediger's coefficient).

    Chance agreement is uniform over the declared categories: ``A_e = 1 / K``. Declaring
    categories nobody used (``categories=[...]``) therefore raises S (Fort 2011).

    Examples
    --------
    >>> import pandas as pd
    >>> import pdagree
    >>> df = pd.DataFrame({"a": ["x", "x", "y", "y"], "b": ["x", "y", "y", "y"]})
    >>> round(float(df.agree.bennett()), 4)
    0.5
    >>> round(float(df.agree(categories=["x", "y", "z"]).bennett()), 4)
    0.625
    """
    name, w, a_o = data.weighted("bennett", weights)
    a_e = 1.0 / data.enc.n_categories if w is None else K.bennett_expected(w)
    return _components(name, a_o, np.full_like(a_o, a_e))


def _pooled(data: RatingData, name: str, weights: Weights, kernel: Any) -> Components:
    """A coefficient whose chance agreement comes from the pooled ``pi`` (Fleiss, Scott,
    Gwet): ``kernel`` gives ``A_e`` per group."""
    name, w, a_o = data.weighted(name, weights)
    enc = data.enc
    if w is None:  # identity weights on sparse counts
        sum_pi, sum_pi2 = _sparse_pi_sums(data)
        if kernel is K.gwet_expected:
            k = enc.n_categories
            a_e = (sum_pi - sum_pi2) / (k - 1.0) if k > 1 else np.full_like(sum_pi, np.nan)
        else:
            a_e = sum_pi2
        return _components(name, a_o, a_e)
    if data.table is not None:  # a contingency table: pi from its margins
        from_pi = K.gwet_from_pi if kernel is K.gwet_expected else K.fleiss_from_pi
        return _components(name, a_o, from_pi(KT.pooled(data.table), w))
    a_e, _ = kernel(data.nik, w, enc.group, enc.n_groups, data.item_weight)
    return _components(name, a_o, a_e)


def _sparse_pi_sums(data: RatingData) -> tuple[FloatArray, FloatArray]:
    """Per group ``sum_k pi_k`` and ``sum_k pi_k^2`` from the sparse counts (nan for a group
    without ratings, as the dense kernels give)."""
    enc = data.enc
    e_item, e_code, e_count = data.entries
    g, _, pi = KS.pooled_proportions(
        e_item, e_code, e_count, enc.group, enc.n_groups, enc.n_categories, data.item_weight
    )
    rated = np.bincount(g, minlength=enc.n_groups) > 0
    sum_pi = np.bincount(g, weights=pi, minlength=enc.n_groups)
    sum_pi2 = np.bincount(g, weights=pi * pi, minlength=enc.n_groups)
    return np.where(rated, sum_pi, np.nan), np.where(rated, sum_pi2, np.nan)


def fleiss(data: RatingData, weights: Weights = None) -> Components:
    """Fleiss' kappa: Artstein & Poesio's multi-pi, for any number of raters.

    ``A_o`` as in :meth:`observed`; ``A_e = sum_k pi_k^2`` with ``pi_k`` the mean over items
    of ``n_ik / r_i``. Incomplete designs are allowed (Gwet's generalisation): items with
    fewer than two ratings do not count towards ``A_o`` but their ratings count towards
    ``pi``. For complete designs this is Fleiss (1971)'s kappa.

    Examples
    --------
    >>> import pdagree
    >>> round(float(pdagree.datasets.load("fleiss1971").agree.fleiss()), 3)
    0.43
    """
    return _pooled(data, "fleiss", weights, K.fleiss_expected)


def conger(data: RatingData, weights: Weights = None) -> Components:
    """Conger's kappa: Artstein & Poesio's multi-kappa, for any number of raters.

    ``A_e`` is the mean over rater pairs of ``sum_k P(k|c_m) P(k|c_n)`` with each rater's
    own category proportions ``P(k|c) = n_ck / n_c`` (over the items that rater rated,
    Gwet's generalisation to incomplete designs). For two raters it is Cohen's kappa.

    Raises
    ------
    ValueError
        On a counts table, which has no rater identity.
    """
    data.require_raters("conger")
    return _own_margins(data, "conger", weights)


def _own_margins(data: RatingData, name: str, weights: Weights) -> Components:
    name, w, a_o = data.weighted(name, weights)
    if w is None:  # identity weights on sparse counts
        a_e, _ = KS.identity_conger_expected(data.nck)
    else:
        a_e, _, _ = K.conger_expected(data.nck, w)
    return _components(name, a_o, a_e)


def scott(data: RatingData, weights: Weights = None) -> Components:
    """Scott's pi for two raters (:meth:`fleiss` restricted to exactly two raters).

    Raises
    ------
    ValueError
        With more than two raters (use :meth:`fleiss`).
    """
    data.require_two_raters("scott", "`fleiss()` (multi-pi)")
    return _pooled(data, "scott", weights, K.fleiss_expected)


def cohen(data: RatingData, weights: Weights = None) -> Components:
    """Cohen's kappa for two raters (:meth:`conger` restricted to exactly two raters).

    ``A_o`` is the proportion of agreement over the items both rated; ``A_e = sum_k
    p_ak p_bk`` uses each rater's proportions over all items it rated.

    Raises
    ------
    ValueError
        With more than two raters (use :meth:`conger` or :meth:`light`).
    """
    data.require_two_raters("cohen", "`conger()` (multi-kappa), `light()` or `fleiss()`")
    return _own_margins(data, "cohen", weights)


def gwet(data: RatingData, weights: Weights = None) -> Components:
    """Gwet's AC1 (unweighted) or AC2 (weighted), for any number of raters.

    ``A_o`` as in :meth:`fleiss`; chance agreement
    ``A_e = T_w / (K (K - 1)) * sum_k pi_k (1 - pi_k)`` with ``T_w`` the sum of the weights
    and ``pi_k`` as in :meth:`fleiss` (Gwet 2014, ch. 4; 2008). Incomplete designs as for
    :meth:`fleiss`. It stays stable when one category dominates, where kappa collapses.

    Examples
    --------
    >>> import pdagree
    >>> round(float(pdagree.datasets.load("fleiss1971").agree.gwet()), 4)
    0.4479
    """
    return _pooled(data, "gwet", weights, K.gwet_expected)


def pairs(
    data: RatingData, pooled: bool, weights: FloatArray | None = None
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``A_o``, ``A_e`` (Cohen's, or Scott's with ``pooled``) and the items both rated, for
    every rater pair, shapes (G, R, R); ``weights``: a (K, K) agreement-weight matrix
    (``None``: identity)."""
    if weights is None:
        n_common, agree, rows, cols = data.pair_margins
        w = data.identity
    else:
        n_common, agree, rows, cols = data.pair_margins_with(weights)
        w = weights
    return K.pair_margin_components(n_common, agree, rows, cols, data.nck, w, pooled)


def pair_kappa(
    data: RatingData, pooled: bool, weights: FloatArray | None = None
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Every rater pair's Cohen's kappa (Scott's pi with ``pooled``), ``A_o`` and the items
    both rated, shapes (G, R, R); the kappa is nan for pairs sharing fewer than
    ``MIN_SHARED_ITEMS`` (2) items."""
    a_o, a_e, n_common = pairs(data, pooled, weights)
    with np.errstate(invalid="ignore", divide="ignore"):
        kappa = np.where(n_common >= MIN_SHARED_ITEMS, K.chance_corrected(a_o, a_e), np.nan)
    return as_float(kappa), a_o, n_common


def light(data: RatingData) -> Components:
    """Light's kappa: the mean of Cohen's kappa over every pair of raters.

    Pairs sharing fewer than two items (whose kappa rests on chance agreement estimated from
    one item, or on nothing), or whose kappa is undefined, are left out of the mean. The
    result's ``observed`` and ``expected`` are the means of the pairs' ``A_o`` and ``A_e``;
    ``n_items`` counts items with two or more ratings; ``n_pairs`` the pairs averaged.
    Light (1971); Conger (1980). Its standard error (``method="auto"``) is the jackknife over
    items, ``(n - 1) / n sum_i (theta_(i) - theta_(.))^2`` (Efron 1982), each value without
    one item in closed form (:mod:`pdagree.definitions.jackknife`).
    """
    data.require_raters("light")
    enc = data.enc
    # Over the pairs that share items only (sparse): no (G, R, R) array, so 10^5 raters fit.
    group, first, second, n_common, agree = data.pair_agreements
    p, _ = K.rater_proportions(data.nck)
    with np.errstate(invalid="ignore", divide="ignore"):
        a_o = agree / n_common
        a_e = np.einsum("pk,pk->p", p[group, first], p[group, second])
        kappa = K.chance_corrected(a_o, a_e)
    usable = (n_common >= MIN_SHARED_ITEMS) & ~np.isnan(kappa)

    def mean(x: FloatArray) -> FloatArray:
        total = np.bincount(group, weights=np.where(usable, x, 0.0), minlength=enc.n_groups)
        return as_float(total / n_pairs)

    n_pairs = np.bincount(group, weights=usable, minlength=enc.n_groups)
    with np.errstate(invalid="ignore", divide="ignore"):
        value, mean_o, mean_e = mean(kappa), mean(a_o), mean(a_e)
    return Components("light", value, mean_o, mean_e, extra={"n_pairs": n_pairs.astype(np.int64)})


# ---------------------------------------------------------------------------- variances


def _linearised(
    data: RatingData,
    options: dict[str, Any],
    parts: Components,
    population: float,
    item_expected: FloatArray | None,
    w: FloatArray,
) -> tuple[FloatArray, FloatArray]:
    enc = data.enc
    var, n = V.linearised_variance(
        data.nik,
        w,
        enc.group,
        enc.n_groups,
        parts.value,
        parts.expected,
        item_expected,
        population,
        data.item_weight,
    )
    return var, n


def table_variance(
    data: RatingData, options: dict[str, Any], kind: str, population: float
) -> tuple[FloatArray, FloatArray]:
    """Gwet's two-rater variance from the contingency table, as R irrCAC's ``*.table``
    functions compute it (``kind``: ``"observed"`` for ``pa2.table``, ``"bennett"`` for
    ``bp2.table``, ``"cohen"`` for ``kappa2.table``, ``"scott"`` for ``scott2.table`` and
    ``krippen2.table``, ``"gwet"`` for ``gwet.ac1.table``). It divides by ``n`` where the
    raw-ratings variance divides by ``n - 1``: the variance is ``(n - 1) / n`` times the raw
    one on the same items, the standard error ``sqrt((n - 1) / n)`` times (0.5% smaller at
    ``n = 100``)."""
    w, _ = data.weights(options.get("weights"))
    return V.table_variance(two_rater_tables(data), w, kind, population)


def _on_table(data: RatingData) -> bool:
    """Whether the ratings came as a contingency table: its variances are the table's."""
    return data.enc.layout == "contingency"


def observed_variance(
    data: RatingData, options: dict[str, Any], parts: Components, population: float
) -> tuple[FloatArray, FloatArray]:
    """Gwet's variance of percent agreement (no chance term per item); on a contingency
    table, irrCAC's ``pa2.table`` (:func:`table_variance`)."""
    if _on_table(data):
        return table_variance(data, options, "observed", population)
    w, _ = data.weights(options.get("weights"))
    return _linearised(data, options, parts, population, None, w)


def bennett_variance(
    data: RatingData, options: dict[str, Any], parts: Components, population: float
) -> tuple[FloatArray, FloatArray]:
    """Gwet's variance of Bennett's S (no chance term per item); on a contingency table,
    irrCAC's ``bp2.table`` (:func:`table_variance`)."""
    if _on_table(data):
        return table_variance(data, options, "bennett", population)
    w, _ = data.weights(options.get("weights"))
    return _linearised(data, options, parts, population, None, w)


def _pooled_variance(
    data: RatingData,
    options: dict[str, Any],
    parts: Components,
    population: float,
    expected: Any,
    item_expected: Any,
) -> tuple[FloatArray, FloatArray]:
    """Gwet's variance of a pooled-chance coefficient: ``expected`` gives ``pi`` and
    ``item_expected`` each item's share of chance agreement."""
    enc = data.enc
    w, _ = data.weights(options.get("weights"))
    _, pi = expected(data.nik, w, enc.group, enc.n_groups, data.item_weight)
    item = item_expected(data.nik, w, pi, enc.group)
    return _linearised(data, options, parts, population, item, w)


def fleiss_variance(
    data: RatingData, options: dict[str, Any], parts: Components, population: float
) -> tuple[FloatArray, FloatArray]:
    """Gwet's variance of Fleiss' kappa and Scott's pi; on a contingency table (two raters,
    where Fleiss' kappa is Scott's pi), irrCAC's ``scott2.table`` (:func:`table_variance`)."""
    if _on_table(data):
        return table_variance(data, options, "scott", population)
    return _pooled_variance(
        data, options, parts, population, K.fleiss_expected, V.fleiss_item_expected
    )


def gwet_variance(
    data: RatingData, options: dict[str, Any], parts: Components, population: float
) -> tuple[FloatArray, FloatArray]:
    """Gwet's variance of AC1 and AC2; on a contingency table, irrCAC's ``gwet.ac1.table``
    (:func:`table_variance`)."""
    if _on_table(data):
        return table_variance(data, options, "gwet", population)
    return _pooled_variance(
        data, options, parts, population, K.gwet_expected, V.gwet_item_expected
    )


def conger_variance(
    data: RatingData, options: dict[str, Any], parts: Components, population: float
) -> tuple[FloatArray, FloatArray]:
    """Gwet's variance of Conger's and Cohen's kappa; on a contingency table (two raters,
    where Conger's kappa is Cohen's), irrCAC's ``kappa2.table`` (:func:`table_variance`)."""
    if _on_table(data):
        return table_variance(data, options, "cohen", population)
    enc = data.enc
    if enc.rater is None:  # pragma: no cover - the coefficient itself refuses counts tables
        raise RatersNeeded("needs raters")
    w, _ = data.weights(options.get("weights"))
    item = V.conger_item_expected(
        data.nck,
        w,
        data.rated_per_group,
        enc.group,
        enc.item,
        data.slots[0],
        enc.code,
        enc.n_items,
    )
    return _linearised(data, options, parts, population, item, w)


def two_rater_tables(data: RatingData) -> FloatArray:
    """The (G, K, K) contingency table of the two raters with ratings in each group (rater
    columns without ratings do not count), over the items both rated."""
    active = data.nck.sum(axis=-1) > 0  # (G, R)
    first_two = np.argsort(~active, axis=1, kind="stable")[:, :2]
    return data.pair_confusion(first_two[:, 0], first_two[:, 1])


def cohen_large_sample(
    data: RatingData, options: dict[str, Any]
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Cohen's kappa on the items both raters rated, its ASE, ASE under H0 and n, per group.

    Fleiss, Cohen & Everitt (1969): with cell proportions ``p_kl``, margins ``p_k.``,
    ``p_.l``, ``wbar_k. = sum_l p_.l w_kl`` and ``wbar_.l = sum_k p_k. w_kl``,
    ``var = [sum_kl p_kl (w_kl - (wbar_k. + wbar_.l)(1 - kappa))^2
    - (kappa - A_e (1 - kappa))^2] / (n (1 - A_e)^2)``; under H0,
    ``var0 = [sum_kl p_k. p_.l (w_kl - (wbar_k. + wbar_.l))^2 - A_e^2] / (n (1 - A_e)^2)``.
    """
    w, _ = data.weights(options.get("weights"))
    table = two_rater_tables(data)  # (G, K, K)
    n = table.sum(axis=(1, 2))
    with np.errstate(invalid="ignore", divide="ignore"):
        p = table / n[:, None, None]
        row = p.sum(axis=2)
        col = p.sum(axis=1)
        po = np.einsum("gkl,kl->g", p, w)
        pe = np.einsum("gk,kl,gl->g", row, w, col)
        kappa = (po - pe) / (1.0 - pe)
        wrow = np.einsum("gl,kl->gk", col, w)
        wcol = np.einsum("gk,kl->gl", row, w)
        spread = wrow[:, :, None] + wcol[:, None, :]
        inner = w[None] - spread * (1.0 - kappa)[:, None, None]
        var = ((p * inner**2).sum(axis=(1, 2)) - (kappa - pe * (1.0 - kappa)) ** 2) / (
            n * (1.0 - pe) ** 2
        )
        outer = row[:, :, None] * col[:, None, :]
        var0 = ((outer * (w[None] - spread) ** 2).sum(axis=(1, 2)) - pe**2) / (n * (1.0 - pe) ** 2)
    return kappa, np.sqrt(np.maximum(var, 0.0)), np.sqrt(np.maximum(var0, 0.0)), n


def cohen_null_se(data: RatingData, options: dict[str, Any]) -> tuple[FloatArray, FloatArray]:
    """The ASE of Cohen's kappa under H0 of Fleiss, Cohen & Everitt (1969), weighted too (SAS
    PROC FREQ's "ASE under H0", R irr's ``kappa2``), and n, per group; see
    :func:`cohen_large_sample`."""
    _, _, se0, n = cohen_large_sample(data, options)
    return se0, n


def fleiss_null_se(data: RatingData, options: dict[str, Any]) -> tuple[FloatArray, FloatArray]:
    """The standard error of Fleiss' kappa (and Scott's pi) under H0 of Fleiss, Nee & Landis
    (1979), as R irr's ``kappam.fleiss`` computes it, and n, per group. It needs unweighted
    kappa and the same number ``m`` of ratings on every rated item:
    ``var0 = 2 / (n m (m - 1)) [(sum_k p_k q_k)^2 - sum_k p_k q_k (q_k - p_k)]
    / (sum_k p_k q_k)^2``."""
    weights = options.get("weights")
    if not (weights is None or (isinstance(weights, str) and weights == "identity")):
        raise ValueError(
            "method='large-sample' for Fleiss' kappa is the variance under H0 of Fleiss, Nee "
            f"& Landis (1979), which is for unweighted kappa; got weights={weights!r}. Use "
            "method='analytic' or 'bootstrap' for weighted kappa."
        )
    enc = data.enc
    if data.table is not None:  # two ratings on every item: the table's margins suffice
        n, rows, cols = KT.margins(data.table)
        var0 = V.fleiss_null_from_counts(rows + cols, n, 2.0 * n)
        return np.sqrt(var0), n
    var0, n, fewest, most = V.fleiss_null_variance(data.nik, enc.group, enc.n_groups)
    uneven = fewest != most
    if uneven.any():
        g = int(np.argmax(uneven))
        where = "" if enc.groups is None else f" in group {plain(enc.groups[g])!r}"
        raise ValueError(
            "method='large-sample' for Fleiss' kappa is the variance under H0 of Fleiss, Nee "
            "& Landis (1979), which needs the same number of ratings on every item; items "
            f"here have {int(fewest[g])} to {int(most[g])} ratings{where}. Use "
            "method='analytic' or 'bootstrap' for incomplete designs."
        )
    return np.sqrt(var0), n
