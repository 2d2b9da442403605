"""MACE: Hovy et al.'s (2013) model of annotators who sometimes spam.

The model (Hovy, Berg-Kirkpatrick, Vaswani & Hovy 2013, section 2): each item's true
category ``T_i`` is uniform over the categories; each annotation draws ``S_a ~
Bernoulli(1 - theta_j)``: with ``S_a = 0`` the annotator ``j`` copies the true category,
with ``S_a = 1`` it spams a label from its own strategy ``xi_j`` (a distribution over the
categories). So ``P(l | k) = theta_j [l = k] + (1 - theta_j) xi_jl``; ``1 - theta_j`` is the
annotator's spamming probability.

EM (their section 2.1): the E-step gives the posteriors ``T_ik`` and, for each annotation,
the expected knowing ``E[S_a = 0] = T_{i l_a} theta_j / (theta_j + (1 - theta_j) xi_{j l_a})``;
the M-step sets ``theta_j`` to the expected share of knowing annotations and ``xi_j`` to the
expected spam labels' shares, each after adding ``SMOOTHING / K`` to the expected counts (the
smoothing of the authors' EM, 0.01 over the number of categories). That is EM for the
maximum a posteriori estimate under Beta and Dirichlet priors of ``1 + SMOOTHING / K``,
whose log-density is added to the objective.

Initialisation: where the authors draw random starts and keep the best, the parameters
here are the M-step's from the vote shares (as for Dawid-Skene): one deterministic start
that already prefers the majority.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._typing import FloatArray, as_float
from ._em import FLOOR, Params, start_posterior
from ._votes import Votes

__all__ = ["Mace"]

SMOOTHING = 0.01


def _smoothing(v: Votes) -> FloatArray:
    """Per key, ``SMOOTHING`` over the number of its group's categories."""
    out: FloatArray = SMOOTHING / v.allowed.sum(axis=1)[v.key_group]
    return out


@dataclass(frozen=True)
class Mace:
    """MACE's trust ``theta`` (per key) and spam strategies ``xi`` (keys, K)."""

    owner = {"theta": "key", "xi": "key"}  # noqa: RUF012 - read-only map

    def start(self, v: Votes) -> Params:
        allowed = v.allowed[v.key_group].astype(np.float64)
        xi = allowed / allowed.sum(axis=1, keepdims=True)
        neutral = {"theta": np.full(v.n_keys, 0.5), "xi": xi}
        return self.m_step(v, start_posterior(v), neutral)

    def _given(self, v: Votes, params: Params) -> tuple[FloatArray, FloatArray]:
        """Per annotation: ``(1 - theta) xi_l`` (spam gives the label) and ``theta`` plus
        that (the label when it is the true category)."""
        theta = params["theta"][v.key]
        spam = (1.0 - theta) * params["xi"][v.key, v.code]
        return spam, theta + spam

    def log_label(self, v: Votes, params: Params) -> tuple[FloatArray, FloatArray]:
        spam, right = self._given(v, params)
        contribution = np.where(
            np.arange(v.n_categories) == v.code[:, None],
            np.log(np.maximum(right, FLOOR))[:, None],
            np.log(np.maximum(spam, FLOOR))[:, None],
        )
        with np.errstate(divide="ignore"):
            log_prior = np.where(v.allowed, -np.log(v.allowed.sum(axis=1, keepdims=True)), -np.inf)
        return log_prior, contribution

    def log_prior(self, v: Votes, params: Params) -> FloatArray:
        s = _smoothing(v)
        theta = np.clip(params["theta"], FLOOR, 1.0 - FLOOR)
        per_key = s * (np.log(theta) + np.log1p(-theta))
        allowed = v.allowed[v.key_group]
        per_key = per_key + s * np.where(
            allowed, np.log(np.maximum(params["xi"], FLOOR)), 0.0
        ).sum(axis=1)
        return as_float(np.bincount(v.key_group, weights=per_key, minlength=v.n_groups))

    def m_step(self, v: Votes, posterior: FloatArray, params: Params) -> Params:
        k = v.n_categories
        s = _smoothing(v)
        _, right = self._given(v, params)
        knowing = posterior[v.item, v.code] * np.where(
            right > 0, params["theta"][v.key] / np.maximum(right, FLOOR), 0.0
        )
        n = np.bincount(v.key, minlength=v.n_keys).astype(np.float64)
        theta = (np.bincount(v.key, weights=knowing, minlength=v.n_keys) + s) / (n + 2 * s)
        spammed = np.bincount(
            v.key * k + v.code, weights=1.0 - knowing, minlength=v.n_keys * k
        ).reshape(v.n_keys, k)
        allowed = v.allowed[v.key_group]
        spammed = np.where(allowed, spammed + s[:, None], 0.0)
        xi = spammed / spammed.sum(axis=1, keepdims=True)
        return {"theta": theta, "xi": xi}
