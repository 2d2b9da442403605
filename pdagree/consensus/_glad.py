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
the gradient, this M-step takes ``SWEEPS`` (two) pairs of Newton steps, on all abilities given
the difficulties, then on all difficulties given the abilities: each is a set of
one-dimensional problems, solved for every annotator (item) at once, each step halved until
its own part of ``Q`` does not fall. That is a generalised EM: ``Q`` never decreases, and its
fixed points are those of full maximisation (where both slopes are zero). For an ability
the curvature is ``Q``'s own (``Q`` is concave in ``alpha_j``); for a log-difficulty, where
``Q`` need not be concave, it is ``Q``'s own where that is at least a quarter of its first
term, ``sum_a sigma(x_a)(1 - sigma(x_a)) x_a^2``, else that quarter (plus the prior's 1), so
that each step goes uphill. Two pairs per M-step cost less than one or three overall
(measured on 10^5 small ``by=`` groups: the EM steps saved cost more than the Newton steps).
``Q`` is evaluated only for the coordinates whose full step a bound on the curvature along
it cannot show to be uphill (after the first few EM steps, hardly any); each point's
``x_a`` and its factors are kept, the passes over the annotations write into work arrays
kept per set of votes, and the sums over each annotator's (item's) annotations are sparse
products (:mod:`._glad_newton`). The E-step gives the EM loop each
item's sums of ``log P(label | k)``, from one value per annotation (the label's category
differs from the others by ``x_a + log(K - 1)``). The loop runs it in SQUAREM cycles
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

from .._typing import FloatArray, as_float
from ._em import Params
from ._glad_newton import PRIOR_MEAN, item_log_labels, maximise
from ._votes import Votes

__all__ = ["Glad"]

SWEEPS = 2
"""Pairs of alternating Newton steps (abilities, then difficulties) per M-step."""


@dataclass(frozen=True)
class Glad:
    """GLAD's abilities (per key) and log inverse difficulties (per item)."""

    owner = {"alpha": "key", "b": "item"}  # noqa: RUF012 - read-only map

    def start(self, v: Votes) -> Params:
        return {"alpha": np.full(v.n_keys, PRIOR_MEAN), "b": np.full(v.n_items, PRIOR_MEAN)}

    def log_label(self, v: Votes, params: Params) -> tuple[FloatArray, FloatArray, bool | str]:
        """The uniform prior and, per item, its annotations' ``log P(label | k)`` summed."""
        return v.log_uniform, item_log_labels(v, params["alpha"], params["b"]), "item"

    def m_step(self, v: Votes, posterior: FloatArray, params: Params) -> Params:
        alpha, b = maximise(v, posterior, params["alpha"], params["b"], SWEEPS)
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
