"""Coefficients: published worked examples, and differential tests against other libraries.

Published values sit next to their citation and are compared at the precision the source
prints (half a unit of the last printed digit). Differential tests compare like with like:

==============================  =====================================================
other library                   pdagree
==============================  =====================================================
nltk ``AnnotationTask.avg_Ao``  ``observed()`` (complete data)
nltk ``AnnotationTask.S``       ``bennett()`` with the observed labels as categories
                                (nltk cannot declare unused categories)
nltk ``AnnotationTask.pi``      ``fleiss()`` (multi-pi); ``scott()`` for two raters
nltk ``AnnotationTask.multi_kappa``  ``conger()`` (A&P multi-kappa: mean pairwise A_e);
                                ``cohen()`` for two raters
nltk ``AnnotationTask.kappa``   ``light()`` (mean of pairwise Cohen's kappa), except that
                                nltk counts a pair with A_e = A_o = 1 as 1.0 where
                                pdagree leaves that undefined pair out of the mean
statsmodels ``fleiss_kappa``    ``fleiss()`` (on ``aggregate_raters`` counts)
statsmodels ``cohens_kappa``    ``cohen()`` (on the two raters' contingency table)
scikit-learn ``cohen_kappa_score``  ``cohen()``
==============================  =====================================================

nltk's coefficients (other than alpha) assume every coder rated every item, so they are
compared on complete data only.
"""

from __future__ import annotations

import math
import re
import warnings
from itertools import combinations

import numpy as np
import pandas as pd
import pytest
import references as ref

import pdagree
from pdagree import datasets

nltk_agreement = pytest.importorskip("nltk.metrics.agreement")
inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
sklearn_metrics = pytest.importorskip("sklearn.metrics")


def random_wide(
    seed: int, n_items: int = 25, n_raters: int = 3, n_categories: int = 3
) -> pd.DataFrame:
    """A complete wide frame in which every rater uses at least two labels."""
    rng = np.random.default_rng(seed)
    labels = np.array([f"k{j}" for j in range(n_categories)], dtype=object)
    while True:
        # Skewed category probabilities, different per rater, so pi and kappa differ.
        probs = rng.dirichlet(np.ones(n_categories), size=n_raters)
        codes = np.stack([rng.choice(n_categories, size=n_items, p=p) for p in probs], axis=1)
        if all(len(set(codes[:, j])) >= 2 for j in range(n_raters)):
            break
    return pd.DataFrame(labels[codes], columns=[f"r{j}" for j in range(n_raters)])


def from_table(table: list[list[int]], categories: list[str]) -> pd.DataFrame:
    """Two raters' wide frame from their contingency table (rows: rater a, columns: b)."""
    rows = [
        (a, b)
        for i, a in enumerate(categories)
        for j, b in enumerate(categories)
        for _ in range(table[i][j])
    ]
    return pd.DataFrame(rows, columns=["a", "b"])


def annotation_task(wide: pd.DataFrame) -> object:
    data = [
        (rater, item, label)
        for item, row in wide.iterrows()
        for rater, label in row.items()
        if not pd.isna(label)
    ]
    return nltk_agreement.AnnotationTask(data=data)


# =========================================================================== published values

# ------------------------------------------------- Artstein & Poesio (2005), paper 000


def test_artstein_poesio_two_coders() -> None:
    ratings = datasets.load("artstein_poesio2005").agree()
    # Section 13.2: "their observed agreement is 7/10 or 0.7".
    assert float(ratings.observed()) == pytest.approx(0.7, abs=1e-12)
    # Section 13.2: A_e(pi) = 0.65^2 + 0.35^2 = 0.545, pi = (0.7 - 0.545)/(1 - 0.545) ~ 0.341.
    scott = ratings.scott()
    assert scott.observed == pytest.approx(0.7, abs=1e-12)
    assert scott.expected == pytest.approx(0.545, abs=1e-12)
    assert float(scott) == pytest.approx(0.341, abs=5e-4)
    # Section 13.2: A_e(kappa) = 0.6 * 0.7 + 0.4 * 0.3 = 0.54, kappa ~ 0.348.
    cohen = ratings.cohen()
    assert cohen.expected == pytest.approx(0.54, abs=1e-12)
    assert float(cohen) == pytest.approx(0.348, abs=5e-4)
    # Multi-pi and multi-kappa reduce to pi and kappa for two coders (section 13.4).
    assert float(ratings.fleiss()) == pytest.approx(float(scott), rel=1e-12)
    assert float(ratings.conger()) == pytest.approx(float(cohen), rel=1e-12)


