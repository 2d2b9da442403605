"""The EM loop every consensus model shares, run over all ``by=`` groups at once.

A model (:class:`Model`) gives its starting parameters, the log-probability of each
annotation's label under each true category given the parameters (the E-step's input), the
parameters that maximise the expected complete-data log-likelihood (plus the log-density of
its priors or smoothing) given the posteriors (the M-step). The loop alternates the two steps;
each group stops on its own when its posteriors and parameters have settled (their largest
change in an iteration, and the change still to come, below ``tol``: :mod:`._convergence`),
its parameters frozen from then on, so a group's fit equals its fit alone. Known labels
(``gold=``) fix their items' posteriors to the known category. Models with a free scale and
a penalty (GLAD, MACE) run in SQUAREM cycles (:mod:`._squarem`), each group on its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from .._kernels.rows import row_all, row_max, row_sum
from .._typing import BoolArray, FloatArray, IntArray, as_float
from ._convergence import Convergence, Params, owned
from ._majority import shares
from ._squarem import STEP_FACTOR, Accelerated, extrapolate, first_limit, key_steps
from ._votes import Votes

__all__ = ["FLOOR", "Diagonal", "Fit", "Model", "Params", "e_step", "posterior", "run"]

FLOOR = 1e-10
"""Probabilities are floored here before their logarithm is taken, so that one unseen
(annotator, category, label) does not rule a category out for good."""


class Model(Protocol):
    """What the EM loop needs of a model. ``owner`` says, per parameter, whether it belongs
    to a ``"group"``, a (group, annotator) ``"key"`` or an ``"item"`` (to freeze it with its
    group)."""

    owner: dict[str, str]

    def start(self, v: Votes) -> Params: ...

    def log_label(self, v: Votes, params: Params) -> tuple[FloatArray, FloatArray, bool | str]:
        """The log prior of each category per group (G, K); ``log P(label | category k)``,
        either per (key, label) as a (keys * K, K) table (third item True: the model's
        probabilities depend on the annotator and the label only), per annotation (A, K)
        (False), or already summed over each item's annotations (n_items, K) (``"item"``)."""
        ...

    def m_step(self, v: Votes, posterior: FloatArray, params: Params) -> Params: ...


@runtime_checkable
class Diagonal(Protocol):
    """A model whose ``log P(label l | category k)`` per annotator takes one value where
    ``l = k`` and one other for every ``k != l`` (MACE): its E-step sums one value per
    annotation (:func:`diagonal_posterior`) instead of a row of ``K``."""

    def log_diagonal(self, v: Votes, params: Params) -> tuple[FloatArray, FloatArray, FloatArray]:
        """The log prior of each category per item (n_items, K), and per (key, label)
        (keys, K) ``log P(l | k)`` for ``k != l`` and for ``k = l``: the last two new
        arrays at each call (:func:`diagonal_posterior` writes over them)."""
        ...


@dataclass(frozen=True, eq=False)
class Fit:
    """What the EM leaves: posteriors (n_items, K), the parameters, and per group the
    log-likelihood, iterations and whether it converged."""

    posterior: FloatArray
    params: Params
    log_likelihood: FloatArray
    n_iterations: IntArray
    converged: BoolArray


def posterior(
    v: Votes, log_prior: FloatArray, contribution: FloatArray, by_label: bool | str
) -> tuple[FloatArray, FloatArray]:
    """The posteriors ``T_ik`` proportional to ``p_k prod_a P(l_a | k)`` over item ``i``'s
    annotations, and each group's marginal log-likelihood; known items are certain."""
    k = v.n_categories
    if by_label == "item":  # the model summed them (a new array, added to in place)
        summed = contribution
    elif by_label:  # one sparse product: each item's sum over its (key, label) pairs
        summed = np.asarray(v.incidence @ contribution)
    else:
        key = (v.item[:, None] * k + np.arange(k)).ravel()
        flat = np.bincount(key, weights=contribution.ravel(), minlength=v.n_items * k)
        summed = as_float(flat.reshape(v.n_items, k))
    joint = summed
    joint += log_prior[v.group] if v.n_groups > 1 else log_prior
    top = row_max(joint)
    post = joint - top[:, None]
    np.exp(post, out=post)
    scale = row_sum(post)
    post /= scale[:, None]
    return post, _known_and_total(v, joint, post, top + np.log(scale))


def _known_and_total(
    v: Votes, joint: FloatArray, post: FloatArray, log_total: FloatArray
) -> FloatArray:
    """Each group's log-likelihood from its items' ``log_total``, after setting the items
    with a known label (semi-supervised: that label is certain) in ``post`` and there."""
    known = v.gold >= 0
    if known.any():
        rows = np.flatnonzero(known)
        log_total[rows] = joint[rows, v.gold[rows]]
        post[rows] = 0.0
        post[rows, v.gold[rows]] = 1.0
    log_total = np.where(v.counted, log_total, 0.0)
    return as_float(np.bincount(v.group, weights=log_total, minlength=v.n_groups))


