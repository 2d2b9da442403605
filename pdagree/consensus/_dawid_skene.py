"""Dawid & Skene's (1979) model and its one-coin form, for the EM loop of :mod:`._em`.

The model (Dawid & Skene 1979, section 2): item ``i`` has a true category ``k`` with prior
``p_k``; annotator ``j`` gives label ``l`` to an item of category ``k`` with probability
``pi^(j)_kl``, independently of the other annotations. Given the parameters, the posterior
of item ``i``'s category is ``T_ik`` proportional to ``p_k prod_a pi^(j_a)_{k l_a}`` over its
annotations ``a`` (their eq. 2.5); given the posteriors, the maximum-likelihood parameters are
``p_k = mean_i T_ik`` and ``pi^(j)_kl = sum_a T_ik [l_a = l] / sum_a T_ik`` over annotator
``j``'s annotations (eqs. 2.3 and 2.4). The one-coin model constrains each annotator to one
accuracy ``a_j = pi^(j)_kk``, its errors spread evenly over the other categories.

Initialisation: the parameters are the M-step's from the vote shares (majority vote), as
Dawid & Skene start from the observed proportions. A category nobody is believed to have
for an annotator's items keeps a uniform row. No smoothing: probabilities are floored at
:data:`~._em.FLOOR` before their logarithm is taken.

Stopping (the loop of :mod:`._em`, for every model): when no posterior and no parameter moved
by ``tol`` in the last iteration and the change still to come, estimated from the last two
changes, is below ``tol`` too (:mod:`._convergence`); not on the log-likelihood's gain.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._typing import FloatArray
from ._em import FLOOR, Params, start_posterior
from ._votes import Votes

__all__ = ["DawidSkene", "priors"]


def priors(v: Votes, posterior: FloatArray) -> FloatArray:
    """``p_gk``: the mean posterior over the group's items that have votes or a known label."""
    if v.n_groups == 1:  # a dense product: no sparse matrix to build
        total = (v.counted.astype(np.float64) @ posterior)[None, :]
    else:
        total = np.asarray(v.group_sums @ posterior)
    n = total.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        out: FloatArray = total / n
    return out


def log_priors(v: Votes, p: FloatArray) -> FloatArray:
    """``log p_gk``, minus infinity for a category the group's items may not take."""
    with np.errstate(divide="ignore"):
        out: FloatArray = np.where(v.allowed, np.log(np.maximum(p, FLOOR)), -np.inf)
    return out


@dataclass(frozen=True)
class DawidSkene:
    """Dawid & Skene's model (``one_coin``: one accuracy per annotator)."""

    one_coin: bool = False
    owner = {"priors": "group", "confusion": "key"}  # noqa: RUF012 - read-only map

    def start(self, v: Votes) -> Params:
        return self.m_step(v, start_posterior(v), {})

    def log_label(self, v: Votes, params: Params) -> tuple[FloatArray, FloatArray, bool]:
        log_conf = np.log(np.maximum(params["confusion"], FLOOR))  # (keys, true, given)
        table = log_conf.transpose(0, 2, 1).reshape(-1, v.n_categories)
        return log_priors(v, params["priors"]), table, True

    def m_step(self, v: Votes, posterior: FloatArray, params: Params) -> Params:
        """The priors (eq. 2.4) and confusion matrices (eq. 2.3, or the one-coin accuracy)
        from the posteriors, (keys, K, K); rows of categories an annotator is never believed
        to see are uniform over the group's categories."""
        k = v.n_categories
        allowed, n_allowed = v.key_allowed, v.n_allowed[v.key_group]
        sums = v.sums(posterior)  # (keys, given, true)
        if self.one_coin:
            hits = np.trace(sums, axis1=1, axis2=2)
            n = v.per_label.sum(axis=1)
            with np.errstate(invalid="ignore", divide="ignore"):
                accuracy = np.where(n > 0, hits / n, 1.0 / n_allowed)
                miss = np.where(n_allowed > 1, (1.0 - accuracy) / (n_allowed - 1.0), 0.0)
            fallowed = allowed.astype(np.float64)
            conf: FloatArray = fallowed[:, None, :] * miss[:, None, None] * fallowed[:, :, None]
            conf[:, np.arange(k), np.arange(k)] = np.where(allowed, accuracy[:, None], 0.0)
        else:
            mass = sums.transpose(0, 2, 1)  # (keys, true, given): eq. 2.3's numerators
            rows = mass.sum(axis=2, keepdims=True)
            uniform = allowed / n_allowed[:, None]
            with np.errstate(invalid="ignore", divide="ignore"):
                conf = np.where(rows > 0, mass / rows, uniform[:, None, :])
        return {"priors": priors(v, posterior), "confusion": conf}
