"""Numeric ratings read as numbers: a wide frame as a float matrix, a long frame as (item,
rater, value) codes, without a registry of categories.

The numeric measures (the ICC, Kendall's W, Cronbach's alpha, Lin's concordance, Bland &
Altman, the consensus scores) read each rating as a number; on scores that are all distinct
(a judge's continuous score) building the category registry (a sort of every distinct value,
a code per rating) is the whole cost. :func:`numeric_encode` gives those measures what they
read, with the checks of :func:`~pdagree.encoding._encode.encode` that concern them (the rater
columns, the ``by=`` keys, one row per item, one rating per item and rater, at least two
raters with ratings), and ``None`` where the frame is not such data (text or boolean ratings,
declared categories, ranks, counts or contingency tables): the category path serves those.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd

from .._typing import FloatArray, IntArray
from ._arguments import as_list
from ._encode import _check_frame, _group_codes
from ._factorize import factorize_columns
from ._labels import _fmt, _plain
from ._ranks import check_unique_items, resolve
from ._spec import LayoutSpec, check_long_columns, layout_of, rater_columns, require_columns

__all__ = ["NumericEncoded", "numeric_encode"]


@dataclass(frozen=True, eq=False)
class NumericEncoded:
    """Numeric ratings: per rating its value ``x``, ``item`` and ``rater`` code; per item its
    ``group``; the labels of items, raters and groups, as :class:`~._encode.Encoded` keeps
    them."""

    layout: str
    items: pd.Index
    raters: pd.Index
    x: FloatArray
    item: IntArray
    rater: IntArray
    group: IntArray
    groups: pd.Index | None
    by: tuple[Hashable, ...]

    @property
    def n_items(self) -> int:
        return len(self.items)

    @property
    def n_raters(self) -> int:
        return len(self.raters)

    @property
    def n_groups(self) -> int:
        return 1 if self.groups is None else len(self.groups)

    @cached_property
    def categories(self) -> pd.Index:
        """The distinct values, sorted (computed only when asked: one sort)."""
        return pd.Index(np.unique(self.x))

    @property
    def n_categories(self) -> int:
        return len(self.categories)


def _float(series: pd.Series) -> bool:
    return pd.api.types.is_float_dtype(series.dtype)


def _continuous(x: FloatArray) -> bool:
    """Some rating is not a whole number: the category path's label checks leave such
    ratings alone, so reading them as numbers skips no warning."""
    head = x[:4096]  # ``x`` holds no nan; infinite values round to themselves
    return bool((head != np.round(head)).any() or (x != np.round(x)).any())


def _floats(frame: pd.DataFrame | pd.Series) -> FloatArray:
    out: FloatArray = frame.to_numpy(dtype=np.float64, na_value=np.nan)
    return out


def numeric_encode(df: pd.DataFrame, spec: LayoutSpec) -> NumericEncoded | None:
    """``df``'s ratings as numbers, read as ``spec`` describes them, or ``None`` where the
    category path must read them."""
    item, rater, label, rank = spec.item, spec.rater, spec.label, spec.rank
    raters, categories, by, layout = spec.raters, spec.categories, spec.by, spec.layout
    if categories is not None or rank is not None or layout in ("counts", "contingency"):
        return None
    if not isinstance(df, pd.DataFrame) or isinstance(df.columns, pd.MultiIndex):
        return None
    try:
        chosen = layout_of(layout, item, rater, label, raters, categories)
        by_list = as_list(by, df.columns)
        require_columns(_check_frame(df), {"by": by_list})
    except (TypeError, ValueError):
        return None  # the category path gives the error
    if by_list and df[by_list].isna().to_numpy().any():
        return None  # the category path leaves those rows out, and says so
    if chosen == "wide":
        return _wide(df, raters, by_list)
    return _long(df, item, rater, label, by_list)


def _wide(
    df: pd.DataFrame, raters: Sequence[Hashable] | None, by: list[Hashable]
) -> NumericEncoded | None:
    cols = rater_columns(df, raters, by)
    frame = df[cols]
    if not all(_float(frame[c]) for c in cols):
        return None
    values = _floats(frame).ravel()  # row-major: item by item, raters in column order
    missing = np.isnan(values)
    if missing.any():
        flat = np.flatnonzero(~missing)
        x = values[flat]
        item, rater = np.divmod(flat, len(cols))
    else:  # every cell rated: no gather, no division (a copy: ``values`` may be the frame's)
        x = values.copy()
        item = np.repeat(np.arange(len(frame), dtype=np.int64), len(cols))
        rater = np.tile(np.arange(len(cols), dtype=np.int64), len(frame))
    if (np.bincount(rater, minlength=len(cols)) > 0).sum() < 2 or not _continuous(x):
        return None  # the category path reads (and announces) the rest
    group, groups = _group_codes(df, by, len(df))
    check_unique_items(df.index, group, groups)
    return NumericEncoded(
        layout="wide",
        items=pd.Index(df.index),
        raters=pd.Index(cols),
        x=x,
        item=item.astype(np.int64, copy=False),
        rater=rater.astype(np.int64, copy=False),
        group=group,
        groups=groups,
        by=tuple(by),
    )


def _long(
    df: pd.DataFrame, item: Hashable, rater: Hashable, label: Hashable, by: list[Hashable]
) -> NumericEncoded | None:
    check_long_columns(df, {"item": item, "rater": rater, "label": label}, by)
    labels = df[label]
    if not _float(labels):
        return None
    x = _floats(labels)
    keep = ~np.isnan(x)
    if not _continuous(x[keep]):
        return None
    every = bool(keep.all())
    keys = df[[*by, item, rater]] if every else df.loc[keep, [*by, item, rater]]
    for col in (item, rater):
        if df[col].isna().any():
            return None  # the category path names the missing keys
    item_code, items = factorize_columns(keys, [*by, item], required=[item])
    rater_code, rater_labels = factorize_columns(keys, [rater], required=[rater])
    if len(rater_labels) < 2:
        raise ValueError(
            "agreement needs at least two raters; `rater` column "
            f"{_plain(rater)!r} has {len(rater_labels)} ({_fmt(list(rater_labels))})."
        )
    x = x if every else x[keep]
    resolve(item_code, rater_code, item_code, None, items, rater_labels)  # one rating per pair
    if by:
        group, groups = _group_codes(items.to_frame(index=False), by, len(items))
    else:
        group, groups = np.zeros(len(items), dtype=np.int64), None
    return NumericEncoded(
        layout="long",
        items=items,
        raters=rater_labels,
        x=x,
        item=item_code,
        rater=rater_code,
        group=group,
        groups=groups,
        by=tuple(by),
    )
