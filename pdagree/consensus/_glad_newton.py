"""GLAD's M-step and E-step sums over all ``by=`` groups at once, in kept work arrays and
with sparse sums.

Each pass over the annotations writes into an array that is already there (new arrays of
this size cost more, in page faults, than the arithmetic), and the sums over each
annotator's (item's) annotations are products with a sparse matrix whose rows list them in
their order (the order ``np.bincount`` adds them in, at less than half its cost).

With ``x_a = alpha_j beta_i`` and ``softplus(x) = log(1 + exp(x)) = max(x, 0) + L``,
``L = log(1 + exp(-|x|))``:

- E-step: ``log P(label | k)`` is ``log sigma(x) = -softplus(-x)`` where ``k`` is the label
  and ``log sigma(-x) - log(K - 1) = -(softplus(x) + log(K - 1))`` for every other ``k``;
  their difference is ``x + log(K - 1)`` (``softplus(x) - softplus(-x) = x``). So each item's
  sums are its annotations' ``-(softplus(x) + log(K - 1))`` for every ``k``, plus, for the
  label ``k`` of each annotation, its ``x + log(K - 1)``: one value per annotation and one
  ``np.bincount`` on (item, label), as MACE's E-step, no (annotations, K) table.
- M-step: an annotation's term of ``Q`` (:mod:`._glad`), negated and without the constant
  ``(1 - q_a) log(K - 1)``, is ``q_a softplus(-x_a) + (1 - q_a) softplus(x_a) = L_a + q_a
  max(-x_a, 0) + (1 - q_a) max(x_a, 0)`` (no cancellation: both parts are non-negative), and
  its slope in ``x`` is ``q_a - sigma(x_a)``, with ``sigma(x) = (1 + tanh(x / 2)) / 2`` and
  ``sigma(x)(1 - sigma(x)) = (1 - tanh(x / 2)^2) / 4`` (``tanh`` is a vectorised ufunc, several
  times faster than ``scipy.special.expit``). Each Newton step's terms of ``Q`` are
  evaluated only for the coordinates whose step :meth:`_Block.unsafe` cannot show to be
  uphill (on their annotations alone while they are few).
"""

from __future__ import annotations

import functools
import threading
import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._lazy import scipy_sparse as sp
from .._typing import BoolArray, FloatArray, IntArray, as_float
from ._votes import Votes

__all__ = ["HALVINGS", "PRIOR_MEAN", "Layout", "item_log_labels", "layout", "maximise"]

HALVINGS = 30
SUBSET = 0.25
"""Up to this share of a block's coordinates unsafe (:meth:`_Block.unsafe`), ``Q`` is
evaluated on their annotations only; above it, on all annotations."""
PRIOR_MEAN = 1.0


def _sums(owner: IntArray, size: int, ones: FloatArray) -> Any:
    """The sparse (size, annotations) matrix whose row ``o`` adds the annotations of owner
    ``o`` in their order (so a product with it adds what ``np.bincount`` adds, alike);
    ``ones``: its values (one per annotation, shared). 32-bit indices where they fit, as
    scipy keeps them (no conversion), and no sort where the owners are sorted already."""
    n = len(owner)
    index = np.int32 if max(n, size) < np.iinfo(np.int32).max else np.int64
    indptr = np.zeros(size + 1, dtype=index)
    np.cumsum(np.bincount(owner, minlength=size), out=indptr[1:])
    if n < 2 or bool((owner[1:] >= owner[:-1]).all()):
        order = np.arange(n, dtype=index)
    else:
        order = np.argsort(owner, kind="stable").astype(index, copy=False)
    return sp.csr_matrix((ones, order, indptr), shape=(size, n), copy=False)


