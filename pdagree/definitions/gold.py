"""Each rater against a reference (a gold standard): precision, recall, F and the rest.

The confusion counts of every rater against the reference, one category against the rest,
come from :mod:`pdagree._kernels.gold`; this module finds the reference (a rater, or a Series
aligned on the items), checks the options, labels the scores and announces the undefined
ones. :func:`against`'s docstring is the documentation of :meth:`pdagree.Ratings.against`.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._kernels import gold as K
from .._typing import BoolArray, FloatArray, IntArray, as_float
from .._warnings import warn
from ..encoding import categories_of, fmt, plain
from ..tensors.data import RatingData

__all__ = ["Average", "against"]

Average = Literal["macro", "micro"] | None

#: Scores in column order (``fbeta`` only with ``beta=``), then the counts.
SCORES = (
    "precision",
    "recall",
    "f1",
    "fbeta",
    "silence",
    "noise",
    "sensitivity",
    "specificity",
    "selectivity",
    "accuracy",
)
COUNTS = ("support", "tp", "fp", "fn", "tn", "n_items", "missing_reference", "missing_rating")


@dataclass(frozen=True)
class Reference:
    """The reference as codes: per item its category (-1: none), the categories (those of
    the ratings, and any label only the reference uses), each annotation's code among them,
    and the reference's rater code (-1 for a Series)."""

    item_code: IntArray
    categories: pd.Index
    code: IntArray
    rater: int


