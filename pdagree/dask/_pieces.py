"""A Dask partition reduced on its worker to what the shuffle must move: integer arrays.

Items straddle partitions when rows come in annotation order, so the counts of one item are
added across partitions, and so are its (item, rater) pairs, checked for a pair labelled
twice. Each partition is read (:func:`~pdagree.counting._batch.read_batch`, the pandas path's
rules and checks) against registries of its own (its distinct items, raters, labels and
``by=`` groups) and reduced there to

- the non-zero cells of ``n_ik`` as (item, label, count) codes,
- with the duplicate check, its distinct (item, rater) pairs as codes,
- the raters' ``n_gck`` as (group, rater, label) codes with counts (small),

split by item into shards (an item's key hashes to the same shard from every partition):
a :class:`Piece` per shard, whose only keys are the shard's distinct items of the partition.
A shard's pieces are combined in one step (:func:`combine`: the items' keys factorised once,
the cells counted with one ``np.bincount`` on packed keys, the pairs seen twice found the
same way), in a tree of wide fan-in when there are many partitions, and the root becomes the
:class:`~pdagree.counting.state.Counts` that the rest of the engine reads
(:func:`to_counts`).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .._typing import FloatArray, IntArray
from ..counting import ITEMS, LIMIT, KeyCounts, Registry, check_sizes, pack, read_batch, unpack
from ..counting.state import Counts, add_missing_by
from ..encoding import DtypeCategories, LayoutSpec, factorize_sorted

__all__ = ["FAN_IN", "Piece", "combine", "partition_pieces", "to_counts"]

#: Pieces combined by one task: a shard of up to this many partitions is combined at once.
FAN_IN = 32


@dataclass(eq=False)
class Piece:
    """One shard of one partition (or of several, combined), as codes into its own keys.

    ``items``, ``raters``, ``labels``, ``groups``: the distinct keys the codes refer to
    (``groups`` ``None`` without ``by=``); ``cell_item``, ``cell_label``, ``cell_count``: the
    non-zero cells of ``n_ik``; ``pair_item``, ``pair_rater``: the distinct (item, rater)
    pairs (``None`` without the duplicate check); ``item_rows``: a wide frame's rows per
    item; ``nck``, ``nck_count``: the raters' (group, rater, label) counts, packed
    (:func:`~pdagree.counting._runs.pack`), and the counters, carried by shard 0 alone."""

    spec: LayoutSpec
    items: pd.Index
    raters: pd.Index
    labels: pd.Index
    groups: pd.Index | None
    cell_item: IntArray
    cell_label: IntArray
    cell_count: IntArray
    pair_item: IntArray | None
    pair_rater: IntArray | None
    item_rows: IntArray | None
    nck: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    nck_count: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    n_rows: int = 0
    n_annotations: int = 0
    n_batches: int = 0
    n_missing_by: int = 0
    missing_by: dict[Hashable, int] = field(default_factory=dict)
    repeated: list[tuple[pd.Index, pd.Index]] = field(default_factory=list)
    from_dtypes: list[DtypeCategories] = field(default_factory=list)


def _small(codes: Any) -> IntArray:
    """Codes in 32 bits where they fit (what crosses the network is half as large)."""
    codes = np.asarray(codes)
    if codes.size == 0 or int(codes.max()) < 2**31:
        return codes.astype(np.int32)
    return codes.astype(np.int64)


def _count(key: IntArray, size: int, weight: Any = None) -> tuple[IntArray, IntArray]:
    """The distinct non-negative ``key`` values (below ``size``), sorted, with how many times
    each occurs (or the sum of its ``weight``): one ``np.bincount`` when ``size`` is within a
    few times the number of keys, else a sort."""
    key = np.asarray(key, dtype=np.int64)
    if size <= 8 * key.size + (1 << 20):
        total = np.bincount(key, weights=weight, minlength=size)
        present = np.flatnonzero(total)
        return present.astype(np.int64), np.rint(total[present]).astype(np.int64)
    if weight is None:
        unique, counts = np.unique(key, return_counts=True)
        return unique.astype(np.int64), counts.astype(np.int64)
    unique, inverse = np.unique(key, return_inverse=True)
    summed = np.bincount(inverse.ravel(), weights=weight, minlength=len(unique))
    return unique.astype(np.int64), np.rint(summed).astype(np.int64)


def _shard_of(items: pd.Index, n_shards: int) -> IntArray:
    """The shard of each item: its key's hash, the same from every partition."""
    keys = items.to_frame(index=False) if isinstance(items, pd.MultiIndex) else items
    hashed = pd.util.hash_pandas_object(keys, index=False).to_numpy()
    return (hashed % np.uint64(n_shards)).astype(np.int64)


