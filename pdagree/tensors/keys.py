"""Labels of per-annotator results: one row per annotator, or per (group, annotator) with
``by=``; a *key* is one of the (group, rater) pairs that occur
(:attr:`~pdagree.tensors.data.RatingData.rater_keys`), so that groups with raters of
their own need keys for those pairs, not for every group x rater."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .._typing import IntArray
from .data import RatingData

if TYPE_CHECKING:
    from .numeric import NumericData

__all__ = ["key_index", "keys_of"]


def keys_of(data: RatingData, method: str) -> tuple[IntArray, IntArray]:
    """Per annotation its key, and per key its group (a ValueError naming ``method`` for a
    layout without raters)."""
    data.rater_codes(method)
    key, key_group, _, _ = data.rater_keys
    return key, key_group


def key_index(data: RatingData | NumericData, keys: IntArray) -> pd.Index:
    """The annotator (with ``by=``: group keys and annotator) of each key.

    Built from codes into the groups' and raters' labels, so no label is hashed again.
    """
    enc = data.enc
    _, key_group, key_rater, _ = data.rater_keys
    rater_code = key_rater[keys]
    labels = data.rater_labels
    rater_name = "rater" if labels.name is None else labels.name
    if enc.groups is None:
        named: pd.Index = pd.Index(labels[rater_code], name=rater_name)
        return named
    groups = enc.groups
    group_code = key_group[keys]
    levels: list[Any]
    codes: list[Any]
    if isinstance(groups, pd.MultiIndex):
        levels = [*groups.levels, labels]
        codes = [*(np.asarray(c)[group_code] for c in groups.codes), rater_code]
    else:
        levels, codes = [groups, labels], [group_code, rater_code]
    index = pd.MultiIndex(
        levels=levels, codes=codes, names=[*groups.names, rater_name], verify_integrity=False
    )
    return index.remove_unused_levels()