@dataclass(frozen=True, eq=False)
class Layout:
    """What GLAD's steps read of a set of votes, built once per set: the sums per key and
    per item, the flat position of each annotation's (item, label) in an (items, K) array,
    and per item and category ``(n_ik - n_i) log(K - 1)`` (``n_ik``: the item's votes for
    ``k``; ``K``: its group's number of categories, ``log(K - 1)`` at least ``log 1``): the
    E-step's part that does not depend on the parameters. Its :attr:`work` arrays are held
    for one set of votes at a time."""

    by_key: Any
    by_item: Any
    label_cell: IntArray
    constant: FloatArray

    @property
    def work(self) -> list[FloatArray]:
        """Work arrays, one value per annotation, so that each pass writes into memory that
        is already there. In each thread, only the set of votes used last holds them (the
        EM loop works on one at a time: the groups still running): using another set hands
        them over, as views of their first values if it has no more annotations (the loop's
        sets shrink: no new memory to fault in), else frees them and makes its own. Each
        thread has its own (a fit in one thread never writes into another's)."""
        held = _held()
        kept = held.get("work")
        if kept is not None and kept[0]() is self:
            out: list[FloatArray] = kept[1]
            return out
        n = len(self.label_cell)
        pool = held.pop("pool", None)
        held.clear()  # free the other set's arrays (unless handed over) before making these
        if pool is None or len(pool[1][0]) < n:
            pool = (None, [np.empty(n) for _ in range(_WORK)])
        out = [w[:n] for w in pool[1]]
        held["work"] = (weakref.ref(self, functools.partial(_release, held)), out)
        held["pool"] = pool
        return out


def _release(held: dict[str, Any], ref: Any) -> None:
    """A layout is gone: free its thread's work arrays if they are the ones it held."""
    kept = held.get("work")
    if kept is not None and kept[0] is ref:
        held.clear()


_LAYOUTS: weakref.WeakKeyDictionary[Votes, Layout] = weakref.WeakKeyDictionary()
_LOCAL = threading.local()
_WORK = 13
"""Work arrays: a point (x, negated terms), a trial point, three scratch arrays, the
factors ``alpha_j`` and ``beta_i`` of the current point and a trial factor, q, 1 - q, 2q - 1."""


def _held() -> dict[str, Any]:
    """This thread's work arrays: ``"work"`` (a weak reference to the layout holding them,
    and the arrays) and ``"pool"`` (the arrays they are views of)."""
    out: dict[str, Any] | None = getattr(_LOCAL, "held", None)
    if out is None:
        out = _LOCAL.held = {}
    return out


def layout(v: Votes) -> Layout:
    """The :class:`Layout` of ``v`` (kept while ``v`` lives)."""
    found = _LAYOUTS.get(v)
    if found is not None:
        return found
    ones = _ones(len(v.item))
    by_item = _sums(v.item, v.n_items, ones)
    log_k1 = np.log(np.maximum(v.n_allowed - 1.0, 1.0))[v.group]
    k = v.n_categories
    label_cell = v.item_label
    constant = as_float(np.bincount(label_cell, minlength=v.n_items * k)).reshape(-1, k)
    constant -= np.diff(by_item.indptr).astype(np.float64)[:, None]  # n_ik - n_i
    constant *= log_k1[:, None]
    out = Layout(
        by_key=_sums(v.key, v.n_keys, ones),
        by_item=by_item,
        label_cell=label_cell,
        constant=constant,
    )
    _LAYOUTS[v] = out
    return out


def _ones(n: int) -> FloatArray:
    """``n`` ones, read-only (the values of the sum matrices): a view of the ones of a
    layout still alive if they are enough (the EM loop's sets of votes shrink), else new
    ones; they go with the last layout that uses them."""
    found = _ONES[0]()
    if found is None or len(found) < n:
        found = np.ones(n)
        found.flags.writeable = False
        _ONES[0] = weakref.ref(found)
    out: FloatArray = found[:n]
    return out


_ONES: list[Any] = [lambda: None]


def _softplus(x: FloatArray, out: FloatArray, scratch: FloatArray) -> FloatArray:
    """``log(1 + exp(x)) = max(x, 0) + log(1 + exp(-|x|))`` into ``out``."""
    np.abs(x, out=out)
    np.negative(out, out=out)
    np.exp(out, out=out)
    np.log1p(out, out=out)
    out += np.maximum(x, 0.0, out=scratch)
    return out


def _products(
    v: Votes, alpha: FloatArray, b: FloatArray, out: FloatArray, scratch: FloatArray
) -> FloatArray:
    """``x_a = alpha_j beta_i`` per annotation, into ``out``."""
    np.take(alpha, v.key, out=out, mode="clip")  # clip: no buffered copy (the keys are valid)
    out *= np.take(np.exp(b), v.item, out=scratch, mode="clip")
    return out


