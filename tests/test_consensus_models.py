"""GLAD (Whitehill et al. 2009) and MACE (Hovy et al. 2013): each model's hand-built cases,
recovery of the parameters it simulates, ``by=`` equal to a loop, the Duck Identification
data with its truth, and crowd-kit's estimators where they are installed."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from peers import peer
from scipy.special import expit
from test_consensus import duck, long, simulate


def simulate_glad(
    n_items: int, ability: list[float], *, k: int = 3, seed: int = 0, coverage: float = 1.0
) -> tuple[pd.DataFrame, pd.Series, np.ndarray]:
    """GLAD's generative model: right with probability sigma(alpha_j beta_i), otherwise a
    uniformly drawn other category; log beta ~ N(1, 0.5^2)."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n_items)
    beta = np.exp(rng.normal(1.0, 0.5, n_items))
    frames = []
    for j, a in enumerate(ability):
        right = rng.random(n_items) < expit(a * beta)
        label = np.where(right, truth, (truth + rng.integers(1, k, n_items)) % k)
        seen = rng.random(n_items) < coverage
        frames.append(
            pd.DataFrame(
                {"item": np.arange(n_items)[seen], "rater": f"r{j}", "label": label[seen]}
            )
        )
    return pd.concat(frames, ignore_index=True), pd.Series(truth), beta


def simulate_mace(
    n_items: int, trust: list[float], strategy: list[list[float]], *, seed: int = 0
) -> tuple[pd.DataFrame, pd.Series]:
    """MACE's generative model: annotator j knows the category with probability theta_j,
    otherwise draws a label from its strategy xi_j."""
    rng = np.random.default_rng(seed)
    k = len(strategy[0])
    truth = rng.integers(0, k, n_items)
    frames = []
    for j, (theta, xi) in enumerate(zip(trust, strategy, strict=True)):
        knows = rng.random(n_items) < theta
        label = np.where(knows, truth, rng.choice(k, n_items, p=xi))
        frames.append(pd.DataFrame({"item": np.arange(n_items), "rater": f"r{j}", "label": label}))
    return pd.concat(frames, ignore_index=True), pd.Series(truth)


SPAMMERS = ([0.9, 0.7, 0.5, 0.1], [[1 / 3] * 3, [0.8, 0.1, 0.1], [0.1, 0.1, 0.8], [0.2, 0.6, 0.2]])


# --------------------------------------------------------------------------- GLAD


def test_glad_orders_abilities_and_gives_an_adversary_a_negative_one() -> None:
    df, truth, beta = simulate_glad(3000, [2.0, 1.0, 0.5, 0.0, -1.0], seed=1, coverage=0.8)
    c = long(df).consensus("glad")
    ability = c.quality["ability"]
    assert ability.is_monotonic_decreasing and ability["r4"] < -0.5 < 0.5 > abs(ability["r3"])
    assert c.confusion is None and c.converged
    # Accuracy: the mean of sigma(alpha_j beta_i) over the annotator's items.
    mine = df[df["rater"] == "r0"]["item"]
    expected = expit(ability["r0"] / c.difficulty.loc[mine].to_numpy()).mean()
    assert c.quality.loc["r0", "accuracy"] == pytest.approx(expected, rel=1e-12)
    # Difficulty follows the simulated 1 / beta.
    rated = c.difficulty.index.to_numpy()
    assert np.corrcoef(np.log(c.difficulty), -np.log(beta[rated]))[0, 1] > 0.3
    majority = long(df).consensus("majority", rng=0)
    truth = truth.loc[c.labels.index]
    assert (c.labels == truth).mean() > (majority.labels == truth).mean()
    np.testing.assert_allclose(c.probabilities.sum(axis=1), 1.0)


def test_glad_abilities_settle_as_items_grow() -> None:
    """The fitted abilities stop moving as items grow: the change from 10^3 to 10^4 items is
    smaller than from 10^2 to 10^3, and the ranks are the simulated ones."""
    fits = [
        long(simulate_glad(n, [1.5, 0.8, 0.3], seed=3)[0]).consensus("glad").quality["ability"]
        for n in (100, 1000, 10000)
    ]
    assert np.abs(fits[2] - fits[1]).max() < np.abs(fits[1] - fits[0]).max()
    assert fits[2].is_monotonic_decreasing


def test_glad_posterior_is_the_model_s_given_the_fitted_parameters() -> None:
    df, _, _ = simulate_glad(200, [1.5, 0.8, 0.3], seed=5, coverage=0.7)
    c = long(df).consensus("glad", tol=1e-10, max_iterations=1000)
    item = int(df["item"].iloc[0])
    rows = df[df["item"] == item]
    x = c.quality["ability"].loc[rows["rater"]].to_numpy() / c.difficulty.loc[item]
    log_p = np.zeros(3)
    for label, xa in zip(rows["label"], x, strict=True):
        log_p += np.where(np.arange(3) == label, np.log(expit(xa)), np.log((1 - expit(xa)) / 2))
    p = np.exp(log_p - log_p.max())
    np.testing.assert_allclose(c.probabilities.loc[item], p / p.sum(), rtol=1e-9)


# --------------------------------------------------------------------------- MACE


