"""The item bootstrap: a coefficient on many resamples of the rated items.

Two ways to evaluate a resample, chosen per coefficient by the registry:

- **item sums** (every coefficient whose :class:`~pdagree.definitions.Definition` has
  ``item_sums``): the coefficient is a function of column sums of a per-item matrix ``S``
  (n_items, m) computed once (:mod:`pdagree.definitions.item_sums`). Items with equal rows
  of ``S`` (in the same group) are one *type*; a chunk of resamples becomes a matrix ``C``
  (resamples x types) of how often each type was drawn (one ``np.bincount``), and
  ``T = C S`` holds every resample's sums: O(resamples x (items + types x m)), never
  O(resamples x annotations).
- **recomputation** (the fallback, for definitions without item sums or data too wide for
  them): the drawn items' annotations are gathered into one encoding in which each resample
  is a ``by=`` group, and the definition runs once per chunk.

The resamples themselves do not depend on the way: with ``by=``, items are drawn within their
group from the same uniform draws; without, :func:`scipy.stats.bootstrap` draws them (and
runs the jackknife of BCa) through :meth:`Replicates.statistic`. Chunks bound memory.

A contingency table (:class:`~pdagree.tensors.table_data.TableData`) is resampled by its
cells: drawing its ``n`` items with replacement is drawing how many fall in each cell from a
multinomial, and each resample is a table of its own (:func:`table_bootstrap`), so the cost
does not grow with ``n``; BCa's jackknife leaves out one item of each cell, weighted by the
items the cell counts.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd

from ._kernels import table as KT
from ._lazy import scipy_sparse as sp
from ._typing import FloatArray, IntArray
from .category_sets import compute, per_category_set
from .definitions import Components, Definition
from .encoding import Encoded
from .tensors import RatingData
from .tensors.table_data import TableData, replicate_tables

__all__ = ["Replicates", "bootstrap_values", "scipy_bootstrap", "table_bootstrap"]

#: Recomputation: most annotations gathered per chunk.
_CHUNK_ANNOTATIONS = 1_000_000
#: Item sums: most floats per chunk in the count matrix ``C`` and in the sums ``T``.
_CHUNK_FLOATS = 1 << 22
#: With more groups than this, a resample's groups are summed by one product with a
#: block-diagonal sparse ``S`` rather than one dense product per group.
_LOOP_GROUPS = 32


def _replica(enc: Encoded, pick: IntArray, group: IntArray, n_groups: int) -> Encoded:
    """The items ``pick`` of ``enc`` (repeats allowed) as a new encoding, item ``j`` of it in
    group ``group[j]``: bootstrap and jackknife replicates become groups of one ``by=`` call."""
    n_ann_item = np.bincount(enc.item, minlength=enc.n_items)
    by_item = np.argsort(enc.item, kind="stable")
    starts = np.r_[0, np.cumsum(n_ann_item)[:-1]]
    counts = n_ann_item[pick]
    total = int(counts.sum())
    first = np.repeat(starts[pick] - np.r_[0, np.cumsum(counts)[:-1]], counts)
    ann = by_item[first + np.arange(total)]
    return Encoded(
        layout=enc.layout,
        items=pd.RangeIndex(len(pick)),
        raters=enc.raters,
        categories=enc.categories,
        item=np.repeat(np.arange(len(pick), dtype=np.int64), counts),
        rater=None if enc.rater is None else enc.rater[ann],
        code=enc.code[ann],
        weight=enc.weight[ann],
        group=group.astype(np.int64),
        groups=pd.RangeIndex(n_groups),
        by=enc.by,
        ordered=enc.ordered,
        secondary=None if enc.secondary is None else enc.secondary[ann],
    )


def _item_types(matrix: Any, group: IntArray, n_groups: int) -> tuple[Any, IntArray, IntArray]:
    """Items with equal rows of ``S`` in the same group are one *type*: resampling counts
    draws per type, and ``T`` is the counts times the types' rows.

    Returns the types' rows (n_types, m), sorted by group, each item's type, and where each
    group's types begin (n_groups + 1). Equal rows are found on their bytes (one sort); a
    sparse ``S`` is not merged (every item its own type).
    """
    if sp.issparse(matrix):
        order = np.argsort(group, kind="stable")
        kind = np.empty(len(group), dtype=np.int64)
        kind[order] = np.arange(len(group), dtype=np.int64)
        rows, kind_group = matrix[order], group[order]
    else:
        keyed = np.ascontiguousarray(np.column_stack([group.astype(np.float64), matrix]))
        view = keyed.view(np.dtype((np.void, keyed.dtype.itemsize * keyed.shape[1]))).ravel()
        _, first, inverse = np.unique(view, return_index=True, return_inverse=True)
        order = np.argsort(group[first], kind="stable")
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order), dtype=np.int64)
        kind = rank[inverse.ravel()]
        rows, kind_group = np.asarray(matrix)[first[order]], group[first[order]]
    bounds = np.r_[0, np.cumsum(np.bincount(kind_group, minlength=n_groups))].astype(np.int64)
    return rows, kind, bounds


def _moment_sums(kwargs: dict[str, Any], data: RatingData) -> bool:
    """Whether the item sums are moment sums that need no dense counts (interval alpha),
    so that data with very many distinct values still resample through them."""
    level = kwargs.get("level")
    return (
        isinstance(level, str)
        and level == "interval"
        and kwargs.get("weights") is None
        and data.enc.values is not None
    )


class Replicates:
    """One coefficient on item resamples, by item sums where the definition offers them.

    Parameters
    ----------
    data, definition, kwargs
        The ratings, the coefficient and its options.
    item_sums
        Use the definition's item sums when it has them (``False``: always recompute, the
        reference the item sums are tested against).
    """

    def __init__(
        self,
        data: RatingData,
        definition: Definition,
        kwargs: dict[str, Any],
        *,
        item_sums: bool = True,
    ) -> None:
        self.data = data
        self.definition = definition
        self.kwargs = kwargs
        enc = data.enc
        n_ann_item = np.bincount(enc.item, minlength=enc.n_items)
        #: items with at least one rating: the units that are resampled
        self.rated = np.flatnonzero(n_ann_item > 0)
        self.sums = None
        # Item sums see one set of categories and dense counts: by= groups with categories
        # of their own, and data too wide for a dense table, are recomputed.
        usable = data.category_mask is None and (not data.sparse or _moment_sums(kwargs, data))
        if item_sums and usable and definition.item_sums is not None:
            self.sums = definition.item_sums(data, kwargs)
        if self.sums is not None:
            #: the rows of ``S`` per item type, each rated item's type, the groups' types
            self.matrix, self.kind, self.bounds = _item_types(
                self.sums.matrix[self.rated], enc.group[self.rated], enc.n_groups
            )
            self.width = int(self.matrix.shape[1])
        else:
            self.per_item = (
                max(float(n_ann_item[self.rated].mean()), 1.0) if self.rated.size else 1.0
            )
            # Options with one value per item (SPA's own weights) follow their items.
            per_item = definition.per_item
            self.per_item_options = {} if per_item is None else per_item(data, kwargs)

    def _block_diagonal(self) -> Any:
        """``S`` with the types of group ``g`` in columns ``g m .. (g + 1) m``, (n_types, G m):
        the counts times it are every group's sums at once."""
        coo = sp.coo_matrix(self.matrix)
        type_group = np.repeat(np.arange(len(self.bounds) - 1), np.diff(self.bounds))
        column = type_group[coo.row] * self.width + coo.col
        shape = (self.matrix.shape[0], (len(self.bounds) - 1) * self.width)
        return sp.csr_matrix((coo.data, (coo.row, column)), shape=shape)

    def units(self) -> IntArray:
        """What :func:`scipy.stats.bootstrap` resamples: each rated item's type (item sums),
        or its position in :attr:`rated`."""
        if self.sums is not None:
            return np.asarray(self.kind, dtype=np.int64)
        return np.arange(len(self.rated), dtype=np.int64)

    # ------------------------------------------------------------------ chunks

    def rows_per_chunk(self, row_length: int, n_groups: int = 1) -> int:
        """Resamples per chunk, for resamples of ``row_length`` draws in ``n_groups`` groups."""
        if self.sums is None:
            return max(1, int(_CHUNK_ANNOTATIONS // max(row_length * self.per_item, 1.0)))
        per_row = self.width + self.sums.row_floats
        widest = max(row_length, self.matrix.shape[0], n_groups * per_row, 1)
        return max(1, _CHUNK_FLOATS // widest)

    # ------------------------------------------------------------------ evaluation

    def _finish(self, t: FloatArray) -> FloatArray:
        if self.sums is None:  # pragma: no cover - callers check
            raise ValueError("no item sums")
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            return np.asarray(self.sums.finish(t), dtype=np.float64)

    def _counts(self, kinds: IntArray, owned: bool = False) -> FloatArray:
        """How often each item type appears in each row of ``kinds``, (rows, n_types);
        ``owned``: ``kinds`` may be overwritten."""
        rows, n_types = len(kinds), self.matrix.shape[0]
        first = (np.arange(rows, dtype=np.int64) * n_types)[:, None]
        key = np.add(kinds, first, out=kinds if owned else None)
        counts = np.bincount(key.ravel(), minlength=rows * n_types)
        return counts.reshape(rows, n_types).astype(np.float64)

    def _product(self, counts: FloatArray, lo: int = 0, hi: int | None = None) -> FloatArray:
        """``counts @ S`` over the types ``lo:hi``."""
        t = counts[:, lo:hi] @ self.matrix[lo:hi]
        return np.asarray(t.toarray() if sp.issparse(t) else t)

    def recompute(self, pick: IntArray, group: IntArray, n_groups: int) -> FloatArray:
        """The coefficient on replica groups by recomputation: ``pick`` item codes, ``group``
        their replica."""
        # Replicates keep their source group's categories.
        mask = self.data.category_mask
        if mask is not None:
            mask = mask[np.arange(n_groups) % self.data.enc.n_groups]
        replica = RatingData(_replica(self.data.enc, pick, group, n_groups), category_mask=mask)
        call = {**self.kwargs, **{k: v[pick] for k, v in self.per_item_options.items()}}
        parts: Components = compute(self.definition, replica, call)
        return parts.value

    def statistic(self, sample: IntArray, axis: int = -1) -> FloatArray:
        """For :func:`scipy.stats.bootstrap` (``vectorized=True``): each slice along ``axis``
        of ``sample`` holds :meth:`units`; returns the coefficient of each slice."""
        units = np.moveaxis(np.asarray(sample), axis, -1).astype(np.int64, copy=False)
        shape, m = units.shape[:-1], units.shape[-1]
        rows = units.reshape(-1, m)
        out = np.empty(len(rows))
        step = self.rows_per_chunk(m)
        for lo in range(0, len(rows), step):
            block = rows[lo : lo + step]
            b = len(block)
            if self.sums is not None:
                out[lo : lo + b] = self._finish(self._product(self._counts(block)))
            else:
                group = np.repeat(np.arange(b, dtype=np.int64), m)
                out[lo : lo + b] = self.recompute(self.rated[block.ravel()], group, b)
        return out.reshape(shape)

    def grouped(self, n_resamples: int, gen: np.random.Generator) -> FloatArray:
        """Replicate values resampling the rated items within each group, shape
        (n_resamples, n_groups).

        Each chunk of ``size`` resamples draws ``u ~ U(0, 1)`` of shape (size, rated items):
        slot ``j`` (the rated items sorted by group) of a resample takes the item of its
        group at ``floor(u * group size)``. Item sums: ``T`` of group ``g`` is the counts
        of ``g``'s item types times their rows. Recomputation: resample ``b`` of group ``g``
        is group ``b * n_groups + g`` of one batched call.
        """
        enc = self.data.enc
        n_groups = enc.n_groups
        grp = enc.group[self.rated]
        order = np.argsort(grp, kind="stable")  # positions in ``rated``, by group
        sizes = np.bincount(grp, minlength=n_groups)
        offsets = np.r_[0, np.cumsum(sizes)[:-1]].astype(np.int64)
        slot_group = grp[order]
        n = len(order)
        slot_offset, slot_size = offsets[slot_group], sizes[slot_group].astype(np.float64)
        chunk = min(n_resamples, self.rows_per_chunk(n, n_groups))
        kinds = None if self.sums is None else self.kind[order]
        blocks = None if kinds is None or n_groups <= _LOOP_GROUPS else self._block_diagonal()
        out = np.empty((n_resamples, n_groups))
        done = 0
        while done < n_resamples:
            size = min(chunk, n_resamples - done)
            u = gen.random((size, n))
            u *= slot_size
            slot = u.astype(np.int64)  # floor(u * size): u * size >= 0
            slot += slot_offset
            del u
            if kinds is not None:
                counts = self._counts(kinds[slot], owned=True)
                if blocks is not None:
                    t = np.asarray(counts @ blocks)
                else:
                    t = np.empty((size, n_groups, self.width))
                    for g in range(n_groups):
                        lo, hi = int(self.bounds[g]), int(self.bounds[g + 1])
                        t[:, g] = self._product(counts, lo, hi)
                value = self._finish(t.reshape(size * n_groups, self.width))
            else:
                pick = self.rated[order[slot]]
                group = np.arange(size)[:, None] * n_groups + slot_group[None, :]
                value = self.recompute(pick.ravel(), group.ravel(), size * n_groups)
            out[done : done + size] = value.reshape(size, n_groups)
            done += size
        return out


def bootstrap_values(
    data: RatingData,
    definition: Definition,
    kwargs: dict[str, Any],
    n_resamples: int,
    rng: np.random.Generator | int | None,
    *,
    item_sums: bool = True,
) -> FloatArray:
    """Replicate values resampling items within each group, shape (n_resamples, n_groups).

    :func:`scipy.stats.bootstrap` cannot resample groups of different sizes in one
    vectorised call, hence this resampler for ``by=``.
    """
    gen = np.random.default_rng(rng)

    def run(sub: RatingData, options: dict[str, Any]) -> FloatArray:
        return Replicates(sub, definition, options, item_sums=item_sums).grouped(n_resamples, gen)

    def merge(parts: list[tuple[IntArray, FloatArray]], n_groups: int) -> FloatArray:
        out = np.full((n_resamples, n_groups), np.nan)
        for groups, reps in parts:
            out[:, groups] = reps
        return out

    # Groups with categories of their own are resampled per set of categories, each set
    # through its item sums.
    return per_category_set(data, kwargs, run, merge, definition)


def scipy_bootstrap(
    data: RatingData,
    definition: Definition,
    kwargs: dict[str, Any],
    *,
    confidence_level: float,
    n_resamples: int,
    rng: np.random.Generator | int | None,
    interval: str,
    item_sums: bool = True,
) -> tuple[float, float, float, FloatArray]:
    """Standard error and interval of an ungrouped coefficient by
    :func:`scipy.stats.bootstrap` (``vectorized=True``) over the rated items, every batch of
    resamples (and the jackknife of ``"BCa"``) being one matrix product (item sums) or one
    batched call of the definition."""
    from scipy import stats

    reps = Replicates(data, definition, kwargs, item_sums=item_sums)
    n = len(reps.rated)
    if n < 2 or n_resamples < 2:  # no spread to estimate (as for the grouped resampler)
        return np.nan, np.nan, np.nan, np.full((0, 1), np.nan)
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        # scipy warns when replicates are degenerate (nan, or all equal); the nan interval
        # it then returns is the answer, and the coefficient itself has already warned.
        warnings.simplefilter("ignore", RuntimeWarning)
        warnings.simplefilter("ignore", getattr(stats, "DegenerateDataWarning", RuntimeWarning))
        res = stats.bootstrap(
            (reps.units(),),
            reps.statistic,
            vectorized=True,
            n_resamples=n_resamples,
            batch=reps.rows_per_chunk(n),
            confidence_level=confidence_level,
            method=interval,
            rng=np.random.default_rng(rng),
        )
    return (
        float(res.standard_error),
        float(res.confidence_interval.low),
        float(res.confidence_interval.high),
        np.asarray(res.bootstrap_distribution, dtype=np.float64).reshape(-1, 1),
    )


#: Contingency tables: most cells across the tables of one chunk of resamples.
_TABLE_CELLS = 1 << 21


def _table_values(
    data: TableData, definition: Definition, kwargs: dict[str, Any], counts: FloatArray
) -> FloatArray:
    """The coefficient of the table ``data`` with its cells counting each row of ``counts``
    instead, in chunks of tables."""
    k = data.enc.n_categories
    per_chunk = max(1, _TABLE_CELLS // max(counts.shape[1], k * k))
    out = np.empty(len(counts))
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        for lo in range(0, len(counts), per_chunk):
            tables = replicate_tables(data, counts[lo : lo + per_chunk])
            out[lo : lo + per_chunk] = compute(definition, tables, kwargs).value
    return out


def table_bootstrap(
    data: RatingData,
    definition: Definition,
    kwargs: dict[str, Any],
    *,
    confidence_level: float,
    n_resamples: int,
    rng: np.random.Generator | int | None,
    interval: str,
) -> tuple[float, float, float, FloatArray]:
    """Standard error and interval of a contingency table's coefficient from multinomial
    resamples of its cells, as :func:`scipy_bootstrap` gives them from resampled items (the
    same distribution of resamples; the same percentile, basic and BCa intervals)."""
    from scipy import special

    if not isinstance(data, TableData):  # pragma: no cover - inference dispatches on the type
        raise TypeError("table_bootstrap() resamples a contingency table's TableData")
    _, _, count = data.cells
    n = float(count.sum())
    if n < 2 or n_resamples < 2:  # no spread to estimate (as for the item bootstrap)
        return np.nan, np.nan, np.nan, np.full((0, 1), np.nan)
    gen = np.random.default_rng(rng)
    chunk = max(1, _TABLE_CELLS // len(count))
    reps = np.concatenate(
        [
            _table_values(data, definition, kwargs, KT.multinomial_tables(count, m, gen))
            for m in np.diff(np.r_[0:n_resamples:chunk, n_resamples])
        ]
    )
    se = float(np.std(reps, ddof=1))
    value = float(compute(definition, data, kwargs).value[0])
    tail = (1.0 - confidence_level) / 2.0
    if interval == "BCa":
        # The jackknife: one item of each cell left out, each weighing the items it counts.
        left_out = np.tile(count, (len(count), 1)) - np.eye(len(count))
        theta = _table_values(data, definition, kwargs, left_out)
        with np.errstate(invalid="ignore", divide="ignore"):
            spread = np.sum(count * theta) / n - theta
            accel = np.sum(count * spread**3) / (6.0 * np.sum(count * spread**2) ** 1.5)
            z0 = special.ndtri((np.sum(reps < value) + np.sum(reps <= value)) / (2.0 * len(reps)))
            z = special.ndtri(np.array([tail, 1.0 - tail]))
            levels = special.ndtr(z0 + (z0 + z) / (1.0 - accel * (z0 + z)))
        if not (np.isfinite(reps).all() and np.isfinite(levels).all()):
            return se, np.nan, np.nan, reps.reshape(-1, 1)
        low, high = np.quantile(reps, levels)
    else:
        low, high = np.quantile(reps, [tail, 1.0 - tail])
        if interval == "basic":
            low, high = 2.0 * value - high, 2.0 * value - low
    return se, float(low), float(high), reps.reshape(-1, 1)
