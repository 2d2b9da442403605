"""``Ratings.consensus``: check the options, fit the model, label the result."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from .._typing import FloatArray, IntArray
from .._validation import check_option, check_seed
from .._warnings import ConvergenceWarning, UndefinedStatisticWarning, warn
from ..tensors import RatingData
from ..tensors.keys import key_index
from ._dawid_skene import DawidSkene
from ._em import Fit, Model, run
from ._glad import Glad
from ._graph import GRAPH_METHODS, graph_fit, nan_annotators
from ._mace import Mace
from ._majority import TIES, Ties, choose, shares
from ._result import Consensus
from ._size import check_size
from ._skills import SKILL_METHODS, skill_vote
from ._summary import Summary, majority, summarise
from ._votes import Votes, votes

__all__ = ["MAX_ITERATIONS", "METHODS", "TOL", "fit"]

MODELS: dict[str, Model] = {
    "dawid_skene": DawidSkene(),
    "one_coin": DawidSkene(one_coin=True),
    "glad": Glad(),
    "mace": Mace(),
}
METHODS = ("majority", *MODELS, *SKILL_METHODS, *GRAPH_METHODS)
"""The consensus methods: majority vote; the EM models (Dawid-Skene, one-coin, GLAD, MACE);
the skill-weighted votes (Wawa, zero-based skill); KOS (binary labels) and M-MSR."""
MAX_ITERATIONS = 10_000
"""EM iterations (M-steps) at most, by default (with ``TOL``: Dawid-Skene takes about 20 on
the Duck Identification data, MACE 61 in SQUAREM cycles, where plain EM took about 480, and
1,100 to 1,500 are common on small data)."""
TOL = 1e-6
"""The largest change of a posterior or a parameter in an iteration, and of the change to
come, that ends EM, by default (:mod:`pdagree.consensus._convergence`)."""


def _check(method: object, ties: object, rng: object, max_iterations: object, tol: object) -> None:
    check_option(method, "method", METHODS)
    check_option(ties, "ties", TIES)
    check_seed(rng)
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
    max_iterations: int = MAX_ITERATIONS,
    tol: float = TOL,
) -> Consensus:
    """One label per item from the annotators' labels, and how good each annotator is.

    Parameters
    ----------
    method : str, default "dawid_skene"
        One of ``pdagree.consensus.METHODS``:
        ``"majority"``: the plurality vote, its probabilities the vote shares.
        ``"dawid_skene"``: Dawid & Skene (1979), one confusion matrix per annotator, fitted
        by EM from the vote shares (their eqs. 2.3-2.5); ``"one_coin"``: the same with one
        accuracy per annotator, errors spread evenly over the other categories.
        ``"glad"``: Whitehill et al. (2009), annotator ability times item difficulty
        (``quality["ability"]``, ``difficulty``). ``"mace"``: Hovy et al. (2013), each
        annotator's spamming probability (``quality["spam"]``) and spam strategy
        (``strategy``). The modules :mod:`pdagree.consensus._dawid_skene`, ``._glad`` and
        ``._mace`` give each model's equations, smoothing and initialisation. ``"wawa"``
        (worker agreement with aggregate) and ``"zero_based_skill"``: votes weighted by each
        annotator's skill, its agreement with a vote (``quality["skill"]``; crowd-kit's
        algorithms, :mod:`pdagree.consensus._skills`). ``"kos"``: Karger, Oh & Shah
        (2011, 2014), message passing for binary labels (two categories per group; more
        raise a ValueError), each annotator's ``quality["reliability"]`` (its message,
        1 for the most reliable, negative for one who contradicts the consensus); KOS
        gives no probabilities (nan). ``"mmsr"``: Ma & Olshevsky (2020), the one-coin
        skills ``s_j = (K p_j - 1) / (K - 1)`` from the annotators' pairwise agreement by
        robust rank-one matrix completion (``quality["skill"]``, ``accuracy`` ``p_j``, the
        vote ``weight`` ``log((K - 1) p_j / (1 - p_j))``), the probabilities the one-coin
        posterior with uniform priors. Both run ``max_iterations`` at most and stop at
        ``tol`` (:mod:`pdagree.consensus._kos`, ``._mmsr``).
    gold : str or Series, optional
        Known labels: a rater's name (its labels are known, not votes) or a Series of labels
        indexed by item. Known items' posteriors are fixed to their label (semi-supervised
        EM), and they count towards the annotators' parameters (KOS and M-MSR: the known
        items keep their label, the annotators are estimated from the votes alone).
    ties : {"random", "first", "nan"}
        An exact tie between the most probable categories: drawn uniformly from ``rng``,
        the first in category order, or no label.
    rng : numpy Generator or int, optional
        Seeds ``ties="random"``.
    max_iterations : int, default 10000
        EM iterations (M-steps) at most; a fit still moving after them has ``converged``
        False and warns (:class:`~pdagree.ConvergenceWarning`). GLAD and MACE run in SQUAREM
        cycles (Varadhan & Roland 2008): two EM steps, a jump to the extrapolated point
        where it does not lower the penalised likelihood, then one EM step from it; each of
        the three M-steps of a cycle counts as an iteration, and ``n_iterations`` counts
        them too. MACE's jumps are bounded as in Varadhan's SQUAREM package (1 at first,
        4 times more each time a jump reaches the bound), each annotator's the longer of its
        own step and its group's.
    tol : float, default 1e-6
        EM has converged when the largest change of an item's posterior probability or of
        a parameter (confusion probabilities and priors; GLAD's abilities and log inverse
        difficulties; MACE's trust and strategies) in the last iteration, and the change
        still to come, are below ``tol``, each ``by=`` group on its own (in SQUAREM cycles,
        only where the last two changes are two EM steps in a row, not at the step right
        after a jump). The change to come is estimated from the last two changes as the
        rest of a geometric series (EM converges linearly, often slowly: on 100 items
        rated by about three annotators each iteration moves Dawid-Skene by 0.99 times the
        previous one, and takes about 1,100 iterations). The log-likelihood is not the
        criterion: near its maximum it is flat, and its gain per annotation falls below
        ``1e-6`` while posteriors can still be 0.15 from the fit's. With the defaults, the
        labels and the margins of ``to_frame()`` on the Duck Identification data are
        within ``2e-6`` of a fit to ``tol=1e-13`` for Dawid-Skene, the one-coin model and
        GLAD, ``1e-5`` for MACE (after a jump the last two steps can underestimate the
        change to come). Where the likelihood is nearly flat the estimate misses by more:
        on 400 small ``by=`` groups (2 to 4 annotators x 2 to 8 items, some ratings
        missing) MACE's posteriors are within ``1.2e-3`` of the tight fit with the defaults,
        ``1.2e-5`` with ``tol=1e-8``; lower ``tol`` where such differences matter.

    Returns
    -------
    Consensus
        ``labels``, ``probabilities``, ``quality``, ``confusion``, ``priors``,
        ``log_likelihood``, ``n_iterations``, ``converged``, ``method``, and
        ``to_frame()``. With ``by=``, each group is fitted on its own. ``labels`` are a
        Categorical of the declared scale when the categories were declared
        (``categories=``, a Categorical column), the labels' own values otherwise.

    Raises
    ------
    ValueError
        A bad option, known labels the annotators cannot give, or, for Dawid-Skene,
        one-coin and MACE, a confusion matrix per annotator too large to hold: when one
        (annotators, K, K) array would exceed
        :data:`~pdagree.consensus.MAX_CONFUSION_CELLS` cells (0.5 GiB), before anything
        is allocated; majority vote and GLAD need no such array. For M-MSR, more
        annotator pairs sharing an item than :data:`~pdagree.consensus.MAX_PAIRS`.

    Warns
    -----
    ConvergenceWarning
        EM did not converge in ``max_iterations`` (in some ``by=`` groups).

    Notes
    -----
    The models read each annotator's primary label; secondary labels (``rank=``) are not
    votes. Items nobody rated have no label (and nan probabilities); an item with one
    rating gets the model's posterior given that rating.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdagree
    >>> df = pd.DataFrame({"a": ["x", "y", "x"], "b": ["x", "y", "y"], "c": ["x", "x", "y"]})
    >>> df.agree.consensus("majority").labels.tolist()
    ['x', 'y', 'y']
    """
    _check(method, ties, rng, max_iterations, tol)
    v = votes(data, gold)
    check_size(v, str(method))
    gen = np.random.default_rng(rng)
    if method == "majority":
        probabilities = shares(v)
        chosen = choose(probabilities, ties, gen)
        summary = majority(v, chosen)
        _warn_undefined(data, v, summary, "majority")
        return _label(data, v, "majority", probabilities, chosen, summary, None)
    if method in SKILL_METHODS:
        probabilities, chosen, skill = skill_vote(v, str(method), ties, gen)
        summary = replace(majority(v, chosen), columns={"skill": skill})
        _warn_undefined(data, v, summary, str(method))
        return _label(data, v, str(method), probabilities, chosen, summary, None)
    if method in GRAPH_METHODS:
        probabilities, chosen, summary, fitted = graph_fit(
            data, v, str(method), ties, gen, max_iterations=int(max_iterations), tol=float(tol)
        )
        if method == "kos":  # its accuracy is against the labels, as majority vote's
            _warn_undefined(data, v, summary, "kos")
        return _label(data, v, str(method), probabilities, chosen, summary, fitted)
    result = run(v, MODELS[method], max_iterations=int(max_iterations), tol=tol)
    rated = (np.bincount(v.item, minlength=v.n_items) > 0) | (v.gold >= 0)
    probabilities = np.where(rated[:, None], result.posterior, np.nan)
    chosen = choose(probabilities, ties, gen)
    return _label(
        data, v, str(method), probabilities, chosen, summarise(v, method, result), result
    )


def _warn_undefined(data: RatingData, v: Votes, summary: Summary, method: str) -> None:
    """Majority vote, Wawa, zero-based skill and KOS: the nan they cannot avoid, each said
    with a warning naming the first few: the priors of a ``by=`` group whose items have known
    labels and no votes, the accuracy of an annotator whose items all lack a label
    (``ties="nan"``)."""
    empty = np.flatnonzero(np.isnan(summary.priors).all(axis=1))
    if len(empty) and data.enc.groups is not None:
        groups = ", ".join(str(name) for name in data.enc.groups[empty[:3]])
        warn(
            f"consensus(method={method!r}): {len(empty)} `by` group(s) have known labels "
            f"and no votes, e.g. {groups}; their `priors` are nan.",
            UndefinedStatisticWarning,
        )
    n, names = nan_annotators(data, v, summary.accuracy)
    if n:
        warn(
            f"consensus(method={method!r}, ties='nan'): {n} annotator(s) rated only items "
            f"without a consensus label (exact ties), e.g. {names}; their `accuracy` is nan. "
            "Use ties='first' or ties='random' to label every tied item.",
            UndefinedStatisticWarning,
        )


def _per_group(data: RatingData, values: Any, name: str) -> Any:
    """One group's scalar, or a Series by group."""
    groups = data.enc.groups
    if groups is None:
        return values[0].item()
    return pd.Series(values, index=groups, name=name)


def _by_category(groups: pd.Index, cats: pd.Index, name: str | None = None) -> pd.MultiIndex:
    """Each entry of ``groups`` (unique: the ``by=`` groups, or the annotators) with each
    category, entry by entry, the categories' level named ``name``: built from codes into
    the entries' and the categories' labels, so that no label is hashed again."""
    k = len(cats)
    levels: list[Any]
    group_codes: list[Any]
    if isinstance(groups, pd.MultiIndex):
        levels = [*groups.levels, cats]
        group_codes = [np.asarray(c).repeat(k) for c in groups.codes]
    else:
        levels = [groups, cats]
        group_codes = [np.arange(len(groups)).repeat(k)]
    codes: list[Any] = [*group_codes, np.tile(np.arange(k), len(groups))]
    index = pd.MultiIndex(
        levels=levels,
        codes=codes,
        names=[*groups.names, name],
        verify_integrity=False,
    )
    return index


def _label(
    data: RatingData,
    v: Votes,
    method: str,
    probabilities: FloatArray,
    chosen: IntArray,
    summary: Summary,
    result: Fit | None,
) -> Consensus:
    enc = data.enc
    cats = enc.categories
    items = data.item_index()
    if enc.declared:  # a declared scale (categories=, a Categorical) stays one
        scale = pd.Categorical.from_codes(chosen, categories=cats, ordered=enc.ordered)
        labels = pd.Series(scale, index=items, name="label")
    else:
        values = cats.infer_objects().take(np.maximum(chosen, 0))  # numbers stay numbers
        labels = pd.Series(values, index=items, name="label")
        if not (chosen >= 0).all():
            labels = labels.where(chosen >= 0)
    n_per_key = np.bincount(v.key, minlength=v.n_keys)
    keys = np.flatnonzero(n_per_key > 0)
    annotators = key_index(data, keys)
    quality = pd.DataFrame(
        {
            "n_items": n_per_key[keys],
            "accuracy": summary.accuracy[keys],
            **{name: values[keys] for name, values in summary.columns.items()},
        },
        index=annotators,
    )
    confusion = None
    if summary.confusion is not None:
        confusion = pd.DataFrame(
            summary.confusion[keys].reshape(-1, enc.n_categories),
            index=_by_category(annotators, cats, "true"),
            columns=cats,
        )
    if enc.groups is None:
        priors = pd.Series(summary.priors[0], index=cats, name="prior")
    else:
        index = _by_category(enc.groups, cats)
        priors = pd.Series(summary.priors.ravel(), index=index, name="prior")
    if result is None:
        ll = np.full(v.n_groups, np.nan)
        iterations = np.zeros(v.n_groups, dtype=np.int64)
        converged = np.ones(v.n_groups, dtype=bool)
    else:
        ll, iterations, converged = result.log_likelihood, result.n_iterations, result.converged
        if not bool(np.all(converged)):
            warn(
                f"consensus(method={method!r}) did not converge in {int(iterations.max())} "
                f"iterations{'' if enc.groups is None else ' in some groups'}; raise "
                "`max_iterations` or `tol`.",
                ConvergenceWarning,
            )
    strategy = (
        None
        if summary.strategy is None
        else pd.DataFrame(summary.strategy[keys], index=annotators, columns=cats)
    )
    difficulty = (
        None
        if summary.difficulty is None
        else pd.Series(summary.difficulty, index=items, name="difficulty")
    )
    return Consensus(
        labels=labels,
        probabilities=pd.DataFrame(probabilities, index=items, columns=cats),
        quality=quality,
        confusion=confusion,
        priors=priors,
        log_likelihood=_per_group(data, ll, "log_likelihood"),
        n_iterations=_per_group(data, iterations, "n_iterations"),
        converged=_per_group(data, converged, "converged"),
        method=method,
        n_ratings=np.bincount(v.item, minlength=v.n_items).astype(np.int64),
        difficulty=difficulty,
        strategy=strategy,
    )
