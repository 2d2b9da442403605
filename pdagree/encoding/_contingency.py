"""Tables of counts: the checks every count table passes, and two raters' contingency table
as codes.

Part of the encoding layer (:mod:`pdagree.encoding` builds the :class:`~pdagree.encoding.Encoded`
from what :func:`contingency_codes` returns). A contingency table is a K x K frame: the index
holds the first rater's categories, the columns the second rater's, a cell the number of items
the two raters put in that pair of categories. Each non-zero cell becomes one item (two
annotations, rater 0 and rater 1) that stands for as many items as the cell counts (its
*multiplicity*): the coefficients are computed from the K x K table whatever its total
(:mod:`pdagree.tensors.table_data`). The analyses that read items one by one (``items()``,
the IRT model, SPA) see the table expanded to one item per count by :func:`expand_cells`,
which refuses above :data:`MAX_TABLE_ITEMS` before allocating.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._typing import FloatArray, IntArray
from ._labels import _fmt, _plain, categories_of, dtype_categories, label_numbers

__all__ = ["ContingencyCodes", "check_counts", "contingency_codes", "expand_cells"]

#: Rater labels for a table whose index or columns are unnamed.
DEFAULT_RATERS = ("rater1", "rater2")

#: The most items a contingency table may count for the analyses that read it as one item per
#: count (the coefficients and their uncertainty are computed from the table at any size).
MAX_TABLE_ITEMS = 5_000_000
#: About the memory an expanded item takes through the analysis (codes and count tensors).
_BYTES_PER_ITEM = 170


def _as_written(values: np.ndarray[Any, Any]) -> list[float | int]:
    """Numbers as the user likely wrote them: whole numbers without a trailing ``.0``."""
    return [int(v) if float(v).is_integer() else float(v) for v in values.tolist()]


def check_counts(
    frame: pd.DataFrame, cols: Sequence[Hashable], meaning: str, *, numeric_hint: str
) -> FloatArray:
    """The cells of ``frame`` as floats, when every one is a finite, non-negative whole number.

    ``meaning`` ends each message ("A count is ..."); ``numeric_hint`` follows the error for
    non-numeric columns. Raises a TypeError for non-numeric columns and a ValueError for
    missing, infinite, negative or fractional counts.
    """
    non_numeric = [c for c in cols if not pd.api.types.is_numeric_dtype(frame[c].dtype)]
    if non_numeric:
        raise TypeError(
            f"counts must be numbers; columns {_fmt(non_numeric)} are not numeric. {numeric_hint}"
        )
    arr = frame.to_numpy(dtype=np.float64, na_value=np.nan)
    if np.isnan(arr).any():
        rows, colpos = np.nonzero(np.isnan(arr))
        where = [(frame.index[int(r)], cols[int(c)]) for r, c in zip(rows, colpos, strict=True)]
        raise ValueError(
            f"counts must not be missing; {len(rows)} cells are NaN, e.g. at {_fmt(where)}. "
            "Use 0 for a category nobody chose."
        )
    if not np.isfinite(arr).all():
        raise ValueError(f"counts must be finite; got infinite cells. {meaning}")
    if (arr < 0).any():
        bad = np.unique(arr[arr < 0])
        raise ValueError(
            f"counts must be non-negative integers; got {_fmt(_as_written(bad))}. {meaning}"
        )
    if (arr != np.round(arr)).any():
        bad = np.unique(arr[arr != np.round(arr)])
        raise ValueError(f"counts must be whole numbers; got {_fmt(bad.tolist())}. {meaning}")
    return arr


@dataclass(frozen=True)
class ContingencyCodes:
    """A contingency table as codes: per non-zero cell, the first rater's category code
    (``first``), the second's (``second``) and the number of items it counts (``count``)."""

    raters: pd.Index
    categories: pd.Index
    ordered: bool
    first: IntArray
    second: IntArray
    count: FloatArray


_MEANING = "A cell counts the items the two raters put in that pair of categories."


def _check_axes(df: pd.DataFrame) -> None:
    for axis, labels in (("index", df.index), ("columns", df.columns)):
        if isinstance(labels, pd.MultiIndex):
            raise TypeError(
                f"a contingency table has one level of labels on each axis; its {axis} is a "
                f"MultiIndex of {labels.nlevels} levels. Select one table (e.g. with "
                "`.xs(...)`), or pass the ratings as a wide or long frame."
            )
        if labels.has_duplicates:
            dup = list(labels[labels.duplicated()].unique())
            raise ValueError(
                f"a contingency table lists each category once per axis; its {axis} repeats "
                f"{_fmt(dup)}. Add up the repeated {'rows' if axis == 'index' else 'columns'}."
            )
    if df.shape[1] == 0:
        raise ValueError(
            "the contingency table has no columns: it needs one row per category of the first "
            "rater and one column per category of the second."
        )


_MARGIN_NAMES = ("all", "total", "sum")


def _check_margins(rows: pd.Index, cols: pd.Index, arr: FloatArray) -> None:
    """A last row and column of totals (``pd.crosstab(..., margins=True)``) is not a
    category."""
    if arr.shape[0] < 2 or arr.shape[1] < 2:
        return
    last = rows[-1]
    if not (isinstance(last, str) and last.lower() in _MARGIN_NAMES and cols[-1] == last):
        return
    if np.array_equal(arr[-1], arr[:-1].sum(axis=0)) and np.array_equal(
        arr[:, -1], arr[:, :-1].sum(axis=1)
    ):
        raise ValueError(
            f"the contingency table's last row and column, {last!r}, hold the totals of the "
            "others (pd.crosstab(..., margins=True) adds them), not a category. Drop them: "
            f"table.drop(index={last!r}, columns={last!r})."
        )


