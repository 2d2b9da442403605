"""Dawid & Skene's (1979) EM and its one-coin form, over every ``by=`` group at once.

The model (Dawid & Skene 1979, section 2): item ``i`` has a true category ``k`` with prior
``p_k``; annotator ``j`` gives label ``l`` to an item of category ``k`` with probability
``pi^(j)_kl``, independently of the other annotations. Given the parameters, the posterior
of item ``i``'s category is ``T_ik`` proportional to ``p_k prod_a pi^(j_a)_{k l_a}`` over its
annotations ``a`` (their eq. 2.5); given the posteriors, the maximum-likelihood parameters are
``p_k = mean_i T_ik`` and ``pi^(j)_kl = sum_a T_ik [l_a = l] / sum_a T_ik`` over annotator
``j``'s annotations (eqs. 2.3 and 2.4). The one-coin model constrains each annotator to one
accuracy ``a_j = pi^(j)_kk``, its errors spread evenly over the other categories.

Initialisation: the posteriors are the vote shares (majority vote), as Dawid & Skene start
from the observed proportions. A category nobody is believed to have for an annotator's items
keeps a uniform row. Probabilities are floored at ``FLOOR`` before their logarithm is taken,
so that one unseen (annotator, category, label) does not rule a category out for good.
Iterations stop when the log-likelihood gains less than ``tol`` per annotation; each group
stops on its own, so a group's fit equals its fit alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._typing import BoolArray, FloatArray
from ._majority import shares
from ._votes import Votes

__all__ = ["FLOOR", "Fit", "em"]

FLOOR = 1e-10


@dataclass(frozen=True, eq=False)
class Fit:
    """What the EM leaves: posteriors (n_items, K), priors (G, K), confusion matrices
    (keys, K, K) (true category by given label), the log-likelihood, iterations and whether
    it converged, per group."""

    posterior: FloatArray
    priors: FloatArray
    confusion: FloatArray
    log_likelihood: FloatArray
    n_iterations: np.ndarray
    converged: BoolArray


def _priors(v: Votes, posterior: FloatArray, counted: BoolArray) -> FloatArray:
    """``p_gk``: the mean posterior over the group's items that have votes or a known label."""
    k = v.n_categories
    weights = np.where(counted[:, None], posterior, 0.0)
    key = (v.group[:, None] * k + np.arange(k)).ravel()
    total = np.bincount(key, weights=weights.ravel(), minlength=v.n_groups * k)
    n = np.bincount(v.group, weights=counted.astype(np.float64), minlength=v.n_groups)
    with np.errstate(invalid="ignore", divide="ignore"):
        return total.reshape(v.n_groups, k) / n[:, None]


def _confusion(v: Votes, posterior: FloatArray, one_coin: bool) -> FloatArray:
    """The annotators' confusion matrices from the posteriors (eq. 2.3, or the one-coin
    accuracy), (keys, K, K); rows of categories an annotator is never believed to see are
    uniform over the group's categories."""
    k = v.n_categories
    allowed = v.allowed[v.key_group]  # (keys, K)
    n_allowed = allowed.sum(axis=1).astype(np.float64)
    uniform = allowed / n_allowed[:, None]
    if one_coin:
        hits = np.bincount(v.key, weights=posterior[v.item, v.code], minlength=v.n_keys)
        n = np.bincount(v.key, minlength=v.n_keys).astype(np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            accuracy = np.where(n > 0, hits / n, 1.0 / n_allowed)
            miss = np.where(n_allowed > 1, (1.0 - accuracy) / (n_allowed - 1.0), 0.0)
        fallowed = allowed.astype(np.float64)
        conf: FloatArray = fallowed[:, None, :] * miss[:, None, None] * fallowed[:, :, None]
        conf[:, np.arange(k), np.arange(k)] = np.where(allowed, accuracy[:, None], 0.0)
        return conf
    key = ((v.key[:, None] * k + np.arange(k)) * k + v.code[:, None]).ravel()
    mass = np.bincount(key, weights=posterior[v.item].ravel(), minlength=v.n_keys * k * k)
    mass = mass.reshape(v.n_keys, k, k)
    rows = mass.sum(axis=2, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        conf = np.where(rows > 0, mass / rows, uniform[:, None, :])
    return conf


def _posterior(
    v: Votes, priors: FloatArray, confusion: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """The posteriors given the parameters (eq. 2.5) and each group's log-likelihood."""
    k = v.n_categories
    with np.errstate(divide="ignore"):
        log_prior = np.where(v.allowed, np.log(np.maximum(priors, FLOOR)), -np.inf)
    log_conf = np.log(np.maximum(confusion, FLOOR))
    contribution = log_conf[v.key, :, v.code]  # (annotations, K): log pi_{k, l_a}
    key = (v.item[:, None] * k + np.arange(k)).ravel()
    summed = np.bincount(key, weights=contribution.ravel(), minlength=v.n_items * k)
    joint = log_prior[v.group] + summed.reshape(v.n_items, k)
    top = joint.max(axis=1, keepdims=True)
    log_total = top[:, 0] + np.log(np.exp(joint - top).sum(axis=1))
    posterior = np.exp(joint - log_total[:, None])
    known = v.gold >= 0
    if known.any():  # semi-supervised: the known label is certain
        rows = np.flatnonzero(known)
        log_total[rows] = joint[rows, v.gold[rows]]
        posterior[rows] = 0.0
        posterior[rows, v.gold[rows]] = 1.0
    total = np.bincount(v.group, weights=log_total, minlength=v.n_groups).astype(np.float64)
    return posterior, total


def em(v: Votes, *, one_coin: bool, max_iterations: int, tol: float) -> Fit:
    """Fit Dawid & Skene's model (``one_coin``: the one-coin model) by EM from the vote
    shares, every group on its own."""
    counted = (v.counts().sum(axis=1) > 0) | (v.gold >= 0)
    start = shares(v)
    posterior = np.where(counted[:, None], np.nan_to_num(start), 0.0)
    priors = _priors(v, posterior, counted)
    confusion = _confusion(v, posterior, one_coin)
    per_group = np.bincount(v.group[v.item], minlength=v.n_groups).astype(np.float64)
    previous = np.full(v.n_groups, -np.inf)
    log_likelihood = previous.copy()
    active = np.ones(v.n_groups, dtype=bool)
    converged = np.zeros(v.n_groups, dtype=bool)
    n_iterations = np.zeros(v.n_groups, dtype=np.int64)
    for _ in range(max_iterations):
        new_posterior, new_ll = _posterior(v, priors, confusion)
        item_active = active[v.group]
        posterior = np.where(item_active[:, None], new_posterior, posterior)
        log_likelihood = np.where(active, new_ll, log_likelihood)
        new_priors = _priors(v, posterior, counted)
        new_confusion = _confusion(v, posterior, one_coin)
        priors = np.where(active[:, None], new_priors, priors)
        confusion = np.where(active[v.key_group][:, None, None], new_confusion, confusion)
        n_iterations += active
        with np.errstate(invalid="ignore"):
            done = active & ((log_likelihood - previous) < tol * np.maximum(per_group, 1.0))
        converged |= done
        active &= ~done
        previous = log_likelihood
        if not active.any():
            break
    # The posteriors and log-likelihood of the parameters returned (one more E-step).
    posterior, log_likelihood = _posterior(v, priors, confusion)
    return Fit(posterior, priors, confusion, log_likelihood, n_iterations, converged)
