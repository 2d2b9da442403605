"""The graded response model's likelihood: pure numpy over response patterns, nodes and judges.

Judge ``j`` rates an item of latent trait ``z ~ N(0, 1)`` in category ``c`` (a code
``0 .. K-1``) with

    P(Y_j <= c | z) = F(T[j, c + 1] - a_j z),     F the logistic function,

where ``T`` is the (J, K + 1) array of *extended thresholds*: ``T[j, 0] = -inf``,
``T[j, K] = +inf``, and ``T[j, b]`` (``b = 1 .. K-1``) the threshold ``beta_jb`` between
categories ``b - 1`` and ``b``; a judge fitted on categories ``lo .. hi`` only has
``T[j, b] = -inf`` for ``b <= lo`` and ``+inf`` for ``b > hi``. So

    p_jc(z) = P(Y_j = c | z) = F(u) - F(l) = F(u) F(-l) (1 - exp(l - u)),
    u = T[j, c + 1] - a_j z,  l = T[j, c] - a_j z,

computed in logs, which is exact where ``F(u)`` and ``F(l)`` are both close to 1 and makes
no NaN at infinite thresholds. The probabilities depend on (judge, category, node) only, so the
likelihood of the response patterns is two matrix products with the patterns' one-hot
matrix ``X`` (patterns x (judge, category); a missing cell is a row of zeros there, so its
factor is left out of the product):

    S[r, q]  = sum_j log p_{j, x_rj}(z_q) = (X @ log p)[r, q]
    log L_r  = log sum_q w_q exp(S[r, q]),           logL = sum_r n_r log L_r
    h[r, q]  = n_r w_q exp(S[r, q]) / L_r            (posterior weights)
    N[j, c, q] = (X.T @ h)[(j, c), q]               (expected counts)

and the gradient follows from ``d log p / d u = f(u) / p`` and ``d log p / d l = -f(l) / p``
with ``f = F (1 - F)``:

    d logL / d T[j, b] = sum_q N[j, b-1, q] f(u)/p  -  sum_q N[j, b, q] f(l)/p
    d logL / d a_j     = -sum_{c, q} N[j, c, q] z_q (f(u) - f(l)) / p

These functions import nothing of pdagree's and neither validate nor warn.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numpy.polynomial.hermite_e import hermegauss

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

#: The smallest log-probability of a category a judge is fitted on (see `category_terms`).
_LOG_P_FLOOR = -1.0e4

__all__ = [
    "Patterns",
    "category_terms",
    "extend_thresholds",
    "gauss_hermite",
    "loglik_gradient",
    "posterior",
]


def gauss_hermite(n_nodes: int) -> tuple[FloatArray, FloatArray]:
    """Nodes ``z_q`` and weights ``w_q`` (summing to 1) of ``n_nodes``-point Gauss-Hermite
    quadrature for the standard normal density (probabilists' Hermite polynomials)."""
    nodes, weights = hermegauss(n_nodes)
    return np.asarray(nodes, dtype=np.float64), np.asarray(weights / weights.sum(), np.float64)


@dataclass(frozen=True, eq=False)
class Patterns:
    """The distinct response patterns of the items, as blocks of their one-hot matrix.

    Attributes
    ----------
    onehot
        Per block, the (patterns in the block, J * K) float matrix with a 1 at
        ``(r, j * K + c)`` when judge ``j`` put pattern ``r`` in category ``c`` (no 1 in judge
        ``j``'s columns when the cell is missing). Blocks bound the memory of large data.
    counts
        Per block, how many items show each pattern (``n_r``).
    """

    onehot: tuple[FloatArray, ...]
    counts: tuple[FloatArray, ...]


def extend_thresholds(
    beta: FloatArray, fitted: BoolArray, lowest: npt.NDArray[np.int64]
) -> FloatArray:
    """The (..., J, K + 1) extended thresholds from the (..., J, K - 1) fitted ones: ``-inf``
    at the bottom and below a judge's lowest category, ``+inf`` at the top and above its
    highest."""
    n_inner = beta.shape[-1]
    below = np.arange(n_inner)[None, :] < lowest[:, None]
    inner = np.where(fitted, beta, np.where(below, -np.inf, np.inf))
    edge = np.full((*beta.shape[:-1], 1), np.inf)
    return np.concatenate([-edge, inner, edge], axis=-1)


def _log_sigmoid(x: FloatArray) -> FloatArray:
    """``log F(x)``, exact for large ``|x|`` and equal to ``-inf`` at ``x = -inf``."""
    out: FloatArray = -np.logaddexp(0.0, -x)
    return out


def category_terms(
    thresholds: FloatArray, discrimination: FloatArray, nodes: FloatArray, valid: BoolArray
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``log p``, ``f(u)/p`` and ``f(l)/p`` for every judge, category and node.

    Parameters
    ----------
    thresholds
        The (..., J, K + 1) extended thresholds ``T`` (see the module docstring); leading
        axes are batches of parameter values.
    discrimination
        The (..., J) discriminations ``a_j``.
    nodes
        The (Q,) quadrature nodes ``z_q``.
    valid
        (J, K): the categories each judge is fitted on; the others get ``log p = -inf`` and
        zero derivatives (their probability is 0 at every ``z``).

    Returns
    -------
    log_p, ratio_upper, ratio_lower
        Each of shape (..., J, K, Q).
    """
    upper = thresholds[..., 1:]
    lower = thresholds[..., :-1]
    # Categories outside a judge's range have two infinite thresholds of the same sign; give
    # them finite stand-ins so that no inf - inf is formed, and zero them afterwards.
    upper = np.where(valid, upper, 1.0)
    lower = np.where(valid, lower, 0.0)
    shift = discrimination[..., :, None, None] * nodes
    u = upper[..., None] - shift
    lo = lower[..., None] - shift
    log_f_u, log_f_neg_u = _log_sigmoid(u), _log_sigmoid(-u)
    log_f_l, log_f_neg_l = _log_sigmoid(lo), _log_sigmoid(-lo)
    # l - u is -inf when either threshold is infinite, and log(-expm1(-inf)) = log(1) = 0.
    gap = np.minimum(lo - u, 0.0)
    with np.errstate(divide="ignore"):
        log_p = log_f_u + log_f_neg_l + np.log(-np.expm1(gap))
    possible = valid[:, :, None] & (log_p > -np.inf)
    safe_log_p = np.where(possible, log_p, 0.0)
    ratio_upper = np.where(possible, np.exp(log_f_u + log_f_neg_u - safe_log_p), 0.0)
    ratio_lower = np.where(possible, np.exp(log_f_l + log_f_neg_l - safe_log_p), 0.0)
    # A probability that underflows (thresholds closer than the float spacing) is floored so
    # that an observed category never makes the likelihood -inf; outside the range it is 0.
    log_p = np.where(valid[:, :, None], np.maximum(log_p, _LOG_P_FLOOR), -np.inf)
    return log_p, ratio_upper, ratio_lower


def _score_table(log_p: FloatArray) -> FloatArray:
    """(B, J, K, Q) log-probabilities as the (J * K, B * Q) right factor of ``X @ log p``.

    Categories a judge is not fitted on never occur in its data, so their ``-inf`` becomes 0
    (``0 * -inf`` would be NaN in the product).
    """
    n_batch, n_judges, n_categories, n_nodes = log_p.shape
    finite = np.where(np.isfinite(log_p), log_p, 0.0)
    return finite.transpose(1, 2, 0, 3).reshape(n_judges * n_categories, n_batch * n_nodes)


def _block_posterior(
    onehot: FloatArray, table: FloatArray, log_weights: FloatArray, n_batch: int
) -> tuple[FloatArray, FloatArray]:
    """For one block of patterns: ``log L_r`` (R, B) and the posterior weights (R, B, Q)."""
    scores = (onehot @ table).reshape(len(onehot), n_batch, -1)
    joint = scores + log_weights
    top = joint.max(axis=2, keepdims=True)
    log_marginal = top + np.log(np.exp(joint - top).sum(axis=2, keepdims=True))
    return log_marginal[..., 0], np.exp(joint - log_marginal)


def loglik_gradient(
    patterns: Patterns,
    thresholds: FloatArray,
    discrimination: FloatArray,
    nodes: FloatArray,
    log_weights: FloatArray,
    valid: BoolArray,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The marginal log-likelihood and its gradient, for a batch of parameter values.

    Parameters
    ----------
    thresholds, discrimination
        (B, J, K + 1) and (B, J): B sets of parameter values.

    Returns
    -------
    loglik
        (B,): ``logL = sum_r n_r log L_r``.
    grad_thresholds
        (B, J, K + 1): ``d logL / d T[j, b]`` (zero at the infinite entries).
    grad_discrimination
        (B, J): ``d logL / d a_j``.
    """
    log_p, ratio_upper, ratio_lower = category_terms(thresholds, discrimination, nodes, valid)
    n_batch, n_judges, n_categories, n_nodes = log_p.shape
    table = _score_table(log_p)
    loglik = np.zeros(n_batch)
    expected = np.zeros((n_judges * n_categories, n_batch * n_nodes))
    for onehot, counts in zip(patterns.onehot, patterns.counts, strict=True):  # over blocks
        log_marginal, weights = _block_posterior(onehot, table, log_weights, n_batch)
        loglik += counts @ log_marginal
        weights *= counts[:, None, None]
        expected += onehot.T @ weights.reshape(len(onehot), n_batch * n_nodes)
    expected = expected.reshape(n_judges, n_categories, n_batch, n_nodes).transpose(2, 0, 1, 3)
    upper_term = (expected * ratio_upper).sum(axis=3)  # (B, J, K): category c's upper threshold
    lower_term = (expected * ratio_lower).sum(axis=3)  # (B, J, K): category c's lower threshold
    grad_thresholds = np.zeros((n_batch, n_judges, n_categories + 1))
    grad_thresholds[..., 1:] += upper_term
    grad_thresholds[..., :-1] -= lower_term
    grad_discrimination = -(expected * (ratio_upper - ratio_lower) * nodes).sum(axis=(2, 3))
    return loglik, grad_thresholds, grad_discrimination


def posterior(
    patterns: Patterns,
    thresholds: FloatArray,
    discrimination: FloatArray,
    nodes: FloatArray,
    log_weights: FloatArray,
    valid: BoolArray,
) -> FloatArray:
    """The posterior weights of the nodes given each pattern, (patterns, Q), rows summing
    to 1 (in block order), for one set of parameter values: (J, K + 1) and (J,)."""
    log_p, _, _ = category_terms(thresholds[None], discrimination[None], nodes, valid)
    table = _score_table(log_p)
    out = [_block_posterior(onehot, table, log_weights, 1)[1][:, 0] for onehot in patterns.onehot]
    return np.concatenate(out, axis=0)
