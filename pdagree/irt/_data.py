"""From encoded ratings to the graded response model's data: checks and response patterns."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._errors import RatersNeeded
from .._typing import BoolArray, FloatArray, IntArray
from ..encoding import plain
from ..encoding.weights import undeclared_order_message
from ..tensors import RatingData
from ._model import Patterns

__all__ = ["IRTData", "prepare"]

#: The most cells (patterns x judges x categories) of one block of the patterns' one-hot
#: matrix: 4 Mi float64 values, 32 MiB.
BLOCK_CELLS = 1 << 22


@dataclass(frozen=True, eq=False)
class IRTData:
    """What the fit needs: the distinct response patterns and each judge's categories.

    Attributes
    ----------
    raters, categories, items
        The labels: judges (in the frame's column order for a wide frame), the ordered
        categories, and the items (the frame's rows).
    codes
        (n_patterns, J): the distinct response patterns, category codes with -1 for missing.
    inverse
        (n_items,): each item's pattern.
    counts
        (n_patterns,): how many items show each pattern.
    patterns
        The patterns' one-hot matrix in blocks, for the likelihood.
    valid
        (J, K): the categories each judge is fitted on, from its lowest to its highest used.
    fitted
        (J, K - 1): the thresholds each judge has; threshold ``m`` lies between categories
        ``m`` and ``m + 1`` (codes).
    rater_counts
        (J, K): how many items each judge put in each category.
    n_rated
        Items with at least one rating (the ``n`` of BIC).
    """

    raters: pd.Index
    categories: pd.Index
    items: pd.Index
    codes: IntArray
    inverse: IntArray
    counts: FloatArray
    patterns: Patterns
    valid: BoolArray
    fitted: BoolArray
    rater_counts: FloatArray
    n_rated: int

    @property
    def n_judges(self) -> int:
        return len(self.raters)

    @property
    def n_categories(self) -> int:
        return len(self.categories)

    @property
    def lowest(self) -> IntArray:
        """Each judge's lowest category (code)."""
        return np.argmax(self.valid, axis=1).astype(np.int64)

    def same_ratings(self, other: IRTData) -> bool:
        """Whether ``other`` holds the same ratings (patterns, counts and labels)."""
        return (
            self.raters.equals(other.raters)
            and self.categories.equals(other.categories)
            and np.array_equal(self.codes, other.codes)
            and np.array_equal(self.counts, other.counts)
        )


def _check(data: RatingData) -> None:
    enc = data.require_raters("irt")
    if enc.groups is not None:
        raise ValueError(
            "`irt()` fits one model to one set of ratings; these ratings are grouped by "
            f"{list(enc.by)!r}. Fit each group on its own, e.g. `{{key: g.agree(...).irt() "
            "for key, g in df.groupby(...)}`."
        )
    if not enc.ordered:
        raise ValueError(undeclared_order_message("`irt()`", enc.categories))


def _judge_ranges(data: RatingData, counts: FloatArray) -> BoolArray:
    """Each judge's categories from its lowest to its highest used; an error for a judge
    with fewer than two categories or with an unused category between two it uses."""
    raters, categories = data.rater_labels, data.enc.categories
    used = counts > 0
    n_used = used.sum(axis=1)
    for j in np.flatnonzero(n_used < 2):  # over judges, not rows
        what = (
            "has no ratings"
            if n_used[j] == 0
            else f"uses only category {plain(categories[int(np.argmax(used[j]))])!r}"
        )
        raise ValueError(
            "`irt()` needs every judge to use at least two categories; judge "
            f"{plain(raters[int(j)])!r} {what}. Leave the judge out with `raters=[...]`."
        )
    low = np.argmax(used, axis=1)
    high = used.shape[1] - 1 - np.argmax(used[:, ::-1], axis=1)
    k = np.arange(used.shape[1])
    valid = (k >= low[:, None]) & (k <= high[:, None])
    gaps = valid & ~used
    if gaps.any():
        where = np.nonzero(gaps)
        judge, c = int(where[0][0]), int(where[1][0])
        name, skipped = plain(raters[judge]), plain(categories[c])
        below, top = plain(categories[c - 1]), plain(categories[int(high[judge])])
        raise ValueError(
            f"`irt()` cannot place a category a judge skips between two it uses: judge "
            f"{name!r} never uses category {skipped!r} but uses {below!r} and {top!r}, so the "
            f"thresholds around {skipped!r} are not identified. Merge {skipped!r} with a "
            "neighbouring category (e.g. `df.replace(...)`), or leave the judge out with "
            "`raters=[...]`."
        )
    return valid


def _blocks(codes: IntArray, counts: FloatArray, n_categories: int) -> Patterns:
    n_patterns, n_judges = codes.shape
    width = n_judges * n_categories
    size = max(1, BLOCK_CELLS // max(width, 1))
    onehot, block_counts = [], []
    for start in range(0, n_patterns, size):  # over blocks of patterns
        block = codes[start : start + size]
        matrix = np.zeros((len(block), width))
        rows, judges = np.nonzero(block >= 0)
        matrix[rows, judges * n_categories + block[rows, judges]] = 1.0
        onehot.append(matrix)
        block_counts.append(counts[start : start + size])
    return Patterns(tuple(onehot), tuple(block_counts))


def prepare(data: RatingData) -> IRTData:
    """The model's data from ``data``, after checking that the model applies to it.

    Raises
    ------
    ValueError
        For a counts table (no judges), ``by=`` groups, categories whose order was not
        declared, a judge with fewer than two categories, or a judge who skips a category
        between two it uses.
    """
    _check(data)
    enc = data.enc
    if enc.rater is None:  # pragma: no cover - _check requires raters
        raise RatersNeeded("no raters")
    n_items, n_judges, n_categories = enc.n_items, enc.n_raters, enc.n_categories
    rater_counts = data.nck[0]
    valid = _judge_ranges(data, rater_counts)
    fitted = valid[:, 1:] & valid[:, :-1]
    grid = np.full((n_items, n_judges), -1, dtype=np.int64)
    grid[enc.item, enc.rater] = enc.code
    codes, inverse, counts = np.unique(grid, axis=0, return_inverse=True, return_counts=True)
    codes = np.asarray(codes, dtype=np.int64)
    counts_f = np.asarray(counts, dtype=np.float64)
    return IRTData(
        raters=data.rater_labels,
        categories=enc.categories,
        items=data.item_index(),
        codes=codes,
        inverse=np.asarray(inverse, dtype=np.int64).reshape(-1),
        counts=counts_f,
        patterns=_blocks(codes, counts_f, n_categories),
        valid=valid,
        fitted=fitted,
        rater_counts=np.asarray(rater_counts, dtype=np.float64),
        n_rated=int((grid >= 0).any(axis=1).sum()),
    )
