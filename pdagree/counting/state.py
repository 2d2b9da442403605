"""Count tensors that add: the state a tally keeps and a Dask partition reduces to.

:class:`Counts` holds, for the batches added so far,

- ``n_ik``: ratings of item ``i`` in label ``k``, its non-zero cells (``nik``);
- ``n_gck``: ratings of rater ``c`` in label ``k`` within ``by=`` group ``g`` (``nck``);
- with ``check_duplicates``, the (item, rater) pairs counted, to refuse a pair seen again;
- the distinct items, raters, labels and groups, numbered in order of first sight.

Adding a batch and merging two states are one operation (:meth:`Counts.absorb`): a batch is
read into a state of its own, whose codes are mapped to this one's and whose cells are added
(an item that straddles batches adds up). Its cost grows with the batch (see
:mod:`._runs`). The rules that turn the state into ratings (label rules, item order, groups)
apply once, when a coefficient is asked: :func:`pdagree.tensors.count_data.count_data`.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np
import pandas as pd

from .._typing import IntArray
from ..encoding import (
    DtypeCategories,
    LayoutSpec,
    factorize_columns,
    fmt,
    missing_by_message,
    repeated_items,
    repeated_pairs,
)
from ._batch import Batch, read_batch
from ._runs import ITEMS, LIMIT, KeyCounts, Registry, check_sizes, pack, unpack

__all__ = ["Counts", "add_missing_by", "add_rater_counts", "already_counted", "repeated_error"]


class Counts:
    """Mergeable count tensors of the batches read with one :class:`LayoutSpec`."""

    __slots__ = (
        "from_dtype",
        "groups",
        "items",
        "labels",
        "missing_by",
        "n_annotations",
        "n_batches",
        "n_missing_by",
        "n_rows",
        "nck",
        "nik",
        "pairs",
        "raters",
        "repeated",
        "rows",
        "spec",
    )

    def __init__(self, spec: LayoutSpec, one_frame: bool = False) -> None:
        """``one_frame``: the batches are parts of one frame (a Dask frame's partitions), so
        repeated (item, rater) pairs are recorded and reported together at the end
        (:attr:`repeated`), and a wide frame's rows are counted per item (:attr:`rows`), a
        row repeated across parts being an error as in one frame; a tally's batches are
        refused at once instead, and a wide item's rows may straddle them."""
        self.spec = spec = spec.for_batches()
        item_name = spec.item if spec.layout == "long" else None
        self.items = Registry([*spec.by, item_name])
        self.groups = Registry(list(spec.by) or ["group"])
        self.raters = Registry([spec.rater])
        self.labels = Registry([spec.label])
        self.nik = KeyCounts()
        self.nck = KeyCounts()
        self.pairs: KeyCounts | None = KeyCounts() if spec.check_duplicates else None
        self.n_batches = 0
        self.n_rows = 0
        self.n_annotations = 0
        self.missing_by: dict[Hashable, int] = dict.fromkeys(spec.by, 0)
        self.n_missing_by = 0
        self.from_dtype: DtypeCategories | None = None
        self.repeated: list[tuple[pd.Index, pd.Index]] | None = [] if one_frame else None
        self.rows: KeyCounts | None = KeyCounts() if one_frame and spec.layout == "wide" else None

    # ----------------------------------------------------------------------- building

    @classmethod
    def of_frame(cls, frame: Any, spec: LayoutSpec, one_frame: bool = False) -> Counts:
        """The counts of one frame (a batch, a Dask partition)."""
        out = cls(spec, one_frame)
        out.add_batch(read_batch(frame, out.spec, defer=one_frame))
        return out

    def copy(self) -> Counts:
        out = Counts(self.spec)
        out.repeated = None if self.repeated is None else list(self.repeated)
        out.rows = None if self.rows is None else self.rows.copy()
        for name in ("items", "groups", "raters", "labels", "nik", "nck"):
            setattr(out, name, getattr(self, name).copy())
        out.pairs = None if self.pairs is None else self.pairs.copy()
        out.n_batches, out.n_rows = self.n_batches, self.n_rows
        out.n_annotations = self.n_annotations
        out.missing_by = dict(self.missing_by)
        out.n_missing_by = self.n_missing_by
        out.from_dtype = self.from_dtype
        return out

    def _dtype(self, other: DtypeCategories | None) -> None:
        if other is None:
            return
        mine = self.from_dtype
        if mine is None:
            self.from_dtype = other
            return
        same = mine.ordered == other.ordered and mine.categories.equals(other.categories)
        if same:
            return
        if mine.ordered or other.ordered:
            raise TypeError(
                "the batches' labels are ordered Categoricals with different categories or "
                f"orders ({fmt(list(mine.categories))} and {fmt(list(other.categories))}); "
                "give every batch the same dtype, or declare the scale with `categories=`."
            )
        union = dict.fromkeys([*mine.categories.tolist(), *other.categories.tolist()])
        self.from_dtype = DtypeCategories(pd.Index(list(union)), ordered=False)

    def add_batch(self, batch: Batch) -> None:
        """Add one batch read by :func:`read_batch` (see :meth:`absorb`)."""
        group = self.groups.codes(batch.groups) if batch.groups is not None else None
        item = self.items.codes(batch.items)
        rater = self.raters.codes(batch.raters)
        label = self.labels.codes(batch.labels)
        self._check_limits()
        g = np.zeros(len(batch.item), dtype=np.int64)
        if group is not None:
            g = group[batch.item_group[batch.item]]
        if batch.repeated is not None and self.repeated is not None:
            self.repeated.append(batch.repeated)
        if self.rows is not None:
            self.rows.add(pack(item, np.zeros(len(item), dtype=np.int64)))
        self._add(
            item[batch.item],
            rater[batch.rater],
            label[batch.code],
            g,
            np.ones(len(batch.item)),
        )
        self.n_batches += 1
        self.n_rows += batch.n_rows
        self.n_annotations += len(batch.item)
        self.n_missing_by += batch.n_missing_by
        add_missing_by(self.missing_by, batch.missing_by)
        self._dtype(batch.from_dtype)

    def absorb(self, other: Counts) -> None:
        """Add ``other``'s counts (same spec) to these: the one step that adds a batch, a
        partition, or another tally."""
        if other.spec != self.spec:
            raise ValueError(
                "tallies of different arguments cannot be added: "
                f"{other.spec.arguments()} and {self.spec.arguments()}."
            )
        item = self.items.codes(other.items.index())
        rater = self.raters.codes(other.raters.index())
        label = self.labels.codes(other.labels.index())
        group = self.groups.codes(other.groups.index()) if self.spec.by else np.zeros(1, int)
        self._check_limits()
        if other.pairs is not None and self.pairs is not None:
            keys, _ = other.pairs.merged()
            i, c = unpack(keys, 2)
            self._pairs(self.pairs, item[i], rater[c])
        if other.repeated and self.repeated is not None:
            self.repeated.extend(other.repeated)
        if other.rows is not None and self.rows is not None:
            keys, counts = other.rows.merged()
            i, _ = unpack(keys, 2)
            self.rows.add(pack(item[i], np.zeros(len(i), dtype=np.int64)), counts)
        keys, counts = other.nik.merged()
        i, k = unpack(keys, 2)
        self.nik.add(pack(item[i], label[k]), counts)
        add_rater_counts(self.nck, other.nck, group, rater, label)
        self.n_batches += other.n_batches
        self.n_rows += other.n_rows
        self.n_annotations += other.n_annotations
        self.n_missing_by += other.n_missing_by
        add_missing_by(self.missing_by, other.missing_by)
        self._dtype(other.from_dtype)

    def plus(self, other: Counts) -> Counts:
        """These counts and ``other``'s, as new counts (neither is changed)."""
        out = self.copy()
        out.absorb(other)
        return out

    def _check_limits(self) -> None:
        check_sizes("items", len(self.items), ITEMS)
        check_sizes("raters", len(self.raters), LIMIT)
        check_sizes("distinct labels", len(self.labels), LIMIT)
        check_sizes("`by` groups", len(self.groups), LIMIT)

    def _pairs(self, pairs: KeyCounts, item: IntArray, rater: IntArray) -> None:
        """Count the (item, rater) pairs in ``pairs``, refusing those counted before."""
        keys = pack(item, rater)
        seen = pairs.contains(keys)
        if seen.any():
            items = self.items.take(item[seen])
            raters = self.raters.take(rater[seen])
            if self.repeated is None:
                raise already_counted(items, raters)
            self.repeated.append((items, raters))
            keys = keys[~seen]
        pairs.add(keys)

    def _add(
        self, item: IntArray, rater: IntArray, label: IntArray, group: IntArray, count: Any
    ) -> None:
        if self.pairs is not None:
            self._pairs(self.pairs, item, rater)
        self.nik.add(pack(item, label), count)
        self.nck.add(pack(group, rater, label), count)

    # ----------------------------------------------------------------------- reading

    def without_pairs(self) -> Counts:
        """These counts without the (item, rater) pairs and the wide rows' counts, once they
        are checked (what a result needs, less): the items with more than one row are kept
        in :attr:`repeated_rows`."""
        out = self.copy()
        out.pairs = None
        if self.rows is not None:
            keys, counts = self.rows.merged()
            twice = unpack(keys[counts > 1], 2)[0]
            out.rows = KeyCounts([(pack(twice, np.zeros(len(twice), dtype=np.int64)),
                                   counts[counts > 1])])  # fmt: skip
        return out

    def repeated_error(self) -> ValueError | None:
        """The pandas path's error for (item, rater) pairs counted twice (or a wide frame's
        rows repeated) across the parts of one frame, or ``None``."""
        rows = []
        if self.rows is not None and len(self.rows):
            keys, _ = self.rows.merged()
            rows.append(self.items.take(unpack(keys, 2)[0]))
        return repeated_error(self.spec, self.repeated or [], rows)

    def shards(self, n: int) -> list[Counts]:
        """These counts split into ``n`` by item: shard ``j`` holds the items whose key hashes
        to ``j`` (the same item lands in the same shard from every partition), their cells
        and pairs; the raters' counts and the counters go with shard 0. Adding the shards
        gives these counts back."""
        items = self.items.index()
        frame = items.to_frame(index=False) if isinstance(items, pd.MultiIndex) else items
        hashed = pd.util.hash_pandas_object(frame, index=False).to_numpy()
        shard = (hashed % np.uint64(n)).astype(np.int64)
        local = np.zeros(len(items), dtype=np.int64)
        order = np.argsort(shard, kind="stable")
        sizes = np.bincount(shard, minlength=n)
        starts = np.concatenate([[0], np.cumsum(sizes)])
        local[order] = np.arange(len(items)) - np.repeat(starts[:-1], sizes)
        out = [Counts(self.spec, self.repeated is not None) for _ in range(n)]
        for j, part in enumerate(out):
            part.items.runs = [items[order[starts[j] : starts[j + 1]]]] if sizes[j] else []
            for name in ("raters", "labels", "groups"):
                setattr(part, name, getattr(self, name).copy())
            part.from_dtype = self.from_dtype
        for name in ("nik", "pairs", "rows"):
            runs: KeyCounts | None = getattr(self, name)
            if runs is None:
                for part in out:
                    setattr(part, name, None)
                continue
            keys, counts = runs.merged()
            item, rest = unpack(keys, 2)
            which = shard[item]
            cut = np.argsort(which, kind="stable")
            bounds = np.concatenate([[0], np.cumsum(np.bincount(which, minlength=n))])
            for j, part in enumerate(out):
                rows = cut[bounds[j] : bounds[j + 1]]
                # Local codes keep the items' order, so the packed keys stay sorted.
                setattr(
                    part, name, KeyCounts([(pack(local[item[rows]], rest[rows]), counts[rows])])
                )
        first = out[0]
        first.repeated = None if self.repeated is None else list(self.repeated)
        first.nck = self.nck.copy()
        first.n_batches, first.n_rows = self.n_batches, self.n_rows
        first.n_annotations, first.n_missing_by = self.n_annotations, self.n_missing_by
        first.missing_by = dict(self.missing_by)
        return out

    def missing_by_message(self) -> str | None:
        """The pandas path's warning about rows left out for a missing ``by`` key."""
        return missing_by_message(self.n_rows, self.n_missing_by, self.missing_by)

    def describe(self) -> str:
        by = f", {len(self.groups)} groups" if self.spec.by else ""
        return (
            f"{len(self.items):,} items, {len(self.raters):,} raters, "
            f"{len(self.labels):,} labels{by}; {self.n_annotations:,} annotations in "
            f"{self.n_batches:,} batch{'' if self.n_batches == 1 else 'es'}"
        )


def already_counted(items: pd.Index, raters: pd.Index) -> ValueError:
    """The error for (item, rater) pairs of a batch (or a tally added) that the tally has
    counted already: the keys ``items`` and ``raters`` of each."""
    pairs = list(zip(items.tolist(), raters.tolist(), strict=True))
    return ValueError(
        f"{len(pairs)} (item, rater) pairs were counted already, e.g. {fmt(pairs)}: the tally "
        "holds an annotation of each from an earlier batch (or from both tallies added), as a "
        "batch added twice gives. Leave those annotations out of the batch (or rebuild the "
        "tally without the repeated batch); with `check_duplicates=False` a repeated pair is "
        "counted as a new annotation."
    )


def repeated_error(
    spec: LayoutSpec, repeated: list[tuple[pd.Index, pd.Index]], rows: list[pd.Index]
) -> ValueError | None:
    """The pandas path's error for the (item, rater) pairs ``repeated`` across the parts of
    one frame (their item and rater keys), or for a wide frame's item keys ``rows`` found in
    more than one row; ``None`` when there are none."""
    by = list(spec.by)
    if rows:
        keys = rows[0].append(rows[1:]) if len(rows) > 1 else rows[0]
        labels = pd.Index(keys.get_level_values(-1) if by else keys)
        return repeated_items(labels.unique(), bool(by))
    if not repeated:
        return None
    names = [*by, spec.item]
    seen_items = repeated[0][0].append([i for i, _ in repeated[1:]])
    seen_raters = repeated[0][1].append([r for _, r in repeated[1:]])
    frame = seen_items.to_frame(index=False)
    frame.columns = names
    item, items = factorize_columns(frame, names)
    rater, raters = factorize_columns(pd.DataFrame({spec.rater: seen_raters}), [spec.rater])
    return repeated_pairs(np.unique(item * len(raters) + rater), items, raters)


def add_rater_counts(
    dest: KeyCounts, src: KeyCounts, group_of: IntArray, rater_of: IntArray, label_of: IntArray
) -> None:
    """Add ``src``'s (group, rater, label) counts to ``dest``, each coordinate mapped to
    ``dest``'s codes by ``group_of``, ``rater_of`` and ``label_of``."""
    keys, values = src.merged()
    g, c, k = unpack(keys, 3)
    dest.add(pack(group_of[g], rater_of[c], label_of[k]), values)


def add_missing_by(dest: dict[Hashable, int], src: dict[Hashable, int]) -> None:
    """Add ``src``'s rows left out per ``by`` column to ``dest``'s."""
    for col, n in src.items():
        dest[col] = dest.get(col, 0) + n
