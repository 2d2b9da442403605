"""REML of small groups whose residual variance is estimated at zero, from the dense
covariance of their ratings.

The batched objective of :mod:`._reml` works through ``W = s_e I + s_a Z_a Z_a'``, whose
inverse carries ``1 / s_e``. Where a group's residual variance is estimated at zero (held at
the lower bound), terms of the order of ``1 / s_e`` cancel and the objective keeps only
about five of its digits, so the item and rater variances stop wherever rounding lets them:
ICC(A,1) of a group of four ratings moved by 1.7e-3 (relative) with the order or the scale
of its rows. For such groups with at most :data:`MAX_RATINGS` ratings the item and rater
variances are fitted again on ``V = s_a Z_a Z_a' + s_b Z_b Z_b'`` itself (``s_e = 0``),
decomposed densely (no ``1 / s_e``), every group at once, padded to the largest.
"""

from __future__ import annotations

import numpy as np

from .._typing import BoolArray, FloatArray, IntArray
from ._newton import gradient, hessian, newton_step

__all__ = ["MAX_RATINGS", "refit_without_residual"]

#: The most ratings of a group refitted densely (its covariance is MAX_RATINGS squared).
MAX_RATINGS = 64


def _design(
    z: FloatArray, item: IntArray, rater: IntArray, group: IntArray, n_groups: int
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Per group, padded to its most ratings ``P``: the values (G, P), the item and rater
    incidence products ``Z_a Z_a'`` and ``Z_b Z_b'`` (G, P, P) and which rows are ratings."""
    order = np.argsort(group, kind="stable")
    g, z, item, rater = group[order], z[order], item[order], rater[order]
    size = np.bincount(g, minlength=n_groups)
    first = np.cumsum(size) - size
    slot = np.arange(len(g)) - first[g]
    p = max(int(size.max()), 1)
    y = np.zeros((n_groups, p))
    real = np.zeros((n_groups, p))
    item_of = np.full((n_groups, p), -1, dtype=np.int64)
    rater_of = np.full((n_groups, p), -2, dtype=np.int64)
    y[g, slot], real[g, slot] = z, 1.0
    item_of[g, slot], rater_of[g, slot] = item, rater
    same_item = (item_of[:, :, None] == item_of[:, None, :]) & (item_of[:, :, None] >= 0)
    same_rater = (rater_of[:, :, None] == rater_of[:, None, :]) & (rater_of[:, :, None] >= 0)
    return y, same_item.astype(np.float64), same_rater.astype(np.float64), real


def _objective(
    theta: FloatArray, y: FloatArray, a: FloatArray, b: FloatArray, real: FloatArray
) -> FloatArray:
    """``-2 l_R`` (up to a constant) with ``s_e = 0``, ``theta`` (G, 2) the log item and
    rater variances; ``inf`` where ``V`` is singular. Padding rows are identity rows with no
    value, so they add nothing."""
    s_a, s_b = np.exp(theta[:, 0]), np.exp(theta[:, 1])
    v = s_a[:, None, None] * a + s_b[:, None, None] * b
    v += (1.0 - real)[:, :, None] * np.eye(real.shape[1])
    w, u = np.linalg.eigh(v)
    ok = w[:, 0] > 1e-12 * np.abs(w).max(axis=1)
    w = np.where(ok[:, None], w, 1.0)

    def quad(x: FloatArray, x2: FloatArray) -> FloatArray:
        return np.einsum(
            "gp,gp->g", np.einsum("gqp,gq->gp", u, x) / w, np.einsum("gqp,gq->gp", u, x2)
        )

    one_one, one_y, y_y = quad(real, real), quad(real, y), quad(y, y)
    value = np.log(w).sum(axis=1) + np.log(one_one) + y_y - one_y * one_y / one_one
    return np.where(ok & (one_one > 0), value, np.inf)


def refit_without_residual(
    z: FloatArray,
    item: IntArray,
    rater: IntArray,
    group: IntArray,
    start: FloatArray,
) -> tuple[FloatArray, BoolArray]:
    """The log item and rater variances (G, 2) of groups whose residual variance is zero,
    fitted on their dense covariance by damped Newton steps from ``start`` (G, 2); and per
    group whether the fit improved on ``start`` (else ``start`` is kept).

    ``z``, ``item``, ``rater``, ``group`` per rating, the groups numbered 0..G-1 (items and
    raters within them may be numbered across groups)."""
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):  # inf: singular V
        return _newton(start, *_design(z, item, rater, group, len(start)))


def _newton(
    start: FloatArray, y: FloatArray, a: FloatArray, b: FloatArray, real: FloatArray
) -> tuple[FloatArray, BoolArray]:
    """:func:`refit_without_residual`'s damped Newton steps (:mod:`._newton`), every group
    at once."""

    def objective(x: FloatArray) -> FloatArray:
        return _objective(x, y, a, b, real)

    theta = start.copy()
    value = objective(theta)
    begin = value.copy()
    damping = np.full(len(start), 1e-3)
    for _ in range(100):
        grad = gradient(objective, theta, 1e-4)
        step, usable = newton_step(grad, hessian(objective, theta, 1e-4, value), damping)
        trial = theta - step
        new = objective(trial)
        better = usable & (new <= value)
        theta = np.where(better[:, None], trial, theta)
        value = np.where(better, new, value)
        damping = np.where(better, damping / 4.0, damping * 8.0)
        if ((np.abs(step).max(axis=1) < 1e-10) | ~usable | (damping > 1e12)).all():
            break
    improved = np.isfinite(value) & (value <= begin)
    return np.where(improved[:, None], theta, start), improved