def item_log_labels(v: Votes, alpha: FloatArray, b: FloatArray) -> FloatArray:
    """Per item and category ``k``, the sum over the item's annotations of ``log P(label |
    k)`` (n_items, K): ``-(softplus(x) + log(K - 1))`` for every ``k``, plus ``x + log(K -
    1)`` for ``k`` the annotation's label; the ``log(K - 1)`` come from the layout."""
    lay = layout(v)
    x, term, scratch = lay.work[4:7]
    _products(v, alpha, b, x, scratch)
    k = v.n_categories
    flat = np.bincount(lay.label_cell, weights=x, minlength=v.n_items * k)
    out = as_float(flat).reshape(v.n_items, k)
    out += lay.constant
    wrong = as_float(lay.by_item @ _softplus(x, term, scratch))
    for column in out.T:  # a pass per category: no broadcasting along a short axis
        column -= wrong
    return out


class _Point:
    """Per annotation, at the current abilities and difficulties: ``x = alpha_j beta_i`` and
    the annotation's term of ``Q``, negated (without its constant), in work arrays that the
    next point may overwrite."""

    __slots__ = ("fresh", "loss", "x")

    def __init__(self, x: FloatArray, loss: FloatArray) -> None:
        self.x, self.loss = x, loss
        self.fresh = False  # whether ``loss`` is that of ``x`` (evaluated when needed)


class _Data:
    """One M-step's inputs: ``q``, ``1 - q`` and ``2q - 1`` per annotation, and the work
    arrays: the current point (at ``alpha``, ``b``), its factors ``alpha_j`` and ``beta_i``
    per annotation (``factor[True]``, ``factor[False]``: the one each block moves, by
    ``by_key``), a trial point and its factor, and scratch."""

    def __init__(self, v: Votes, posterior: FloatArray, alpha: FloatArray, b: FloatArray):
        lay = layout(v)
        self.v, self.lay = v, lay
        work = lay.work
        self.q = np.take(posterior, lay.label_cell, out=work[10], mode="clip")
        self.wrong = np.subtract(1.0, self.q, out=work[11])
        self.centred = np.subtract(self.q, self.wrong, out=work[12])
        self.now, self.trial = _Point(*work[0:2]), _Point(*work[2:4])
        self.scratch = work[4:7]
        self.factor = {True: work[7], False: work[8]}
        self.spare = work[9]  # the trial's factor
        np.take(alpha, v.key, out=self.factor[True], mode="clip")
        np.take(np.exp(b), v.item, out=self.factor[False], mode="clip")
        np.multiply(self.factor[True], self.factor[False], out=self.now.x)  # as _products

    def evaluate(self, at: _Point) -> None:
        """The negated ``Q`` terms at ``at.x``, into ``at``: ``L + q max(-x, 0) + (1 - q)
        max(x, 0)``, with ``max(-x, 0) = max(x, 0) - x`` exactly."""
        right, wrong = self.scratch[:2]
        loss = at.loss
        np.abs(at.x, out=loss)
        np.negative(loss, out=loss)
        np.exp(loss, out=loss)
        np.log1p(loss, out=loss)
        np.maximum(at.x, 0.0, out=wrong)
        np.subtract(wrong, at.x, out=right)
        right *= self.q
        loss += right
        wrong *= self.wrong
        loss += wrong
        at.fresh = True

    def accept(self, taken: BoolArray | None, by_key: bool) -> None:
        """The trial point (moved by the block ``by_key``) becomes the current one for the
        annotations ``taken`` (None: all)."""
        if taken is None or taken.all():
            self.now, self.trial = self.trial, self.now
            self.factor[by_key], self.spare = self.spare, self.factor[by_key]
            return
        for name in ("x", "loss"):  # both points evaluated (the halving loop's)
            np.copyto(getattr(self.now, name), getattr(self.trial, name), where=taken)
        np.copyto(self.factor[by_key], self.spare, where=taken)


