"""Rosenberg & Binkowski's (2004) kappa for primary and secondary labels, its sweep over the
weight ``p``, per-item classes and per-label agreement.

Each function's docstring is the documentation of the :class:`pdagree.Ratings` method of the
same name. The counting and the pairwise sums are pure numpy in
:mod:`pdagree._kernels.multilabel`; here are the options, their checks and the labels.

The contract (issue 10, reconstructing the two formulas the paper's extracted text lost, and
checked against the paper's prose and against Cohen's kappa): annotator ``A``'s annotation
matrix ``M_A`` (items x labels) holds 1 where ``A`` gave a single label, ``p`` for ``A``'s
primary and ``1 - p`` for ``A``'s secondary label, 0 elsewhere (0.5 <= p <= 1). For a pair
``(A, B)`` and the ``N`` items both annotated: ``Ag = M_A ∘ M_B``, ``p(A) = sum(Ag) / N``,
``Freq_A = colsum(M_A) / N`` over the same items, ``p(E) = sum_y Freq_A[y] Freq_B[y]`` and
``kappa = (p(A) - p(E)) / (1 - p(E))``. With ``p = 1``, or without secondary labels, ``M_A``
is the one-hot matrix of ``A``'s primary labels and this is Cohen's kappa.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from .._errors import RatersNeeded
from .._kernels import agreement as K
from .._kernels import multilabel as KM
from .._typing import BoolArray, FloatArray, IntArray
from ..encoding import fmt, plain
from ..tensors.data import MAX_PAIR_CELLS, RatingData
from .base import MIN_SHARED_ITEMS, Components

__all__ = [
    "DEFAULT_P",
    "SWEEP",
    "MultilabelItems",
    "check_p",
    "check_ps",
    "classify_items",
    "multilabel",
    "multilabel_items",
    "multilabel_labels",
    "multilabel_sweep",
]

#: The default weight of a primary label: the middle of the paper's range [0.5, 1].
DEFAULT_P = 0.75
#: The default sweep: p = 0.5, 0.55, ..., 1.0.
SWEEP: tuple[float, ...] = tuple(np.round(np.linspace(0.5, 1.0, 11), 2).tolist())
_P_RULE = "between 0.5 and 1 (the weight of a primary label; 1 - p goes to the secondary)"


def check_p(p: Any) -> float:
    """``p`` as a float in [0.5, 1]; a TypeError or ValueError naming the value otherwise."""
    if isinstance(p, bool) or not isinstance(p, (int, float, np.integer, np.floating)):
        raise TypeError(f"`p` must be a number {_P_RULE}; got {plain(p)!r}.")
    value = float(p)
    if not 0.5 <= value <= 1.0:  # nan too
        raise ValueError(f"`p` must be {_P_RULE}; got {plain(p)!r}.")
    return value


def check_ps(ps: Sequence[float] | None) -> FloatArray:
    """The values of ``p`` of a sweep, sorted and unique; :data:`SWEEP` for ``None``."""
    if ps is None:
        return np.asarray(SWEEP, dtype=np.float64)
    try:
        values = np.asarray(ps, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"`ps` must be a list of numbers {_P_RULE}; got {ps!r}.") from None
    if values.ndim != 1 or values.size == 0:
        raise ValueError(f"`ps` must be a non-empty list of numbers {_P_RULE}; got {ps!r}.")
    bad = values[~((values >= 0.5) & (values <= 1.0))]
    if bad.size:
        raise ValueError(f"`ps` must hold numbers {_P_RULE}; got {bad.tolist()!r}.")
    return np.unique(values)


# ---------------------------------------------------------------------------- pairs


class _Pairs(NamedTuple):
    """Every rater pair's ``p(A)``, ``p(E)`` and kappa, shape (P, G, R * R) (``a < b``)."""

    observed: FloatArray
    expected: FloatArray
    kappa: FloatArray


def _secondary(data: RatingData) -> IntArray:
    secondary = data.enc.secondary
    return np.full(len(data.enc.code), -1, dtype=np.int64) if secondary is None else secondary


def _rater(data: RatingData, method: str) -> tuple[IntArray, int]:
    """Per annotation its rater's slot within its group, and the slots per group
    (:attr:`RatingData.slots`: the rater codes, unless ``by=`` groups have raters of their
    own): pairs are kept per group and pair of slots, not per pair of all raters."""
    enc = data.require_raters(method)
    if enc.rater is None:  # pragma: no cover - require_raters refuses counts tables
        raise RatersNeeded("no raters")
    slot, n_slots, _ = data.slots
    return slot, n_slots


