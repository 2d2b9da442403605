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

The norms, the step length and the choice are each group's own (the parameters a group
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

__all__ = ["STEP_FACTOR", "Accelerated", "extrapolate", "first_limit"]

STEP_FACTOR = 4.0
"""A model may bound the step length (:func:`first_limit`): each group's bound is then
multiplied by this factor at each cycle whose step reaches it and divided by it (to no less
than 1) where a step that long lowered the objective: the ``mstep = 4`` of Varadhan's
SQUAREM package for R."""


def first_limit(model: object) -> float:
    """The largest ``|alpha|`` of a group's first cycle: the model's ``step_limit`` (MACE:
    1, the package's ``step.max0``), else none."""
    return float(getattr(model, "step_limit", np.inf))


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


def _group_sum(v: Votes, owner: dict[str, str], squares: Params) -> FloatArray:
    """Per group, the sum of every entry of ``squares`` the group owns."""
    out = np.zeros(v.n_groups)
    for name, value in squares.items():
        per_entry = row_sum(value.reshape(len(value), -1)) if value.ndim > 1 else value
        out += np.bincount(owned(v, owner[name]), weights=per_entry, minlength=v.n_groups)
    return out


def extrapolate(
    v: Votes, owner: dict[str, str], cycle: list[Params], longest: FloatArray
) -> tuple[Params, FloatArray, BoolArray]:
    """The extrapolated free parameters from the cycle's three iterates (free scale), and
    each group's step length ``alpha`` (``-1``: ``theta_2``, nothing extrapolated)."""
    start, first, second = cycle
    r = {name: first[name] - start[name] for name in start}
    w = {name: second[name] - 2.0 * first[name] + start[name] for name in start}
    rr = _group_sum(v, owner, {name: value * value for name, value in r.items()})
    ww = _group_sum(v, owner, {name: value * value for name, value in w.items()})
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha = -np.sqrt(rr / ww)
    alpha = np.where(np.isfinite(alpha), np.minimum(alpha, -1.0), -1.0)
    capped = alpha <= -longest
    alpha = np.maximum(alpha, -longest)
    out = {}
    for name, value in start.items():
        a = alpha[owned(v, owner[name])]
        if value.ndim > 1:  # repeated per entry: numpy broadcasts slowly along short axes
            a = np.repeat(a, value[0].size).reshape(value.shape)
        out[name] = value - 2.0 * a * r[name] + a * a * w[name]
    return out, alpha, capped
