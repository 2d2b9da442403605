"""A Dask frame reduced to count tensors on the cluster, encoded on the client.

The cluster computes, in one pass over the partitions (one ``dask.compute`` call):

- ``n_ik``: ``groupby([*by, item, label]).size()``, ratings per item and label. Items may
  straddle partitions: the groupby-size reduction adds their partial counts before any
  per-item formula sees them;
- ``n_gck``: ``groupby([*by, rater, label]).size()``, ratings per group, rater and label;
- the checks the pandas path makes: missing items, raters and ``by`` keys, and (unless
  ``check_duplicates=False``) the (item, rater) pairs with more than one label
  (``groupby([*by, item, rater]).size()``, reduced to the pairs counted twice);

and sends back only those counts. The client then applies pdagree's own rules: labels to
categories (:func:`~pdagree.encoding._labels.encode_labels` on the distinct labels), items
and raters in the order of the pandas path
(:func:`~pdagree.encoding._factorize.factorize_columns`), and builds a
:class:`~pdagree.dask._data.CountData`: the same definitions, registry and result types then
finish the job. A wide frame is reduced partition by partition (a row is an item, so no item
straddles partitions) and combined on the client.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import dask
import numpy as np
import pandas as pd

from .._typing import IntArray
from .._warnings import PdagreeWarning, warn
from ..encoding._arguments import as_list as _as_list
from ..encoding._encode import (
    Encoded,
    _check_by_overlap,
    _group_codes,
    _has_categorical,
    _require_columns,
    layout_of,
    rater_columns,
)
from ..encoding._factorize import factorize_columns
from ..encoding._labels import (
    DtypeCategories,
    _fmt,
    categories_of,
    dtype_categories,
    encode_labels,
)
from ..encoding._ranks import check_unique_items, repeated_pairs, split_cells
from ._data import CountData

__all__ = ["reduce_frame"]


def reduce_frame(
    ddf: Any,
    *,
    item: Hashable | None = None,
    rater: Hashable | None = None,
    label: Hashable | None = None,
    raters: Sequence[Hashable] | None = None,
    categories: Sequence[Hashable] | None = None,
    by: Hashable | Sequence[Hashable] | None = None,
    layout: str | None = None,
    check_duplicates: bool = True,
    split_out: int | None = None,
) -> CountData:
    """The count tensors of a Dask frame, as :class:`CountData` (the arguments of
    :func:`pdagree.encoding._encode.encode`, with the same checks and messages)."""
    meta = ddf._meta
    by_cols = _as_list(by, meta.columns)
    _require_columns(meta, {"by": by_cols})
    layout = layout_of(layout, item, rater, label, raters, categories)
    if layout in ("counts", "contingency"):
        raise TypeError(
            f"a {layout} table is already reduced to counts: read it with pandas, "
            f"`ddf.compute().agree(layout={layout!r})`; the Dask engine reads long and wide "
            "frames."
        )
    declared = categories is not None or _has_categorical(meta, layout, label, raters, by_cols)
    if layout == "long":
        return _long(ddf, item, rater, label, categories, by_cols, declared, check_duplicates,
                     split_out)  # fmt: skip
    return _wide(ddf, raters, categories, by_cols, declared)


# --------------------------------------------------------------------------- shared


def _categories(pdf: pd.Series) -> pd.Index:
    return pd.Index(pdf.cat.categories)


def _column_meta(ddf: Any, column: Hashable) -> pd.Series:
    """An empty Series of the column's dtype, a Categorical's categories included: where
    Dask does not know them, those the computed column has (each partition's own, in
    partition order, as ``ddf.compute()`` unions them), found in one cheap pass."""
    meta: pd.Series = ddf._meta[column]
    dtype = meta.dtype
    if not isinstance(dtype, pd.CategoricalDtype) or ddf[column].cat.known:
        return meta
    parts = [dask.delayed(_categories)(p) for p in ddf[column].to_delayed()]
    found = dask.compute(*parts)
    union: dict[Hashable, None] = {}
    for categories in found:
        union.update(dict.fromkeys(categories.tolist()))
    known = pd.CategoricalDtype(pd.Index(list(union)), ordered=dtype.ordered)
    return pd.Series([], dtype=known)


def _warn_missing_keys(n_rows: int, n_missing: int, per_column: dict[Hashable, int]) -> None:
    """The warning of :func:`pdagree.encoding._encode._drop_missing_keys`, from counts."""
    if not n_missing:
        return
    shown = ", ".join(f"{col!r} on {n}" for col, n in per_column.items() if n)
    warn(
        f"`by` is missing on {n_missing} of {n_rows} rows ({shown}); they are left "
        "out, as `groupby` does. Fill them (e.g. `df[col].fillna('unknown')`) to keep them as "
        "a group of their own.",
        PdagreeWarning,
    )


def _label_codes(
    labels: pd.Index,
    totals: IntArray,
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
        f"{_fmt(list(values[unknown]))}; add them to `categories` or drop those ratings."
    )


def _level_codes(index: pd.MultiIndex, position: int, lookup: IntArray) -> IntArray:
    """``lookup`` applied to the values of one level of ``index`` through its codes."""
    codes = np.asarray(index.codes[position], dtype=np.int64)
    return np.asarray(lookup, dtype=np.int64)[codes]


def _level_frame(index: pd.Index, names: list[Hashable]) -> pd.DataFrame:
    """The levels ``names`` of ``index`` (positions from the end) as columns."""
    n = index.nlevels
    return pd.DataFrame(
        {name: index.get_level_values(n - len(names) + i) for i, name in enumerate(names)}
    )


def _as_multi(series: pd.Series) -> pd.MultiIndex:
    index = series.index
    if not isinstance(index, pd.MultiIndex):  # pragma: no cover - groupby on 2+ keys
        index = pd.MultiIndex.from_arrays([index])
    return index


def _group_of_keys(groups: pd.Index | None, keys: pd.DataFrame) -> IntArray:
    """The group code of each row of ``keys`` (the ``by`` columns)."""
    if groups is None:
        return np.zeros(len(keys), dtype=np.int64)
    if isinstance(groups, pd.MultiIndex):
        wanted: pd.Index = pd.MultiIndex.from_frame(keys)
    else:
        wanted = pd.Index(keys.iloc[:, 0])
    return np.asarray(groups.get_indexer(wanted), dtype=np.int64)


def _rater_tensor(
    group: IntArray, rater: IntArray, code: IntArray, count: Any, n_groups: int, n_raters: int,
    n_categories: int,
) -> Any:  # fmt: skip
    """``n_gck`` from (group, rater, category, count) rows."""
    key = (group * n_raters + rater) * n_categories + code
    size = n_groups * n_raters * n_categories
    nck = np.bincount(key, weights=np.asarray(count, dtype=np.float64), minlength=size)
    return nck.reshape(n_groups, n_raters, n_categories)


# --------------------------------------------------------------------------- long


def _long(
    ddf: Any,
    item: Hashable,
    rater: Hashable,
    label: Hashable,
    categories: Sequence[Hashable] | None,
    by: list[Hashable],
    declared: bool,
    check_duplicates: bool,
    split_out: int | None,
) -> CountData:
    meta = ddf._meta
    _require_columns(meta, {"item": [item], "rater": [rater], "label": [label]})
    _check_by_overlap(by, {"item": item, "rater": rater, "label": label})
    label_meta = _column_meta(ddf, label)
    frame = ddf[[*by, item, rater, label]]
    out = ddf.npartitions if split_out is None else split_out
    lazy: dict[str, Any] = {"n_rows": frame.shape[0]}
    if by:
        missing_by = frame[by].isna()
        any_missing = missing_by.any(axis=1)
        lazy["by_missing"] = missing_by.sum()
        lazy["n_by_missing"] = any_missing.sum()
        frame = frame[~any_missing]
    lazy["item_missing"] = frame[item].isna().sum()
    lazy["rater_missing"] = frame[rater].isna().sum()
    lazy["n_labels"] = ~frame[label].isna().sum()
    keys: dict[str, Any] = {"dropna": True, "observed": True, "sort": False}
    lazy["nik"] = frame.groupby([*by, item, label], **keys).size(split_out=out)
    lazy["nck"] = frame.groupby([*by, rater, label], **keys).size()
    if check_duplicates:
        labelled = frame[~frame[label].isna()]
        pairs = labelled.groupby([*by, item, rater], **keys).size(split_out=out)
        lazy["repeated"] = pairs[pairs > 1]
    names = list(lazy)
    got = dict(zip(names, dask.compute(*lazy.values()), strict=True))

    n_rows = int(got["n_rows"])
    if n_rows == 0:
        raise ValueError(
            "the frame is empty (0 rows): agreement needs items rated by at least two raters."
        )
    if by:
        per_column = {col: int(got["by_missing"][col]) for col in by}
        _warn_missing_keys(n_rows, int(got["n_by_missing"]), per_column)
    for param, col in (("item", item), ("rater", rater)):
        n_missing = int(got[f"{param}_missing"])
        if n_missing:
            raise ValueError(
                f"`{param}` column {col!r} has {n_missing} missing values; every annotation "
                f"needs its {param}. Fill them or drop those rows."
            )
    if int(got["n_labels"]) == 0:
        raise ValueError(
            f"`label` column {label!r} holds no labels: every value is missing. Agreement "
            "needs items rated by at least two raters."
        )

    nck_counts: pd.Series = got["nck"]
    nck_index = _as_multi(nck_counts)
    # The distinct labels (the last level of both tables) and the ratings of each.
    label_level = nck_index.levels[-1]
    totals = np.bincount(
        np.asarray(nck_index.codes[-1], dtype=np.int64),
        weights=nck_counts.to_numpy(dtype=np.float64),
        minlength=len(label_level),
    )
    used = totals > 0
    from_dtype = dtype_categories([label_meta])
    level_codes, cats, ordered = _label_codes(
        label_level[used], totals[used], categories, from_dtype, f"`label` column {label!r}"
    )
    lookup = np.full(len(label_level), -1, dtype=np.int64)
    lookup[used] = level_codes

    nik_counts: pd.Series = got["nik"]
    nik_index = _as_multi(nik_counts)
    entry_lookup = np.full(len(nik_index.levels[-1]), -1, dtype=np.int64)
    where = label_level.get_indexer(nik_index.levels[-1])
    entry_lookup[where >= 0] = lookup[where[where >= 0]]
    code = _level_codes(nik_index, nik_index.nlevels - 1, entry_lookup)
    item_keys = _level_frame(nik_index.droplevel(-1), [*by, item])
    item_code, items = factorize_columns(item_keys, [*by, item])

    rater_keys = _level_frame(nck_index.droplevel(-1), [rater])
    rater_code, rater_index = factorize_columns(rater_keys, [rater])
    n_raters = len(rater_index)
    if n_raters < 2:
        raise ValueError(
            f"agreement needs at least two raters; `rater` column {rater!r} has {n_raters} "
            f"({_fmt(list(rater_index))})."
        )
    if check_duplicates and len(got["repeated"]):
        _raise_repeated(got["repeated"], items, rater_index, by, item, rater)
    if by:
        group, groups = _group_codes(items.to_frame(index=False), by, len(items))
    else:
        group, groups = np.zeros(len(items), dtype=np.int64), None
    if by:
        rater_keys_by = _level_frame(nck_index.droplevel([-2, -1]), by)
    else:
        rater_keys_by = pd.DataFrame(index=range(len(nck_counts)))
    rater_group = _group_of_keys(groups, rater_keys_by)
    nck = _rater_tensor(
        rater_group,
        rater_code,
        _level_codes(nck_index, nck_index.nlevels - 1, lookup),
        nck_counts.to_numpy(),
        1 if groups is None else len(groups),
        n_raters,
        len(cats),
    )
    enc = Encoded(
        layout="long",
        items=items,
        raters=rater_index,
        categories=cats,
        item=item_code,
        rater=None,
        code=code,
        weight=nik_counts.to_numpy(dtype=np.float64),
        group=group,
        groups=groups,
        by=tuple(by),
        declared=declared,
        ordered=ordered,
    )
    return CountData(enc, nck)


def _raise_repeated(
    repeated: pd.Series,
    items: pd.Index,
    raters: pd.Index,
    by: list[Hashable],
    item: Hashable,
    rater: Hashable,
) -> None:
    """The pandas path's error for (item, rater) pairs with more than one label."""
    index = _as_multi(repeated)
    keys = _level_frame(index.droplevel(-1), [*by, item])
    if by:
        wanted: pd.Index = pd.MultiIndex.from_frame(keys)
    else:
        wanted = pd.Index(keys.iloc[:, 0])
    item_code = items.get_indexer(wanted)
    rater_code = raters.get_indexer(index.get_level_values(-1))
    pair = np.sort(item_code.astype(np.int64) * len(raters) + rater_code)
    raise repeated_pairs(pair, items, raters)