def _sums(
    data: RatingData, method: str, pairs: tuple[IntArray, IntArray] | None = None
) -> KM.PairSums:
    rater, width = _rater(data, method)
    enc = data.enc
    pairs_cells = enc.n_groups * width * width
    if pairs_cells > MAX_PAIR_CELLS:
        raise ValueError(
            f"`{method}()` keeps sums for every pair of the {width:,} raters "
            f"({pairs_cells:,} pairs{' over the groups' if enc.n_groups > 1 else ''}), too "
            "many for memory. Select fewer raters (`raters=[...]`, or a subset of a long "
            "frame) or split them with `by=`."
        )
    return KM.pair_sums(
        enc.group,
        enc.item,
        rater,
        enc.code,
        _secondary(data),
        enc.n_groups,
        width,
        enc.n_categories,
        pairs,
    )


def _pairs(data: RatingData, ps: FloatArray, method: str) -> _Pairs:
    enc = data.enc
    sums = _sums(data, method)
    observed, expected = KM.pair_components(sums, ps, enc.n_categories)
    width = _rater(data, method)[1]
    shape = (len(ps), enc.n_groups, width * width)
    # As pairwise() and light(): a pair sharing fewer than two items has no kappa.
    with np.errstate(invalid="ignore", divide="ignore"):
        kappa = np.where(
            sums.n_common >= MIN_SHARED_ITEMS, K.chance_corrected(observed, expected), np.nan
        )
    return _Pairs(observed.reshape(shape), expected.reshape(shape), kappa.reshape(shape))


def _pairwise_frame(kappa: FloatArray, raters: pd.Index) -> pd.DataFrame:
    """The raters x raters table of one group's pair kappas (``a < b`` given), symmetric,
    nan on the diagonal and where a pair shares no item."""
    r = len(raters)
    upper = kappa.reshape(r, r)
    table = np.where(np.triu(np.ones((r, r), dtype=bool), k=1), upper, upper.T)
    np.fill_diagonal(table, np.nan)
    return pd.DataFrame(table, index=raters, columns=pd.Index(raters))


def multilabel(data: RatingData, p: float = DEFAULT_P) -> Components:
    """Rosenberg & Binkowski's kappa for a primary and an optional secondary label.

    Each annotator may give an item a primary label and a secondary one (``rank=`` in a long
    frame, a tuple or list in a wide frame's cell, primary first). The secondary label is
    partial agreement, not a second vote: annotator ``A``'s annotation matrix ``M_A`` (items
    x labels) holds 1 for a single label, ``p`` for a primary and ``1 - p`` for its secondary
    label. For two annotators ``A``, ``B`` and the ``N`` items both annotated,
    ``p(A) = sum(M_A ∘ M_B) / N``, ``Freq_A = colsum(M_A) / N``,
    ``p(E) = sum_y Freq_A[y] Freq_B[y]`` and ``kappa = (p(A) - p(E)) / (1 - p(E))``. With
    ``p = 1`` (secondary labels ignored), or no secondary labels, it is Cohen's kappa on the
    primary labels. The ten pair types of the paper score, per item,
    ``{a,a}`` 1, ``{a,b}`` 0, ``{ab,a}`` p, ``{ab,b}`` 1 - p, ``{ab,c}`` 0,
    ``{ab,ab}`` p² + (1 - p)², ``{ab,ba}`` 2p(1 - p), ``{ab,ac}`` p², ``{ab,bc}`` p(1 - p),
    ``{ab,cd}`` 0.

    With more than two annotators the value is the mean kappa over the pairs (the paper's
    "average kappa across the annotators"), leaving out pairs that share no item or whose
    kappa is undefined (``p(E) = 1``), and ``n_pairs`` counts the pairs kept; ``observed``
    and ``expected`` are the means of ``p(A)`` and ``p(E)`` over the pairs that share an
    item (for two annotators, ``p(A)`` and ``p(E)`` themselves); ``pairwise`` is the raters x
    raters table of pair kappas (nan on the diagonal; not in ``by=`` frames). Unlike
    :meth:`cohen`, chance agreement uses each annotator's labels on the items the pair shares
    only, as the paper does, so on incomplete designs the two differ even at ``p = 1``.

    Parameters
    ----------
    p : float, default 0.75
        The weight of a primary label, between 0.5 (primary and secondary weigh the same) and
        1 (the secondary is ignored); a secondary label weighs ``1 - p``. The default is the
        middle of that range; :meth:`multilabel_sweep` shows every ``p`` at once.

    Raises
    ------
    ValueError
        ``p`` outside [0.5, 1]; a counts table (no rater identity).

    References
    ----------
    Rosenberg, A. & Binkowski, E. (2004), Augmenting the kappa statistic to determine
    interannotator reliability for multiply labeled data points, HLT-NAACL 2004.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdagree
    >>> wide = pd.DataFrame({"A": [("q", "a"), "q", "s", "a"], "B": [("a", "q"), "q", "s", "q"]})
    >>> r = wide.agree.multilabel(p=0.75)
    >>> round(float(r), 4), round(r.observed, 4), round(r.expected, 4)
    (0.358, 0.5938, 0.3672)
    >>> round(float(wide.agree.multilabel(p=1.0)), 4) == round(float(wide.agree.cohen()), 4)
    True
    """
    p = check_p(p)
    pairs = _pairs(data, np.array([p]), "multilabel")
    value, observed, expected, n_pairs = KM.pair_mean(
        pairs.kappa[0], pairs.observed[0], pairs.expected[0]
    )
    enc = data.enc
    members: dict[str, Any] = {}
    if enc.groups is None and enc.raters is not None:
        members["pairwise"] = _pairwise_frame(pairs.kappa[0, 0], enc.raters)
    return Components(
        f"multilabel[p={p:g}]",
        value,
        observed,
        expected,
        extra={"n_pairs": n_pairs.astype(np.int64), "p": np.full(enc.n_groups, p)},
        members=members,
    )


