"""Numeric ratings as the ICC (:mod:`pdagree.icc`) and Kendall's W (:mod:`pdagree.kendall`)
read them: per rating its value, item and rater; per item its group; and the counts every
part of the package asks of them.

Raters are counted per (group, rater) pair that occurs (:attr:`Scores.pairs`), never over
``groups x raters``: ``by=`` groups with raters of their own cost memory in proportion to the
ratings.

Values are centred and scaled per group before any sum of squares (:attr:`Scores.centred`):
each group's ratings are divided by a power of two (exact), centred on their mean in two
passes (the second removes the rounding of the first, so that a common offset such as 1e15
or an epoch in milliseconds leaves the deviations exact), and the deviations divided by the
power of two just above their largest magnitude (exact again). Every ICC is a ratio of mean
squares, so it is computed on these unit-size deviations: the same to the last bits for any
offset and any power-of-two scale, and without overflow or underflow at 1e200 or 1e-200.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from ._typing import BoolArray, FloatArray, IntArray, as_float
from ._warnings import UndefinedStatisticWarning, warn
from .encoding import fmt
from .tensors import RatingData
from .tensors.numeric import NumericData

__all__ = ["ScoreData", "Scores", "complete_items", "warn_undefined"]

#: What the numeric measures read: encoded ratings, or ratings read as numbers.
ScoreData = RatingData | NumericData


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
    def of(cls, data: ScoreData, method: str, finite: bool = True) -> Scores:
        """The ratings of ``data`` as numbers; a clear error for text labels, and (with
        ``finite``) for infinite ratings."""
        if isinstance(data, NumericData):  # read as numbers: no categories
            return cls._checked(data.enc.x, data.enc, method, finite)
        rater = data.rater_codes(method)
        enc = data.enc
        if enc.values is None:
            raise ValueError(
                f"`{method}()` needs numeric ratings; the labels are text, e.g. "
                f"{fmt(list(enc.categories[:3]))}. Map them to numbers first (for an "
                "ordered scale, `df.replace({'low': 1, 'mid': 2, 'high': 3})`)."
            )
        if enc.secondary is not None:
            raise ValueError(
                f"`{method}()` reads one number per item and rater, not secondary labels."
            )
        values = np.asarray(enc.values, dtype=np.float64)
        x = values[enc.code]
        if finite and not np.isfinite(values).all():
            cls._refuse_infinite(x, method)
        return cls(x, enc.item, rater, enc.group, enc.n_raters, enc.n_groups)

    @classmethod
    def _checked(cls, x: FloatArray, enc: Any, method: str, finite: bool) -> Scores:
        if finite and not np.isfinite(x).all():
            cls._refuse_infinite(x, method)
        return cls(x, enc.item, enc.rater, enc.group, enc.n_raters, enc.n_groups)

    @staticmethod
    def _refuse_infinite(x: FloatArray, method: str) -> None:
        bad = ~np.isfinite(x)
        if bad.any():
            shown = sorted({float(v) for v in np.unique(x[bad])})
            raise ValueError(
                f"`{method}()` needs finite ratings; got {fmt(shown)} in "
                f"{int(bad.sum())} ratings. An infinite rating has no mean square: drop "
                "those rows or replace them first (e.g. "
                "`df.replace([np.inf, -np.inf], np.nan)` marks them as not rated)."
            )

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
    def pairs(self) -> tuple[IntArray, IntArray, IntArray]:
        """The (group, rater) pairs that occur, sorted by group then rater: per rating its
        pair; per pair its group and its rater's position among its group's raters."""
        if self.n_groups == 1:
            used = np.bincount(self.rater, minlength=self.n_raters) > 0
            code = np.cumsum(used) - 1
            n = int(used.sum())
            return code[self.rater], np.zeros(n, dtype=np.int64), np.arange(n)
        combined = self.rating_group * self.n_raters + self.rater  # no table of this size
        keys, pair = np.unique(combined, return_inverse=True)
        pair_group = keys // max(self.n_raters, 1)
        first = np.searchsorted(pair_group, pair_group, side="left")
        return pair.reshape(-1), pair_group, np.arange(len(keys)) - first

    @property
    def group_rater(self) -> IntArray:
        """Per rating, its (group, rater) pair (:attr:`pairs`)."""
        return self.pairs[0]

    @property
    def n_pairs(self) -> int:
        return len(self.pairs[1])

    @cached_property
    def raters_per_group(self) -> IntArray:
        """Per group, the raters with a rating in it."""
        return np.bincount(self.pairs[1], minlength=self.n_groups)

    @cached_property
    def items_per_group(self) -> FloatArray:
        """Per group, the items with a rating."""
        rated = (self.per_item > 0).astype(np.float64)
        out = as_float(np.bincount(self.group, weights=rated, minlength=self.n_groups))
        return out

    @cached_property
    def group_count(self) -> FloatArray:
        """Per group: its number of ratings."""
        return np.bincount(self.rating_group, minlength=self.n_groups).astype(np.float64)

    def _per_group_top(self, values: FloatArray) -> IntArray:
        """Per group, the exponent of the power of two just above its largest ``|value|``
        (0 for a group without a non-zero value)."""
        if self.n_groups == 1:  # no scatter: one maximum
            top = np.array([np.abs(values).max() if len(values) else 0.0])
        else:
            top = np.zeros(self.n_groups)
            np.maximum.at(top, self.rating_group, np.abs(values))
        out: IntArray = np.frexp(top)[1].astype(np.int64)
        return out

    @cached_property
    def _centring(self) -> tuple[FloatArray, IntArray]:
        g = self.rating_group
        count = self.group_count
        first = self._per_group_top(self.x)
        if self.n_groups == 1:  # the same, without gathers per rating
            return self._centring_one(first)
        y = np.ldexp(self.x, -first[g])  # |y| < 1, exact
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.nan_to_num(np.bincount(g, weights=y, minlength=self.n_groups) / count)
            d = y - mean[g]
            again = np.bincount(g, weights=d, minlength=self.n_groups) / count
            d = d - np.nan_to_num(again)[g]  # two passes: the first mean's rounding removed
        second = self._per_group_top(d)
        return np.ldexp(d, -second[g]), first + second

    def _centring_one(self, first: IntArray) -> tuple[FloatArray, IntArray]:
        """:attr:`_centring` of one group."""
        n = len(self.x)
        y = np.ldexp(self.x, -int(first[0]))  # |y| < 1, exact
        mean = float(y.sum()) / n if n else 0.0
        d = y - mean
        d -= float(d.sum()) / n if n else 0.0  # two passes: the first mean's rounding removed
        second = self._per_group_top(d)
        return np.ldexp(d, -int(second[0])), first + second

    @property
    def centred(self) -> FloatArray:
        """Each rating minus its group's mean, in the group's unit (:attr:`exponent`): the
        largest deviation of each group is between 1/2 and 1."""
        return self._centring[0]

    @property
    def exponent(self) -> IntArray:
        """Per group, ``e`` such that a rating's deviation from its group's mean is
        ``centred * 2**e``; mean squares in the ratings' own units are ``ms * 4**e``."""
        return self._centring[1]

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