def test_artstein_poesio_two_coders_bias() -> None:
    bias = datasets.load("artstein_poesio2005").agree.bias()
    # Section 13.3: B = A_e(pi) - A_e(kappa) = 0.545 - 0.54, and B = sum_k sigma^2_k with
    # sigma^2 = ((P(k|c1) - P(k|c2)) / 2)^2 = (0.1 / 2)^2 for both "yes" and "no".
    assert float(bias) == pytest.approx(0.545 - 0.54, abs=1e-12)
    assert bias.expected_pi == pytest.approx(0.545, abs=1e-12)
    assert bias.expected_kappa == pytest.approx(0.54, abs=1e-12)
    assert bias.variances.to_dict() == pytest.approx({"N": 0.0025, "Y": 0.0025}, abs=1e-12)
    assert float(bias) == pytest.approx(bias.variances.sum(), abs=1e-12)


@pytest.mark.parametrize(
    ("name", "n_coders", "expected_kappa"),
    [
        # Section 13.4: (1/6)[0.6^2 + 4 * 0.6 * 0.7 + 0.7^2] + (1/6)[0.4^2 + 4 * 0.4 * 0.3
        # + 0.3^2] = 0.54333...
        ("artstein_poesio2005_four", 4, 0.5433333333333333),
        # Section 13.4: "expected agreement according to kappa rises to 0.544".
        ("artstein_poesio2005_six", 6, 0.544),
    ],
)
def test_artstein_poesio_many_coders(name: str, n_coders: int, expected_kappa: float) -> None:
    ratings = datasets.load(name).agree()
    # Section 13.4: "The expected agreement according to pi remains 0.545".
    assert ratings.fleiss().expected == pytest.approx(0.545, abs=1e-12)
    assert ratings.conger().expected == pytest.approx(expected_kappa, abs=1e-12)
    bias = ratings.bias()
    assert float(bias) == pytest.approx(0.545 - expected_kappa, abs=1e-12)
    # Section 13.4: B = sum_k sigma^2_k / (c - 1); the coders' variance stays 0.005.
    assert bias.variances.sum() == pytest.approx(0.005, abs=1e-12)
    assert float(bias) == pytest.approx(0.005 / (n_coders - 1), abs=1e-12)


# ------------------------------------------------------------- Fort (2011), paper 001


def test_fort_observed_agreement() -> None:
    # Slide 14, "Contingency Table and Observed Agreement": A_o = (4 + 2) / 10 = 0.6.
    assert float(datasets.load("fort2011_observed").agree.observed()) == pytest.approx(0.6)


def test_fort_s_depends_on_declared_categories() -> None:
    wide = datasets.load("fort2011_balanced")
    # Slide 19: A_o = 0.8, A_e^S = 1/2, S = 0.6.
    s = wide.agree.bennett()
    assert s.observed == pytest.approx(0.8)
    assert s.expected == pytest.approx(0.5)
    assert float(s) == pytest.approx(0.6, abs=1e-12)
    # Slide 19: two more categories C and D, used by nobody: A_e^S = 1/4, S = 0.73.
    s4 = wide.agree(categories=["Yes", "No", "C", "D"]).bennett()
    assert s4.expected == pytest.approx(0.25)
    assert float(s4) == pytest.approx(0.73, abs=5e-3)
    assert float(s4) == pytest.approx(0.55 / 0.75, rel=1e-12)
    assert s4.n_categories == 4


