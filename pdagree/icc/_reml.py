"""Variance components of the two-way crossed random-effects model on an incomplete layout,
by restricted maximum likelihood (REML), from sufficient statistics.

The model: ``y_ij = mu + a_i + b_j + e_ij`` for the ratings present, with independent
``a_i ~ N(0, s_a)`` (targets), ``b_j ~ N(0, s_b)`` (raters) and ``e_ij ~ N(0, s_e)``. With
``W = s_e I + s_a Z_a Z_a'`` (block diagonal by item: each block's inverse is
``(I - c_i J) / s_e`` with ``c_i = s_a / (s_e + m_i s_a)`` for an item with ``m_i`` ratings)
and ``V = W + s_b Z_b Z_b'``, Woodbury's identity gives every quadratic form of ``V^-1``
through the k x k matrix ``M = I / s_b + Z_b' W^-1 Z_b``, and

    -2 l_R = log|V| + log(1' V^-1 1) + y' P y,     log|V| = log|W| + k log s_b + log|M|,

with ``y' P y = y'V^-1 y - (1'V^-1 y)^2 / 1'V^-1 1`` (Patterson & Thompson 1971; Searle,
Casella & McCulloch 1992, ch. 6). ``c_i`` depends on the item only through ``m_i``, so every
term is a sum over the classes of items with the same number of ratings: per class the items,
their rating sums and squares, the raters' co-rating counts and the raters' sums. They are
gathered once (one pass of ``np.bincount``, and one sparse product per class for the
co-rating counts); each evaluation of ``l_R`` costs O(classes x k^2) plus one k x k
factorisation, for every ``by=`` group at once (batched; raters numbered within their group,
so ``k`` is the most raters a group has, not the raters of all groups). The function is
separable over the groups, so each group's log-variances are fitted by its own damped Newton
iteration (Levenberg-Marquardt, the gradient and Hessian by batched central differences), all
groups advancing together and each stopping when its step no longer lowers its objective
beyond rounding; the estimates agree with a fit of each group alone to about 1e-10.
On a complete layout the REML estimates are the ANOVA ones when those are positive: they are
taken in closed form there (:func:`_anova_groups`), the optimiser fits the other groups.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from .._lazy import scipy_sparse as sp
from .._typing import BoolArray, FloatArray, IntArray, as_float
from ..scores import Scores
from ._anova import mean_squares
from ._dense import MAX_RATINGS, refit_without_residual
from ._newton import gradient, hessian, newton_step

__all__ = ["reml", "reml_groups"]

#: Cells (groups x classes x raters^2) of the co-rating counts held at once; larger by=
#: problems are fitted a chunk of groups at a time.
MAX_CELLS = 20_000_000
LOW, HIGH = -25.0, 5.0


def _statistics(
    x: FloatArray, item: IntArray, rater: IntArray, item_group: IntArray, n_groups: int, r: int
) -> dict[str, FloatArray]:
    """Per group and class (items with ``m = class + 1`` ratings): the sufficient statistics,
    padded to ``r`` raters and ``r`` classes."""
    n_items = len(item_group)
    m = np.bincount(item, minlength=n_items)
    rated = np.flatnonzero(m > 0)
    s = np.bincount(item, weights=x, minlength=n_items)
    g, c = item_group[rated], m[rated] - 1
    gc = g * r + c
    cells = n_groups * r
    count = np.bincount(gc, minlength=cells).astype(np.float64).reshape(n_groups, r)
    sum_s = as_float(np.bincount(gc, weights=s[rated], minlength=cells)).reshape(n_groups, r)
    sum_ss = as_float(np.bincount(gc, weights=s[rated] ** 2, minlength=cells)).reshape(n_groups, r)
    gc_item = np.full(n_items, -1)
    gc_item[rated] = gc
    key = gc_item[item] * r + rater
    n_j = np.bincount(key, minlength=cells * r).astype(np.float64).reshape(n_groups, r, r)
    s_j = as_float(np.bincount(key, weights=s[item], minlength=cells * r)).reshape(n_groups, r, r)
    # Co-rating counts: per class, E' D with D the items x raters incidence and E the same
    # with each rating's column moved to its item's group block.
    co = np.zeros((n_groups, r, r, r))
    item_class = np.full(n_items, -1)
    item_class[rated] = c
    cls = item_class[item]
    for k in np.unique(c):  # one class per distinct number of ratings: at most r
        rows = cls == k
        it, rt = item[rows], rater[rows]
        d = sp.csr_matrix((np.ones(len(it)), (it, rt)), shape=(n_items, r))
        e = sp.csr_matrix(
            (np.ones(len(it)), (it, item_group[it] * r + rt)), shape=(n_items, n_groups * r)
        )
        co[:, k] = np.asarray((e.T @ d).todense()).reshape(n_groups, r, r)
    return {
        "sizes": np.arange(1.0, r + 1.0),
        "count": count,
        "sum_s": sum_s,
        "sum_ss": sum_ss,
        "n_j": n_j,
        "s_j": s_j,
        "co": co,
        "t_j": as_float(
            np.bincount(item_group[item] * r + rater, weights=x, minlength=cells)
        ).reshape(n_groups, r),
        "rater_n": np.bincount(item_group[item] * r + rater, minlength=cells)
        .astype(np.float64)
        .reshape(n_groups, r),
        "q": as_float(np.bincount(item_group[item], weights=x * x, minlength=n_groups)),
    }


def _objective(theta: FloatArray, st: dict[str, FloatArray]) -> FloatArray:
    """``-2 l_R`` (up to a constant) of each group, ``theta`` (G, 3) its log-variances."""
    a, b, e = (np.exp(theta[:, i]) for i in range(3))
    sizes, count = st["sizes"][None, :], st["count"]
    r = sizes.shape[1]
    c = a[:, None] / (e[:, None] + sizes * a[:, None])  # (G, classes)
    one_w_one = (count * sizes - c * count * sizes**2).sum(axis=1) / e
    one_w_y = (st["sum_s"] - c * sizes * st["sum_s"]).sum(axis=1) / e
    y_w_y = (st["q"] - (c * st["sum_ss"]).sum(axis=1)) / e
    big_b = st["rater_n"][:, :, None] * np.eye(r) - np.einsum("gc,gcjl->gjl", c, st["co"])
    big_b /= e[:, None, None]
    u = (st["rater_n"] - np.einsum("gc,gcj->gj", c * sizes, st["n_j"])) / e[:, None]
    w = (st["t_j"] - np.einsum("gc,gcj->gj", c, st["s_j"])) / e[:, None]
    m_mat = big_b + np.eye(r) / b[:, None, None]
    out = np.full(len(a), np.inf)
    try:
        chol = np.linalg.cholesky(m_mat)
    except np.linalg.LinAlgError:  # some group's matrix is not positive definite
        return out
    log_det_m = 2.0 * np.log(np.diagonal(chol, axis1=1, axis2=2)).sum(axis=1)
    solved = np.linalg.solve(m_mat, np.stack([u, w], axis=2))
    a11 = one_w_one - (u * solved[:, :, 0]).sum(axis=1)
    a1y = one_w_y - (u * solved[:, :, 1]).sum(axis=1)
    ayy = y_w_y - (w * solved[:, :, 1]).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        log_det_w = (
            count * ((sizes - 1.0) * np.log(e)[:, None] + np.log(e[:, None] + sizes * a[:, None]))
        ).sum(axis=1)
        value = log_det_w + r * np.log(b) + log_det_m + np.log(a11) + ayy - a1y * a1y / a11
    return np.where(a11 > 0, value, np.inf)


def _fit(st: dict[str, FloatArray], max_iter: int = 200) -> FloatArray:
    """Each group's REML log-variances: projected, damped Newton steps, every group at once.

    A variance whose log falls below -10 (1e-4.3 of the group's variance) is tried at the
    lower bound and kept there when that does not raise the objective beyond rounding: a
    component whose estimate is 0 is then held at the bound (while the likelihood does not
    rise away from it) and the others are solved for, instead of creeping towards it one
    unit of log at a time. A group leaves the iteration once it has converged: its undamped
    Newton step below 1e-7 over the coordinates not held, or three lightly damped steps in a
    row that lower its objective by no more than rounding (a likelihood flat to the last
    digits)."""
    n_groups = len(st["q"])
    theta = np.tile(np.log([0.3, 0.1, 0.6]), (n_groups, 1))
    damping = np.full(n_groups, 1e-3)
    value = _objective(theta, st)
    active = np.flatnonzero(np.isfinite(value))
    calm = np.zeros(n_groups, dtype=np.int64)
    for _ in range(max_iter):
        if not len(active):
            break
        sub = _take(st, active)
        t, f0, lam = theta[active], value[active], damping[active]
        slack = 1e-13 * np.maximum(np.abs(f0), 1.0)  # rounding of the objective
        for i in range(3):  # a vanishing component tried at the bound
            low = (t[:, i] < -10.0) & (t[:, i] > LOW)
            if low.any():
                trial = t.copy()
                trial[low, i] = LOW
                f1 = _objective(trial, sub)
                take = low & (f1 <= f0 + slack)
                t = np.where(take[:, None], trial, t)
                f0 = np.where(take, f1, f0)
        objective = _bound(sub)
        grad = gradient(objective, t, 1e-5)
        hess = hessian(objective, t, 1e-4, f0)
        held = ((t <= LOW) & (grad > -1e-8)) | ((t >= HIGH) & (grad < 1e-8))
        grad = np.where(held, 0.0, grad)
        pair = held[:, :, None] | held[:, None, :]
        hess = np.where(pair, 0.0, hess) + held[:, :, None] * np.eye(3)
        newton, definite = newton_step(grad, hess, np.zeros(len(active)))
        converged = definite & (np.abs(newton).max(axis=1) < 1e-7)
        step, ok = newton_step(grad, hess, lam)
        trial = np.clip(t - step, LOW, HIGH)
        f1 = _objective(trial, sub)
        better = ok & (f1 <= f0 + slack)
        theta[active] = np.where(better[:, None], trial, t)
        value[active] = np.where(better, f1, f0)
        damping[active] = np.where(better, lam / 4.0, lam * 8.0)
        quiet = better & (f0 - f1 < slack) & (lam <= 1e-2)
        calm[active] = np.where(quiet, calm[active] + 1, 0)
        done = converged | (calm[active] >= 3) | (damping[active] > 1e12)
        active = active[~done]
    return theta


def _bound(st: dict[str, FloatArray]) -> Callable[[FloatArray], FloatArray]:
    """The objective of the groups of ``st``, as a function of their log-variances."""
    return lambda theta: _objective(theta, st)


def _take(st: dict[str, FloatArray], groups: IntArray) -> dict[str, FloatArray]:
    """The statistics of some groups."""
    return {k: (v if k == "sizes" else v[groups]) for k, v in st.items()}


class _Closed(NamedTuple):
    groups: IntArray
    components: FloatArray


def _anova_groups(scores: Scores, candidates: BoolArray) -> _Closed:
    """The ``candidates`` groups whose REML estimates are the ANOVA ones, with those: a
    complete layout (every item rated by each of the group's raters, at least two of each)
    whose ANOVA components are all positive, where REML's estimating equations are solved
    by them exactly (Searle, Casella & McCulloch 1992, ch. 6); the optimiser would reach them
    only to its tolerance. In the groups' unit, as :func:`reml_groups`."""
    k = scores.raters_per_group
    group = scores.group
    full = scores.per_item == k[group]
    short = np.bincount(group, weights=~full, minlength=scores.n_groups) > 0
    n = np.bincount(group, minlength=scores.n_groups)
    usable = candidates & ~short & (n >= 2) & (k >= 2)
    if not usable.any():
        return _Closed(np.zeros(0, dtype=np.int64), np.zeros((0, 3)))
    ms = mean_squares(scores, np.ones(scores.n_items, dtype=bool))
    with np.errstate(invalid="ignore", divide="ignore"):
        s_a = (ms.ms_rows - ms.ms_error) / ms.k
        s_b = (ms.ms_columns - ms.ms_error) / ms.n
        s_e = ms.ms_error
    inside = usable & (s_a > 0) & (s_b > 0) & (s_e > 0)
    groups = np.flatnonzero(inside)
    return _Closed(groups, np.stack([s_a[groups], s_b[groups], s_e[groups]], axis=1))


def reml_groups(
    scores: Scores, fit: BoolArray | None = None
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """REML estimates ``(s_a, s_b, s_e)`` per group in its unit (:attr:`Scores.exponent`:
    the components of the ratings themselves are these times ``4**exponent``), nan for a
    group whose ratings do not vary or that ``fit`` leaves out; every group at once, in
    chunks of groups when the co-rating counts would exceed :data:`MAX_CELLS`."""
    n_groups, item_group = scores.n_groups, scores.group
    item, g_ann = scores.item, scores.rating_group
    pair, _, local = scores.pairs
    rater = local[pair]  # numbered within the group
    count = scores.group_count
    d = scores.centred
    with np.errstate(invalid="ignore", divide="ignore"):
        var = np.bincount(g_ann, weights=d * d, minlength=n_groups) / count
    varies = np.isfinite(var) & (var > 0)
    if fit is not None:
        varies &= fit
    scale = np.where(varies, var, 1.0)
    z = d / np.sqrt(scale[g_ann])
    out = np.full((n_groups, 3), np.nan)
    closed = _anova_groups(scores, varies)
    out[closed.groups] = closed.components
    varies[closed.groups] = False
    todo = np.flatnonzero(varies)
    if not len(todo):
        return out[:, 0], out[:, 1], out[:, 2]
    # Chunks of groups of similar size: the padding to the most raters stays small.
    k = scores.raters_per_group
    todo = todo[np.argsort(k[todo], kind="stable")]
    cells = np.cumsum(np.maximum(k[todo], 1).astype(np.float64) ** 3)
    chunk = (cells // MAX_CELLS).astype(np.int64)  # one chunk unless the problem is huge
    starts = np.flatnonzero(np.diff(chunk, prepend=-1))
    for first, last in zip(starts, [*starts[1:], len(todo)], strict=True):
        groups = todo[first:last]
        inside = np.zeros(n_groups, dtype=bool)
        inside[groups] = True
        inside_item = inside[item_group]
        rows = inside_item[item]
        local_group = np.full(n_groups, -1)
        local_group[groups] = np.arange(len(groups))
        items = np.flatnonzero(inside_item)
        renumber = np.full(len(item_group), -1)
        renumber[items] = np.arange(len(items))
        r = max(int(k[groups].max()), 1)
        st = _statistics(
            z[rows],
            renumber[item[rows]],
            rater[rows],
            local_group[item_group[items]],
            len(groups),
            r,
        )
        out[groups] = np.exp(_fit(st)) * scale[groups, None]
    # A residual variance held at zero: the batched objective's 1/s_e terms cancel, so the
    # other two are fitted again on the dense covariance of small groups (._dense).
    floor = np.exp(LOW + 1.0) * scale
    held = varies & (out[:, 2] <= floor) & (out[:, 0] > floor) & (out[:, 1] > floor)
    held &= count <= MAX_RATINGS
    if held.any():
        groups = np.flatnonzero(held)
        local = np.full(n_groups, -1)
        local[groups] = np.arange(len(groups))
        rows = held[g_ann]
        start = np.log(out[groups, :2] / scale[groups, None])
        theta, _ = refit_without_residual(
            z[rows], item[rows], rater[rows], local[g_ann[rows]], start
        )
        out[groups, :2] = np.exp(theta) * scale[groups, None]
    return out[:, 0], out[:, 1], out[:, 2]


def reml(
    x: FloatArray, item: IntArray, rater: IntArray, n_items: int, k: int
) -> tuple[float, float, float]:
    """One group's REML estimates ``(s_a, s_b, s_e)``, in the ratings' units."""
    one = Scores(x, item, rater, np.zeros(n_items, dtype=np.int64), k, 1)
    a, b, e = (np.ldexp(v, 2 * one.exponent) for v in reml_groups(one))
    return float(a[0]), float(b[0]), float(e[0])