def _per_group(groups: pd.Index | None, inner: pd.Index) -> pd.Index:
    """``inner``, or with ``by=`` every (group keys..., inner) pair, group-major, each level
    keeping its dtype."""
    if groups is None:
        return inner
    n = len(inner)
    outer = [groups.get_level_values(i).repeat(n) for i in range(groups.nlevels)]
    values = inner.take(np.tile(np.arange(n), len(groups)))
    return pd.MultiIndex.from_arrays([*outer, values], names=[*groups.names, inner.name])


def multilabel_sweep(data: RatingData, ps: Sequence[float] | None = None) -> pd.DataFrame:
    """:meth:`multilabel` at several weights ``p``: how agreement moves as the secondary
    labels gain weight.

    The paper reads the sweep to see how annotators use the optional secondary label: kappa
    that falls as ``p`` goes from 1 to 0.5 means the secondary labels disagree more than the
    primaries (its corpus: 0.299 at ``p = 1``, 0.281 at ``p = 0.5``).

    Parameters
    ----------
    ps : list of float, optional
        The weights, each in [0.5, 1]; default 0.5, 0.55, ..., 1.0. Sorted, repeats dropped.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``p`` (with ``by=``: by group keys, then ``p``);
        :func:`pdagree.multilabel.plot_sweep` draws it:

        ============  ==========================================
        column        holds
        ============  ==========================================
        ``kappa``     the mean over annotator pairs
        ``observed``  the pairs' mean ``p(A)``
        ``expected``  the pairs' mean ``p(E)``
        ============  ==========================================

    Examples
    --------
    >>> import pandas as pd
    >>> import pdagree
    >>> wide = pd.DataFrame({"A": [("q", "a"), "q", "s", "a"], "B": [("a", "q"), "q", "s", "q"]})
    >>> wide.agree.multilabel_sweep(ps=[0.5, 0.75, 1.0]).round(4)
           kappa  observed  expected
    p
    0.50  0.4286    0.6250    0.3438
    0.75  0.3580    0.5938    0.3672
    1.00  0.2000    0.5000    0.3750
    """
    values = check_ps(ps)
    pairs = _pairs(data, values, "multilabel_sweep")
    kappa, observed, expected, _ = KM.pair_mean(pairs.kappa, pairs.observed, pairs.expected)
    # (P, G) -> group-major rows, as the index
    return pd.DataFrame(
        {"kappa": kappa.T.ravel(), "observed": observed.T.ravel(), "expected": expected.T.ravel()},
        index=_per_group(data.enc.groups, pd.Index(values, name="p")),
    )


# ---------------------------------------------------------------------------- items


class MultilabelItems(NamedTuple):
    """Per-item kappa across a sweep of ``p`` and the paper's item classes.

    Attributes
    ----------
    kappa : pandas.DataFrame
        Items x ``p``: each item's kappa (the mean over the annotator pairs who both
        annotated it); nan for an item fewer than two annotators annotated.
    classes : pandas.Series
        Per item, one of the four classes (a Categorical in the paper's order), missing for an
        item without a kappa.
    counts : pandas.Series or pandas.DataFrame
        Items per class (all four, zeros included); with ``by=``, a frame with one row per
        group.
    """

    kappa: pd.DataFrame
    classes: pd.Series
    counts: pd.Series | pd.DataFrame


