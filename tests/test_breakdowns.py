"""Breakdowns: counts, frequencies, contingency, pairwise, per_category, items and report."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
import references as ref

import pdagree
from pdagree import datasets

FLEISS_ORDER = ["Depression", "Personality Disorder", "Schizophrenia", "Neurosis", "Other"]


# ----------------------------------------------------------------------------------- counts


def test_counts_artstein_poesio() -> None:
    counts = datasets.load("artstein_poesio2005").agree.counts()
    assert list(counts.columns) == ["N", "Y"]
    assert counts.columns.name == "category"
    assert counts.index.name == "item"
    assert list(counts.index) == list(range(1, 11))
    assert (counts.dtypes == np.int64).all()
    # Artstein & Poesio (2005), section 13.2: 13 "yes" and 7 "no" judgments.
    assert counts.sum().to_dict() == {"N": 7, "Y": 13}
    assert (counts.sum(axis=1) == 2).all()


def test_counts_fleiss_table() -> None:
    # Fleiss (1971), Table 1, in Fleiss' category order.
    counts = datasets.load("fleiss1971").agree(categories=FLEISS_ORDER).counts()
    assert counts.to_numpy().tolist() == ref.FLEISS_1971_COUNTS


def test_counts_by() -> None:
    wide = datasets.load("artstein_poesio2005").assign(g=["u"] * 4 + ["v"] * 6)
    counts = wide.agree(by="g").counts()
    assert list(counts.index.names) == ["g", "item"]
    assert counts.loc[("v", 5)].tolist() == [1, 1]
    pd.testing.assert_frame_equal(
        counts.droplevel("g"), wide.drop(columns="g").agree.counts(), check_names=False
    )


# ------------------------------------------------------------------------------ frequencies


def test_frequencies_artstein_poesio() -> None:
    freq = datasets.load("artstein_poesio2005").agree.frequencies()
    assert list(freq.index) == ["Alice", "Bill"]
    assert list(freq.columns) == [
        ("count", "N"),
        ("count", "Y"),
        ("proportion", "N"),
        ("proportion", "Y"),
    ]
    assert freq["count"].to_numpy().tolist() == [[4, 6], [3, 7]]
    # Section 13.2: P(yes|Alice) = 0.6, P(no|Alice) = 0.4, P(yes|Bill) = 0.7, P(no|Bill) = 0.3.
    np.testing.assert_allclose(freq["proportion"].to_numpy(), [[0.4, 0.6], [0.3, 0.7]])


def test_frequencies_incomplete_proportions_over_rated_items() -> None:
    wide = pd.DataFrame({"a": ["x", "y", None, "x"], "b": ["x", "x", "x", "y"]})
    freq = wide.agree.frequencies()
    assert freq.loc["a", ("count", "x")] == 2
    np.testing.assert_allclose(freq["proportion"].sum(axis=1), 1.0)
    assert freq.loc["a", ("proportion", "x")] == pytest.approx(2 / 3)


def test_frequencies_by() -> None:
    wide = datasets.load("artstein_poesio2005_four").assign(g=[1] * 5 + [2] * 5)
    freq = wide.agree(by="g").frequencies()
    assert len(freq) == 8
    for key, sub in wide.groupby("g"):
        alone = sub.drop(columns="g").agree(categories=["N", "Y"]).frequencies()
        np.testing.assert_allclose(
            freq.loc[key].to_numpy(dtype=float), alone.to_numpy(dtype=float)
        )


# ------------------------------------------------------------------------------ contingency


def test_contingency_fort_observed() -> None:
    # Fort (2011), slide 14: rows B, columns A; Yes/Yes 4, B Yes A No 2, B No A Yes 2, No/No 2.
    wide = datasets.load("fort2011_observed")
    table = wide.agree(categories=["Yes", "No"]).contingency("B", "A")
    assert table.index.name == "B"
    assert table.columns.name == "A"
    assert table.to_numpy().tolist() == [[4, 2], [2, 2]]


@pytest.mark.parametrize(
    ("name", "published"),
    [
        # Fort (2011), slides 19-23: rows A, columns B.
        ("fort2011_balanced", [[20, 5], [5, 20]]),
        ("fort2011_skewed", [[24, 8], [14, 24]]),
    ],
)
def test_contingency_fort_tables(name: str, published: list[list[int]]) -> None:
    table = datasets.load(name).agree(categories=["Yes", "No"]).contingency("A", "B")
    assert table.to_numpy().tolist() == published
    # The other way round is the transpose.
    flipped = datasets.load(name).agree(categories=["Yes", "No"]).contingency("B", "A")
    assert flipped.to_numpy().tolist() == np.array(published).T.tolist()


def test_contingency_declared_unused_categories() -> None:
    # Fort (2011), slide 19: the 4 x 4 table with empty rows and columns C and D.
    ratings = datasets.load("fort2011_balanced").agree(categories=["Yes", "No", "C", "D"])
    table = ratings.contingency("A", "B")
    assert table.to_numpy().tolist() == [
        [20, 5, 0, 0],
        [5, 20, 0, 0],
        [0, 0, 0, 0],
        [0, 0, 0, 0],
    ]


def test_contingency_counts_items_both_rated() -> None:
    wide = pd.DataFrame({"a": ["x", "y", None, "x"], "b": ["x", None, "y", "y"]})
    table = wide.agree.contingency("a", "b")
    assert table.to_numpy().sum() == 2


def test_contingency_by() -> None:
    wide = datasets.load("fort2011_observed").assign(g=[1] * 5 + [2] * 5)
    table = wide.agree(by="g").contingency("A", "B")
    assert list(table.index.names) == ["g", "A"]
    assert table.to_numpy().sum() == 10
    for key, sub in wide.groupby("g"):
        alone = sub.drop(columns="g").agree(categories=["No", "Yes"]).contingency("A", "B")
        assert table.loc[key].to_numpy().tolist() == alone.to_numpy().tolist()


# --------------------------------------------------------------------------------- pairwise


def test_pairwise_artstein_poesio_four() -> None:
    ratings = datasets.load("artstein_poesio2005_four").agree()
    table = ratings.pairwise()
    raters = ["Alice", "Bill", "Claire", "Dave"]
    assert list(table.index) == raters
    assert list(table.columns) == raters
    np.testing.assert_allclose(table.to_numpy(), table.to_numpy().T)
    # Section 13.2: Alice vs Bill kappa ~ 0.348; Claire copies Alice and Dave copies Bill.
    assert table.loc["Alice", "Bill"] == pytest.approx(0.348, abs=5e-4)
    assert table.loc["Claire", "Dave"] == pytest.approx(table.loc["Alice", "Bill"])
    assert table.loc["Alice", "Claire"] == pytest.approx(1.0)
    assert table.loc["Bill", "Dave"] == pytest.approx(1.0)
    observed = ratings.pairwise("observed")
    assert observed.loc["Alice", "Bill"] == pytest.approx(0.7)
    assert ratings.pairwise("n_items").loc["Alice", "Bill"] == 10
    scott = ratings.pairwise("scott")
    assert scott.loc["Alice", "Bill"] == pytest.approx(0.341, abs=5e-4)


def test_pairwise_mean_is_light() -> None:
    ratings = datasets.load("fleiss1971").agree()
    table = ratings.pairwise().to_numpy()
    upper = table[np.triu_indices(ratings.n_raters, k=1)]
    assert float(ratings.light()) == pytest.approx(upper.mean(), rel=1e-12)


def test_pairwise_pairs_without_common_items() -> None:
    wide = pd.DataFrame(
        {"a": ["x", "y", None, None], "b": ["x", "y", "x", "y"], "c": [None, None, "x", "x"]}
    )
    ratings = wide.agree()
    assert np.isnan(ratings.pairwise().loc["a", "c"])
    assert ratings.pairwise("n_items").loc["a", "c"] == 0
    assert ratings.pairwise("n_items").loc["a", "b"] == 2


def test_pairwise_by() -> None:
    wide = datasets.load("artstein_poesio2005_four").assign(g=[1] * 5 + [2] * 5)
    table = wide.agree(by="g").pairwise("observed")
    assert table.shape == (8, 4)
    for key, sub in wide.groupby("g"):
        alone = sub.drop(columns="g").agree.pairwise("observed")
        np.testing.assert_allclose(table.loc[key].to_numpy(), alone.to_numpy())


# ----------------------------------------------------------------------------- per_category


def test_per_category_fleiss_1971() -> None:
    ratings = datasets.load("fleiss1971").agree(categories=FLEISS_ORDER)
    table = ratings.per_category()
    assert list(table.index) == FLEISS_ORDER
    # Fleiss (1971), category-specific kappas 0.245, 0.245, 0.520, 0.471, 0.566 (issue 2).
    np.testing.assert_allclose(
        table["kappa"], [0.245, 0.245, 0.520, 0.471, 0.566], rtol=0, atol=5e-4
    )
    published = [ref.FLEISS_1971_CATEGORY[k] for k in ref.FLEISS_1971_CATEGORIES]
    np.testing.assert_allclose(table["kappa"], [p["kappa_j"] for p in published], atol=5e-4)
    np.testing.assert_allclose(table["proportion"], [p["p_j"] for p in published], atol=5e-4)


def test_per_category_fleiss_1971_counts_table() -> None:
    table = pd.DataFrame(ref.FLEISS_1971_COUNTS, columns=ref.FLEISS_1971_CATEGORIES)
    per_category = table.agree(layout="counts").per_category()
    for category, published in ref.FLEISS_1971_CATEGORY.items():
        assert per_category.loc[category, "kappa"] == pytest.approx(published["kappa_j"], abs=5e-4)


def test_per_category_weighted_mean_is_fleiss_kappa() -> None:
    # Fleiss (1971): kappa = sum_j p_j q_j kappa_j / sum_j p_j q_j (complete designs).
    ratings = datasets.load("fleiss1971").agree()
    table = ratings.per_category()
    pq = table["proportion"] * (1 - table["proportion"])
    assert (pq * table["kappa"]).sum() / pq.sum() == pytest.approx(
        float(ratings.fleiss()), rel=1e-12
    )


def test_per_category_specific_agreement() -> None:
    # Two raters: specific agreement on k is 2 n_kk / (n_k. + n_.k).
    ratings = datasets.load("artstein_poesio2005").agree()
    table = ratings.per_category()
    assert table.loc["Y", "specific_agreement"] == pytest.approx(2 * 5 / (6 + 7))
    assert table.loc["N", "specific_agreement"] == pytest.approx(2 * 2 / (4 + 3))
    assert table.loc["Y", "proportion"] == pytest.approx(0.65)  # section 13.2: P(yes)


def test_per_category_by() -> None:
    wide = datasets.load("fleiss1971").assign(g=np.arange(30) % 3)
    table = wide.agree(by="g", categories=FLEISS_ORDER).per_category()
    assert len(table) == 15
    for key, sub in wide.groupby("g"):
        alone = sub.drop(columns="g").agree(categories=FLEISS_ORDER).per_category()
        np.testing.assert_allclose(
            table.loc[key].to_numpy(), alone.to_numpy(), rtol=1e-12, equal_nan=True
        )


# ------------------------------------------------------------------------------------ items


def test_items_fort_trains() -> None:
    items = datasets.load("fort2011_trains").agree.items()
    assert list(items.index) == list("abcdefg")
    assert (items["n_ratings"] == 4).all()
    # Fort (2011), slide 28: agreeing pairs 2/6, 3/6, 6/6, 1/6, 0/6, 6/6, 6/6.
    np.testing.assert_allclose(
        items["agreement"], np.array([2, 3, 6, 1, 0, 6, 6]) / 6, rtol=0, atol=1e-12
    )


def test_items_mean_is_observed() -> None:
    ratings = datasets.load("fleiss1971").agree()
    assert ratings.items()["agreement"].mean() == pytest.approx(float(ratings.observed()))


def test_items_incomplete() -> None:
    wide = pd.DataFrame({"a": ["x", "y", None], "b": ["x", None, None], "c": ["y", "y", "x"]})
    items = wide.agree.items()
    assert items["n_ratings"].tolist() == [3, 2, 1]
    assert items["agreement"].iloc[0] == pytest.approx(1 / 3)
    assert items["agreement"].iloc[1] == 1.0
    assert np.isnan(items["agreement"].iloc[2])
    assert items["entropy"].tolist() == [pytest.approx(0.9182958340544896), 0.0, 0.0]


def test_items_entropy_is_scipy_s_in_bits_on_labels_as_read() -> None:
    from scipy.stats import entropy

    rng = np.random.default_rng(3)
    wide = pd.DataFrame(rng.choice(["1", "2", "3", "4", None], size=(60, 7)))
    got = wide.agree.items()["entropy"]
    want = [entropy(row.value_counts(), base=2) for _, row in wide.iterrows()]
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)
    by = wide.assign(g=np.arange(60) % 3).agree(by="g").items()["entropy"]
    np.testing.assert_allclose(by.droplevel(0).sort_index(), want, rtol=1e-12, atol=1e-15)


# ----------------------------------------------------------------------------------- report


def test_report_two_raters() -> None:
    ratings = datasets.load("artstein_poesio2005").agree()
    report = ratings.report()
    assert {"observed", "bennett", "fleiss", "scott", "cohen", "conger", "light"} <= set(
        report.index
    )
    assert "bias" in report.attrs["annotator_bias"].index
    assert list(report.columns) == [
        "value",
        "observed",
        "expected",
        "n_items",
        "n_raters",
        "n_categories",
    ]
    for method in ("observed", "bennett", "fleiss", "scott", "cohen", "conger", "light"):
        assert report.loc[method, "value"] == pytest.approx(float(getattr(ratings, method)()))
    bias = report.attrs["annotator_bias"].loc["bias", "value"]
    assert bias == pytest.approx(float(ratings.bias()))
    # Artstein & Poesio (2005), section 13.2.
    assert report.loc["scott", "expected"] == pytest.approx(0.545)
    assert report.loc["cohen", "expected"] == pytest.approx(0.54)


def test_report_many_raters_has_no_two_rater_coefficients() -> None:
    report = datasets.load("fort2011_trains").agree.report()
    assert "cohen" not in report.index
    assert "scott" not in report.index
    assert {"fleiss", "conger", "light"} <= set(report.index)
    # Issue #21: the bias is a section of its own, not a row whose observed and expected
    # columns would mean something else.
    assert "bias" not in report.index
    section = report.attrs["annotator_bias"]
    bias = datasets.load("fort2011_trains").agree.bias()
    assert section.loc["bias", "value"] == pytest.approx(float(bias))
    assert section.loc["bias", "expected_pi"] == pytest.approx(bias.expected_pi)
    assert section.loc["bias", "expected_kappa"] == pytest.approx(bias.expected_kappa)
    asked = datasets.load("fort2011_trains").agree.report(coefficients=["fleiss", "bias"])
    assert asked.loc["bias", "value"] == pytest.approx(float(bias))
    assert np.isnan(asked.loc["bias", "observed"]) and np.isnan(asked.loc["bias", "expected"])


def test_report_counts_table_has_no_rater_identity_coefficients() -> None:
    report = datasets.load("fleiss1971").agree.counts().agree(layout="counts").report()
    assert {"observed", "bennett", "fleiss"} <= set(report.index)
    assert not {"cohen", "conger", "light", "bias"} & set(report.index)
    assert report.loc["fleiss", "value"] == pytest.approx(ref.FLEISS_1971_KAPPA, abs=5e-4)


def test_report_by() -> None:
    wide = datasets.load("fleiss1971").assign(g=np.arange(30) % 2)
    report = wide.agree(by="g").report()
    assert list(report.index.names) == ["g", "coefficient"]
    for key, sub in wide.groupby("g"):
        alone = sub.drop(columns="g").agree.report()
        np.testing.assert_allclose(
            report.loc[key, "value"].to_numpy(), alone.loc[report.loc[key].index, "value"]
        )


def test_report_by_groups_with_their_own_categories_splits_them_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each by= group counts its own labels, so the coefficients are computed per set of
    # categories; the report cuts the sets once for all its rows (and intervals) and drops
    # them after, with the values each method gives alone.
    from pdagree import category_sets

    rng = np.random.default_rng(3)
    rows = [
        (g, f"{g}-{i}", f"r{j}", labels[rng.integers(len(labels))])
        for g, labels in enumerate([["a", "b"], ["a", "c"], ["b", "c", "d"], ["a", "b"]] * 5)
        for i in range(6)
        for j in range(3)
    ]
    df = pd.DataFrame(rows, columns=["g", "item", "rater", "label"])
    r = df.agree(item="item", rater="rater", label="label", by="g")
    cut = []
    original = category_sets._parts
    monkeypatch.setattr(category_sets, "_parts", lambda *a: cut.append(1) or original(*a))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pdagree.UndefinedStatisticWarning)
        report = r.report(confidence_level=0.95)
        assert len(cut) == 1
        assert category_sets._SHARED.get() is None
        for name in ["bennett", "gwet", "fleiss", "conger", "light"]:
            alone = getattr(r, name)(confidence_level=0.95)  # by=: a frame by group
            mine = report.xs(name, level="coefficient")
            assert list(mine.index) == list(alone.index)
            for column in ["value", "se", "low", "high"]:
                np.testing.assert_array_equal(mine[column], alone[column])


def test_report_undefined_values_warn_with_pdagree_category() -> None:
    wide = pd.DataFrame({"a": ["x", "x"], "b": ["x", "x"]})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = wide.agree.report()
    assert np.isnan(report.loc["fleiss", "value"])
    assert all(issubclass(w.category, pdagree.UndefinedStatisticWarning) for w in caught)


@pytest.mark.parametrize("weights", ["linear", "quadratic"])
def test_weighted_pairwise_is_each_pairs_weighted_coefficient(weights: str) -> None:
    # Issue #21, point 5: LLM judges scoring 1-10, weighted kappa for every pair.
    from sklearn.metrics import cohen_kappa_score

    rng = np.random.default_rng(5)
    truth = rng.integers(1, 11, 80)
    wide = pd.DataFrame(
        {j: np.clip(truth + rng.integers(-2, 3, 80), 1, 10) for j in ["j1", "j2", "j3"]}
    ).astype(float)
    wide.iloc[::9, 2] = np.nan  # j3 skips some answers
    ratings = wide.agree(categories=list(range(1, 11)))
    for method in ("cohen", "scott", "observed"):
        table = ratings.pairwise(method, weights=weights)
        for a, b in [("j1", "j2"), ("j1", "j3"), ("j2", "j3")]:
            alone = getattr(wide.agree(raters=[a, b], categories=list(range(1, 11))), method)
            assert table.loc[a, b] == pytest.approx(float(alone(weights=weights)), abs=1e-12)
            assert table.loc[a, b] == pytest.approx(table.loc[b, a], abs=1e-12)
    # scikit-learn weighs by label index: on the scale 1..10 declared, the same weights.
    table = ratings.pairwise(weights=weights)
    both = wide[["j1", "j2"]]
    want = cohen_kappa_score(both["j1"], both["j2"], weights=weights, labels=list(range(1, 11)))
    assert table.loc["j1", "j2"] == pytest.approx(want, abs=1e-12)
    assert ratings.pairwise("n_items", weights=weights).equals(ratings.pairwise("n_items"))
    with pytest.raises(ValueError, match="order of these text labels was not declared"):
        pd.DataFrame({"a": list("xyx"), "b": list("xyy")}).agree.pairwise(weights="linear")


def test_per_category_uncertainty_fleiss1971() -> None:
    # Issue #21, point 5. R irr 0.84.1, kappam.fleiss(diagnoses, detail=TRUE) (the same
    # 30 patients x 6 psychiatrists as Fleiss 1971): z = 5.192 (Depression), 5.192
    # (Personality Disorder), 11.031 (Schizophrenia), 9.994 (Neurosis), 12.009 (Other),
    # with var0 = 2 / (N m (m - 1)) = 2 / (30 * 6 * 5) (Fleiss, Nee & Landis 1979).
    table = datasets.load("fleiss1971").agree.per_category(confidence_level=0.95, rng=0)
    z = table["z"].round(3).to_dict()
    assert z == {"Depression": 5.192, "Personality Disorder": 5.192, "Schizophrenia": 11.031,
                 "Neurosis": 9.994, "Other": 12.009}  # fmt: skip
    assert table["se_h0"].to_numpy() == pytest.approx(np.sqrt(2.0 / (30 * 6 * 5)), abs=1e-15)
    assert (table["low"] < table["kappa"]).all() and (table["kappa"] < table["high"]).all()
    assert (table["se"] > 0).all()
    same_seed = datasets.load("fleiss1971").agree.per_category(confidence_level=0.95, rng=0)
    pd.testing.assert_frame_equal(table, same_seed)


def test_per_category_bootstrap_replicates_are_per_category_of_the_resamples() -> None:
    from pdagree.category_inference import _groups, _item_rows, replicate_kappas

    rng = np.random.default_rng(2)
    long = pd.DataFrame({"item": rng.integers(0, 40, 300),
                         "rater": rng.choice([f"r{i}" for i in range(6)], 300),
                         "label": rng.choice(["a", "b", "c"], 300),
                         "g": ""}).drop_duplicates(["item", "rater"])  # fmt: skip
    long["g"] = np.where(long["item"] % 3 == 0, "x", "y")
    for by in (None, "g"):
        ratings = long.agree(item="item", rater="rater", label="label", by=by,
                             categories=["a", "b", "c"])  # fmt: skip
        data = ratings._data
        rated, _ = _item_rows(data)
        _, order, sizes, starts = _groups(data, rated)
        draws = []
        for _ in range(4):  # resamples drawn by hand, within groups
            slot = np.concatenate(
                [s + rng.integers(0, n, n) for s, n in zip(starts, sizes, strict=True)]
            )
            draws.append(order[slot])
        got = replicate_kappas(data, np.array(draws))
        items = data.enc.items[rated]
        for b, picks in enumerate(draws):
            chosen = items[picks]
            parts = []
            for copy, key in enumerate(chosen):  # the resample as a frame, copies renamed
                item = key[-1] if isinstance(key, tuple) else key
                rows = long[long["item"] == item].assign(item=f"{copy}")
                parts.append(rows)
            frame = pd.concat(parts)
            want = frame.agree(item="item", rater="rater", label="label", by=by,
                               categories=["a", "b", "c"]).per_category()["kappa"]  # fmt: skip
            np.testing.assert_allclose(got[b].ravel(), want.to_numpy(), rtol=1e-12, atol=1e-12)


def test_per_category_h0_needs_a_complete_design() -> None:
    wide = datasets.load("fleiss1971").copy()
    wide.iloc[0, 0] = np.nan  # one patient rated by five
    table = wide.agree.per_category(confidence_level=0.9, n_resamples=200, rng=1)
    assert table["se_h0"].isna().all() and table["p_value"].isna().all()
    assert table["se"].notna().all()
    grouped = datasets.load("fleiss1971").assign(half=["a"] * 15 + ["b"] * 15)
    by = grouped.agree(by="half").per_category(confidence_level=0.9, n_resamples=200, rng=1)
    assert by.index.names == ["half", "category"] and by["se_h0"].notna().all()
    assert by.loc["a", "se_h0"].iloc[0] == pytest.approx(np.sqrt(2.0 / (15 * 6 * 5)))