# --------------------------------------------------------------------------- wide


def _wide_chunk(pdf: pd.DataFrame, cols: list[Hashable], by: list[Hashable]) -> dict[str, Any]:
    """One partition of a wide frame (whole items): its index, its ``by`` keys, its distinct
    labels, the (row, label) counts and the (``by`` keys, rater, label) counts."""
    n_rows = len(pdf)
    missing_by: dict[Hashable, int] = {}
    if by:
        missing = pdf[by].isna()
        missing_by = {col: int(missing[col].sum()) for col in by}
        dropped = missing.to_numpy().any(axis=1)
        if dropped.any():
            pdf = pd.DataFrame(pdf[~dropped])
    frame = pd.DataFrame(pdf[cols])
    if any(isinstance(frame[c].dtype, pd.CategoricalDtype) for c in cols):
        arr = frame.astype(object).to_numpy()
    else:
        arr = frame.to_numpy(dtype=object)
    present = ~pd.isna(arr)
    row, col = np.nonzero(present)
    values, row, col, rank = split_cells(arr[present], row, col)
    if rank is not None:
        raise TypeError(
            "cells that hold a primary and a secondary label (a tuple or list) are not read "
            "on a Dask frame: multi-label agreement needs the annotations themselves; run it "
            "on the pandas path, `ddf.compute().agree.multilabel(...)`."
        )
    codes, uniques = pd.factorize(values)
    width = max(len(uniques), 1)
    cells, cell_counts = np.unique(row * width + codes, return_counts=True)
    keys = {f"by{i}": pdf[b].to_numpy()[row] for i, b in enumerate(by)}
    per_rater = (
        pd.DataFrame({**keys, "rater": col, "label": codes})
        .groupby([*keys, "rater", "label"], sort=False)
        .size()
    )
    return {
        "n_rows": n_rows,
        "missing_by": missing_by,
        "n_missing_by": n_rows - len(pdf),
        "index": pdf.index,
        "by": pdf[by].reset_index(drop=True) if by else None,
        "labels": pd.Index(uniques, dtype=object),
        "row": cells // width,
        "code": cells % width,
        "count": cell_counts,
        "per_rater": per_rater,
    }