def _split(shard: np.ndarray[Any, Any], n_shards: int) -> list[IntArray]:
    """The positions of each shard's entries in ``shard``, in order: one comparison per
    shard (a few: about the square root of the partitions), no sort."""
    return [np.flatnonzero(shard == j) for j in range(n_shards)]


def partition_pieces(frame: Any, spec: LayoutSpec, n_shards: int) -> list[Piece]:
    """One partition read, counted against its own keys and split into ``n_shards`` pieces
    by item (run on the partition's worker)."""
    batch = read_batch(frame, spec, defer=True)
    n_items, n_raters, n_labels = len(batch.items), len(batch.raters), len(batch.labels)
    n_groups = 1 if batch.groups is None else len(batch.groups)
    check_sizes("items", n_items, ITEMS)
    check_sizes("raters", n_raters, LIMIT)
    check_sizes("distinct labels", n_labels, LIMIT)
    check_sizes("`by` groups", n_groups, LIMIT)
    width = max(n_labels, 1)
    cells, cell_count = _count(batch.item * width + batch.code, n_items * width)
    cell_item, cell_label = cells // width, cells % width
    group = batch.item_group[batch.item]
    rater_width = max(n_raters, 1)
    joint, nck_count = _count(
        (group * rater_width + batch.rater) * width + batch.code, n_groups * rater_width * width
    )
    nck = pack(joint // (rater_width * width), (joint // width) % rater_width, joint % width)
    shard = _shard_of(batch.items, n_shards).astype(np.int32)
    item_cuts = _split(shard, n_shards)
    local = np.empty(n_items, dtype=np.int64)
    for cut in item_cuts:  # the shard's own codes, in the items' order
        local[cut] = np.arange(len(cut))
    cell_cuts = _split(shard[cell_item], n_shards)
    check = spec.check_duplicates
    pair_cuts = _split(shard[batch.item], n_shards) if check else None
    wide = spec.layout == "wide"
    pieces = []
    for j in range(n_shards):  # over the shards (about the square root of the partitions)
        cut = cell_cuts[j]
        pairs = None if pair_cuts is None else pair_cuts[j]
        items = batch.items[item_cuts[j]]
        pieces.append(
            Piece(
                spec,
                items,
                batch.raters,
                batch.labels,
                batch.groups,
                _small(local[cell_item[cut]]),
                _small(cell_label[cut]),
                _small(cell_count[cut]),
                None if pairs is None else _small(local[batch.item[pairs]]),
                None if pairs is None else _small(batch.rater[pairs]),
                np.ones(len(items), dtype=np.int32) if wide else None,
            )
        )
    first = pieces[0]
    first.nck, first.nck_count = nck, nck_count
    first.n_rows, first.n_annotations, first.n_batches = batch.n_rows, len(batch.item), 1
    first.n_missing_by, first.missing_by = batch.n_missing_by, dict(batch.missing_by)
    first.repeated = [] if batch.repeated is None else [batch.repeated]
    first.from_dtypes = [] if batch.from_dtype is None else [batch.from_dtype]
    return pieces


def _factorize(keys: pd.Index) -> tuple[IntArray, pd.Index]:
    """Codes of ``keys`` and the distinct keys, in their dtypes: integer ids by one scatter
    over their range where it is small (:func:`~pdagree.encoding._factorize.factorize_sorted`),
    others hashed once."""
    if not isinstance(keys, pd.MultiIndex):
        try:
            codes, uniques = factorize_sorted(keys)
        except TypeError:  # keys that cannot be ordered: in order of first sight below
            pass
        else:
            return codes, uniques.rename(keys.name)
    codes = np.asarray(keys.factorize()[0], dtype=np.int64)
    # Codes are numbered in order of first sight: a first sight is a new running maximum.
    # The keys are taken from there, so that they keep their dtypes (a MultiIndex's
    # ``factorize`` returns tuples).
    running = np.maximum.accumulate(codes) if len(codes) else codes
    first = np.flatnonzero(np.r_[True, running[1:] > running[:-1]][: len(codes)])
    return codes, keys[first]


def _codes(registry: Registry, keys: list[pd.Index]) -> list[IntArray]:
    return [registry.codes(k) for k in keys]


def combine(pieces: list[Piece], keep_pairs: bool = True) -> Piece:
    """The pieces of one shard as one: every key once, cells and pairs in its codes; pairs
    seen in more than one piece are recorded (:attr:`Piece.repeated`) and kept once
    (``keep_pairs=False``, at the root: not kept)."""
    spec = pieces[0].spec
    labels, raters = Registry([spec.label]), Registry([spec.rater])
    groups = Registry(list(spec.by) or ["group"])
    label_of = _codes(labels, [p.labels for p in pieces])
    rater_of = _codes(raters, [p.raters for p in pieces])
    if spec.by:
        group_of = _codes(groups, [p.groups for p in pieces if p.groups is not None])
    else:
        group_of = [np.zeros(1, dtype=np.int64) for _ in pieces]
    n_raters, n_labels = len(raters), len(labels)
    check_sizes("raters", n_raters, LIMIT)
    check_sizes("distinct labels", n_labels, LIMIT)
    check_sizes("`by` groups", len(groups), LIMIT)
    everything = pieces[0].items.append([p.items for p in pieces[1:]])
    codes, items = _factorize(everything)
    n_items = len(items)
    check_sizes("items", n_items, ITEMS)
    item_of = np.split(codes, np.cumsum([len(p.items) for p in pieces])[:-1])
    width = max(n_labels, 1)
    cell_key = np.concatenate(
        [item_of[j][p.cell_item] * width + label_of[j][p.cell_label] for j, p in enumerate(pieces)]
    )
    weight = np.concatenate([p.cell_count for p in pieces]).astype(np.float64)
    cells, cell_count = _count(cell_key, n_items * width, weight)
    out = Piece(
        spec, items, raters.index(), labels.index(), groups.index() if spec.by else None,
        _small(cells // width), _small(cells % width), cell_count, None, None, None,
    )  # fmt: skip
    if spec.check_duplicates:
        rater_width = max(n_raters, 1)
        pair_key = np.concatenate(
            [item_of[j][p.pair_item] * rater_width + rater_of[j][p.pair_rater]
             for j, p in enumerate(pieces) if p.pair_item is not None and p.pair_rater is not None]
        )  # fmt: skip
        pairs, seen = _count(pair_key, n_items * rater_width)
        twice = pairs[seen > 1]
        if len(twice):
            out.repeated.append((items[twice // rater_width], out.raters[twice % rater_width]))
        if keep_pairs:
            out.pair_item, out.pair_rater = (
                _small(pairs // rater_width),
                _small(pairs % rater_width),
            )
    if spec.layout == "wide":
        rows = np.concatenate([p.item_rows for p in pieces if p.item_rows is not None])
        out.item_rows = np.bincount(codes, weights=rows, minlength=n_items).astype(np.int64)
    nck = KeyCounts()
    for j, p in enumerate(pieces):
        if len(p.nck):
            g, c, k = unpack(p.nck, 3)
            keys = pack(group_of[j][g], rater_of[j][c], label_of[j][k])
            nck.add(keys, p.nck_count.astype(np.float64))
    out.nck, counts = nck.merged()
    out.nck_count = counts.astype(np.int64)
    for p in pieces:
        out.n_rows += p.n_rows
        out.n_annotations += p.n_annotations
        out.n_batches += p.n_batches
        out.n_missing_by += p.n_missing_by
        add_missing_by(out.missing_by, p.missing_by)
        out.repeated.extend(p.repeated)
        out.from_dtypes.extend(p.from_dtypes)
    return out


def to_counts(piece: Piece) -> Counts:
    """A combined shard as the :class:`Counts` of its items, without its (item, rater) pairs
    (checked): what :meth:`Counts.without_pairs` leaves of a shard's sum."""
    spec = piece.spec
    out = Counts(spec, one_frame=True)
    out.pairs = None
    out.items.runs = [piece.items] if len(piece.items) else []
    out.raters.runs = [piece.raters] if len(piece.raters) else []
    out.labels.runs = [piece.labels] if len(piece.labels) else []
    if piece.groups is not None and len(piece.groups):
        out.groups.runs = [piece.groups]
    keys = pack(piece.cell_item, piece.cell_label)
    out.nik = KeyCounts([(keys, piece.cell_count.astype(np.float64))])
    out.nck = KeyCounts([(piece.nck.astype(np.int64), piece.nck_count.astype(np.float64))])
    if piece.item_rows is not None:
        twice = np.flatnonzero(piece.item_rows > 1)
        rows: FloatArray = piece.item_rows[twice].astype(np.float64)
        out.rows = KeyCounts([(pack(twice, np.zeros(len(twice), dtype=np.int64)), rows)])
    out.n_rows, out.n_annotations = piece.n_rows, piece.n_annotations
    out.n_batches, out.n_missing_by = piece.n_batches, piece.n_missing_by
    add_missing_by(out.missing_by, piece.missing_by)
    out.repeated = list(piece.repeated)
    for dtype in piece.from_dtypes:
        out._dtype(dtype)
    return out