def classify_items(kappa: pd.DataFrame, *, high: float = 0.6, tolerance: float = 0.1) -> pd.Series:
    """The paper's four classes for an items x ``p`` table of per-item kappa.

    With ``lo`` and ``hi`` the smallest and largest ``p`` (columns) and ``d = kappa(hi) -
    kappa(lo)``: ``d > tolerance`` is "higher at p=<hi>", ``d < -tolerance`` "higher at
    p=<lo>", otherwise the item's kappa is nearly constant, "constant high" when its mean over
    the sweep is at least ``high`` and "constant low" below. Missing where ``kappa(lo)`` or
    ``kappa(hi)`` is nan.
    """
    tolerance = _check_threshold(tolerance, "tolerance", minimum=0.0)
    high = _check_threshold(high, "high")
    ps = np.asarray(kappa.columns, dtype=np.float64)
    if len(ps) < 2:
        raise ValueError(
            "the item classes compare kappa at the two ends of a sweep; `ps` needs at least "
            f"two values of p, got {ps.tolist()!r}."
        )
    values = kappa.to_numpy(dtype=np.float64)[:, np.argsort(ps)]
    lo, hi = np.sort(ps)[[0, -1]]
    names = ["constant high", "constant low", f"higher at p={hi:g}", f"higher at p={lo:g}"]
    change = values[:, -1] - values[:, 0]
    usable = ~np.isnan(values)
    with np.errstate(invalid="ignore", divide="ignore"):
        level = np.where(usable, values, 0.0).sum(axis=1) / usable.sum(axis=1)
    code = np.where(level >= high, 0, 1)
    code = np.where(change > tolerance, 2, np.where(change < -tolerance, 3, code))
    code = np.where(np.isnan(change), -1, code)
    classes = pd.Categorical.from_codes(code.astype(np.int64), categories=pd.Index(names))
    return pd.Series(classes, index=kappa.index, name="class")


def _check_threshold(value: Any, name: str, minimum: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"`{name}` must be a number; got {plain(value)!r}.")
    out = float(value)
    if not np.isfinite(out) or (minimum is not None and out < minimum):
        rule = "a finite number" if minimum is None else f"a finite number >= {minimum:g}"
        raise ValueError(f"`{name}` must be {rule}; got {plain(value)!r}.")
    return out


