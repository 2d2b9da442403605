"""``Ratings.consensus_scores`` (#28): the BLUPs of the two-way random-effects model against
Henderson's mixed-model equations solved densely, the shrinkage on a complete design, the
plain aggregates, and a loop over ``by=`` groups."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import pdagree


def _long(seed: int, n: int = 30, k: int = 5, keep: float = 0.6) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    item_effect = rng.normal(size=n) * 2.0
    severity = rng.normal(size=k)
    rows = [
        (i, f"j{j}", 5.0 + item_effect[i] + severity[j] + rng.normal() * 0.7)
        for i in range(n)
        for j in range(k)
        if rng.random() < keep
    ]
    frame = pd.DataFrame(rows, columns=["item", "rater", "score"])
    return frame


def _henderson(frame: pd.DataFrame, s_a: float, s_b: float, s_e: float) -> dict[str, object]:
    """Henderson's equations for (mu, a, b), solved densely: the oracle."""
    items = sorted(frame["item"].unique())
    raters = sorted(frame["rater"].unique())
    n, k, m = len(items), len(raters), len(frame)
    x = np.ones((m, 1))
    za = np.zeros((m, n))
    za[np.arange(m), frame["item"].map({v: i for i, v in enumerate(items)})] = 1
    zb = np.zeros((m, k))
    zb[np.arange(m), frame["rater"].map({v: j for j, v in enumerate(raters)})] = 1
    w = np.hstack([x, za, zb])
    penalty = np.diag([0.0] + [s_e / s_a] * n + [s_e / s_b] * k)
    c = w.T @ w + penalty
    theta = np.linalg.solve(c, w.T @ frame["score"].to_numpy())
    inverse = np.linalg.inv(c) * s_e
    score = theta[0] + theta[1 : n + 1]
    pev = np.array(
        [inverse[0, 0] + 2 * inverse[0, 1 + i] + inverse[1 + i, 1 + i] for i in range(n)]
    )
    rater_pev = np.diag(inverse)[n + 1 :]
    return {
        "score": score,
        "se": np.sqrt(pev),
        "severity": theta[n + 1 :],
        "rater_se": np.sqrt(rater_pev),
    }


