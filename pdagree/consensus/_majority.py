"""Plurality vote and the choice of one label per item from its probabilities.

Majority vote's probabilities are each item's vote shares; every method then picks the most
probable category, breaking exact ties by ``ties``: ``"random"`` (uniformly among the tied
categories, from ``rng``), ``"first"`` (the first in category order) or ``"nan"`` (no label).
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from .._kernels.rows import row_max, row_sum
from .._typing import FloatArray, IntArray
from ._votes import Votes

__all__ = ["TIES", "Ties", "choose", "shares"]

Ties = Literal["random", "first", "nan"]
TIES = ("random", "first", "nan")


def shares(v: Votes) -> FloatArray:
    """Each item's vote shares over the categories (nan for an item without votes); known
    labels (``gold``) are certain."""
    counts = v.counts()
    total = row_sum(counts)
    with np.errstate(invalid="ignore", divide="ignore"):
        out: FloatArray = counts / total[:, None]
    known = v.gold >= 0
    out[known] = 0.0
    out[np.flatnonzero(known), v.gold[known]] = 1.0
    return out


def choose(probabilities: FloatArray, ties: Ties, gen: np.random.Generator) -> IntArray:
    """Per item the code of its most probable category (-1: none, for an item without
    probabilities or, with ``ties="nan"``, a tie)."""
    p = np.nan_to_num(probabilities, nan=-1.0)
    best = row_max(p)[:, None]
    tied = (p == best) & (best >= 0)
    if ties == "random":
        # A uniform draw per item and category: the largest among the tied is uniform.
        draw = np.where(tied, gen.random(p.shape), -1.0)
        choice = draw.argmax(axis=1)
    else:
        choice = tied.argmax(axis=1)
        if ties == "nan":
            choice = np.where(row_sum(tied.astype(np.float64)) > 1, -1, choice)
    return np.where(best[:, 0] >= 0, choice, -1).astype(np.int64)
