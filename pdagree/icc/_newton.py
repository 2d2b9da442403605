"""Damped Newton steps for many small problems at once: each group's gradient and Hessian
by central differences of a batched objective (one evaluation perturbs a coordinate of every
group), and its Levenberg-Marquardt step. The REML fits of :mod:`._reml` and :mod:`._dense`
take their steps here."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .._typing import BoolArray, FloatArray

__all__ = ["gradient", "hessian", "newton_step"]

Objective = Callable[[FloatArray], FloatArray]


def gradient(objective: Objective, theta: FloatArray, h: float) -> FloatArray:
    """Each group's gradient (G, n) of ``objective`` at ``theta`` (G, n), by central
    differences."""
    out = np.empty_like(theta)
    for i in range(theta.shape[1]):
        step = np.zeros(theta.shape[1])
        step[i] = h
        out[:, i] = (objective(theta + step) - objective(theta - step)) / (2 * h)
    return out


def hessian(
    objective: Objective, theta: FloatArray, h: float, f0: FloatArray | None = None
) -> FloatArray:
    """Each group's Hessian (G, n, n) by central differences (on the diagonal the two middle
    terms are the objective at ``theta``, ``f0`` when given)."""
    n = theta.shape[1]
    out = np.empty((len(theta), n, n))
    eye = np.eye(n) * h
    f0 = objective(theta) if f0 is None else f0
    for i in range(n):
        for j in range(i, n):
            d, g = eye[i], eye[j]
            middle = 2.0 * f0 if i == j else objective(theta + d - g) + objective(theta - d + g)
            out[:, i, j] = out[:, j, i] = (
                objective(theta + d + g) - middle + objective(theta - d - g)
            ) / (4 * h * h)
    return out


def newton_step(
    grad: FloatArray, hess: FloatArray, damping: FloatArray
) -> tuple[FloatArray, BoolArray]:
    """Per group the Levenberg-Marquardt step ``(H + damping diag|H|)^-1 g`` and whether the
    damped matrix is positive definite beyond rounding (no step otherwise)."""
    n = grad.shape[1]
    diag = np.maximum(np.abs(np.diagonal(hess, axis1=1, axis2=2)), 1e-12)
    damped = hess + damping[:, None, None] * (diag[:, :, None] * np.eye(n))
    ok = np.all(np.isfinite(damped), axis=(1, 2)) & np.all(np.isfinite(grad), axis=1)
    damped = np.where(ok[:, None, None], (damped + damped.transpose(0, 2, 1)) / 2, np.eye(n))
    w, v = np.linalg.eigh(damped)  # solved through the eigenvectors: never singular
    ok &= w[:, 0] > 1e-12 * np.abs(w).max(axis=1)
    inverse = np.where(ok[:, None], 1.0 / np.where(ok[:, None], w, 1.0), 0.0)
    coef = np.einsum("gji,gj->gi", v, np.where(ok[:, None], grad, 0.0)) * inverse
    return np.einsum("gij,gj->gi", v, coef), ok
