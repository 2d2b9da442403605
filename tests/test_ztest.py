"""``z_test()``: the test statistics that R irr and SAS PROC FREQ print (issue 9).

Published values come from ``tests/references.py``, where each carries its citation; the
comment next to each comparison names the source again.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import pandas as pd
import pytest
import references as ref
from scipy import stats

import pdagree
from pdagree.inference import ZTest


def assert_decimals(actual: float, printed: float, decimals: int) -> None:
    assert abs(actual - printed) <= 0.5 * 10.0**-decimals * (1 + 1e-9), (actual, printed)


def assert_significant(actual: float, printed: float, digits: int = 7) -> None:
    exponent = math.floor(math.log10(abs(printed)))
    half_unit = 0.5 * 10.0 ** (exponent - digits + 1)
    assert abs(actual - printed) <= half_unit * (1 + 1e-9), (actual, printed)


def expand(table: list[list[int]], categories: list[Any]) -> pd.DataFrame:
    rows = [
        (categories[i], categories[j])
        for i, line in enumerate(table)
        for j, count in enumerate(line)
        for _ in range(count)
    ]
    return pd.DataFrame(rows, columns=["rater1", "rater2"])


def irr_weights(v: list[float], k: int) -> np.ndarray[Any, Any]:
    """irr's kappa2 weights: ``w = 1 - (v - min v) / (max v - min v)`` over the distance
    between the levels' positions."""
    values = np.asarray(v, dtype=float)
    w = 1.0 - (values - values.min()) / (values.max() - values.min())
    positions = np.arange(k)
    return w[np.abs(positions[:, None] - positions[None, :])]


# --------------------------------------------------------------------------- SAS PROC FREQ


@pytest.mark.parametrize(
    ("key", "weights"), [("simple_kappa", None), ("weighted_kappa_cicchetti_allison", "linear")]
)
@pytest.mark.parametrize("layout", ["wide", "contingency"])
def test_sas_ase_under_h0_and_z(key: str, weights: str | None, layout: str) -> None:
    # SAS printout kept in statsmodels 0.15.0 test_inter_rater.py (res10_sash0, res10w_sash0):
    # ASE under H0 and Z of TEST KAPPA / TEST WTKAP, printed to 4 decimals. Cicchetti-Allison
    # weights on the scores 0, 1, 2 are linear weights.
    expected = ref.SAS_STATSMODELS_TABLE10_EXPECTED[key]
    if layout == "wide":
        frame = expand(ref.SAS_STATSMODELS_TABLE10, [0, 1, 2])
        result = frame.agree(categories=[0, 1, 2]).cohen(weights=weights)
    else:
        table = pd.DataFrame(ref.SAS_STATSMODELS_TABLE10, index=[0, 1, 2], columns=[0, 1, 2])
        result = table.agree(layout="contingency").cohen(weights=weights)
    test = result.z_test("large-sample")
    assert isinstance(test, ZTest)
    assert_decimals(test.z, expected["z"], 4)
    assert_decimals(test.se_h0, expected["ase_h0"], 4)
    assert_decimals(test.p_value, expected["p_one_sided"], 4)
    two_sided = result.z_test("large-sample", alternative="two-sided")
    assert_decimals(two_sided.p_value, expected["p_two_sided"], 4)
    assert test.z == pytest.approx(float(result) / test.se_h0, rel=1e-14)


# --------------------------------------------------------------------------- R irr


@pytest.mark.parametrize("case", ref.IRR_KAPPA2_ANXIETY, ids=lambda c: f"{c['raters']}{c['v']}")
@pytest.mark.parametrize("layout", ["wide", "contingency"])
def test_irr_kappa2_anxiety(case: dict[str, Any], layout: str) -> None:
    # irr 0.84.1 kappa2(anxiety[, pair], weight), R output kept in statsmodels 0.15.0
    # test_inter_rater.py (test_cohens_kappa_irr); 7 significant digits, p two-sided.
    anxiety = pd.DataFrame(ref.IRR_ANXIETY)
    pair = anxiety[list(case["raters"])]
    levels = sorted(set(pair.to_numpy().ravel().tolist()))  # irr: the levels present, sorted
    weights = None if case["v"] is None else irr_weights(case["v"], len(levels))
    if layout == "wide":
        ratings = pair.agree(categories=levels)
    else:
        table = pd.crosstab(pair.iloc[:, 0], pair.iloc[:, 1])
        ratings = table.agree(layout="contingency", categories=levels)
    result = ratings.cohen(weights=weights)
    assert result.n_items == 20
    assert_significant(float(result), case["value"])
    test = result.z_test("large-sample", alternative="two-sided")
    assert_significant(test.z, case["z"])
    assert_significant(test.p_value, case["p"])


