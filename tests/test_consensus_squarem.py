"""SQUAREM cycles for GLAD's and MACE's EM (#26): the same fixed point as plain EM in far
fewer EM steps, every step one M-step, the penalised log-likelihood never lower, and the
parameters in their domain."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from test_consensus import duck, long, simulate
from test_consensus_active import crowd

import pdagree
from pdagree import ConvergenceWarning
from pdagree.consensus import _em, _fit, _votes
from pdagree.consensus._convergence import Convergence
from pdagree.consensus._squarem import Accelerated

ACCELERATED = ["glad", "mace"]


class Plain:
    """A model's EM without acceleration: no free scale, no penalty."""

    def __init__(self, model: Any) -> None:
        self.model, self.owner = model, model.owner

    def start(self, v: Any) -> Any:
        return self.model.start(v)

    def log_label(self, v: Any, params: Any) -> Any:
        return self.model.log_label(v, params)

    def m_step(self, v: Any, posterior: Any, params: Any) -> Any:
        return self.model.m_step(v, posterior, params)


class Recording(Plain):
    """The accelerated model, recording the votes and parameters each M-step sees."""

    def __init__(self, model: Any) -> None:
        super().__init__(model)
        self.seen: list[tuple[Any, dict[str, np.ndarray]]] = []

    def m_step(self, v: Any, posterior: Any, params: Any) -> Any:
        self.seen.append((v, {name: value.copy() for name, value in params.items()}))
        return super().m_step(v, posterior, params)

    def free(self, v: Any, params: Any) -> Any:
        return self.model.free(v, params)

    def bound(self, v: Any, free: Any) -> Any:
        return self.model.bound(v, free)

    def penalty(self, v: Any, params: Any) -> Any:
        return self.model.penalty(v, params)

    def __getattr__(self, name: str) -> Any:  # the rest as the model (MACE's E-step, bound)
        return getattr(self.model, name)


def data_sets() -> dict[str, pdagree.Ratings]:
    answers, _ = duck()
    out = {"duck": answers.agree(item="question", rater="worker", label="answer")}
    for seed in range(2):
        df, _ = simulate(200, [0.9, 0.7, 0.6, 0.4], seed=seed, coverage=0.7)
        out[f"simulated {seed}"] = long(df)
    out["groups"] = crowd(30, seed=5).agree(item="item", rater="rater", label="label", by="task")
    return out


def tight(ratings: pdagree.Ratings, method: str) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return ratings.consensus(method, ties="first", tol=1e-13, max_iterations=100_000)


def test_glad_and_mace_are_accelerated_the_others_not() -> None:
    assert {m for m, model in _fit.MODELS.items() if isinstance(model, Accelerated)} == {
        "glad",
        "mace",
    }


