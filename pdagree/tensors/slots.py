"""Raters numbered within their ``by=`` group (*slots*): the (group, rater) pairs that occur
as keys, and the (G, S) table of each slot's rater, so that the rater tensors of groups with
raters of their own need ``G x S`` cells, not ``G x R`` (:attr:`RatingData.slots`, and the
same from a tally's rater counts)."""

from __future__ import annotations

import numpy as np

from .._typing import IntArray

__all__ = ["pair_keys", "slot_table"]


def pair_keys(
    pairs: IntArray, n_raters: int, n_groups: int
) -> tuple[IntArray, IntArray, IntArray]:
    """Per (group, rater) pair that occurs (sorted ``group * n_raters + rater``): its
    group, its rater code and its *slot*, the rater's position among its group's raters."""
    pair_group = pairs // n_raters
    first = np.searchsorted(pair_group, np.arange(n_groups, dtype=np.int64))
    slot = np.arange(len(pairs), dtype=np.int64) - first[pair_group]
    return pair_group, pairs % n_raters, slot


def slot_table(
    key_group: IntArray, key_rater: IntArray, key_slot: IntArray, n_groups: int, n_raters: int
) -> tuple[int, IntArray | None]:
    """The slots per group ``S`` and the (G, S) rater code of each slot (-1: none); the rater
    codes themselves (``n_raters``, ``None``) where slots would save nothing."""
    n_slots = int(key_slot.max()) + 1 if len(key_slot) else 1
    if n_slots >= n_raters:
        return n_raters, None
    table = np.full((n_groups, n_slots), -1, dtype=np.int64)
    table[key_group, key_slot] = key_rater
    return n_slots, table
