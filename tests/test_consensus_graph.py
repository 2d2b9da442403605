"""KOS and M-MSR (#30): the same labels as crowd-kit 1.4.2's ``KOS`` and ``MMSR`` (where its
vote is clear), on the Duck Identification data and on simulated crowds; crowd-kit's MMSR
vote, which divides by a negative total weight; ``by=`` equal to a loop; invariance to the
order of rows and to renaming; hand cases."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from peers import peer
from test_consensus import duck, long, simulate

from pdagree import ConvergenceWarning, UndefinedStatisticWarning

CROWDS = [
    # (annotators' accuracies, categories): the last annotators are worse than chance.
    ([0.9, 0.75, 0.6, 0.45, 0.3], 2),
    ([0.8, 0.7, 0.6, 0.55, 0.2, 0.65], 2),
    ([0.9, 0.75, 0.6, 0.45, 0.3], 3),
]


def _tasks(df: pd.DataFrame) -> pd.DataFrame:
    return df.rename(columns={"item": "task", "rater": "worker"})


def _quiet() -> Any:
    return warnings.catch_warnings()  # crowd-kit 1.4.2 on pandas 3: its own deprecations


def _crowd_kit_kos(aggregation: Any, df: pd.DataFrame) -> pd.Series:
    with _quiet():
        warnings.simplefilter("ignore")
        return aggregation.KOS().fit(_tasks(df)).labels_


def _crowd_kit_mmsr(aggregation: Any, df: pd.DataFrame) -> tuple[pd.Series, pd.DataFrame]:
    """crowd-kit's skills (its vote weights) and the weighted vote they give: each item's sum
    of the weights of the annotators who gave each label."""
    data = _tasks(df)
    with _quiet():
        warnings.simplefilter("ignore")
        skills = aggregation.MMSR().fit(data).skills_
    weighted = data.join(skills.rename("w"), on="worker")
    scores = weighted.groupby(["task", "label"])["w"].sum().unstack(fill_value=0.0)
    return skills, scores


def _duck() -> pd.DataFrame:
    answers, _ = duck()
    return answers.rename(columns={"question": "item", "worker": "rater", "answer": "label"})


# --------------------------------------------------------------------------- crowd-kit


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("crowd", [0, 1])
def test_kos_equal_to_crowd_kit_on_simulated_crowds(seed: int, crowd: int) -> None:
    # crowd-kit's KOS exposes no scores, so every item counts.
    accuracy, k = CROWDS[crowd]
    df, _ = simulate(1500, accuracy, k=k, seed=seed, coverage=0.6)
    theirs = _crowd_kit_kos(peer("crowdkit.aggregation"), df)
    ours = long(df).consensus("kos", ties="first")
    assert ours.converged
    assert (ours.labels.loc[theirs.index] == theirs).mean() >= 0.98


@pytest.mark.slow
def test_kos_equal_to_crowd_kit_on_duck_identification() -> None:
    df = _duck()
    theirs = _crowd_kit_kos(peer("crowdkit.aggregation"), df)
    ours = long(df).consensus("kos", ties="first").labels
    assert (ours.loc[theirs.index] == theirs).mean() >= 0.98
    _, truth = duck()
    assert (ours == truth.loc[ours.index]).mean() == pytest.approx(0.7222, abs=1e-4)  # 78/108


def _mmsr_agreement(aggregation: Any, df: pd.DataFrame) -> tuple[float, int, pd.Series]:
    skills, scores = _crowd_kit_mmsr(aggregation, df)
    top = np.sort(scores.to_numpy(), axis=1)
    spread = np.abs(scores.to_numpy()).sum(axis=1)
    clear = pd.Series(top[:, -1] - top[:, -2] > 0.1 * spread, index=scores.index)
    ours = long(df).consensus("mmsr", ties="first")
    same = ours.labels.loc[scores.index] == scores.idxmax(axis=1)
    return float(same[clear].mean()), int(clear.sum()), skills


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("crowd", [0, 1, 2])
def test_mmsr_equal_to_crowd_kit_on_simulated_crowds(seed: int, crowd: int) -> None:
    accuracy, k = CROWDS[crowd]
    df, _ = simulate(1500, accuracy, k=k, seed=seed, coverage=0.6)
    share, n_clear, skills = _mmsr_agreement(peer("crowdkit.aggregation"), df)
    assert n_clear > 1000
    assert share >= 0.98
    ours = long(df).consensus("mmsr").quality["weight"]
    assert np.corrcoef(ours.loc[skills.index], skills)[0, 1] > 0.95


@pytest.mark.slow
def test_mmsr_equal_to_crowd_kit_on_duck_identification() -> None:
    share, n_clear, skills = _mmsr_agreement(peer("crowdkit.aggregation"), _duck())
    assert n_clear > 80
    assert share >= 0.98
    ours = long(_duck()).consensus("mmsr").quality["weight"]
    ours.index = ours.index.astype(skills.index.dtype)
    assert np.corrcoef(ours.loc[skills.index], skills)[0, 1] > 0.99


@pytest.mark.slow
def test_crowd_kit_mmsr_labels_invert_where_the_total_weight_is_negative() -> None:
    # crowd-kit 1.4.2's MMSR labels items by MajorityVote(skills=...), whose "probabilities"
    # divide each item's weighted votes by their sum; an annotator worse than chance has a
    # negative weight, and where an item's sum is negative the division reverses the order,
    # so crowd-kit picks the label with the *least* weight. Ours takes the largest.
    aggregation = peer("crowdkit.aggregation")
    df, _ = simulate(1500, [0.9, 0.75, 0.6, 0.45, 0.3], k=3, seed=0, coverage=0.6)
    data = _tasks(df)
    with _quiet():
        warnings.simplefilter("ignore")
        fitted = aggregation.MMSR().fit(data)
        theirs = aggregation.MajorityVote().fit(data, skills=fitted.skills_).labels_
    _, scores = _crowd_kit_mmsr(aggregation, df)
    scores = scores.loc[theirs.index]
    wrong = theirs != scores.idxmax(axis=1)
    assert wrong.sum() > 5
    assert (scores[wrong].sum(axis=1) < 0).all()
    ours = long(df).consensus("mmsr", ties="first").labels.loc[theirs.index]
    assert (ours[wrong] == scores[wrong].idxmax(axis=1)).mean() >= 0.98


def _ring(n_annotators: int, n_items: int = 120) -> tuple[pd.DataFrame, pd.Series]:
    """Perfect annotators, each item labelled by two neighbours on a ring: annotator ``a``
    shares items with ``a - 1`` and ``a + 1`` only."""
    truth = pd.Series(np.random.default_rng(0).integers(0, 2, n_items))
    first = np.arange(n_items) % n_annotators
    rows = pd.DataFrame(
        {
            "item": np.repeat(np.arange(n_items), 2),
            "rater": [f"w{(f + d) % n_annotators}" for f in first for d in (0, 1)],
        }
    )
    return rows.assign(label=truth.loc[rows["item"]].to_numpy()), truth


@pytest.mark.slow
@pytest.mark.parametrize("n_annotators", [5, 6])
def test_crowd_kit_mmsr_turns_perfect_annotators_against_the_truth(n_annotators: int) -> None:
    # crowd-kit 1.4.2's MMSR fills the agreement matrix with -1 / (M - 1) where two
    # annotators share no item (and on its diagonal) and reads those cells as disagreements
    # when it determines the skills' signs: on a ring of perfect annotators it gives some
    # a negative weight (5 annotators) or all a weight of 0 (6). Ours uses the pairs that
    # share items only: every one is equally good, and the labels are the truth.
    aggregation = peer("crowdkit.aggregation")
    df, truth = _ring(n_annotators)
    skills, _ = _crowd_kit_mmsr(aggregation, df)
    assert (skills <= 0).any()
    fit = long(df).consensus("mmsr")
    assert (fit.quality["weight"] > 0).all()
    assert fit.quality["skill"].nunique() == 1
    assert (fit.labels == truth).all()


@pytest.mark.slow
def test_crowd_kit_kos_labels_flip_with_the_parity_of_its_iterations() -> None:
    # Here the message operator's leading eigenvalue is negative: crowd-kit 1.4.2's KOS,
    # which does not rescale its messages, flips every label from one iteration to the
    # next, so n_iter=100 and n_iter=101 disagree on every item. Ours turns the messages
    # so that annotators are trusted on the whole, converges, and gives crowd-kit's labels
    # at its default (even) count.
    aggregation = peer("crowdkit.aggregation")
    df, _ = simulate(88, [0.70, 0.69, 0.83, 0.47], k=2, seed=113, coverage=0.7)
    with _quiet():
        warnings.simplefilter("ignore")
        even = aggregation.KOS(n_iter=100).fit(_tasks(df)).labels_
        odd = aggregation.KOS(n_iter=101).fit(_tasks(df)).labels_
    assert (even != odd).all()
    ours = long(df).consensus("kos", ties="first")
    assert ours.converged
    assert (ours.labels.loc[even.index] == even).all()
    # Stopped early, at an odd or an even count, the labels are the same.
    for cap in (ours.n_iterations // 2, ours.n_iterations // 2 + 1):
        with pytest.warns(ConvergenceWarning):
            again = long(df).consensus("kos", ties="first", max_iterations=cap).labels
        pd.testing.assert_series_equal(again, ours.labels)


# --------------------------------------------------------------------------- hand cases


def test_kos_rejects_more_than_two_labels() -> None:
    df, _ = simulate(30, [0.9, 0.8], k=3, seed=1)
    with pytest.raises(ValueError) as err:
        long(df).consensus("kos")
    assert str(err.value) == (
        "consensus(method='kos') is for binary labels (two categories); the labels are 3: "
        "[0, 1, 2]. Use a method for several categories, e.g. method='mmsr' or "
        "method='dawid_skene', or merge the labels into two."
    )
    two, _ = simulate(30, [0.9, 0.8], k=2, seed=1)
    both = pd.concat([two.assign(g="a"), df.assign(g="b")], ignore_index=True)
    with pytest.raises(ValueError, match=r"the labels of `by` group 'b' are 3: \[0, 1, 2\]"):
        long(both, by="g").consensus("kos")
    long(two.assign(label=two["label"].map({0: "no", 1: "yes"}))).consensus("kos")


def test_kos_follows_the_reliable_and_reverses_the_adversary() -> None:
    # Three annotators always right, one always wrong, one at random: the adversary's
    # reliability is the most negative, and the labels are the truth.
    rng = np.random.default_rng(5)
    truth = rng.integers(0, 2, 200)
    answers = {
        "a": truth,
        "b": truth,
        "c": truth,
        "liar": 1 - truth,
        "coin": rng.integers(0, 2, 200),
    }
    df = pd.DataFrame(answers)
    fit = df.agree().consensus("kos", ties="first")
    assert (fit.labels.to_numpy() == truth).all()
    reliability = fit.quality["reliability"]
    assert reliability[["a", "b", "c"]].tolist() == pytest.approx([1.0, 1.0, 1.0])
    assert reliability["liar"] == pytest.approx(-1.0)
    assert abs(reliability["coin"]) < 0.3
    assert fit.probabilities.isna().all().all()
    assert fit.to_frame()["probability"].isna().all()


def test_mmsr_identical_annotators_reach_the_clip() -> None:
    # Always agreeing: C~ = 1, u = v = 1 is the fixed point, s = 1 clipped to 1 - 1/sqrt(n);
    # with K = 2, p = (1 + s) / 2 and the weight log(p / (1 - p)).
    n = 64
    labels = np.tile(["x", "y"], n // 2)
    df = pd.DataFrame({"a": labels, "b": labels, "c": labels})
    fit = df.agree().consensus("mmsr")
    s = 1 - 1 / np.sqrt(n)
    p = (1 + s) / 2
    np.testing.assert_allclose(fit.quality["skill"], s, rtol=1e-12)
    np.testing.assert_allclose(fit.quality["accuracy"], p, rtol=1e-12)
    np.testing.assert_allclose(fit.quality["weight"], np.log(p / (1 - p)), rtol=1e-12)
    # The probabilities: the one-coin posterior, exp(3 w) against exp(0).
    w = np.log(p / (1 - p))
    np.testing.assert_allclose(fit.probabilities.max(axis=1), 1 / (1 + np.exp(-3 * w)))
    assert fit.labels.tolist() == labels.tolist()


def test_mmsr_recovers_a_worse_than_chance_annotator() -> None:
    df, truth = simulate(3000, [0.9, 0.8, 0.75, 0.7, 0.2], k=2, seed=3)
    fit = long(df).consensus("mmsr")
    s = fit.quality["skill"]
    np.testing.assert_allclose(s, [0.8, 0.6, 0.5, 0.4, -0.6], atol=0.08)
    assert (fit.labels == truth).mean() > (long(df).consensus("majority").labels == truth).mean()


@pytest.mark.parametrize("n_annotators", [5, 6, 8])
def test_mmsr_on_a_ring_of_perfect_annotators(n_annotators: int) -> None:
    # Only neighbours share items; every pair that does agrees always.
    df, truth = _ring(n_annotators)
    fit = long(df).consensus("mmsr")
    np.testing.assert_allclose(fit.quality["skill"], 1 - 1 / np.sqrt(120), rtol=1e-12)
    assert (fit.labels == truth).all()


def test_mmsr_warns_for_an_annotator_sharing_no_item() -> None:
    df, _ = simulate(100, [0.9, 0.8, 0.7], k=2, seed=2)
    alone = pd.DataFrame({"item": [1000, 1001], "rater": "solo", "label": [0, 1]})
    with pytest.warns(UndefinedStatisticWarning) as record:
        fit = long(pd.concat([df, alone], ignore_index=True)).consensus("mmsr", ties="nan")
    assert str(record[0].message) == (
        "consensus(method='mmsr'): 1 annotator(s) share no item with another annotator (or "
        "their group has one category), e.g. solo; their `skill` and `accuracy` are nan and "
        "their labels carry no weight."
    )
    assert np.isnan(fit.quality.loc["solo", "skill"])
    assert fit.quality.loc["solo", "weight"] == 0.0
    assert fit.labels.loc[[1000, 1001]].isna().all()  # no weight: a tie


# --------------------------------------------------------------------------- properties


@pytest.mark.parametrize("method", ["kos", "mmsr"])
def test_by_equals_a_loop(method: str) -> None:
    frames = [
        simulate(200 + 50 * s, [0.9, 0.7, 0.55, 0.3][: 3 + s % 2], k=2, seed=s, coverage=0.8)[
            0
        ].assign(g=s)
        for s in range(3)
    ]
    df = pd.concat(frames, ignore_index=True)
    grouped = long(df, by="g").consensus(method, ties="first")
    column = "reliability" if method == "kos" else "skill"
    for g, part in df.groupby("g"):
        alone = long(part).consensus(method, ties="first")
        pd.testing.assert_series_equal(
            grouped.labels.loc[g].rename(None), alone.labels.rename(None), check_index_type=False
        )
        np.testing.assert_allclose(
            grouped.quality.loc[g, column].to_numpy(), alone.quality[column].to_numpy()
        )
        assert grouped.n_iterations.loc[g] == alone.n_iterations
        pd.testing.assert_frame_equal(
            grouped.probabilities.loc[g], alone.probabilities, check_index_type=False
        )


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), method=st.sampled_from(["kos", "mmsr"]))
@example(seed=4559, method="kos")  # KOS settles slowly here (two eigenvalues of one size)
def test_invariant_to_row_order_and_renaming(seed: int, method: str) -> None:
    rng = np.random.default_rng(seed)
    # Better than chance on the whole (in a weak crowd KOS's messages need not settle).
    accuracy = [*rng.uniform(0.65, 0.95, rng.integers(3, 6)), float(rng.uniform(0.1, 0.9))]
    df, _ = simulate(int(rng.integers(80, 200)), accuracy, k=2, seed=seed, coverage=0.7)
    before = df.copy()
    with warnings.catch_warnings():
        # On a small crowd two eigenvalues of KOS's message operator, of opposite signs,
        # can be close in size: the messages settle slowly and may not meet `tol`.
        warnings.simplefilter("ignore", ConvergenceWarning)
        fit = long(df).consensus(method, ties="nan")
    pd.testing.assert_frame_equal(df, before)  # the user's frame is unchanged
    shuffled = df.sample(frac=1.0, random_state=seed).reset_index(drop=True)
    renamed = shuffled.assign(
        rater="z" + shuffled["rater"].str[::-1],
        label=shuffled["label"].map({0: "yes", 1: "no"}),  # reverses the category order
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        again = long(renamed).consensus(method, ties="nan")
    assert again.converged == fit.converged
    expected = fit.labels.map({0: "yes", 1: "no"})
    pd.testing.assert_series_equal(
        again.labels.sort_index(),
        expected.astype(again.labels.dtype).sort_index(),
        check_names=False,
    )
    column = "reliability" if method == "kos" else "skill"
    mine = fit.quality[column].rename(lambda r: "z" + r[::-1]).sort_index()
    np.testing.assert_allclose(again.quality[column].sort_index(), mine, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("method", ["kos", "mmsr"])
def test_known_labels_fix_their_items_and_the_expert_is_not_a_vote(method: str) -> None:
    df, truth = simulate(150, [0.9, 0.8, 0.7, 0.6], k=2, seed=6)
    expert = pd.DataFrame({"item": np.arange(0, 150, 3), "rater": "expert"})
    expert["label"] = 1 - truth.loc[expert["item"]].to_numpy()  # deliberately contrary
    both = pd.concat([df, expert], ignore_index=True)
    fit = long(both).consensus(method, gold="expert", ties="first")
    alone = long(df).consensus(method, ties="first")
    known = expert.set_index("item")["label"]
    assert (fit.labels.loc[known.index] == known).all()
    rest = fit.labels.index.difference(known.index)
    pd.testing.assert_series_equal(fit.labels.loc[rest], alone.labels.loc[rest])
    assert "expert" not in fit.quality.index
    if method == "mmsr":
        np.testing.assert_allclose(fit.probabilities.loc[known.index].max(axis=1), 1.0)


def test_a_group_with_one_category() -> None:
    df, _ = simulate(60, [0.9, 0.8, 0.7], k=2, seed=8)
    same = df.assign(label=0, item=df["item"] + 1000)
    both = pd.concat([df.assign(g="mixed"), same.assign(g="one")], ignore_index=True)
    kos = long(both, by="g").consensus("kos", ties="first")
    assert (kos.labels.loc["one"] == 0).all()
    with pytest.warns(UndefinedStatisticWarning, match=r"3 annotator\(s\) share no item"):
        mmsr = long(both, by="g").consensus("mmsr", ties="first")
    assert (mmsr.labels.loc["one"] == 0).all()
    assert mmsr.quality.loc["one", "skill"].isna().all()
    assert mmsr.quality.loc["mixed", "skill"].notna().all()


def test_kos_warns_where_its_messages_vanish() -> None:
    # Two annotators who share one item and rate nothing else: every message is zero, the
    # reliability 0 / 0 (found by the consensus fault suite: nan without a warning).
    df = pd.DataFrame({"item": ["i0", "i7", "i7", "i0"], "rater": ["r0", "r0", "r1", "r0"],
                       "label": [None, "same", "same", None]})  # fmt: skip
    ratings = df.agree(item="item", rater="rater", label="label")
    with pytest.warns(
        UndefinedStatisticWarning, match=r"`reliability` of 2 annotator\(s\) is nan"
    ):
        fit = ratings.consensus("kos")
    assert fit.quality["reliability"].isna().all()
    assert fit.labels.tolist() == ["same"]
