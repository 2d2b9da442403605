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
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

import numpy as np

from ._typing import BoolArray, IntArray
from .definitions.base import Components, Definition
from .tensors.data import RatingData, encoded_subset

__all__ = ["compute", "per_category_set", "shared_parts"]

T = TypeVar("T")
Part = tuple[IntArray, IntArray, RatingData]

_SHARED: ContextVar[dict[int, tuple[RatingData, list[Part]]] | None] = ContextVar(
    "pdagree_category_parts", default=None
)
"""Within :func:`shared_parts`: each data's parts, by the data's ``id`` (the data held with
them, so that the ``id`` is not reused)."""


@contextmanager
def shared_parts() -> Iterator[None]:
    """Within: each data's split by set of categories is made once and its parts (with the
    tensors they cache) are reused by every coefficient computed on it, then dropped; for a
    call that computes several coefficients (``report``), so that each part is cut and
    counted once instead of once per coefficient."""
    token = _SHARED.set({})
    try:
        yield
    finally:
        _SHARED.reset(token)


def _split(data: RatingData) -> Iterator[Part] | None:
    mask = data.category_mask
    if mask is None:
        return None
    shared = _SHARED.get()
    if shared is None:
        return _parts(data, mask)
    if id(data) not in shared:
        shared[id(data)] = (data, list(_parts(data, mask)))
    return iter(shared[id(data)][1])


def _parts(data: RatingData, mask: BoolArray) -> Iterator[Part]:
    patterns, inverse = _patterns(mask)

    # One call per distinct set of categories, each vectorised over its groups.
    if type(data) is RatingData:
        yield from _subsets(data, patterns, inverse)
        return
    for p in range(len(patterns)):  # data with tensors of its own: its own subset()
        groups = np.flatnonzero(inverse == p).astype(np.int64)
        sub, items = data.subset(groups, patterns[p])
        yield groups, items, sub


def _patterns(mask: BoolArray) -> tuple[BoolArray, IntArray]:
    """``np.unique(mask, axis=0, return_inverse=True)``: the distinct rows of the (G, K) mask
    in lexicographic order and each group's row; through one integer per row (the row's bits,
    the first category most significant) when K <= 62, without sorting rows of bytes."""
    k = mask.shape[1]
    if k > 62:
        # The rows' bits packed into bytes (first category first, most significant), each
        # row one opaque value compared byte by byte: the same order as the rows of booleans,
        # without np.unique(axis=0)'s structured dtype of K fields (seconds at K = 10^5).
        packed = np.ascontiguousarray(np.packbits(mask, axis=1))
        rows = packed.view(np.dtype((np.void, packed.shape[1]))).ravel()
        _, first, inverse = np.unique(rows, return_index=True, return_inverse=True)
        return mask[first], np.asarray(inverse, dtype=np.int64).ravel()
    bits = np.left_shift(np.int64(1), np.arange(k - 1, -1, -1, dtype=np.int64))
    row = mask.astype(np.int64) @ bits
    _, first, inverse = np.unique(row, return_index=True, return_inverse=True)
    return mask[first], np.asarray(inverse, dtype=np.int64).ravel()


def _by_part(part: IntArray, n_parts: int) -> tuple[IntArray, IntArray, IntArray]:
    """Positions sorted by part (stable: ascending within a part), where each part's run
    begins and ends, and each position's rank within its part."""
    small = part.astype(np.int16 if n_parts < 2**15 else np.int64)
    order = np.argsort(small, kind="stable")  # a radix sort for small integers
    bounds = np.searchsorted(part[order], np.arange(n_parts + 1))
    rank = np.empty(len(part), dtype=np.int64)
    rank[order] = np.arange(len(part), dtype=np.int64) - np.repeat(bounds[:-1], np.diff(bounds))
    return order, bounds, rank


def _subsets(
    data: RatingData, patterns: BoolArray, inverse: IntArray
) -> Iterator[tuple[IntArray, IntArray, RatingData]]:
    """For each set of categories: its groups, the original codes of their items and their
    data alone, exactly as ``data.subset(groups, pattern)`` gives them, after one stable sort
    of the groups, items and annotations by set (not one pass over every annotation per
    set)."""
    enc = data.enc
    n_parts = len(patterns)
    group_order, group_bounds, new_group = _by_part(inverse, n_parts)
    item_part = inverse[enc.group]
    item_order, item_bounds, new_item = _by_part(item_part, n_parts)
    row_order, row_bounds, _ = _by_part(item_part[enc.item], n_parts)
    for p in range(n_parts):
        groups = group_order[group_bounds[p] : group_bounds[p + 1]]
        items = item_order[item_bounds[p] : item_bounds[p + 1]]
        rows = row_order[row_bounds[p] : row_bounds[p + 1]]
        sub = encoded_subset(enc, rows, items, groups, patterns[p], new_item, new_group)
        yield groups.astype(np.int64), items.astype(np.int64), RatingData(sub, category_mask=None)


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

    inert = definition.ignores_unused_categories
    if data.category_mask is None or (inert is not None and inert(options)):
        return definition.compute(data, **options)
    return per_category_set(data, options, run, merge_components, definition)