def against(
    data: RatingData,
    gold: Any,
    *,
    beta: float | None = None,
    average: Average = None,
) -> pd.DataFrame:
    """Each rater against a reference: precision, recall, F1, silence, noise and the rest.

    For every rater and category, the category against the rest, over the items both the
    rater and the reference labelled: ``TP`` (both chose the category), ``FP`` (the rater
    did, the reference did not), ``FN`` (the reference did, the rater did not) and ``TN``.
    Gold-standard evaluation is the rare case where a reference annotation exists (Fort
    2011); the coefficients of agreement are for the others.

    Parameters
    ----------
    gold : column name, rater name, Series or DataFrame
        The reference: a column of a wide frame (it is the reference, not a rater), a rater
        of a long frame, a Series of labels indexed like the items (for a long frame with
        ``by=``, by item alone or by (group..., item)), or a DataFrame of reference labels
        with an ``item`` and a ``label`` column (and the ``by=`` columns, if it holds them,
        in front of ``item``), as a file of gold labels reads, or with one column indexed by
        item; reference items that are not among the ratings' items are ignored. (A wide
        frame needs two columns: to evaluate a single rater, keep the reference as a column
        beside it.)
    beta : float, optional
        Adds the column ``fbeta``, the F-measure that weighs recall ``beta`` times as much
        as precision (``beta=2`` favours recall, ``beta=0.5`` precision).
    average : {None, "macro", "micro"}, optional
        ``None``: one row per (rater, category). ``"macro"``: one row per rater, each score
        the mean of the categories' scores, skipping those that are undefined (nan).
        ``"micro"``: one row per rater, each score from the counts summed over categories;
        micro precision, recall, F and ``accuracy`` are then all the share of compared items
        on which the rater chose the reference's category (scikit-learn's
        ``accuracy_score``), and micro ``specificity`` pools the one-vs-rest negatives
        (``sum TN / sum (TN + FP)``). Per category (``None``), ``accuracy`` is the
        one-vs-rest ``(TP + TN) / n`` of that category, and ``"macro"`` averages it over the
        categories: it is not the share of items labelled right (use ``"micro"`` for that).

    Returns
    -------
    DataFrame
        Indexed by (``rater``, ``category``) (by ``rater`` alone with ``average``; with
        ``by=``, the group keys first), for the raters with a rating and each category of
        the ratings or the reference (per group with ``by=``, unless categories were
        declared). The last two columns are excluded from every score:

        =======================  ===================================================
        column                   holds
        =======================  ===================================================
        ``precision``            ``TP / (TP + FP)``
        ``recall``               ``TP / (TP + FN)``
        ``f1``                   their harmonic mean
        ``fbeta``                with ``beta=``: the F-beta measure
        ``silence``              ``1 - recall``: the reference's labels missed
        ``noise``                ``1 - precision``: the rater's labels that are wrong
        ``sensitivity``          recall
        ``specificity``          ``TN / (TN + FP)``
        ``selectivity``          precision
        ``accuracy``             ``(TP + TN) / n``
        ``support``              the reference's labels of the category compared
        ``tp``, ``fp``,          the one-vs-rest counts
        ``fn``, ``tn``
        ``n_items``              the items compared (labelled by both)
        ``missing_reference``    items the rater labelled and the reference left blank
        ``missing_rating``       items the reference labelled and the rater left blank
        =======================  ===================================================

    Raises
    ------
    ValueError
        ``gold`` names no rater, the Series shares no item with the ratings or repeats an
        item, it uses labels outside declared ``categories``, ``beta`` is not a positive
        number, ``average`` is not one of the above, or the ratings are a counts table.
    TypeError
        ``gold`` is a DataFrame.

    Warns
    -----
    UndefinedStatisticWarning
        Where precision is undefined (the rater never chose the category on the items
        compared), recall is undefined (the reference never did), specificity is undefined
        (the reference chose it on every item), or a rater shares no item with the
        reference. Those scores are nan, and macro averages skip them.

    Notes
    -----
    ``F_beta = (1 + beta^2) TP / ((1 + beta^2) TP + beta^2 FN + FP)`` is computed from the
    counts, as scikit-learn's ``precision_recall_fscore_support`` computes it: it equals
    ``(1 + beta^2) P R / (beta^2 P + R)`` where both are defined, is 0 when ``TP = 0`` and
    ``FP + FN > 0`` (also when one of precision or recall is undefined), and nan only when
    ``TP + FP + FN = 0``. The macro average skips undefined scores as scikit-learn does with
    ``zero_division=np.nan``; with ``labels=`` set to the categories listed here, its
    per-category and averaged precision, recall and F agree with these.

    References
    ----------
    Fort, K. (2011). Inter-Annotator Agreements (course slides): recall, silence,
    precision, noise, the F-measure and F-beta; sensitivity, specificity, selectivity and
    accuracy.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdagree
    >>> df = pd.DataFrame({
    ...     "gold": ["a", "a", "b", "b", "c", "c"],
    ...     "ann1": ["a", "b", "b", "b", "c", "c"],
    ...     "ann2": ["a", "a", "b", None, "b", "c"],
    ... })
    >>> df.agree.against("gold")[["precision", "recall", "f1", "support"]]
                   precision  recall        f1  support
    rater category
    ann1  a         1.000000     0.5  0.666667        2
          b         0.666667     1.0  0.800000        2
          c         1.000000     1.0  1.000000        2
    ann2  a         1.000000     1.0  1.000000        2
          b         0.500000     1.0  0.666667        1
          c         1.000000     0.5  0.666667        2
    >>> df.agree.against("gold", average="micro")[["precision", "n_items", "missing_rating"]]
           precision  n_items  missing_rating
    rater
    ann1    0.833333        6               0
    ann2    0.800000        5               1
    """
    enc = data.require_raters("against")
    beta = _check_beta(beta)
    if average not in (None, "macro", "micro"):
        raise ValueError(f"`average` must be None, 'macro' or 'micro'; got {average!r}.")
    ref = reference(data, gold)
    # Raters numbered within their group (slots): (G, S, K) cells, S the most raters of a
    # group, not (G, R, K) (groups with raters of their own).
    slot, n_slots, _ = data.slots
    n_groups, k = enc.n_groups, len(ref.categories)
    rater = enc.rater if enc.rater is not None else np.zeros(0, dtype=np.int64)
    group = enc.group[enc.item]
    rows = rater != ref.rater
    key = group[rows] * n_slots + slot[rows]
    truth = ref.item_code[enc.item[rows]]
    compared = truth >= 0
    counts = K.one_vs_rest_counts(
        key[compared], ref.code[rows][compared], truth[compared], n_groups * n_slots, k
    )
    shape = (n_groups, n_slots, k)
    active = np.bincount(key, minlength=n_groups * n_slots).reshape(n_groups, n_slots) > 0
    used = _used_categories(data, ref, group)
    keep = active[:, :, None] & used[:, None, :]
    n = counts.n[:, 0].reshape(n_groups, n_slots)
    no_reference = np.bincount(key[~compared], minlength=n_groups * n_slots)
    labelled = np.bincount(enc.group, weights=ref.item_code >= 0, minlength=n_groups)
    per_rater = {
        "n_items": n,
        "missing_reference": as_float(no_reference.reshape(n_groups, n_slots)),
        "missing_rating": as_float(labelled[:, None] - n),
    }
    cells = K.OneVsRest(
        counts.tp.reshape(shape),
        counts.pred.reshape(shape),
        counts.true.reshape(shape),
        counts.n.reshape(shape),
    )
    _warn_undefined(data, ref, cells, keep, active, average)
    if average is None:
        return _per_category(data, ref, cells, keep, per_rater, beta)
    return _averaged(data, cells, keep, active, per_rater, beta, average)