@pytest.mark.parametrize("categories", [None, ["Yes", "No", "C", "D"]])
def test_fort_pi_and_kappa_ignore_unused_categories(categories: list[str] | None) -> None:
    ratings = datasets.load("fort2011_balanced").agree(categories=categories)
    # Slides 21 and 23: A_e^pi = 0.5, pi = 0.6; A_e^kappa = 0.5, kappa = 0.6 (both tables).
    for result in (ratings.scott(), ratings.cohen(), ratings.fleiss(), ratings.conger()):
        assert result.expected == pytest.approx(0.5, abs=1e-12)
        assert float(result) == pytest.approx(0.6, abs=1e-12)


def test_fort_skewed_table() -> None:
    ratings = datasets.load("fort2011_skewed").agree()
    scott, cohen = ratings.scott(), ratings.cohen()

    def truncated(x: float) -> float:
        return math.floor(round(x * 100, 9)) / 100

    # Slide 23 (second table) computes with intermediates cut to two decimals:
    # A_o = 0.68, A_e^pi = 0.5, pi = (0.68 - 0.5) / (1 - 0.5) = 0.36;
    # A_e^kappa = 0.49, kappa = (0.68 - 0.49) / (1 - 0.49) = 0.37.
    a_o, e_pi, e_kappa = (
        truncated(scott.observed),
        truncated(scott.expected),
        truncated(cohen.expected),
    )
    assert (a_o, e_pi, e_kappa) == (0.68, 0.5, 0.49)
    assert truncated(cohen.observed) == 0.68
    assert round((a_o - e_pi) / (1 - e_pi), 2) == 0.36
    assert round((a_o - e_kappa) / (1 - e_kappa), 2) == 0.37
    # The unrounded values from the same table (A yes 32, B yes 38, 48 agreements of 70).
    assert scott.observed == pytest.approx(48 / 70, rel=1e-12)
    assert scott.expected == pytest.approx(((38 + 32) / 2) ** 2 * 2 / 70**2, rel=1e-12)
    assert cohen.expected == pytest.approx((38 * 32 + 32 * 38) / 70**2, rel=1e-12)
    assert float(scott) < float(cohen)


def test_fort_trains_observed_agreement() -> None:
    # Slide 28: pairs of agreeing annotators 2/6, 3/6, 6/6, 1/6, 0/6, 6/6, 6/6.
    observed = datasets.load("fort2011_trains").agree.observed()
    assert float(observed) == pytest.approx((2 + 3 + 6 + 1 + 0 + 6 + 6) / 42, rel=1e-12)
    assert observed.n_items == 7
    assert observed.n_raters == 4


# ----------------------------------------------------------------------- Fleiss (1971)


def test_fleiss_1971_wide() -> None:
    result = datasets.load("fleiss1971").agree.fleiss()
    # Fleiss (1971), worked example: kappa = 0.430, P-bar = 0.556, P-bar_e = 0.220.
    assert float(result) == pytest.approx(ref.FLEISS_1971_KAPPA, abs=5e-4)
    assert result.observed == pytest.approx(ref.FLEISS_1971_P_BAR, abs=5e-4)
    assert result.expected == pytest.approx(ref.FLEISS_1971_P_E, abs=5e-4)
    assert (result.n_items, result.n_raters, result.n_categories) == (30, 6, 5)


def test_fleiss_1971_counts_table() -> None:
    # Fleiss (1971), Table 1 as published (counts only).
    table = pd.DataFrame(ref.FLEISS_1971_COUNTS, columns=ref.FLEISS_1971_CATEGORIES)
    result = table.agree(layout="counts").fleiss()
    assert float(result) == pytest.approx(ref.FLEISS_1971_KAPPA, abs=5e-4)
    wide = datasets.load("fleiss1971").agree.fleiss()
    assert float(result) == pytest.approx(float(wide), rel=1e-12)


