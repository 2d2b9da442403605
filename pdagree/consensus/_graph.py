"""KOS and M-MSR as consensus methods: check the labels, run the algorithm, read the result
as labels, probabilities and the annotators' quality."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .._typing import FloatArray, IntArray
from .._warnings import UndefinedStatisticWarning, warn
from ..encoding import fmt, plain
from ..tensors import RatingData
from ..tensors.keys import key_index
from ._em import Fit
from ._kos import kos
from ._majority import Ties, choose
from ._mmsr import mmsr
from ._summary import Summary, majority
from ._votes import Votes

__all__ = ["GRAPH_METHODS", "graph_fit", "nan_annotators"]

GRAPH_METHODS = ("kos", "mmsr")


def _check_binary(data: RatingData, v: Votes) -> None:
    """KOS takes two categories per group: a ValueError naming the labels otherwise."""
    wide = np.flatnonzero(v.n_allowed > 2)
    if not len(wide):
        return
    first = int(wide[0])
    labels = list(data.enc.categories[v.allowed[first]])
    groups = data.enc.groups
    where = "" if groups is None else f" of `by` group {plain(groups[first])!r}"
    raise ValueError(
        f"consensus(method='kos') is for binary labels (two categories); the labels{where} "
        f"are {len(labels)}: {fmt(labels)}. Use a method for several categories, e.g. "
        "method='mmsr' or method='dawid_skene', or merge the labels into two."
    )


def graph_fit(
    data: RatingData, v: Votes, method: str, ties: Ties, gen: np.random.Generator, *,
    max_iterations: int, tol: float,
) -> tuple[FloatArray, IntArray, Summary, Fit]:  # fmt: skip
    """The probabilities, chosen labels, quality and iterations of ``method``."""
    if method == "kos":
        _check_binary(data, v)
        fit = kos(v, max_iterations=max_iterations, tol=tol)
        chosen = choose(fit.decision, ties, gen)
        summary = replace(majority(v, chosen), columns={"reliability": fit.reliability})
        _warn_undefined(data, v, fit.reliability, "kos", "reliability")
        probabilities = np.full_like(fit.decision, np.nan)
        n_iterations, converged = fit.n_iterations, fit.converged
    else:
        m = mmsr(v, max_iterations=max_iterations, tol=tol)
        probabilities = m.probabilities
        chosen = choose(probabilities, ties, gen)
        summary = replace(
            majority(v, chosen),
            accuracy=m.accuracy,
            columns={"skill": m.skill, "weight": m.weight},
        )
        _warn_unskilled(data, v, m.skill, m.diverged)
        n_iterations, converged = m.n_iterations, m.converged
    result = Fit(
        posterior=probabilities,
        params={},
        log_likelihood=np.full(v.n_groups, np.nan),
        n_iterations=n_iterations,
        converged=converged,
    )
    return probabilities, chosen, summary, result


def nan_annotators(data: RatingData, v: Votes, values: FloatArray) -> tuple[int, str]:
    """How many annotators who rated something have a nan in ``values`` (per key), and
    the first few of their names, joined."""
    rated = np.bincount(v.key, minlength=v.n_keys) > 0
    lost = np.flatnonzero(rated & np.isnan(values))
    return len(lost), ", ".join(str(n) for n in key_index(data, lost[:3])) if len(lost) else ""


def _warn_undefined(
    data: RatingData, v: Votes, values: FloatArray, method: str, name: str
) -> None:
    """KOS: the annotators whose reliability is nan (their group's messages vanish or cancel,
    e.g. no item rated by two annotators who rated other items too)."""
    n, names = nan_annotators(data, v, values)
    if n:
        warn(
            f"consensus(method={method!r}): the `{name}` of {n} annotator(s) is nan, e.g. "
            f"{names}: the messages of their group vanish or cancel (too few items shared "
            "between its annotators for KOS to weigh them), so its labels are little better "
            "than ties; majority vote or more shared items tell more.",
            UndefinedStatisticWarning,
        )


def _warn_unskilled(data: RatingData, v: Votes, skill: FloatArray, diverged: np.ndarray) -> None:
    """M-MSR: the annotators it cannot place (no item shared, or one category), and the
    groups whose fit ran off."""
    off = diverged[v.key_group]
    if diverged.any():
        n, names = nan_annotators(data, v, np.where(off, np.nan, 0.0))
        groups = data.enc.groups
        where = "" if groups is None else f" in {int(diverged.sum())} `by` group(s)"
        warn(
            f"consensus(method='mmsr'): the rank-one fit of the annotators' agreements ran "
            f"off{where} (one annotator's factor growing without bound as another's shrinks: "
            f"their shared items leave the skills undetermined), so the `skill` and "
            f"`accuracy` of {n} annotator(s) are nan, e.g. {names}, and their labels carry "
            "no weight; more items shared between them, or majority vote, tell more.",
            UndefinedStatisticWarning,
        )
    n, names = nan_annotators(data, v, np.where(off, 0.0, skill))
    if n:
        warn(
            f"consensus(method='mmsr'): {n} annotator(s) share no item with another "
            f"annotator (or their group has one category), e.g. {names}; their "
            "`skill` and `accuracy` are nan and their labels carry no weight.",
            UndefinedStatisticWarning,
        )
