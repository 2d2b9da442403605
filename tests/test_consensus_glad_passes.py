"""GLAD's E- and M-steps in kept work arrays, with sparse sums and per-item E-step sums
(#26 point 16): the M-steps give the same numbers, to the last bit, as their formulas
written with plain numpy (``np.bincount``, ``np.where``, new arrays); the E-step's sums (one
value per annotation, no (annotations, K) table) give the posteriors and log-likelihoods of
the per-annotation table to rounding; and no result shares memory with the work arrays
that the next step overwrites."""

from __future__ import annotations

import gc
import threading
import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from test_consensus_active import crowd

import pdagree  # noqa: F401  (registers the accessor)
from pdagree import ConvergenceWarning
from pdagree.consensus import _em, _fit, _glad_newton
from pdagree.consensus._glad import SWEEPS

# ----------------------------------------------------------------- the formulas, plainly


def _log_k1(v: Any) -> np.ndarray:
    out: np.ndarray = np.log(np.maximum(v.n_allowed[v.group[v.item]] - 1.0, 1.0))
    return out


def _log_sigmoids(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    shared = np.log1p(np.exp(-np.abs(x)))
    return -(np.maximum(-x, 0.0) + shared), -(np.maximum(x, 0.0) + shared)


def plain_table(v: Any, alpha: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``log P(label | k)`` per annotation (A, K): right in the label's column, wrong
    (uniform over the other categories) elsewhere."""
    right, wrong = _log_sigmoids(alpha[v.key] * np.exp(b[v.item]))
    wrong = wrong - _log_k1(v)
    out: np.ndarray = np.where(
        np.arange(v.n_categories) == v.code[:, None], right[:, None], wrong[:, None]
    )
    return out


def plain_m_step(v: Any, posterior: np.ndarray, alpha: np.ndarray, b: np.ndarray) -> Any:
    """SWEEPS alternating safeguarded Newton steps on Q (its terms without the constant
    ``(1 - q) log(K - 1)``), with bincount sums; ``sigma(x) = (1 + tanh(x / 2)) / 2``."""
    q = posterior[v.item, v.code]

    def run(value: np.ndarray, other: np.ndarray, by_key: bool) -> Any:
        owner, size = (v.key, v.n_keys) if by_key else (v.item, v.n_items)
        fixed = np.exp(other[v.item]) if by_key else other[v.key]

        def at(value: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            x = value[v.key] * fixed if by_key else fixed * np.exp(value[v.item])
            positive = np.maximum(x, 0.0)
            shared = np.log1p(np.exp(-np.abs(x)))
            return x, -(shared + (positive - x) * q + positive * (1.0 - q))

        def part(value: np.ndarray, term: np.ndarray) -> np.ndarray:
            out = -np.bincount(owner, weights=-term, minlength=size)
            return out - 0.5 * (value - 1.0) ** 2

        x, term = at(value)
        t = np.tanh(x * 0.5)
        dx = fixed if by_key else x
        g = 0.5 * np.bincount(owner, weights=(q - (1.0 - q) - t) * dx, minlength=size)
        h = 0.25 * np.bincount(owner, weights=(1.0 - t * t) * dx * dx, minlength=size)
        if not by_key:
            h = np.maximum(h - g, 0.25 * h)
        step = (g - (value - 1.0)) / (h + 1.0)
        before = part(value, term)
        out, pending = value.copy(), np.ones(len(value), dtype=bool)
        for _ in range(_glad_newton.HALVINGS):
            trial = np.where(pending, value + step, out)
            better = part(trial, at(trial)[1]) >= before - 1e-12 * np.abs(before)
            out = np.where(pending & better, trial, out)
            pending &= ~better
            if not pending.any():
                break
            step = step / 2.0
        return out

    for _ in range(SWEEPS):
        alpha = run(alpha, b, True)
        b = run(b, alpha, False)
    return alpha, b


# ----------------------------------------------------------------------------- the steps


class Seen:
    """GLAD, recording the votes, posteriors and parameters of each M-step."""

    def __init__(self, model: Any) -> None:
        self.model, self.owner = model, model.owner
        self.seen: list[tuple[Any, np.ndarray, dict[str, np.ndarray], dict[str, np.ndarray]]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.model, name)

    def m_step(self, v: Any, posterior: Any, params: Any) -> Any:
        out = self.model.m_step(v, posterior, params)
        copy = {name: value.copy() for name, value in params.items()}
        self.seen.append((v, posterior.copy(), copy, out))
        return out


def frames() -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(4)
    wide = pd.DataFrame(rng.choice(list("xyz"), size=(60, 5)), columns=list("abcde"))
    wide = wide.mask(rng.random(wide.shape) < 0.2)
    long = wide.rename_axis("item").reset_index().melt("item", var_name="rater")
    return {
        "groups": crowd(40, seed=11),
        "one group": long.dropna().rename(columns={"value": "label"}),
    }


def steps(df: pd.DataFrame, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    seen = Seen(_fit.MODELS["glad"])
    monkeypatch.setitem(_fit.MODELS, "glad", seen)
    by = "task" if "task" in df else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        df.agree(item="item", rater="rater", label="label", by=by).consensus("glad")
    assert len(seen.seen) > 5
    return seen.seen


@pytest.mark.parametrize("name", ["groups", "one group"])
def test_m_steps_equal_the_plain_formulas_to_the_last_bit(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for v, posterior, params, out in steps(frames()[name], monkeypatch):
        alpha, b = plain_m_step(v, posterior, params["alpha"], params["b"])
        np.testing.assert_array_equal(out["alpha"], alpha)
        np.testing.assert_array_equal(out["b"], b)


def plain_part(
    v: Any, posterior: np.ndarray, alpha: np.ndarray, b: np.ndarray, by_key: bool
) -> np.ndarray:
    """Q's part of each ability (``by_key``) or log-difficulty, without its constant."""
    q = posterior[v.item, v.code]
    right, wrong = _log_sigmoids(alpha[v.key] * np.exp(b[v.item]))
    owner, size, value = (v.key, v.n_keys, alpha) if by_key else (v.item, v.n_items, b)
    out: np.ndarray = np.bincount(owner, weights=q * right + (1.0 - q) * wrong, minlength=size)
    return out - 0.5 * (value - 1.0) ** 2


def test_steps_taken_without_evaluating_q_do_not_lower_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # The M-step evaluates Q only for the coordinates whose full Newton step the curvature
    # bounds cannot show to be uphill: every step that lowers its part of Q is among them.
    # From spread-out points, where many full steps overshoot.
    v = steps(frames()["groups"], monkeypatch)[0][0]
    rng = np.random.default_rng(0)
    n_fell, n_safe = {True: 0, False: 0}, 0
    for spread in range(6):
        posterior = rng.dirichlet(np.full(v.n_categories, 0.3), size=v.n_items)
        alpha = rng.uniform(-0.9, 0.9, v.n_keys) * spread
        b = rng.normal(1.0, 0.5 * spread, v.n_items)
        data = _glad_newton._Data(v, posterior, alpha, b)
        for by_key in (True, False):
            block = _glad_newton._Block(data, by_key)
            value = alpha if by_key else b
            step, curvature = block.slope(value)
            step /= curvature
            unsafe = block.unsafe(step, curvature)
            moved = value + step
            before = plain_part(v, posterior, alpha, b, by_key)
            after = plain_part(
                v, posterior, moved if by_key else alpha, b if by_key else moved, by_key
            )
            fell = after < before - 1e-12 * np.abs(before)
            assert not np.any(fell & ~unsafe)
            n_fell[by_key] += int(fell.sum())
            n_safe += int((~unsafe).sum())
            block.move(moved)  # on to the other block from the moved point
            data.accept(None, by_key)
            alpha, b = (moved, b) if by_key else (alpha, moved)
    assert n_fell[True] > 100 and n_fell[False] > 2 and n_safe > 20


def test_the_m_steps_compared_skip_q_for_some_steps_and_not_for_others(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # so that the plain formulas (Q evaluated at every step) check all three ways
    seen: list[str] = []
    unsafe, halve = _glad_newton._Block.unsafe, _glad_newton._halve_some

    def counted(block: Any, step: np.ndarray, curvature: np.ndarray) -> np.ndarray:
        out: np.ndarray = unsafe(block, step, curvature)
        share = out.mean()
        seen.append("none" if not share else "some" if share <= _glad_newton.SUBSET else "all")
        return out

    monkeypatch.setattr(_glad_newton._Block, "unsafe", counted)
    monkeypatch.setattr(_glad_newton, "_halve_some", halve)
    for name in ("groups", "one group"):
        steps(frames()[name], monkeypatch)
    assert {"none", "some", "all"} <= set(seen)


@pytest.mark.parametrize("name", ["groups", "one group"])
def test_e_steps_from_item_sums_equal_the_per_annotation_table(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = _fit.MODELS["glad"]
    for v, _, params, out in steps(frames()[name], monkeypatch):
        for at in (params, out):
            prior, sums, mode = model.log_label(v, at)
            assert mode == "item" and sums.shape == (v.n_items, v.n_categories)
            table = plain_table(v, at["alpha"], at["b"])
            post, log_likelihood = _em.posterior(v, prior, sums, mode)
            want_post, want_log_likelihood = _em.posterior(v, prior, table, False)
            # the same sums added in another order: equal to rounding
            np.testing.assert_allclose(post, want_post, rtol=0, atol=2e-15)
            np.testing.assert_allclose(log_likelihood, want_log_likelihood, rtol=1e-13)


def test_results_do_not_share_the_work_arrays(monkeypatch: pytest.MonkeyPatch) -> None:
    model = _fit.MODELS["glad"]
    v, posterior, params, _ = steps(frames()["groups"], monkeypatch)[2]
    first = model.m_step(v, posterior, params)
    kept = {name: value.copy() for name, value in first.items()}
    sums = model.log_label(v, first)[1]
    kept_sums = sums.copy()
    other = np.full_like(posterior, 1.0 / posterior.shape[1])
    second = model.m_step(v, other, first)  # overwrites every work array
    model.log_label(v, second)
    for name, value in first.items():
        np.testing.assert_array_equal(value, kept[name])
    np.testing.assert_array_equal(sums, kept_sums)
    assert not any(np.shares_memory(sums, w) for w in _glad_newton.layout(v).work)


def test_work_arrays_are_kept_for_one_set_of_votes_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    v = steps(frames()["groups"], monkeypatch)[0][0]
    gc.collect()
    lay = _glad_newton.layout(v)
    assert _glad_newton.layout(v) is lay
    work = lay.work
    assert lay.work is work and all(len(w) == len(v.item) for w in work)
    n = len(_glad_newton._LAYOUTS)
    sub, _, _ = v.restrict(np.arange(v.n_groups) % 2 == 0)
    assert _glad_newton.layout(sub) is not lay
    assert len(_glad_newton._LAYOUTS) == n + 1
    sub_work = _glad_newton.layout(sub).work  # takes the first set's arrays over
    assert all(len(w) == len(sub.item) for w in sub_work)
    # fewer annotations: views of the same memory (nothing new to allocate), each its own
    assert all(np.shares_memory(a, b) for a, b in zip(sub_work, work, strict=True))
    assert not any(np.shares_memory(a, b) for a in sub_work for b in sub_work if a is not b)
    assert _glad_newton._held()["work"][1] is sub_work
    # the sum matrices' ones too: one array for both sets
    sub_lay = _glad_newton.layout(sub)
    assert np.shares_memory(sub_lay.by_item.data, lay.by_key.data)
    del sub_lay
    del sub, sub_work
    gc.collect()
    assert len(_glad_newton._LAYOUTS) == n
    assert not _glad_newton._held()  # the arrays went with their set of votes
    again = lay.work
    assert again is not work  # made again when the first set is used again
    assert all(len(w) == len(v.item) for w in again)


def test_a_larger_set_of_votes_gets_new_work_arrays(monkeypatch: pytest.MonkeyPatch) -> None:
    v = steps(frames()["groups"], monkeypatch)[0][0]
    sub, _, _ = v.restrict(np.arange(v.n_groups) % 2 == 0)
    _glad_newton._held().clear()  # no arrays left from the fit
    small = _glad_newton.layout(sub).work
    large = _glad_newton.layout(v).work
    assert all(len(w) == len(v.item) for w in large)
    assert not any(np.shares_memory(a, b) for a in large for b in small)


def test_each_thread_has_its_own_work_arrays(monkeypatch: pytest.MonkeyPatch) -> None:
    v = steps(frames()["groups"], monkeypatch)[0][0]
    sub, _, _ = v.restrict(np.arange(v.n_groups) % 2 == 0)
    mine = _glad_newton.layout(v).work
    theirs: list[list[np.ndarray]] = []
    thread = threading.Thread(target=lambda: theirs.append(_glad_newton.layout(sub).work))
    thread.start()
    thread.join()
    assert all(len(w) == len(sub.item) for w in theirs[0])
    assert not any(np.shares_memory(a, b) for a in theirs[0] for b in mine)
    assert _glad_newton.layout(v).work is mine  # this thread's arrays are still held