@pytest.mark.parametrize("seed", range(5))
def test_mixed_equals_hendersons_equations(seed: int) -> None:
    frame = _long(seed, keep=0.5 + 0.1 * (seed % 3))
    fit = frame.agree(item="item", rater="rater", label="score").consensus_scores()
    s_a, s_b, s_e = fit.variance_components[["item", "rater", "residual"]]
    oracle = _henderson(frame, s_a, s_b, s_e)
    np.testing.assert_allclose(fit.scores["score"], oracle["score"], rtol=1e-9)
    np.testing.assert_allclose(fit.scores["standard_error"], oracle["se"], rtol=1e-8)
    np.testing.assert_allclose(fit.raters["severity"], oracle["severity"], rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(fit.raters["standard_error"], oracle["rater_se"], rtol=1e-8)
    plain = frame.groupby("item")["score"].agg(["mean", "size"])
    np.testing.assert_allclose(fit.scores["mean"], plain["mean"], rtol=1e-12)
    assert fit.scores["n_ratings"].tolist() == plain["size"].tolist()


def test_components_are_the_iccs_reml() -> None:
    frame = _long(11)
    ratings = frame.agree(item="item", rater="rater", label="score")
    components = ratings.consensus_scores().variance_components
    from pdagree.icc._reml import reml
    from pdagree.scores import Scores

    s = Scores.of(ratings._data, "t")
    expected = reml(s.x, s.item, s.rater, s.n_items, s.n_raters)
    np.testing.assert_allclose(components.to_numpy(), expected, rtol=1e-9)


def test_complete_design_shrinks_by_the_reliability() -> None:
    rng = np.random.default_rng(3)
    wide = pd.DataFrame(
        rng.normal(size=(12, 4)) + rng.normal(size=(12, 1)) * 2 + [0.0, 1.0, -0.5, 0.3],
        columns=list("abcd"),
    )
    fit = wide.agree.consensus_scores()
    s_a, s_b, s_e = fit.variance_components
    grand = wide.to_numpy().mean()
    reliability = s_a / (s_a + s_e / 4)
    np.testing.assert_allclose(
        fit.scores["score"], grand + reliability * (wide.mean(axis=1) - grand), rtol=1e-9
    )
    # every rater rated every item: the severities are the raters' mean deviations shrunk
    shrink = s_b / (s_b + s_e / 12)
    np.testing.assert_allclose(
        fit.raters["severity"], shrink * (wide.mean(axis=0) - grand), rtol=1e-8
    )


def test_adjusts_for_a_severe_rater() -> None:
    # item 0 scored only by the severe rater "s", item 1 only by the lenient "l"
    rows = [
        (i, r, 5.0 + (i % 4) + {"s": -2.0, "l": 2.0, "m": 0.0}[r])
        for i in range(2, 40)
        for r in "slm"
    ]
    rows += [(0, "s", 4.0), (1, "l", 8.0)]
    frame = pd.DataFrame(rows, columns=["item", "rater", "score"])
    frame.loc[frame.index[::7], "score"] += 0.3  # some noise
    fit = frame.agree(item="item", rater="rater", label="score").consensus_scores()
    assert fit.scores.loc[0, "score"] > 5.0 > fit.scores.loc[0, "mean"]
    assert fit.scores.loc[1, "score"] < 7.0 < fit.scores.loc[1, "mean"]
    assert fit.raters.loc["s", "severity"] < 0 < fit.raters.loc["l", "severity"]


def test_by_equals_a_loop_and_offsets() -> None:
    frames = [_long(seed, n=20 + seed).assign(g=seed) for seed in range(3)]
    frame = pd.concat(frames)
    table = frame.agree(item="item", rater="rater", label="score", by="g").consensus_scores()
    for g, part in frame.groupby("g"):
        one = part.agree(item="item", rater="rater", label="score").consensus_scores()
        np.testing.assert_allclose(table.scores.loc[g, "score"], one.scores["score"], rtol=1e-8)
        np.testing.assert_allclose(
            table.raters.loc[g, "severity"], one.raters["severity"], rtol=1e-7, atol=1e-10
        )
        np.testing.assert_allclose(
            table.variance_components.loc[g], one.variance_components, rtol=1e-8
        )
    shifted = frames[0].assign(score=lambda f: f["score"] + 1e9)
    base = frames[0].agree(item="item", rater="rater", label="score").consensus_scores()
    moved = shifted.agree(item="item", rater="rater", label="score").consensus_scores()
    np.testing.assert_allclose(moved.scores["score"] - 1e9, base.scores["score"], atol=1e-6)


def test_mean_and_median() -> None:
    frame = _long(4)
    ratings = frame.agree(item="item", rater="rater", label="score")
    mean = ratings.consensus_scores("mean")
    median = ratings.consensus_scores("median")
    grouped = frame.groupby("item")["score"]
    np.testing.assert_allclose(mean.scores["score"], grouped.mean(), rtol=1e-12)
    np.testing.assert_allclose(median.scores["score"], grouped.median(), rtol=1e-12)
    np.testing.assert_allclose(
        mean.scores["standard_error"], grouped.std() / np.sqrt(grouped.size()), rtol=1e-12
    )
    deviation = frame["score"] - frame["item"].map(grouped.mean())
    np.testing.assert_allclose(
        mean.raters["severity"], deviation.groupby(frame["rater"]).mean(), rtol=1e-10
    )
    with pytest.raises(ValueError, match="`method` must be one of"):
        ratings.consensus_scores("bayes")  # type: ignore[arg-type]


def test_constant_scores_are_undefined() -> None:
    frame = pd.DataFrame({"a": [3, 3, 3], "b": [3, 3, 3]})
    with pytest.warns(pdagree.UndefinedStatisticWarning, match="consensus_scores"):
        fit = frame.agree.consensus_scores()
    assert fit.scores["score"].isna().all()
    # the plain mean is defined; the variance components beside it are not (warned)
    with pytest.warns(pdagree.UndefinedStatisticWarning, match="consensus_scores"):
        mean = frame.agree.consensus_scores("mean")
    assert mean.scores["score"].tolist() == [3.0] * 3
    assert mean.variance_components.isna().all()


def test_cli_icc_scores(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    import io

    from pdagree.cli import main

    frame = _long(6)
    path = f"{tmp_path}/scores.csv"
    frame.to_csv(path, index=False)
    argv = ["icc", path, "--item", "item", "--rater", "rater", "--label", "score"]
    assert main([*argv, "--scores", "--format", "csv"]) == 0
    table = pd.read_csv(io.StringIO(capsys.readouterr().out), index_col=0)
    fit = frame.agree(item="item", rater="rater", label="score").consensus_scores()
    np.testing.assert_allclose(table["score"], fit.scores["score"], rtol=1e-12)
    assert main([*argv, "--scores", "median", "--format", "csv"]) == 0
    table = pd.read_csv(io.StringIO(capsys.readouterr().out), index_col=0)
    np.testing.assert_allclose(table["score"], frame.groupby("item")["score"].median())


def test_complete_groups_with_positive_anova_components_take_them_exactly() -> None:
    # On a complete two-way layout REML's estimating equations are solved by the ANOVA
    # components when they are positive (Searle, Casella & McCulloch 1992, ch. 6): taken in
    # closed form they are exact, where the optimiser stopped up to 5e-4 (relative) away from
    # them in some of 20,000 groups of 2 items x 3 raters.
    n = 2000
    rng = np.random.default_rng(0)
    g = np.repeat(np.arange(n), 6)
    frame = pd.DataFrame(
        {
            "group": g,
            "item": g * 2 + np.tile(np.repeat([0, 1], 3), n),
            "rater": g * 3 + np.tile([0, 1, 2], 2 * n),
            "score": rng.normal(size=6 * n) + np.repeat(rng.normal(size=2 * n), 3),
        }
    )
    fit = frame.agree(item="item", rater="rater", label="score", by="group").consensus_scores()
    # the two-way ANOVA of each group by hand (n = 2 items, k = 3 raters)
    y = frame["score"].to_numpy().reshape(n, 2, 3)
    grand = y.mean(axis=(1, 2), keepdims=True)
    rows = 3 * ((y.mean(axis=2, keepdims=True) - grand) ** 2).sum(axis=(1, 2))
    cols = 2 * ((y.mean(axis=1, keepdims=True) - grand) ** 2).sum(axis=(1, 2))
    error = ((y - grand) ** 2).sum(axis=(1, 2)) - rows - cols
    ms_r, ms_c, ms_e = rows / 1, cols / 2, error / 2
    anova = np.stack([(ms_r - ms_e) / 3, (ms_c - ms_e) / 2, ms_e], axis=1)
    inside = (anova > 0).all(axis=1)
    assert 0.2 < inside.mean() < 0.6  # both kinds of groups are there
    got = fit.variance_components.to_numpy()
    # (1e-9: the hand sums cancel in the residual where it is small beside the total)
    np.testing.assert_allclose(got[inside], anova[inside], rtol=1e-9)
    assert (got[~inside] >= 0).all()  # the others from the optimiser, on the boundary side
