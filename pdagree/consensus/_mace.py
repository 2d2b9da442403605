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
maximum a posteriori estimate under Beta and Dirichlet priors of ``1 + SMOOTHING / K``.
Each EM step moves every parameter by a share of the distance left, about 2 % on the Duck
Identification data (about 400 steps against Dawid-Skene's 20 to ``tol=1e-7``), so the loop
accelerates it with SQUAREM cycles (:mod:`._squarem`; 1,250 EM steps to ``tol=1e-13`` on
the Duck data, 88 in cycles, to the same fixed point), their step lengths bounded as in
Varadhan's SQUAREM package (:attr:`Mace.step_limit`: on many small ``by=`` groups the
unbounded steps alternate between about -2 and -200 and take more cycles) and taken per
annotator (:attr:`Mace.key_steps`: each annotator's the longer of its own and its
group's, so that one annotator's slowly drifting trust does not wait for the others'
faster strategies; 32 EM steps to the default ``tol`` on the Duck data instead of 61,
19.2 instead of 23.6 per group on groups of three raters of their own). The
extrapolation runs on ``logit theta`` and ``log xi`` (:meth:`Mace.free`), each strategy
renormalised after it, so that the extrapolated point is in the parameter space; its
penalty is the log-density of the priors above. ``P(l | k)`` takes one value for ``k = l``
and one for every other ``k``, so the E-step sums one value per annotation
(:meth:`Mace.log_diagonal`, :func:`._em.diagonal_posterior`).

Initialisation: where the authors draw random starts and keep the best, the parameters
here are the M-step's from the vote shares (as for Dawid-Skene): one deterministic start
that already prefers the majority.

Stopping (the loop of :mod:`._em`, for every model): when no posterior and no parameter moved
by ``tol`` in the last EM step and the change still to come, estimated from the last two
changes, is below ``tol`` too (:mod:`._convergence`); not on the log-likelihood's gain.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._kernels.rows import row_max, row_sum
from .._lazy import scipy_special as special
from .._typing import FloatArray, as_float
from ._em import FLOOR, Params, start_posterior
from ._votes import Votes

__all__ = ["Mace"]

SMOOTHING = 0.01


def _smoothing(v: Votes) -> FloatArray:
    """Per key, ``SMOOTHING`` over the number of its group's categories."""
    out: FloatArray = SMOOTHING / v.n_allowed[v.key_group]
    return out


def _log_strategy(v: Votes, xi: FloatArray) -> FloatArray:
    """``log xi``, 0 where a category is not the key's group's (the log of 1 there: numpy's
    ``log`` takes a slow path for 0)."""
    out: FloatArray = np.where(v.key_allowed, xi, 1.0) if v.restricted else xi.copy()
    with np.errstate(divide="ignore"):
        np.log(out, out=out)
    return out