@pytest.mark.parametrize("layout", ["wide", "counts"])
def test_irr_kappam_fleiss_diagnoses(layout: str) -> None:
    # irr 0.84.1 kappam.fleiss(diagnoses): z = 17.65183 (full precision kept in statsmodels
    # 0.15.0 test_inter_rater.py, test_fleiss_kappa_irr; R prints "z = 17.7", p "0").
    expected = ref.IRR_KAPPAM_FLEISS_DIAGNOSES
    wide = pdagree.datasets.load("fleiss1971")
    ratings = wide.agree() if layout == "wide" else wide.agree.counts().agree(layout="counts")
    kappa = ratings.fleiss()
    assert_significant(float(kappa), expected["value"])
    test = kappa.z_test("large-sample", alternative="two-sided")
    assert_significant(test.z, expected["z"])
    assert test.p_value < 1e-60  # printed 0
    assert kappa.p_value("large-sample", alternative="two-sided") == test.p_value


def test_fleiss_nee_landis_is_scotts_pi_on_two_raters() -> None:
    # Scott's pi is Fleiss' kappa of two raters, and so is its variance under H0.
    pair = pd.DataFrame(ref.IRR_ANXIETY)[["rater1", "rater2"]]
    assert pair.agree.scott().z_test("large-sample") == pair.agree.fleiss().z_test("large-sample")


# --------------------------------------------------------------------------- consistency


def incomplete(seed: int = 1, n_items: int = 60) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 5, size=n_items)
    noise = rng.integers(1, 5, size=(n_items, 3))
    labels = np.where(rng.random((n_items, 3)) < 0.7, truth[:, None], noise).astype(float)
    labels[rng.random((n_items, 3)) < 0.1] = np.nan
    return pd.DataFrame(labels, columns=["a", "b", "c"])


@pytest.mark.parametrize("alternative", ["greater", "two-sided", "less"])
@pytest.mark.parametrize(
    ("method", "options"),
    [
        ("fleiss", {"method": "analytic"}),
        ("gwet", {"method": "auto"}),
        ("light", {"method": "auto", "rng": 4, "n_resamples": 300}),
        ("alpha", {"method": "bootstrap", "rng": 2, "n_resamples": 300}),
    ],
)
def test_p_value_is_z_tests(method: str, options: dict[str, Any], alternative: str) -> None:
    result = getattr(incomplete().agree, method)()
    test = result.z_test(alternative=alternative, **options)
    assert result.p_value(alternative=alternative, **options) == test.p_value
    assert math.isnan(test.se_h0)
    se = result.standard_error(**options)
    assert test.z == pytest.approx(float(result) / se, rel=1e-12)


def test_analytic_z_is_value_over_se_against_t() -> None:
    wide = incomplete()
    result = wide.agree.conger()
    test = result.z_test("analytic", alternative="two-sided")
    n = int(wide.notna().any(axis=1).sum())
    assert test.z == float(result) / result.standard_error("analytic")
    assert test.p_value == pytest.approx(2 * stats.t(n - 1).sf(abs(test.z)), rel=1e-12)


def test_default_method_follows_auto() -> None:
    pair = pd.DataFrame(ref.IRR_ANXIETY)[["rater1", "rater2"]]
    result = pair.agree.cohen()
    auto, analytic = result.z_test(), result.z_test("analytic")
    assert (auto.z, auto.p_value) == (analytic.z, analytic.p_value)
    assert math.isnan(auto.se_h0)


