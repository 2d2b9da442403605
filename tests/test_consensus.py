"""Consensus labels: majority vote, Dawid & Skene's model and its one-coin form.

Hand-built cases (a perfect annotator, a spammer, an annotator who swaps two labels),
recovery of simulated parameters, ``by=`` equal to a loop, invariance to the order of rows and
to relabelling, known labels, bad input, and the real Duck Identification data with its truth
(``../shared/data/crowd/``), against crowd-kit where it is installed.
"""

from __future__ import annotations

import inspect
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from peers import peer

import pdagree
from pdagree import ConvergenceWarning
from pdagree import consensus as consensus_module
from pdagree.cli import _parser as cli_parser
from pdagree.consensus._em import FLOOR

CROWD = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "crowd"


def simulate(
    n_items: int,
    accuracy: list[float],
    *,
    k: int = 3,
    seed: int = 0,
    swap: int | None = None,
    coverage: float = 1.0,
) -> tuple[pd.DataFrame, pd.Series]:
    """Long ratings from one-coin annotators (``swap``: that annotator gives 1 for 0 and 0
    for 1, always), each item seen by each annotator with probability ``coverage``."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n_items)
    frames = []
    for j, a in enumerate(accuracy):
        correct = rng.random(n_items) < a
        wrong = (truth + rng.integers(1, k, n_items)) % k
        label = np.where(correct, truth, wrong)
        if j == swap:
            label = np.where(truth == 0, 1, np.where(truth == 1, 0, truth))
        seen = rng.random(n_items) < coverage
        frames.append(
            pd.DataFrame(
                {"item": np.arange(n_items)[seen], "rater": f"r{j}", "label": label[seen]}
            )
        )
    return pd.concat(frames, ignore_index=True), pd.Series(truth, name="truth")


def long(df: pd.DataFrame, **kw: object) -> pdagree.Ratings:
    return df.agree(item="item", rater="rater", label="label", **kw)


# --------------------------------------------------------------------------- majority


def test_majority_is_the_plurality_with_vote_shares_and_each_tie_rule() -> None:
    df = pd.DataFrame(
        {"a": ["x", "y", "x", "y"], "b": ["x", "y", "y", "x"], "c": ["x", "x", "z", "z"]}
    )
    ratings = df.agree()
    first = ratings.consensus("majority", ties="first")
    assert first.labels.tolist() == ["x", "y", "x", "x"]  # items 2 and 3: three-way ties
    np.testing.assert_allclose(first.probabilities.loc[1].to_numpy(), [1 / 3, 2 / 3, 0.0])
    np.testing.assert_allclose(first.probabilities.sum(axis=1), 1.0)
    nan = ratings.consensus("majority", ties="nan").labels
    assert nan.tolist()[:2] == ["x", "y"] and nan.iloc[2:].isna().all()
    # Random ties: seeded, among the tied categories only, each drawn.
    draws = {ratings.consensus("majority", rng=s).labels.iloc[3] for s in range(40)}
    assert draws == {"x", "y", "z"}
    same = [ratings.consensus("majority", rng=7).labels.tolist() for _ in range(2)]
    assert same[0] == same[1]
    # Accuracy: each annotator's agreement with the consensus.
    quality = first.quality
    assert quality.loc["a", "accuracy"] == pytest.approx(3 / 4)
    assert quality.loc["c", "accuracy"] == pytest.approx(1 / 4)
    assert quality["n_items"].tolist() == [4, 4, 4]
    assert first.confusion is None and first.converged and first.n_iterations == 0
    frame = first.to_frame()
    assert list(frame.columns) == ["label", "probability", "margin", "n_ratings"]
    np.testing.assert_allclose(frame["margin"], [1.0, 1 / 3, 0.0, 0.0])
    assert frame["n_ratings"].tolist() == [3, 3, 3, 3]


def test_an_item_without_votes_gets_no_label() -> None:
    df = pd.DataFrame({"a": [1, np.nan, 2], "b": [1, np.nan, 2]})
    for method in ("majority", "dawid_skene", "one_coin"):
        c = df.agree().consensus(method)
        assert c.labels.isna().tolist() == [False, True, False]
        assert c.probabilities.loc[1].isna().all()
        assert c.to_frame()["n_ratings"].tolist() == [2, 0, 2]


# --------------------------------------------------------------------------- Dawid-Skene


def test_dawid_skene_recovers_an_annotator_who_swaps_two_labels() -> None:
    df, truth = simulate(600, [0.9, 0.8, 0.7, 0.6, 0.5], swap=4)
    ds = long(df).consensus()
    majority = long(df).consensus("majority", rng=1)
    assert (ds.labels == truth).mean() > (majority.labels == truth).mean()
    swapped = ds.confusion.loc["r4"]
    assert swapped.loc[0, 1] > 0.97 and swapped.loc[1, 0] > 0.97 and swapped.loc[2, 2] > 0.97
    np.testing.assert_allclose(ds.confusion.sum(axis=1), 1.0)
    np.testing.assert_allclose(ds.probabilities.sum(axis=1), 1.0)
    assert ds.converged


def test_a_perfect_annotator_and_a_spammer() -> None:
    df, truth = simulate(800, [1.0, 0.75, 0.7, 1 / 3], seed=3)
    ds = long(df).consensus()
    majority = long(df).consensus("majority", rng=0)
    # The maximum-likelihood fit (crowd-kit's too) explains the 6 items where r1 and r2
    # agree on the same wrong label by r0 erring: r0 is 98.5 % accurate under the model.
    assert (ds.labels == truth).mean() > 0.99 > (majority.labels == truth).mean()
    assert ds.quality["accuracy"].idxmax() == "r0" and ds.quality.loc["r0", "accuracy"] > 0.98
    assert ds.quality.loc["r3", "accuracy"] == pytest.approx(1 / 3, abs=0.05)
    # The one-coin model's accuracies: the simulated ones.
    one = long(df).consensus("one_coin")
    np.testing.assert_allclose(one.quality["accuracy"], [1.0, 0.75, 0.7, 1 / 3], atol=0.04)
    conf = one.confusion.loc["r1"].to_numpy()
    assert np.allclose(np.diag(conf), conf[0, 0]) and np.allclose(conf.sum(axis=1), 1.0)


def test_parameters_approach_the_simulated_ones_as_items_grow() -> None:
    errors = []
    for n in (200, 2000, 20000):
        df, _ = simulate(n, [0.85, 0.7, 0.6, 0.55], seed=11, coverage=0.8)
        one = long(df).consensus("one_coin")
        errors.append(np.abs(one.quality["accuracy"].to_numpy() - [0.85, 0.7, 0.6, 0.55]).max())
    assert errors[2] < errors[0] and errors[2] < 0.02


def test_by_groups_equal_a_loop_over_the_groups() -> None:
    df, _ = simulate(300, [0.9, 0.7, 0.6, 0.4], seed=5, coverage=0.7)
    df["task"] = np.where(df["item"] % 3 == 0, "easy", "hard")
    df.loc[(df["task"] == "easy") & (df["label"] == 2), "label"] = 1  # own categories
    for method in ("majority", "dawid_skene", "one_coin"):
        grouped = long(df, by="task").consensus(method, ties="first")
        for task in ("easy", "hard"):
            alone = long(df[df["task"] == task]).consensus(method, ties="first")
            pd.testing.assert_series_equal(
                grouped.labels.loc[task], alone.labels, check_names=False, check_index_type=False
            )
            got = grouped.probabilities.loc[task][alone.probabilities.columns]
            np.testing.assert_allclose(got.to_numpy(), alone.probabilities.to_numpy(), atol=1e-12)
            np.testing.assert_allclose(
                grouped.quality.loc[task].to_numpy(), alone.quality.to_numpy(), atol=1e-12
            )
            if method != "majority":
                assert grouped.n_iterations[task] == alone.n_iterations
                assert grouped.log_likelihood[task] == pytest.approx(
                    alone.log_likelihood, abs=1e-9
                )


@pytest.mark.parametrize("method", ["dawid_skene", "one_coin", "glad", "mace"])
def test_row_order_annotator_names_and_label_names_change_nothing_but_names(
    method: str,
) -> None:
    df, _ = simulate(200, [0.9, 0.7, 0.6, 0.5], seed=8, coverage=0.8)
    base = long(df).consensus(method, max_iterations=1000)
    shuffled = long(df.sample(frac=1.0, random_state=1)).consensus(method, max_iterations=1000)
    pd.testing.assert_series_equal(
        base.labels, shuffled.labels.sort_index(), check_index_type=False
    )
    np.testing.assert_allclose(
        shuffled.probabilities.sort_index().to_numpy(), base.probabilities.to_numpy(), atol=1e-12
    )
    renamed = df.assign(
        label=df["label"].map({0: "a", 1: "b", 2: "c"}), rater=df["rater"].str.upper()
    )
    other = long(renamed).consensus(method, max_iterations=1000)
    assert (other.labels.map({"a": 0, "b": 1, "c": 2}) == base.labels).all()
    np.testing.assert_allclose(
        other.probabilities.to_numpy(), base.probabilities.to_numpy(), atol=1e-12
    )
    np.testing.assert_allclose(other.quality.to_numpy(), base.quality.to_numpy(), atol=1e-12)


def test_known_labels_fix_their_items_and_a_gold_rater_is_not_a_vote() -> None:
    df, truth = simulate(300, [0.7, 0.6, 0.55], seed=2)
    known = truth.iloc[:100]
    c = long(df).consensus(gold=known)
    assert (c.labels.iloc[:100] == known).all()
    np.testing.assert_allclose(c.probabilities.iloc[:100].max(axis=1), 1.0)
    gold_rows = pd.DataFrame({"item": np.arange(300), "rater": "expert", "label": truth})
    with_expert = long(pd.concat([df, gold_rows])).consensus(gold="expert")
    assert "expert" not in with_expert.quality.index
    assert (with_expert.labels == truth).all()
    with pytest.raises(ValueError, match="labels no annotator gave"):
        long(df).consensus(gold=pd.Series({0: 9}))
    with pytest.raises(ValueError, match=r"items that are not in the ratings, e.g. \[5000\]"):
        long(df).consensus(gold=pd.Series({0: 1, 5000: 1}))


def test_small_and_degenerate_data() -> None:
    one_rater = pd.DataFrame({"a": ["x", "y", "x"]})
    with pytest.raises(ValueError, match="at least two raters"):
        one_rater.agree().consensus()
    one_category = pd.DataFrame({"a": ["x", "x"], "b": ["x", "x"]})
    c = one_category.agree().consensus()
    assert c.labels.tolist() == ["x", "x"] and c.quality["accuracy"].tolist() == [1.0, 1.0]
    # Items with one rating are kept: their posterior is the model's given that rating.
    df, _ = simulate(200, [0.9, 0.8, 0.6], seed=4, coverage=0.5)
    c = long(df).consensus()
    single = c.to_frame()["n_ratings"] == 1
    assert single.any() and c.labels[single].notna().all()
    one = df[df["item"] == single.idxmax()].iloc[0]
    # Probabilities below FLOOR (1e-10) count as FLOOR, so that no category is ruled out.
    confusion = c.confusion.loc[one["rater"]][one["label"]].to_numpy()
    given = np.maximum(c.priors.to_numpy(), FLOOR) * np.maximum(confusion, FLOOR)
    np.testing.assert_allclose(c.probabilities.loc[one["item"]], given / given.sum(), rtol=1e-6)


def test_a_fit_that_does_not_converge_warns() -> None:
    df, _ = simulate(200, [0.9, 0.6, 0.5], seed=6)
    with pytest.warns(ConvergenceWarning, match="did not converge in 1 iterations"):
        c = long(df).consensus(max_iterations=1)
    assert not c.converged and c.n_iterations == 1


def test_a_slow_fit_runs_until_its_posteriors_settle() -> None:
    # 100 items, two categories, about three annotators each: every EM iteration moves the
    # posteriors by 0.989 times the previous one. The gain of the log-likelihood per
    # annotation fell below 1e-6 after 49 iterations, with posteriors still 0.15 from the
    # fit's (#26); the fit now runs until the change to come is below `tol` too.
    df, _ = simulate(300, [0.9, 0.7, 0.6, 0.4], seed=5, coverage=0.7)
    easy = df[df["item"] % 3 == 0].replace({"label": {2: 1}})
    fit = long(easy).consensus()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        tight = long(easy).consensus(tol=1e-13, max_iterations=100_000)
    assert fit.converged and fit.n_iterations > 1000
    assert tight.converged and tight.n_iterations > fit.n_iterations
    np.testing.assert_allclose(
        fit.probabilities.to_numpy(), tight.probabilities.to_numpy(), rtol=0, atol=1e-5
    )
    np.testing.assert_allclose(
        fit.quality["accuracy"].to_numpy(), tight.quality["accuracy"].to_numpy(), atol=1e-5
    )


def test_one_set_of_defaults_for_the_function_the_method_and_the_cli() -> None:
    wanted = {"max_iterations": consensus_module.MAX_ITERATIONS, "tol": consensus_module.TOL}
    for function in (consensus_module.fit, pdagree.Ratings.consensus):
        parameters = inspect.signature(function).parameters
        assert {name: parameters[name].default for name in wanted} == wanted
    parser = cli_parser()
    args = parser.parse_args(["consensus", "ratings.csv"])
    assert args.max_iterations == consensus_module.MAX_ITERATIONS


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"method": "vote"}, ValueError, "`method` must be one of 'majority'"),
        ({"ties": "last"}, ValueError, "`ties` must be one of"),
        ({"max_iterations": 0}, ValueError, "`max_iterations` must be a positive integer"),
        ({"max_iterations": 2.5}, TypeError, "`max_iterations` must be a positive integer"),
        ({"tol": -1.0}, ValueError, "`tol` must be a positive finite number"),
    ],
)
def test_bad_options_name_the_parameter(kwargs: dict, error: type, match: str) -> None:
    df = pd.DataFrame({"a": ["x", "y"], "b": ["x", "x"]})
    with pytest.raises(error, match=match):
        df.agree().consensus(**kwargs)


def test_a_counts_table_has_no_annotators() -> None:
    counts = pd.DataFrame({"x": [2, 1], "y": [0, 1]})
    with pytest.raises(ValueError, match="`consensus\\(\\)` needs to know which rater"):
        counts.agree(layout="counts").consensus()


def test_the_frame_is_not_modified() -> None:
    df, _ = simulate(50, [0.9, 0.6], seed=1)
    before = df.copy()
    long(df).consensus(gold=pd.Series({0: 1}))
    pd.testing.assert_frame_equal(df, before)


# --------------------------------------------------------------------------- real data, peers


def duck() -> tuple[pd.DataFrame, pd.Series]:
    if not CROWD.is_dir():
        pytest.skip(f"the shared crowd data are not beside the project ({CROWD})")
    answers = pd.read_csv(CROWD / "duck_identification_answers.csv")
    truth = pd.read_csv(CROWD / "duck_identification_truth.csv").set_index("question")["truth"]
    return answers, truth


def test_duck_identification_accuracy_against_its_truth() -> None:
    # crowd-kit 1.4.2 on this file (the data's README): majority 0.759, Dawid-Skene 0.889.
    answers, truth = duck()
    ratings = answers.agree(item="question", rater="worker", label="answer")
    labels = ratings.consensus("majority", ties="nan").labels
    decided = labels.dropna()
    split = ((decided == truth.reindex(decided.index)).sum() + 0.5 * labels.isna().sum()) / len(
        truth
    )
    assert split == pytest.approx(0.759, abs=0.0005)
    ds = ratings.consensus().labels
    assert (ds == truth.reindex(ds.index)).mean() >= 0.889


@pytest.mark.parametrize("method", ["dawid_skene", "one_coin", "glad", "mace"])
def test_the_defaults_give_labels_and_margins_stable_to_1e_4(method: str) -> None:
    # #26: with the old defaults (the log-likelihood's gain per annotation below 1e-6, 100
    # iterations) Dawid-Skene stopped after 8 iterations with margins 2.2e-3 away from the
    # fit's, MACE after 33 with margins 2.5e-2 away.
    answers, _ = duck()
    ratings = answers.agree(item="question", rater="worker", label="answer")
    fit = ratings.consensus(method, ties="first")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        tight = ratings.consensus(method, ties="first", tol=1e-13, max_iterations=100_000)
    assert fit.converged and tight.n_iterations > fit.n_iterations
    ours, limit = fit.to_frame(), tight.to_frame()
    assert ours["label"].tolist() == limit["label"].tolist()
    np.testing.assert_allclose(ours["margin"], limit["margin"], rtol=0, atol=1e-4)
    np.testing.assert_allclose(
        fit.probabilities.to_numpy(), tight.probabilities.to_numpy(), rtol=0, atol=1e-4
    )


@pytest.mark.slow
def test_one_coin_with_the_defaults_equals_crowd_kit_run_to_its_end() -> None:
    # Same model, start (majority vote) and M-step: the fixed points are equal, and the
    # defaults stop within 1e-6 of it (the old defaults: 1e-3).
    aggregation = peer("crowdkit.aggregation")
    answers, _ = duck()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = aggregation.OneCoinDawidSkene(n_iter=10_000, tol=1e-12).fit_predict_proba(
            answers.rename(columns={"question": "task", "answer": "label"})
        )
    ours = answers.agree(item="question", rater="worker", label="answer").consensus("one_coin")
    np.testing.assert_allclose(
        ours.probabilities.to_numpy(), theirs.sort_index()[[0, 1]].to_numpy(), rtol=0, atol=1e-6
    )


@pytest.mark.slow
def test_the_same_labels_as_crowd_kit_where_the_posterior_is_clear() -> None:
    aggregation = peer("crowdkit.aggregation")
    shapes = [
        {"n_items": 400, "accuracy": [0.9, 0.7, 0.6, 0.5], "k": 3, "seed": 1, "coverage": 0.8},
        {
            "n_items": 300,
            "accuracy": [0.8, 0.8, 0.6, 0.55, 0.4],
            "k": 2,
            "seed": 2,
            "coverage": 0.6,
        },
        {"n_items": 500, "accuracy": [0.7, 0.6, 0.6], "k": 5, "seed": 3, "coverage": 1.0},
    ]
    for shape in shapes:
        df, _ = simulate(**shape)  # type: ignore[arg-type]
        data = df.rename(columns={"item": "task", "rater": "worker"})
        for ours_name, theirs in (
            ("dawid_skene", aggregation.DawidSkene(n_iter=200, tol=1e-9)),
            ("one_coin", aggregation.OneCoinDawidSkene(n_iter=200, tol=1e-9)),
        ):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = theirs.fit_predict(data)
            ours = long(df).consensus(ours_name, tol=1e-9, max_iterations=2000)
            clear = ours.to_frame()["margin"] > 0.1
            agree = (ours.labels[clear] == want.reindex(ours.labels.index)[clear]).mean()
            assert agree >= 0.99, (ours_name, shape, agree)


def test_labels_keep_a_declared_scale_and_the_labels_own_values() -> None:
    scale = ["low", "mid", "high"]
    df = pd.DataFrame(
        {
            c: pd.Categorical(v, categories=scale, ordered=True)
            for c, v in {
                "a": ["low", "mid", "low"],
                "b": ["low", "mid", "mid"],
                "c": ["low", "low", "mid"],
            }.items()
        }
    )
    for method in ("majority", "dawid_skene"):
        labels = df.agree.consensus(method, ties="nan").labels
        assert isinstance(labels.dtype, pd.CategoricalDtype)
        assert list(labels.cat.categories) == scale and labels.cat.ordered
        assert labels.tolist()[:2] == ["low", "mid"]
    numbers = pd.DataFrame({"a": [1, 2, 1], "b": [1, 2, 2], "c": [1, 1, 2]})
    assert numbers.agree.consensus().labels.dtype == np.int64
    text = numbers.astype(str)
    assert text.agree.consensus().labels.tolist() == ["1", "2", "2"]


# --------------------------------------------------------------------------- size bound


def test_a_confusion_matrix_per_annotator_too_large_is_refused_before_allocating() -> None:
    # #26: 17,284 annotators and 200 labels make 5.15 GiB per (annotators, K, K) array; the
    # fit failed with a raw MemoryError. One rating each: the frame is small.
    n = 17_284
    df = pd.DataFrame(
        {"item": np.arange(n) // 2, "rater": np.arange(n), "label": np.arange(n) % 200}
    )
    ratings = long(df)
    for method in ("dawid_skene", "one_coin", "mace"):
        tracemalloc.start()
        try:
            with pytest.raises(ValueError) as caught:
                ratings.consensus(method)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 100 * 2**20, peak  # refused before the 5.15 GiB arrays
        message = str(caught.value)
        assert f"consensus(method={method!r}) keeps a 200 x 200 confusion matrix" in message
        assert "each of 17,284 annotators: 5.15 GiB per array" in message
        assert "bound of 0.50 GiB per array" in message
        assert "MAX_CONFUSION_CELLS = 67,108,864 cells" in message
        assert "method='majority' or method='glad'" in message
    assert ratings.consensus("majority", ties="first").labels.notna().all()


def test_the_size_bound_is_on_the_cells_of_one_array(monkeypatch: pytest.MonkeyPatch) -> None:
    df, _ = simulate(40, [0.9, 0.7, 0.6], seed=1)  # 3 annotators, 3 categories: 27 cells
    monkeypatch.setattr("pdagree.consensus._size.MAX_CONFUSION_CELLS", 27)
    assert long(df).consensus().converged
    monkeypatch.setattr("pdagree.consensus._size.MAX_CONFUSION_CELLS", 26)
    for method in ("dawid_skene", "one_coin", "mace"):
        with pytest.raises(ValueError, match=r"3 x 3 confusion matrix for each of 3 annotators"):
            long(df).consensus(method)
    assert long(df).consensus("glad").converged and long(df).consensus("majority").converged
    # With by=, the (group, annotator) pairs count.
    grouped = df.assign(task=df["item"] % 2)
    monkeypatch.setattr("pdagree.consensus._size.MAX_CONFUSION_CELLS", 53)
    with pytest.raises(ValueError, match=r"each of 6 \(group, annotator\) pairs"):
        long(grouped, by="task").consensus()


def test_an_annotator_without_a_decided_item_has_nan_accuracy_with_a_warning() -> None:
    # Found by tests/test_fault_consensus.py: majority vote with ties="nan" gave nan
    # accuracies with no warning.
    df = pd.DataFrame({"r0": [np.nan, 1.0, 1.0], "r1": [np.nan, 2.0, 1.0], "r2": [3, 4, 1]})
    with pytest.warns(
        pdagree.UndefinedStatisticWarning, match=r"2 annotator\(s\) rated only .* e\.g\. r0, r1;"
    ):
        c = df.iloc[:2].agree.consensus("majority", ties="nan")  # item 1: a three-way tie
    assert c.quality["accuracy"].isna().tolist() == [True, True, False]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        c = df.agree.consensus("majority", ties="nan")  # every annotator has a decided item
    assert c.quality["accuracy"].notna().all()


def test_a_group_with_known_labels_and_no_votes_has_nan_priors_with_a_warning() -> None:
    # Found by tests/test_fault_consensus.py: the group's majority priors (vote shares) were
    # nan with no warning; the models' priors count the known items.
    df = pd.DataFrame(
        {
            "item": ["i0", "i0", "i1", "i2", "i2"],
            "rater": ["expert", "r1", "expert", "expert", "r1"],
            "label": ["x", "x", "y", "y", "x"],
            "task": ["a", "a", "b", "a", "a"],
        }
    )
    ratings = long(df, by="task")
    with pytest.warns(
        pdagree.UndefinedStatisticWarning,
        match=r"1 `by` group\(s\) have known labels and no votes, e\.g\. b;",
    ):
        c = ratings.consensus("majority", gold="expert")
    assert c.priors.loc["b"].isna().all() and c.priors.loc["a"].notna().all()
    assert c.labels.loc[("b", "i1")] == "y"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ds = ratings.consensus(gold="expert")
    assert ds.priors.loc["b"].tolist() == [0.0, 1.0]


def test_mmsr_refuses_more_annotator_pairs_than_it_can_hold_before_building_them() -> None:
    # 9,000 annotators who all rate one item: 80,991,000 ordered pairs, several arrays of
    # them (GiBs) before the fit; refused with the sizes. The frame itself is small.
    n = 9_000
    df = pd.DataFrame({"item": np.zeros(n, dtype=int), "rater": np.arange(n), "label": n * [1]})
    df.loc[::2, "label"] = 0
    ratings = long(df)
    tracemalloc.start()
    try:
        with pytest.raises(ValueError) as caught:
            ratings.consensus("mmsr")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100 * 2**20, peak
    message = str(caught.value)
    assert "up to 80,991,000 pairs here (9,000 annotators)" in message
    assert "bound of 33,554,432 (pdagree.consensus.MAX_PAIRS)" in message
    assert "method='wawa', 'zero_based_skill' or 'majority'" in message
    assert ratings.consensus("wawa", ties="first").labels.notna().all()


def test_the_pair_bound_counts_pairs_within_items_and_within_groups(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 3 annotators on every item: 6 ordered pairs per item, but only 6 distinct pairs.
    df, _ = simulate(40, [0.9, 0.7, 0.6], seed=1)
    monkeypatch.setattr("pdagree.consensus._size.MAX_PAIRS", 6)
    assert long(df).consensus("mmsr").labels.notna().all()
    monkeypatch.setattr("pdagree.consensus._size.MAX_PAIRS", 5)
    with pytest.raises(ValueError, match=r"up to 6 pairs here \(3 annotators\)"):
        long(df).consensus("mmsr")
    assert long(df).consensus("majority").converged  # the other methods keep no pairs
    # With by=, pairs of keys within a group: 2 groups x 6.
    grouped = df.assign(task=df["item"] % 2)
    monkeypatch.setattr("pdagree.consensus._size.MAX_PAIRS", 11)
    with pytest.raises(ValueError, match=r"up to 12 pairs here \(6 \(group, annotator\) keys\)"):
        long(grouped, by="task").consensus("mmsr")


def test_mmsr_whose_rank_one_fit_runs_off_stops_with_one_warning() -> None:
    # Found by tests/test_fault_consensus.py: r0 and r2 share one item, r1 and r2 two on
    # which they agree as often as chance; M-MSR's factors for r0 doubled and for r2 halved
    # each step, overflowing after 10,000 iterations (36,878 numpy RuntimeWarnings, a
    # ConvergenceWarning and a warning saying they share no item). The group stops once its
    # factors pass 2**200: skills nan, one warning saying why.
    df = pd.DataFrame(
        {
            "r0": [np.nan, np.nan, np.nan, np.nan, 1.0],
            "r1": [np.nan, 1.0, 2.0, np.nan, np.nan],
            "r2": [np.nan, 1.0, 1.0, np.nan, 1.0],
        },
        index=pd.Index([f"i{i}" for i in range(5)], name="item"),
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fit = df.agree.consensus("mmsr", ties="first")
    assert [w.category for w in caught] == [pdagree.UndefinedStatisticWarning]
    assert "the rank-one fit of the annotators' agreements ran off" in str(caught[0].message)
    assert fit.quality["skill"].isna().all() and (fit.quality["weight"] == 0).all()
    assert fit.converged and fit.n_iterations < 1000
    # the same two groups side by side with a healthy one: only the first runs off
    healthy = pd.DataFrame(
        {"r0": [1, 2, 1, 2, 1, 1], "r1": [1, 2, 1, 2, 2, 1], "r2": [1, 2, 2, 2, 1, 1]},
        index=pd.Index([f"h{i}" for i in range(6)], name="item"),
    ).astype(float)
    both = pd.concat([df.assign(g="off"), healthy.assign(g="ok")]).reset_index()
    long = both.melt(id_vars=["g", "item"], var_name="rater", value_name="label").dropna()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pdagree.UndefinedStatisticWarning)
        grouped = long.agree(item="item", rater="rater", label="label", by="g").consensus(
            "mmsr", ties="first"
        )
    alone = healthy.agree.consensus("mmsr", ties="first")
    np.testing.assert_allclose(
        grouped.quality.loc["ok", "skill"].to_numpy(), alone.quality["skill"].to_numpy()
    )
    assert grouped.quality.loc["off", "skill"].isna().all()
