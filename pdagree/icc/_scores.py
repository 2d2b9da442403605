"""Numeric ratings as the ICC and Kendall's W read them: per rating its value, item and
rater; per item its group; and the counts every part of the package asks of them."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .._typing import BoolArray, FloatArray, IntArray, as_float
from ..definitions import RatingData
from ..encoding._labels import _fmt

__all__ = ["Scores"]


@dataclass(frozen=True, eq=False)
class Scores:
    """Numeric ratings: ``x``, ``item`` and ``rater`` per rating, ``group`` per item."""

    x: FloatArray
    item: IntArray
    rater: IntArray
    group: IntArray
    n_raters: int
    n_groups: int

    @classmethod
    def of(cls, data: RatingData, method: str) -> Scores:
        """The ratings of ``data`` as numbers; a clear error for text labels."""
        rater = data.rater_codes(method)
        enc = data.enc
        if enc.values is None:
            raise ValueError(
                f"`{method}()` needs numeric ratings; the labels are text, e.g. "
                f"{_fmt(list(enc.categories[:3]))}. Map them to numbers first (for an "
                "ordered scale, `df.replace({'low': 1, 'mid': 2, 'high': 3})`)."
            )
        if enc.secondary is not None:
            raise ValueError(
                f"`{method}()` reads one number per item and rater, not secondary labels."
            )
        x = np.asarray(enc.values, dtype=np.float64)[enc.code]
        return cls(x, enc.item, rater, enc.group, enc.n_raters, enc.n_groups)

    @property
    def n_items(self) -> int:
        return len(self.group)

    @cached_property
    def rating_group(self) -> IntArray:
        """Per rating, its item's group."""
        if self.n_groups == 1:  # no gather: every rating is in group 0
            return np.zeros(len(self.item), dtype=np.int64)
        out: IntArray = self.group[self.item]
        return out

    @cached_property
    def per_item(self) -> IntArray:
        """Per item, its number of ratings."""
        return np.bincount(self.item, minlength=self.n_items)

    @cached_property
    def group_rater(self) -> IntArray:
        """Per rating, the key ``group * n_raters + rater``."""
        if self.n_groups == 1:
            return self.rater
        out: IntArray = self.rating_group * self.n_raters + self.rater
        return out

    @cached_property
    def raters_per_group(self) -> IntArray:
        """Per group, the raters with a rating in it."""
        per = np.bincount(self.group_rater, minlength=self.n_groups * self.n_raters)
        out: IntArray = (per.reshape(self.n_groups, self.n_raters) > 0).sum(axis=1)
        return out

    @cached_property
    def items_per_group(self) -> FloatArray:
        """Per group, the items with a rating."""
        rated = (self.per_item > 0).astype(np.float64)
        out = as_float(np.bincount(self.group, weights=rated, minlength=self.n_groups))
        return out

    @cached_property
    def group_mean(self) -> tuple[FloatArray, FloatArray]:
        """Per group: its ratings' count and mean (nan for a group without ratings)."""
        g = self.rating_group
        count = np.bincount(g, minlength=self.n_groups).astype(np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.bincount(g, weights=self.x, minlength=self.n_groups) / count
        return count, mean

    @cached_property
    def centred(self) -> FloatArray:
        """Each rating minus its group's mean."""
        out: FloatArray = self.x - np.nan_to_num(self.group_mean[1])[self.rating_group]
        return out

    def kept(self, keep: BoolArray) -> Scores:
        """The ratings of the items ``keep`` marks (items and groups keep their codes)."""
        if keep.all():
            return self
        rows = keep[self.item]
        return Scores(
            self.x[rows],
            self.item[rows],
            self.rater[rows],
            self.group,
            self.n_raters,
            self.n_groups,
        )

    def alone(self, g: int) -> Scores:
        """Group ``g`` as one group: its items renumbered, its raters compacted."""
        rows = self.rating_group == g
        _, item = np.unique(self.item[rows], return_inverse=True)
        raters, rater = np.unique(self.rater[rows], return_inverse=True)
        n_items = int(item.max()) + 1 if len(item) else 0
        return Scores(self.x[rows], item, rater, np.zeros(n_items, dtype=np.int64), len(raters), 1)