def complete_items(scores: Scores, missing: object) -> tuple[BoolArray, BoolArray, int]:
    """The items of a complete layout (rated once by every rater of their group), the groups
    with an incomplete item, and how many items are incomplete."""
    if missing not in ("auto", "omit"):
        raise ValueError(f"`missing` must be 'auto' or 'omit'; got {missing!r}.")
    per_item = scores.per_item
    keep = (per_item == scores.raters_per_group[scores.group]) & (per_item > 0)
    partial = (per_item > 0) & ~keep
    incomplete = np.bincount(scores.group, weights=partial, minlength=scores.n_groups) > 0
    return keep, incomplete, int(partial.sum())


def warn_undefined(
    values: FloatArray, method: str, groups: pd.Index | None, told: BoolArray | None = None
) -> None:
    """Warn once, naming the groups, where ``values`` is undefined (not finite) and not
    already explained (``told``)."""
    bad = ~np.isfinite(values)
    if told is not None:
        bad &= ~told  # already explained by :func:`_warn_unidentified`
    if bad.any():
        where = "" if groups is None else f" in groups {fmt(list(groups[bad]))}"
        warn(
            f"`{method}()` is undefined{where}: fewer than two items or raters, or ratings "
            "that do not vary (items rated alike by everyone, or every rating the same).",
            UndefinedStatisticWarning,
        )
