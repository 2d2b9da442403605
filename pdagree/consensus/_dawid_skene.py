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
        # (keys, given, true), laid out so that the log runs over contiguous memory
        given = params["confusion"].transpose(0, 2, 1).copy()
        np.maximum(given, FLOOR, out=given)
        np.log(given, out=given)
        return log_priors(v, params["priors"]), given.reshape(-1, v.n_categories), True

    def m_step(self, v: Votes, posterior: FloatArray, params: Params) -> Params:
        """The priors (eq. 2.4) and confusion matrices (eq. 2.3, or the one-coin accuracy)
        from the posteriors, (keys, K, K); rows of categories an annotator is never believed
        to see are uniform over the group's categories."""
        k = v.n_categories
        allowed, n_allowed = v.key_allowed, v.n_allowed[v.key_group]
        sums = v.sums(posterior)  # (keys, given, true)
        # Sums over the few categories run column by column: numpy's reductions along a
        # short axis, and its broadcasts over one, are slow.
        if self.one_coin:
            hits = sums[:, 0, 0].copy()
            for j in range(1, k):
                hits += sums[:, j, j]
            n = _column_sum(v.per_label)
            with np.errstate(invalid="ignore", divide="ignore"):
                accuracy = np.where(n > 0, hits / n, 1.0 / n_allowed)
                miss = np.where(n_allowed > 1, (1.0 - accuracy) / (n_allowed - 1.0), 0.0)
            conf: FloatArray = np.empty((len(sums), k, k))
            for true in range(k):  # accuracy on the diagonal, miss off it; 0 if not allowed
                for given in range(k):
                    right = accuracy if given == true else miss
                    both = allowed[:, true] & allowed[:, given]
                    conf[:, true, given] = np.where(both, right, 0.0)
        else:
            # (keys, true, given): eq. 2.3's numerators
            mass = np.ascontiguousarray(sums.transpose(0, 2, 1))
            rows = _column_sum(mass.transpose(0, 2, 1))  # (keys, true)
            with np.errstate(invalid="ignore", divide="ignore"):
                conf = mass / rows[:, :, None]
            empty = ~(rows > 0)
            if empty.any():  # a category never believed seen: uniform over the group's
                uniform = allowed / n_allowed[:, None]
                conf[empty] = np.broadcast_to(uniform[:, None, :], conf.shape)[empty]
        return {"priors": priors(v, posterior), "confusion": conf}


def _column_sum(values: FloatArray) -> FloatArray:
    """The sum over the second axis, one column after the other (as numpy sums a short
    axis)."""
    out: FloatArray = values[:, 0].copy()
    for j in range(1, values.shape[1]):
        out += values[:, j]
    return out
