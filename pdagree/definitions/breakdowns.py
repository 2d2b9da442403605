"""Breakdowns: the count tensors and per-category, per-rater, per-pair and per-item agreement
as labelled DataFrames.

Each function's docstring is the documentation of the :class:`pdagree.Ratings` method of the
same name.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._kernels import agreement as K
from .._kernels import sparse as KS
from .._validation import check_option
from .._warnings import UndefinedStatisticWarning, warn
from ..encoding import plain
from ..tensors.data import RatingData, Weights
from ..tensors.keys import key_index
from .base import MIN_SHARED_ITEMS
from .kappa import pair_kappa

__all__ = [
    "MAX_PAIRWISE_CELLS",
    "PAIRWISE_COEFFICIENTS",
    "check_pairwise_size",
    "contingency",
    "counts",
    "frequencies",
    "items",
    "pairwise",
    "per_category",
]


def counts(data: RatingData) -> pd.DataFrame:
    """Items x categories: how many raters put each item in each category (``n_ik``).

    This is Fleiss' table; ``df.agree(layout="counts")`` reads it back.

    Returns
    -------
    DataFrame
        One row per item (with ``by=``: group keys, then item), one column per category:

        ==============  ====================================================
        column          holds
        ==============  ====================================================
        each category   the raters who chose it for the item (integers)
        ==============  ====================================================
    """
    frame = pd.DataFrame(
        data.nik.astype(np.int64), index=data.item_index(), columns=data.enc.categories
    )
    frame.columns.name = "category"
    return frame


def frequencies(data: RatingData) -> pd.DataFrame:
    """Raters x categories: each rater's counts and proportions per category.

    Columns are a MultiIndex: (``"count"``, category) and (``"proportion"``, category), the
    proportion being over the items that rater rated (Amidei et al. 2020, Table 1). With
    ``by=``, rows are (group, rater) for raters active in the group.

    Returns
    -------
    DataFrame
        One row per rater (with ``by=``: group, rater):

        ==============================  ==========================================
        column                          holds
        ==============================  ==========================================
        (``"count"``, category)         the rater's ratings in the category
        (``"proportion"``, category)    their share of the rater's ratings
        ==============================  ==========================================
    """
    enc = data.require_raters("frequencies")
    nck = data.nck
    p, active = K.rater_proportions(nck)
    cols_count = pd.MultiIndex.from_product([["count"], list(enc.categories)])
    cols_prop = pd.MultiIndex.from_product([["proportion"], list(enc.categories)])
    raters = data.rater_labels
    if enc.groups is None:
        index: pd.Index = raters
        counts, props, keep = nck[0], p[0], active[0]
    else:
        counts = nck.reshape(-1, enc.n_categories)
        props = p.reshape(-1, enc.n_categories)
        keep = active.reshape(-1)
        if data.slots[2] is None:
            index = _cross_index(enc.groups, raters, "rater")
        else:  # raters numbered within groups: the active slots are the keys, in order
            counts, props = counts[keep], props[keep]
            index = key_index(data, np.arange(len(counts), dtype=np.int64))
            keep = np.ones(len(counts), dtype=bool)
    frame = pd.concat(
        [
            pd.DataFrame(counts.astype(np.int64), index=index, columns=cols_count),
            pd.DataFrame(props, index=index, columns=cols_prop),
        ],
        axis=1,
    )
    rating: pd.DataFrame = frame[keep]
    return rating


def contingency(data: RatingData, a: Hashable, b: Hashable) -> pd.DataFrame:
    """The K x K table of rater ``a``'s labels (rows) against rater ``b``'s (columns).

    Counts the items both rated. With ``by=``, rows are (group, category of ``a``).
    ``table.agree(layout="contingency")`` reads such a table back.

    Parameters
    ----------
    a, b : hashable
        Two raters: wide column names or long ``rater`` values.

    Returns
    -------
    DataFrame
        One row per category of rater ``a`` (index named ``a``), one column per category of
        rater ``b`` (named ``b``):

        ==============  ==============================================================
        column          holds
        ==============  ==============================================================
        each category   the items ``a`` put in the row's category and ``b`` in this one
        ==============  ==============================================================
    """
    enc = data.require_raters("contingency")
    raters = data.rater_labels
    pos: list[Any] = []  # get_loc of a unique index: an int
    for param, who in (("a", a), ("b", b)):
        if who not in raters:
            raise ValueError(
                f"`{param}` must be one of the raters {list(raters[:10])}; got {plain(who)!r}."
            )
        pos.append(raters.get_loc(who))
    first, second = (data.slot_of(int(p)) for p in pos)  # per group, -1: absent
    if pos[0] == pos[1]:  # a rater against itself: its counts on the diagonal
        own = np.where((first >= 0)[:, None], data.nck[np.arange(enc.n_groups), first], 0.0)
        table = np.einsum("gk,kl->gkl", own, np.eye(enc.n_categories))
    else:
        table = data.pair_confusion(first, second)
    table = table.astype(np.int64)
    cats = pd.Index(enc.categories, name=a)
    columns = pd.Index(enc.categories, name=b)
    if enc.groups is None:
        return pd.DataFrame(table[0], index=cats, columns=columns)
    index = _cross_index(enc.groups, cats, "category")
    return pd.DataFrame(table.reshape(-1, enc.n_categories), index=index, columns=columns)


PAIRWISE_COEFFICIENTS = ("cohen", "scott", "observed", "n_items", "concordance")
#: Cells of the raters x raters table (times the groups, with ``by=``) that ``pairwise``
#: builds at most: 2**27, 1 GiB of float64 (11,585 raters, or 1,000 groups of 366).
MAX_PAIRWISE_CELLS = 2**27


def pairwise(
    data: RatingData,
    coefficient: Literal["cohen", "scott", "observed", "n_items", "concordance"] = "cohen",
    *,
    weights: Weights = None,
) -> pd.DataFrame:
    """Raters x raters: a two-rater coefficient for every pair.

    Entries are nan where a pair shares no item or the coefficient is undefined (no
    warning: the table is a breakdown), and the chance-corrected ones (``"cohen"``,
    ``"scott"``) also where a pair shares only one item: chance agreement estimated from one
    item makes kappa -1, 0 or undefined whatever the raters do. Those pairs are announced by
    one :class:`~pdagree.UndefinedStatisticWarning` (``"observed"`` and ``"n_items"`` keep
    their values). With ``by=``, rows are (group, rater).

    Parameters
    ----------
    coefficient : {"cohen", "scott", "observed", "n_items", "concordance"}
        ``"cohen"`` (the default), ``"scott"``, ``"observed"`` (proportion of agreement over
        the items both rated), ``"n_items"`` (how many items both rated, as integers) or, on
        numeric scores, ``"concordance"`` (Lin's concordance correlation coefficient,
        :meth:`concordance`, of each pair over the items both scored).
    weights : str, (K, K) array or DataFrame, optional
        The weighted coefficients (e.g. ``"quadratic"`` for LLM judges scoring 1-10; the
        schemes of :meth:`cohen`, built on the category values), each pair's entry equal to
        that pair's ``cohen(weights=...)`` (or ``scott``) on its own.
    method : str, optional
        Deprecated: the former name of ``coefficient`` (a :class:`FutureWarning`; removed in
        the next release).

    Returns
    -------
    DataFrame
        One row per rater (with ``by=``: group, rater), one column per rater:

        ==============  ==============================================================
        column          holds
        ==============  ==============================================================
        each rater      ``coefficient`` of the row's rater and this one (1 on the diagonal
                        for the coefficients; ``n_items``: the items each rated)
        ==============  ==============================================================

    Raises
    ------
    ValueError
        The table would hold more than 2**27 cells (with ``by=``: groups x raters x raters,
        over all raters), before it is allocated: for groups with raters of their own, call
        it on each group's ratings.

    Examples
    --------
    >>> import pdagree
    >>> table = pdagree.datasets.load("artstein_poesio2005_four").agree.pairwise()
    >>> round(float(table.loc["Alice", "Bill"]), 3)
    0.348
    """
    method = check_option(coefficient, "coefficient", PAIRWISE_COEFFICIENTS)
    if method == "concordance":  # pragma: no cover - Ratings.pairwise reads the scores
        raise ValueError("coefficient='concordance' reads numeric scores: Ratings.pairwise.")
    enc = data.require_raters("pairwise")
    w = None
    if weights is not None and method != "n_items":
        w, label = data.weights(weights)
        if label == "identity":
            w = None
    kappa, observed, n_common = pair_kappa(data, pooled=(method == "scott"), weights=w)
    table: np.ndarray[Any, Any]
    check_pairwise_size(enc.n_groups, enc.n_raters)  # the pairs' tables are within bounds
    n_common = data.rater_axes(n_common, 0.0)  # slots within groups -> raters
    if method == "n_items":
        table = n_common.astype(np.int64)  # counts of items: integers
    elif method == "observed":
        table = np.where(n_common > 0, data.rater_axes(observed, np.nan), np.nan)
    else:
        table = data.rater_axes(kappa, np.nan)
        _warn_one_shared_item(data, n_common)
    raters = data.rater_labels
    columns = pd.Index(raters)
    if enc.groups is None:
        return pd.DataFrame(table[0], index=raters, columns=columns)
    return pd.DataFrame(
        table.reshape(-1, enc.n_raters),
        index=_cross_index(enc.groups, raters, "rater"),
        columns=columns,
    )


def check_pairwise_size(n_groups: int, n_raters: int) -> None:
    """A ValueError, before it is allocated, when the raters x raters table of every group
    would exceed :data:`MAX_PAIRWISE_CELLS` cells."""
    cells = n_groups * n_raters * n_raters
    if cells <= MAX_PAIRWISE_CELLS:
        return
    size = f"{n_raters:,} x {n_raters:,} raters"
    if n_groups > 1:
        size = f"{n_groups:,} `by=` groups x {size}"
    raise ValueError(
        f"`pairwise()` gives a raters x raters table (with `by=`, one per group, over all "
        f"raters): {size} = {cells:,} cells ({cells * 8 / 2**30:,.1f} GiB), above the bound "
        f"of {MAX_PAIRWISE_CELLS:,}. For groups with raters of their own, call it on each "
        "group's ratings (e.g. the frames of `df.groupby(...)` you need); `per_rater(...)` "
        "gives each rater's agreement in one row."
    )


def _warn_one_shared_item(data: RatingData, n_common: np.ndarray[Any, Any]) -> None:
    """One warning for the rater pairs whose chance-corrected value is nan because they
    share a single item."""
    upper = np.triu(np.ones(n_common.shape[1:], dtype=bool), k=1)
    lone = (n_common == 1) & upper
    n_lone = int(lone.sum())
    if not n_lone:
        return
    raters = data.rater_labels
    _, first, second = (int(x[0]) for x in np.nonzero(lone))
    example = f"{plain(raters[first])!r} and {plain(raters[second])!r}"
    warn(
        f"{n_lone} rater pair(s) share a single item (e.g. {example}); their chance-corrected "
        f"agreement needs at least {MIN_SHARED_ITEMS} items both rated and is nan. "
        "`pairwise('n_items')` gives each pair's shared items.",
        UndefinedStatisticWarning,
    )


def per_category(data: RatingData) -> pd.DataFrame:
    """Per category: Fleiss' category-specific kappa, specific agreement and prevalence.

    - ``kappa``: ``1 - sum_i n_ik (r_i - n_ik) / (r_i - 1) / (sum_i r_i pi_k (1 - pi_k))``
      over items with two or more ratings (Fleiss 1971's kappa_j, with each item's pairs
      scaled by ``r_i - 1`` so incomplete designs are allowed).
    - ``specific_agreement``: of the rating pairs with at least one rating in ``k``, the
      share with both in ``k``: ``sum_i n_ik (n_ik - 1) / sum_i n_ik (r_i - 1)``.
    - ``proportion``: ``pi_k`` over the same items.

    With ``by=``, rows are (group, category): each group's own categories unless they were
    declared.

    Parameters
    ----------
    confidence_level : float, optional
        Add the uncertainty columns of the kappas at this coverage, in (0, 1).
    n_resamples : int, default 2000
        Bootstrap replicates.
    rng : int or numpy.random.Generator, optional
        The bootstrap's seed or generator.

    Returns
    -------
    DataFrame
        One row per category (with ``by=``: group, category):

        ======================  ====================================================
        column                  holds
        ======================  ====================================================
        ``kappa``               Fleiss' category-specific kappa
        ``specific_agreement``  the share of pairs touching the category that agree
        ``proportion``          ``pi_k``, the category's share of the ratings
        ``se``                  with ``confidence_level=``: the bootstrap standard
                                error of ``kappa``
        ``low``, ``high``       its percentile interval
        ``se_h0``, ``z``        the standard error under H0 and ``kappa / se_h0``
        ``p_value``             one-sided, H1: kappa > 0
        ======================  ====================================================

    With ``confidence_level=`` (``n_resamples=``, ``rng=`` as for the coefficients), the
    kappas get ``se``, ``low`` and ``high`` from the item bootstrap (resampling the rated
    items within each group, percentile intervals), and ``se_h0``, ``z`` and ``p_value``
    from Fleiss, Nee & Landis's (1979) variance under H0, ``2 / (N m (m - 1))`` for ``N``
    items rated ``m`` times each (nan when items have different numbers of ratings; the
    p-value is one-sided, H1 kappa > 0: R irr's ``kappam.fleiss(detail=TRUE)`` prints the
    two-sided one); see :mod:`pdagree.category_inference`.
    """
    enc = data.enc
    k = enc.n_categories
    mask = data.category_mask  # each group's categories (refused first when too many)
    e_item, e_code, n = data.entries  # the non-zero n_ik: no items x categories table
    r = np.bincount(e_item, weights=n, minlength=enc.n_items)
    pairable = r >= 2
    keep = pairable[e_item]
    e_item, e_code, n = e_item[keep], e_code[keep], n[keep]
    rr = r[e_item]
    key = enc.group[e_item] * k + e_code

    def cell_sum(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        return np.bincount(key, weights=x, minlength=enc.n_groups * k).reshape(-1, k)

    with np.errstate(invalid="ignore", divide="ignore"):
        d = cell_sum(n * (rr - n) / (rr - 1.0))
        total = np.bincount(enc.group, weights=np.where(pairable, r, 0.0), minlength=enc.n_groups)
        pi = cell_sum(n) / total[:, None]
        kappa = 1.0 - d / (total[:, None] * pi * (1.0 - pi))
        specific = cell_sum(n * (n - 1.0)) / cell_sum(n * (rr - 1.0))
    cats = enc.categories
    columns = {
        "kappa": kappa.ravel(),
        "specific_agreement": specific.ravel(),
        "proportion": pi.ravel(),
    }
    index = cats if enc.groups is None else _cross_index(enc.groups, cats.rename(None), "category")
    frame = pd.DataFrame(columns, index=index)
    if mask is not None:  # each group lists the categories it uses
        used: pd.DataFrame = frame[mask.ravel()]
        return used
    return frame


def items(data: RatingData) -> pd.DataFrame:
    """Per item: the number of ratings ``n_ratings``, the pairwise agreement ``agreement``
    (nan for items with fewer than two ratings) and the ``entropy`` of its labels in bits,
    ``-sum_k p_k log2 p_k`` over the shares ``p_k`` of its ratings in each category (0 when
    every rating agrees, ``log2 K`` when its ratings spread evenly over K categories; nan
    for an item without ratings). Model-free: a consensus's own uncertainty is in
    :meth:`pdagree.consensus.Consensus.to_frame` (``probability``, ``margin``).

    Returns
    -------
    DataFrame
        One row per item (with ``by=``: group keys, then item):

        ===============  ====================================================
        column           holds
        ===============  ====================================================
        ``n_ratings``    the item's ratings (integers)
        ``agreement``    the share of agreeing rating pairs (nan below two)
        ``entropy``      the entropy of its labels, in bits
        ===============  ====================================================

    Examples
    --------
    >>> import pandas as pd
    >>> import pdagree
    >>> df = pd.DataFrame({"a": ["x", "x", "x"], "b": ["x", "y", "y"], "c": ["x", "z", "y"]})
    >>> df.agree.items().round(3)
       n_ratings  agreement  entropy
    0          3      1.000    0.000
    1          3      0.000    1.585
    2          3      0.333    0.918
    """
    e_item, _, e_count = data.entries
    n_items = data.enc.n_items
    r, a = KS.identity_item_agreement(e_item, e_count, n_items)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = e_count / r[e_item]
        bits = np.bincount(e_item, weights=-share * np.log2(share), minlength=n_items)
    entropy = np.where(r > 0, bits + 0.0, np.nan)  # + 0.0: no negative zero
    return pd.DataFrame(
        {"n_ratings": r.astype(np.int64), "agreement": a, "entropy": entropy},
        index=data.item_index(),
    )


def _cross_index(outer: pd.Index, inner: pd.Index, default: str) -> pd.MultiIndex:
    """All (outer..., inner) pairs, outer-major, keeping the level names."""
    outer_frame = (
        outer.to_frame(index=False)
        if isinstance(outer, pd.MultiIndex)
        else pd.DataFrame({outer.name: outer})
    )
    n_in = len(inner)
    rep = outer_frame.loc[outer_frame.index.repeat(n_in)].reset_index(drop=True)
    rep[inner.name if inner.name is not None else default] = np.tile(
        np.asarray(inner, dtype=object), len(outer)
    )
    return pd.MultiIndex.from_frame(rep)
