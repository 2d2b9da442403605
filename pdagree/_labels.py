"""Labels to categories: which categories there are, in which order, and whether that order
was declared.

Part of the encoding layer (:mod:`pdagree._encode`). The rules, in order of precedence:

1. An ordered Categorical declares its categories (used or not) and their order.
2. ``categories=[...]`` declares the categories (used or not) and their order.
3. An unordered Categorical declares its categories (used or not), but not their order.
4. Labels that are all numbers are ordered by value. Text that reads as a number counts as a
   number (``'1'``, ``'2'``, ``'10'``: what ``read_csv`` gives for a column that also holds
   text), so ``'10'`` comes after ``'2'``; the categories keep the labels as written.
   Booleans are labels, not numbers.
5. Other labels are sorted, but that order is not declared: coefficients that depend on the
   order (ordinal, interval and ratio alpha; every named weight but ``"identity"``) refuse them.

A counts table's columns are its categories: numbers in order of value, else in column order,
which counts as declared (an ordered or unordered CategoricalIndex of columns, as
``pd.crosstab`` of a Categorical gives, follows rules 1 and 3).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ._typing import FloatArray, IntArray

__all__ = [
    "DtypeCategories",
    "categories_of",
    "dtype_categories",
    "encode_labels",
    "label_numbers",
]

_MAX_SHOWN = 5
_NUMBER_KINDS = ("integer", "floating", "mixed-integer-float", "decimal")
_MAYBE_NUMBER_KINDS = ("string", "mixed", "mixed-integer")


def _fmt(values: Sequence[Any]) -> str:
    """A list for an error message: the first few values, then ``...``."""
    shown = list(values[:_MAX_SHOWN])
    return repr(shown)[:-1] + (", ...]" if len(values) > _MAX_SHOWN else "]")


def _is_bool(value: object) -> bool:
    return isinstance(value, (bool, np.bool_))


def label_numbers(labels: pd.Index) -> FloatArray | None:
    """The labels as numbers when every one is a real number or text that reads as a finite
    number; else ``None``. Booleans are not numbers.

    >>> label_numbers(pd.Index(["1", "10", "2.5"])).tolist()
    [1.0, 10.0, 2.5]
    >>> label_numbers(pd.Index(["1", "x"])) is None, label_numbers(pd.Index([True])) is None
    (True, True)
    """
    dtype = labels.dtype
    if pd.api.types.is_bool_dtype(dtype) or pd.api.types.is_complex_dtype(dtype):
        return None
    if pd.api.types.is_numeric_dtype(dtype):
        return np.asarray(labels, dtype=np.float64)
    kind = pd.api.types.infer_dtype(labels, skipna=False)
    if kind in _NUMBER_KINDS:
        return np.asarray(labels, dtype=np.float64)
    if kind not in _MAYBE_NUMBER_KINDS:
        return None
    items = labels.tolist()
    if kind != "string" and any(  # mixed: real numbers and text only
        _is_bool(v)
        or isinstance(v, complex | np.complexfloating)
        or not isinstance(v, (str, int, float, np.number))
        for v in items
    ):
        return None
    first = next((v for v in items if isinstance(v, str)), "0")
    try:  # most text is not numbers: say so without parsing every label
        float(first)
    except ValueError:
        return None
    parsed = pd.to_numeric(pd.Series(items, dtype=object), errors="coerce")
    numbers = np.asarray(parsed, dtype=np.float64)
    if not np.isfinite(numbers).all():
        return None
    return numbers


@dataclass(frozen=True)
class DtypeCategories:
    """The categories a Categorical dtype declares, and whether it declares their order."""

    categories: pd.Index
    ordered: bool


def dtype_categories(series: list[pd.Series]) -> DtypeCategories | None:
    """The categories declared by the Categorical dtypes among ``series``, or ``None``.

    Ordered Categoricals must agree: every series the same ordered dtype. Unordered ones
    declare the union of their categories (first seen first); plain series add nothing.
    """
    dtypes = [s.dtype for s in series if isinstance(s.dtype, pd.CategoricalDtype)]
    if not dtypes:
        return None
    ordered = [d.categories for d in dtypes if d.ordered]
    if ordered:
        first = ordered[0]
        if len(ordered) != len(series) or any(not first.equals(c) for c in ordered[1:]):
            raise TypeError(
                "some rating columns are ordered Categoricals and others are not, or their "
                "categories differ; give every rating column the same ordered CategoricalDtype."
            )
        return DtypeCategories(pd.Index(list(first)), ordered=True)
    union: dict[Hashable, None] = {}
    for dtype in dtypes:
        union.update(dict.fromkeys(dtype.categories.tolist()))
    return DtypeCategories(pd.Index(list(union)), ordered=False)


def _by_value(labels: pd.Index, numbers: FloatArray) -> pd.Index:
    """``labels`` ordered by their numbers; two labels of one number are an error."""
    unique, counts = np.unique(numbers, return_counts=True)
    if (counts > 1).any():
        value = float(unique[counts > 1][0])
        same = [labels[int(i)] for i in np.flatnonzero(numbers == value)]
        shown = " and ".join(repr(v) for v in same[:3])
        raise ValueError(
            f"labels {shown} are one number, {value!r}, written {len(same)} ways; labels that "
            "are all numbers are read as numbers. Write each number one way (e.g. "
            f"df.replace({{{same[1]!r}: {same[0]!r}}})), or pass `categories=[...]` to keep "
            "them apart as labels."
        )
    order = np.argsort(numbers, kind="stable")
    by_value: pd.Index = labels[order]
    return by_value


def _declared(declared: Sequence[Hashable]) -> pd.Index:
    cats = pd.Index(list(declared))
    if cats.has_duplicates:
        dup = cats[cats.duplicated()].unique()
        raise ValueError(
            f"`categories` must not repeat a category; got {_fmt(list(dup))} twice. "
            "List each category once."
        )
    return cats


def categories_of(
    uniques: pd.Index,
    declared: Sequence[Hashable] | None,
    from_dtype: DtypeCategories | None,
    *,
    keep_order: bool = False,
) -> tuple[pd.Index, bool]:
    """The categories for the observed labels ``uniques`` and whether their order is declared
    (the rules of the module docstring). ``keep_order``: labels that are not numbers keep the
    order of ``uniques`` instead of being sorted, and that order counts as declared (a counts
    table's columns: the table lays its categories out in an order of its own)."""
    if from_dtype is not None and from_dtype.ordered:
        if declared is not None and list(declared) != list(from_dtype.categories):
            raise TypeError(
                "the labels are an ordered Categorical, whose categories "
                f"{_fmt(list(from_dtype.categories))} fix the order; `categories` "
                f"{_fmt(list(declared))} disagrees. Pass one or the other."
            )
        return from_dtype.categories, True
    if declared is not None:
        return _declared(declared), True
    if from_dtype is not None:
        known = set(from_dtype.categories)
        extra = pd.Index([u for u in uniques if u not in known], dtype=object)
        cats = (
            from_dtype.categories.append(_sorted(extra)) if len(extra) else from_dtype.categories
        )
    else:
        cats = uniques
    numbers = label_numbers(cats)
    if numbers is not None:
        return _by_value(cats, numbers), True
    if from_dtype is not None:
        return cats, False
    if keep_order:
        return cats, True
    return _sorted(uniques), False


def _sorted(labels: pd.Index) -> pd.Index:
    try:
        return labels.sort_values()
    except TypeError:
        kinds = sorted({type(v).__name__ for v in labels})
        raise TypeError(
            f"labels of different types {kinds} cannot be put in order; pass "
            "`categories=[...]` to declare the categories and their order."
        ) from None


def _check_hashable(values: np.ndarray[Any, Any], where: str) -> None:
    """Raise a TypeError naming the first unhashable label."""
    if values.dtype != object:
        return
    for v in values:
        try:
            hash(v)
        except TypeError:
            raise TypeError(
                f"labels must be hashable scalars; {where} holds {v!r} "
                f"of type {type(v).__name__}. Use one label per cell (a tuple or list in a "
                "cell holds a primary and a secondary label)."
            ) from None


def _factorize_labels(values: np.ndarray[Any, Any], where: str) -> tuple[IntArray, pd.Index]:
    try:
        codes, uniques = pd.factorize(values)
    except TypeError:
        _check_hashable(values, where)
        raise
    return codes.astype(np.int64), pd.Index(uniques)


def encode_labels(
    values: np.ndarray[Any, Any],
    declared: Sequence[Hashable] | None,
    from_dtype: DtypeCategories | None,
    where: str,
) -> tuple[IntArray, pd.Index, bool]:
    """Codes of ``values`` (no missing values among them), the categories, and whether their
    order is declared."""
    local, uniques = _factorize_labels(values, where)
    cats, ordered = categories_of(uniques, declared, from_dtype)
    lookup = cats.get_indexer(uniques)
    if (lookup < 0).any():
        unknown = list(uniques[lookup < 0])
        n_bad = int(np.isin(local, np.flatnonzero(lookup < 0)).sum())
        raise ValueError(
            f"{n_bad} ratings use labels missing from `categories`, e.g. {_fmt(unknown)}; "
            "add them to `categories` or drop those ratings."
        )
    return lookup[local].astype(np.int64), cats, ordered