def multilabel_items(
    data: RatingData,
    ps: Sequence[float] | None = None,
    *,
    high: float = 0.6,
    tolerance: float = 0.1,
) -> MultilabelItems:
    """Each item's kappa across a sweep of ``p``, and the paper's four classes of items.

    An item's kappa for a pair of annotators is its own agreement ``sum_y Ag[x, y]`` (1 for
    ``{a,a}``, ``p`` for ``{ab,a}``, ...; see :meth:`multilabel`) against the pair's chance
    agreement: ``(sum_y Ag[x, y] - p(E)) / (1 - p(E))``; with more than two annotators, the
    mean over the pairs who both annotated it. Following the paper, the items fall into four
    classes by how their kappa moves between the ends of the sweep (by default ``p = 0.5``
    and ``p = 1``); the paper's corpus had 92, 183, 58 and 47 of 380 messages in them:

    1. "constant high": nearly constant, high: consistently given a single label; clear
       examples of their label.
    2. "constant low": nearly constant, low: annotated inconsistently whether or not a
       secondary label is used; material for revising the guidelines or the labels.
    3. "higher at p=1": annotators agree on the primary label but use the secondary one
       inconsistently.
    4. "higher at p=0.5": annotators switch primary and secondary (``{ab,ba}``): messages
       with two concurrent features.

    Parameters
    ----------
    ps : list of float, optional
        The sweep, as in :meth:`multilabel_sweep` (at least two values).
    high : float, default 0.6
        A nearly constant item is "constant high" when its mean kappa over the sweep is at
        least ``high``, else "constant low". 0.6 is the paper's threshold for a message whose
        label is usable in a machine-learning experiment (kappa > 0.6).
    tolerance : float, default 0.1
        The largest change of an item's kappa between the two ends of the sweep that still
        counts as nearly constant; larger rises make "higher at p=1", larger falls "higher
        at p=0.5".

    Returns
    -------
    MultilabelItems
        ``kappa`` (items x ``p``), ``classes`` (a labelled Series) and ``counts`` (items per
        class; with ``by=``, one row per group). Items fewer than two annotators annotated
        have no kappa and no class.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdagree
    >>> wide = pd.DataFrame({"A": [("q", "a"), "q", "s", "a"], "B": [("a", "q"), "q", "s", "q"]})
    >>> items = wide.agree.multilabel_items()
    >>> items.classes.tolist()
    ['higher at p=0.5', 'constant high', 'constant high', 'constant low']
    >>> items.counts.tolist()
    [2, 1, 0, 1]
    """
    values = check_ps(ps)
    rater, r = _rater(data, "multilabel_items")
    enc = data.enc
    secondary = _secondary(data)
    u, v = KM.annotation_pairs(enc.item, rater)
    sums = _sums(data, "multilabel_items", (u, v))
    _, expected = KM.pair_components(sums, values, enc.n_categories)
    agree = KM.pair_agreement(u, v, enc.code, secondary)
    pair = (enc.group[enc.item[u]] * r + rater[u]) * r + rater[v]
    per_item = KM.item_kappa(agree, values, expected, pair, enc.item[u], enc.n_items)
    table = pd.DataFrame(
        per_item.T, index=data.item_index(), columns=pd.Index(values.tolist(), name="p")
    )
    classes = classify_items(table, high=high, tolerance=tolerance)
    code = classes.cat.codes.to_numpy().astype(np.int64)
    names = pd.Index(classes.cat.categories, name="class")
    classified = code >= 0
    tally = np.bincount(
        enc.group[classified] * len(names) + code[classified],
        minlength=enc.n_groups * len(names),
    ).reshape(enc.n_groups, len(names))
    counts: pd.Series | pd.DataFrame
    if enc.groups is None:
        counts = pd.Series(tally[0], index=names, name="items")
    else:
        counts = pd.DataFrame(tally, index=enc.groups, columns=names)
    return MultilabelItems(table, classes, counts)


# ---------------------------------------------------------------------------- labels


def _label_subsets(data: RatingData, labels: Sequence[Any] | None) -> tuple[pd.Index, BoolArray]:
    """The rows of :func:`multilabel_labels` and the labels each one merges, (rows, K)."""
    cats = data.enc.categories
    if labels is None:
        return pd.Index(cats, name="label"), np.eye(len(cats), dtype=bool)
    if isinstance(labels, (str, bytes)) or not isinstance(labels, Sequence):
        raise TypeError(
            "`labels` must be a list whose entries are labels or lists of labels (merged into "
            f"one); got {labels!r}. Wrap a single label in a list: labels=[{labels!r}]."
        )
    names: list[Hashable] = []
    member = np.zeros((len(labels), len(cats)), dtype=bool)
    for row, entry in enumerate(labels):  # over the rows the user asked for, not over data
        merged = isinstance(entry, (list, tuple, set, frozenset))
        group = list(entry) if merged else [entry]
        codes = cats.get_indexer(pd.Index(group, dtype=object))
        if not group or (codes < 0).any():
            unknown = [g for g, c in zip(group, codes, strict=True) if c < 0]
            raise ValueError(
                f"`labels` entries must be labels of the data or non-empty lists of them; "
                f"{plain(entry)!r} has {fmt(unknown) if unknown else 'none'}. The labels are "
                f"{fmt(list(cats))}."
            )
        names.append(tuple(group) if merged else entry)
        member[row, codes] = True
    index = pd.Index(names, dtype=object, name="label", tupleize_cols=False)
    if index.has_duplicates:
        raise ValueError(f"`labels` must not repeat an entry; got {labels!r}.")
    return index, member


def _subset_sums(data: RatingData, member: BoolArray) -> KM.PairSums:
    """:func:`pdagree._kernels.multilabel.pair_sums` of one copy of the data per row of
    ``member`` (copy ``s`` in group ``g * rows + s``), its labels 1 (in the row's subset) or 0:
    a primary and a secondary on the same side become one label of weight 1."""
    enc = data.enc
    rows = len(member)
    copy = np.arange(rows)[:, None]
    secondary = _secondary(data)
    rater, width = _rater(data, "multilabel_labels")
    has = secondary >= 0
    inside = member[:, enc.code].astype(np.int64)
    second = np.where(has, member[:, np.where(has, secondary, 0)], -1).astype(np.int64)
    second = np.where(second == inside, -1, second)
    return KM.pair_sums(
        (enc.group[None, :] * rows + copy).ravel(),
        (copy * enc.n_items + enc.item[None, :]).ravel(),
        np.tile(rater, rows),
        inside.ravel(),
        second.ravel(),
        enc.n_groups * rows,
        width,
        2,
    )