class _Block:
    """The abilities given the difficulties (``by_key``), or the log-difficulties given the
    abilities: ``Q``'s part that belongs to each coordinate, its slope and curvature."""

    def __init__(self, data: _Data, by_key: bool) -> None:
        v = data.v
        self.data, self.by_key = data, by_key
        self.owner = v.key if by_key else v.item
        self.sums = data.lay.by_key if by_key else data.lay.by_item
        # The per-annotation factor of the fixed block: beta_i, or alpha_j.
        self.fixed = data.factor[not by_key]

    def move(self, value: FloatArray, evaluate: bool = True) -> None:
        """The trial point's ``x`` and (if ``evaluate``) terms at ``value``."""
        data = self.data
        moving = value if self.by_key else np.exp(value)
        np.take(moving, self.owner, out=data.spare, mode="clip")
        np.multiply(data.spare, self.fixed, out=data.trial.x)
        if evaluate:
            data.evaluate(data.trial)
        else:
            data.trial.fresh = False

    def part(self, value: FloatArray, at: _Point) -> FloatArray:
        """``Q``'s part of each coordinate at ``value`` (``at``: its point), without its
        constant."""
        if not at.fresh:
            self.data.evaluate(at)
        out = as_float(self.sums @ at.loss)
        np.negative(out, out=out)
        return _less_prior(out, value)

    def slope(self, value: FloatArray) -> tuple[FloatArray, FloatArray]:
        """The gradient and the (negated, positive) curvature at ``value`` (the current
        point): ``g = sum (q - sigma(x)) dx`` and ``w = sum sigma(x)(1 - sigma(x)) dx^2``,
        with ``2(q - sigma(x)) = (2q - 1) - t``, ``4 sigma(x)(1 - sigma(x)) = 1 - t^2`` and
        ``t = tanh(x / 2)``, plus the prior's terms. For a log-difficulty (``dx = x``) the
        curvature of ``Q`` is ``w - g`` (``x`` is its own derivative in ``b``): taken where
        it is at least ``w / 4``, else ``w / 4``, so that it stays positive."""
        at, (t, residual, weight) = self.data.now, self.data.scratch[:3]
        np.multiply(at.x, 0.5, out=t)
        np.tanh(t, out=t)
        np.subtract(self.data.centred, t, out=residual)
        np.multiply(t, t, out=weight)
        np.subtract(1.0, weight, out=weight)
        # d x / d value: beta for an ability, x for a log-difficulty.
        dx = self.fixed if self.by_key else at.x
        residual *= dx
        weight *= dx
        weight *= dx
        g = as_float(self.sums @ residual)
        g *= 0.5
        h = as_float(self.sums @ weight)
        h *= 0.25
        if not self.by_key:  # Q's curvature in b, at least a quarter of the first term
            np.maximum(h - g, 0.25 * h, out=h)
        h += 1.0
        return _less_prior_slope(g, value), h

    def unsafe(self, step: FloatArray, curvature: FloatArray) -> BoolArray:
        """The coordinates along whose full ``step`` ``Q`` might fall (``step =
        gradient / curvature``, ``curvature`` the negated second derivative or more): so if
        the negated second derivative stays at most twice ``curvature`` along the step (then
        the slope, ``gradient`` at the start, is at least ``gradient - 2 curvature u`` at
        ``u``, and its integral over the step is at least 0).

        An ability's negated second derivative is ``sum sigma'(x) beta^2 + 1`` and ``log
        sigma'(x)`` moves by at most ``|x' - x| <= |step| beta``: so within ``e^{|step| sum
        beta}`` times the likelihood's part of ``curvature``, taken here at most 1.5. A
        log-difficulty's is ``sum phi(x) + 1``, ``phi = sigma'(x) x^2 + (sigma(x) - q) x``,
        whose derivative in ``b`` is at most ``|y|^3 / 4 + 3 y^2 / 4 + |y| <= (|y| + 1.5)^3
        / 4`` in size (``y = x e^u``, ``|sigma'| <= 1/4``, ``|sigma - q| <= 1``), and ``sum
        phi + 1 <= curvature`` at the start: so it stays within ``2 curvature`` if
        ``|step|`` times the sum of that bound at ``|y| = |x| e^{|step|}`` is at most
        ``curvature`` (taken here at most half of it). The others are safe: ``Q`` need not
        be evaluated for them."""
        size = np.abs(step)
        if self.by_key:
            reach = as_float(self.sums @ self.fixed)  # sum of beta per annotator
            reach *= size
            out: BoolArray = ~(reach <= _SAFE_GROWTH)  # nan: unsafe
            return out
        a, cube = self.data.scratch[:2]
        np.abs(self.data.now.x, out=a)
        a += 1.5
        np.multiply(a, a, out=cube)
        cube *= a  # (|x| + 1.5)^3 / 4 >= |x|^3 / 4 + 3 x^2 / 4 + |x|
        bound = as_float(self.sums @ cube)
        bound *= np.exp(3.0 * size)  # |y| + 1.5 <= (|x| + 1.5) e^{|step|}
        bound *= size
        bound *= 0.25
        out = ~(bound <= 0.5 * curvature)
        return out


