"""``Ratings.consensus``: check the options, fit the model, label the result."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._typing import IntArray
from .._warnings import ConvergenceWarning, warn
from ..definitions import RatingData
from ._em import Fit, em
from ._majority import TIES, Ties, choose, shares
from ._result import Consensus
from ._votes import Votes, votes

__all__ = ["METHODS", "fit"]

METHODS = ("majority", "dawid_skene", "one_coin")
_PLANNED = ("glad", "mace")


def _check(method: object, ties: object, max_iterations: object, tol: object) -> None:
    if method in _PLANNED:
        raise NotImplementedError(
            f"method={method!r} is not available yet; use one of {', '.join(map(repr, METHODS))}."
        )
    if method not in METHODS:
        raise ValueError(
            f"`method` must be one of {', '.join(map(repr, METHODS))}; got {method!r}."
        )
    if ties not in TIES:
        raise ValueError(f"`ties` must be one of {', '.join(map(repr, TIES))}; got {ties!r}.")
    if isinstance(max_iterations, bool) or not isinstance(max_iterations, (int, np.integer)):
        raise TypeError(f"`max_iterations` must be a positive integer; got {max_iterations!r}.")
    if max_iterations < 1:
        raise ValueError(f"`max_iterations` must be a positive integer; got {max_iterations!r}.")
    if isinstance(tol, bool) or not isinstance(tol, (int, float, np.number)):
        raise TypeError(f"`tol` must be a positive number; got {tol!r}.")
    if not (np.isfinite(tol) and float(tol) > 0):
        raise ValueError(f"`tol` must be a positive finite number; got {tol!r}.")


def fit(
    data: RatingData,
    method: str = "dawid_skene",
    *,
    gold: Any = None,
    ties: Ties = "random",
    rng: np.random.Generator | int | None = None,
    max_iterations: int = 100,
    tol: float = 1e-6,
) -> Consensus:
    """One label per item from the annotators' labels, and how good each annotator is.

    Parameters
    ----------
    method : {"majority", "dawid_skene", "one_coin"}
        ``"majority"``: the plurality vote, its probabilities the vote shares.
        ``"dawid_skene"``: Dawid & Skene (1979), one confusion matrix per annotator, fitted
        by EM from the vote shares (eqs. 2.3-2.5); ``"one_coin"``: the same with one
        accuracy per annotator, errors spread evenly over the other categories.
    gold : str or Series, optional
        Known labels: a rater's name (its labels are known, not votes) or a Series of labels
        indexed by item. Known items' posteriors are fixed to their label (semi-supervised
        EM), and they count towards the annotators' parameters.
    ties : {"random", "first", "nan"}
        An exact tie between the most probable categories: drawn uniformly from ``rng``,
        the first in category order, or no label.
    rng : numpy Generator or int, optional
        Seeds ``ties="random"``.
    max_iterations, tol
        EM stops after ``max_iterations`` or when the log-likelihood gains less than
        ``tol`` per annotation; a :class:`~pdagree.ConvergenceWarning` if it did not
        converge.

    Returns
    -------
    Consensus
        ``labels``, ``probabilities``, ``quality``, ``confusion``, ``priors``,
        ``log_likelihood``, ``n_iterations``, ``converged``, ``method``, and
        ``to_frame()``. With ``by=``, each group is fitted on its own.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdagree
    >>> df = pd.DataFrame({"a": ["x", "y", "x"], "b": ["x", "y", "y"], "c": ["x", "x", "y"]})
    >>> df.agree.consensus("majority").labels.tolist()
    ['x', 'y', 'y']
    """
    _check(method, ties, max_iterations, tol)
    v = votes(data, gold)
    gen = np.random.default_rng(rng)
    if method == "majority":
        probabilities = shares(v)
        result: Fit | None = None
    else:
        result = em(v, one_coin=method == "one_coin", max_iterations=int(max_iterations), tol=tol)
        probabilities = result.posterior
        rated = (v.counts().sum(axis=1) > 0) | (v.gold >= 0)
        probabilities = np.where(rated[:, None], probabilities, np.nan)
    chosen = choose(probabilities, ties, gen)
    return _label(data, v, str(method), probabilities, chosen, result)


def _key_index(data: RatingData, keys: IntArray) -> pd.Index:
    """The annotator (with ``by=``: group keys and annotator) of each key."""
    enc = data.enc
    raters = data.rater_labels[keys % enc.n_raters]
    if enc.groups is None:
        return pd.Index(raters, name="rater" if raters.name is None else raters.name)
    groups = enc.groups[keys // enc.n_raters]
    frame = (
        groups.to_frame(index=False)
        if isinstance(groups, pd.MultiIndex)
        else pd.DataFrame({groups.name: groups})
    )
    frame["rater"] = raters
    return pd.MultiIndex.from_frame(frame)


def _label(
    data: RatingData,
    v: Votes,
    method: str,
    probabilities: np.ndarray,
    chosen: IntArray,
    result: Fit | None,
) -> Consensus:
    enc = data.enc
    cats = enc.categories
    items = data.item_index()
    labels = pd.Series(cats.take(np.maximum(chosen, 0)), index=items, name="label")
    labels = labels.infer_objects() if (chosen >= 0).all() else labels.where(chosen >= 0)
    n_per_key = np.bincount(v.key, minlength=v.n_keys)
    keys = np.flatnonzero(n_per_key > 0)
    if result is None:
        hit = chosen[v.item] == v.code
        counted = chosen[v.item] >= 0
        hits = np.bincount(v.key, weights=hit & counted, minlength=v.n_keys)
        n = np.bincount(v.key, weights=counted, minlength=v.n_keys)
        with np.errstate(invalid="ignore", divide="ignore"):
            accuracy = hits / n
        confusion = None
        k = v.n_categories
        priors_array = (
            np.bincount((v.group[v.item] * k + v.code), minlength=v.n_groups * k)
            .reshape(v.n_groups, k)
            .astype(np.float64)
        )
        with np.errstate(invalid="ignore", divide="ignore"):
            priors_array = priors_array / priors_array.sum(axis=1, keepdims=True)
        log_likelihood: Any = np.full(v.n_groups, np.nan)
        n_iterations: Any = np.zeros(v.n_groups, dtype=np.int64)
        converged: Any = np.ones(v.n_groups, dtype=bool)
    else:
        priors_array = result.priors
        diagonal = np.diagonal(result.confusion, axis1=1, axis2=2)
        accuracy = (priors_array[v.key_group] * diagonal).sum(axis=1)
        index = _key_index(data, np.repeat(keys, enc.n_categories))
        true = np.tile(np.arange(enc.n_categories), len(keys))
        confusion = pd.DataFrame(
            result.confusion[keys].reshape(-1, enc.n_categories),
            index=pd.MultiIndex.from_arrays(
                [*(index.get_level_values(i) for i in range(index.nlevels)), cats[true]],
                names=[*index.names, "true"],
            ),
            columns=cats,
        )
        log_likelihood, n_iterations, converged = (
            result.log_likelihood,
            result.n_iterations,
            result.converged,
        )
        if not bool(np.all(converged)):
            warn(
                f"consensus(method={method!r}) did not converge in {int(n_iterations.max())} "
                f"iterations{'' if enc.groups is None else ' in some groups'}; raise "
                "`max_iterations` or `tol`.",
                ConvergenceWarning,
            )
    quality = pd.DataFrame(
        {"n_items": n_per_key[keys], "accuracy": accuracy[keys]}, index=_key_index(data, keys)
    )
    if enc.groups is None:
        priors = pd.Series(priors_array[0], index=cats, name="prior")
        log_likelihood, n_iterations, converged = (
            float(log_likelihood[0]),
            int(n_iterations[0]),
            bool(converged[0]),
        )
    else:
        groups = enc.groups
        priors = pd.Series(
            priors_array.ravel(),
            index=pd.MultiIndex.from_product([groups, cats])
            if not isinstance(groups, pd.MultiIndex)
            else pd.MultiIndex.from_tuples([(*g, c) for g in groups for c in cats]),
            name="prior",
        )
        log_likelihood = pd.Series(log_likelihood, index=groups, name="log_likelihood")
        n_iterations = pd.Series(n_iterations, index=groups, name="n_iterations")
        converged = pd.Series(converged, index=groups, name="converged")
    return Consensus(
        labels=labels,
        probabilities=pd.DataFrame(probabilities, index=items, columns=cats),
        quality=quality,
        confusion=confusion,
        priors=priors,
        log_likelihood=log_likelihood,
        n_iterations=n_iterations,
        converged=converged,
        method=method,
        n_ratings=v.counts().sum(axis=1).astype(np.int64),
    )