@dataclass(frozen=True)
class Mace:
    """MACE's trust ``theta`` (per key) and spam strategies ``xi`` (keys, K)."""

    owner = {"theta": "key", "xi": "key"}  # noqa: RUF012 - read-only map
    step_limit = 1.0  # SQUAREM's first largest step (:func:`._squarem.first_limit`)
    key_steps = True  # one step length per annotator (:func:`._squarem.key_steps`)

    def start(self, v: Votes) -> Params:
        xi = v.uniform[v.key_group]
        neutral = {"theta": np.full(v.n_keys, 0.5), "xi": xi}
        return self.m_step(v, start_posterior(v), neutral)

    def log_label(self, v: Votes, params: Params) -> tuple[FloatArray, FloatArray, bool]:
        k = v.n_categories
        theta, xi = params["theta"], params["xi"]
        # P(label l | true k) = (1 - theta) xi_l, plus theta where l = k: 2 K logarithms per
        # annotator, not K^2.
        spam = (1.0 - theta)[:, None] * xi  # (keys, label)
        table = np.empty((v.n_keys, k, k))  # (keys, label, true)
        table[...] = np.log(np.maximum(spam, FLOOR))[:, :, None]
        right = np.log(np.maximum(spam + theta[:, None], FLOOR))
        for c in range(k):
            table[:, c, c] = right[:, c]
        return v.log_uniform, table.reshape(-1, k), True

    def log_diagonal(self, v: Votes, params: Params) -> tuple[FloatArray, FloatArray, FloatArray]:
        """:meth:`log_label`'s two values per (key, label): ``log((1 - theta) xi_l)``, for
        any true category but ``l``, and ``log(theta + (1 - theta) xi_l)``, for ``l``."""
        shape = params["xi"].shape
        theta = np.repeat(params["theta"], shape[1])  # flat (keys * K): no broadcasting
        # in place where the numbers allow: each new array of this size costs page faults
        spam = np.subtract(1.0, theta)
        spam *= params["xi"].ravel()
        log_off = np.maximum(spam, FLOOR)
        np.log(log_off, out=log_off)
        spam += theta
        log_on = np.log(np.maximum(spam, FLOOR, out=spam), out=spam)
        return v.item_log_uniform, log_off.reshape(shape), log_on.reshape(shape)

    def m_step(self, v: Votes, posterior: FloatArray, params: Params) -> Params:
        # Per (key, label): the posterior mass on the label being the true category, and the
        # share of it that is knowing rather than a spam draw that happened to be right.
        # Flat (keys * K) arrays: numpy broadcasts slowly along a short trailing axis.
        k = v.n_categories
        on_label = posterior.ravel()[v.item_label]  # T_{i l_a}
        right = as_float(np.bincount(v.key_label, weights=on_label, minlength=v.n_keys * k))
        theta = np.repeat(params["theta"], k)
        share = np.subtract(1.0, theta)  # in place from here: fewer new arrays
        share *= params["xi"].ravel()
        share += theta  # P(l) given the label is right: theta + (1 - theta) xi_l
        # theta / share is 0 where share is (theta is then 0 too)
        np.divide(theta, np.maximum(share, FLOOR, out=share), out=share)
        right *= share
        knowing = right.reshape(v.n_keys, k)
        s = _smoothing(v)
        theta = (row_sum(knowing) + s) / (v.n_labels + 2 * s)
        # the smoothing on the group's categories only: SMOOTHING / K_g there, 0 elsewhere
        spammed = SMOOTHING * v.key_uniform
        spammed += v.per_label
        spammed -= knowing  # 0 off the group's categories: nobody gave those labels
        total = row_sum(spammed)
        flat = spammed.ravel()
        flat /= np.repeat(total, k)
        return {"theta": theta, "xi": spammed}

    def free(self, v: Votes, params: Params) -> Params:
        """``logit theta`` and ``log xi`` (0 where a category is not the group's)."""
        theta = params["theta"]
        return {"theta": np.log(theta) - np.log1p(-theta), "xi": _log_strategy(v, params["xi"])}

    def bound(self, v: Votes, free: Params) -> Params:
        """``theta`` and ``xi`` from :meth:`free`'s scale, each strategy renormalised."""
        log_xi = free["xi"]
        k = log_xi.shape[1]
        top = row_max(np.where(v.key_allowed, log_xi, -np.inf))  # over the group's categories
        flat = log_xi.ravel() - np.repeat(top, k)
        # exp of very negative values takes numpy's slow path: from -700 (1e-304) up
        np.exp(np.maximum(flat, -700.0, out=flat), out=flat)
        xi = flat.reshape(log_xi.shape)
        if v.restricted:  # 0 off the group's categories
            np.multiply(xi, v.key_allowed, out=xi)
        flat /= np.repeat(row_sum(xi), k)
        return {"theta": special.expit(free["theta"]), "xi": xi}

    def penalty(self, v: Votes, params: Params) -> FloatArray:
        """Per group, the log-densities (up to constants) of the Beta and Dirichlet priors
        the M-step's smoothing stands for: ``s (log theta + log(1 - theta) + sum_l log
        xi_l)`` per annotator."""
        theta, xi = params["theta"], params["xi"]
        with np.errstate(divide="ignore", invalid="ignore"):
            log_xi = row_sum(_log_strategy(v, xi))
            per_key = _smoothing(v) * (np.log(theta) + np.log1p(-theta) + log_xi)
        out = as_float(np.bincount(v.key_group, weights=per_key, minlength=v.n_groups))
        return out
