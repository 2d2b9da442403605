"""Labels of per-annotator results: one row per annotator, or per (group, annotator) with
``by=``; a *key* is ``group * n_slots + slot``, the raters numbered within their group
(:attr:`~pdagree.definitions.data.RatingData.slots`), so that groups with raters of their
own need keys for the (group, rater) pairs that occur, not for every group x rater."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._typing import IntArray
from .data import RatingData

__all__ = ["key_index", "keys_of"]


def keys_of(data: RatingData, method: str) -> tuple[IntArray, IntArray]:
    """Per annotation its key, and per key its group (a ValueError naming ``method`` for a
    layout without raters)."""
    data.rater_codes(method)
    enc = data.enc
    slot, n_slots, _ = data.slots
    key = enc.group[enc.item] * n_slots + slot
    key_group = np.arange(enc.n_groups * n_slots, dtype=np.int64) // max(n_slots, 1)
    return key, key_group


def key_index(data: RatingData, keys: IntArray) -> pd.Index:
    """The annotator (with ``by=``: group keys and annotator) of each key."""
    enc = data.enc
    raters = data.rater_labels[data.slot_raters.reshape(-1)[keys]]
    if enc.groups is None:
        named: pd.Index = pd.Index(raters, name="rater" if raters.name is None else raters.name)
        return named
    groups = enc.groups[keys // data.slots[1]]
    frame = (
        groups.to_frame(index=False)
        if isinstance(groups, pd.MultiIndex)
        else pd.DataFrame({groups.name: groups})
    )
    frame["rater" if raters.name is None else raters.name] = raters
    return pd.MultiIndex.from_frame(frame)