@pytest.mark.parametrize("method", ACCELERATED)
def test_squarem_reaches_plain_em_s_fixed_point_in_fewer_steps(
    method: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    sets = data_sets()
    fast = {name: tight(r, method) for name, r in sets.items()}
    monkeypatch.setitem(_fit.MODELS, method, Plain(_fit.MODELS[method]))
    steps, plain_steps = 0, 0
    for name, r in sets.items():
        plain, ours = tight(r, method), fast[name]
        assert np.all(ours.converged) and np.all(plain.converged), name
        np.testing.assert_allclose(
            ours.probabilities.to_numpy(), plain.probabilities.to_numpy(), rtol=0, atol=1e-8
        )
        np.testing.assert_allclose(
            ours.quality.to_numpy(dtype=float), plain.quality.to_numpy(dtype=float), atol=1e-8
        )
        if plain.strategy is not None:
            np.testing.assert_allclose(
                ours.strategy.to_numpy(), plain.strategy.to_numpy(), rtol=0, atol=1e-8
            )
        if plain.difficulty is not None:
            np.testing.assert_allclose(
                ours.difficulty.to_numpy(), plain.difficulty.to_numpy(), rtol=0, atol=1e-8
            )
        np.testing.assert_allclose(
            ours.log_likelihood, plain.log_likelihood, rtol=1e-12, atol=1e-10
        )
        assert np.sum(ours.n_iterations) < np.sum(plain.n_iterations) / 1.5, name
        steps += np.sum(ours.n_iterations)
        plain_steps += np.sum(plain.n_iterations)
    # MACE: 1,250 EM steps on the Duck data, 116 in SQUAREM cycles; GLAD: 70 and 31.
    assert steps < plain_steps / (5 if method == "mace" else 2)


def _objective(v: Any, model: Any, params: Any) -> np.ndarray:
    _, log_likelihood = _em.posterior(v, *model.log_label(v, params))
    out: np.ndarray = log_likelihood + model.penalty(v, params)
    return out


@pytest.mark.parametrize("method", ACCELERATED)
def test_each_step_is_one_m_step_from_a_point_no_worse_and_in_the_domain(
    method: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = _fit.MODELS[method]
    recording = Recording(model)
    monkeypatch.setitem(_fit.MODELS, method, recording)
    answers, _ = duck()
    c = answers.agree(item="question", rater="worker", label="answer").consensus(method)
    assert c.converged and c.n_iterations == len(recording.seen) > 6
    objective = np.array([_objective(v, model, params)[0] for v, params in recording.seen])
    # EM steps and accepted jumps never lower the penalised log-likelihood
    assert np.all(np.diff(objective) >= -1e-12 * np.abs(objective[1:]))
    for _, params in recording.seen:
        for value in params.values():
            assert np.isfinite(value).all()
        if method == "mace":
            assert np.all((params["theta"] > 0) & (params["theta"] < 1))
            assert np.all(params["xi"] >= 0)
            np.testing.assert_allclose(params["xi"].sum(axis=1), 1.0, rtol=1e-12)


@pytest.mark.parametrize("method", ACCELERATED)
def test_max_iterations_counts_em_steps_inside_a_cycle(
    method: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    recording = Recording(_fit.MODELS[method])
    monkeypatch.setitem(_fit.MODELS, method, recording)
    df = crowd(12, seed=2)
    ratings = df.agree(item="item", rater="rater", label="label", by="task")
    for limit in (1, 2, 4, 5):
        recording.seen.clear()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            c = ratings.consensus(method, max_iterations=limit)
        assert len(recording.seen) == limit and c.n_iterations.max() == limit
        assert not c.converged.all()


@pytest.mark.parametrize("method", ACCELERATED)
def test_accelerated_steps_see_only_the_groups_still_running(
    method: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    recording = Recording(_fit.MODELS[method])
    monkeypatch.setitem(_fit.MODELS, method, recording)
    df = crowd(40, seed=7)
    c = df.agree(item="item", rater="rater", label="label", by="task").consensus(method)
    iterations = c.n_iterations.to_numpy()
    assert len(recording.seen) == iterations.max() and c.converged.all()
    running = [int((iterations > step).sum()) for step in range(len(recording.seen))]
    groups = [v.n_groups for v, _ in recording.seen]
    assert all(r <= n <= r / _em.COMPACT for r, n in zip(running, groups, strict=True))
    assert groups[-1] < groups[0]


def test_the_frame_is_unchanged() -> None:
    df = crowd(5, seed=1)
    copy = df.copy()
    df.agree(item="item", rater="rater", label="label", by="task").consensus("mace")
    pd.testing.assert_frame_equal(df, copy)


def test_iterates_stepping_back_and_forth_in_the_last_place_have_converged() -> None:
    # One item labelled "b" and "e" by two annotators: after a SQUAREM jump, GLAD's EM ends
    # stepping between two abilities one unit in the last place apart (the ratio of the last
    # two changes 1), so the change to come never fell below tol=1e-13: 20,000 steps.
    df = pd.DataFrame({"item": ["i0", "i0"], "rater": ["r0", "r1"], "label": ["b", "e"]})
    c = df.agree(item="item", rater="rater", label="label").consensus("glad", tol=1e-13)
    assert c.converged and c.n_iterations < 100
    v = _votes.Votes(
        item=np.array([0, 0]),
        key=np.array([0, 1]),
        code=np.array([0, 1]),
        group=np.array([0]),
        n_items=1,
        n_groups=1,
        n_categories=2,
        allowed=np.ones((1, 2), dtype=bool),
        gold=np.array([-1]),
        gold_rater=-1,
        key_group=np.array([0, 0]),
    )
    post, running = np.array([[0.5, 0.5]]), np.array([True])
    a, b = np.array([0.6, 0.6]), np.nextafter(np.array([0.6, 0.6]), 1.0)
    unit = float(b[0] - a[0])
    watch = Convergence(v, {"alpha": "key"}, 1e-13)
    watch.last = np.array([unit])  # the step before was the same unit, forth
    assert watch.settled((post, {"alpha": a}), (post, {"alpha": b}), running)[0]
    watch = Convergence(v, {"alpha": "key"}, 1e-13)
    watch.last = np.array([unit / 2.0])  # growing steps: not the rounding of a fixed point
    assert not watch.settled((post, {"alpha": a + 1e-13}), (post, {"alpha": a}), running)[0]
