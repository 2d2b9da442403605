"""Consensus by skill-weighted votes: Wawa and zero-based skill.

- **Wawa** ("worker agreement with aggregate"): a plurality vote, each annotator's skill its
  share of labels equal to that vote, then the vote weighted by the skills.
- **Zero-based skill**: every skill starts at ``1 / K + eps`` (``K`` the group's categories);
  each iteration takes the skill-weighted vote and moves each skill towards the annotator's
  accuracy against it, ``skill += rate (accuracy - skill)``, the rate halved every 20
  iterations, for 100 iterations.

Both are the algorithms of crowd-kit's ``Wawa`` and ``ZeroBasedSkill`` (the same labels where
the vote is clear, tests/test_consensus_skills.py), written over integer keys: one
``np.bincount`` per vote, every ``by=`` group at once. The intermediate votes break exact ties
by the first category (as a plurality vote in category order does); the final labels by
``ties``.
"""

from __future__ import annotations

import numpy as np

from .._kernels.rows import row_sum
from .._typing import FloatArray, IntArray, as_float
from ._majority import Ties, choose, shares
from ._votes import Votes

__all__ = ["SKILL_METHODS", "skill_vote"]

SKILL_METHODS = ("wawa", "zero_based_skill")
N_ITER = 100
RATE = 1.0
STEPS_TO_REDUCE = 20
REDUCE_FACTOR = 0.5
EPS = 1e-5


def weighted_shares(v: Votes, skill: FloatArray) -> FloatArray:
    """Each item's votes weighted by its annotators' skills, as shares (known labels
    certain)."""
    k = v.n_categories
    scores = as_float(
        np.bincount(v.item * k + v.code, weights=skill[v.key], minlength=v.n_items * k)
    ).reshape(v.n_items, k)
    total = row_sum(scores)
    with np.errstate(invalid="ignore", divide="ignore"):
        out: FloatArray = np.where(total[:, None] > 0, scores / total[:, None], np.nan)
    known = v.gold >= 0
    out[known] = 0.0
    out[np.flatnonzero(known), v.gold[known]] = 1.0
    return out


def accuracy(v: Votes, chosen: IntArray) -> FloatArray:
    """Per annotator key: the share of its labels equal to ``chosen`` (items with a label)."""
    counted = chosen[v.item] >= 0
    hits = np.bincount(v.key, weights=(chosen[v.item] == v.code) & counted, minlength=v.n_keys)
    n = np.bincount(v.key, weights=counted, minlength=v.n_keys)
    with np.errstate(invalid="ignore", divide="ignore"):
        out: FloatArray = hits / n
    return out


def skill_vote(
    v: Votes, method: str, ties: Ties, gen: np.random.Generator
) -> tuple[FloatArray, IntArray, FloatArray]:
    """The probabilities, the chosen labels and each key's skill under ``method``."""
    first = np.random.default_rng(0)  # unused by ties="first"
    if method == "wawa":
        skill = np.nan_to_num(accuracy(v, choose(shares(v), "first", first)))
    else:
        n_categories = v.allowed.sum(axis=1).astype(np.float64)
        skill = 1.0 / n_categories[v.key_group] + EPS
        rate = RATE
        for iteration in range(1, N_ITER + 1):
            if iteration % STEPS_TO_REDUCE == 0:
                rate *= REDUCE_FACTOR
            chosen = choose(weighted_shares(v, skill), "first", first)
            skill = skill + rate * (np.nan_to_num(accuracy(v, chosen), nan=0.0) - skill)
    probabilities = weighted_shares(v, skill)
    return probabilities, choose(probabilities, ties, gen), skill