# ------------------------------------------------------ irrCAC (Gwet): incomplete designs


@pytest.fixture
def raw4raters() -> pdagree.Ratings:
    wide = pd.DataFrame(ref.IRRCAC_RAW4RATERS, index=ref.IRRCAC_RAW4RATERS_UNITS)
    return wide.agree(categories=ref.IRRCAC_RAW4RATERS_CATEGORIES)


@pytest.mark.parametrize(
    ("method", "key"),
    [
        ("observed", "percent_agreement"),
        ("fleiss", "fleiss"),
        ("conger", "conger"),
        ("bennett", "brennan_prediger"),
    ],
)
def test_irrcac_raw4raters(raw4raters: pdagree.Ratings, method: str, key: str) -> None:
    # irrCAC README (irrCAC 1.4), *.raw(cac.raw4raters): coefficients to 5 decimals, pa and
    # pe to 7 significant digits. Unit 12 has one rating; raters rate 9 to 11 units.
    published = ref.IRRCAC_RAW4RATERS_EXPECTED[key]
    result = getattr(raw4raters, method)()
    assert float(result) == pytest.approx(published["value"], abs=5e-6)
    assert result.observed == pytest.approx(published["pa"], abs=5e-8)
    assert result.expected == pytest.approx(published["pe"], abs=5e-8)


@pytest.mark.parametrize(
    ("method", "key"), [("fleiss", "fleiss"), ("bennett", "brennan_prediger")]
)
def test_irrcac_distrib_6raters(method: str, key: str) -> None:
    # irrCAC README (irrCAC 1.4), *.dist(distrib.6raters): 7 significant digits.
    table = pd.DataFrame(ref.IRRCAC_DISTRIB_6RATERS, columns=ref.IRRCAC_DISTRIB_6RATERS_CATEGORIES)
    published = ref.IRRCAC_DISTRIB_6RATERS_EXPECTED[key]
    result = getattr(table.agree(layout="counts"), method)()
    assert float(result) == pytest.approx(published["value"], abs=5e-8)
    assert result.observed == pytest.approx(published["pa"], abs=5e-8)
    assert result.expected == pytest.approx(published["pe"], abs=5e-8)


# ------------------------------------------------------------------ SAS PROC FREQ kappa


def test_sas_skin_condition_kappa() -> None:
    # SAS/STAT User's Guide, PROC FREQ "Getting Started: Agreement Study": kappa = 0.3449.
    categories = ref.SAS_SKIN_CONDITION_CATEGORIES
    wide = from_table(ref.SAS_SKIN_CONDITION_TABLE, categories)
    result = wide.agree(categories=categories).cohen()
    assert float(result) == pytest.approx(
        ref.SAS_SKIN_CONDITION_EXPECTED["simple_kappa"]["value"], abs=5e-5
    )


def test_sas_table10_kappa() -> None:
    # SAS printout kept in statsmodels' test_inter_rater.py (table10): kappa = 0.4842.
    categories = ["c0", "c1", "c2"]
    wide = from_table(ref.SAS_STATSMODELS_TABLE10, categories)
    result = wide.agree(categories=categories).cohen()
    assert float(result) == pytest.approx(
        ref.SAS_STATSMODELS_TABLE10_EXPECTED["simple_kappa"]["value"], abs=5e-5
    )


# =================================================================== relations between them


@pytest.mark.parametrize("seed", range(5))
def test_two_rater_reductions(seed: int) -> None:
    ratings = random_wide(seed, n_raters=2).agree()
    cohen = float(ratings.cohen())
    scott = float(ratings.scott())
    assert float(ratings.conger()) == pytest.approx(cohen, rel=1e-12)
    assert float(ratings.light()) == pytest.approx(cohen, rel=1e-12)
    assert float(ratings.fleiss()) == pytest.approx(scott, rel=1e-12)
    # Artstein & Poesio (2005), section 13.2: A_e(pi) >= A_e(kappa), so pi <= kappa.
    assert scott <= cohen + 1e-12


