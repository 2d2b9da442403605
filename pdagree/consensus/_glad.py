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
its own part of ``Q`` does not fall. That is a generalised EM: ``Q`` never decreases. Each
point's ``x_a`` and ``Q`` terms are kept, so that a Newton step evaluates ``Q`` once per trial
(two ``log sigma`` per annotation) and the slope once. The loop runs it in SQUAREM cycles
(:mod:`._squarem`) on the abilities and log inverse difficulties as they are (any real
value is allowed), with the Gaussian priors as the penalty.

Initialisation: ``alpha = 1`` and ``b = 1`` (the priors' means), so that the first E-step
weighs every annotator alike (a majority vote with soft ties).

Stopping (the loop of :mod:`._em`, for every model): when no posterior and no ``alpha_j``
or ``b_i`` moved by ``tol`` in the last EM step and the change still to come, estimated
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


def _log_k1(v: Votes) -> FloatArray:
    """Per annotation, ``log(K - 1)`` (at least ``log 1``) for its group's categories."""
    out: FloatArray = np.log(np.maximum(_n_allowed(v) - 1.0, 1.0))
    return out


def _log_sigmoids(x: FloatArray) -> tuple[FloatArray, FloatArray]:
    """``log sigma(x)`` and ``log sigma(-x)`` from one exponential and one ``log1p``:
    ``-(max(-x, 0) + log(1 + exp(-|x|)))`` and ``-(max(x, 0) + log(1 + exp(-|x|)))``."""
    shared = np.log1p(np.exp(-np.abs(x)))
    return -(np.maximum(-x, 0.0) + shared), -(np.maximum(x, 0.0) + shared)


def _log_label(v: Votes, alpha: FloatArray, b: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Per annotation: ``log P(label right)`` and ``log P(one given wrong label)`` (eq. 1, the
    errors uniform over the group's other categories)."""
    right, wrong = _log_sigmoids(alpha[v.key] * np.exp(b[v.item]))
    return right, wrong - _log_k1(v)


@dataclass(frozen=True, eq=False)
class _Point:
    """Per annotation, at the current abilities and difficulties: ``x = alpha_j beta_i`` and
    the annotation's term of ``Q``."""

    x: FloatArray
    term: FloatArray


class Block:
    """The abilities given the difficulties (``by_key``), or the log-difficulties given the
    abilities: ``Q``'s part that belongs to each coordinate, and its slope and curvature.

    The per-annotation factor of the fixed block (``beta_i``, or ``alpha_j``) is gathered
    once; each point's ``x`` and ``Q`` terms are kept (:class:`_Point`) so that the slope at
    the point and ``Q``'s part before a step reuse them, as the next block does."""

    def __init__(
        self, v: Votes, q: FloatArray, log_k1: FloatArray, other: FloatArray, by_key: bool
    ) -> None:
        self.v, self.q, self.log_k1, self.by_key = v, q, log_k1, by_key
        self.owner, self.size = (v.key, v.n_keys) if by_key else (v.item, v.n_items)
        self.fixed = np.exp(other[v.item]) if by_key else other[v.key]

    def point(self, value: FloatArray) -> _Point:
        """``x`` and the ``Q`` terms at ``value``."""
        if self.by_key:
            x = value[self.v.key] * self.fixed
        else:
            x = self.fixed * np.exp(value[self.v.item])
        right, wrong = _log_sigmoids(x)
        return _Point(x, self.q * right + (1.0 - self.q) * (wrong - self.log_k1))

    def part(self, value: FloatArray, at: _Point) -> FloatArray:
        """``Q``'s part of each coordinate at ``value`` (``at``: its point)."""
        out = as_float(np.bincount(self.owner, weights=at.term, minlength=self.size))
        return out - 0.5 * (value - PRIOR_MEAN) ** 2

    def slope(self, value: FloatArray, at: _Point) -> tuple[FloatArray, FloatArray]:
        """The gradient and the (negated, positive) curvature at ``value``."""
        owner, size, x = self.owner, self.size, at.x
        p = special.expit(x)
        residual = self.q - p
        # d x / d value: beta for an ability, x for a log-difficulty.
        dx = self.fixed if self.by_key else x
        g = as_float(np.bincount(owner, weights=residual * dx, minlength=size))
        h = as_float(np.bincount(owner, weights=p * (1.0 - p) * dx * dx, minlength=size))
        if not self.by_key:  # the second-derivative term of x in b; keep the step an ascent
            h = h + np.abs(np.bincount(owner, weights=residual * x, minlength=size))
        return g - (value - PRIOR_MEAN), h + 1.0


def _newton(block: Block, value: FloatArray, at: _Point) -> tuple[FloatArray, _Point]:
    """One safeguarded Newton step on each coordinate of ``value``: halve each coordinate's
    step until its own part of ``Q`` does not fall. The new values and their point."""
    gradient, curvature = block.slope(value, at)
    step = gradient / curvature
    before = block.part(value, at)
    out, x, term = value.copy(), at.x, at.term
    pending = np.ones(len(value), dtype=bool)
    for _ in range(HALVINGS):
        trial = np.where(pending, value + step, out)
        tried = block.point(trial)
        better = block.part(trial, tried) >= before - 1e-12 * np.abs(before)
        accept = pending & better
        out = np.where(accept, trial, out)
        taken = accept[block.owner]
        x, term = np.where(taken, tried.x, x), np.where(taken, tried.term, term)
        pending &= ~better
        if not pending.any():
            break
        step = step / 2.0
    return out, _Point(x, term)


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
        log_k1 = _log_k1(v)
        alpha, b = params["alpha"], params["b"]
        at = Block(v, q, log_k1, b, by_key=True).point(alpha)
        for _ in range(SWEEPS):
            alpha, at = _newton(Block(v, q, log_k1, b, by_key=True), alpha, at)
            b, at = _newton(Block(v, q, log_k1, alpha, by_key=False), b, at)
        return {"alpha": alpha, "b": b}

    def free(self, v: Votes, params: Params) -> Params:
        """The abilities and log inverse difficulties: any real value is allowed."""
        return dict(params)

    def bound(self, v: Votes, free: Params) -> Params:
        return dict(free)

    def penalty(self, v: Votes, params: Params) -> FloatArray:
        """Per group, the log-densities (up to constants) of the Gaussian priors."""
        alpha, b = params["alpha"], params["b"]
        per_key = -0.5 * (alpha - PRIOR_MEAN) ** 2
        per_item = -0.5 * (b - PRIOR_MEAN) ** 2
        out = as_float(np.bincount(v.key_group, weights=per_key, minlength=v.n_groups))
        out += np.bincount(v.group, weights=per_item, minlength=v.n_groups)
        return out
