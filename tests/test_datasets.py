"""Tests of the bundled data sets against the values their sources publish.

The coefficients are computed inline with numpy from the formulas of the sources, so these
tests check the data, independently of pdagree's own kernels.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from pdagree import datasets

FLEISS_CATEGORIES = ["Depression", "Personality Disorder", "Schizophrenia", "Neurosis", "Other"]


def category_proportions(wide: pd.DataFrame, categories: list[str]) -> np.ndarray:
    """P(k|c): rows = coders (columns of `wide`), columns = categories."""
    return np.array([[np.mean(wide[c] == k) for k in categories] for c in wide.columns])


def pairwise_observed(wide: pd.DataFrame, categories: list[str]) -> float:
    """A_o = mean over items of sum_k n_ik (n_ik - 1) / (c (c - 1)) (complete data)."""
    n_ik = np.stack([(wide == k).sum(axis=1).to_numpy() for k in categories], axis=1)
    c = wide.shape[1]
    return float(np.mean((n_ik * (n_ik - 1)).sum(axis=1) / (c * (c - 1))))


def expected_pi(wide: pd.DataFrame, categories: list[str]) -> float:
    """A_e^pi = sum_k P(k)^2 with P(k) pooled over all coders."""
    return float((category_proportions(wide, categories).mean(axis=0) ** 2).sum())


def expected_kappa(wide: pd.DataFrame, categories: list[str]) -> float:
    """A_e^kappa = sum_k (c^2 pbar_k^2 - sum_m P(k|c_m)^2) / (c (c - 1))."""
    p = category_proportions(wide, categories)
    c = p.shape[0]
    pbar = p.mean(axis=0)
    return float(((c**2 * pbar**2 - (p**2).sum(axis=0)) / (c * (c - 1))).sum())


def chance_corrected(observed: float, expected: float) -> float:
    return (observed - expected) / (1 - expected)


# --- registry ---------------------------------------------------------------------------


def test_names_sorted_and_complete() -> None:
    names = datasets.names()
    assert names == sorted(names)
    assert set(names) == {
        "artstein_poesio2005",
        "artstein_poesio2005_four",
        "artstein_poesio2005_six",
        "crowd_sparse",
        "emails_multilabel",
        "fleiss1971",
        "fort2011_balanced",
        "fort2011_observed",
        "fort2011_skewed",
        "fort2011_trains",
        "qgstec_simulated",
    }


@pytest.mark.parametrize("name", datasets.names())
def test_load_and_describe(name: str) -> None:
    frame = datasets.load(name)
    assert isinstance(frame, pd.DataFrame)
    assert len(frame) > 0
    text = datasets.describe(name)
    assert isinstance(text, str)
    assert "\n" not in text
    assert "Layout:" in text


@pytest.mark.parametrize("name", datasets.names())
def test_every_load_is_a_new_frame(name: str) -> None:
    first = datasets.load(name)
    pristine = first.copy(deep=True)
    column = next(c for c in first.columns if pd.api.types.is_string_dtype(first[c]))
    first.loc[first.index[0], column] = "changed"
    first.index = first.index.astype(str) + "_changed"
    assert not first.equals(pristine)
    assert datasets.load(name) is not first
    pd.testing.assert_frame_equal(datasets.load(name), pristine)


def test_unknown_name_error_message() -> None:
    message = (
        r"^`name` must be one of 'artstein_poesio2005', 'artstein_poesio2005_four', "
        r"'artstein_poesio2005_six', 'crowd_sparse', 'emails_multilabel', 'fleiss1971', "
        r"'fort2011_balanced', 'fort2011_observed', 'fort2011_skewed', 'fort2011_trains', "
        r"'qgstec_simulated'; got 'fleiss'\.$"
    )
    with pytest.raises(ValueError, match=message):
        datasets.load("fleiss")
    with pytest.raises(ValueError, match=message):
        datasets.describe("fleiss")


def test_non_string_name_error_message() -> None:
    with pytest.raises(TypeError, match=r"^`name` must be a str; got int\.$"):
        datasets.load(1971)  # type: ignore[arg-type]


# --- Fleiss (1971) ----------------------------------------------------------------------


def test_fleiss1971_layout() -> None:
    frame = datasets.load("fleiss1971")
    assert frame.shape == (30, 6)
    assert frame.index.name == "patient"
    assert frame.index.tolist() == list(range(1, 31))
    assert frame.columns.tolist() == [f"rater{j}" for j in range(1, 7)]
    assert sorted(pd.unique(frame.to_numpy().ravel())) == sorted(FLEISS_CATEGORIES)
    assert not frame.isna().any().any()


def test_fleiss1971_kappa() -> None:
    # Fleiss (1971), p. 379: kappa = 0.430.
    frame = datasets.load("fleiss1971")
    long = frame.melt(ignore_index=False, value_name="diagnosis").reset_index()
    counts = (
        pd.crosstab(long["patient"], long["diagnosis"])
        .reindex(columns=FLEISS_CATEGORIES, fill_value=0)
        .to_numpy()
    )
    assert counts.sum(axis=0).tolist() == [26, 26, 30, 55, 43]
    n_items, n_raters = counts.shape[0], counts.sum(axis=1)[0]
    assert (counts.sum(axis=1) == n_raters).all()
    p_i = (counts * (counts - 1)).sum(axis=1) / (n_raters * (n_raters - 1))
    p_bar = p_i.mean()
    p_k = counts.sum(axis=0) / (n_items * n_raters)
    p_e = (p_k**2).sum()
    kappa = (p_bar - p_e) / (1 - p_e)
    assert round(p_bar, 3) == 0.556
    assert round(p_e, 3) == 0.220
    assert round(kappa, 3) == 0.430


# --- Artstein & Poesio (2005) -----------------------------------------------------------


def test_artstein_poesio2005_two_coders() -> None:
    # Artstein & Poesio (2005), section 13.2: A_o = 0.7, A_e(pi) = 0.545, A_e(kappa) = 0.54,
    # pi ~ 0.341, kappa ~ 0.348.
    frame = datasets.load("artstein_poesio2005")
    assert frame.index.name == "item"
    assert frame.index.tolist() == list(range(1, 11))
    assert frame.columns.tolist() == ["Alice", "Bill"]
    assert "".join(frame["Bill"]) == "YYNNYYYNYY"
    observed = float(np.mean(frame["Alice"] == frame["Bill"]))
    assert observed == pytest.approx(0.7)
    ae_pi = expected_pi(frame, ["Y", "N"])
    ae_kappa = expected_kappa(frame, ["Y", "N"])
    assert ae_pi == pytest.approx(0.545)
    assert ae_kappa == pytest.approx(0.54)
    assert round(chance_corrected(observed, ae_pi), 3) == 0.341
    assert round(chance_corrected(observed, ae_kappa), 3) == 0.348
    # two coders: the pairwise form of A_e^kappa is the product form of section 13.2
    p = category_proportions(frame, ["Y", "N"])
    assert ae_kappa == pytest.approx(float((p[0] * p[1]).sum()))


@pytest.mark.parametrize(
    ("name", "columns", "ae_kappa"),
    [
        # Artstein & Poesio (2005), section 13.4: A_e(kappa) = 0.54333... for four coders
        ("artstein_poesio2005_four", ["Alice", "Bill", "Claire", "Dave"], 0.54 + 1 / 300),
        # ... and 0.544 for six coders; A_e(pi) stays 0.545.
        (
            "artstein_poesio2005_six",
            ["Alice", "Bill", "Claire", "Dave", "Eve", "Frank"],
            0.544,
        ),
    ],
)
def test_artstein_poesio2005_many_coders(name: str, columns: list[str], ae_kappa: float) -> None:
    frame = datasets.load(name)
    two = datasets.load("artstein_poesio2005")
    assert frame.columns.tolist() == columns
    for copy, original in zip(columns[2:], ["Alice", "Bill"] * 2, strict=False):
        pd.testing.assert_series_equal(frame[copy], two[original], check_names=False)
    assert expected_pi(frame, ["Y", "N"]) == pytest.approx(0.545)
    assert expected_kappa(frame, ["Y", "N"]) == pytest.approx(ae_kappa)
    # the bias B = A_e(pi) - A_e(kappa) = 0.005 / (c - 1)
    bias = expected_pi(frame, ["Y", "N"]) - expected_kappa(frame, ["Y", "N"])
    assert bias == pytest.approx(0.005 / (len(columns) - 1))


# --- Fort (2011) ------------------------------------------------------------------------


def two_coder_coefficients(frame: pd.DataFrame, categories: list[str]) -> dict[str, float]:
    observed = float(np.mean(frame["A"] == frame["B"]))
    ae_pi = expected_pi(frame, categories)
    ae_kappa = expected_kappa(frame, categories)
    return {
        "observed": observed,
        "S": chance_corrected(observed, 1 / len(categories)),
        "ae_pi": ae_pi,
        "pi": chance_corrected(observed, ae_pi),
        "ae_kappa": ae_kappa,
        "kappa": chance_corrected(observed, ae_kappa),
    }


def test_fort2011_observed() -> None:
    # Fort (2011), slide 14: A_o = (4 + 2) / 10 = 0.6.
    frame = datasets.load("fort2011_observed")
    assert frame.shape == (10, 2)
    table = pd.crosstab(frame["B"], frame["A"])
    assert table.loc["Yes", "Yes"] == 4
    assert table.loc["Yes", "No"] == 2
    assert table.loc["No", "Yes"] == 2
    assert table.loc["No", "No"] == 2
    assert two_coder_coefficients(frame, ["Yes", "No"])["observed"] == pytest.approx(0.6)


def test_fort2011_balanced() -> None:
    # Fort (2011), slides 19, 21, 23: A_o = 0.8; S = 0.6 with 2 categories and 0.73 with
    # the unused categories C and D declared; pi = kappa = 0.6.
    frame = datasets.load("fort2011_balanced")
    assert frame.shape == (50, 2)
    two = two_coder_coefficients(frame, ["Yes", "No"])
    four = two_coder_coefficients(frame, ["Yes", "No", "C", "D"])
    assert two["observed"] == pytest.approx(0.8)
    assert two["S"] == pytest.approx(0.6)
    assert round(four["S"], 2) == 0.73
    for result in (two, four):
        assert result["ae_pi"] == pytest.approx(0.5)
        assert result["pi"] == pytest.approx(0.6)
        assert result["ae_kappa"] == pytest.approx(0.5)
        assert result["kappa"] == pytest.approx(0.6)


def test_fort2011_skewed() -> None:
    # Fort (2011), slide 23: A_o = 0.68, A_e(pi) = 0.5, pi = 0.36, A_e(kappa) = 0.49,
    # kappa = 0.37, each computed from two-decimal intermediates.
    frame = datasets.load("fort2011_skewed")
    assert frame.shape == (70, 2)
    table = pd.crosstab(frame["A"], frame["B"])
    assert table.loc[["Yes", "No"], ["Yes", "No"]].to_numpy().tolist() == [[24, 8], [14, 24]]
    result = two_coder_coefficients(frame, ["Yes", "No"])
    assert result["observed"] == pytest.approx(48 / 70)
    assert np.floor(result["observed"] * 100) / 100 == pytest.approx(0.68)
    assert result["ae_pi"] == pytest.approx(0.5)
    assert np.floor(result["ae_kappa"] * 100) / 100 == pytest.approx(0.49)
    assert chance_corrected(0.68, 0.5) == pytest.approx(0.36)
    assert round(chance_corrected(0.68, 0.49), 2) == 0.37
    assert result["pi"] == pytest.approx(0.3714, abs=5e-5)
    assert result["kappa"] == pytest.approx(0.3760, abs=5e-5)


def test_fort2011_trains() -> None:
    # Fort (2011), slide 28: agreeing pairs 2/6, 3/6, 6/6, 1/6, 0/6, 6/6, 6/6.
    frame = datasets.load("fort2011_trains")
    assert frame.shape == (7, 4)
    assert frame.index.tolist() == list("abcdefg")
    categories = ["Boxcar", "Tanker", "Engine1", "Engine2"]
    n_ik = np.stack([(frame == k).sum(axis=1).to_numpy() for k in categories], axis=1)
    pairs = (n_ik * (n_ik - 1) // 2).sum(axis=1)
    assert pairs.tolist() == [2, 3, 6, 1, 0, 6, 6]
    assert pairwise_observed(frame, categories) == pytest.approx(24 / 42)


# --- crowd_sparse -----------------------------------------------------------------------


def test_crowd_sparse_is_make_crowd_sparse_and_deterministic() -> None:
    frame = datasets.load("crowd_sparse")
    pd.testing.assert_frame_equal(frame, datasets.load("crowd_sparse"))
    pd.testing.assert_frame_equal(frame, datasets.make_crowd_sparse())
    assert frame.columns.tolist() == ["item", "annotator", "label", "batch"]


def test_crowd_sparse_design() -> None:
    frame = datasets.load("crowd_sparse")
    labels_per_item = frame.groupby("item").size()
    assert labels_per_item.index.tolist() == list(range(1, 501))
    assert (labels_per_item == 1).any()
    assert labels_per_item.min() == 1
    assert labels_per_item.max() <= 40
    assert not frame.duplicated(["item", "annotator"]).any()
    assert set(frame["label"]) == {"neg", "neu", "pos"}
    assert frame["annotator"].nunique() <= 40
    assert sorted(frame["batch"].unique()) == [1, 2, 3]
    # a batch is a block of whole items
    assert (frame.groupby("item")["batch"].nunique() == 1).all()


def test_make_crowd_sparse_options() -> None:
    frame = datasets.make_crowd_sparse(
        n_items=300, n_annotators=2, categories=(1, 2, 3, 4), seed=7, prevalence=[1, 1, 1, 1]
    )
    per_item = frame.groupby("item").size()
    assert per_item.max() <= 2
    assert set(frame["label"]) <= {1, 2, 3, 4}
    assert set(frame["annotator"]) <= {"a1", "a2"}
    assert not frame.duplicated(["item", "annotator"]).any()
    other = datasets.make_crowd_sparse(
        n_items=300, n_annotators=2, categories=(1, 2, 3, 4), seed=8, prevalence=[1, 1, 1, 1]
    )
    assert not frame.equals(other)


def test_make_crowd_sparse_accuracy_and_prevalence() -> None:
    # With prevalence (1, 0) every true class is "x", and with accuracies drawn from
    # Beta(8, 2) (mean 0.8) about 80 % of the labels are "x".
    frame = datasets.make_crowd_sparse(
        n_items=2000, categories=("x", "y"), seed=1, prevalence=[1.0, 0.0]
    )
    assert 0.7 < float(np.mean(frame["label"] == "x")) < 0.9


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n_items": 0}, r"^`n_items` must be an integer >= 1; got 0\.$"),
        ({"n_annotators": 2.5}, r"^`n_annotators` must be an integer >= 1; got 2\.5\.$"),
        (
            {"categories": ("a",)},
            r"^`categories` must hold at least 2 categories; got \['a'\]\. Add the",
        ),
        (
            {"categories": ("a", "b", "a")},
            r"^`categories` must not repeat a category; got \['a'\] more than once\.",
        ),
        (
            {"prevalence": [1.0, -1.0, 1.0]},
            r"^`prevalence` must give one non-negative weight per category \(3\) with a "
            r"positive sum; got \[1\.0, -1\.0, 1\.0\]\.$",
        ),
        (
            {"prevalence": [1.0, 1.0]},
            r"^`prevalence` must give one non-negative weight per category \(3\)",
        ),
    ],
)
def test_make_crowd_sparse_errors(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        datasets.make_crowd_sparse(**kwargs)  # type: ignore[arg-type]
