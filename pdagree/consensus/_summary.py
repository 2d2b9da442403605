"""Each model's fit read as the annotators' quality: accuracy, confusion and the model's own
parameters (GLAD's abilities and difficulties, MACE's spamming and strategies)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._lazy import scipy_special as special
from .._typing import FloatArray, IntArray
from ._dawid_skene import priors
from ._em import Fit
from ._votes import Votes

__all__ = ["Summary", "majority", "summarise"]


@dataclass(frozen=True, eq=False)
class Summary:
    """Per group the priors (G, K); per key the accuracy, other quality columns and the
    confusion matrices (keys, K, K) or None; per item a difficulty; per key a strategy."""

    priors: FloatArray
    accuracy: FloatArray
    confusion: FloatArray | None = None
    columns: dict[str, FloatArray] = field(default_factory=dict)
    difficulty: FloatArray | None = None
    strategy: FloatArray | None = None


def majority(v: Votes, chosen: IntArray) -> Summary:
    """Majority vote: the priors are the shares of the votes, an annotator's accuracy the
    share of its labels that equal the consensus (items without one left out)."""
    k = v.n_categories
    votes = np.bincount(v.group[v.item] * k + v.code, minlength=v.n_groups * k)
    votes = votes.reshape(v.n_groups, k).astype(np.float64)
    counted = chosen[v.item] >= 0
    hits = np.bincount(v.key, weights=(chosen[v.item] == v.code) & counted, minlength=v.n_keys)
    n = np.bincount(v.key, weights=counted, minlength=v.n_keys)
    with np.errstate(invalid="ignore", divide="ignore"):
        return Summary(votes / votes.sum(axis=1, keepdims=True), hits / n)


def summarise(v: Votes, method: str, fit: Fit) -> Summary:
    """The quality of each annotator under the fitted model."""
    params = fit.params
    if method in ("dawid_skene", "one_coin"):
        p, conf = params["priors"], params["confusion"]
        accuracy = (p[v.key_group] * np.diagonal(conf, axis1=1, axis2=2)).sum(axis=1)
        return Summary(p, accuracy, conf)
    n = np.bincount(v.key, minlength=v.n_keys).astype(np.float64)
    if method == "glad":
        alpha, b = params["alpha"], params["b"]
        right = special.expit(alpha[v.key] * np.exp(b[v.item]))
        with np.errstate(invalid="ignore", divide="ignore"):
            accuracy = np.bincount(v.key, weights=right, minlength=v.n_keys) / n
        return Summary(v.uniform, accuracy, columns={"ability": alpha}, difficulty=np.exp(-b))
    # MACE: P(l | k) = theta [l = k] + (1 - theta) xi_l over the group's categories.
    theta, xi = params["theta"], params["xi"]
    k = v.n_categories
    allowed = v.key_allowed
    conf = (1.0 - theta)[:, None, None] * xi[:, None, :] * allowed[:, :, None]
    conf[:, np.arange(k), np.arange(k)] += np.where(allowed, theta[:, None], 0.0)
    seen = priors(v, fit.posterior)  # the fitted share of each category among the items
    accuracy = (seen[v.key_group] * np.diagonal(conf, axis1=1, axis2=2)).sum(axis=1)
    return Summary(v.uniform, accuracy, conf, {"spam": 1.0 - theta}, strategy=xi)
