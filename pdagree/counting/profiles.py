"""Counts with the items reduced to their distinct rows of counts: what the client keeps.

Every count-based coefficient, and Gwet's analytic variance of those that have one, is a sum
over items of a function of the item's row of counts ``n_i.`` and its group. Items with the
same ``by=`` group and the same row are interchangeable, so the client needs each distinct
(group, row) once, with the number of items it stands for (its *multiplicity*): with five
categories and ten raters per item, at most 1,001 rows per group, whatever the number of items.

:class:`Profiles` adds the shards of a Dask reduction one at a time (each shard's items are
reduced to their rows, then dropped), so the client holds one shard's items at most. The
rules that turn the rows into ratings apply once, in
:func:`pdagree.tensors.count_data.profile_data`.
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np
import pandas as pd

from .._typing import FloatArray, IntArray, as_float
from ..encoding import DtypeCategories, LayoutSpec, missing_by_message
from ._runs import KeyCounts, Registry, unpack
from .state import Counts, add_missing_by, add_rater_counts

__all__ = ["MAX_PROFILE_LABELS", "Profiles", "distinct_rows"]

#: Above this many distinct labels the rows are not formed (each would be as wide).
MAX_PROFILE_LABELS = 64


def distinct_rows(
    group: IntArray, rows: FloatArray, weight: FloatArray
) -> tuple[IntArray, FloatArray, FloatArray]:
    """The distinct (group, row) pairs and the total weight of each. Rows of small whole
    counts are packed into one integer key (one sort of integers); others are compared
    row by row (``np.unique(axis=0)``)."""
    if len(group) == 0:
        return group.astype(np.int64), rows.astype(np.float64), as_float(weight)
    top = float(rows.max(initial=0.0)) + 1.0
    width = rows.shape[1]
    whole = bool(np.all(rows == np.floor(rows)))
    if whole and (width + 1) * np.log2(max(top, 2.0)) + np.log2(group.max() + 1.0) < 62:
        base = np.int64(top)
        key = group.astype(np.int64)
        for k in range(width):  # over the labels (a few), not the items
            key = key * base + rows[:, k].astype(np.int64)
        unique, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        total = np.bincount(inverse.ravel(), weights=weight, minlength=len(unique))
        return group[first].astype(np.int64), rows[first].astype(np.float64), as_float(total)
    keyed = np.column_stack([group.astype(np.float64), rows])
    unique_rows, inverse = np.unique(keyed, axis=0, return_inverse=True)
    total = np.bincount(inverse.ravel(), weights=weight, minlength=len(unique_rows))
    return (
        unique_rows[:, 0].astype(np.int64),
        unique_rows[:, 1:].astype(np.float64),
        as_float(total),
    )


class Profiles:
    """Distinct (group, row of counts) with their multiplicities, and everything else a
    :class:`~.state.Counts` keeps but its items: registries of labels, raters and groups, the
    raters' counts, the counters and what the checks found."""

    def __init__(self, spec: LayoutSpec) -> None:
        self.spec = spec = spec.for_batches()
        self.labels = Registry([spec.label])
        self.raters = Registry([spec.rater])
        self.groups = Registry(list(spec.by) or ["group"])
        self.nck = KeyCounts()
        self.parts: list[tuple[IntArray, FloatArray, FloatArray]] = []
        self.n_rows = 0
        self.n_annotations = 0
        self.n_missing_by = 0
        self.missing_by: dict[Hashable, int] = dict.fromkeys(spec.by, 0)
        self.from_dtype: DtypeCategories | None = None
        self.repeated: list[tuple[pd.Index, pd.Index]] = []
        self.repeated_rows: list[pd.Index] = []

    @staticmethod
    def feasible(counts: Counts) -> bool:
        """Whether rows of counts are worth forming: few enough distinct labels."""
        return len(counts.labels) <= MAX_PROFILE_LABELS

    @classmethod
    def of(cls, counts: Counts) -> Profiles:
        """The rows of counts of one shard (run where the shard is, on its worker)."""
        out = cls(counts.spec)
        out.labels, out.raters = counts.labels.copy(), counts.raters.copy()
        out.groups = counts.groups.copy()
        out.nck = counts.nck.copy()
        by = list(counts.spec.by)
        items = counts.items.index()
        if by:
            frame = items.to_frame(index=False).iloc[:, : len(by)]
            keys_of: pd.Index = (
                pd.MultiIndex.from_frame(frame) if len(by) > 1 else pd.Index(frame.iloc[:, 0])
            )
            distinct = keys_of.unique()
            item_group = counts.groups.codes(distinct)[distinct.get_indexer(keys_of)]
        else:
            item_group = np.zeros(len(items), dtype=np.int64)
        keys, values = counts.nik.merged()
        i, k = unpack(keys, 2)
        width = max(len(counts.labels), 1)
        flat = np.bincount(i * width + k, weights=values, minlength=len(items) * width)
        rows = flat.reshape(len(items), width)[:, : len(counts.labels)].astype(np.float64)
        out.parts = [distinct_rows(item_group, rows, np.ones(len(items)))]
        out.n_rows, out.n_annotations = counts.n_rows, counts.n_annotations
        out.n_missing_by, out.missing_by = counts.n_missing_by, dict(counts.missing_by)
        out.repeated = list(counts.repeated or [])
        if counts.rows is not None and len(counts.rows):
            twice, _ = unpack(counts.rows.merged()[0], 2)
            out.repeated_rows.append(counts.items.take(twice))
        out.from_dtype = counts.from_dtype
        return out

    def absorb(self, other: Profiles) -> None:
        """Add ``other``'s rows of counts (another shard's) to these."""
        label = self.labels.codes(other.labels.index())
        rater = self.raters.codes(other.raters.index())
        if self.spec.by:
            group_of = self.groups.codes(other.groups.index())
        else:
            group_of = np.zeros(max(len(other.groups), 1), dtype=np.int64)
        add_rater_counts(self.nck, other.nck, group_of, rater, label)
        for group, rows, weight in other.parts:
            moved = np.zeros((len(rows), len(self.labels)))
            moved[:, label[: rows.shape[1]]] = rows
            self.parts.append((group_of[group], moved, weight))
        self.n_rows += other.n_rows
        self.n_annotations += other.n_annotations
        self.n_missing_by += other.n_missing_by
        add_missing_by(self.missing_by, other.missing_by)
        self.repeated.extend(other.repeated)
        self.repeated_rows.extend(other.repeated_rows)
        if other.from_dtype is not None:
            self.from_dtype = other.from_dtype

    def missing_by_message(self) -> str | None:
        """The pandas path's warning about rows left out for a missing ``by`` key."""
        return missing_by_message(self.n_rows, self.n_missing_by, self.missing_by)

    def distinct(self) -> tuple[IntArray, FloatArray, FloatArray]:
        """Every distinct (group, row) with its multiplicity; rows over the labels in the
        order of :attr:`labels`."""
        width = len(self.labels)
        padded = [(g, np.pad(r, ((0, 0), (0, width - r.shape[1]))), m) for g, r, m in self.parts]
        if not padded:
            return np.zeros(0, dtype=np.int64), np.zeros((0, width)), np.zeros(0)
        group = np.concatenate([g for g, _, _ in padded])
        rows = np.concatenate([r for _, r, _ in padded])
        weight = np.concatenate([m for _, _, m in padded])
        out = distinct_rows(group, rows, weight)
        self.parts = [out]
        return out
