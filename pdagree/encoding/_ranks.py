"""Primary and secondary labels: one or two ranked labels per (item, rater).

Part of the encoding layer (:mod:`pdagree.encoding`). A rater may give an item a primary label
and, optionally, a secondary one (Rosenberg & Binkowski 2004): in a long frame as rows with
``rank=`` 1 (primary) and 2 (secondary), in a wide frame as a cell holding a tuple or list,
primary first. Both become the same per-label entries (item code, rater code, rank) here, and
:func:`resolve` checks them once for both layouts:

- at most two labels per (item, rater): a third (a tuple of three, a third row) is an error;
- exactly one primary: two primaries, or a secondary without a primary, is an error;
- the secondary differs from the primary: a duplicated label is an error.

Each message names the (item, rater) pairs at fault. The result keeps one annotation per
(item, rater), its primary label, with the code of its secondary label beside it (``-1`` for
none): every coefficient reads the primary labels, and the multi-label kappa reads both.
Without ranks, :func:`resolve` is the check that each (item, rater) pair has one label, and
:func:`check_unique_items` that a wide frame has one row per item (per ``by=`` group).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np
import pandas as pd

from .._typing import IntArray
from ._factorize import duplicated_keys
from ._labels import _fmt, _plain

__all__ = [
    "check_rank_layout",
    "check_unique_items",
    "rank_codes",
    "repeated_items",
    "repeated_pairs",
    "resolve",
    "split_cells",
]

#: ``pandas.api.types.infer_dtype`` kinds that cannot hold a tuple or a list.
_SCALAR_KINDS = frozenset(
    {
        "string",
        "bytes",
        "floating",
        "integer",
        "mixed-integer-float",
        "decimal",
        "complex",
        "categorical",
        "boolean",
        "datetime64",
        "datetime",
        "date",
        "timedelta64",
        "timedelta",
        "time",
        "period",
        "interval",
        "empty",
    }
)


def split_cells(
    values: np.ndarray[Any, Any], item: IntArray, rater: IntArray
) -> tuple[np.ndarray[Any, Any], IntArray, IntArray, IntArray | None]:
    """Wide cells that hold a tuple or a list become one entry per element, ranked by their
    position (1 = primary, 2 = secondary, 3 = a third label, refused by :func:`resolve`).

    Missing elements are left out (``("a", None)`` is a single label); an empty tuple or list
    is no annotation. Returns the entries' values, item codes, rater codes and ranks; the ranks
    are ``None`` when no cell holds a tuple or a list (the values are then returned as given).

    >>> values = np.array([("x", "y"), "z", ["y"]], dtype=object)
    >>> out, item, rater, rank = split_cells(values, np.array([0, 1, 2]), np.array([0, 0, 1]))
    >>> out.tolist(), item.tolist(), rank.tolist()
    (['x', 'y', 'z', 'y'], [0, 0, 1, 2], [1, 2, 1, 1])
    """
    if values.dtype != object or pd.api.types.infer_dtype(values, skipna=True) in _SCALAR_KINDS:
        return values, item, rater, None
    ranked = np.fromiter(
        (isinstance(v, (tuple, list)) for v in values), dtype=bool, count=len(values)
    )
    if not ranked.any():
        return values, item, rater, None
    cells = [tuple(v) if r else (v,) for v, r in zip(values.tolist(), ranked, strict=True)]
    sizes = np.fromiter((len(c) for c in cells), dtype=np.int64, count=len(cells))
    flat = np.empty(int(sizes.sum()), dtype=object)
    flat[:] = [label for cell in cells for label in cell]
    starts = np.cumsum(sizes) - sizes
    rank = np.arange(len(flat), dtype=np.int64) - np.repeat(starts, sizes) + 1
    present = ~np.asarray(pd.isna(flat), dtype=bool)
    return (
        flat[present],
        np.repeat(item, sizes)[present],
        np.repeat(rater, sizes)[present],
        rank[present],
    )


def check_rank_layout(rank: Hashable | None, layout: str) -> None:
    """``rank=`` names a column of a long frame; a TypeError for any other layout."""
    if rank is not None and layout != "long":
        raise TypeError(
            f"`rank` names the column of label ranks in a long frame (with `item`, `rater`, "
            f"`label`); it does not apply to layout={layout!r}. In a wide frame a cell holds a "
            "primary and a secondary label as a tuple or list, primary first."
        )


def rank_codes(ranks: pd.Series, column: Hashable) -> IntArray:
    """The ranks of a long frame's ``rank`` column as integers 1 (primary) and 2 (secondary);
    anything else, missing values included, is an error naming the value."""
    values = ranks.to_numpy(dtype=object)
    if pd.api.types.is_bool_dtype(ranks.dtype):
        bad = np.ones(len(values), dtype=bool)
        numbers = np.zeros(len(values))
    else:
        numbers = pd.to_numeric(pd.Series(values, dtype=object), errors="coerce").to_numpy(
            dtype=np.float64, na_value=np.nan
        )
        bad = ~np.isin(numbers, (1.0, 2.0))
        if ranks.dtype == object:  # True and False read as 1 and 0: refuse them too
            bad |= np.fromiter((isinstance(v, bool) for v in values), bool, len(values))
    if bad.any():
        shown = pd.unique(pd.Series(values[bad], dtype=object)).tolist()
        raise ValueError(
            f"`rank` column {_plain(column)!r} must hold 1 (primary label) or 2 (secondary "
            f"label) for every label; {int(bad.sum())} rows hold {_fmt(shown)}. Give each label "
            "its rank."
        )
    return numbers.astype(np.int64)


def _pairs(
    keys: IntArray, n_raters: int, items: pd.Index, raters: pd.Index
) -> list[tuple[Hashable, Hashable]]:
    return list(
        zip(items[keys // n_raters].tolist(), raters[keys % n_raters].tolist(), strict=True)
    )


def repeated_pairs(dup: IntArray, items: pd.Index, raters: pd.Index) -> ValueError:
    """The error for the (item, rater) pairs ``dup`` (keys ``item * n_raters + rater``,
    sorted) that have more than one label and no ranks."""
    return ValueError(
        f"{len(dup)} (item, rater) pairs have more than one label, e.g. "
        f"{_fmt(_pairs(dup, len(raters), items, raters))}; keep one label per rater and "
        "item (drop duplicates or aggregate them first), or pass `rank=` (1 = primary, "
        "2 = secondary) for a primary and a secondary label."
    )


def resolve(
    item: IntArray,
    rater: IntArray,
    code: IntArray,
    rank: IntArray | None,
    items: pd.Index,
    raters: pd.Index,
) -> tuple[IntArray, IntArray, IntArray, IntArray | None]:
    """The annotations (item, rater and code of the primary labels) and, per annotation, the
    code of its secondary label (``-1`` for none; ``None`` when no annotation has one).

    Raises a ValueError naming the (item, rater) pairs when one has more than one label without
    ranks, more than two labels, two primaries, a secondary without a primary, or the same label
    as primary and secondary.
    """
    n_raters = len(raters)
    key = item * n_raters + rater
    if rank is None:
        head = key[:64]  # a long frame in no particular order fails here, without a pass
        if bool((np.diff(head) > 0).all()) and bool((np.diff(key) > 0).all()):
            # e.g. a wide frame's cells: unique, no count needed
            return item, rater, code, None
        dup = duplicated_keys(key, len(items) * n_raters)  # a bincount, not a sort
        if len(dup):
            raise repeated_pairs(dup, items, raters)
        return item, rater, code, None
    unique, inverse, counts = np.unique(key, return_inverse=True, return_counts=True)
    inverse = inverse.ravel()
    n_primary = np.bincount(inverse, weights=(rank == 1).astype(np.float64), minlength=len(unique))
    third = np.bincount(inverse, weights=(rank > 2).astype(np.float64), minlength=len(unique)) > 0
    secondary = rank == 2
    _refuse(
        unique[(counts > 2) | third],
        n_raters,
        items,
        raters,
        "more than two labels",
        "drop the extra labels",
    )
    _refuse(
        unique[n_primary > 1],
        n_raters,
        items,
        raters,
        "two primary labels",
        "give one of them rank 2, or keep one",
    )
    _refuse(
        unique[n_primary == 0],
        n_raters,
        items,
        raters,
        "a secondary label but no primary",
        "add the primary label, or make the secondary the primary",
    )
    primary = np.flatnonzero(rank == 1)
    if not secondary.any():
        return item[primary], rater[primary], code[primary], None
    sec_code = np.full(len(unique), -1, dtype=np.int64)
    sec_code[inverse[secondary]] = code[secondary]
    out = sec_code[inverse[primary]]
    same = out == code[primary]
    _refuse(
        key[primary][same],
        n_raters,
        items,
        raters,
        "the same label as primary and secondary",
        "drop the repeated secondary label",
    )
    return item[primary], rater[primary], code[primary], out


def _refuse(
    bad: IntArray, n_raters: int, items: pd.Index, raters: pd.Index, what: str, remedy: str
) -> None:
    if len(bad):
        raise ValueError(
            f"{len(bad)} (item, rater) pairs have {what}, e.g. "
            f"{_fmt(_pairs(bad, n_raters, items, raters))}; each rater gives an item one "
            f"primary label and at most one secondary label: {remedy}."
        )


def check_unique_items(index: pd.Index, group: IntArray, groups: pd.Index | None) -> None:
    """A wide frame has one row per item (per group with ``by=``): a repeated index is an
    error, as a repeated (item, rater) pair is in a long frame."""
    if index.is_unique:
        return
    keys = index if groups is None else pd.MultiIndex.from_arrays([group, index])
    repeated = keys.duplicated()
    if not repeated.any():
        return
    raise repeated_items(index[repeated].unique(), groups is not None)


def repeated_items(dup: pd.Index, grouped: bool) -> ValueError:
    """The error for the wide frame's items ``dup`` (index labels) found in more than one
    row (within a ``by=`` group when ``grouped``)."""
    where = " within a `by` group" if grouped else ""
    return ValueError(
        f"the index of a wide frame names the items, one row each; {len(dup)} items have "
        f"more than one row{where}, e.g. {_fmt(dup.tolist())}. A frame of one row per "
        "annotation is a long frame: pass `item=`, `rater=`, `label=`; else drop or "
        "aggregate the repeated rows."
    )
