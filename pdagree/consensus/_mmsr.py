"""Matrix mean-subsequence-reduced consensus (M-MSR, Ma & Olshevsky 2020).

Under the one-coin model annotator ``j`` is right with probability ``p_j``; with ``M`` the
group's categories, ``s_j = (M p_j - 1) / (M - 1)`` and ``C_jl`` the share of the items
annotators ``j`` and ``l`` both rated on which they agree,

    E[M / (M - 1) C_jl - 1 / (M - 1)] = s_j s_l   (j != l),

so the skills are a rank-one matrix seen only where two annotators share items. M-MSR
completes it robustly (Ma & Olshevsky 2020, Algorithm 1): from ``u = v = 1``, each
iteration sets every ``v_l`` to the mean of ``|C~_jl| / u_j`` over the annotators ``j`` who
share items with ``l``, after dropping the ``F`` largest values above the current ``v_l``
and the ``F`` smallest below it (all of them when there are fewer than ``F``), then every
``u_j`` the same way from ``v``. A group stops when ``||u v^T - u' v'^T||_F`` over its
annotators, from one iteration to the next, is below ``tol``. ``F = max(floor(d / 2) - 1,
0)``, ``d`` the fewest annotators any annotator of the group shares items with. A mean of
zero becomes ``1 / sqrt(n)`` (``n`` the group's rated items), which keeps the next division
finite.

``|s| = u sqrt(||v|| / ||u||)``; the signs come from the signed graph of the annotators, an
edge of weight ``C~_jl`` where two share items: the signs of the leading eigenvector of
``S + D`` (``S`` the weighted signed adjacency, ``D`` the diagonal of its rows' absolute
sums; for a graph whose signs are consistent, exactly the two sides), each group oriented
so that most of its annotators are better than chance. Weighting the edges by ``|C~_jl|``
lets a strong agreement outvote a disagreement at chance level; crowd-kit 1.4.2 uses the
signs alone. ``s`` is clipped to ``[-1 / (M - 1) + 1 / sqrt(n),
1 - 1 / sqrt(n)]``, ``p = s (M - 1) / M + 1 / M``, and the items are labelled by the votes
weighted by ``w_j = log((M - 1) p_j / (1 - p_j))``. Their probabilities are the one-coin
model's posterior with uniform priors, ``P(k) proportional to exp(sum_{j: l_j = k} w_j)``
over the group's categories (its most probable category is the weighted vote's).

Annotators who share no item with another (or whose group has one category) have no skill
(nan) and no weight.

References
----------
Ma, Q. & Olshevsky, A. (2020). Adversarial crowdsourcing through robust rank-one matrix
completion. *Advances in Neural Information Processing Systems 33* (arXiv:2010.12181).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._kernels.rows import row_max
from .._lazy import scipy_sparse as sp
from .._typing import BoolArray, FloatArray, IntArray, as_float
from ._votes import Votes

__all__ = ["MmsrFit", "mmsr"]


@dataclass(frozen=True, eq=False)
class MmsrFit:
    """Per item the probabilities (n_items, K); per key ``s``, ``p`` and the weight ``w``
    (nan, nan, 0 for a key without a skill); per group the iterations and convergence."""

    probabilities: FloatArray
    skill: FloatArray
    accuracy: FloatArray
    weight: FloatArray
    n_iterations: IntArray
    converged: BoolArray
    diverged: BoolArray  # per group: the rank-one fit ran off (skills undetermined, nan)


#: Squared size of a group's factors beyond which its fit runs off (2**400: factors of 2**200).
RUN_OFF = 2.0**400


def _pairs(v: Votes) -> tuple[IntArray, IntArray, FloatArray, FloatArray]:
    """Every ordered pair of distinct keys sharing items: the keys, how many items they share
    and on how many of them they agree (sparse products, no loop over items)."""
    k = v.n_categories
    ones = np.ones(len(v.item))
    rated: Any = sp.csr_matrix((ones, (v.item, v.key)), shape=(v.n_items, v.n_keys))
    labelled: Any = sp.csr_matrix(
        (ones, (v.item * k + v.code, v.key)), shape=(v.n_items * k, v.n_keys)
    )
    for m in (rated, labelled):  # one annotation per (item, annotator) counts once
        m.sum_duplicates()
        m.data = np.minimum(m.data, 1.0)
    common = (rated.T @ rated).tocoo()
    agree = (labelled.T @ labelled).tocsr()
    off = common.row != common.col
    row, col = common.row[off].astype(np.int64), common.col[off].astype(np.int64)
    agreed = np.asarray(agree[row, col]).ravel()
    return row, col, common.data[off].astype(np.float64), agreed


def _msr(
    values: FloatArray, owner: IntArray, current: FloatArray, f: IntArray, floor: FloatArray
) -> FloatArray:
    """Per key, the mean of its ``values`` after dropping the ``f`` largest above and the
    ``f`` smallest below ``current`` (all of them when fewer); ``current`` where none is left,
    ``floor`` where the mean is zero."""
    n_keys = len(current)
    # Sorted by owner, then value: the values' ranks under the owners (two quick sorts,
    # several times faster than np.lexsort; equal values are interchangeable).
    rank = np.empty(len(values), dtype=np.int64)
    rank[np.argsort(values)] = np.arange(len(values))
    order = np.argsort(owner * len(values) + rank)
    vals, own = values[order], owner[order]
    n = np.bincount(own, minlength=n_keys)
    start = np.cumsum(n) - n
    rank = np.arange(len(own)) - start[own]
    a = current[own]
    below = np.bincount(own, weights=vals < a, minlength=n_keys)
    above = np.bincount(own, weights=vals > a, minlength=n_keys)
    fo = f[own]
    keep = np.where(below[own] >= fo, rank >= fo, vals >= a) & np.where(
        above[own] >= fo, rank < n[own] - fo, vals <= a
    )
    total = np.bincount(own, weights=np.where(keep, vals, 0.0), minlength=n_keys)
    kept = np.bincount(own, weights=keep, minlength=n_keys)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = total / kept
    out: FloatArray = np.where(kept > 0, np.where(mean > 0, mean, floor), current)
    return out


def _per_group(values: FloatArray, key_group: IntArray, n_groups: int) -> FloatArray:
    return as_float(np.bincount(key_group, weights=values, minlength=n_groups))


def _signs(
    row: IntArray, col: IntArray, weight: FloatArray, v: Votes, max_iterations: int
) -> FloatArray:
    """Per key the sign of the leading eigenvector of ``S + D`` of its group (power
    iteration over all groups at once), oriented so that most keys are positive."""
    n_keys, g = v.n_keys, v.key_group
    signed: Any = sp.csr_matrix((weight, (row, col)), shape=(n_keys, n_keys))
    degree = np.bincount(row, weights=np.abs(weight), minlength=n_keys)
    z = np.ones(n_keys)
    for _ in range(max_iterations):
        new = signed @ z + degree * z
        norm = np.sqrt(_per_group(new * new, g, v.n_groups))
        new = new / np.where(norm > 0, norm, 1.0)[g]
        change = np.sqrt(_per_group((new - z) ** 2, g, v.n_groups))
        z = new
        if (change < 1e-12).all():
            break
    direction = np.sign(z)
    vote = _per_group(direction, g, v.n_groups)
    lean = np.where(vote != 0, np.sign(vote), np.sign(_per_group(z, g, v.n_groups)))
    out: FloatArray = direction * np.where(lean < 0, -1.0, 1.0)[g]
    return out


def mmsr(v: Votes, *, max_iterations: int, tol: float) -> MmsrFit:
    """M-MSR over every group of ``v`` at once."""
    g = v.key_group
    m = v.n_allowed
    row, col, common, agreed = _pairs(v)
    pair_m = m[g[row]]
    with np.errstate(invalid="ignore", divide="ignore"):
        c = np.where(pair_m > 1, (pair_m * agreed / common - 1.0) / (pair_m - 1.0), np.nan)
    usable = np.isfinite(c)
    row, col, c = row[usable], col[usable], c[usable]
    x = np.abs(c)
    degree = np.bincount(col, minlength=v.n_keys)
    connected = degree > 0
    fewest = np.full(v.n_groups, np.iinfo(np.int64).max)
    np.minimum.at(fewest, g[connected], degree[connected])
    f = np.maximum(fewest // 2 - 1, 0)[g]
    voted = np.bincount(v.item, minlength=v.n_items) > 0
    n_rated = np.bincount(v.group[voted], minlength=v.n_groups).astype(np.float64)
    root = np.sqrt(np.maximum(n_rated, 1.0))
    floor = (1.0 / root)[g]

    u = np.ones(v.n_keys)
    w = np.ones(v.n_keys)
    active = np.bincount(g[connected], minlength=v.n_groups) > 0
    n_iterations = np.zeros(v.n_groups, dtype=np.int64)
    diverged = np.zeros(v.n_groups, dtype=bool)
    for _ in range(max_iterations):
        if not active.any():
            break
        new_w = _msr(x / u[row], col, w, f, floor)
        new_u = _msr(x / new_w[col], row, u, f, floor)
        du, dw = new_u - u, new_w - w
        # ||u v' - u0 v0'||^2 with u = u0 + du: no cancellation between large terms.
        loss2 = (
            _per_group(du * du, g, v.n_groups) * _per_group(new_w * new_w, g, v.n_groups)
            + 2 * _per_group(du * u, g, v.n_groups) * _per_group(new_w * dw, g, v.n_groups)
            + _per_group(u * u, g, v.n_groups) * _per_group(dw * dw, g, v.n_groups)
        )
        moving = active[g]
        u = np.where(moving, new_u, u)
        w = np.where(moving, new_w, w)
        n_iterations += active
        active = active & ~(np.sqrt(np.maximum(loss2, 0.0)) < tol)
        # A group whose factors grow past 2**200 runs off along a ridge of the rank-one fit
        # that its shared items leave open (one factor doubling, another halving each step):
        # it is stopped before its sums overflow, its skills undetermined.
        size2 = _per_group(u * u, g, v.n_groups) + _per_group(w * w, g, v.n_groups)
        running_off = active & (size2 > RUN_OFF)
        diverged |= running_off
        active &= ~running_off

    on = connected.astype(np.float64)
    nu = np.sqrt(_per_group(on * u * u, g, v.n_groups))
    nw = np.sqrt(_per_group(on * w * w, g, v.n_groups))
    with np.errstate(invalid="ignore", divide="ignore"):
        size = u * np.sqrt(nw / nu)[g]
    s = size * _signs(row, col, c, v, max_iterations)
    mk = m[g]
    with np.errstate(invalid="ignore", divide="ignore"):
        s = np.clip(s, -1.0 / (mk - 1.0) + floor, 1.0 - floor)
        s = np.where(connected & (mk > 1) & ~diverged[g], s, np.nan)
        p = s * (mk - 1.0) / mk + 1.0 / mk
        weight = np.nan_to_num(np.log(p * (mk - 1.0) / (1.0 - p)), nan=0.0)
    k = v.n_categories
    scores = as_float(
        np.bincount(v.item * k + v.code, weights=weight[v.key], minlength=v.n_items * k)
    ).reshape(v.n_items, k)
    allowed = v.allowed[v.group]
    scores = np.where(allowed, scores, -np.inf)
    e = np.exp(scores - row_max(scores)[:, None])
    probabilities = e / e.sum(axis=1, keepdims=True)
    probabilities[~voted] = np.nan
    known = v.gold >= 0
    probabilities[known] = 0.0
    probabilities[np.flatnonzero(known), v.gold[known]] = 1.0
    return MmsrFit(probabilities, s, p, weight, n_iterations, ~active, diverged)
