"""`irt()` against independent implementations of the same model on shared data.

- The ``mirt`` package (PyPI, MIT; an optional test dependency in the ``dev`` extra, skipped
  when absent): GRM, 21 Gauss-Hermite points, a common discrimination through its equality
  constraints, observed-information (Oakes) standard errors. Its ``thresholds`` are the
  extremities ``b_jk`` of ``a_j (z - b_jk)``.
- A brute-force maximisation written here from the model's definition: the per-item
  likelihood as products of logistic differences (no response patterns, no log-domain
  terms, no one-hot products), maximised by scipy's Nelder-Mead and Powell without any gradient,
  with standard errors from second differences of that likelihood and the delta method.

Estimates and standard errors must agree to 1e-3.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import optimize
from scipy.special import expit

import pdagree  # noqa: F401  (registers the accessor)
from pdagree.irt import simulate

nan = np.nan
TOL = 1e-3


def shared_data(seed: int = 3, n_items: int = 500) -> pd.DataFrame:
    truth = pd.DataFrame(
        {
            "discrimination": [1.3, 1.3, 1.3, 1.3, 1.3],
            "extremity_1": [-1.5, -1.2, -1.0, -1.4, -0.9],
            "extremity_2": [-0.3, 0.0, 0.2, -0.1, 0.1],
            "extremity_3": [0.8, 1.0, 1.3, 0.9, 1.1],
        },
        index=["J1", "J2", "J3", "J4", "J5"],
    )
    return simulate(truth, n_items, missing=0.1, rng=seed)


# --------------------------------------------------------------------------- mirt


def _mirt_fit(frame: pd.DataFrame, constrained: bool) -> tuple[pd.DataFrame, pd.DataFrame, float]:
    mirt = pytest.importorskip("mirt")
    data = (frame.astype("float64") - 1).to_numpy()  # codes 0 .. K-1, NaN missing
    constraints = [("discrimination", list(range(frame.shape[1])))] if constrained else None
    result = mirt.fit_mirt(
        data,
        model="GRM",
        n_quadpts=21,
        tol=1e-9,
        max_iter=20000,
        constraints=constraints,
    )
    assert result.converged

    def table(values: dict[str, np.ndarray]) -> pd.DataFrame:
        out = np.column_stack([values["discrimination"], values["thresholds"]])
        columns = ["discrimination"] + [f"extremity_{k}" for k in range(1, out.shape[1])]
        return pd.DataFrame(out, index=frame.columns, columns=columns)

    return (
        table(result.model.parameters),
        table(result.standard_errors),
        float(result.log_likelihood),
    )


@pytest.mark.parametrize("constrained", [True, False])
def test_agrees_with_mirt(constrained: bool) -> None:
    frame = shared_data()
    params, errors, loglik = _mirt_fit(frame, constrained)
    fit = frame.agree.irt(constrained=constrained)
    assert fit.loglik == pytest.approx(loglik, abs=TOL)
    pd.testing.assert_frame_equal(fit.parameters, params, atol=TOL, rtol=0, check_names=False)
    pd.testing.assert_frame_equal(fit.standard_errors, errors, atol=TOL, rtol=0, check_names=False)


def test_agrees_with_mirt_when_a_judge_never_uses_the_top_category() -> None:
    frame = shared_data(seed=4)
    frame["J2"] = frame["J2"].replace(4, 3)
    params, errors, loglik = _mirt_fit(frame, True)
    # mirt gives J2 three categories; its fourth threshold column is padding
    params.loc["J2", "extremity_3"] = nan
    errors.loc["J2", "extremity_3"] = nan
    fit = frame.agree.irt()
    assert np.isnan(fit.parameters.loc["J2", "extremity_3"])
    assert fit.loglik == pytest.approx(loglik, abs=TOL)
    pd.testing.assert_frame_equal(fit.parameters, params, atol=TOL, rtol=0, check_names=False)
    pd.testing.assert_frame_equal(fit.standard_errors, errors, atol=TOL, rtol=0, check_names=False)


# --------------------------------------------------------------------------- brute force


class BruteForce:
    """The constrained model's marginal likelihood, item by item, from its definition."""

    def __init__(self, frame: pd.DataFrame, n_nodes: int = 21) -> None:
        self.x = frame.to_numpy(dtype=float)  # categories 1 .. K, nan missing
        self.n_judges = frame.shape[1]
        self.n_categories = int(np.nanmax(self.x))
        x, w = np.polynomial.hermite.hermgauss(n_nodes)  # the spec's form
        self.z, self.w = np.sqrt(2) * x, w / np.sqrt(np.pi)

    def unpack(self, theta: np.ndarray) -> tuple[np.ndarray, float]:
        k = self.n_categories - 1
        raw = theta[:-1].reshape(self.n_judges, k)
        beta = np.cumsum(np.column_stack([raw[:, 0], np.exp(raw[:, 1:])]), axis=1)
        return beta, float(theta[-1])

    def loglik_natural(self, beta: np.ndarray, a: float) -> float:
        total = 0.0
        for row in self.x:  # item by item
            at_nodes = np.ones_like(self.z)
            for j, value in enumerate(row):
                if np.isnan(value):
                    continue
                k = int(value)
                upper = 1.0 if k == self.n_categories else expit(beta[j, k - 1] - a * self.z)
                lower = 0.0 if k == 1 else expit(beta[j, k - 2] - a * self.z)
                at_nodes = at_nodes * (upper - lower)
            total += np.log(np.sum(self.w * at_nodes))
        return total

    def loglik_vectorised(self, beta: np.ndarray, a: float) -> float:
        """The same sum, all items at once: one (items, nodes) factor per judge."""
        at_nodes = np.ones((len(self.x), len(self.z)))
        for j in range(self.n_judges):
            edges = np.concatenate([[-np.inf], beta[j], [np.inf]])
            cumulative = expit(edges[:, None] - a * self.z)  # (K + 1, nodes)
            given = ~np.isnan(self.x[:, j])
            k = self.x[given, j].astype(int)
            at_nodes[given] *= cumulative[k] - cumulative[k - 1]
        return float(np.log(at_nodes @ self.w).sum())

    def negative(self, theta: np.ndarray) -> float:
        beta, a = self.unpack(theta)
        return -self.loglik_vectorised(beta, a)