def test_two_rater_reductions_incomplete() -> None:
    wide = pd.DataFrame(
        {
            "a": ["x", "y", "x", None, "y", "x", "z", "x"],
            "b": ["x", "y", "y", "y", None, "x", "z", "z"],
        }
    )
    ratings = wide.agree()
    table = ratings.pairwise()
    assert float(ratings.cohen()) == pytest.approx(table.loc["a", "b"], rel=1e-12)
    assert float(ratings.conger()) == pytest.approx(float(ratings.cohen()), rel=1e-12)
    assert float(ratings.light()) == pytest.approx(float(ratings.cohen()), rel=1e-12)
    assert float(ratings.scott()) == pytest.approx(
        ratings.pairwise("scott").loc["a", "b"], rel=1e-12
    )
    assert float(ratings.fleiss()) == pytest.approx(float(ratings.scott()), rel=1e-12)
    # Items rated by one rater only do not count.
    assert ratings.cohen().n_items == 6
    assert ratings.cohen().observed == pytest.approx(4 / 6)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("n_raters", [2, 3, 5])
def test_bias_identities_complete(seed: int, n_raters: int) -> None:
    ratings = random_wide(seed, n_raters=n_raters, n_categories=4).agree()
    bias = ratings.bias()
    c = n_raters
    # Artstein & Poesio (2005), section 13.4: B = A_e(pi) - A_e(kappa) = sum_k s2_k / (c - 1).
    assert float(bias) == pytest.approx(
        ratings.fleiss().expected - ratings.conger().expected, abs=1e-12
    )
    assert float(bias) == pytest.approx(bias.variances.sum() / (c - 1), abs=1e-12)
    assert bias.per_category.sum() == pytest.approx(float(bias), abs=1e-12)
    assert bias.marginal_gap == pytest.approx(0.0, abs=1e-12)
    assert float(bias) >= -1e-15
    # Per-rater contributions sum to B.
    assert bias.per_rater[("contribution", "")].sum() == pytest.approx(float(bias), abs=1e-12)
    # sigma^2_k is the population variance over raters of P(k|c).
    proportions = bias.per_rater["proportion"]
    np.testing.assert_allclose(bias.variances, proportions.var(axis=0, ddof=0), atol=1e-12)


def test_bias_identities_incomplete() -> None:
    wide = pd.DataFrame(
        {
            "a": ["x", "y", "x", None, "y", "x", "z", "x", "y"],
            "b": ["x", "y", "y", "y", None, "x", "z", "z", "y"],
            "c": [None, "y", "y", "x", "y", "x", None, "z", "x"],
        }
    )
    ratings = wide.agree()
    bias = ratings.bias()
    assert float(bias) == pytest.approx(
        ratings.fleiss().expected - ratings.conger().expected, abs=1e-12
    )
    variance_term = bias.per_rater[("contribution", "")].sum()
    assert float(bias) == pytest.approx(bias.marginal_gap + variance_term, abs=1e-12)


def test_per_rater_bias_contributions() -> None:
    bias = datasets.load("artstein_poesio2005_four").agree.bias()
    per_rater = bias.per_rater
    assert list(per_rater.index) == ["Alice", "Bill", "Claire", "Dave"]
    # P(Y|Alice) = 0.6 and P(Y|Bill) = 0.7 (section 13.2); Claire copies Alice, Dave Bill.
    assert per_rater[("proportion", "Y")].tolist() == pytest.approx([0.6, 0.7, 0.6, 0.7])
    # Each coder is 0.05 from the mean in both categories: distance 2 * 0.05^2.
    assert per_rater[("distance", "")].tolist() == pytest.approx([0.005] * 4)
    assert per_rater[("contribution", "")].tolist() == pytest.approx([0.005 / 12] * 4)


# ============================================================================ undefined values