_SAFE_GROWTH = float(np.log(1.5))
"""At most this ``|step| sum beta`` for an ability (the curvature grows at most 1.5-fold)."""


def _less_prior(out: FloatArray, value: FloatArray) -> FloatArray:
    """``out - (value - PRIOR_MEAN)^2 / 2``, in ``out`` (one new array, not four)."""
    prior = value - PRIOR_MEAN
    np.square(prior, out=prior)
    prior *= 0.5
    out -= prior
    return out


def _less_prior_slope(out: FloatArray, value: FloatArray) -> FloatArray:
    """``out - (value - PRIOR_MEAN)``, in ``out``."""
    out -= value - PRIOR_MEAN
    return out


def _newton(block: _Block, value: FloatArray) -> FloatArray:
    """One safeguarded Newton step on each coordinate of ``value``: halve each coordinate's
    step until its own part of ``Q`` does not fall. The new values (the current point moves
    to them)."""
    data = block.data
    step, curvature = block.slope(value)
    step /= curvature
    unsafe = block.unsafe(step, curvature)
    n_unsafe = int(np.count_nonzero(unsafe))
    if n_unsafe <= SUBSET * len(value):  # Q evaluated for the unsafe coordinates only
        out = value + step if not n_unsafe else _halve_some(block, value, step, unsafe)
        block.move(out, evaluate=False)
        data.accept(None, block.by_key)
        return out
    floor = block.part(value, data.now)  # the part before the step, less its rounding
    floor -= 1e-12 * np.abs(floor)
    out = value
    pending: BoolArray | None = None  # None: every coordinate (the first trial)
    for _ in range(HALVINGS):
        trial = value + step if pending is None else np.where(pending, value + step, out)
        block.move(trial)
        better = block.part(trial, data.trial) >= floor
        accept = better if pending is None else pending & better
        if accept.all():
            out = trial
            data.accept(None, block.by_key)
        else:
            out = np.where(accept, trial, out)
            data.accept(accept[block.owner], block.by_key)
        pending = ~better if pending is None else pending & ~better
        if not pending.any():
            break
        step = step / 2.0
    return out


def _halve_some(
    block: _Block, value: FloatArray, step: FloatArray, unsafe: BoolArray
) -> FloatArray:
    """As the halving loop of :func:`_newton`, on the coordinates ``unsafe`` only, with
    their annotations gathered (the others take their full step); the same sums, added in
    the same order."""
    data = block.data
    annotations = np.flatnonzero(unsafe[block.owner])
    owner = block.owner[annotations]
    fixed = block.fixed[annotations]
    q, wrong = data.q[annotations], data.wrong[annotations]
    size = len(value)

    def part(at: FloatArray, x: FloatArray) -> FloatArray:
        positive = np.maximum(x, 0.0)
        loss = np.log1p(np.exp(-np.abs(x)))
        loss += (positive - x) * q
        loss += positive * wrong
        out = as_float(np.bincount(owner, weights=loss, minlength=size))
        np.negative(out, out=out)
        return _less_prior(out, at)

    floor = part(value, data.now.x[annotations])
    floor -= 1e-12 * np.abs(floor)
    out = np.where(unsafe, value, value + step)
    pending = unsafe
    for _ in range(HALVINGS):
        trial = np.where(pending, value + step, out)
        moving = trial if block.by_key else np.exp(trial)
        better = part(trial, moving[owner] * fixed) >= floor
        out = np.where(pending & better, trial, out)
        pending = pending & ~better
        if not pending.any():
            break
        step = step / 2.0
    return out


def maximise(
    v: Votes, posterior: FloatArray, alpha: FloatArray, b: FloatArray, sweeps: int
) -> tuple[FloatArray, FloatArray]:
    """``sweeps`` alternating Newton steps (abilities, then log-difficulties) from
    (``alpha``, ``b``) on ``Q`` given the posteriors."""
    data = _Data(v, posterior, alpha, b)
    for _ in range(sweeps):
        alpha = _newton(_Block(data, by_key=True), alpha)
        b = _newton(_Block(data, by_key=False), b)
    return alpha, b
