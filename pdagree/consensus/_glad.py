"""GLAD: Whitehill et al.'s (2009) model of annotator ability and item difficulty.

The model (Whitehill, Ruvolo, Wu, Bergsma & Movellan 2009, section 3): annotator ``j`` has
ability ``alpha_j`` (any real: negative for an adversary, 0 for a guesser) and item ``i`` has
inverse difficulty ``beta_i > 0``; annotator ``j`` labels item ``i`` correctly with
probability ``sigma(alpha_j beta_i) = 1 / (1 + exp(-alpha_j beta_i))`` (their eq. 1), and
otherwise gives one of the ``K - 1`` other categories uniformly (the multi-class form of
their section 3). The true categories have a fixed prior, uniform over the group's
categories as the paper takes ``p(Z)`` to be known.

EM (their section 3.1): the E-step is the posterior ``T_ik`` proportional to
``p_k prod_a P(l_a | k)``; the M-step maximises the expected complete-data log-likelihood

    Q = sum_a [q_a log sigma(x_a) + (1 - q_a)(log(1 - sigma(x_a)) - log(K - 1))]
        + log N(alpha; 1, 1) + log N(log beta; 1, 1),

where ``x_a = alpha_j beta_i`` and ``q_a = T_{i l_a}`` is the posterior probability that
annotation ``a`` is right, with ``beta = exp(b)`` to keep it positive. The Gaussian priors
(mean 1, variance 1 on ``alpha`` and on ``b``) are the paper's; its gradients are
``dQ/dalpha_j = sum_a (q_a - sigma(x_a)) beta_i - (alpha_j - 1)`` and
``dQ/db_i = sum_a (q_a - sigma(x_a)) alpha_j beta_i - (b_i - 1)``. Where the paper climbs
the gradient, this M-step takes ``SWEEPS`` alternating Newton steps, on all abilities given
the difficulties, then on all difficulties given the abilities: each is a set of
one-dimensional problems, solved for every annotator (item) at once, each step halved until
its own part of ``Q`` does not fall. That is a generalised EM: ``Q`` never decreases.

Initialisation: ``alpha = 1`` and ``b = 1`` (the priors' means), so that the first E-step
weighs every annotator alike (a majority vote with soft ties).

Stopping (the loop of :mod:`._em`, for every model): when no posterior and no ``alpha_j``
or ``b_i`` moved by ``tol`` in the last iteration and the change still to come, estimated
from the last two changes, is below ``tol`` too (:mod:`._convergence`); not on the gain of
the objective.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._lazy import scipy_special as special
from .._typing import FloatArray, as_float
from ._em import Params
from ._votes import Votes

__all__ = ["Glad"]

SWEEPS = 3
"""Alternating Newton steps (abilities, then difficulties) per M-step."""
HALVINGS = 30
PRIOR_MEAN = 1.0


def _n_allowed(v: Votes) -> FloatArray:
    """Per annotation, the number of categories its group may use."""
    out: FloatArray = v.n_allowed[v.group[v.item]]
    return out


def _log_label(v: Votes, alpha: FloatArray, b: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Per annotation: ``log P(label right)`` and ``log P(one given wrong label)`` (eq. 1, the
    errors uniform over the group's other categories)."""
    x = alpha[v.key] * np.exp(b[v.item])
    k1 = np.maximum(_n_allowed(v) - 1.0, 1.0)
    return special.log_expit(x), special.log_expit(-x) - np.log(k1)


class Block:
    """The abilities given the difficulties (``by_key``), or the log-difficulties given the
    abilities: ``Q``'s part that belongs to each coordinate, and its slope and curvature."""

    def __init__(self, v: Votes, q: FloatArray, other: FloatArray, by_key: bool) -> None:
        self.v, self.q, self.other, self.by_key = v, q, other, by_key
        self.owner, self.size = (v.key, v.n_keys) if by_key else (v.item, v.n_items)

    def _split(self, value: FloatArray) -> tuple[FloatArray, FloatArray]:
        return (value, self.other) if self.by_key else (self.other, value)

    def part(self, value: FloatArray) -> FloatArray:
        right, wrong = _log_label(self.v, *self._split(value))
        term = self.q * right + (1.0 - self.q) * wrong
        out = as_float(np.bincount(self.owner, weights=term, minlength=self.size))
        return out - 0.5 * (value - PRIOR_MEAN) ** 2

    def slope(self, value: FloatArray) -> tuple[FloatArray, FloatArray]:
        """The gradient and the (negated, positive) curvature."""
        v, owner, size = self.v, self.owner, self.size
        alpha, b = self._split(value)
        x = alpha[v.key] * np.exp(b[v.item])
        p = special.expit(x)
        residual = self.q - p
        # d x / d value: beta for an ability, x for a log-difficulty.
        dx = np.exp(b[v.item]) if self.by_key else x
        g = as_float(np.bincount(owner, weights=residual * dx, minlength=size))
        h = as_float(np.bincount(owner, weights=p * (1.0 - p) * dx * dx, minlength=size))
        if not self.by_key:  # the second-derivative term of x in b; keep the step an ascent
            h = h + np.abs(np.bincount(owner, weights=residual * x, minlength=size))
        return g - (value - PRIOR_MEAN), h + 1.0


def _newton(block: Block, value: FloatArray) -> FloatArray:
    """One safeguarded Newton step on each coordinate of ``value``: halve each coordinate's
    step until its own part of ``Q`` does not fall."""
    gradient, curvature = block.slope(value)
    step = gradient / curvature
    before = block.part(value)
    out = value.copy()
    pending = np.ones(len(value), dtype=bool)
    for _ in range(HALVINGS):
        trial = np.where(pending, value + step, out)
        better = block.part(trial) >= before - 1e-12 * np.abs(before)
        accept = pending & better
        out = np.where(accept, trial, out)
        pending &= ~better
        if not pending.any():
            break
        step = step / 2.0
    return out


@dataclass(frozen=True)
class Glad:
    """GLAD's abilities (per key) and log inverse difficulties (per item)."""

    owner = {"alpha": "key", "b": "item"}  # noqa: RUF012 - read-only map

    def start(self, v: Votes) -> Params:
        return {"alpha": np.full(v.n_keys, PRIOR_MEAN), "b": np.full(v.n_items, PRIOR_MEAN)}

    def log_label(self, v: Votes, params: Params) -> tuple[FloatArray, FloatArray, bool]:
        right, wrong = _log_label(v, params["alpha"], params["b"])
        contribution = np.where(
            np.arange(v.n_categories) == v.code[:, None], right[:, None], wrong[:, None]
        )
        return v.log_uniform, contribution, False

    def m_step(self, v: Votes, posterior: FloatArray, params: Params) -> Params:
        q = posterior[v.item, v.code]
        alpha, b = params["alpha"], params["b"]
        for _ in range(SWEEPS):
            alpha = _newton(Block(v, q, b, by_key=True), alpha)
            b = _newton(Block(v, q, alpha, by_key=False), b)
        return {"alpha": alpha, "b": b}
