"""Karger, Oh & Shah's iterative message passing for binary labels (KOS).

Each annotation is an edge between item ``i`` and annotator ``j`` with ``A_ij = +1`` for the
group's first category and ``-1`` for its second. Item messages ``x_{i->j}`` and annotator
messages ``y_{j->i}`` are updated in turn (Karger, Oh & Shah 2011, Algorithm 1; 2014, eq. 3),

    x_{i->j} = sum_{j' in d(i) \\ j} A_ij' y_{j'->i},
    y_{j->i} = sum_{i' in d(j) \\ i} A_i'j x_{i'->j},

and item ``i`` takes the sign of ``x_i = sum_{j in d(i)} A_ij y_{j->i}``.

The updates are linear, so the iteration is a power iteration and only the direction of the
messages matters: each group's ``y`` is divided by its root mean square after every step,
which keeps the numbers finite, and turned (times -1) where needed so that the group's
messages sum to a positive number. The turn settles the one freedom the direction leaves:
when the operator's leading eigenvalue is negative, the plain iteration flips every label at
each step (which labels come out depends on the parity of the iteration count); turned, the
messages keep the orientation in which annotators are trusted on the whole, as ``y = 1``
starts. On a small crowd two eigenvalues of opposite signs can be close in size, and the
messages settle slowly (the fit may warn at ``max_iterations`` with the labels of its last
iteration); in a weak crowd the leading eigenvalues can be a complex pair, the messages
never settle, and the fit warns that it did not converge: its labels then mean little. A group
has converged when the root mean square change of its scaled ``y`` in an iteration is below
``tol``; converged groups stop moving, so each ``by=`` group is fitted as if alone. The
messages start at ``y = 1``, the mean of the paper's ``N(1, 1)`` draw: the fixed point is the
same, and the labels do not depend on a seed or on the order of the rows.

An annotator's *reliability* is ``sum_{i in d(j)} A_ij x_{i->j}`` at the end, divided by the
largest absolute value in its group: 1 for the most reliable, negative for an annotator who
mostly contradicts the consensus. KOS gives no probabilities.

References
----------
Karger, D. R., Oh, S. & Shah, D. (2011). Iterative learning for reliable crowdsourcing
systems. *Advances in Neural Information Processing Systems 24*, 1953-1961.
Karger, D. R., Oh, S. & Shah, D. (2014). Budget-optimal task allocation for reliable
crowdsourcing systems. *Operations Research* 62(1), 1-24.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._typing import BoolArray, FloatArray, IntArray, as_float
from ._votes import Votes

__all__ = ["KosFit", "kos"]


@dataclass(frozen=True, eq=False)
class KosFit:
    """Per item ``x_i`` (n_items,) and the decision as shares (n_items, K): 1 for the sign's
    category, 1/2 each on an exact tie, nan without votes; per key the reliability; per group
    the iterations and whether it converged."""

    score: FloatArray
    decision: FloatArray
    reliability: FloatArray
    n_iterations: IntArray
    converged: BoolArray


def _group_rms(values: FloatArray, group: IntArray, n_edges: FloatArray) -> FloatArray:
    """Per group the root mean square of ``values`` over its edges (0 for a group without)."""
    sq = np.bincount(group, weights=values * values, minlength=len(n_edges))
    with np.errstate(invalid="ignore", divide="ignore"):
        out: FloatArray = np.sqrt(np.where(n_edges > 0, sq / n_edges, 0.0))
    return out


def kos(v: Votes, *, max_iterations: int, tol: float) -> KosFit:
    """KOS over every group of ``v`` at once (at most two categories per group)."""
    first = v.allowed.argmax(axis=1)  # the +1 category of each group
    rest = v.allowed.copy()
    rest[np.arange(v.n_groups), first] = False
    second = np.where(rest.any(axis=1), rest.argmax(axis=1), first)
    edge_group = v.group[v.item]
    a = np.where(v.code == first[edge_group], 1.0, -1.0)
    n_edges = np.bincount(edge_group, minlength=v.n_groups).astype(np.float64)
    y = np.ones(len(v.item))
    active = n_edges > 0
    n_iterations = np.zeros(v.n_groups, dtype=np.int64)
    for _ in range(max_iterations):
        if not active.any():
            break
        ay = a * y
        x = np.bincount(v.item, weights=ay, minlength=v.n_items)[v.item] - ay
        ax = a * x
        new = np.bincount(v.key, weights=ax, minlength=v.n_keys)[v.key] - ax
        # Scaled to unit root mean square, and turned so that the group's messages sum
        # to a positive number: annotators are trusted on the whole, as y = 1 starts.
        scale = _group_rms(new, edge_group, n_edges)
        lean = np.bincount(edge_group, weights=new, minlength=v.n_groups)
        scale = np.where(lean < 0, -scale, scale)
        new = np.where(
            scale[edge_group] != 0, new / np.where(scale != 0, scale, 1.0)[edge_group], 0
        )
        change = _group_rms(new - y, edge_group, n_edges)
        moving = active[edge_group]
        y = np.where(moving, new, y)
        n_iterations += active
        active = active & ~(change < tol)
    ay = a * y
    score = as_float(np.bincount(v.item, weights=ay, minlength=v.n_items))
    x = score[v.item] - ay
    total = np.bincount(v.key, weights=a * x, minlength=v.n_keys)
    top = np.zeros(v.n_groups)
    np.maximum.at(top, v.key_group, np.abs(total))
    with np.errstate(invalid="ignore", divide="ignore"):
        reliability = total / top[v.key_group]
    decision = np.zeros((v.n_items, v.n_categories))
    rows = np.arange(v.n_items)
    sign = np.sign(score)
    decision[rows, first[v.group]] += np.where(sign > 0, 1.0, np.where(sign == 0, 0.5, 0.0))
    decision[rows, second[v.group]] += np.where(sign < 0, 1.0, np.where(sign == 0, 0.5, 0.0))
    voted = np.bincount(v.item, minlength=v.n_items) > 0
    decision[~voted] = np.nan
    known = v.gold >= 0
    decision[known] = 0.0
    decision[np.flatnonzero(known), v.gold[known]] = 1.0
    return KosFit(score, decision, reliability, n_iterations, ~active)