def _check_beta(beta: object) -> float | None:
    if beta is None:
        return None
    if isinstance(beta, (bool, np.bool_)) or not isinstance(beta, (int, float, np.number)):
        raise TypeError(f"`beta` must be a positive number; got {plain(beta)!r}.")
    if not (np.isfinite(beta) and float(beta) > 0):
        raise ValueError(f"`beta` must be a positive number; got {plain(beta)!r}.")
    return float(beta)


# --------------------------------------------------------------------------- the reference


def reference(data: RatingData, gold: Any) -> Reference:
    """The reference named or given by ``gold``, as codes (see :class:`Reference`)."""
    enc = data.enc
    raters = data.rater_labels
    if isinstance(gold, pd.DataFrame):
        gold = _frame_labels(data, gold)
    if isinstance(gold, pd.Series):
        return _series_reference(data, gold)
    try:
        found = gold in raters
    except TypeError:  # unhashable
        found = False
    if not found:
        raise ValueError(
            f"`gold` must name a rater (a column of a wide frame, a rater of a long one) or be "
            f"a Series of labels indexed by item; got {plain(gold)!r}, and the raters are "
            f"{fmt(list(raters))}. With `raters=[...]`, list the reference's column too."
        )
    position = int(np.flatnonzero(raters.isin([gold]))[0])
    item_code = np.full(enc.n_items, -1, dtype=np.int64)
    mine = enc.rater == position
    item_code[enc.item[mine]] = enc.code[mine]
    return Reference(item_code, enc.categories, enc.code, position)


def _frame_labels(data: RatingData, gold: pd.DataFrame) -> pd.Series:
    """A reference frame as a Series of labels indexed by item: its ``item`` and ``label``
    columns (with the ``by=`` columns it holds in front of ``item``), or its one column."""
    columns = list(gold.columns)
    if "item" in columns and "label" in columns:
        keys = [col for col in data.enc.by if col in columns] + ["item"]
        labels: pd.Series = gold.set_index(keys)["label"]
        return labels
    if len(columns) == 1:
        only: pd.Series = gold[columns[0]]
        return only
    raise ValueError(
        "`gold` as a DataFrame needs an `item` and a `label` column (one reference label per "
        f"item), or a single column indexed by item; got columns {fmt(columns)}. Rename "
        "them, e.g. `gold.rename(columns={'doc': 'item', 'answer': 'label'})`."
    )


def _aligned(data: RatingData, gold: pd.Series) -> pd.Series:
    """``gold`` in item order (missing where it has no label for an item)."""
    if gold.index.has_duplicates:
        dup = gold.index[gold.index.duplicated()].unique()
        raise ValueError(
            f"`gold` must give each item one label; items {fmt(list(dup))} appear more than "
            "once in its index. Keep one reference label per item."
        )
    full = data.item_index()
    levels = gold.index.nlevels
    if levels == full.nlevels:
        target = full
    elif levels == data.enc.items.nlevels:
        target = data.enc.items
    elif levels < full.nlevels:  # items are (group..., item), the Series by item alone
        leading: Any = list(range(full.nlevels - levels))
        target = full.droplevel(leading)
    else:
        raise ValueError(
            f"`gold` has a {levels}-level index but items are identified by {full.nlevels} "
            f"level(s) {list(full.names)}; index the reference labels by item."
        )
    if not target.isin(gold.index).any():
        raise ValueError(
            f"`gold` shares no item with the ratings: its index starts {fmt(list(gold.index))}"
            f" and the items {fmt(list(target))}. Index the reference labels by item."
        )
    aligned: pd.Series = gold.astype(object).reindex(target)
    return aligned


