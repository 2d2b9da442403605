"""MACE's SQUAREM step lengths per annotator (#26 point 16): each (group, annotator) key's
parameters move by the longer of its own S3 step and its group's, within the group's bound,
which takes fewer EM steps to the same fixed point than one step per group."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from test_consensus import duck, long
from test_consensus_mace_steps import (
    GroupSteps,
    fit_with,
    same_fixed_point,
    small_groups,
    two_groups,
)

from pdagree.consensus import _fit, _squarem
from pdagree.consensus._mace import Mace


def test_each_key_takes_the_longer_of_its_own_and_its_group_s_step() -> None:
    v = two_groups()
    owner = {"a": "key"}
    # a linear map: keys 0 and 2 at rate 0.9 (S3's step alone: -1 / (1 - 0.9) = -10), keys
    # 1 and 3 at rate 0.5 (-2); the group's step from both: -sqrt(0.26 / 0.0626)
    rate = np.array([0.9, 0.5, 0.9, 0.5])
    start = np.ones(4)
    cycle = [{"a": start}, {"a": rate * start}, {"a": rate * rate * start}]
    group = -np.sqrt((0.1**2 + 0.5**2) / (0.1**4 + 0.5**4))
    longest = np.array([np.inf, 4.0])
    free, alpha, capped = _squarem.extrapolate(v, owner, cycle, longest, per_key=True)
    step = np.array([-10.0, group, -4.0, group])  # key 2's own step bounded by its group's 4
    np.testing.assert_allclose(free["a"], (1 + step * (1 - rate)) ** 2 * start, atol=1e-12)
    np.testing.assert_allclose(free["a"][0], 0.0, atol=1e-12)  # the slow key's fixed point
    np.testing.assert_allclose(alpha, [-10.0, -4.0])  # each group's longest step
    assert capped.tolist() == [False, True]
    # one step per group (GLAD, and MACE before): the group's for every key
    free, alpha, capped = _squarem.extrapolate(v, owner, cycle, longest)
    np.testing.assert_allclose(alpha, [group, group])
    np.testing.assert_allclose(free["a"], (1 + group * (1 - rate)) ** 2 * start)
    assert not capped.any()
    assert _squarem.key_steps(Mace()) and not _squarem.key_steps(_fit.MODELS["glad"])


def test_a_parameter_of_the_group_takes_the_group_s_step() -> None:
    v = two_groups()
    owner = {"a": "key", "b": "group"}
    rate = np.array([0.9, 0.5, 0.9, 0.5])
    cycle = [
        {"a": np.ones(4), "b": np.ones(2)},
        {"a": rate, "b": np.full(2, 0.5)},
        {"a": rate * rate, "b": np.full(2, 0.25)},
    ]
    free, alpha, _ = _squarem.extrapolate(v, owner, cycle, np.full(2, np.inf), per_key=True)
    group = -np.sqrt((0.1**2 + 2 * 0.5**2) / (0.1**4 + 2 * 0.5**4))
    np.testing.assert_allclose(free["b"], (1 + group * 0.5) ** 2)
    np.testing.assert_allclose(free["a"][[1, 3]], (1 + group * 0.5) ** 2)
    np.testing.assert_allclose(alpha, [-10.0, -10.0])


def _same_fit(ours: Any, theirs: Any) -> None:
    assert np.all(ours.converged) and np.all(theirs.converged)
    same_fixed_point(ours, theirs)
    np.testing.assert_allclose(
        ours.strategy.to_numpy(), theirs.strategy.to_numpy(), rtol=0, atol=1e-8
    )


def test_steps_per_key_take_fewer_em_steps_to_the_same_fixed_point_on_small_groups(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 2,000 groups of 3 raters x 2 items (benchmarks/by_own_raters.py): 23.6 EM steps per
    # group on average with one step per group, at most 52; 19.3 per key, at most 46
    ratings = long(small_groups(2_000, seed=1), by="group")
    ours = ratings.consensus("mace", ties="first")
    before = fit_with(ratings, GroupSteps(), monkeypatch)
    assert ours.converged.all() and before.converged.all()
    assert ours.n_iterations.mean() < 0.9 * before.n_iterations.mean()
    assert ours.n_iterations.max() < before.n_iterations.max()
    tight = {"tol": 1e-13, "max_iterations": 100_000}
    _same_fit(
        fit_with(ratings, Mace(), monkeypatch, **tight),
        fit_with(ratings, GroupSteps(), monkeypatch, **tight),
    )


def test_steps_per_key_take_fewer_em_steps_on_the_duck_data(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 61 EM steps with one step per group, 32 per key (tol=1e-13: 145 and 88)
    answers, _ = duck()
    ratings = answers.agree(item="question", rater="worker", label="answer")
    ours = ratings.consensus("mace")
    before = fit_with(ratings, GroupSteps(), monkeypatch)
    assert ours.converged and before.converged
    assert np.max(ours.n_iterations) < 0.75 * np.max(before.n_iterations)
    tight = {"tol": 1e-13, "max_iterations": 100_000}
    _same_fit(
        fit_with(ratings, Mace(), monkeypatch, **tight),
        fit_with(ratings, GroupSteps(), monkeypatch, **tight),
    )