def test_mace_recovers_spamming_and_strategies() -> None:
    trust, strategy = SPAMMERS
    df, truth = simulate_mace(20000, trust, strategy, seed=2)
    c = long(df).consensus("mace")
    np.testing.assert_allclose(c.quality["spam"], 1 - np.array(trust), atol=0.02)
    np.testing.assert_allclose(c.strategy.iloc[1:].to_numpy(), strategy[1:], atol=0.03)
    np.testing.assert_allclose(c.strategy.sum(axis=1), 1.0)
    np.testing.assert_allclose(c.confusion.sum(axis=1), 1.0)
    # P(l | k) = theta [l = k] + (1 - theta) xi_l.
    theta = 1 - c.quality.loc["r1", "spam"]
    want = theta * np.eye(3) + (1 - theta) * c.strategy.loc["r1"].to_numpy()[None, :]
    np.testing.assert_allclose(c.confusion.loc["r1"].to_numpy(), want, rtol=1e-12)
    majority = long(df).consensus("majority", rng=0)
    assert (c.labels == truth).mean() > (majority.labels == truth).mean() + 0.03


def test_mace_and_glad_by_groups_equal_a_loop() -> None:
    df, _ = simulate(300, [0.9, 0.7, 0.6, 0.4], seed=5, coverage=0.7)
    df["task"] = np.where(df["item"] % 3 == 0, "easy", "hard")
    df.loc[(df["task"] == "easy") & (df["label"] == 2), "label"] = 1
    for method in ("glad", "mace"):
        grouped = long(df, by="task").consensus(method, ties="first", max_iterations=1000)
        for task in ("easy", "hard"):
            alone = long(df[df["task"] == task]).consensus(
                method, ties="first", max_iterations=1000
            )
            got = grouped.probabilities.loc[task][alone.probabilities.columns]
            np.testing.assert_allclose(got.to_numpy(), alone.probabilities.to_numpy(), atol=1e-12)
            np.testing.assert_allclose(
                grouped.quality.loc[task].to_numpy(), alone.quality.to_numpy(), atol=1e-12
            )
            assert grouped.n_iterations[task] == alone.n_iterations


def test_known_labels_and_one_rating_items_in_glad_and_mace() -> None:
    df, truth = simulate(300, [0.7, 0.6, 0.55], seed=2, coverage=0.6)
    known = truth.loc[np.unique(df["item"])].iloc[:50]
    for method in ("glad", "mace"):
        c = long(df).consensus(method, gold=known, max_iterations=500)
        assert (c.labels.loc[known.index] == known).all()
        single = c.to_frame()["n_ratings"] == 1
        assert single.any() and c.labels[single].notna().all()


# --------------------------------------------------------------------------- real data, peers


def test_duck_identification_with_glad_and_mace() -> None:
    # Measured with crowd-kit 1.4.2 on this file: GLAD 0.722, MACE (EM, one start) 0.880.
    answers, truth = duck()
    ratings = answers.agree(item="question", rater="worker", label="answer")
    for method, floor in (("glad", 0.722), ("mace", 0.880)):
        labels = ratings.consensus(method, max_iterations=500).labels
        assert (labels == truth.reindex(labels.index)).mean() >= floor - 1e-9, method


@pytest.mark.slow
def test_glad_equals_crowd_kit_and_mace_agrees_where_clear() -> None:
    aggregation = peer("crowdkit.aggregation")
    df, _, _ = simulate_glad(400, [2.0, 1.0, 0.5, 0.0, -1.0], seed=1, coverage=0.8)
    data = df.rename(columns={"item": "task", "rater": "worker"})
    glad = aggregation.GLAD(n_iter=500, tol=1e-10)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = glad.fit_predict_proba(data)
    ours = long(df).consensus("glad", tol=1e-10, max_iterations=1000)
    # Same model, priors and start; crowd-kit's conjugate-gradient M-step stops at its
    # own tolerance, so the two agree to about 1e-3.
    np.testing.assert_allclose(
        ours.probabilities.to_numpy(), theirs.sort_index()[[0, 1, 2]].to_numpy(), atol=5e-3
    )
    np.testing.assert_allclose(
        ours.quality["ability"], glad.alphas_.sort_index().to_numpy(), atol=5e-3
    )
    # crowd-kit's MACE (variational Bayes, ten random starts) is not the same estimator:
    # on these data it puts the spamming at 0.13, 0.27, 0.46, 0.80 where 0.1, 0.3, 0.5, 0.9
    # were simulated (ours: 0.09, 0.29, 0.51, 0.91). The labels agree where the posterior
    # is clear (margin above 0.3: 96 % of the items), and ours are as often right.
    trust, strategy = SPAMMERS
    df, truth = simulate_mace(3000, trust, strategy, seed=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = aggregation.MACE(n_iter=100).fit_predict(
            df.rename(columns={"item": "task", "rater": "worker"})
        )
    ours = long(df).consensus("mace", max_iterations=500)
    clear = ours.to_frame()["margin"] > 0.3
    agree = (ours.labels[clear] == want.reindex(ours.labels.index)[clear]).mean()
    assert clear.mean() > 0.9 and agree >= 0.99
    assert (ours.labels == truth).mean() >= (want.sort_index() == truth).mean()