@pytest.mark.parametrize("method", ["fleiss", "conger", "scott", "cohen", "bennett", "light"])
def test_expected_agreement_one_is_nan_with_warning(method: str) -> None:
    wide = pd.DataFrame({"a": ["x", "x", "x"], "b": ["x", "x", "x"]})
    with pytest.warns(pdagree.UndefinedStatisticWarning, match=rf"`{method}` is undefined") as rec:
        result = getattr(wide.agree, method)()
    assert math.isnan(float(result))
    # The warning points at the caller's line, not inside pdagree.
    assert rec[0].filename == __file__


@pytest.mark.parametrize("method", ["observed", "bennett", "fleiss", "conger", "light"])
def test_no_item_with_two_ratings_is_nan_with_warning(method: str) -> None:
    wide = pd.DataFrame({"a": ["x", None, "y"], "b": [None, "y", None]})
    with pytest.warns(
        pdagree.UndefinedStatisticWarning,
        match=r"no item has two or more ratings; the value is nan",
    ):
        result = getattr(wide.agree, method)()
    assert math.isnan(float(result))
    assert result.n_items == 0


def test_undefined_group_warns_and_names_it() -> None:
    wide = pd.DataFrame(
        {"a": ["x", "x", "x", "y"], "b": ["x", "x", "x", "z"], "g": ["u", "u", "v", "v"]}
    )
    with pytest.warns(
        pdagree.UndefinedStatisticWarning,
        match=re.escape("`fleiss` is undefined in 1 of 2 groups (e.g. ['u'])"),
    ):
        result = wide.agree(by="g").fleiss()
    assert math.isnan(result.loc["u", "value"])
    assert result.loc["v", "value"] == pytest.approx(float(wide.iloc[2:, :2].agree.fleiss()))


@pytest.mark.parametrize(
    "method", ["observed", "bennett", "fleiss", "conger", "light", "bias", "scott", "cohen"]
)
def test_group_with_a_single_rater_is_nan_with_warning(method: str) -> None:
    wide = pd.DataFrame(
        {"a": ["x", "y", "x", "y"], "b": ["x", "y", None, None], "g": ["u", "u", "v", "v"]}
    )
    with pytest.warns(
        pdagree.UndefinedStatisticWarning, match=r"in 1 of 2 groups \(e\.g\. \['v'\]\)"
    ):
        result = getattr(wide.agree(by="g"), method)()
    assert np.isnan(result.loc["v", "value"])
    assert result.loc["v", "n_raters"] == 1
    assert result.loc["v", "n_items"] == 0
    assert not np.isnan(result.loc["u", "value"])


def test_defined_values_do_not_warn() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ratings = datasets.load("fort2011_trains").agree()
        values = {m: float(getattr(ratings, m)()) for m in ("observed", "bennett", "fleiss")}
        values |= {m: float(getattr(ratings, m)()) for m in ("conger", "light", "bias")}
    assert [str(w.message) for w in caught] == []
    assert all(math.isfinite(v) for v in values.values()), values


# ============================================================================ differential


