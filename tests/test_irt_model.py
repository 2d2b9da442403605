"""The graded response model's likelihood kernel (`pdagree.irt._model`) and its gradient.

The analytic gradient is checked against central finite differences of the log-likelihood,
in the kernel's extended thresholds and in the fit's natural and optimiser parameters, with
missing cells and judges fitted on part of the scale; the batched evaluation against a loop.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import pdagree  # noqa: F401  (registers the accessor)
from pdagree.irt import simulate
from pdagree.irt._data import prepare
from pdagree.irt._fit import _Problem
from pdagree.irt._model import (
    category_terms,
    extend_thresholds,
    gauss_hermite,
    loglik_gradient,
)

nan = np.nan


def _truth() -> pd.DataFrame:
    # J3 never uses the lowest category, J4 never the highest: their fits have 2 thresholds.
    return pd.DataFrame(
        {
            "discrimination": [1.2, 1.6, 0.9, 2.0],
            "extremity_1": [-1.0, -0.6, nan, -1.2],
            "extremity_2": [0.0, 0.2, -0.3, 0.1],
            "extremity_3": [1.1, 0.9, 0.8, nan],
        },
        index=["J1", "J2", "J3", "J4"],
    )


def _problem(constrained: bool, n_items: int = 400, seed: int = 5) -> _Problem:
    frame = simulate(_truth(), n_items, missing=0.15, rng=seed)
    data = prepare(frame.agree()._data)
    nodes, weights = gauss_hermite(21)
    return _Problem(data, nodes, np.log(weights), constrained)


def _random_point(problem: _Problem, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    theta = problem.to_theta(problem.start()) + rng.normal(0, 0.3, problem.n_parameters)
    return problem.from_theta(theta)


def test_gauss_hermite_integrates_the_normal_moments() -> None:
    nodes, weights = gauss_hermite(21)
    assert weights.sum() == pytest.approx(1.0, abs=1e-14)
    assert weights @ nodes == pytest.approx(0.0, abs=1e-14)
    assert weights @ nodes**2 == pytest.approx(1.0, abs=1e-13)
    assert weights @ nodes**4 == pytest.approx(3.0, abs=1e-12)
    # the spec's form: hermgauss nodes times sqrt(2), weights over sqrt(pi)
    x, w = np.polynomial.hermite.hermgauss(21)
    np.testing.assert_allclose(np.sort(x * np.sqrt(2)), nodes, atol=1e-12)
    np.testing.assert_allclose(w[np.argsort(x)] / np.sqrt(np.pi), weights, atol=1e-15)


def test_category_probabilities_sum_to_one_and_match_the_logistic_differences() -> None:
    beta = np.array([[-1.0, 0.5, 2.0], [nan, -0.2, 0.7]])
    fitted = np.isfinite(beta)
    valid = np.array([[True, True, True, True], [False, True, True, True]])
    lowest = np.array([0, 1])
    thresholds = extend_thresholds(beta, fitted, lowest)
    a = np.array([1.3, 0.8])
    z = np.linspace(-6, 6, 25)
    log_p, _, _ = category_terms(thresholds, a, z, valid)
    p = np.exp(log_p)
    np.testing.assert_allclose(p.sum(axis=1), 1.0, atol=1e-14)
    cumulative = 1 / (1 + np.exp(-(thresholds[:, :, None] - a[:, None, None] * z)))
    np.testing.assert_allclose(p, np.diff(cumulative, axis=1), atol=1e-15)
    assert (p[1, 0] == 0).all()  # the second judge never uses the lowest category


def test_extreme_thresholds_make_no_nan() -> None:
    beta = np.array([[-800.0, 800.0]])
    thresholds = extend_thresholds(beta, np.ones((1, 2), dtype=bool), np.array([0]))
    log_p, up, low = category_terms(
        thresholds, np.array([50.0]), np.array([-30.0, 0.0, 30.0]), np.ones((1, 3), bool)
    )
    assert np.isfinite(log_p).all() and np.isfinite(up).all() and np.isfinite(low).all()


@pytest.mark.parametrize("constrained", [True, False])
def test_kernel_gradient_matches_finite_differences(constrained: bool) -> None:
    problem = _problem(constrained)
    beta, a = problem.split(_random_point(problem, 1))
    data = problem.data
    thresholds = extend_thresholds(beta, data.fitted, data.lowest)

    def loglik(t: np.ndarray, disc: np.ndarray) -> float:
        value = loglik_gradient(
            data.patterns, t[None], disc[None], problem.nodes, problem.log_weights, data.valid
        )[0]
        return float(value[0])

    _, grad_t, grad_a = loglik_gradient(
        data.patterns, thresholds[None], a[None], problem.nodes, problem.log_weights, data.valid
    )
    h = 1e-6
    for j, b in zip(*np.nonzero(np.isfinite(thresholds)), strict=True):
        up, down = thresholds.copy(), thresholds.copy()
        up[j, b] += h
        down[j, b] -= h
        numeric = (loglik(up, a) - loglik(down, a)) / (2 * h)
        assert grad_t[0, j, b] == pytest.approx(numeric, rel=1e-6, abs=1e-5)
    assert (grad_t[0][~np.isfinite(thresholds)] == 0).all()
    for j in range(len(a)):
        up, down = a.copy(), a.copy()
        up[j] += h
        down[j] -= h
        numeric = (loglik(thresholds, up) - loglik(thresholds, down)) / (2 * h)
        assert grad_a[0, j] == pytest.approx(numeric, rel=1e-6, abs=1e-5)


@pytest.mark.parametrize("constrained", [True, False])
@pytest.mark.parametrize("seed", [1, 2])
def test_natural_and_optimiser_gradients_match_finite_differences(
    constrained: bool, seed: int
) -> None:
    problem = _problem(constrained, seed=seed + 10)
    nu = _random_point(problem, seed)
    _, grad = problem.loglik_gradient(nu)
    h = 1e-6
    for i in range(len(nu)):
        step = np.zeros_like(nu)
        step[i] = h
        numeric = (
            problem.loglik_gradient(nu + step)[0] - problem.loglik_gradient(nu - step)[0]
        ) / (2 * h)
        assert grad[i] == pytest.approx(numeric, rel=1e-6, abs=1e-5)
    theta = problem.to_theta(nu)
    np.testing.assert_allclose(problem.from_theta(theta), nu, rtol=1e-13, atol=1e-13)
    grad_theta = problem.theta_gradient(theta, grad)
    for i in range(len(theta)):
        step = np.zeros_like(theta)
        step[i] = h
        numeric = (
            problem.loglik_gradient(problem.from_theta(theta + step))[0]
            - problem.loglik_gradient(problem.from_theta(theta - step))[0]
        ) / (2 * h)
        assert grad_theta[i] == pytest.approx(numeric, rel=1e-6, abs=1e-5)


def test_batched_evaluation_equals_a_loop() -> None:
    problem = _problem(False)
    points = np.stack([_random_point(problem, s) for s in range(5)])
    loglik, grad = problem.loglik_gradients(points)
    for b, point in enumerate(points):
        one_loglik, one_grad = problem.loglik_gradient(point)
        assert loglik[b] == pytest.approx(one_loglik, rel=1e-13)
        np.testing.assert_allclose(grad[b], one_grad, rtol=1e-10, atol=1e-9)


def test_blocks_of_patterns_give_the_same_likelihood(monkeypatch: pytest.MonkeyPatch) -> None:
    frame = simulate(_truth(), 300, missing=0.1, rng=3)
    whole = frame.agree.irt()
    monkeypatch.setattr("pdagree.irt._data.BLOCK_CELLS", 100)  # blocks of 8 patterns
    monkeypatch.setattr("pdagree.irt._fit.BATCH_CELLS", 500)
    blocked = frame.agree.irt()
    assert blocked.loglik == pytest.approx(whole.loglik, rel=1e-12)
    pd.testing.assert_frame_equal(blocked.parameters, whole.parameters, atol=1e-7)
    pd.testing.assert_frame_equal(blocked.standard_errors, whole.standard_errors, atol=1e-6)


def test_hessian_is_the_derivative_of_the_gradient() -> None:
    problem = _problem(True)
    nu = _random_point(problem, 3)
    hess = problem.hessian(nu)
    np.testing.assert_array_equal(hess, hess.T)
    direction = np.random.default_rng(0).normal(size=len(nu))
    h = 1e-5
    numeric = (
        problem.loglik_gradient(nu + h * direction)[1]
        - problem.loglik_gradient(nu - h * direction)[1]
    ) / (2 * h)
    np.testing.assert_allclose(hess @ direction, numeric, rtol=1e-5, atol=1e-4)


def test_starting_values_are_ordered() -> None:
    problem = _problem(True)
    assert problem.ordered(problem.start())
