"""When EM has converged: each group's largest change in an iteration and the change to come.

The change of an iteration is the largest absolute change of any of the group's posterior
probabilities ``T_ik`` and parameters (confusion probabilities and priors; GLAD's abilities
and log inverse difficulties; MACE's trust and strategies): the posteriors are what the
labels, the probabilities and the margins are made of.

EM converges linearly: near its fixed point each iteration's change is about ``r`` times the
previous one, ``r`` the rate (the fraction of information the missing categories hold;
Dempster, Laird & Rubin 1977), so what is left to move after a change ``d`` is about
``d r / (1 - r)``, the rest of a geometric series (the bound behind Aitken's acceleration).
``r`` close to 1 is common: 0.98 for MACE on the Duck Identification data, 0.99 for
Dawid-Skene on 100 items rated by about three annotators, 0.999 for the one-coin model with
an annotator who is never wrong; at 0.99 a change of ``1e-6`` leaves ``1e-4`` to move. So a
group has converged when its last change and the change still to come, with ``r`` estimated
by the ratio of its last two changes, are both below ``tol`` (or the last change is exactly
zero, or at the rounding of the values, :data:`ROUNDING`, and no smaller than the one
before: floating-point iterates can end stepping back and forth by a unit in the last
place, with the ratio 1, where the change to come would never fall). At ``r`` = 0.999 that
takes thousands of iterations; a fit that has not converged after ``max_iterations`` says
so (``converged`` False and a ConvergenceWarning).

Why not the gain of the log-likelihood: near its maximum the log-likelihood is flat, its
gain per iteration of the order of the square of the change, so a gain below ``1e-6`` per
annotation still leaves posteriors that move by ``1e-3`` per iteration (Dawid-Skene on the
Duck Identification data, stopped after 8 iterations) and, where ``r`` is near 1, 0.15 from
the fit's (100 items rated by about three annotators, stopped after 49 iterations).
"""

from __future__ import annotations

import numpy as np

from .._typing import BoolArray, FloatArray, IntArray
from ._votes import Votes

__all__ = ["Convergence", "Params", "owned"]

Params = dict[str, FloatArray]
"""A model's parameters by name."""
ROUNDING = 1e-14
"""A change this small that did not shrink is the rounding of the values (about 50 units in
the last place of 1): iterates that step back and forth by a unit or two in the last place
have converged."""
COLUMN_LOOP = 32
"""Up to this many values per entry, their maximum is taken column by column."""


def owned(v: Votes, owner: str) -> IntArray:
    """The group of each entry of a parameter owned by groups, keys or items."""
    if owner == "group":
        return np.arange(v.n_groups, dtype=np.int64)
    if owner == "key":
        return v.key_group
    return v.group


def _row_max(change: FloatArray) -> FloatArray:
    """The largest value of each entry of the first axis (a loop over the few trailing
    columns, where numpy's reduction along a short axis is slow)."""
    if change.ndim == 1:
        return change
    rows = change.reshape(len(change), -1)
    if rows.shape[1] > COLUMN_LOOP:
        out: FloatArray = rows.max(axis=1)
        return out
    out = rows[:, 0].copy()
    for j in range(1, rows.shape[1]):
        np.maximum(out, rows[:, j], out=out)
    return out


def _group_max(group: IntArray, n_groups: int, values: FloatArray) -> FloatArray:
    """The largest of ``values`` per group, ``group`` each one's (0 for a group without
    entries; nan where one is nan): one ``np.maximum.at`` (in NumPy 2 several times faster
    than sorting the entries by group and ``np.maximum.reduceat``: 0.26 ms against 1.6 ms
    for 200,000 entries in 100,000 groups)."""
    out = np.zeros(n_groups)
    with np.errstate(invalid="ignore"):  # a nan change is kept (nan), not warned about
        np.maximum.at(out, group, values)
    return out


class Convergence:
    """Tracks each group's changes across iterations; :meth:`settled` says which groups have
    converged."""

    def __init__(self, v: Votes, owner: dict[str, str], tol: float) -> None:
        self.v, self.owner, self.tol = v, owner, tol
        self.last = np.full(v.n_groups, np.inf)

    def restrict(self, v: Votes, keep: BoolArray) -> Convergence:
        """The same tracking for the groups ``keep`` only, ``v`` their votes."""
        out = Convergence(v, self.owner, self.tol)
        out.last = self.last[keep]
        return out

    def _largest(self, kind: str, change: FloatArray) -> FloatArray:
        """Per group, the largest of ``change`` (its first axis owned by ``kind``); nan if
        any is nan."""
        if self.v.n_groups == 1:
            return np.array([change.max(initial=0.0)])
        return _group_max(owned(self.v, kind), self.v.n_groups, _row_max(change))

    def change(
        self, now: tuple[FloatArray, Params], before: tuple[FloatArray, Params]
    ) -> FloatArray:
        """Per group, the largest absolute change of a posterior or a parameter."""
        post, params = now
        old_post, old_params = before
        # per entry first, the parameters of one owner together: one reduction per owner
        entry = {"item": _row_max(np.abs(post - old_post))}
        for name, value in params.items():
            step = _row_max(np.abs(value - old_params[name]))
            kind = self.owner[name]
            entry[kind] = np.maximum(entry[kind], step) if kind in entry else step
        out = np.zeros(self.v.n_groups)
        for kind, step in entry.items():
            out = np.maximum(out, self._largest(kind, step))
        return out

    def settled(
        self, now: tuple[FloatArray, Params], before: tuple[FloatArray, Params], active: BoolArray
    ) -> BoolArray:
        """Per group: converged (last change and change to come below ``tol``). Remembers
        the active groups' changes for the next call."""
        change = self.change(now, before)
        with np.errstate(divide="ignore", invalid="ignore"):
            rate = change / self.last
            to_come = np.where(rate < 1.0, change * rate / (1.0 - rate), np.inf)
        stuck = (change <= ROUNDING) & ~(rate < 1.0)  # back and forth in the last place
        done: BoolArray = (change == 0.0) | stuck | (np.maximum(change, to_come) < self.tol)
        self.last = np.where(active, change, self.last)
        return done
