"""GLAD's M-step and E-step sums over all ``by=`` groups at once, in kept work arrays and
with sparse sums.

The arithmetic is :mod:`._glad`'s as it was (the same operations in the same order, so the
same numbers to the last bit); what changes is where it happens. Each pass over the
annotations writes into an array that is already there (new arrays of this size cost
more, in page faults, than the arithmetic), the sums over each annotator's (item's)
annotations are products with a sparse matrix whose rows list them in their order (the
order ``np.bincount`` adds them in), and the E-step sums each item's table of ``log P(label
| k)`` itself, so that the EM loop reads (items, K) sums instead of an (annotations, K)
table. With ``x_a = alpha_j beta_i``, ``L_a = log(1 + exp(-|x_a|))`` and the terms of
``Q`` (:mod:`._glad`)

    q_a log sigma(x_a) + (1 - q_a)(log sigma(-x_a) - log(K - 1))
        = -(q_a (max(-x_a, 0) + L_a) + (1 - q_a)(max(x_a, 0) + L_a + log(K - 1))),

the bracket is what a point keeps (its negation is exact), and ``max(-x, 0) = max(x, 0) -
x`` exactly.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._lazy import scipy_sparse as sp
from .._lazy import scipy_special as special
from .._typing import BoolArray, FloatArray, IntArray, as_float
from ._votes import Votes

__all__ = ["HALVINGS", "PRIOR_MEAN", "Layout", "item_log_labels", "layout", "maximise"]

HALVINGS = 30
PRIOR_MEAN = 1.0


def _sums(owner: IntArray, size: int) -> Any:
    """The sparse (size, annotations) matrix whose row ``o`` adds the annotations of owner
    ``o`` in their order (so a product with it adds what ``np.bincount`` adds, alike)."""
    n = len(owner)
    indptr = np.zeros(size + 1, dtype=np.int64)
    np.cumsum(np.bincount(owner, minlength=size), out=indptr[1:])
    order = np.argsort(owner, kind="stable")
    return sp.csr_matrix((np.ones(n), order, indptr), shape=(size, n))


@dataclass(frozen=True, eq=False)
class Layout:
    """What GLAD's steps read of a set of votes, built once per set: the sums per key and
    per item; per annotation ``log(K - 1)`` (at least ``log 1``) and the flat position of
    its (item, label) in an (items, K) array and of its label in an (annotations, K) one.
    Its :attr:`work` arrays are held for one set of votes at a time."""

    by_key: Any
    by_item: Any
    log_k1: FloatArray
    label_cell: IntArray
    own_label: IntArray
    n_categories: int

    @property
    def work(self) -> list[FloatArray]:
        """Work arrays, one value per annotation, and last the (annotations, K) table of
        the E-step, so that each pass writes into memory that is already there. Only the
        set of votes used last holds them (the EM loop works on one at a time: the groups
        still running): using another set frees them and makes its own (a step under way
        keeps the arrays it took)."""
        held = _HELD.get("work")
        if held is not None and held[0]() is self:
            out: list[FloatArray] = held[1]
            return out
        _HELD.clear()  # free the other set's arrays before making these
        n = len(self.log_k1)
        out = [np.empty(n) for _ in range(_WORK)] + [np.empty((n, self.n_categories))]
        _HELD["work"] = (weakref.ref(self, _release), out)
        return out


def _release(ref: Any) -> None:
    """A layout is gone: free its work arrays if they are the ones held."""
    held = _HELD.get("work")
    if held is not None and held[0] is ref:
        _HELD.clear()


_LAYOUTS: weakref.WeakKeyDictionary[Votes, Layout] = weakref.WeakKeyDictionary()
_HELD: dict[str, tuple[Any, list[FloatArray]]] = {}
_WORK = 10  # a point (x, negated terms), a trial point, four scratch arrays, q, 1 - q


def layout(v: Votes) -> Layout:
    """The :class:`Layout` of ``v`` (kept while ``v`` lives)."""
    found = _LAYOUTS.get(v)
    if found is not None:
        return found
    n_allowed = v.n_allowed[v.group[v.item]]
    n = len(v.item)
    out = Layout(
        by_key=_sums(v.key, v.n_keys),
        by_item=_sums(v.item, v.n_items),
        log_k1=np.log(np.maximum(n_allowed - 1.0, 1.0)),
        label_cell=v.item * v.n_categories + v.code,
        own_label=np.arange(n) * v.n_categories + v.code,
        n_categories=v.n_categories,
    )
    _LAYOUTS[v] = out
    return out


def item_log_labels(v: Votes, alpha: FloatArray, b: FloatArray) -> FloatArray:
    """Per item and category ``k``, the sum over the item's annotations of ``log P(label |
    k)`` (n_items, K): ``log sigma(x)`` where the label is ``k`` and ``log sigma(-x) -
    log(K - 1)`` elsewhere, with ``x = alpha_j beta_i``, ``log sigma(+-x) = -(max(-+x, 0) +
    L)``, ``L = log(1 + exp(-|x|))`` and ``max(-x, 0) = max(x, 0) - x``. Each item's
    annotations are added in their order, as the EM loop adds a per-annotation table; the
    table holds the negated terms (the negation of a sum is the sum of the negations)."""
    lay = layout(v)
    work = lay.work
    x, shared, positive = work[4:7]
    np.take(alpha, v.key, out=x, mode="clip")  # clip: no buffered copy (the keys are valid)
    x *= np.take(np.exp(b), v.item, out=shared, mode="clip")
    np.copysign(x, -1.0, out=shared)  # -|x|
    np.exp(shared, out=shared)
    np.log1p(shared, out=shared)
    np.maximum(x, 0.0, out=positive)
    right = np.subtract(positive, x, out=x)  # max(-x, 0): -log sigma(x) = it + L
    right += shared
    positive += shared  # -log sigma(-x) + log(K - 1)
    positive += lay.log_k1
    table = work[_WORK]
    table[:] = positive[:, None]
    table.ravel()[lay.own_label] = right
    out = as_float(lay.by_item @ table)
    return np.negative(out, out=out)


class _Point:
    """Per annotation, at the current abilities and difficulties: ``x = alpha_j beta_i`` and
    the annotation's term of ``Q``, negated, in work arrays that the next point may
    overwrite."""

    __slots__ = ("loss", "x")

    def __init__(self, x: FloatArray, loss: FloatArray) -> None:
        self.x, self.loss = x, loss


class _Data:
    """One M-step's inputs: ``q`` and ``1 - q`` per annotation, and the work arrays: the
    current point, a trial point and scratch."""

    def __init__(self, v: Votes, posterior: FloatArray) -> None:
        lay = layout(v)
        self.v, self.lay = v, lay
        work = lay.work
        self.q = np.take(posterior, lay.label_cell, out=work[8], mode="clip")
        self.wrong = np.subtract(1.0, self.q, out=work[9])
        self.now, self.trial = _Point(*work[0:2]), _Point(*work[2:4])
        self.scratch = work[4:8]

    def evaluate(self, at: _Point) -> None:
        """The negated ``Q`` terms at ``at.x``, into ``at``."""
        shared, positive = self.scratch[:2]
        np.copysign(at.x, -1.0, out=shared)  # -|x|, in one pass
        np.exp(shared, out=shared)
        np.log1p(shared, out=shared)
        np.maximum(at.x, 0.0, out=positive)
        loss = np.subtract(positive, at.x, out=at.loss)  # max(-x, 0)
        loss += shared
        loss *= self.q
        positive += shared
        positive += self.lay.log_k1
        positive *= self.wrong
        loss += positive

    def accept(self, taken: BoolArray | None) -> None:
        """The trial point becomes the current one for the annotations ``taken`` (None:
        all)."""
        if taken is None or taken.all():
            self.now, self.trial = self.trial, self.now
            return
        for name in _Point.__slots__:
            np.copyto(getattr(self.now, name), getattr(self.trial, name), where=taken)


class _Block:
    """The abilities given the difficulties (``by_key``), or the log-difficulties given the
    abilities: ``Q``'s part that belongs to each coordinate, its slope and curvature."""

    def __init__(self, data: _Data, other: FloatArray, by_key: bool) -> None:
        v = data.v
        self.data, self.by_key = data, by_key
        self.owner = v.key if by_key else v.item
        self.sums = data.lay.by_key if by_key else data.lay.by_item
        # The per-annotation factor of the fixed block: beta_i, or alpha_j.
        self.fixed = data.scratch[3]
        source, index = (np.exp(other), v.item) if by_key else (other, v.key)
        np.take(source, index, out=self.fixed, mode="clip")

    def move(self, value: FloatArray) -> None:
        """The trial point's ``x`` and terms at ``value``."""
        x = self.data.trial.x
        np.take(value if self.by_key else np.exp(value), self.owner, out=x, mode="clip")
        x *= self.fixed
        self.data.evaluate(self.data.trial)

    def part(self, value: FloatArray, at: _Point) -> FloatArray:
        """``Q``'s part of each coordinate at ``value`` (``at``: its point)."""
        out = -as_float(self.sums @ at.loss)
        return out - 0.5 * (value - PRIOR_MEAN) ** 2

    def slope(self, value: FloatArray) -> tuple[FloatArray, FloatArray]:
        """The gradient and the (negated, positive) curvature at ``value`` (the current
        point)."""
        at, (p, residual, weight) = self.data.now, self.data.scratch[:3]
        special.expit(at.x, out=p)
        np.subtract(self.data.q, p, out=residual)
        np.subtract(1.0, p, out=weight)
        weight *= p
        # d x / d value: beta for an ability, x for a log-difficulty.
        dx = self.fixed if self.by_key else at.x
        residual *= dx
        weight *= dx
        weight *= dx
        g = as_float(self.sums @ residual)
        h = as_float(self.sums @ weight)
        if not self.by_key:  # the second-derivative term of x in b; keep the step an ascent
            h = h + np.abs(g)
        return g - (value - PRIOR_MEAN), h + 1.0