def diagonal_posterior(
    v: Votes, log_prior: FloatArray, log_off: FloatArray, log_on: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """As :func:`posterior`, for a :class:`Diagonal` model: item ``i``'s joint for category
    ``k`` is the sum of ``log_off`` over its annotations (the same for every ``k``: it
    cancels in the posteriors) plus ``log_on - log_off`` over those with label ``k``; the
    first sum enters each group's log-likelihood as one sum over its keys' labels. The
    model's ``log_off`` and ``log_on`` are overwritten (made for this call)."""
    k = v.n_categories
    gain = np.subtract(log_on, log_off, out=log_on).ravel()  # the model's arrays, in place
    flat = np.bincount(v.item_label, weights=gain[v.key_label], minlength=v.n_items * k)
    joint = as_float(flat).reshape(v.n_items, k)
    joint += log_prior
    top = row_max(joint)
    post = joint.ravel() - np.repeat(top, k)  # flat: no broadcasting along a short axis
    if v.restricted:  # exp(-inf) takes numpy's slow path: exp(-700), then 0 where -inf
        np.maximum(post, -700.0, out=post)
        np.exp(post, out=post)
        post *= v.item_allowed.ravel()
    else:
        np.exp(post, out=post)
    post = post.reshape(v.n_items, k)
    scale = row_sum(post)
    post.ravel()[:] /= np.repeat(scale, k)
    total = _known_and_total(v, joint, post, top + np.log(scale))
    base = row_sum(np.multiply(log_off, v.per_label, out=log_off))  # per key, its labels
    total += np.bincount(v.key_group, weights=base, minlength=v.n_groups)
    return post, total


def e_step(v: Votes, model: Model | Accelerated, params: Params) -> tuple[FloatArray, FloatArray]:
    """The posteriors of ``params`` and each group's marginal log-likelihood."""
    if isinstance(model, Diagonal):
        return diagonal_posterior(v, *model.log_diagonal(v, params))
    return posterior(v, *model.log_label(v, params))


def start_posterior(v: Votes) -> FloatArray:
    """The vote shares (zeros for an item without votes; known items certain): the starting
    posteriors, as Dawid & Skene start from the observed proportions."""
    out: FloatArray = np.nan_to_num(shares(v))
    return out


COMPACT = 0.95
"""The votes are cut down to the active groups once these are at most this share of the
groups of the current copy (cutting costs less than one E- and M-step over them)."""


class _Active:
    """The groups still running, as a compacted copy of the votes: when at most
    :data:`COMPACT` of the current copy's groups are still active, the copy is cut down to
    them (their items, keys and parameters), so that an iteration costs the active groups'
    annotations. What the finished groups leave is written to the full-size results first."""

    def __init__(self, v: Votes, model: Model, params: Params) -> None:
        self.model = model
        self.v = v
        self.groups = np.arange(v.n_groups, dtype=np.int64)
        self.items = np.arange(v.n_items, dtype=np.int64)
        self.keys = np.arange(v.n_keys, dtype=np.int64)
        self.post = np.zeros((v.n_items, v.n_categories))
        self.params = {name: value.copy() for name, value in params.items()}
        self.log_likelihood = np.zeros(v.n_groups)

    def _index(self, name: str) -> IntArray:
        owner = self.model.owner[name]
        return self.groups if owner == "group" else self.keys if owner == "key" else self.items

    def keep(self, post: FloatArray, params: Params, log_likelihood: FloatArray) -> None:
        """Write the current copy's posteriors, parameters and log-likelihoods back."""
        self.post[self.items] = post
        for name, value in params.items():
            self.params[name][self._index(name)] = value
        self.log_likelihood[self.groups] = log_likelihood

    def restrict(self, keep: BoolArray, *params: Params) -> tuple[IntArray, list[Params]]:
        """Cut the copy down to the groups ``keep``; their parameters (each set given), and
        the rows of the items they keep (to cut the posteriors)."""
        sub, items, keys = self.v.restrict(keep)
        kept = {"group": np.flatnonzero(keep), "key": keys, "item": items}
        self.v = sub
        self.groups, self.items = self.groups[keep], self.items.take(items)
        self.keys = self.keys.take(keys)
        out = [
            {name: value.take(kept[self.model.owner[name]], axis=0) for name, value in one.items()}
            for one in params
        ]
        return items, out


def _keep_rows(rows: BoolArray, new: FloatArray, old: FloatArray) -> FloatArray:
    """``new`` in the rows (first axis) ``rows``, ``old`` in the others: one flat ``where``
    (NumPy broadcasts a (n, 1) mask slowly along a short trailing axis)."""
    if new.ndim == 1:
        return np.where(rows, new, old)
    flat = np.where(np.repeat(rows, new[0].size), new.ravel(), old.ravel())
    return flat.reshape(new.shape)


def _jump(
    v: Votes,
    model: Accelerated,
    cycle: list[Params],
    now: tuple[FloatArray, Params, FloatArray],
    active: BoolArray,
    longest: FloatArray,
) -> tuple[FloatArray, Params, BoolArray]:
    """The SQUAREM jump at the end of a cycle's two EM steps (``now``: posteriors,
    parameters and log-likelihoods after them): per active group, the extrapolated
    parameters and their posteriors where these are finite and the penalised
    log-likelihood is no lower than after the two steps, else ``now``'s; and which groups
    jumped."""
    post, params, log_likelihood = now
    free, alpha, capped = extrapolate(v, model.owner, cycle, longest, per_key=key_steps(model))
    take = active & (alpha < -1.0)
    if not take.any():
        longest[capped & active] *= STEP_FACTOR
        return post, params, take
    with np.errstate(all="ignore"):
        trial = model.bound(v, free)
        trial_post, trial_log_likelihood = e_step(v, model, trial)
        gain = trial_log_likelihood + model.penalty(v, trial)
        gain -= log_likelihood + model.penalty(v, params)
    # row by row, not numpy's `all` along a short axis (several times slower)
    finite = row_all(np.isfinite(trial_post))
    bad = np.bincount(v.group, weights=~finite, minlength=v.n_groups)
    for name, value in trial.items():
        finite = row_all(np.isfinite(value.reshape(len(value), -1)))
        bad += np.bincount(owned(v, model.owner[name]), weights=~finite, minlength=v.n_groups)
    ok = (gain >= 0.0) & (bad == 0)
    grow = capped & active & (ok | (alpha >= -1.0))
    shrink = capped & take & ~ok
    take &= ok
    longest[grow] *= STEP_FACTOR
    longest[shrink] = np.maximum(longest[shrink] / STEP_FACTOR, 1.0)
    out = {
        name: _keep_rows(take[owned(v, model.owner[name])], value, old)
        for (name, value), old in zip(trial.items(), params.values(), strict=True)
    }
    return _keep_rows(take[v.group], trial_post, post), out, take


def run(v: Votes, model: Model, *, max_iterations: int, tol: float) -> Fit:
    """Fit ``model`` by EM, every group on its own.

    Each step is an E-step (posteriors of the current parameters) then, for the groups still
    active, an M-step; a group stops when, at an E-step, its largest change of a posterior or
    a parameter since the previous one, and the change still to come estimated from the last
    two, are below ``tol`` (:class:`~._convergence.Convergence`), so its posteriors are those
    of the parameters returned. ``n_iterations`` counts the M-steps; a group still active
    after ``max_iterations`` of them has not converged. The log-likelihood is reported, not
    used to stop. The steps run on the groups still active only (:class:`_Active`): a
    finished group's parameters are frozen, so its posteriors would not change.

    A model with a free scale and a penalty (:class:`~._squarem.Accelerated`) runs in
    SQUAREM cycles (:mod:`._squarem`): every third step, after two EM steps, each group's
    parameters jump to the extrapolated point (if its penalised log-likelihood is no lower
    than after the two steps) before the M-step. Each step is still one M-step (a cycle is
    three, all counted in ``n_iterations``), and a group stops, by the same rule, only where
    its last two changes are those of two EM steps in a row: not at the first E-step after a
    jump (its change is one EM step, the one before was the jump)."""
    params = model.start(v)
    state = _Active(v, model, params)
    active = np.ones(v.n_groups, dtype=bool)
    converged = np.zeros(v.n_groups, dtype=bool)
    n_iterations = np.zeros(v.n_groups, dtype=np.int64)
    watch = Convergence(v, model.owner, tol)
    before: tuple[FloatArray, Params] | None = None
    accelerated = model if isinstance(model, Accelerated) else None
    cycle: list[Params] = []  # the cycle's EM iterates so far, on the free scale
    jumped = np.zeros(v.n_groups, dtype=bool)
    longest = np.full(v.n_groups, first_limit(model))  # per group
    for step in range(max_iterations + 1):
        sub = state.v
        post, log_likelihood = e_step(sub, model, params)
        if before is not None:
            done = active & ~jumped & watch.settled((post, params), before, active)
            converged[state.groups[done]] = True
            active &= ~done
        n_active = int(active.sum())
        if step == max_iterations or not n_active:
            break
        if n_active <= COMPACT * sub.n_groups:
            state.keep(post, params, log_likelihood)
            item_kept, (params, *cycle) = state.restrict(active, params, *cycle)
            post, log_likelihood = post.take(item_kept, axis=0), log_likelihood[active]
            longest = longest[active]
            watch = watch.restrict(state.v, active)
            active = np.ones(n_active, dtype=bool)
            sub = state.v
        jumped = np.zeros(sub.n_groups, dtype=bool)
        if accelerated is not None:
            cycle.append(accelerated.free(sub, params))
            if len(cycle) == 3:
                now = (post, params, log_likelihood)
                post, params, jumped = _jump(sub, accelerated, cycle, now, active, longest)
                cycle = []
        before = (post, params)
        new = model.m_step(sub, post, params)
        if n_active == sub.n_groups:  # nothing to freeze
            params = new
            n_iterations[state.groups] += 1
            continue
        params = {
            name: _keep_rows(active[owned(sub, model.owner[name])], value, old)
            for (name, value), old in zip(new.items(), params.values(), strict=True)
        }
        n_iterations[state.groups] += active
    state.keep(post, params, log_likelihood)
    return Fit(state.post, state.params, state.log_likelihood, n_iterations, converged)
