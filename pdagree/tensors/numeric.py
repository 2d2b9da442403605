"""Numeric ratings read as numbers (:func:`~pdagree.encoding._numeric.numeric_encode`), as
the numeric measures read them: what :class:`~.data.RatingData` offers them (the labels of
items, raters and groups, the per-annotator keys), without a registry of categories."""

from __future__ import annotations

from functools import cached_property

import numpy as np
import pandas as pd

from .._typing import IntArray
from ..encoding import NumericEncoded
from .data import item_index_of

__all__ = ["NumericData"]


class NumericData:
    """One :class:`NumericEncoded`, with the keys and labels of its results."""

    def __init__(self, enc: NumericEncoded) -> None:
        self.enc = enc

    @property
    def rows(self) -> NumericData:
        return self

    @property
    def n_items(self) -> int:
        return self.enc.n_items

    @property
    def rater_labels(self) -> pd.Index:
        return self.enc.raters

    def item_index(self) -> pd.Index:
        """Item labels, with the group keys in front for ``by=`` on a wide frame."""
        return item_index_of(self.enc)

    @cached_property
    def rater_keys(self) -> tuple[IntArray, IntArray, IntArray, IntArray]:
        """As :attr:`RatingData.rater_keys`: the (group, rater) pairs that occur; without
        ``by=`` every rater code is a key."""
        enc = self.enc
        if enc.groups is None:
            every = np.arange(enc.n_raters, dtype=np.int64)
            return enc.rater, np.zeros(enc.n_raters, dtype=np.int64), every, every
        pairs, inverse = np.unique(
            enc.group[enc.item] * enc.n_raters + enc.rater, return_inverse=True
        )
        pair_group = pairs // enc.n_raters
        first = np.searchsorted(pair_group, np.arange(enc.n_groups, dtype=np.int64))
        slot = np.arange(len(pairs), dtype=np.int64) - first[pair_group]
        return inverse.reshape(-1).astype(np.int64), pair_group, pairs % enc.n_raters, slot
