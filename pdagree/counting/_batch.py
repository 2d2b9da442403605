"""One batch of annotations (a pandas frame, or one partition of a Dask frame) read into
distinct keys and codes, with the pandas path's checks and messages.

A batch is read on its own: its items, raters and labels are numbered within the batch, and
:class:`~pdagree.counting.state.Counts` maps them to the tally's codes. Unlike the pandas path a
batch may hold one rater, or no rating at all: agreement is asked of the whole tally, not of
one batch. Labels stay as they come (``1``, ``"1"``, a Categorical's value): the label rules of
:func:`~pdagree.encoding._labels.encode_labels` apply once, to every distinct label counted.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._typing import IntArray
from ..encoding import (
    DtypeCategories,
    LayoutSpec,
    check_long_columns,
    check_unique_items,
    drop_missing_keys,
    dtype_categories,
    duplicated_keys,
    factorize_columns,
    frozen_cells,
    missing_key_error,
    rater_columns,
    repeated_pairs,
    require_columns,
    split_cells,
)

__all__ = ["Batch", "read_batch"]


@dataclass(frozen=True, eq=False)
class Batch:
    """A batch as distinct keys and per-annotation codes into them.

    ``items``: the item keys, ``(*by, item)`` tuples (a MultiIndex) with ``by=``; ``groups``
    and ``item_group``: the distinct ``by`` keys and each item's (``None`` and zeros without
    ``by=``); ``raters``, ``labels``: the distinct raters and raw labels; ``item``, ``rater``,
    ``code``: per annotation. ``missing_by``: rows left out per ``by`` column."""

    items: pd.Index
    groups: pd.Index | None
    item_group: IntArray
    raters: pd.Index
    labels: pd.Index
    item: IntArray
    rater: IntArray
    code: IntArray
    n_rows: int
    missing_by: dict[Hashable, int]
    n_missing_by: int
    from_dtype: DtypeCategories | None
    repeated: tuple[pd.Index, pd.Index] | None = None


def _groups(items: pd.Index, by: list[Hashable]) -> tuple[pd.Index | None, IntArray]:
    if not by:
        return None, np.zeros(len(items), dtype=np.int64)
    keys = items.to_frame(index=False).iloc[:, : len(by)]
    codes, groups = factorize_columns(keys, by)
    return groups, codes


def _labels(values: Any, *, lists: bool = False) -> tuple[IntArray, pd.Index]:
    """Codes and distinct labels; a ``set`` cell (a ``list`` too with ``lists``, in a long
    frame) is a set of labels, read as a ``frozenset`` as the pandas path reads it."""
    try:
        codes, uniques = pd.factorize(values)
    except TypeError:
        frozen = frozen_cells(np.asarray(values, dtype=object), lists=lists)
        if frozen is None:
            raise
        codes, uniques = pd.factorize(frozen)
    if isinstance(uniques, pd.Categorical):
        uniques = np.asarray(uniques, dtype=object)
    return np.asarray(codes, dtype=np.int64), pd.Index(uniques)


def read_batch(df: object, spec: LayoutSpec, defer: bool = False) -> Batch:
    """``df`` read by ``spec``'s layout and columns; ``defer``: (item, rater) pairs with two
    labels are returned (:attr:`Batch.repeated`) for one error about the whole frame, not
    refused at once."""
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"a batch is a pandas DataFrame; got {type(df).__name__}.")
    by = list(spec.by)
    require_columns(df, {"by": by})
    n_rows = len(df)
    df, missing_by, n_missing_by = drop_missing_keys(df, by)
    if spec.layout == "long":
        return _long(df, spec, by, n_rows, missing_by, n_missing_by, defer)
    return _wide(df, spec, by, n_rows, missing_by, n_missing_by)


def _long(
    df: pd.DataFrame,
    spec: LayoutSpec,
    by: list[Hashable],
    n_rows: int,
    missing_by: dict[Hashable, int],
    n_missing_by: int,
    defer: bool,
) -> Batch:
    check_long_columns(df, {"item": spec.item, "rater": spec.rater, "label": spec.label}, by)
    for param, col in (("item", spec.item), ("rater", spec.rater)):
        n_missing = int(df[col].isna().sum())
        if n_missing:
            raise missing_key_error(param, col, n_missing)
    labels = df[spec.label]
    from_dtype = dtype_categories([labels])
    keep = labels.notna().to_numpy()
    kept = df if keep.all() else df[keep]
    item, items = factorize_columns(kept, [*by, spec.item])
    rater, raters = factorize_columns(kept, [spec.rater])
    code, uniques = _labels(kept[spec.label], lists=True)
    repeated = None
    if len(raters):
        pair = item * len(raters) + rater
        dup = duplicated_keys(pair, len(items) * len(raters))
        if len(dup) and not defer:
            raise repeated_pairs(dup, items, raters)
        if len(dup):  # reported with the other parts' (Counts.repeated_error); counted once
            repeated = (items[dup // len(raters)], raters[dup % len(raters)])
            first = ~pd.Index(pair).duplicated()
            item, rater, code = item[first], rater[first], code[first]
    groups, item_group = _groups(items, by)
    return Batch(
        items, groups, item_group, raters, uniques, item, rater, code, n_rows, missing_by,
        n_missing_by, from_dtype, repeated,
    )  # fmt: skip


def _wide(
    df: pd.DataFrame,
    spec: LayoutSpec,
    by: list[Hashable],
    n_rows: int,
    missing_by: dict[Hashable, int],
    n_missing_by: int,
) -> Batch:
    cols = rater_columns(df, None if spec.raters is None else list(spec.raters), by)
    frame = pd.DataFrame(df[cols])
    from_dtype = dtype_categories([frame[c] for c in cols])
    plain = from_dtype is None
    arr = frame.to_numpy(dtype=object) if plain else frame.astype(object).to_numpy()
    present = ~pd.isna(arr)
    row, col = np.nonzero(present)
    values, row, col, rank = split_cells(arr[present], row, col)
    if rank is not None:
        raise TypeError(
            "cells that hold a primary and a secondary label (a tuple or list) are not counted "
            "in a tally or on a Dask frame: multi-label agreement needs the annotations "
            "themselves; run it on the pandas path, `df.agree.multilabel(...)`."
        )
    code, uniques = _labels(values)
    index = pd.Index(df.index)
    if by:
        arrays = [pd.Index(df[b]) for b in by] + [index]
        items: pd.Index = pd.MultiIndex.from_arrays(arrays, names=[*by, index.name])
    else:
        items = index
    groups, item_group = _groups(items, by)
    check_unique_items(index, item_group, groups)
    return Batch(
        items, groups, item_group, pd.Index(cols), uniques, row.astype(np.int64),
        col.astype(np.int64), code, n_rows, missing_by, n_missing_by, from_dtype,
    )  # fmt: skip
