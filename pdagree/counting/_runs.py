"""State that grows with batches at a cost that grows with the batch: sorted runs.

A tally adds a batch to state that may hold 10^7 annotations. Rewriting the state on every
batch would cost what the state costs; keeping every batch apart would make lookups cost what
the number of batches costs. Both structures here keep the state as a few *runs*, merged as
the digits of a binary counter are carried (a run is merged into the one before it when that
one is at most twice its size), so that each element takes part in ``O(log n)`` merges over
the tally's life and a lookup visits ``O(log n)`` runs:

- :class:`KeyCounts`: sorted, distinct ``int64`` keys with a float count each, the non-zero
  cells of a count tensor whose coordinates are packed into one key (``pack``);
- :class:`Registry`: distinct labels (any hashables, or tuples of them) with stable codes in
  order of first sight, runs of :class:`pandas.Index` whose hash tables pandas keeps.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np
import pandas as pd

from .._typing import BoolArray, FloatArray, IntArray

__all__ = ["ITEMS", "LIMIT", "KeyCounts", "Registry", "check_sizes", "pack", "unpack"]

#: Bits of each coordinate in a packed key (three coordinates fit in 63 bits).
BITS = 21
LIMIT = 1 << BITS
#: Items a tally counts at most (the first coordinate of a two-coordinate key).
ITEMS = 1 << 31


def pack(first: IntArray, second: IntArray, third: IntArray | None = None) -> IntArray:
    """One ``int64`` key per coordinate tuple, ordered as the tuples are: two coordinates
    (``first`` below 2^31, ``second`` below 2^32) or three (each below 2^21)."""
    first = np.asarray(first, dtype=np.int64)
    second = np.asarray(second, dtype=np.int64)
    if third is None:
        return (first << 32) | second
    return (((first << BITS) | second) << BITS) | np.asarray(third, dtype=np.int64)


def unpack(key: IntArray, parts: int) -> tuple[IntArray, ...]:
    """The coordinates :func:`pack` packed into ``key``."""
    if parts == 2:
        return key >> 32, key & 0xFFFFFFFF
    mask = LIMIT - 1
    return key >> (2 * BITS), (key >> BITS) & mask, key & mask


def check_sizes(what: str, size: int, limit: int) -> None:
    """Refuse a tally whose ``what`` outgrow the packed keys, before anything is counted."""
    if size >= limit:
        raise ValueError(
            f"a tally counts at most {limit - 1:,} {what}; this one would hold {size:,}. "
            "Split the data with `by=` into tallies of their own."
        )


def _consolidate(keys: IntArray, counts: FloatArray) -> tuple[IntArray, FloatArray]:
    """Sorted distinct keys and the sum of the counts of each."""
    if len(keys) == 0:
        return keys.astype(np.int64), counts.astype(np.float64)
    unique, inverse = np.unique(keys, return_inverse=True)
    summed = np.bincount(inverse.ravel(), weights=counts, minlength=len(unique))
    return unique.astype(np.int64), summed.astype(np.float64)


def _merge(
    first: tuple[IntArray, FloatArray], second: tuple[IntArray, FloatArray]
) -> tuple[IntArray, FloatArray]:
    """Two runs (sorted distinct keys with counts) as one, in time linear in their sizes:
    the smaller one's keys are found in the larger by binary search, their counts added where
    present, the rest inserted in order (no sort of the larger run)."""
    (k1, c1), (k2, c2) = (first, second) if len(first[0]) >= len(second[0]) else (second, first)
    if len(k2) == 0:
        return k1, c1
    if len(k1) == 0:
        return k2, c2
    at = np.searchsorted(k1, k2)
    hit = k1[np.minimum(at, len(k1) - 1)] == k2
    counts = c1.copy()
    counts[at[hit]] += c2[hit]
    new = ~hit
    keys: IntArray = np.insert(k1, at[new], k2[new])
    return keys, np.insert(counts, at[new], c2[new])


class KeyCounts:
    """Sorted distinct ``int64`` keys, each with a count, in runs (see the module)."""

    __slots__ = ("runs",)

    def __init__(self, runs: list[tuple[IntArray, FloatArray]] | None = None) -> None:
        self.runs: list[tuple[IntArray, FloatArray]] = [] if runs is None else runs

    def copy(self) -> KeyCounts:
        return KeyCounts(list(self.runs))  # runs are never written in place

    def __len__(self) -> int:
        return sum(len(k) for k, _ in self.runs)

    def add(self, keys: IntArray, counts: FloatArray | None = None) -> None:
        """Add ``counts`` (default 1 each) to ``keys`` (any order, repeats add up)."""
        if len(keys) == 0:
            return
        weights = np.ones(len(keys)) if counts is None else np.asarray(counts, dtype=np.float64)
        self.runs.append(_consolidate(np.asarray(keys, dtype=np.int64), weights))
        while len(self.runs) > 1 and len(self.runs[-2][0]) <= 2 * len(self.runs[-1][0]):
            last, before = self.runs.pop(), self.runs.pop()
            self.runs.append(_merge(before, last))

    def merged(self) -> tuple[IntArray, FloatArray]:
        """Every key once with its total count, sorted (the runs become one)."""
        if not self.runs:
            self.runs = [(np.zeros(0, dtype=np.int64), np.zeros(0))]
        while len(self.runs) > 1:  # over the runs (a few: see the module), smallest first
            last, before = self.runs.pop(), self.runs.pop()
            self.runs.append(_merge(before, last))
        return self.runs[0]

    def contains(self, keys: IntArray) -> BoolArray:
        """Per key, whether it is counted already."""
        found = np.zeros(len(keys), dtype=bool)
        for run, _ in self.runs:
            if len(run) == 0:
                continue
            at = np.minimum(np.searchsorted(run, keys), len(run) - 1)
            found |= run[at] == keys
        return found


class Registry:
    """Distinct labels with stable codes (first seen, first numbered), in runs of
    :class:`pandas.Index` (a MultiIndex for tuple keys)."""

    __slots__ = ("names", "runs")

    def __init__(self, names: list[Hashable], runs: list[pd.Index] | None = None) -> None:
        self.names = names
        self.runs: list[pd.Index] = [] if runs is None else runs

    def copy(self) -> Registry:
        return Registry(list(self.names), list(self.runs))

    def __len__(self) -> int:
        return sum(len(r) for r in self.runs)

    def index(self) -> pd.Index:
        """Every label, in code order (the runs become one)."""
        if len(self.runs) > 1:
            self.runs = [self.runs[0].append(self.runs[1:])]
        if not self.runs:
            return self._empty()
        return self.runs[0]

    def _empty(self) -> pd.Index:
        if len(self.names) > 1:
            return pd.MultiIndex.from_arrays([[] for _ in self.names], names=self.names)
        return pd.Index([], dtype=object, name=self.names[0] if self.names else None)

    def codes(self, labels: pd.Index) -> IntArray:
        """The code of each of ``labels`` (distinct), numbering the new ones after the rest."""
        out = np.full(len(labels), -1, dtype=np.int64)
        offset = 0
        for run in self.runs:
            if len(run):
                at = np.asarray(run.get_indexer(labels), dtype=np.int64)
                hit = at >= 0
                out[hit] = at[hit] + offset
            offset += len(run)
        new = out < 0
        if new.any():
            # An index of other dtypes does not match equal values (an int64 run misses
            # True, which pandas' object factorizing takes as 1): look the labels still
            # unmatched up again as objects, so the registry never holds one value twice.
            offset = 0
            for run in self.runs:
                if len(run) and new.any() and _dtypes(run) != _dtypes(labels):
                    at = np.asarray(_objects(run).get_indexer(_objects(labels[new])), np.int64)
                    hit = at >= 0
                    out[np.flatnonzero(new)[hit]] = at[hit] + offset
                    new = out < 0
                offset += len(run)
        if new.any():
            fresh = labels[new]
            out[new] = offset + np.arange(len(fresh))
            self.runs.append(fresh)
            while len(self.runs) > 1 and len(self.runs[-2]) <= 2 * len(self.runs[-1]):
                last, before = self.runs.pop(), self.runs.pop()
                self.runs.append(before.append(last))
        return out

    def take(self, codes: Any) -> pd.Index:
        """The labels of ``codes``."""
        return self.index()[np.asarray(codes, dtype=np.int64)]


def _dtypes(index: pd.Index) -> tuple[Any, ...]:
    """The dtype of each level of ``index``."""
    if isinstance(index, pd.MultiIndex):
        return tuple(index.dtypes)
    return (index.dtype,)


def _objects(index: pd.Index) -> pd.Index:
    """``index`` as Python objects (tuples for a MultiIndex), matched by ``==``."""
    if isinstance(index, pd.MultiIndex):
        return pd.Index(index.to_flat_index(), dtype=object, tupleize_cols=False)
    return index.astype(object)