def _brute_force_fit(frame: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, float]:
    model = BruteForce(frame)
    k = model.n_categories - 1
    start = np.concatenate([np.tile(np.r_[-1.0, np.zeros(k - 1)], model.n_judges), [1.0]])
    result = optimize.minimize(
        model.negative,
        start,
        method="Nelder-Mead",
        options={"maxiter": 40000, "maxfev": 40000, "xatol": 1e-9, "fatol": 1e-11},
    )
    for _ in range(3):  # restarts settle the simplex
        result = optimize.minimize(
            model.negative, result.x, method="Powell", options={"xtol": 1e-10, "ftol": 1e-13}
        )
    beta, a = model.unpack(result.x)
    # observed information by second differences of the log-likelihood in (beta, a)
    natural = np.concatenate([beta.ravel(), [a]])

    def loglik(v: np.ndarray) -> float:
        return model.loglik_vectorised(v[:-1].reshape(model.n_judges, k), float(v[-1]))

    n = len(natural)
    h = 1e-4
    hess = np.empty((n, n))
    for i in range(n):
        for j in range(i, n):
            ei, ej = np.eye(n)[i] * h, np.eye(n)[j] * h
            hess[i, j] = hess[j, i] = (
                loglik(natural + ei + ej)
                - loglik(natural + ei - ej)
                - loglik(natural - ei + ej)
                + loglik(natural - ei - ej)
            ) / (4 * h * h)
    cov = np.linalg.inv(-hess)
    extremity = beta / a
    se_a = np.sqrt(cov[-1, -1])
    se_ext = np.empty_like(beta)
    for j in range(model.n_judges):
        for m in range(k):
            i = j * k + m
            grad = np.zeros(n)
            grad[i] = 1 / a
            grad[-1] = -beta[j, m] / a**2
            se_ext[j, m] = np.sqrt(grad @ cov @ grad)
    columns = ["discrimination"] + [f"extremity_{m}" for m in range(1, k + 1)]
    params = pd.DataFrame(
        np.column_stack([np.full(model.n_judges, a), extremity]),
        index=frame.columns,
        columns=columns,
    )
    errors = pd.DataFrame(
        np.column_stack([np.full(model.n_judges, se_a), se_ext]),
        index=frame.columns,
        columns=columns,
    )
    return params, errors, -float(result.fun)


def test_agrees_with_a_brute_force_maximisation() -> None:
    frame = shared_data(seed=7, n_items=300)[["J1", "J3", "J5"]]
    params, errors, loglik = _brute_force_fit(frame)
    fit = frame.agree.irt()
    assert fit.loglik == pytest.approx(loglik, abs=TOL)
    pd.testing.assert_frame_equal(fit.parameters, params, atol=TOL, rtol=0, check_names=False)
    pd.testing.assert_frame_equal(fit.standard_errors, errors, atol=TOL, rtol=0, check_names=False)


def test_loglik_equals_the_item_by_item_likelihood() -> None:
    frame = shared_data(seed=8, n_items=200)
    fit = frame.agree.irt()
    a = float(fit.parameters["discrimination"].iloc[0])
    beta = fit.parameters.iloc[:, 1:].to_numpy() * a
    model = BruteForce(frame)
    assert fit.loglik == pytest.approx(model.loglik_natural(beta, a), rel=1e-12)
    assert fit.loglik == pytest.approx(model.loglik_vectorised(beta, a), rel=1e-12)
