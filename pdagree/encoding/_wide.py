"""A wide frame's rating cells to codes, column by column, where no cell needs a Python object.

Part of the encoding layer (:mod:`pdagree.encoding`). The general path turns the rater
columns into one object array (``frame.to_numpy(dtype=object)``), finds the missing cells with
``pd.isna`` and encodes the present ones, in row-major order, with
:func:`~._labels.encode_labels`: a Python object per cell. Where every rater column is
text (pandas' ``str`` in either storage, ``string[pyarrow]``, object columns of strings) or
every one has the same NumPy number dtype, :func:`wide_codes` gives exactly the same entries,
codes, categories and order from one ``pd.factorize`` per column (text) or the numbers
themselves, and ``None`` otherwise
(object columns may hold a primary and a secondary label as a tuple; Categoricals declare
categories; mixed columns would merge ``1`` and ``1.0`` in first-seen order).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._typing import IntArray
from ._factorize import hash_input
from ._labels import arrow_text, encode_numbers, encode_uniques

__all__ = ["WideCodes", "wide_codes"]


@dataclass(frozen=True)
class WideCodes:
    """The present cells in row-major order: item (row) and rater (column) positions, the
    category codes, the categories and whether their order is declared."""

    item: IntArray
    rater: IntArray
    code: IntArray
    categories: pd.Index
    ordered: bool


def _text(column: pd.Series) -> bool:
    """Text: pandas' ``str`` (either storage), ``string[pyarrow]``, or an object column whose
    values are all strings (no tuple of a primary and a secondary label)."""
    dtype = column.dtype
    if isinstance(dtype, pd.StringDtype) or arrow_text(dtype):
        return True
    is_object = isinstance(dtype, np.dtype) and dtype.kind == "O"
    kind = pd.api.types.infer_dtype(column, skipna=True) if is_object else ""
    return kind in ("string", "empty")  # "empty": every cell missing


def wide_codes(frame: pd.DataFrame, declared: Sequence[Hashable] | None) -> WideCodes | None:
    """The rater columns ``frame`` encoded as the general path encodes them, or ``None``
    where this path does not apply (see the module's docstring).

    >>> frame = pd.DataFrame({"a": ["x", "y", None], "b": ["y", "y", "x"]}, dtype="str")
    >>> codes = wide_codes(frame, None)
    >>> codes.item.tolist(), codes.rater.tolist(), codes.code.tolist(), list(codes.categories)
    ([0, 0, 1, 1, 2], [0, 1, 0, 1, 1], [0, 1, 1, 1, 0], ['x', 'y'])
    """
    dtypes = list(frame.dtypes)
    if all(_text(frame.iloc[:, j]) for j in range(len(dtypes))):
        return _text_codes(frame, declared)
    first = dtypes[0]
    same_numbers = isinstance(first, np.dtype) and first.kind in "iuf"
    if declared is None and same_numbers and all(d == first for d in dtypes):
        return _number_codes(frame)
    return None


def _number_codes(frame: pd.DataFrame) -> WideCodes | None:
    arr = frame.to_numpy()
    present = ~np.isnan(arr) if arr.dtype.kind == "f" else np.ones(arr.shape, dtype=bool)
    item, rater = np.nonzero(present)
    numbers = encode_numbers(arr[present])  # row-major order, as the general path reads them
    if numbers is None:  # integers beyond 2**53: the general path says what to do
        return None
    code, categories, ordered = numbers
    return WideCodes(item.astype(np.int64), rater.astype(np.int64), code, categories, ordered)


def _text_codes(frame: pd.DataFrame, declared: Sequence[Hashable] | None) -> WideCodes | None:
    n_rows, n_cols = frame.shape
    local = np.empty((n_rows, n_cols), dtype=np.int64)
    labels: list[np.ndarray[Any, Any]] = []
    first_cell: list[IntArray] = []
    offset = 0
    for j in range(n_cols):  # over rater columns, not rows
        codes, uniques = pd.factorize(hash_input(frame.iloc[:, j]))
        codes = np.asarray(codes, dtype=np.int64)
        # Codes appear in first-seen order, so the first row of label k is where the running
        # maximum of the codes reaches k.
        running = np.maximum.accumulate(codes)
        first_row = np.searchsorted(running, np.arange(len(uniques)), side="left")
        local[:, j] = np.where(codes >= 0, codes + offset, -1)
        labels.append(np.asarray(uniques, dtype=object))
        first_cell.append(first_row * n_cols + j)  # row-major position of the first cell
        offset += len(uniques)
    if offset == 0:
        return None  # no rating at all: the general path says so
    # One label in several columns is one category, first seen in row-major order (the
    # general path's order: its first-seen uniques fix which of equal labels is kept).
    merged, distinct = pd.factorize(np.concatenate(labels))
    merged = np.asarray(merged, dtype=np.int64)
    first = np.full(len(distinct), n_rows * n_cols, dtype=np.int64)
    np.minimum.at(first, merged, np.concatenate(first_cell))
    order = np.argsort(first, kind="stable")
    position = np.empty(len(order), dtype=np.int64)
    position[order] = np.arange(len(order), dtype=np.int64)
    present = local >= 0
    item, rater = np.nonzero(present)
    seen = position[merged][local[present]]
    uniques = pd.Index(np.asarray(distinct, dtype=object)[order])
    code, categories, ordered = encode_uniques(seen, uniques, declared, None)
    return WideCodes(item.astype(np.int64), rater.astype(np.int64), code, categories, ordered)