def _series_reference(data: RatingData, gold: pd.Series) -> Reference:
    enc = data.enc
    values = _aligned(data, gold)
    present = values.notna().to_numpy()
    labels = pd.Index(pd.unique(values.to_numpy()[present]))
    extra = labels[~labels.isin(enc.categories)]
    categories = enc.categories
    if len(extra):
        if enc.declared:
            raise ValueError(
                f"`gold` uses labels missing from `categories`, e.g. {fmt(list(extra))}; add "
                "them to `categories` or drop those reference labels."
            )
        categories, _ = categories_of(enc.categories.append(extra), None, None)
    item_code = np.full(enc.n_items, -1, dtype=np.int64)
    item_code[present] = categories.get_indexer(pd.Index(values.to_numpy()[present]))
    code = categories.get_indexer(enc.categories)[enc.code].astype(np.int64)
    return Reference(item_code, categories, code, -1)


def _used_categories(data: RatingData, ref: Reference, group: IntArray) -> BoolArray:
    """Per group, the categories listed, (G, K): all of them, unless ``by=`` groups have
    their own (categories not declared), which are those of the group's ratings and
    reference labels."""
    enc = data.enc
    k = len(ref.categories)
    if enc.groups is None or enc.declared:
        return np.ones((enc.n_groups, k), dtype=bool)
    used = np.zeros((enc.n_groups, k), dtype=bool)
    used[group, ref.code] = True
    labelled = ref.item_code >= 0
    used[enc.group[labelled], ref.item_code[labelled]] = True
    return used


# --------------------------------------------------------------------------- labelled frames


def _raters(data: RatingData, where: tuple[Any, ...]) -> tuple[Any, ...]:
    """Cells (group, slot[, category]) as (group, rater code[, category])."""
    return (where[0], data.slot_raters[where[0], where[1]], *where[2:])


def _index(data: RatingData, categories: pd.Index, where: tuple[IntArray, ...]) -> pd.Index:
    """The (group..., rater[, category]) index of the (group, slot[, category]) cells
    ``where``."""
    enc = data.enc
    where = _raters(data, where)
    arrays: list[Any] = []
    names: list[Hashable] = []
    if enc.groups is not None:
        keys = enc.groups[where[0]]
        if isinstance(keys, pd.MultiIndex):
            for level in range(keys.nlevels):
                arrays.append(keys.get_level_values(level))
                names.append(keys.names[level])
        else:
            arrays.append(keys)
            names.append(enc.groups.name)
    arrays.append(data.rater_labels[where[1]])
    names.append("rater")
    if len(where) == 3:
        arrays.append(categories[where[2]])
        names.append("category")
    index: pd.Index
    if len(arrays) == 1:
        index = pd.Index(arrays[0], name="rater")
    else:
        index = pd.MultiIndex.from_arrays(arrays, names=names)
    return index


def _frame(
    scores: dict[str, FloatArray],
    counts: dict[str, FloatArray],
    select: BoolArray,
    index: pd.Index,
) -> pd.DataFrame:
    columns: dict[str, Any] = {name: scores[name][select] for name in SCORES if name in scores}
    for name in COUNTS:
        columns[name] = np.rint(counts[name][select]).astype(np.int64)
    return pd.DataFrame(columns, index=index)


def _per_category(
    data: RatingData,
    ref: Reference,
    cells: K.OneVsRest,
    keep: BoolArray,
    per_rater: dict[str, FloatArray],
    beta: float | None,
) -> pd.DataFrame:
    shape = keep.shape
    counts = {
        "support": cells.true,
        "tp": cells.tp,
        "fp": cells.fp,
        "fn": cells.fn,
        "tn": cells.tn,
        **{name: np.broadcast_to(x[:, :, None], shape) for name, x in per_rater.items()},
    }
    index = _index(data, ref.categories, np.nonzero(keep))
    return _frame(K.scores(cells, beta), counts, keep, index)