def test_contingency_analytic_z_uses_the_table_variance() -> None:
    table = pd.DataFrame(
        ref.IRRCAC_CONT3X3ABSTRACTORS,
        index=ref.IRRCAC_CONT3X3ABSTRACTORS_CATEGORIES,
        columns=ref.IRRCAC_CONT3X3ABSTRACTORS_CATEGORIES,
    )
    kappa = table.agree(layout="contingency").cohen()
    # irrCAC README: kappa2.table se 0.05891072.
    assert float(kappa) / kappa.z_test().z == pytest.approx(0.05891072, abs=5e-9)


def test_by_adds_z_and_se_h0_columns() -> None:
    wide = incomplete(3, 90).dropna()
    wide = wide.assign(group=np.arange(len(wide)) % 3)
    pair = wide[["a", "b", "group"]]
    frame = pair.agree(by="group").cohen(confidence_level=0.95)
    assert list(frame.columns[-7:]) == ["se", "low", "high", "z", "se_h0", "p_value", "ci_method"]
    np.testing.assert_allclose(frame["z"], frame["value"] / frame["se"], rtol=1e-14)
    assert frame["se_h0"].isna().all()
    large = pair.agree(by="group").cohen(confidence_level=0.95, method="large-sample")
    for key, group in pair.groupby("group"):
        alone = group[["a", "b"]].agree.cohen().z_test("large-sample")
        assert large.loc[key, "z"] == pytest.approx(alone.z, rel=1e-12)
        assert large.loc[key, "se_h0"] == pytest.approx(alone.se_h0, rel=1e-12)
        assert large.loc[key, "p_value"] == pytest.approx(alone.p_value, rel=1e-12)


def test_confidence_level_members() -> None:
    result = pdagree.datasets.load("fleiss1971").agree.fleiss(confidence_level=0.95)
    assert result.z == float(result) / result.se
    assert math.isnan(result.se_h0)
    row = result.to_frame()
    shown = [c for c in row.columns if c in ("se", "low", "high", "z", "se_h0")]
    assert shown == ["se", "low", "high", "z", "se_h0"]


# --------------------------------------------------------------------------- errors


def test_large_sample_test_needs_a_variance_under_h0() -> None:
    message = (
        "method='large-sample' is the asymptotic variance of two-rater Cohen's kappa; `gwet` "
        "needs method='analytic' or 'bootstrap'."
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        incomplete().agree.gwet().z_test("large-sample")


def test_fleiss_large_sample_is_a_test_only() -> None:
    kappa = pdagree.datasets.load("fleiss1971").agree.fleiss()
    message = (
        "method='large-sample' is the asymptotic variance of two-rater Cohen's kappa; "
        "`fleiss` needs method='analytic' or 'bootstrap'. For `z_test()` and `p_value()`, "
        "method='large-sample' gives it the standard error under H0 of Fleiss, Nee & Landis "
        "(1979), as R irr's kappam.fleiss."
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        kappa.standard_error("large-sample")
    with pytest.raises(ValueError, match=re.escape(message)):
        kappa.confidence_interval(method="large-sample")
    with pytest.raises(ValueError, match=re.escape(message)):
        pdagree.datasets.load("fleiss1971").agree.fleiss(
            confidence_level=0.95, method="large-sample"
        )


def test_fleiss_nee_landis_needs_complete_unweighted_data() -> None:
    message = (
        "method='large-sample' for Fleiss' kappa is the variance under H0 of Fleiss, Nee & "
        "Landis (1979), which needs the same number of ratings on every item; items here have "
        "1 to 3 ratings. Use method='analytic' or 'bootstrap' for incomplete designs."
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        incomplete().agree.fleiss().z_test("large-sample")
    message = (
        "method='large-sample' for Fleiss' kappa is the variance under H0 of Fleiss, Nee & "
        "Landis (1979), which is for unweighted kappa; got weights='linear'. Use "
        "method='analytic' or 'bootstrap' for weighted kappa."
    )
    complete = incomplete().dropna()
    with pytest.raises(ValueError, match=re.escape(message)):
        complete.agree.fleiss(weights="linear").p_value("large-sample")


def test_large_sample_has_no_population_correction() -> None:
    with pytest.raises(ValueError, match=r"`N` \(finite-population correction\) applies to"):
        pdagree.datasets.load("fleiss1971").agree.fleiss().z_test("large-sample", N=1000)