def multilabel_labels(
    data: RatingData, p: float = DEFAULT_P, labels: Sequence[Any] | None = None
) -> pd.DataFrame:
    """Agreement on each label, one against the rest: which labels annotators agree on.

    For a label ``y`` each annotator's annotation matrix becomes two columns, ``y`` and not
    ``y``: ``m_A = M_A[x, y]`` (1, ``p`` or ``1 - p`` when ``A`` gave ``y``, else 0) and
    ``1 - m_A``. Then ``p(A) = (1 / N) sum_x [m_A m_B + (1 - m_A)(1 - m_B)]`` and
    ``p(E) = f_A f_B + (1 - f_A)(1 - f_B)`` with ``f_A = (1 / N) sum_x m_A`` over the pair's
    ``N`` common items: :meth:`multilabel` on the two labels. At ``p = 1`` (or without
    secondary labels) it is Cohen's kappa of "labelled ``y``" against "not". A pair in which
    neither annotator gave ``y`` has no kappa for it and is left out of the label's mean.

    Parameters
    ----------
    p : float, default 0.75
        The weight of a primary label, as in :meth:`multilabel`.
    labels : list, optional
        The rows: each entry a label, or a list or tuple of labels merged into one (an
        annotator's weights on its labels add up, so a primary and a secondary both in the
        subset give 1). Default: every label on its own. Merging shows whether annotators
        agree on a broader label, e.g. several planning labels taken as one.

    Returns
    -------
    pandas.DataFrame
        One row per label or subset (with ``by=``: per group and label):

        ============  ==========================================
        column        holds
        ============  ==========================================
        ``kappa``     the mean over annotator pairs
        ``observed``  the pairs' mean ``p(A)``
        ``expected``  the pairs' mean ``p(E)``
        ``n_pairs``   the annotator pairs averaged
        ============  ==========================================

    Examples
    --------
    >>> import pandas as pd
    >>> import pdagree
    >>> wide = pd.DataFrame({"A": [("q", "a"), "q", "s", "a"], "B": [("a", "q"), "q", "s", "q"]})
    >>> wide.agree.multilabel_labels(p=1.0)["kappa"].round(4).tolist()
    [-0.3333, 0.0, 1.0]
    >>> wide.agree.multilabel_labels(p=1.0, labels=[["a", "q"], "s"])["kappa"].tolist()
    [1.0, 1.0]
    """
    p = check_p(p)
    index, member = _label_subsets(data, labels)
    enc = data.enc
    width = _rater(data, "multilabel_labels")[1]
    rows, rr = len(index), width * width
    if (member.sum(axis=1) == 1).all():  # labels on their own: one pass over all labels
        sums = _sums(data, "multilabel_labels")
        pair, label, observed, expected = KM.one_vs_rest(sums, np.array([p]), enc.n_categories)
        row_of = np.full(enc.n_categories, -1)
        row_of[member.argmax(axis=1)] = np.arange(rows)
        row, group = row_of[label], pair // rr
    else:  # merged labels: one copy of the data per row, in one pass
        pair, label, observed, expected = KM.one_vs_rest(
            _subset_sums(data, member), np.array([p]), 2
        )
        group, row = np.divmod(pair // rr, rows)
        row = np.where(label == 1, row, -1)  # the row's subset against the rest
    keep = row >= 0
    cell = group[keep] * rows + row[keep]
    kappa = K.chance_corrected(observed[0, keep], expected[0, keep])
    usable = ~np.isnan(kappa)
    size = enc.n_groups * rows
    n_pairs = np.bincount(cell, weights=usable.astype(np.float64), minlength=size)

    def mean(x: FloatArray) -> FloatArray:  # over the pairs with a kappa
        total = np.bincount(cell, weights=np.where(usable, x, 0.0), minlength=size)
        return np.asarray(total / n_pairs, dtype=np.float64)

    with np.errstate(invalid="ignore", divide="ignore"):
        columns = {
            "kappa": mean(kappa),
            "observed": mean(observed[0, keep]),
            "expected": mean(expected[0, keep]),
        }
    frame = pd.DataFrame(
        {**columns, "n_pairs": n_pairs.astype(np.int64)},
        index=_per_group(enc.groups, index),
    )
    return frame