def _newton(block: _Block, value: FloatArray) -> FloatArray:
    """One safeguarded Newton step on each coordinate of ``value``: halve each coordinate's
    step until its own part of ``Q`` does not fall. The new values (the current point moves
    to them)."""
    data = block.data
    gradient, curvature = block.slope(value)
    step = gradient / curvature
    before = block.part(value, data.now)
    floor = before - 1e-12 * np.abs(before)
    out = value
    pending: BoolArray | None = None  # None: every coordinate (the first trial)
    for _ in range(HALVINGS):
        trial = value + step if pending is None else np.where(pending, value + step, out)
        block.move(trial)
        better = block.part(trial, data.trial) >= floor
        accept = better if pending is None else pending & better
        if accept.all():
            out = trial
            data.accept(None)
        else:
            out = np.where(accept, trial, out)
            data.accept(accept[block.owner])
        pending = ~better if pending is None else pending & ~better
        if not pending.any():
            break
        step = step / 2.0
    return out


def maximise(
    v: Votes, posterior: FloatArray, alpha: FloatArray, b: FloatArray, sweeps: int
) -> tuple[FloatArray, FloatArray]:
    """``sweeps`` alternating Newton steps (abilities, then log-difficulties) from
    (``alpha``, ``b``) on ``Q`` given the posteriors."""
    data = _Data(v, posterior)
    np.take(alpha, v.key, out=data.now.x, mode="clip")
    data.now.x *= np.take(np.exp(b), v.item, out=data.scratch[0], mode="clip")
    data.evaluate(data.now)
    for _ in range(sweeps):
        alpha = _newton(_Block(data, b, by_key=True), alpha)
        b = _newton(_Block(data, alpha, by_key=False), b)
    return alpha, b