def _rater_names(df: pd.DataFrame) -> pd.Index:
    first = df.index.name if df.index.name is not None else DEFAULT_RATERS[0]
    second = df.columns.name if df.columns.name is not None else DEFAULT_RATERS[1]
    if first == second:
        raise ValueError(
            "the index and columns names of a contingency table name its two raters; both are "
            f"{_plain(first)!r}. Rename one, e.g. "
            "table.rename_axis(index='first', columns='second')."
        )
    return pd.Index([first, second])


def _numbers_as_numbers(rows: pd.Index, cols: pd.Index) -> tuple[pd.Index, pd.Index]:
    """Numbers on one axis and the same numbers as text on the other (``read_csv`` reads a
    table's first column as numbers and its header as text) become numbers on both."""
    numeric = [pd.api.types.is_numeric_dtype(x.dtype) for x in (rows, cols)]
    if numeric[0] == numeric[1]:
        return rows, cols
    number_side, text_side = (rows, cols) if numeric[0] else (cols, rows)
    parsed = label_numbers(text_side)
    if parsed is None or pd.api.types.is_bool_dtype(number_side.dtype):
        return rows, cols
    as_int = pd.api.types.is_integer_dtype(number_side.dtype) and bool(
        (parsed == np.round(parsed)).all()
    )
    converted = pd.Index(parsed.astype(np.int64) if as_int else parsed, name=text_side.name)
    return (rows, converted) if numeric[0] else (converted, cols)


def _categories(
    rows: pd.Index, cols: pd.Index, declared: Sequence[Hashable] | None
) -> tuple[pd.Index, bool]:
    from_dtype = dtype_categories(
        [pd.Series(rows, name="index"), pd.Series(cols, name="columns")],
        what="axis",
        plural="axes",
    )
    shared = rows.isin(cols)
    if declared is None and not shared.any():
        raise ValueError(
            "a contingency table's index holds the first rater's categories and its columns the "
            f"second's; its index {_fmt(list(rows))} and columns {_fmt(list(cols))} have no "
            "label in common, so they cannot be aligned. Label both axes with the categories "
            "(e.g. table.columns = table.index when they are in the same order), or pass "
            "`categories=[...]` if the raters really share no category."
        )
    union = rows.append(cols[~cols.isin(rows)]) if len(cols) else rows
    same_order = list(rows) == list(cols)
    return categories_of(pd.Index(union), declared, from_dtype, keep_order=same_order)


def contingency_codes(df: pd.DataFrame, categories: Sequence[Hashable] | None) -> ContingencyCodes:
    """Check a contingency table and expand it to annotations (see the module docstring).

    Categories: an ordered Categorical's order, else ``categories=[...]``, else the labels of
    both axes (their union): numbers by value; text in the table's order when the index and
    the columns list the same labels in the same order, else sorted (an order nobody
    declared).
    """
    _check_axes(df)
    rows, cols = _numbers_as_numbers(pd.Index(df.index), pd.Index(df.columns))
    raters = _rater_names(df)
    arr = check_counts(
        df,
        list(df.columns),
        _MEANING,
        numeric_hint="A contingency table holds numbers of items only: make the first rater's "
        "categories the index (df.set_index(col) or read_csv(..., index_col=0)).",
    )
    _check_margins(rows, cols, arr)
    total = float(arr.sum())
    if total == 0:
        raise ValueError(
            "the contingency table holds no items (every count is 0). Agreement needs items "
            "rated by both raters."
        )
    cats, ordered = _categories(rows, cols, categories)
    row_code = cats.get_indexer(rows)
    col_code = cats.get_indexer(cols)
    outside = [*rows[row_code < 0].tolist(), *cols[col_code < 0].tolist()]
    if outside:
        raise ValueError(
            f"the contingency table has labels missing from `categories`, e.g. "
            f"{_fmt(list(dict.fromkeys(outside)))}; add them to `categories` or drop those rows "
            "and columns."
        )
    counts = arr.ravel()
    cell = np.flatnonzero(counts)
    return ContingencyCodes(
        raters=raters,
        categories=cats,
        ordered=ordered,
        first=row_code[cell // arr.shape[1]].astype(np.int64),
        second=col_code[cell % arr.shape[1]].astype(np.int64),
        count=counts[cell].astype(np.float64),
    )


def expand_cells(count: FloatArray) -> IntArray:
    """Per item of the table read as one item per count, the cell it falls in (cells in the
    order of ``count``); a ValueError, before allocating, above :data:`MAX_TABLE_ITEMS`."""
    total = float(count.sum())
    if total > MAX_TABLE_ITEMS:
        raise ValueError(
            f"this analysis reads the contingency table as one item per count, and the table "
            f"counts {total:,.0f} items: above {MAX_TABLE_ITEMS:,} that would need about "
            f"{total * _BYTES_PER_ITEM / 2**30:,.1f} GiB. The coefficients (observed, bennett, "
            "fleiss, scott, cohen, conger, gwet, light, bias, alpha) and their standard "
            "errors, intervals and tests are computed from the table at any size; for this "
            "analysis, divide the table by a common factor (rounded): the proportions stay "
            "the same."
        )
    return np.repeat(np.arange(len(count), dtype=np.int64), count.astype(np.int64))
