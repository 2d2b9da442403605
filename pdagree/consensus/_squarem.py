"""SQUAREM: the squared extrapolation that accelerates EM, each ``by=`` group on its own.

Varadhan & Roland (2008, "Simple and globally convergent methods for accelerating the
convergence of any EM algorithm", Scand. J. Statist. 35, 335-353): from ``theta_0``, two EM
steps give ``theta_1 = F(theta_0)`` and ``theta_2 = F(theta_1)``; with ``r = theta_1 -
theta_0`` and ``v = theta_2 - 2 theta_1 + theta_0``, the extrapolated point is

    theta' = theta_0 - 2 alpha r + alpha^2 v,

which for ``alpha = -1`` is ``theta_2`` itself. The step length is their third scheme (S3),
``alpha = -||r|| / ||v||``, here taken no larger than ``-1`` so that the point is never short
of the two EM steps. The cycle ends with one EM step from ``theta'`` (their stabilisation),
which starts the next cycle. Where ``theta'`` has a lower penalised log-likelihood than
``theta_2`` (or leaves the parameter space, or is not finite) the cycle keeps ``theta_2``
instead: plain EM, so each cycle does at least as well as two EM steps, and the fixed points
are EM's.

A model may also bound the step length as Varadhan's SQUAREM package for R does
(:func:`first_limit`, :data:`STEP_FACTOR`: ``|alpha|`` at most 1 in a group's first cycle,
the bound multiplied by 4 at each cycle that reaches it and divided by 4 where a jump that
long is refused): MACE does.

A model may also take one step length per annotator (:func:`key_steps`; MACE does): each
(group, annotator) key's parameters move by the longer of its own S3 step (the norms of
its own ``r`` and ``v``) and its group's, both within the group's bound, and the bound
grows where any key's step reaches it. One step per group is dominated by the group's
fastest directions: where one annotator's trust drifts at an EM rate of 0.995 (it would
take ``alpha`` near -200) while the others' strategies still move at a rate near 0.5,
``||v||`` is the fast part's and the group's step stays near -2, or a long step is refused
because it multiplies the fast parts' error by about ``(1 + alpha / 2)^2``. The longer of
the two moves the slow annotator at its own pace without shortening any step the group
would take.

The norms, the step lengths and the choice are each group's own (the parameters a group
owns, on a scale where any real value is in the parameter space: the model's
:meth:`~Accelerated.free`), so a group's iterates equal its iterates fitted alone.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from .._kernels.rows import row_sum
from .._typing import BoolArray, FloatArray
from ._convergence import Params, owned
from ._votes import Votes

__all__ = ["STEP_FACTOR", "Accelerated", "extrapolate", "first_limit", "key_steps"]

STEP_FACTOR = 4.0
"""A model may bound the step length (:func:`first_limit`): each group's bound is then
multiplied by this factor at each cycle whose step reaches it and divided by it (to no less
than 1) where a step that long lowered the objective: the ``mstep = 4`` of Varadhan's
SQUAREM package for R."""


def first_limit(model: object) -> float:
    """The largest ``|alpha|`` of a group's first cycle: the model's ``step_limit`` (MACE:
    1, the package's ``step.max0``), else none."""
    return float(getattr(model, "step_limit", np.inf))


def key_steps(model: object) -> bool:
    """Whether the model takes one step length per (group, annotator) key, each the
    longer of the key's own and its group's (MACE), rather than one per group."""
    return bool(getattr(model, "key_steps", False))


@runtime_checkable
class Accelerated(Protocol):
    """A model whose EM the loop accelerates: its parameters on a free scale, back, and the
    log-density of its priors (the penalty EM's M-step maximises with the likelihood)."""

    owner: dict[str, str]

    def log_label(self, v: Votes, params: Params) -> tuple[FloatArray, FloatArray, bool | str]:
        """As :meth:`~._em.Model.log_label`."""
        ...

    def free(self, v: Votes, params: Params) -> Params:
        """The parameters on a scale where every real value is allowed."""
        ...

    def bound(self, v: Votes, free: Params) -> Params:
        """The parameters from their free scale (the inverse of :meth:`free`)."""
        ...

    def penalty(self, v: Votes, params: Params) -> FloatArray:
        """Per group, the log-density of the priors (or smoothing) at ``params``."""
        ...


def _per_entry(squares: FloatArray) -> FloatArray:
    """The sum of each entry's values (a row of a 2-d parameter)."""
    return row_sum(squares.reshape(len(squares), -1)) if squares.ndim > 1 else squares


def _sums(
    v: Votes, owner: dict[str, str], squares: Params, *, per_key: bool
) -> tuple[FloatArray, FloatArray]:
    """Per group, the sum of every entry of ``squares`` the group owns; with ``per_key``,
    per key the sum of the entries the key owns (of the parameters owned by keys)."""
    group, key = np.zeros(v.n_groups), np.zeros(v.n_keys if per_key else 0)
    for name, value in squares.items():
        per_entry = _per_entry(value)
        group += np.bincount(owned(v, owner[name]), weights=per_entry, minlength=v.n_groups)
        if per_key and owner[name] == "key":
            key += per_entry
    return group, key


def _s3(rr: FloatArray, vv: FloatArray) -> FloatArray:
    """S3's step length ``-||r|| / ||v||``, no shorter than ``-1`` (``-1`` where it is not
    finite: nothing moved or nothing to extrapolate)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha = -np.sqrt(rr / vv)
    out: FloatArray = np.where(np.isfinite(alpha), np.minimum(alpha, -1.0), -1.0)
    return out


def extrapolate(
    v: Votes,
    owner: dict[str, str],
    cycle: list[Params],
    longest: FloatArray,
    *,
    per_key: bool = False,
) -> tuple[Params, FloatArray, BoolArray]:
    """The extrapolated free parameters from the cycle's three iterates (free scale), each
    group's longest step length ``alpha`` (``-1``: ``theta_2``, nothing extrapolated), and
    which groups' steps reached their bound ``longest``.

    With ``per_key``, the parameters owned by a key move by the longer of the key's own
    step and its group's (the others by the group's), each within the group's bound."""
    start, first, second = cycle
    r = {name: first[name] - start[name] for name in start}
    w = {name: second[name] - 2.0 * first[name] + start[name] for name in start}
    per_key = per_key and v.n_keys > 0
    rr, key_rr = _sums(v, owner, {k: x * x for k, x in r.items()}, per_key=per_key)
    ww, key_ww = _sums(v, owner, {k: x * x for k, x in w.items()}, per_key=per_key)
    alpha = _s3(rr, ww)
    capped = alpha <= -longest
    alpha = np.maximum(alpha, -longest)
    steps = {}
    if per_key:
        bound = longest[v.key_group]
        key_alpha = np.minimum(_s3(key_rr, key_ww), alpha[v.key_group])  # the longer
        capped |= np.bincount(v.key_group, weights=key_alpha <= -bound, minlength=v.n_groups) > 0
        steps["key"] = np.maximum(key_alpha, -bound)
    out = {}
    for name, value in start.items():
        a = steps[owner[name]] if owner[name] in steps else alpha[owned(v, owner[name])]
        square = a * a  # per entry's owner, then repeated: fewer new arrays of this size
        step = 2.0 * a
        if value.ndim > 1:  # repeated per entry: numpy broadcasts slowly along short axes
            step = np.repeat(step, value[0].size).reshape(value.shape)
            square = np.repeat(square, value[0].size).reshape(value.shape)
        # value - 2 a r + a^2 w, in place (the same operations in the same order)
        step *= r[name]
        np.subtract(value, step, out=step)
        square *= w[name]
        step += square
        out[name] = step
    if per_key:  # each group's longest step
        np.minimum.at(alpha, v.key_group, steps["key"])
    return out, alpha, capped
