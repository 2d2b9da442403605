"""Labels to categories: which categories there are, in which order, and whether that order
was declared.

Part of the encoding layer (:mod:`pdagree.encoding`). The rules, in order of precedence:

1. An ordered Categorical declares its categories (used or not) and their order. Other
   rating columns may be plain (or unordered Categoricals) when their labels are among those
   categories; other ordered Categoricals must have the same categories in the same order;
   ``categories=`` beside it may list them, or some of them, in its order.
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

from .._typing import BoolArray, FloatArray, IntArray
from ._sets import frozen_cells, set_order

__all__ = [
    "DtypeCategories",
    "arrow_text",
    "categories_of",
    "dtype_categories",
    "encode_label_column",
    "encode_labels",
    "encode_numbers",
    "encode_uniques",
    "fmt",
    "label_numbers",
    "plain",
]

_MAX_SHOWN = 5
_NUMBER_KINDS = ("integer", "floating", "mixed-integer-float", "decimal")
_MAYBE_NUMBER_KINDS = ("string", "mixed", "mixed-integer")


def plain(value: Any) -> Any:
    """``value`` as a message shows it (``{plain(v)!r}``): a NumPy number, boolean or text
    as the Python scalar it holds (``0``, not ``np.int64(0)``), a tuple (a MultiIndex key)
    element by element; anything else as it is.

    >>> repr(plain(np.int64(0))), repr(plain((np.str_("a"), np.float64(0.5))))
    ('0', "('a', 0.5)")
    """
    if isinstance(value, tuple):
        return tuple(plain(v) for v in value)
    if isinstance(value, (np.number, np.bool_, np.str_, np.bytes_)):
        return value.item()
    return value


def fmt(values: Sequence[Any]) -> str:
    """A list for an error message: the first few values (plain, :func:`plain`), then
    ``...``."""
    shown = [plain(v) for v in list(values[:_MAX_SHOWN])]
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


def dtype_categories(
    series: list[pd.Series], what: str = "rating column", plural: str = "rating columns"
) -> DtypeCategories | None:
    """The categories declared by the Categorical dtypes among ``series``, or ``None``.

    An ordered Categorical fixes the categories and their order: every other ordered
    Categorical must have the same categories in the same order (else a TypeError naming the
    two series), and the labels of the other series (plain, or unordered Categoricals) must be
    among its categories (else a ValueError naming the series and the label). Without an
    ordered one, unordered Categoricals declare the union of their categories (first seen
    first); plain series add nothing. ``what`` and ``plural`` name one series and several
    in messages, e.g. "rating column" and "rating columns".
    """
    dtypes = [s.dtype for s in series if isinstance(s.dtype, pd.CategoricalDtype)]
    if not dtypes:
        return None
    ordered = [s for s in series if isinstance(s.dtype, pd.CategoricalDtype) and s.dtype.ordered]
    if ordered:
        return _ordered_categories(series, ordered, what, plural)
    union: dict[Hashable, None] = {}
    for dtype in dtypes:
        union.update(dict.fromkeys(dtype.categories.tolist()))
    return DtypeCategories(pd.Index(list(union)), ordered=False)


def _categories_of_dtype(series: pd.Series) -> pd.Index:
    dtype = series.dtype
    if not isinstance(dtype, pd.CategoricalDtype):  # pragma: no cover - callers check
        raise TypeError("not a Categorical")
    cats: pd.Index = pd.Index(list(dtype.categories))
    return cats


def _ordered_categories(
    series: list[pd.Series], ordered: list[pd.Series], what: str, plural: str
) -> DtypeCategories:
    """The categories of the ordered Categoricals ``ordered`` (which must agree), checked
    against the labels of the other ``series``."""
    first = ordered[0]
    cats = _categories_of_dtype(first)
    first_name = plain(first.name)
    for other in ordered[1:]:
        theirs = _categories_of_dtype(other)
        other_name = plain(other.name)
        if not cats.equals(theirs):
            raise TypeError(
                f"{plural} {first_name!r} and {other_name!r} are ordered Categoricals with "
                f"different categories or orders, {fmt(list(cats))} and {fmt(list(theirs))}; "
                "an ordered Categorical fixes the order, so they must agree. Give both the same "
                f"dtype, e.g. df[{other_name!r}].astype(df[{first_name!r}].dtype)."
            )
    known = set(cats)
    for other in series:
        if any(other is s for s in ordered):
            continue
        used = pd.unique(other.dropna().to_numpy(dtype=object))
        unknown = [v for v in used.tolist() if v not in known]
        if unknown:
            raise ValueError(
                f"{what} {plain(other.name)!r} holds the label {plain(unknown[0])!r}, which is "
                f"not among the "
                f"categories {fmt(list(cats))} of the ordered Categorical {what} "
                f"{first_name!r}, whose order the other {plural} follow. Add it to the "
                f"Categorical's categories (df[{first_name!r}].cat.add_categories(...)) or fix "
                "the label."
            )
    return DtypeCategories(cats, ordered=True)


def _by_value(labels: pd.Index, numbers: FloatArray) -> pd.Index:
    """``labels`` ordered by their numbers; two labels of one number are an error."""
    unique, counts = np.unique(numbers, return_counts=True)
    if (counts > 1).any():
        value = float(unique[counts > 1][0])
        same = [plain(labels[int(i)]) for i in np.flatnonzero(numbers == value)]
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


def _within_ordered(declared: Sequence[Hashable], fixed: pd.Index) -> pd.Index:
    """``categories=`` beside an ordered Categorical: every category must be one of the
    Categorical's, in the Categorical's order (unambiguous); they are then the categories (so
    a subset leaves out categories nobody used)."""
    cats = _declared(declared)
    position = fixed.get_indexer(cats)
    if (position < 0).any():
        extra = plain(cats[position < 0][0])
        raise ValueError(
            f"`categories` lists {extra!r}, which is not among the categories "
            f"{fmt(list(fixed))} of the ordered Categorical labels; an ordered Categorical "
            "fixes the categories and their order, and a category outside it has no place in "
            "that order. Drop it from `categories`, or add it to the Categorical's categories "
            "(`.cat.add_categories(...)`, `.cat.reorder_categories(...)`)."
        )
    if (np.diff(position) < 0).any():
        raise TypeError(
            "the labels are an ordered Categorical, whose categories "
            f"{fmt(list(fixed))} fix the order; `categories` {fmt(list(cats))} disagrees. "
            "Pass one or the other, or list `categories` in the Categorical's order."
        )
    return cats


def _declared(declared: Sequence[Hashable]) -> pd.Index:
    cats = pd.Index(list(declared))
    if cats.has_duplicates:
        dup = cats[cats.duplicated()].unique()
        raise ValueError(
            f"`categories` must not repeat a category; got {fmt(list(dup))} twice. "
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
        if declared is not None:
            return _within_ordered(declared, from_dtype.categories), True
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
    sets = set_order(labels)
    if sets is not None:  # Python orders sets by inclusion, which is not a total order
        return sets
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
                f"labels must be hashable scalars; {where} holds {plain(v)!r} "
                f"of type {type(v).__name__}. Use one label per cell (a tuple or list in a "
                "cell holds a primary and a secondary label)."
            ) from None


def _factorize_labels(
    values: Any, where: str, *, lists: bool = False
) -> tuple[IntArray, pd.Index]:
    """Codes and uniques of ``values``; a ``set`` cell (and a ``list`` cell with ``lists``,
    in a long frame: in a wide one it holds a primary and a secondary label) is read as a
    ``frozenset``, one category per distinct set of labels."""
    try:
        codes, uniques = pd.factorize(values)
    except TypeError:
        frozen = frozen_cells(values, lists=lists)
        if frozen is None:
            _check_hashable(values, where)
            raise
        return _factorize_labels(frozen, where)
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
    return encode_uniques(local, uniques, declared, from_dtype)


def encode_label_column(
    labels: pd.Series,
    declared: Sequence[Hashable] | None,
    from_dtype: DtypeCategories | None,
    where: str,
) -> tuple[BoolArray, IntArray, pd.Index, bool]:
    """Which labels are present (``keep``), and :func:`encode_labels` of those:
    ``encode_labels(labels.to_numpy(dtype=object)[keep], ...)``, the same codes, categories
    and order, with the missing labels found by the one hash pass that codes the others (no
    ``notna`` pass) and without a Python object per annotation for text, Categorical and
    numeric columns. With no label present, the codes and categories are empty.

    >>> keep, codes, cats, ordered = encode_label_column(
    ...     pd.Series([2.5, None, 1.0, 2.5]), None, None, "x"
    ... )
    >>> keep.tolist(), codes.tolist(), cats.tolist(), ordered
    ([True, False, True, True], [1, 0, 1], [1.0, 2.5], True)
    """
    dtype = labels.dtype
    if declared is None and from_dtype is None and _plain_numbers(dtype):
        x = labels.to_numpy()
        keep = ~np.isnan(x) if dtype.kind == "f" else np.ones(len(x), dtype=bool)
        present = x if bool(keep.all()) else x[keep]
        numbers = encode_numbers(present)
        if numbers is not None:
            return (keep, *numbers)
    nullable = _nullable_integers(dtype)
    if declared is None and from_dtype is None and nullable is not None:
        keep = labels.notna().to_numpy()  # a mask: no pass over Python objects
        present = labels[keep] if not keep.all() else labels
        numbers = encode_numbers(present.to_numpy(dtype=nullable))
        if numbers is not None:
            return (keep, *numbers)
    is_object = isinstance(dtype, np.dtype) and dtype.kind == "O"
    if isinstance(dtype, (pd.StringDtype, pd.CategoricalDtype)) or is_object or arrow_text(dtype):
        python_objects = is_object or getattr(dtype, "storage", None) == "python"
        # Python objects are hashed from the array itself (a view); PyArrow-backed text and
        # Categoricals through their own factorize (dictionary encoding, the codes).
        codes, uniques = _factorize_labels(
            labels.to_numpy(dtype=object) if python_objects else labels, where, lists=True
        )
        keep = codes >= 0
        if not keep.any():
            return keep, codes[:0], pd.Index([], dtype=object), False
        local = codes if bool(keep.all()) else codes[keep]
        # The uniques as the object path has them (Python objects, dtype inferred).
        labelled = uniques if is_object else pd.Index(np.asarray(uniques, dtype=object))
        return (keep, *encode_uniques(local, labelled, declared, from_dtype))
    keep = labels.notna().to_numpy()
    if not keep.any():
        return keep, np.zeros(0, dtype=np.int64), pd.Index([], dtype=object), False
    objects = labels.to_numpy(dtype=object)[keep]
    return (keep, *encode_labels(objects, declared, from_dtype, where))


def _nullable_integers(dtype: Any) -> np.dtype[Any] | None:
    """The NumPy integer dtype of a nullable integer dtype (``Int64`` and friends, or
    PyArrow's ``int64[pyarrow]``), else ``None``."""
    numpy_dtype = getattr(dtype, "numpy_dtype", None)
    if isinstance(dtype, np.dtype) or not isinstance(numpy_dtype, np.dtype):
        return None
    return numpy_dtype if numpy_dtype.kind in "iu" else None


def arrow_text(dtype: Any) -> bool:
    """PyArrow text as ``read_csv(dtype_backend="pyarrow")`` gives it (``string[pyarrow]``),
    which its own ``factorize`` dictionary-encodes; checked by name, so that PyArrow is not
    imported."""
    return isinstance(dtype, pd.ArrowDtype) and str(dtype.pyarrow_dtype) in (
        "string",
        "large_string",
        "string_view",
    )


def _plain_numbers(dtype: Any) -> bool:
    """A NumPy integer or float dtype (booleans are labels, not numbers)."""
    return isinstance(dtype, np.dtype) and dtype.kind in "iuf"


def encode_numbers(x: np.ndarray[Any, Any]) -> tuple[IntArray, pd.Index, bool] | None:
    """Codes and categories of numbers, ordered by value (rule 4) with one sort: what
    :func:`encode_labels` gives for them; ``None`` for integers beyond 2**53, which two
    labels might share as one float (the general path says so)."""
    if x.size == 0:
        return None
    if x.dtype.kind in "iu" and (int(x.min()) < -(2**53) or int(x.max()) > 2**53):
        return None
    numbers, code = np.unique(x, return_inverse=True)
    if x.dtype.kind == "f":
        zero = np.flatnonzero(numbers == 0)
        if zero.size:  # 0.0 and -0.0 are one label, written as first seen
            numbers[zero[0]] = x[int(np.argmax(x == 0))]
    cats = pd.Index(numbers.astype(object), dtype=object)
    return np.asarray(code, dtype=np.int64).ravel(), cats, True


def encode_uniques(
    local: IntArray,
    uniques: pd.Index,
    declared: Sequence[Hashable] | None,
    from_dtype: DtypeCategories | None,
) -> tuple[IntArray, pd.Index, bool]:
    """Codes, categories and order from the first-seen ``uniques`` and the codes ``local``
    into them."""
    cats, ordered = categories_of(uniques, declared, from_dtype)
    lookup = cats.get_indexer(uniques)
    if (lookup < 0).any():
        unknown = list(uniques[lookup < 0])
        n_bad = int(np.isin(local, np.flatnonzero(lookup < 0)).sum())
        raise ValueError(
            f"{n_bad} ratings use labels missing from `categories`, e.g. {fmt(unknown)}; "
            "add them to `categories` or drop those ratings."
        )
    return lookup[local].astype(np.int64, copy=False), cats, ordered


# The names the encoding modules have always used.
_fmt = fmt
_plain = plain
