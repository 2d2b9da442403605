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
factorisation, for every ``by=`` group at once (batched). The function is separable over the
groups, so one L-BFGS-B run over all groups' log-variances, with the gradient from batched
central differences, fits each group as if alone; a few batched Newton steps then polish each
group's estimate to about 1e-10.
On a complete layout the REML estimates are the ANOVA ones (when those are not negative).
"""

from __future__ import annotations

import numpy as np

from .._lazy import scipy_sparse as sp
from .._typing import FloatArray, IntArray, as_float
from ._scores import Scores

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


def _gradient(theta: FloatArray, st: dict[str, FloatArray], h: float) -> FloatArray:
    """Each group's gradient by central differences: the objective is separable, so one
    batched evaluation perturbs a coordinate of every group at once."""
    out = np.empty_like(theta)
    for i in range(3):
        step = np.zeros(3)
        step[i] = h
        out[:, i] = (_objective(theta + step, st) - _objective(theta - step, st)) / (2 * h)
    return out


def _hessian(theta: FloatArray, st: dict[str, FloatArray], h: float) -> FloatArray:
    out = np.empty((len(theta), 3, 3))
    eye = np.eye(3) * h
    for i in range(3):
        for j in range(i, 3):
            d, g = eye[i], eye[j]
            out[:, i, j] = out[:, j, i] = (
                _objective(theta + d + g, st)
                - _objective(theta + d - g, st)
                - _objective(theta - d + g, st)
                + _objective(theta - d - g, st)
            ) / (4 * h * h)
    return out


def _fit(st: dict[str, FloatArray]) -> FloatArray:
    from scipy.optimize import minimize

    n_groups = len(st["q"])
    start = np.tile(np.log([0.3, 0.1, 0.6]), (n_groups, 1))

    def total(flat: FloatArray) -> tuple[float, FloatArray]:
        theta = flat.reshape(n_groups, 3)
        value = _objective(theta, st)
        if not np.all(np.isfinite(value)):
            return float("inf"), np.zeros_like(flat)
        return float(value.sum()), _gradient(theta, st, 1e-6).ravel()

    fit = minimize(
        total,
        start.ravel(),
        jac=True,
        method="L-BFGS-B",
        bounds=[(LOW, HIGH)] * (3 * n_groups),
        options={"ftol": 1e-15, "gtol": 1e-9, "maxiter": 2000},
    )
    theta = fit.x.reshape(n_groups, 3)
    # Newton polish, per group: the gradient by central differences at h = 1e-5 (truncation
    # and rounding errors balanced), the Hessian at 1e-4; a step is kept where it does not
    # raise that group's objective beyond its rounding, or where it is already tiny.
    for _ in range(10):
        f0 = _objective(theta, st)
        grad = _gradient(theta, st, 1e-5)
        hess = _hessian(theta, st, 1e-4)
        ok = np.all(np.isfinite(hess), axis=(1, 2)) & (np.abs(np.linalg.det(hess)) > 1e-300)
        step = np.zeros_like(theta)
        if ok.any():
            step[ok] = np.linalg.solve(hess[ok], grad[ok][:, :, None])[:, :, 0]
        step = np.where(np.isfinite(step), step, 0.0)
        trial = np.clip(theta - step, LOW, HIGH)
        tiny = np.abs(step).max(axis=1) < 1e-6
        better = (_objective(trial, st) <= f0 + 1e-12 * np.abs(f0)) | tiny
        theta = np.where(better[:, None], trial, theta)
        if np.abs(np.where(better[:, None], step, 0.0)).max() < 1e-13:
            break
    return theta


def reml_groups(scores: Scores) -> tuple[FloatArray, FloatArray, FloatArray]:
    """REML estimates ``(s_a, s_b, s_e)`` per group (each group's ratings standardised first,
    and the estimates scaled back; nan for a group whose ratings do not vary), every group
    at once, in chunks of groups when the co-rating counts would exceed :data:`MAX_CELLS`."""
    n_groups, n_raters, item_group = scores.n_groups, scores.n_raters, scores.group
    item, rater, g_ann = scores.item, scores.rater, scores.rating_group
    count, _ = scores.group_mean
    d = scores.centred
    with np.errstate(invalid="ignore", divide="ignore"):
        var = np.bincount(g_ann, weights=d * d, minlength=n_groups) / count
    varies = np.isfinite(var) & (var > 0)
    scale = np.where(varies, var, 1.0)
    z = d / np.sqrt(scale[g_ann])
    chunk = max(1, MAX_CELLS // max(n_raters, 1) ** 3)
    out = np.full((n_groups, 3), np.nan)
    for first in range(0, n_groups, chunk):  # one chunk unless the problem is very large
        groups = np.arange(first, min(first + chunk, n_groups))
        inside = np.isin(item_group, groups)
        rows = inside[item]
        local = np.full(n_groups, -1)
        local[groups] = np.arange(len(groups))
        items = np.flatnonzero(inside)
        renumber = np.full(len(item_group), -1)
        renumber[items] = np.arange(len(items))
        st = _statistics(
            z[rows],
            renumber[item[rows]],
            rater[rows],
            local[item_group[items]],
            len(groups),
            n_raters,
        )
        out[groups] = np.exp(_fit(st)) * scale[groups, None]
    out[~varies] = np.nan  # ratings that do not vary: nothing to split
    return out[:, 0], out[:, 1], out[:, 2]


def reml(
    x: FloatArray, item: IntArray, rater: IntArray, n_items: int, k: int
) -> tuple[float, float, float]:
    """One group's REML estimates ``(s_a, s_b, s_e)``."""
    one = Scores(x, item, rater, np.zeros(n_items, dtype=np.int64), k, 1)
    a, b, e = reml_groups(one)
    return float(a[0]), float(b[0]), float(e[0])