def _wide(
    ddf: Any,
    raters: Sequence[Hashable] | None,
    categories: Sequence[Hashable] | None,
    by: list[Hashable],
    declared: bool,
) -> CountData:
    meta = ddf._meta
    cols = rater_columns(meta, raters, by)
    from_dtype = dtype_categories([_column_meta(ddf, c) for c in cols])
    parts = [dask.delayed(_wide_chunk)(p, cols, by) for p in ddf[[*by, *cols]].to_delayed()]
    chunks: list[dict[str, Any]] = list(dask.compute(*parts))

    n_rows = sum(c["n_rows"] for c in chunks)
    if n_rows == 0:
        raise ValueError(
            "the frame is empty (0 rows): agreement needs items rated by at least two raters."
        )
    if by:
        per_column = {col: sum(c["missing_by"][col] for c in chunks) for col in by}
        _warn_missing_keys(n_rows, sum(c["n_missing_by"] for c in chunks), per_column)
    all_labels = pd.Index(
        pd.unique(np.concatenate([np.asarray(c["labels"], dtype=object) for c in chunks]))
        if chunks
        else [],
        dtype=object,
    )
    if len(all_labels) == 0:
        raise ValueError(
            "the frame holds no ratings: every rating cell is missing. Agreement needs items "
            "rated by at least two raters."
        )
    lookups = [all_labels.get_indexer(c["labels"]) for c in chunks]
    per_rater = pd.concat(
        [
            c["per_rater"].rename(index=dict(enumerate(lk)), level="label")
            for c, lk in zip(chunks, lookups, strict=True)
            if len(c["per_rater"])
        ]
    )
    per_rater = per_rater.groupby(level=list(range(per_rater.index.nlevels))).sum()
    pr_index = _as_multi(per_rater)
    label_of_row = np.asarray(pr_index.get_level_values("label"), dtype=np.int64)
    rater_of_row = np.asarray(pr_index.get_level_values("rater"), dtype=np.int64)
    active = np.unique(rater_of_row)
    if len(active) < 2:
        raise ValueError(
            f"agreement needs at least two raters with ratings; only "
            f"{_fmt([cols[int(i)] for i in active])} of the rater columns {_fmt(cols)} has any. "
            "Add ratings from another rater."
        )
    totals = np.bincount(label_of_row, weights=per_rater.to_numpy(), minlength=len(all_labels))
    label_codes, cats, ordered = _label_codes(
        all_labels, totals, categories, from_dtype, "a rating cell"
    )
    index = chunks[0]["index"].append([c["index"] for c in chunks[1:]])
    if by:
        by_frame = pd.concat([c["by"] for c in chunks], ignore_index=True)
        group, groups = _group_codes(by_frame, by, len(by_frame))
    else:
        group, groups = np.zeros(len(index), dtype=np.int64), None
    check_unique_items(pd.Index(index), group, groups)
    offsets = np.cumsum([0, *(len(c["index"]) for c in chunks)])
    item = np.concatenate([c["row"] + off for c, off in zip(chunks, offsets, strict=False)])
    code = np.concatenate(
        [label_codes[lk[c["code"]]] for c, lk in zip(chunks, lookups, strict=True)]
    )
    count = np.concatenate([c["count"] for c in chunks]).astype(np.float64)
    keys = _level_frame(pr_index.droplevel(["rater", "label"]), by) if by else pd.DataFrame(
        index=range(len(per_rater))
    )  # fmt: skip
    nck = _rater_tensor(
        _group_of_keys(groups, keys),
        rater_of_row,
        label_codes[label_of_row],
        per_rater.to_numpy(),
        1 if groups is None else len(groups),
        len(cols),
        len(cats),
    )
    enc = Encoded(
        layout="wide",
        items=pd.Index(index),
        raters=pd.Index(cols),
        categories=cats,
        item=item.astype(np.int64),
        rater=None,
        code=code.astype(np.int64),
        weight=count,
        group=group,
        groups=groups,
        by=tuple(by),
        declared=declared,
        ordered=ordered,
    )
    return CountData(enc, nck)
