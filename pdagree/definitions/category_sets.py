"""``by=`` groups with categories of their own.

Without declared categories each ``by=`` group uses the labels it has, exactly as a loop over
the groups would: Bennett's S and Gwet's AC1 count the group's categories, and weights built on
category values span the group's values. Groups are split by their *set* of categories (a
handful of distinct sets in practice, one per set, not one per group), each set's groups are
computed in one vectorised call on their own categories, and the per-group results are put
back in group order. When every group uses every category nothing is split.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import numpy as np

from .._typing import IntArray
from .base import Components, Definition
from .data import RatingData

__all__ = ["compute", "per_category_set"]

T = TypeVar("T")


def _split(data: RatingData) -> Iterator[tuple[IntArray, IntArray, RatingData]] | None:
    mask = data.category_mask
    if mask is None:
        return None
    patterns, inverse = np.unique(mask, axis=0, return_inverse=True)
    inverse = inverse.ravel()

    def parts() -> Iterator[tuple[IntArray, IntArray, RatingData]]:
        # One pass per distinct set of categories, each vectorised over its groups.
        for p in range(len(patterns)):
            groups = np.flatnonzero(inverse == p).astype(np.int64)
            sub, items = data.subset(groups, patterns[p])
            yield groups, items, sub

    return parts()


def _per_item_options(
    definition: Definition | None, data: RatingData, options: dict[str, Any]
) -> dict[str, Any]:
    if definition is None or definition.per_item is None:
        return {}
    return definition.per_item(data, options)


def per_category_set(
    data: RatingData,
    options: dict[str, Any],
    fn: Callable[[RatingData, dict[str, Any]], T],
    merge: Callable[[list[tuple[IntArray, T]], int], T],
    definition: Definition | None = None,
) -> T:
    """``fn(data, options)``, computed per set of categories and merged back by ``merge``
    (which gets each part's group codes and result, and the number of groups)."""
    parts = _split(data)
    if parts is None:
        return fn(data, options)
    per_item = _per_item_options(definition, data, options)
    results = []
    for groups, items, sub in parts:
        sub_options = {**options, **{k: v[items] for k, v in per_item.items()}}
        results.append((groups, fn(sub, sub_options)))
    return merge(results, data.enc.n_groups)


def scatter_arrays(parts: list[tuple[IntArray, tuple[Any, ...]]], n_groups: int) -> Any:
    """Merge tuples of per-group arrays into tuples of arrays over all groups."""
    first = parts[0][1]
    out = [np.full(n_groups, np.nan) for _ in first]
    for groups, arrays in parts:
        for target, values in zip(out, arrays, strict=True):
            target[groups] = values
    return tuple(out)


def _scatter(parts: list[tuple[IntArray, Any]], n_groups: int) -> Any:
    first = parts[0][1]
    if isinstance(first, np.ndarray):
        out = np.empty(n_groups, dtype=first.dtype)
        for groups, values in parts:
            out[groups] = values
        return out
    return first  # a constant (e.g. SPA's weighting name)


def merge_components(parts: list[tuple[IntArray, Components]], n_groups: int) -> Components:
    """Components of every group from the components of each set of groups."""

    def field(get: Callable[[Components], Any]) -> Any:
        return _scatter([(g, get(c)) for g, c in parts], n_groups)

    first = parts[0][1]
    n_items = None
    if first.n_items is not None:
        n_items = field(lambda c: c.n_items)
    return Components(
        first.name,
        field(lambda c: c.value),
        field(lambda c: c.observed),
        field(lambda c: c.expected),
        n_items=n_items,
        extra={k: _scatter([(g, c.extra[k]) for g, c in parts], n_groups) for k in first.extra},
        columns={
            k: _scatter([(g, c.columns[k]) for g, c in parts], n_groups) for k in first.columns
        },
    )


def compute(definition: Definition, data: RatingData, options: dict[str, Any]) -> Components:
    """The definition's components, each ``by=`` group on its own categories."""

    def run(sub: RatingData, sub_options: dict[str, Any]) -> Components:
        parts = definition.compute(sub, **sub_options)
        if parts.n_items is None:  # filled in per part, as the label layer would
            parts = Components(
                parts.name,
                parts.value,
                parts.observed,
                parts.expected,
                n_items=sub.observed[1],
                extra=parts.extra,
                members=parts.members,
                columns=parts.columns,
            )
        return parts

    if data.category_mask is None:
        return definition.compute(data, **options)
    return per_category_set(data, options, run, merge_components, definition)
