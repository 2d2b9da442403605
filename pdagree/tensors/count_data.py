"""Rating data from count tensors alone: what a tally keeps and a Dask frame reduces to.

:func:`count_data` applies pdagree's rules to a :class:`~pdagree.counting.state.Counts`, once:
labels to categories (:func:`~pdagree.encoding._labels.encode_labels` on the distinct labels
counted), items and raters in the order of the pandas path, ``by=`` groups; and builds a
:class:`CountData`: the non-zero cells of ``n_ik`` as the entries of an
:class:`~pdagree.encoding.Encoded` weighted by their counts, and the raters' category counts
``n_gck`` as a given tensor. Every definition that reads only these (and the tensors derived
from them, Gwet's analytic variances of the Fleiss-type coefficients included) runs
unchanged; one that needs each annotation's rater and item together (the rater-pair tables,
Conger's per-item variance, the item bootstrap) gets an :class:`AnnotationsNeeded` error
instead of a wrong number.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NoReturn

import numpy as np
import pandas as pd

from .._errors import AnnotationsNeeded, ItemsNeeded
from .._typing import BoolArray, FloatArray, IntArray
from ..counting import KeyCounts, unpack
from ..counting.profiles import Profiles, distinct_rows
from ..counting.state import Counts, repeated_error
from ..encoding import (
    DtypeCategories,
    Encoded,
    LayoutSpec,
    categories_of,
    check_label_markers,
    encode_labels,
    factorize_columns,
    fmt,
    group_codes,
)
from .data import RatingData
from .slots import pair_keys, slot_table

__all__ = [
    "AnnotationsNeeded",
    "CountData",
    "ItemsNeeded",
    "NoAnnotations",
    "RaterCells",
    "check_declared",
    "count_data",
    "label_codes",
    "needs_annotations",
    "needs_items",
    "profile_data",
]


def needs_annotations(what: str) -> AnnotationsNeeded:
    """The error for ``what`` (e.g. "`light()`") on count tensors."""
    return AnnotationsNeeded(
        f"{what} needs each annotation's item and rater together (rater-pair tables, per-item "
        "variances of each rater, the item bootstrap), and a tally or a Dask frame keeps count "
        "tensors only (ratings per item and category, per rater and category). Run it on the "
        "pandas path: on the whole frame, `ddf.compute().agree(...)` or "
        "`pd.concat(batches).agree(...)`, if it fits in memory, or on a sample of items, "
        "e.g. `ddf[ddf[item].isin(some_items)].compute().agree(...)`."
    )


def needs_items(what: str) -> ItemsNeeded:
    """The error for ``what`` on a Dask frame whose items were reduced to distinct rows of
    counts (the default): the way out is ``keep_items=True``."""
    return ItemsNeeded(
        f"{what} reads the items one by one, and the Dask engine sent the client each group's "
        "distinct rows of counts with how many items have them, not the items (which keeps "
        "the client's memory independent of the number of items). Pass `keep_items=True` "
        "to `ddf.agree(...)` to receive the items (memory on the client in proportion to "
        "them), or run it on the pandas path."
    )


#: The largest dense (groups, raters, categories) tensor built from count tensors (1 GiB of
#: float64): ``by=`` groups with raters of their own need few of its cells.
MAX_RATER_CELLS = 1 << 27


@dataclass(frozen=True, eq=False)
class RaterCells:
    """The non-zero cells of ``n_gck`` (ratings of rater ``c`` in category ``k`` within group
    ``g``): ``group``, ``rater``, ``code`` and ``count`` per cell, and the tensor's
    ``shape`` (G, R, K). With ``by=`` groups that have raters of their own, the cells are
    the (group, rater) pairs that occur, where the dense tensor is groups x all raters."""

    group: IntArray
    rater: IntArray
    code: IntArray
    count: FloatArray
    shape: tuple[int, int, int]

    def dense(self) -> FloatArray:
        """The (G, R, K) tensor, refused before it is allocated when too large."""
        n_groups, n_raters, n_categories = self.shape
        cells = n_groups * n_raters * n_categories
        if cells > MAX_RATER_CELLS:
            self._refuse(n_groups, n_raters, n_categories)
        flat = (self.group * n_raters + self.rater) * n_categories + self.code
        total = np.bincount(flat, weights=self.count, minlength=cells)
        out: FloatArray = total.reshape(self.shape).astype(np.float64)
        return out

    def on_slots(self, pairs: IntArray, slot: IntArray, n_slots: int) -> FloatArray:
        """The (G, S, K) tensor on the raters numbered within their group: ``pairs`` the
        sorted ``group * R + rater`` keys of the raters with a rating, ``slot`` theirs."""
        n_groups, n_raters, n_categories = self.shape
        cells = n_groups * n_slots * n_categories
        if cells > MAX_RATER_CELLS:
            self._refuse(n_groups, n_slots, n_categories)
        rated = self.count > 0
        at = np.searchsorted(pairs, self.group[rated] * n_raters + self.rater[rated])
        flat = (self.group[rated] * n_slots + slot[at]) * n_categories + self.code[rated]
        total = np.bincount(flat, weights=self.count[rated], minlength=cells)
        out: FloatArray = total.reshape(n_groups, n_slots, n_categories).astype(np.float64)
        return out

    @staticmethod
    def _refuse(n_groups: int, n_raters: int, n_categories: int) -> NoReturn:
        cells = n_groups * n_raters * n_categories
        raise ValueError(
            f"this analysis needs the table of {n_groups:,} groups x {n_raters:,} raters x "
            f"{n_categories} categories ({cells * 8 / 2**30:.1f} GiB), which is too large "
            "for counts; fleiss, bennett, gwet, alpha, observed and spa work without it. "
            "Split the raters' groups into tallies of their own, or run it on the pandas "
            "path."
        )

    def active(self) -> FloatArray:
        """Raters with a rating, per group, from the cells alone."""
        n_groups, n_raters, _ = self.shape
        pairs = np.unique(self.group[self.count > 0] * n_raters + self.rater[self.count > 0])
        return np.bincount(pairs // n_raters, minlength=n_groups).astype(np.float64)

    def subset(self, groups: IntArray, categories: BoolArray) -> RaterCells:
        """The cells of the groups ``groups`` (distinct) and the categories ``categories``."""
        n_groups, n_raters, n_categories = self.shape
        new_group = np.full(n_groups, -1, dtype=np.int64)
        new_group[groups] = np.arange(len(groups), dtype=np.int64)
        new_code = np.full(n_categories, -1, dtype=np.int64)
        new_code[categories] = np.arange(int(categories.sum()), dtype=np.int64)
        g, k = new_group[self.group], new_code[self.code]
        keep = (g >= 0) & (k >= 0)
        shape = (len(groups), n_raters, int(categories.sum()))
        return RaterCells(g[keep], self.rater[keep], k[keep], self.count[keep], shape)


class CountData(RatingData):
    """:class:`~pdagree.definitions.RatingData` from count tensors.

    ``enc`` holds the non-zero ``n_ik`` cells as entries (``weight``: their counts) and no
    per-entry rater (``enc.rater is None``, ``enc.raters`` the rater labels); ``nck`` is the
    (G, R, K) tensor of the raters' category counts per group, given or built on first use
    from its non-zero cells (:class:`RaterCells`, which is what the coefficients that need
    only the raters per group read).
    """

    __slots__ = ()

    def __init__(
        self, enc: Encoded, nck: FloatArray | RaterCells, category_mask: Any = "auto"
    ) -> None:
        super().__init__(enc, category_mask)
        if isinstance(nck, RaterCells):
            self.__dict__["rater_cells"] = nck
        else:
            self.__dict__["rater_cells"] = None
            self.__dict__["nck"] = np.asarray(nck, dtype=np.float64)

    def __reduce__(self) -> tuple[Any, ...]:
        cells = self.__dict__["rater_cells"]
        return (CountData, (self.enc, self.nck if cells is None else cells, self._given_mask))

    @cached_property
    def nck(self) -> FloatArray:
        """``n_gck`` (G, S, K) on the slots (:attr:`slots`), built from the cells on first
        use: (G, R, K) unless ``by=`` groups have raters of their own."""
        cells: RaterCells = self.__dict__["rater_cells"]
        _, n_slots, table = self.slots
        if table is None:
            return cells.dense()
        _, key_group, key_rater, key_slot = self.rater_keys
        return cells.on_slots(key_group * cells.shape[1] + key_rater, key_slot, n_slots)

    @cached_property
    def rater_keys(self) -> tuple[IntArray, IntArray, IntArray, IntArray]:
        """The (group, rater) pairs with a rating, from the cells (no per-annotation key:
        counts keep no annotations); without ``by=``, every rater."""
        cells: RaterCells | None = self.__dict__["rater_cells"]
        enc = self.enc
        none = np.zeros(0, dtype=np.int64)
        if cells is None or enc.groups is None:
            every = np.arange(enc.n_raters, dtype=np.int64)
            return none, np.zeros(enc.n_raters, dtype=np.int64), every, every
        n_raters = cells.shape[1]
        rated = cells.count > 0
        pairs = np.unique(cells.group[rated] * n_raters + cells.rater[rated])
        return none, *pair_keys(pairs, n_raters, enc.n_groups)

    @cached_property
    def slots(self) -> tuple[IntArray, int, IntArray | None]:
        """The raters numbered within their group, as :attr:`RatingData.slots`, from the
        cells: ``by=`` groups with raters of their own need ``G x S`` cells, not ``G x R``."""
        enc = self.enc
        none = np.zeros(0, dtype=np.int64)
        if self.__dict__["rater_cells"] is None or enc.groups is None or enc.n_groups < 2:
            return none, enc.n_raters, None
        _, key_group, key_rater, key_slot = self.rater_keys
        n_slots, table = slot_table(key_group, key_rater, key_slot, enc.n_groups, enc.n_raters)
        return none, n_slots, table

    @cached_property
    def active_raters(self) -> FloatArray:
        """Raters with a rating, per group: those with a non-zero row in ``n_gck``."""
        cells: RaterCells | None = self.__dict__["rater_cells"]
        if cells is not None:
            return cells.active()
        counts = (self.nck.sum(axis=-1) > 0).sum(axis=-1)
        return np.asarray(counts, dtype=np.float64)

    @property
    def pair_margins(self) -> NoReturn:
        raise needs_annotations("the rater-pair tables (`light()`, `pairwise()`)")

    @property
    def pair_agreements(self) -> NoReturn:
        raise needs_annotations("the rater-pair tables (`light()`, `pairwise()`)")

    def pair_confusion(self, first: IntArray, second: IntArray) -> NoReturn:
        raise needs_annotations("a contingency table of two raters")

    def require_items(self, what: str) -> None:
        raise needs_annotations(what)

    @property
    def profiles(self) -> bool:
        """Whether the items are distinct rows of counts with multiplicities
        (:func:`profile_data`), not the items themselves."""
        return self.enc.multiplicity is not None

    @property
    def item_weight(self) -> FloatArray | None:
        return self.enc.multiplicity

    @property
    def n_items(self) -> int:
        m = self.enc.multiplicity
        return self.enc.n_items if m is None else round(float(m.sum()))

    def require_rows(self, what: str) -> None:
        if self.profiles:
            raise needs_items(what)

    def subset(self, groups: IntArray, categories: BoolArray) -> tuple[RatingData, IntArray]:
        sub, items = super().subset(groups, categories)
        cells: RaterCells | None = self.__dict__["rater_cells"]
        if cells is not None and len(np.unique(groups)) == len(groups):
            return CountData(sub.enc, cells.subset(groups, categories), None), items
        nck = self.nck[groups][:, :, categories]
        return CountData(sub.enc, nck, category_mask=None), items


class NoAnnotations:
    """Stands in for the data of a result computed from counts, so that asking the result
    for what counts cannot give afterwards (``r.standard_error(method="bootstrap")``)
    explains why."""

    __slots__ = ("_what",)

    def __init__(self, what: str) -> None:
        self._what = what

    def __getattr__(self, name: str) -> NoReturn:
        raise needs_annotations(self._what)


def label_codes(
    labels: pd.Index,
    totals: FloatArray,
    categories: Sequence[Hashable] | None,
    from_dtype: DtypeCategories | None,
    where: str,
) -> tuple[IntArray, pd.Index, bool]:
    """The category code of each distinct label, the categories and whether their order is
    declared, by the rules of the pandas path; ``totals``: the ratings per label (for the
    message about labels missing from ``categories``)."""
    values = np.asarray(labels, dtype=object)
    try:
        return encode_labels(values, categories, from_dtype, where)
    except ValueError as exc:
        if "use labels missing from `categories`" not in str(exc):
            raise
    cats, _ = categories_of(pd.Index(values), categories, from_dtype)
    unknown = cats.get_indexer(pd.Index(values)) < 0
    n_bad = int(np.asarray(totals)[unknown].sum())
    raise ValueError(
        f"{n_bad} ratings use labels missing from `categories`, e.g. "
        f"{fmt(list(values[unknown]))}; add them to `categories` or drop those ratings."
    )


def _group_of_keys(groups: pd.Index | None, keys: pd.Index) -> IntArray:
    """The group code of each of ``keys`` (``by`` keys)."""
    if groups is None:
        return np.zeros(len(keys), dtype=np.int64)
    return np.asarray(groups.get_indexer(keys), dtype=np.int64)


def _check_counted(n_rows: int, n_annotations: int, empty: str) -> None:
    """Refuse counts of no rows (``empty`` says so) or of no rating."""
    if n_rows == 0:
        raise ValueError(empty)
    if n_annotations == 0:
        raise ValueError(
            "the batches hold no ratings: every label is missing. Agreement needs items rated "
            "by at least two raters."
        )


def _label_lookup(
    spec: LayoutSpec, labels: pd.Index, totals: FloatArray, from_dtype: DtypeCategories | None
) -> tuple[IntArray, pd.Index, bool]:
    """Per distinct label counted (``totals`` ratings each), its category code (-1 for a
    label never used); the categories; whether their order is declared."""
    used = totals > 0
    where = f"`label` column {spec.label!r}" if spec.layout == "long" else "a rating cell"
    codes, cats, ordered = label_codes(
        labels[used], totals[used], spec.categories, from_dtype, where
    )
    lookup = np.full(len(labels), -1, dtype=np.int64)
    lookup[used] = codes
    return lookup, cats, ordered


def _categories(counts: Counts) -> tuple[IntArray, pd.Index, bool]:
    """:func:`_label_lookup` of the labels of ``counts``."""
    keys, weight = counts.nik.merged()
    _, label_g = unpack(keys, 2)
    labels = counts.labels.index()
    totals = np.bincount(label_g, weights=weight, minlength=len(labels)).astype(np.float64)
    return _label_lookup(counts.spec, labels, totals, counts.from_dtype)


def check_declared(counts: Counts) -> None:
    """Refuse labels outside the declared ``categories`` (the pandas path's error)."""
    _categories(counts)


def _rater_order(spec: LayoutSpec, raters_all: pd.Index) -> tuple[IntArray, pd.Index]:
    """Per rater counted, its code in the pandas path's order, and the raters in that order
    (sorted for a long frame, the columns' order for a wide one)."""
    if spec.layout == "long":
        return factorize_columns(raters_all.to_frame(index=False), [spec.rater])
    return np.arange(len(raters_all), dtype=np.int64), raters_all


def _rater_tensor(
    nck: KeyCounts,
    group_of: IntArray,
    rater_of: IntArray,
    label_of: IntArray,
    n_groups: int,
    raters: pd.Index,
    n_categories: int,
) -> RaterCells:
    """``n_gck``'s non-zero cells from the counted (group, rater, label) cells, the codes of
    each in the final order; refused below two raters with ratings."""
    keys, values = nck.merged()
    g, c, k = unpack(keys, 3)
    group, rater, code = group_of[g], rater_of[c], label_of[k]
    keep = (code >= 0) & (group >= 0) & (values > 0)
    if not keep.all():
        group, rater, code, values = group[keep], rater[keep], code[keep], values[keep]
    active = np.zeros(len(raters), dtype=bool)
    active[rater] = True
    if active.sum() < 2:
        raise ValueError(
            f"agreement needs at least two raters with ratings; the data have "
            f"{int(active.sum())} ({fmt(list(raters[active]))})."
        )
    shape = (n_groups, len(raters), n_categories)
    return RaterCells(group, rater, code, np.asarray(values, dtype=np.float64), shape)


def count_data(counts: Counts) -> CountData:
    """The rating data of ``counts``, as the pandas path reads the frames they counted."""
    spec = counts.spec
    _check_counted(
        counts.n_rows,
        counts.n_annotations,
        "nothing is counted yet (0 rows): agreement needs items rated by at least two raters. "
        "Add a batch first.",
    )
    lookup, cats, ordered = _categories(counts)
    declared = spec.categories is not None or counts.from_dtype is not None
    if not declared:  # the pandas path's label warnings, once per state read
        check_label_markers(cats)
    keys, weight = counts.nik.merged()
    item_g, label_g = unpack(keys, 2)
    by = list(spec.by)
    keys_all = counts.items.index()
    if spec.layout == "long":
        order, items = factorize_columns(keys_all.to_frame(index=False), [*by, spec.item])
        group, groups = group_codes(items.to_frame(index=False), by, len(items))
    else:
        order = np.arange(len(keys_all), dtype=np.int64)
        items = keys_all.get_level_values(-1) if by else keys_all
        items = pd.Index(items, name=keys_all.names[-1])
        frame = keys_all.to_frame(index=False).iloc[:, : len(by)]
        group, groups = group_codes(frame, by, len(items))
    rater_order, raters = _rater_order(spec, counts.raters.index())
    group_of = _group_of_keys(groups, counts.groups.index()) if by else np.zeros(1, np.int64)
    n_groups = 1 if groups is None else len(groups)
    nck = _rater_tensor(counts.nck, group_of, rater_order, lookup, n_groups, raters, len(cats))
    enc = Encoded(
        layout="long" if spec.layout == "long" else "wide",
        items=items,
        raters=pd.Index(raters),
        categories=cats,
        item=order[item_g],
        rater=None,
        code=lookup[label_g],
        weight=weight,
        group=group,
        groups=groups,
        by=tuple(by),
        declared=declared,
        ordered=ordered,
    )
    return CountData(enc, nck)


def profile_data(profiles: Profiles) -> CountData:
    """The rating data of ``profiles``: each distinct (group, row of counts) an item that
    stands for ``multiplicity`` items (:attr:`CountData.item_weight`)."""
    spec = profiles.spec
    error = repeated_error(spec, profiles.repeated, profiles.repeated_rows)
    if error is not None:
        raise error
    _check_counted(
        profiles.n_rows,
        profiles.n_annotations,
        "the frame is empty (0 rows): agreement needs items rated by at least two raters.",
    )
    group_g, rows, weight = profiles.distinct()
    labels = profiles.labels.index()
    totals = (rows * weight[:, None]).sum(axis=0)
    lookup, cats, ordered = _label_lookup(spec, labels, totals, profiles.from_dtype)
    declared = spec.categories is not None or profiles.from_dtype is not None
    if not declared:
        check_label_markers(cats)
    onto = np.zeros((len(labels), len(cats)))
    used = lookup >= 0
    onto[np.flatnonzero(used), lookup[used]] = 1.0
    by = list(spec.by)
    group_of = np.zeros(max(len(profiles.groups), 1), dtype=np.int64)
    groups: pd.Index | None = None
    if by:
        keys = profiles.groups.index()
        frame = keys.to_frame(index=False)
        frame.columns = by
        present = np.unique(group_g)
        order, groups = factorize_columns(frame.iloc[present].reset_index(drop=True), by)
        group_of = np.full(len(keys), -1, dtype=np.int64)
        group_of[present] = order
    # Rows that became equal once their labels were read as categories are merged.
    group, nik, m = distinct_rows(group_of[group_g], rows @ onto, weight)
    rater_order, raters = _rater_order(spec, profiles.raters.index())
    n_groups = 1 if groups is None else len(groups)
    nck = _rater_tensor(profiles.nck, group_of, rater_order, lookup, n_groups, raters, len(cats))
    item, code = np.nonzero(nik)
    enc = Encoded(
        layout="long" if spec.layout == "long" else "wide",
        items=pd.RangeIndex(len(nik), name="row of counts"),
        raters=pd.Index(raters),
        categories=cats,
        item=item.astype(np.int64),
        rater=None,
        code=code.astype(np.int64),
        weight=nik[item, code],
        group=group,
        groups=groups,
        by=tuple(by),
        declared=declared,
        ordered=ordered,
        multiplicity=m,
    )
    return CountData(enc, nck)