@pytest.mark.parametrize("seed", range(8))
def test_fleiss_equals_statsmodels(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n_raters = int(rng.integers(2, 7))
    wide = random_wide(seed, n_raters=n_raters, n_categories=int(rng.integers(2, 6)))
    codes = wide.apply(lambda col: col.str[1:].astype(int)).to_numpy()
    table, _ = inter_rater.aggregate_raters(codes)
    expected = inter_rater.fleiss_kappa(table, method="fleiss")
    assert float(wide.agree.fleiss()) == pytest.approx(expected, rel=1e-10, abs=1e-12)


def test_fleiss_1971_equals_statsmodels() -> None:
    codes = np.array(ref.FLEISS_1971_RAW_STATSMODELS)
    table, _ = inter_rater.aggregate_raters(codes)
    expected = inter_rater.fleiss_kappa(table, method="fleiss")
    wide = pd.DataFrame(codes)
    assert float(wide.agree.fleiss()) == pytest.approx(expected, rel=1e-12)
    assert float(datasets.load("fleiss1971").agree.fleiss()) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("seed", range(8))
def test_cohen_equals_statsmodels_and_sklearn(seed: int) -> None:
    wide = random_wide(seed, n_raters=2, n_categories=3 + seed % 3)
    ratings = wide.agree()
    kappa = float(ratings.cohen())
    table = pd.crosstab(wide["r0"], wide["r1"]).reindex(
        index=ratings.categories, columns=ratings.categories, fill_value=0
    )
    assert kappa == pytest.approx(inter_rater.cohens_kappa(table.to_numpy()).kappa, abs=1e-12)
    assert kappa == pytest.approx(
        sklearn_metrics.cohen_kappa_score(wide["r0"], wide["r1"]), abs=1e-12
    )


@pytest.mark.parametrize("seed", range(6))
def test_nltk_equivalences(seed: int) -> None:
    wide = random_wide(seed, n_items=15, n_raters=2 + seed % 3)
    ratings = wide.agree()
    task = annotation_task(wide)
    assert float(ratings.observed()) == pytest.approx(task.avg_Ao(), abs=1e-12)
    assert float(ratings.bennett()) == pytest.approx(task.S(), abs=1e-12)
    assert float(ratings.fleiss()) == pytest.approx(task.pi(), abs=1e-12)
    assert float(ratings.conger()) == pytest.approx(task.multi_kappa(), abs=1e-12)
    assert float(ratings.light()) == pytest.approx(task.kappa(), abs=1e-12)
    if ratings.n_raters == 2:
        assert float(ratings.scott()) == pytest.approx(task.pi(), abs=1e-12)
        assert float(ratings.cohen()) == pytest.approx(task.multi_kappa(), abs=1e-12)
        assert float(ratings.cohen()) == pytest.approx(task.kappa(), abs=1e-12)


@pytest.mark.parametrize(
    "name", ["artstein_poesio2005", "artstein_poesio2005_four", "fort2011_trains", "fleiss1971"]
)
def test_nltk_on_bundled_data(name: str) -> None:
    wide = datasets.load(name)
    ratings = wide.agree()
    task = annotation_task(wide)
    assert float(ratings.fleiss()) == pytest.approx(task.pi(), abs=1e-12)
    assert float(ratings.conger()) == pytest.approx(task.multi_kappa(), abs=1e-12)
    assert float(ratings.bennett()) == pytest.approx(task.S(), abs=1e-12)
    # Pairwise Cohen, pair by pair, where both are defined.
    pairwise = ratings.pairwise()
    for a, b in combinations(wide.columns, 2):
        if not np.isnan(pairwise.loc[a, b]):
            assert pairwise.loc[a, b] == pytest.approx(task.kappa_pairwise(a, b), abs=1e-12)


def test_nltk_s_ignores_declared_categories() -> None:
    # nltk's A_e^S is 1 / (number of labels seen); it cannot declare Fort's unused C and D.
    wide = datasets.load("fort2011_balanced")
    task = annotation_task(wide)
    assert task.S() == pytest.approx(float(wide.agree.bennett()))
    declared = wide.agree(categories=["Yes", "No", "C", "D"]).bennett()
    assert float(declared) != pytest.approx(task.S())


def test_nltk_kappa_counts_degenerate_pairs_as_perfect() -> None:
    # Raters a and c use one label each and agree on every item: their kappa is 0/0.
    # nltk counts that pair as 1.0; pdagree leaves it out of Light's mean (it is undefined).
    wide = pd.DataFrame({"a": ["x"] * 4, "b": ["x", "y", "x", "y"], "c": ["x"] * 4})
    task = annotation_task(wide)
    ratings = wide.agree()
    defined = [ratings.pairwise().loc["a", "b"], ratings.pairwise().loc["b", "c"]]
    assert np.isnan(ratings.pairwise().loc["a", "c"])
    assert float(ratings.light()) == pytest.approx(np.mean(defined))
    assert ratings.light().n_pairs == 2
    assert task.kappa() == pytest.approx((sum(defined) + 1.0) / 3)
