"""Wawa and zero-based skill (#30): the same labels as crowd-kit 1.4.2's ``Wawa`` and
``ZeroBasedSkill`` where crowd-kit's vote is clear, on the Duck Identification data and on
simulated crowds; ``by=`` equal to a loop; the skills as the algorithms define them."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from peers import peer
from test_consensus import duck, long, simulate

from pdagree import UndefinedStatisticWarning


def _crowd_kit(aggregation: Any, method: str, df: pd.DataFrame) -> tuple[pd.Series, pd.DataFrame]:
    model = {"wawa": aggregation.Wawa, "zero_based_skill": aggregation.ZeroBasedSkill}[method]()
    data = df.rename(columns={"item": "task", "rater": "worker"})
    with warnings.catch_warnings():  # crowd-kit 1.4.2 on pandas 3: its own deprecations
        warnings.simplefilter("ignore")
        # fit_predict = fit, then the skill-weighted majority vote; crowd-kit 1.4.2's predict
        # fails on scikit-learn >= 1.6 (check_is_fitted), so the vote is called directly.
        skills = model.fit(data).skills_
        vote = aggregation.MajorityVote().fit(data, skills=skills)
        labels, probas = vote.labels_, vote.probas_
    return labels, probas


def _agreement_where_clear(aggregation: Any, method: str, df: pd.DataFrame) -> tuple[float, int]:
    ours = long(df).consensus(method, ties="first")
    labels, probas = _crowd_kit(aggregation, method, df)
    top = np.sort(probas.to_numpy(), axis=1)
    clear = pd.Series(top[:, -1] - top[:, -2] > 0.1, index=probas.index)
    same = ours.labels.loc[labels.index] == labels
    return float(same[clear.loc[labels.index]].mean()), int(clear.sum())


@pytest.mark.slow
@pytest.mark.parametrize("method", ["wawa", "zero_based_skill"])
@pytest.mark.parametrize("seed", [0, 1])
def test_equal_to_crowd_kit_on_simulated_crowds(method: str, seed: int) -> None:
    df, _ = simulate(1500, [0.9, 0.75, 0.6, 0.45, 0.3], seed=seed, coverage=0.6)
    share, n_clear = _agreement_where_clear(peer("crowdkit.aggregation"), method, df)
    assert n_clear > 500
    assert share >= 0.98


@pytest.mark.slow
@pytest.mark.parametrize("method", ["wawa", "zero_based_skill"])
def test_equal_to_crowd_kit_on_duck_identification(method: str) -> None:
    answers, truth = duck()
    df = answers.rename(columns={"question": "item", "worker": "rater", "answer": "label"})
    share, n_clear = _agreement_where_clear(peer("crowdkit.aggregation"), method, df)
    assert n_clear > 50
    assert share >= 0.98
    ours = long(df).consensus(method, ties="first").labels
    majority = long(df).consensus("majority", ties="first").labels
    assert (ours == truth.loc[ours.index]).mean() >= (
        majority == truth.loc[ours.index]
    ).mean() - 0.02


def test_wawa_skill_is_the_agreement_with_the_plurality() -> None:
    df, _ = simulate(400, [0.9, 0.7, 0.5], seed=3, coverage=0.8)
    ratings = long(df)
    fit = ratings.consensus("wawa")
    plurality = ratings.consensus("majority", ties="first").labels
    rows = df.assign(vote=df["item"].map(plurality))
    expected = (rows["label"] == rows["vote"]).groupby(rows["rater"]).mean()
    np.testing.assert_allclose(fit.quality["skill"], expected.loc[fit.quality.index], rtol=1e-12)
    np.testing.assert_allclose(fit.probabilities.sum(axis=1), 1.0)


@pytest.mark.parametrize("method", ["wawa", "zero_based_skill"])
def test_by_equals_a_loop(method: str) -> None:
    frames = [
        simulate(200, [0.9, 0.6, 0.4], seed=s, coverage=0.7)[0].assign(g=s) for s in range(3)
    ]
    df = pd.concat(frames, ignore_index=True)
    df["item"] = df["g"].astype(str) + "-" + df["item"].astype(str)
    grouped = long(df, by="g").consensus(method, ties="first")
    for g, part in df.groupby("g"):
        alone = long(part).consensus(method, ties="first")
        pd.testing.assert_series_equal(
            grouped.labels.loc[g].rename(None), alone.labels.rename(None), check_index_type=False
        )
        np.testing.assert_allclose(
            grouped.quality.loc[g, "skill"].to_numpy(), alone.quality["skill"].to_numpy()
        )


@pytest.mark.parametrize("method", ["wawa", "zero_based_skill", "kos"])
def test_nan_accuracy_under_ties_nan_warns(method: str) -> None:
    # Every item an exact tie: with ties="nan" no item has a label, so each annotator's
    # accuracy against the labels is nan; majority vote warned, these methods did not
    # (found by the consensus fault suite).
    frame = pd.DataFrame({"r0": [1.0, 2.0], "r1": [2.0, 1.0]}, index=["i1", "i2"])
    with pytest.warns(UndefinedStatisticWarning, match=rf"method='{method}', ties='nan'"):
        fit = frame.agree.consensus(method, ties="nan", rng=0)
    assert fit.labels.isna().all()
    assert fit.quality["accuracy"].isna().all()
