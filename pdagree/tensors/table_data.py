"""Two raters' contingency table as rating data: the coefficients from the K x K table.

A contingency table is encoded as one item per non-zero cell, standing for the items the cell
counts (:attr:`pdagree.encoding._encode.Encoded.multiplicity`). :class:`TableData` is the
:class:`~.data.RatingData` of such an encoding: the count tensors the coefficients read (``A_o``,
the raters' category counts, the pooled proportions, the two raters' table) come from the
(G, K, K) tables, so a table counting billions of items costs what its K x K cells cost. A
replicate of the bootstrap is a table of its own (a group), drawn from the multinomial
(:func:`replicate_tables`).

The analyses that read items one by one (``items()``, the IRT model, SPA, the breakdowns) run
on :attr:`TableData.rows`, the table read as one item per count, which is refused above
:data:`pdagree.encoding._contingency.MAX_TABLE_ITEMS` items before anything is allocated. A
definition the registry does not mark ``on_table`` gets :attr:`TableData.rows` too
(:func:`pdagree.evaluate.coefficient`).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cached_property
from typing import NoReturn

import numpy as np
import pandas as pd

from .._kernels import table as KT
from .._typing import BoolArray, FloatArray, IntArray
from ..encoding import Encoded, expand_cells
from .data import RatingData

__all__ = ["TableData", "rating_data", "replicate_tables"]


class TableData(RatingData):
    """:class:`~.data.RatingData` of an encoding whose items stand for ``multiplicity`` items
    each and have two annotations, rater 0's and rater 1's (a contingency table)."""

    __slots__ = ()

    @cached_property
    def cells(self) -> tuple[IntArray, IntArray, FloatArray]:
        """Per item (cell): the first rater's category code, the second's and how many items
        it stands for."""
        enc = self.enc
        if enc.rater is None or enc.multiplicity is None:  # pragma: no cover - by encoding
            raise ValueError("a contingency table's encoding has raters and multiplicities")
        first = np.zeros(enc.n_items, dtype=np.int64)
        second = np.zeros(enc.n_items, dtype=np.int64)
        is_first = enc.rater == 0
        first[enc.item[is_first]] = enc.code[is_first]
        second[enc.item[~is_first]] = enc.code[~is_first]
        return first, second, enc.multiplicity

    @cached_property
    def table(self) -> FloatArray:  # type: ignore[override]
        """The (G, K, K) tables: items per group, first rater's and second rater's category."""
        enc = self.enc
        first, second, count = self.cells
        k = enc.n_categories
        key = (enc.group * k + first) * k + second
        flat = np.bincount(key, weights=count, minlength=enc.n_groups * k * k)
        return flat.reshape(enc.n_groups, k, k).astype(np.float64)

    @cached_property
    def rows(self) -> RatingData:
        """The table read as one item per count (two annotations each), as a
        :class:`~.data.RatingData`; refused above ``MAX_TABLE_ITEMS`` items."""
        enc = self.enc
        first, second, count = self.cells
        cell = expand_cells(count)
        n = len(cell)
        expanded = replace(
            enc,
            items=pd.RangeIndex(n, name="item"),
            item=np.repeat(np.arange(n, dtype=np.int64), 2),
            rater=np.tile(np.array([0, 1], dtype=np.int64), n),
            code=np.column_stack([first[cell], second[cell]]).ravel(),
            weight=np.ones(2 * n, dtype=np.float64),
            group=np.zeros(n, dtype=np.int64),
            multiplicity=None,
        )
        return RatingData(expanded)

    @property
    def n_items(self) -> int:
        return int(self.enc.multiplicity.sum()) if self.enc.multiplicity is not None else 0

    @property
    def n_annotations(self) -> float:
        return 2.0 * self.n_items

    # ------------------------------------------------------------- tensors from the tables

    @cached_property
    def category_mask(self) -> BoolArray | None:
        """Every table (and bootstrap replicate) has the table's categories."""
        return None

    @cached_property
    def sparse(self) -> bool:
        return False

    @cached_property
    def nck(self) -> FloatArray:
        return KT.rater_counts(self.table)

    @cached_property
    def observed(self) -> tuple[FloatArray, FloatArray]:
        return KT.observed(self.table, None)

    def observed_with(self, w: FloatArray) -> tuple[FloatArray, FloatArray]:
        return KT.observed(self.table, w)

    @cached_property
    def active_raters(self) -> FloatArray:
        counts = (self.nck.sum(axis=-1) > 0).sum(axis=-1)
        return np.asarray(counts, dtype=np.float64)

    @cached_property
    def rated_per_group(self) -> FloatArray:
        return KT.margins(self.table)[0]

    @cached_property
    def pair_agreements(self) -> tuple[IntArray, IntArray, IntArray, FloatArray, FloatArray]:
        """The one rater pair of every table: ``(group, 0, 1, n, agreeing items)``."""
        n_groups = self.enc.n_groups
        group = np.arange(n_groups, dtype=np.int64)
        n, agree = KT.margins(self.table)[0], np.trace(self.table, axis1=1, axis2=2)
        zeros = np.zeros(n_groups, dtype=np.int64)
        return group, zeros, zeros + 1, n, np.asarray(agree, dtype=np.float64)

    def pair_confusion(self, first: IntArray, second: IntArray) -> FloatArray:
        """The table of rater ``first[g]`` against rater ``second[g]`` in each group."""
        flipped = np.asarray(first) > np.asarray(second)
        tables = self.table
        return np.where(flipped[:, None, None], tables.transpose(0, 2, 1), tables)

    def check_dense(self) -> None:
        """Weighted coefficients read the (K, K) tables, not a table of items."""

    # ------------------------------------------------------------- what reads the items

    def _items_needed(self, what: str) -> NoReturn:
        raise RuntimeError(
            f"{what} reads a contingency table's items one by one; run it on `.rows`, the table "
            "read as one item per count."
        )

    @property
    def nik(self) -> NoReturn:
        self._items_needed("n_ik")

    @property
    def entries(self) -> NoReturn:
        self._items_needed("the entries of n_ik")

    @property
    def pair_margins(self) -> NoReturn:
        self._items_needed("the rater-pair tables")

    def subset(self, groups: IntArray, categories: BoolArray) -> NoReturn:
        self._items_needed("a subset of groups")

    def item_index(self) -> pd.Index:
        return self.rows.item_index()


def replicate_tables(data: TableData, counts: FloatArray) -> TableData:
    """The table ``data`` (one group) with its cells counting ``counts`` (R, cells) instead:
    R tables, one group each (bootstrap and jackknife replicates)."""
    enc = data.enc
    n_tables, n_cells = counts.shape
    first, second, _ = data.cells
    item = np.arange(n_tables * n_cells, dtype=np.int64)
    replica: Encoded = replace(
        enc,
        items=pd.RangeIndex(n_tables * n_cells),
        item=np.repeat(item, 2),
        rater=np.tile(np.array([0, 1], dtype=np.int64), n_tables * n_cells),
        code=np.tile(np.column_stack([first, second]).ravel(), n_tables),
        weight=np.ones(2 * n_tables * n_cells, dtype=np.float64),
        group=np.repeat(np.arange(n_tables, dtype=np.int64), n_cells),
        groups=pd.RangeIndex(n_tables),
        multiplicity=np.asarray(counts, dtype=np.float64).ravel(),
    )
    return TableData(replica)


def rating_data(enc: Encoded) -> RatingData:
    """The rating data of an encoding: a :class:`TableData` for a contingency table."""
    return TableData(enc) if enc.multiplicity is not None else RatingData(enc)
