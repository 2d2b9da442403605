"""`against(gold)`: each rater against a reference, by hand and against scikit-learn."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from layouts import to_long

import pdagree
from pdagree import UndefinedStatisticWarning

sklearn_metrics = pytest.importorskip("sklearn.metrics")

# A confusion matrix written out by hand: rows the reference, columns the rater.
#            rater x  y  z
#   gold x         3  1  0     (4 items)
#   gold y         1  2  1     (4 items)
#   gold z         0  0  2     (2 items)
GOLD = ["x"] * 4 + ["y"] * 4 + ["z"] * 2
RATER = ["x", "x", "x", "y", *["x", "y", "y", "z"], "z", "z"]  # row by row

# One category against the rest, read off the table: (TP, FP, FN, TN).
HAND = {"x": (3, 1, 1, 5), "y": (2, 1, 2, 5), "z": (2, 1, 0, 7)}
HAND_SCORES = {  # precision, recall, F1, F2, specificity, accuracy
    "x": (3 / 4, 3 / 4, 6 / 8, 15 / 20, 5 / 6, 8 / 10),
    "y": (2 / 3, 2 / 4, 4 / 7, 10 / 19, 5 / 6, 7 / 10),
    "z": (2 / 3, 2 / 2, 4 / 5, 10 / 11, 7 / 8, 9 / 10),
}


def hand_frame() -> pd.DataFrame:
    return pd.DataFrame({"gold": GOLD, "ann": RATER}, index=pd.RangeIndex(10, name="item"))


def test_hand_computed_confusion_matrix() -> None:
    table = hand_frame().agree.against("gold", beta=2)
    assert table.index.names == ["rater", "category"]
    assert list(table.index) == [("ann", "x"), ("ann", "y"), ("ann", "z")]
    for category, (tp, fp, fn, tn) in HAND.items():
        row = table.loc[("ann", category)]
        assert (row["tp"], row["fp"], row["fn"], row["tn"]) == (tp, fp, fn, tn)
        assert row["support"] == tp + fn
        precision, recall, f1, f2, specificity, accuracy = HAND_SCORES[category]
        assert row["precision"] == pytest.approx(precision, abs=1e-15)
        assert row["recall"] == pytest.approx(recall, abs=1e-15)
        assert row["f1"] == pytest.approx(f1, abs=1e-15)
        assert row["fbeta"] == pytest.approx(f2, abs=1e-15)
        assert row["specificity"] == pytest.approx(specificity, abs=1e-15)
        assert row["accuracy"] == pytest.approx(accuracy, abs=1e-15)
        # Fort (2011): silence and noise are the complements, sensitivity is recall and
        # selectivity is precision.
        assert row["silence"] == pytest.approx(1 - recall, abs=1e-15)
        assert row["noise"] == pytest.approx(1 - precision, abs=1e-15)
        assert row["sensitivity"] == row["recall"]
        assert row["selectivity"] == row["precision"]
    assert (table["n_items"] == 10).all()
    assert (table[["missing_reference", "missing_rating"]] == 0).all().all()
    for column in ("support", "tp", "fp", "fn", "tn", "n_items"):
        assert table[column].dtype == np.int64


def test_hand_computed_averages() -> None:
    frame = hand_frame()
    macro = frame.agree.against("gold", average="macro", beta=2)
    assert macro.index.name == "rater" and list(macro.index) == ["ann"]
    for position, column in enumerate(("precision", "recall", "f1", "fbeta")):
        expected = np.mean([scores[position] for scores in HAND_SCORES.values()])
        assert macro.loc["ann", column] == pytest.approx(expected, abs=1e-15)
    assert macro.loc["ann", "silence"] == pytest.approx(1 - macro.loc["ann", "recall"])
    assert macro.loc["ann", "support"] == 10
    micro = frame.agree.against("gold", average="micro")
    # Summed over categories: TP = 7, FP = FN = 3, TN = 17 of 30 one-vs-rest decisions.
    row = micro.loc["ann"]
    assert (row["tp"], row["fp"], row["fn"], row["tn"]) == (7, 3, 3, 17)
    assert row["precision"] == row["recall"] == row["f1"] == pytest.approx(0.7, abs=1e-15)
    assert row["specificity"] == pytest.approx(17 / 20, abs=1e-15)
    # Micro accuracy is the share of the 10 items labelled as the reference labels them
    # (issue 17: it was the pooled one-vs-rest (TP + TN) / n = 24/30 = 1 - 2(1 - 0.7)/3).
    assert row["accuracy"] == pytest.approx(7 / 10, abs=1e-15)
    assert "fbeta" not in micro.columns


def test_columns_in_order() -> None:
    table = hand_frame().agree.against("gold", beta=0.5)
    assert list(table.columns) == [
        "precision",
        "recall",
        "f1",
        "fbeta",
        "silence",
        "noise",
        "sensitivity",
        "specificity",
        "selectivity",
        "accuracy",
        "support",
        "tp",
        "fp",
        "fn",
        "tn",
        "n_items",
        "missing_reference",
        "missing_rating",
    ]


def test_f_is_zero_not_nan_when_no_true_positive() -> None:
    # The rater never says "b"; the reference does once: precision undefined, recall 0, F 0.
    frame = pd.DataFrame({"gold": ["a", "a", "b"], "ann": ["a", "a", "a"]})
    with pytest.warns(UndefinedStatisticWarning) as caught:
        table = frame.agree.against("gold", beta=2)
    row = table.loc[("ann", "b")]
    assert np.isnan(row["precision"]) and np.isnan(row["noise"])
    assert row["recall"] == 0 and row["f1"] == 0 and row["fbeta"] == 0
    assert str(caught[0].message) == (
        "`against` is undefined for some of the 2 (rater, category) pairs: precision (the "
        "rater never chose the category) for 1, e.g. [('ann', 'b')]. Those scores are nan, "
        "and macro averages skip them."
    )
    assert caught[0].filename == __file__  # the warning points at the user's line
    # The macro average skips the undefined precision: the mean of category a's alone.
    with pytest.warns(UndefinedStatisticWarning):
        macro = frame.agree.against("gold", average="macro")
    assert macro.loc["ann", "precision"] == pytest.approx(2 / 3)
    assert macro.loc["ann", "recall"] == pytest.approx(0.5)
    assert macro.loc["ann", "f1"] == pytest.approx((0.8 + 0.0) / 2)


# --------------------------------------------------------------------------- the reference


def three_raters() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "gold": ["a", "a", "b", "b", "c", "c", None, "a"],
            "ann1": ["a", "b", "b", "b", "c", "c", "a", None],
            "ann2": ["a", "a", "b", None, "b", "c", None, "a"],
            "ann3": ["a", "a", "c", "b", "c", "a", "b", "a"],
        },
        index=pd.Index(list("pqrstuvw"), name="item"),
    )


def test_gold_column_is_not_a_rater() -> None:
    table = three_raters().agree.against("gold")
    assert list(table.index.get_level_values("rater").unique()) == ["ann1", "ann2", "ann3"]


def test_wide_long_and_series_agree() -> None:
    wide = three_raters()
    expected = wide.agree.against("gold")
    long = to_long(wide, drop_missing=True)
    from_long = long.agree(item="item", rater="coder", label="tag").against("gold")
    pd.testing.assert_frame_equal(from_long, expected)
    series = wide.drop(columns="gold").agree.against(wide["gold"])
    pd.testing.assert_frame_equal(series, expected)
    # A Series in another order, with items the ratings do not have, aligns on the items.
    shuffled = pd.concat([wide["gold"].iloc[::-1], pd.Series({"zz": "a"})])
    pd.testing.assert_frame_equal(wide.drop(columns="gold").agree.against(shuffled), expected)


def test_blank_items_are_excluded_and_counted() -> None:
    table = three_raters().agree.against("gold", average="micro")
    # gold is blank on v; ann1 is blank on w; ann2 on s and v.
    assert table["n_items"].to_dict() == {"ann1": 6, "ann2": 6, "ann3": 7}
    assert table["missing_reference"].to_dict() == {"ann1": 1, "ann2": 0, "ann3": 1}
    assert table["missing_rating"].to_dict() == {"ann1": 1, "ann2": 1, "ann3": 0}
    assert table["support"].to_dict() == {"ann1": 6, "ann2": 6, "ann3": 7}


def test_labels_only_the_reference_uses() -> None:
    frame = pd.DataFrame({"ann": ["a", "a", "b", "b"], "other": ["a", "b", "b", "b"]})
    gold = pd.Series(["a", "c", "b", "c"])
    with pytest.warns(UndefinedStatisticWarning, match=r"precision .* \[\('ann', 'c'\)"):
        table = frame.agree.against(gold)
    assert list(table.loc["ann"].index) == ["a", "b", "c"]
    assert table.loc[("ann", "c"), "support"] == 2
    assert table.loc[("ann", "c"), "recall"] == 0


def test_frame_unchanged() -> None:
    wide = three_raters()
    before = wide.copy()
    wide.agree.against("gold", beta=2, average="macro")
    wide.drop(columns="gold").agree.against(wide["gold"])
    pd.testing.assert_frame_equal(wide, before)


# --------------------------------------------------------------------------- scikit-learn


def random_frame(seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    n_items = 60
    gold = rng.choice(["a", "b", "c", "e"], size=n_items, p=[0.4, 0.3, 0.2, 0.1])
    columns = {"gold": gold.astype(object)}
    for rater in ("r1", "r2", "r3"):
        labels = np.where(
            rng.random(n_items) < 0.6, gold, rng.choice(["a", "b", "c", "f"], size=n_items)
        ).astype(object)
        labels[rng.random(n_items) < 0.15] = None
        columns[rater] = labels
    columns["gold"][rng.random(n_items) < 0.1] = None
    return pd.DataFrame(columns)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("beta", [1.0, 0.5, 2.0])
def test_against_scikit_learn(seed: int, beta: float) -> None:
    frame = random_frame(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedStatisticWarning)
        table = frame.agree.against("gold", beta=beta)
        macro = frame.agree.against("gold", beta=beta, average="macro")
        micro = frame.agree.against("gold", beta=beta, average="micro")
    categories = list(table.loc["r1"].index)
    # Labels only one side uses: "e" is the reference's alone, "f" the raters'.
    assert {"e", "f"} <= set(categories)
    for rater in ("r1", "r2", "r3"):
        both = frame["gold"].notna() & frame[rater].notna()
        y_true, y_pred = frame.loc[both, "gold"], frame.loc[both, rater]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # scikit-learn's own zero-division warnings
            precision, recall, fbeta, support = sklearn_metrics.precision_recall_fscore_support(
                y_true, y_pred, beta=beta, labels=categories, zero_division=np.nan
            )
            _, _, f1, _ = sklearn_metrics.precision_recall_fscore_support(
                y_true, y_pred, labels=categories, zero_division=np.nan
            )
        mine = table.loc[rater]
        np.testing.assert_allclose(mine["precision"], precision, rtol=1e-12)
        np.testing.assert_allclose(mine["recall"], recall, rtol=1e-12)
        np.testing.assert_allclose(mine["f1"], f1, rtol=1e-12)
        np.testing.assert_allclose(mine["fbeta"], fbeta, rtol=1e-12)
        np.testing.assert_array_equal(mine["support"], support)
        for average, frame_avg in (("macro", macro), ("micro", micro)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                p, r, f, _ = sklearn_metrics.precision_recall_fscore_support(
                    y_true,
                    y_pred,
                    beta=beta,
                    labels=categories,
                    average=average,
                    zero_division=np.nan,
                )
            row = frame_avg.loc[rater]
            assert row["precision"] == pytest.approx(p, rel=1e-12)
            assert row["recall"] == pytest.approx(r, rel=1e-12)
            assert row["fbeta"] == pytest.approx(f, rel=1e-12)
        confusion = sklearn_metrics.multilabel_confusion_matrix(y_true, y_pred, labels=categories)
        np.testing.assert_array_equal(mine["tn"], confusion[:, 0, 0])
        np.testing.assert_array_equal(mine["fp"], confusion[:, 0, 1])
        np.testing.assert_array_equal(mine["fn"], confusion[:, 1, 0])
        np.testing.assert_array_equal(mine["tp"], confusion[:, 1, 1])
        for column in ("precision", "accuracy"):
            assert micro.loc[rater, column] == pytest.approx(
                sklearn_metrics.accuracy_score(y_true, y_pred), rel=1e-12
            )


# --------------------------------------------------------------------------- by=


def test_by_equals_a_loop() -> None:
    frame = random_frame(3).assign(batch=np.repeat(["u", "v", "w"], 20))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedStatisticWarning)
        grouped = frame.agree(by="batch").against("gold", beta=2)
        for key, sub in frame.groupby("batch"):
            alone = sub.drop(columns="batch").agree.against("gold", beta=2)
            pd.testing.assert_frame_equal(grouped.loc[key], alone)
        averaged = frame.agree(by="batch").against("gold", average="macro")
        assert averaged.index.names == ["batch", "rater"]
        for key, sub in frame.groupby("batch"):
            alone = sub.drop(columns="batch").agree.against("gold", average="macro")
            pd.testing.assert_frame_equal(averaged.loc[key], alone)


def test_by_on_a_long_frame_with_a_series_by_item() -> None:
    wide = three_raters()
    long = to_long(wide.drop(columns="gold"), drop_missing=True)
    long["half"] = long["item"].isin(list("pqrs")).map({True: "first", False: "second"})
    ratings = long.agree(item="item", rater="coder", label="tag", by="half")
    table = ratings.against(wide["gold"], average="micro")
    assert table.index.names == ["half", "rater"]
    first = wide.loc[list("pqrs")].agree.against("gold", average="micro")
    pd.testing.assert_frame_equal(table.loc["first"], first)


# --------------------------------------------------------------------------- errors


def test_errors() -> None:
    wide = three_raters()
    with pytest.raises(ValueError, match=r"^`gold` must name a rater .* got 'truth', and the"):
        wide.agree.against("truth")
    with pytest.raises(ValueError, match=r"With `raters=\[...\]`, list the reference's column"):
        wide.agree(raters=["ann1", "ann2"]).against("gold")
    # a frame of reference labels needs item and label columns (#30), or one column
    with pytest.raises(ValueError, match=r"^`gold` as a DataFrame needs an `item` and a `label`"):
        wide.agree.against(wide[["gold", "ann1"]])
    with pytest.raises(ValueError, match=r"^`beta` must be a positive number; got -1.0\.$"):
        wide.agree.against("gold", beta=-1.0)
    with pytest.raises(TypeError, match=r"^`beta` must be a positive number; got 'x'\.$"):
        wide.agree.against("gold", beta="x")
    with pytest.raises(ValueError, match=r"^`average` must be None, 'macro' or 'micro'; got"):
        wide.agree.against("gold", average="weighted")
    with pytest.raises(ValueError, match=r"^`against\(\)` needs to know which rater"):
        wide.agree.counts().agree(layout="counts").against("gold")
    raters = wide.drop(columns="gold")
    with pytest.raises(ValueError, match=r"^`gold` must give each item one label; items \['p'\]"):
        raters.agree.against(pd.Series(["a", "b"], index=["p", "p"]))
    with pytest.raises(ValueError, match=r"^`gold` shares no item with the ratings"):
        raters.agree.against(pd.Series(["a"], index=["nowhere"]))
    with pytest.raises(ValueError, match=r"^`gold` uses labels missing from `categories`, e.g"):
        raters.agree(categories=["a", "b", "c"]).against(pd.Series({"p": "zz"}))


def test_a_rater_sharing_no_item_with_the_reference() -> None:
    frame = pd.DataFrame(
        {"gold": ["a", "b", None], "ann": ["a", "b", "b"], "late": [None] * 2 + ["a"]}
    )
    with pytest.warns(UndefinedStatisticWarning, match=r"^`against`: 1 rater\(s\) share no item"):
        table = frame.agree.against("gold", average="micro")
    assert np.isnan(table.loc["late", "precision"])
    assert table.loc["late", "missing_reference"] == 1


def test_ratings_method_documents_the_definition() -> None:
    from pdagree.definitions import gold

    assert pdagree.Ratings.against.__doc__ == gold.against.__doc__