def _averaged(
    data: RatingData,
    cells: K.OneVsRest,
    keep: BoolArray,
    active: BoolArray,
    per_rater: dict[str, FloatArray],
    beta: float | None,
    average: str,
) -> pd.DataFrame:
    def total(x: FloatArray) -> FloatArray:
        return as_float(np.where(keep, x, 0.0).sum(axis=-1))

    summed = K.OneVsRest(total(cells.tp), total(cells.pred), total(cells.true), total(cells.n))
    if average == "micro":
        scores = K.scores(summed, beta)
        # Pooled one-vs-rest accuracy would be 1 - 2 (1 - acc) / K: micro accuracy is the
        # share of compared items labelled as the reference labels them (scikit-learn's
        # accuracy_score), the pooled TP over the items compared.
        n = per_rater["n_items"]
        scores["accuracy"] = as_float(np.where(n > 0, summed.tp / np.where(n > 0, n, 1.0), np.nan))
    else:
        per_category = K.scores(cells, beta)
        scores = {
            name: K.nan_mean(per_category[name], keep)
            for name in ("precision", "recall", "f1", "fbeta", "specificity", "accuracy")
            if name in per_category
        }
        scores.update(
            silence=1.0 - scores["recall"],
            noise=1.0 - scores["precision"],
            sensitivity=scores["recall"],
            selectivity=scores["precision"],
        )
    counts = {
        "support": summed.true,
        "tp": summed.tp,
        "fp": summed.fp,
        "fn": summed.fn,
        "tn": summed.tn,
        **per_rater,
    }
    index = _index(data, pd.Index([]), np.nonzero(active))
    return _frame(scores, counts, active, index)


# --------------------------------------------------------------------------- warnings


def _warn_undefined(
    data: RatingData,
    ref: Reference,
    cells: K.OneVsRest,
    keep: BoolArray,
    active: BoolArray,
    average: Average,
) -> None:
    n = cells.n[:, :, 0]
    alone = active & (n == 0)
    if alone.any():
        g, r = np.nonzero(alone)
        who = [_cell(data, ref, (gi, ri)) for gi, ri in zip(g[:5], r[:5], strict=True)]
        warn(
            f"`against`: {int(alone.sum())} rater(s) share no item with the reference, e.g. "
            f"{fmt(who)}; their scores are nan. Check that the reference covers their items."
        )
    if average == "micro":
        return
    compared = keep & (n[:, :, None] > 0)
    parts = []
    for what, bad in (
        ("precision (the rater never chose the category)", cells.pred == 0),
        ("recall (the reference never chose it)", cells.true == 0),
        ("specificity (the reference chose it on every item)", cells.true == cells.n),
    ):
        where = np.nonzero(compared & bad)
        if len(where[0]):
            # the first three cells only (not a tuple for each of possibly millions)
            shown = [_cell(data, ref, c) for c in zip(*(w[:3] for w in where), strict=True)]
            parts.append(f"{what} for {len(where[0])}, e.g. {fmt(shown)}")
    if parts:
        total = int(compared.sum())
        warn(
            f"`against` is undefined for some of the {total} (rater, category) pairs: "
            f"{'; '.join(parts)}. Those scores are nan, and macro averages skip them."
        )


def _cell(data: RatingData, ref: Reference, where: tuple[Any, ...]) -> Any:
    """A (group..., rater[, category]) label for messages, of a (group, slot[, category])
    cell."""
    enc = data.enc
    where = _raters(data, where)
    label: list[Any] = []
    if enc.groups is not None:
        key = enc.groups[int(where[0])]
        label.extend(key if isinstance(key, tuple) else (key,))
    label.append(data.rater_labels[int(where[1])])
    if len(where) == 3:
        label.append(ref.categories[int(where[2])])
    plain = [x.item() if isinstance(x, np.generic) else x for x in label]
    return plain[0] if len(plain) == 1 else tuple(plain)
