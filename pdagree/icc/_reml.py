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
gathered once (one pass of ``np.bincount``); each evaluation of ``l_R`` costs O(classes x k^2)
plus one k x k factorisation. The three log-variances are found by L-BFGS-B on that function.
On a complete layout the REML estimates are the ANOVA ones (when those are not negative).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._lazy import scipy_sparse as sp
from .._typing import FloatArray, IntArray

__all__ = ["Components", "reml"]


@dataclass(frozen=True)
class Components:
    """The variance components ``s_a`` (targets), ``s_b`` (raters), ``s_e`` (residual)."""

    targets: float
    raters: float
    residual: float
    converged: bool


def _statistics(x: FloatArray, item: IntArray, rater: IntArray, n_items: int, k: int) -> dict:
    m = np.bincount(item, minlength=n_items)
    rated = np.flatnonzero(m > 0)
    s = np.bincount(item, weights=x, minlength=n_items)
    q = np.bincount(item, weights=x * x, minlength=n_items)
    sizes, cls = np.unique(m[rated], return_inverse=True)
    n_cls = len(sizes)
    cls_of_item = np.full(n_items, -1)
    cls_of_item[rated] = cls
    c_ann = cls_of_item[item]
    count = np.bincount(cls, minlength=n_cls).astype(np.float64)
    sum_s = np.bincount(cls, weights=s[rated], minlength=n_cls)
    sum_ss = np.bincount(cls, weights=s[rated] ** 2, minlength=n_cls)
    n_j = np.bincount(c_ann * k + rater, minlength=n_cls * k).reshape(n_cls, k)
    s_j = np.bincount(c_ann * k + rater, weights=s[item], minlength=n_cls * k).reshape(n_cls, k)
    # Co-rating counts per class: D' D over the class's items, D the items x raters incidence.
    incidence = sp.csr_matrix((np.ones(len(item)), (item, rater)), shape=(n_items, k))
    co = np.zeros((n_cls, k, k))
    for c in range(n_cls):  # one class per distinct number of ratings: at most k
        rows = incidence[rated[cls == c]]
        co[c] = (rows.T @ rows).toarray()
    return {
        "sizes": sizes.astype(np.float64),
        "count": count,
        "sum_s": sum_s,
        "sum_ss": sum_ss,
        "n_j": n_j.astype(np.float64),
        "s_j": s_j,
        "co": co,
        "t_j": np.bincount(rater, weights=x, minlength=k),
        "rater_n": np.bincount(rater, minlength=k).astype(np.float64),
        "q": float(q.sum()),
        "n_total": float(len(x)),
    }


def _minus_two_log_likelihood(theta: FloatArray, st: dict) -> float:
    a, b, e = np.exp(theta)
    sizes, count = st["sizes"], st["count"]
    k = st["co"].shape[1]
    c = a / (e + sizes * a)  # per class
    one_w_one = (count * sizes - c * count * sizes**2).sum() / e
    one_w_y = (st["sum_s"] - c * sizes * st["sum_s"]).sum() / e
    y_w_y = (st["q"] - (c * st["sum_ss"]).sum()) / e
    big_b = (np.diag(st["rater_n"]) - np.einsum("c,cjl->jl", c, st["co"])) / e
    u = (st["rater_n"] - (c[:, None] * sizes[:, None] * st["n_j"]).sum(axis=0)) / e
    w = (st["t_j"] - (c[:, None] * st["s_j"]).sum(axis=0)) / e
    m_mat = np.eye(k) / b + big_b
    try:
        chol = np.linalg.cholesky(m_mat)
    except np.linalg.LinAlgError:
        return np.inf
    log_det_m = 2.0 * np.log(np.diag(chol)).sum()
    solved = np.linalg.solve(m_mat, np.column_stack([u, w]))
    a11 = one_w_one - u @ solved[:, 0]
    a1y = one_w_y - u @ solved[:, 1]
    ayy = y_w_y - w @ solved[:, 1]
    log_det_w = (count * ((sizes - 1.0) * np.log(e) + np.log(e + sizes * a))).sum()
    log_det_v = log_det_w + k * np.log(b) + log_det_m
    if not a11 > 0:
        return np.inf
    return float(log_det_v + np.log(a11) + (ayy - a1y * a1y / a11))


def reml(x: FloatArray, item: IntArray, rater: IntArray, n_items: int, k: int) -> Components:
    """REML estimates of the three variance components of one group's ratings."""
    from scipy.optimize import minimize

    scale = float(np.var(x)) if len(x) > 1 else 1.0
    scale = scale if scale > 0 else 1.0
    centre = float(np.mean(x)) if len(x) else 0.0
    st = _statistics((x - centre) / np.sqrt(scale), item, rater, n_items, k)
    start = np.log(np.array([0.3, 0.1, 0.6]))
    fit = minimize(
        _minus_two_log_likelihood,
        start,
        args=(st,),
        method="L-BFGS-B",
        bounds=[(-25.0, 5.0)] * 3,
        options={"ftol": 1e-14, "gtol": 1e-10, "maxiter": 500},
    )
    theta = _polish(fit.x, st)
    a, b, e = np.exp(theta) * scale
    return Components(float(a), float(b), float(e), bool(fit.success))


def _polish(theta: FloatArray, st: dict, steps: int = 8, h: float = 1e-4) -> FloatArray:
    """A few Newton steps on central-difference derivatives, from L-BFGS-B's optimum: the
    estimates to about 1e-10 instead of the quasi-Newton's 1e-7; a step that does not lower
    the function is not taken."""
    f = _minus_two_log_likelihood
    eye = np.eye(len(theta)) * h
    for _ in range(steps):
        f0 = f(theta, st)
        grad = np.array([(f(theta + d, st) - f(theta - d, st)) / (2 * h) for d in eye])
        hess = np.array(
            [
                [
                    (
                        f(theta + d + g, st)
                        - f(theta + d - g, st)
                        - f(theta - d + g, st)
                        + f(theta - d - g, st)
                    )
                    / (4 * h * h)
                    for g in eye
                ]
                for d in eye
            ]
        )
        try:
            step = np.linalg.solve(hess, grad)
        except np.linalg.LinAlgError:
            break
        if not np.all(np.isfinite(step)):
            break
        trial = np.clip(theta - step, -25.0, 5.0)
        if not f(trial, st) <= f0:
            break
        theta = trial
        if np.abs(step).max() < 1e-12:
            break
    return theta
