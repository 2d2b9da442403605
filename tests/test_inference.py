"""Standard errors, confidence intervals and p-values (docs/coefficients/uncertainty.md,
pdagree.inference).

Published values come from ``tests/references.py``, where each carries its citation; the
comment next to each comparison names the source again. Comparisons are made at the precision
the source prints (see "How the sources print" in ``references.py``): a number printed with
``d`` decimals must be within half a unit of its last digit.
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
from statsmodels.stats.inter_rater import cohens_kappa

import pdagree

ANALYTIC = ("observed", "bennett", "scott", "cohen", "fleiss", "conger", "gwet")
MULTI_RATER = ("observed", "bennett", "fleiss", "conger", "gwet")

# irrCAC's names for pdagree's methods.
IRRCAC_NAMES = {
    "percent_agreement": "observed",
    "brennan_prediger": "bennett",
    "gwet_ac1": "gwet",
    "gwet_ac2": "gwet",
    "fleiss": "fleiss",
    "conger": "conger",
    "cohen": "cohen",
    "scott": "scott",
}


# --------------------------------------------------------------------------- helpers


def assert_decimals(actual: float, printed: float, decimals: int) -> None:
    """``actual`` rounds to ``printed`` at ``decimals`` places (half a unit of the last digit)."""
    assert abs(actual - printed) <= 0.5 * 10.0**-decimals * (1 + 1e-9), (actual, printed)


def assert_significant(actual: float, printed: float, digits: int = 7) -> None:
    """``actual`` agrees with ``printed`` at the ``digits`` significant digits R prints."""
    exponent = math.floor(math.log10(abs(printed)))
    half_unit = 0.5 * 10.0 ** (exponent - digits + 1)
    assert abs(actual - printed) <= half_unit * (1 + 1e-9), (actual, printed)


def assert_ci(ci: Any, printed: tuple[float, float]) -> None:
    """irrCAC prints the CI to 3 decimals, the upper limit clipped at 1."""
    low, high = ci
    assert_decimals(low, printed[0], 3)
    if printed[1] == 1.0:
        assert high == 1.0  # the clip, not a computed bound
    else:
        assert_decimals(high, printed[1], 3)


def alternative_of(expected: dict[str, Any]) -> str:
    """irrCAC's p before 2021-11-30 was two-sided, after it one-sided (references.py)."""
    return {"one-sided": "greater", "two-sided": "two-sided"}[expected["p_sided"]]


def raw4raters() -> pd.DataFrame:
    # irrCAC README (commit 7fb7509), cac.raw4raters: 12 units x 4 raters, categories 1..5.
    return pd.DataFrame(ref.IRRCAC_RAW4RATERS, index=ref.IRRCAC_RAW4RATERS_UNITS)


def distrib6raters() -> pd.DataFrame:
    # irrCAC README (commit 7fb7509), distrib.6raters: 15 subjects x 5 categories, counts.
    return pd.DataFrame(ref.IRRCAC_DISTRIB_6RATERS, columns=ref.IRRCAC_DISTRIB_6RATERS_CATEGORIES)


def expand(table: list[list[int]], categories: list[Any]) -> pd.DataFrame:
    """A contingency table (rows = rater 1, columns = rater 2) as a two-column wide frame."""
    rows = [
        (categories[i], categories[j])
        for i, line in enumerate(table)
        for j, count in enumerate(line)
        for _ in range(count)
    ]
    return pd.DataFrame(rows, columns=["rater1", "rater2"])


def incomplete(seed: int, n_items: int = 90, n_raters: int = 4, k: int = 4) -> pd.DataFrame:
    """Raters who mostly agree on a latent category, about 15% of the cells missing."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, k + 1, size=n_items)
    noise = rng.integers(1, k + 1, size=(n_items, n_raters))
    keep = rng.random((n_items, n_raters)) < 0.7
    labels = np.where(keep, truth[:, None], noise).astype(float)
    labels[rng.random((n_items, n_raters)) < 0.15] = np.nan
    return pd.DataFrame(labels, columns=[f"r{i}" for i in range(n_raters)])


def n_rated(wide: pd.DataFrame) -> int:
    """Items with at least one rating: the n of irrCAC's t(n - 1) interval."""
    return int(wide.notna().any(axis=1).sum())


# --------------------------------------------------------------------------- irrCAC: raw ratings


@pytest.mark.parametrize("key", sorted(ref.IRRCAC_RAW4RATERS_EXPECTED.keys() - {"krippendorff"}))
def test_irrcac_raw4raters(key: str) -> None:
    # irrCAC README (commit 7fb7509, irrCAC 1.4), <fun>.raw(cac.raw4raters)$est.
    expected = ref.IRRCAC_RAW4RATERS_EXPECTED[key]
    result = getattr(raw4raters().agree, IRRCAC_NAMES[key])()
    assert_decimals(float(result), expected["value"], 5)
    assert_significant(result.observed, expected["pa"])
    if expected["pe"] == 0.0:
        assert result.expected == 0.0
    else:
        assert_significant(result.expected, expected["pe"])
    assert_decimals(result.standard_error(), expected["se"], 5)
    assert_ci(result.confidence_interval(), expected["ci"])
    assert expected["p_sided"] == "one-sided"
    assert_significant(result.p_value(), expected["p"])  # the default is one-sided


@pytest.mark.parametrize(
    "key", sorted(ref.IRRCAC_RAW4RATERS_QUADRATIC_EXPECTED.keys() - {"krippendorff"})
)
def test_irrcac_raw4raters_quadratic(key: str) -> None:
    # irrCAC vignette weighting.html (2021-08-28, irrCAC 1.2), <fun>.raw(cac.raw4raters,
    # weights = "quadratic")$est; p two-sided there.
    expected = ref.IRRCAC_RAW4RATERS_QUADRATIC_EXPECTED[key]
    result = getattr(raw4raters().agree, IRRCAC_NAMES[key])(weights="quadratic")
    assert result.name == f"{IRRCAC_NAMES[key]}[quadratic]"
    assert_decimals(float(result), expected["value"], 5)
    assert_significant(result.observed, expected["pa"])
    if expected["pe"] == 0.0:
        assert result.expected == 0.0
    else:
        assert_significant(result.expected, expected["pe"])
    assert_decimals(result.standard_error(), expected["se"], 5)
    assert_ci(result.confidence_interval(), expected["ci"])
    assert_significant(result.p_value(alternative=alternative_of(expected)), expected["p"])


def test_irrcac_raw4raters_members_with_confidence_level() -> None:
    # Same numbers through `confidence_level=` on the method (irrCAC README, gwet.ac1.raw).
    expected = ref.IRRCAC_RAW4RATERS_EXPECTED["gwet_ac1"]
    result = raw4raters().agree.gwet(confidence_level=0.95)
    assert_decimals(result.se, expected["se"], 5)
    assert_ci((result.low, result.high), expected["ci"])


# --------------------------------------------------------------------------- irrCAC: counts


@pytest.mark.parametrize(
    "key", sorted(ref.IRRCAC_DISTRIB_6RATERS_EXPECTED.keys() - {"krippendorff"})
)
def test_irrcac_distrib6raters(key: str) -> None:
    # irrCAC README (commit 7fb7509), <fun>.dist(distrib.6raters); 7 significant digits.
    expected = ref.IRRCAC_DISTRIB_6RATERS_EXPECTED[key]
    result = getattr(distrib6raters().agree(layout="counts"), IRRCAC_NAMES[key])()
    assert_significant(float(result), expected["value"])
    assert_significant(result.observed, expected["pa"])
    assert_significant(result.expected, expected["pe"])
    assert_significant(result.standard_error(), expected["se"])
    assert_ci(result.confidence_interval(), expected["ci"])
    assert_significant(result.p_value(alternative=alternative_of(expected)), expected["p"])


@pytest.mark.parametrize(
    "key", sorted(ref.IRRCAC_DISTRIB_6RATERS_QUADRATIC_EXPECTED.keys() - {"krippendorff"})
)
def test_irrcac_distrib6raters_quadratic(key: str) -> None:
    # irrCAC weighting.html (2021-08-28), <fun>.dist(distrib.6raters, quadratic.weights(1:q));
    # the categories are labels, so scored 1..5 in column order like quadratic.weights(1:q).
    expected = ref.IRRCAC_DISTRIB_6RATERS_QUADRATIC_EXPECTED[key]
    result = getattr(distrib6raters().agree(layout="counts"), IRRCAC_NAMES[key])(
        weights="quadratic"
    )
    assert_significant(float(result), expected["value"])
    assert_significant(result.observed, expected["pa"])
    assert_significant(result.expected, expected["pe"])
    assert_significant(result.standard_error(), expected["se"])
    assert_ci(result.confidence_interval(), expected["ci"])
    assert_significant(result.p_value(alternative=alternative_of(expected)), expected["p"])


# --------------------------------------------------------------------------- irrCAC: 2 raters

# irrCAC's contingency-table functions (R/agree.coeff2.r, kappa2.table etc.) compute
# var = (1 - f) / (n (1 - pe)^2) * (sum_kl p_kl (...)^2 - (...)^2), i.e. the linearised
# variance with divisor n^2, where its raw-ratings functions (and pdagree, which reads raw
# ratings) divide by n (n - 1). So the table SE = pdagree's SE * sqrt((n - 1) / n); the CI is
# value +/- qt(0.975, n - 1) * that SE, upper limit clipped at 1.
CONT_N = 100


def _cont3x3(weights: str | None) -> tuple[pd.DataFrame, dict[str, Any]]:
    cats = ref.IRRCAC_CONT3X3ABSTRACTORS_CATEGORIES
    frame = expand(ref.IRRCAC_CONT3X3ABSTRACTORS, cats)
    table = (
        ref.IRRCAC_CONT3X3ABSTRACTORS_EXPECTED
        if weights is None
        else ref.IRRCAC_CONT3X3ABSTRACTORS_QUADRATIC_EXPECTED
    )
    return frame, table


@pytest.mark.parametrize("weights", [None, "quadratic"])
@pytest.mark.parametrize("method", ["cohen", "scott", "gwet", "bennett", "observed"])
def test_irrcac_cont3x3abstractors(method: str, weights: str | None) -> None:
    # irrCAC README (commit 7fb7509) kappa2.table / scott2.table / gwet.ac1.table / bp2.table /
    # pa2.table (cont3x3abstractors); quadratic: weighting.html (2021-08-28), same functions
    # with quadratic.weights(1:q).
    frame, table = _cont3x3(weights)
    key = {"gwet": "gwet_ac1" if weights is None else "gwet_ac2"}.get(method, method)
    key = {"bennett": "brennan_prediger", "observed": "percent_agreement"}.get(key, key)
    expected = table[key]
    ratings = frame.agree(categories=ref.IRRCAC_CONT3X3ABSTRACTORS_CATEGORIES)
    result = getattr(ratings, method)(weights=weights)
    assert result.n_items == CONT_N
    assert_significant(float(result), expected["value"])
    se = result.standard_error()
    table_se = se * math.sqrt((CONT_N - 1) / CONT_N)
    assert_significant(table_se, expected["se"])
    t = stats.t.ppf(0.975, CONT_N - 1)
    assert_ci(
        (float(result) - t * table_se, min(1.0, float(result) + t * table_se)), expected["ci"]
    )
    low, high = result.confidence_interval()
    assert low == pytest.approx(float(result) - t * se, abs=1e-12)
    assert high == pytest.approx(min(1.0, float(result) + t * se), abs=1e-12)
    # Printed "0e+00": R's 1 - pt(z, n - 1) is exactly 0 once pt rounds to 1, i.e. when the
    # true tail is below about 2^-53.
    assert expected["p"] == 0.0
    assert result.p_value() < 2.0**-52


# --------------------------------------------------------------------------- SAS: large sample


def test_sas_skin_condition_simple_kappa() -> None:
    # SAS/STAT User's Guide, PROC FREQ, "Getting Started: Agreement Study": kappa 0.3449,
    # CI (0.2030, 0.4868); ASE 0.0724.
    expected = ref.SAS_SKIN_CONDITION_EXPECTED["simple_kappa"]
    cats = ref.SAS_SKIN_CONDITION_CATEGORIES
    result = expand(ref.SAS_SKIN_CONDITION_TABLE, cats).agree(categories=cats).cohen()
    assert_decimals(float(result), expected["value"], 4)
    assert_decimals(result.standard_error("large-sample"), expected["ase"], 4)
    ci = result.confidence_interval(method="large-sample")
    assert_decimals(ci.low, expected["ci"][0], 4)
    assert_decimals(ci.high, expected["ci"][1], 4)


@pytest.mark.parametrize(
    ("key", "weights"), [("simple_kappa", None), ("weighted_kappa_cicchetti_allison", "linear")]
)
def test_sas_statsmodels_table10(key: str, weights: str | None) -> None:
    # SAS printout kept in statsmodels 0.15.0 test_inter_rater.py (res10_sas, res10_sash0,
    # res10w_sas, res10w_sash0). Cicchetti-Allison weights on scores 0, 1, 2 = linear.
    expected = ref.SAS_STATSMODELS_TABLE10_EXPECTED[key]
    frame = expand(ref.SAS_STATSMODELS_TABLE10, [0, 1, 2])
    result = frame.agree(categories=[0, 1, 2]).cohen(weights=weights)
    assert_decimals(float(result), expected["value"], 4)
    assert_decimals(result.standard_error("large-sample"), expected["ase"], 4)
    ci = result.confidence_interval(method="large-sample")
    assert_decimals(ci.low, expected["ci"][0], 4)
    assert_decimals(ci.high, expected["ci"][1], 4)
    # The test statistic uses the ASE under H0: recover Z and the ASE under H0 from p.
    p_one = result.p_value("large-sample")
    z = stats.norm.isf(p_one)
    assert_decimals(z, expected["z"], 4)
    assert_decimals(float(result) / z, expected["ase_h0"], 4)
    assert_decimals(p_one, expected["p_one_sided"], 4)
    assert_decimals(
        result.p_value("large-sample", alternative="two-sided"), expected["p_two_sided"], 4
    )


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_large_sample_matches_statsmodels(weights: str | None) -> None:
    # statsmodels' cohens_kappa implements the same Fleiss-Cohen-Everitt (1969) variances;
    # its 2-D weights are disagreements (1 - agreement weights).
    rng = np.random.default_rng(21)
    a = rng.integers(0, 4, size=250)
    b = np.where(rng.random(250) < 0.6, a, rng.integers(0, 4, size=250))
    frame = pd.DataFrame({"r1": a, "r2": b})
    ratings = frame.agree(categories=[0, 1, 2, 3])
    result = ratings.cohen(weights=weights)
    table = pd.crosstab(frame.r1, frame.r2).to_numpy()
    if weights is None:
        theirs = cohens_kappa(table)
    else:
        theirs = cohens_kappa(table, weights=np.arange(4.0), wt=weights)
    assert float(result) == pytest.approx(theirs.kappa, abs=1e-12)
    assert result.standard_error("large-sample") == pytest.approx(theirs.std_kappa, rel=1e-10)
    z = stats.norm.isf(result.p_value("large-sample"))
    assert float(result) / z == pytest.approx(theirs.std_kappa0, rel=1e-8)
    ci = result.confidence_interval(0.9, method="large-sample")
    zq = stats.norm.ppf(0.95)
    assert ci.low == pytest.approx(theirs.kappa - zq * theirs.std_kappa, abs=1e-12)
    assert ci.high == pytest.approx(theirs.kappa + zq * theirs.std_kappa, abs=1e-12)


# --------------------------------------------------------------------------- p-values


@pytest.mark.parametrize("method", MULTI_RATER)
def test_p_value_alternatives(method: str) -> None:
    result = getattr(incomplete(1).agree, method)()
    se = result.standard_error()
    z = float(result) / se
    t = stats.t(n_rated(incomplete(1)) - 1)
    greater = result.p_value()
    assert greater == pytest.approx(t.sf(z), rel=1e-12)
    assert result.p_value(alternative="greater") == greater
    assert result.p_value(alternative="less") == pytest.approx(1 - greater, rel=1e-12)
    two = result.p_value(alternative="two-sided")
    assert two == pytest.approx(2 * min(greater, 1 - greater), rel=1e-12)


@pytest.mark.parametrize("method", MULTI_RATER)
@pytest.mark.parametrize("level", [0.8, 0.95, 0.99])
def test_analytic_interval_is_t_over_rated_items(method: str, level: float) -> None:
    # The analytic interval: value +/- t(n - 1) SE over the n rated items, capped at 1.
    # One item of this frame has a single rating: it counts in n but not in n_items.
    wide = incomplete(4)
    assert n_rated(wide) == getattr(wide.agree, method)().n_items + 1
    result = getattr(wide.agree, method)()
    se = result.standard_error()
    t = stats.t.ppf(0.5 + level / 2, n_rated(wide) - 1)
    low, high = result.confidence_interval(level)
    assert low == pytest.approx(float(result) - t * se, abs=1e-12)
    assert high == pytest.approx(min(1.0, float(result) + t * se), abs=1e-12)


def test_p_value_is_callable_after_confidence_level() -> None:
    # `confidence_level=` adds se/low/high/p_value members to a single result; the member
    # must not hide the `p_value()` method (alternative=, method=, N=).
    wide = incomplete(3)
    plain = wide.agree.fleiss()
    with_ci = wide.agree.fleiss(confidence_level=0.95)
    assert with_ci.p_value(alternative="two-sided") == plain.p_value(alternative="two-sided")


# --------------------------------------------------------------------------- finite population


@pytest.mark.parametrize("method", MULTI_RATER)
def test_population_correction_scales_the_variance(method: str) -> None:
    # Gwet (2014): var * (1 - n / N).
    wide = incomplete(4)
    n = n_rated(wide)
    result = getattr(wide.agree, method)()
    se = result.standard_error()
    assert result.standard_error(N=4 * n) == pytest.approx(se * math.sqrt(0.75), rel=1e-12)
    assert result.standard_error(N=math.inf) == se


@pytest.mark.parametrize("method", ANALYTIC)
def test_population_equal_to_sample_gives_zero_se(method: str) -> None:
    # N = n: the whole population was rated, no sampling error.
    rng = np.random.default_rng(5)
    a = rng.integers(0, 3, size=40)
    wide = pd.DataFrame({"r1": a, "r2": np.where(rng.random(40) < 0.7, a, (a + 1) % 3)})
    result = getattr(wide.agree, method)()
    assert result.standard_error(N=40) == 0.0
    low, high = result.confidence_interval(N=40)
    assert low == pytest.approx(float(result), abs=1e-15)
    assert high == pytest.approx(float(result), abs=1e-15)
    assert result.p_value(N=40) == 0.0  # value > 0 with no sampling error


def test_perfect_agreement_interval_has_no_numpy_warning() -> None:
    # Every rater agrees on every item: A_o = 1 with zero variance; no numpy warning may
    # escape (filterwarnings = error turns one into a failure).
    wide = pd.DataFrame({"r1": list("aabbcc"), "r2": list("aabbcc"), "r3": list("aabbcc")})
    result = wide.agree.observed(confidence_level=0.95)
    assert float(result) == 1.0
    assert result.se == 0.0
    assert (result.low, result.high) == (1.0, 1.0)


def test_population_smaller_than_the_sample_is_an_error() -> None:
    # N must be at least the number of rated items n; 1 - n / N < 0 has no meaning. The
    # natural slip: N = result.n_items (items with two or more ratings), here one less than
    # n because one item has a single rating.
    wide = incomplete(4)
    result = wide.agree.fleiss()
    assert result.n_items == n_rated(wide) - 1
    with pytest.raises(ValueError, match=r"`N`"):
        result.standard_error(N=result.n_items)
    with pytest.raises(ValueError, match=r"`N`"):
        result.confidence_interval(N=10)


# --------------------------------------------------------------------------- by= groups


def grouped(seed: int) -> pd.DataFrame:
    parts = []
    for g, (n, s) in enumerate([(40, seed), (25, seed + 1), (60, seed + 2)]):
        part = incomplete(s, n_items=n)
        part["site"] = ["north", "south", "east"][g]
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


@pytest.mark.parametrize("weights", [None, "quadratic"])
@pytest.mark.parametrize("method", MULTI_RATER)
def test_by_equals_a_loop_analytic(method: str, weights: str | None) -> None:
    df = grouped(10)
    cats = [1.0, 2.0, 3.0, 4.0]
    ratings = df.agree(by="site", categories=cats)
    res = getattr(ratings, method)(weights=weights, confidence_level=0.9)
    fpc = getattr(ratings, method)(weights=weights, confidence_level=0.9, N=200)
    assert {"se", "low", "high", "p_value"} <= set(res.columns)
    for site, sub in df.groupby("site"):
        one = getattr(sub.drop(columns="site").agree(categories=cats), method)(weights=weights)
        row = res.loc[site]
        assert row["value"] == pytest.approx(float(one), abs=1e-12)
        assert row["se"] == pytest.approx(one.standard_error(), abs=1e-12)
        low, high = one.confidence_interval(0.9)
        assert row["low"] == pytest.approx(low, abs=1e-12)
        assert row["high"] == pytest.approx(high, abs=1e-12)
        assert row["p_value"] == pytest.approx(one.p_value(), rel=1e-9, abs=1e-300)
        assert fpc.loc[site, "se"] == pytest.approx(one.standard_error(N=200), abs=1e-12)
        assert fpc.loc[site, "low"] == pytest.approx(
            one.confidence_interval(0.9, N=200).low, abs=1e-12
        )


@pytest.mark.parametrize("weights", [None, "linear"])
@pytest.mark.parametrize(
    ("method", "kind"),
    [("cohen", "analytic"), ("scott", "analytic"), ("cohen", "large-sample")],
)
def test_by_equals_a_loop_two_raters(method: str, weights: str | None, kind: str) -> None:
    df = grouped(20)[["r0", "r1", "site"]]
    df = df.dropna(subset=["r0", "r1"]) if kind == "large-sample" else df
    cats = [1.0, 2.0, 3.0, 4.0]
    res = getattr(df.agree(by="site", categories=cats), method)(
        weights=weights, confidence_level=0.95, method=kind
    )
    for site, sub in df.groupby("site"):
        one = getattr(sub.drop(columns="site").agree(categories=cats), method)(weights=weights)
        row = res.loc[site]
        assert row["se"] == pytest.approx(one.standard_error(kind), abs=1e-12)
        low, high = one.confidence_interval(method=kind)
        assert row["low"] == pytest.approx(low, abs=1e-12)
        assert row["high"] == pytest.approx(high, abs=1e-12)
        assert row["p_value"] == pytest.approx(one.p_value(kind), rel=1e-9, abs=1e-300)


def test_by_on_a_counts_table_equals_a_loop() -> None:
    counts = distrib6raters()
    counts["half"] = ["a"] * 8 + ["b"] * 7
    res = counts.agree(layout="counts", by="half").fleiss(confidence_level=0.95)
    for half, sub in counts.groupby("half"):
        one = sub.drop(columns="half").agree(layout="counts").fleiss()
        assert res.loc[half, "se"] == pytest.approx(one.standard_error(), abs=1e-12)
        assert res.loc[half, "low"] == pytest.approx(one.confidence_interval().low, abs=1e-12)


# --------------------------------------------------------------------------- bootstrap


@pytest.mark.parametrize("method", [*MULTI_RATER, "light", "bias"])
def test_bootstrap_is_reproducible(method: str) -> None:
    result = getattr(incomplete(7).agree, method)()
    first = result.confidence_interval(method="bootstrap", n_resamples=200, rng=42)
    again = result.confidence_interval(method="bootstrap", n_resamples=200, rng=42)
    other = result.confidence_interval(method="bootstrap", n_resamples=200, rng=43)
    assert first == again
    assert first != other
    gen = result.standard_error("bootstrap", n_resamples=200, rng=np.random.default_rng(42))
    assert gen == result.standard_error("bootstrap", n_resamples=200, rng=42)
    assert np.isfinite(gen) and gen > 0
    assert first.low <= float(result) <= first.high


@pytest.mark.parametrize("method", ["fleiss", "light", "bias"])
def test_bootstrap_by_groups_has_columns(method: str) -> None:
    res = getattr(grouped(30).agree(by="site"), method)(
        confidence_level=0.9, method="bootstrap", n_resamples=150, rng=1
    )
    assert {"se", "low", "high", "p_value"} <= set(res.columns)
    assert list(res.index) == sorted(["north", "south", "east"])
    assert np.isfinite(res["se"]).all() and (res["se"] > 0).all()
    assert (res["low"] <= res["value"]).all() and (res["value"] <= res["high"]).all()
    # The bootstrap p-value inverts the percentile interval (issue 8, point 5).
    assert ((res["p_value"] > 0) & (res["p_value"] <= 1)).all()


def test_bootstrap_by_groups_is_reproducible() -> None:
    ratings = grouped(31).agree(by="site")
    options = {"confidence_level": 0.95, "method": "bootstrap", "n_resamples": 100}
    first = ratings.gwet(rng=5, **options)
    pd.testing.assert_frame_equal(first, ratings.gwet(rng=5, **options))
    assert not first["se"].equals(ratings.gwet(rng=6, **options)["se"])


@pytest.mark.parametrize("method", ["fleiss", "light", "bias"])
def test_bootstrap_one_group_matches_ungrouped(method: str) -> None:
    # A `by=` column with a single value resamples the same items as the ungrouped call, but
    # through pdagree's within-group resampler rather than scipy.stats.bootstrap, so the
    # draws differ: the two estimate the same standard error and the same percentiles.
    df = incomplete(32, n_items=300)
    options = {"confidence_level": 0.9, "method": "bootstrap", "n_resamples": 3000, "rng": 3}
    plain = getattr(df.agree, method)(**options)
    grouped_res = getattr(df.assign(g="all").agree(by="g"), method)(**options)
    assert grouped_res.loc["all", "value"] == pytest.approx(float(plain), abs=1e-14)
    assert grouped_res.loc["all", "se"] == pytest.approx(plain.se, rel=0.08)
    width = plain.high - plain.low
    assert grouped_res.loc["all", "low"] == pytest.approx(plain.low, abs=0.1 * width)
    assert grouped_res.loc["all", "high"] == pytest.approx(plain.high, abs=0.1 * width)


def test_bootstrap_single_resample() -> None:
    result = incomplete(8).agree.fleiss()
    announced = r"the bootstrap standard error of `fleiss` is undefined: one resample has no"
    with pytest.warns(pdagree.UndefinedStatisticWarning, match=announced):
        assert math.isnan(result.standard_error("bootstrap", n_resamples=1, rng=0))
    with pytest.warns(pdagree.UndefinedStatisticWarning, match=announced):
        low, high = result.confidence_interval(method="bootstrap", n_resamples=1, rng=0)
    assert math.isnan(low) and math.isnan(high)


@pytest.mark.parametrize("method", ["observed", "bennett", "fleiss", "conger", "gwet"])
def test_bootstrap_se_close_to_analytic(method: str) -> None:
    # Large sample: the item bootstrap and Gwet's linearised SE estimate the same thing.
    wide = incomplete(9, n_items=1500, n_raters=3)
    result = getattr(wide.agree, method)()
    analytic = result.standard_error()
    boot = result.standard_error("bootstrap", n_resamples=400, rng=9)
    assert boot == pytest.approx(analytic, rel=0.15)


def test_bootstrap_two_raters_close_to_analytic() -> None:
    wide = incomplete(12, n_items=1500, n_raters=2).dropna()
    for method in ("cohen", "scott"):
        result = getattr(wide.agree, method)(weights="quadratic")
        boot = result.standard_error("bootstrap", n_resamples=400, rng=12)
        assert boot == pytest.approx(result.standard_error(), rel=0.15)
    cohen = wide.agree.cohen(weights="quadratic")
    boot = cohen.standard_error("bootstrap", n_resamples=400, rng=13)
    assert boot == pytest.approx(cohen.standard_error("large-sample"), rel=0.15)


# --------------------------------------------------------------------------- errors


@pytest.fixture
def wide() -> pd.DataFrame:
    return incomplete(13)


@pytest.mark.parametrize("level", [0, 1, 1.5, -0.1])
def test_confidence_level_outside_unit_interval(wide: pd.DataFrame, level: float) -> None:
    match = r"`confidence_level` must be a number strictly between 0 and 1, e\.g\. 0\.95; got "
    with pytest.raises(ValueError, match=match):
        wide.agree.fleiss().confidence_interval(level)
    with pytest.raises(ValueError, match=match):
        wide.agree.fleiss(confidence_level=level)


def test_n_resamples_below_one(wide: pd.DataFrame) -> None:
    match = r"`n_resamples` must be an integer from 1 to 1,000,000; got 0\."
    with pytest.raises(ValueError, match=match):
        wide.agree.fleiss().confidence_interval(method="bootstrap", n_resamples=0)
    with pytest.raises(ValueError, match=match):
        wide.agree.fleiss(confidence_level=0.95, method="bootstrap", n_resamples=0)
    with pytest.raises(
        TypeError, match=r"`n_resamples` must be an integer from 1 to 1,000,000; got 2\.5\."
    ):
        wide.agree.fleiss().standard_error("bootstrap", n_resamples=2.5)


def test_unknown_method(wide: pd.DataFrame) -> None:
    match = (
        r"`method` must be one of 'auto', 'analytic', 'large-sample', 'jackknife', "
        r"'bootstrap'; got 'delta'"
    )
    with pytest.raises(ValueError, match=match):
        wide.agree.fleiss().standard_error("delta")
    with pytest.raises(ValueError, match=match):
        wide.agree.fleiss(confidence_level=0.95, method="delta")
    # The jackknife is for the coefficients without a linearised variance.
    match = r"method='jackknife' is the jackknife over items of Light's kappa .* `fleiss` has"
    with pytest.raises(ValueError, match=match):
        wide.agree.fleiss().standard_error("jackknife")


@pytest.mark.parametrize("method", ["observed", "bennett", "fleiss", "conger", "gwet"])
def test_large_sample_is_for_cohen_only(wide: pd.DataFrame, method: str) -> None:
    match = (
        rf"method='large-sample' is the asymptotic variance of two-rater Cohen's kappa; `{method}`"
    )
    with pytest.raises(ValueError, match=match):
        getattr(wide.agree, method)().standard_error("large-sample")
    with pytest.raises(ValueError, match=match):
        getattr(wide.agree, method)(weights="linear", confidence_level=0.95, method="large-sample")
    pair = wide[["r0", "r1"]]
    with pytest.raises(ValueError, match=r"method='large-sample'.*`scott`"):
        pair.agree.scott().confidence_interval(method="large-sample")


@pytest.mark.parametrize("method", ["light", "bias"])
def test_no_analytic_variance_for_light_and_bias(wide: pd.DataFrame, method: str) -> None:
    match = (
        rf"no analytic variance is available for `{method}`; use method='jackknife' or "
        "'bootstrap'"
    )
    with pytest.raises(ValueError, match=match):
        getattr(wide.agree, method)().standard_error("analytic")
    with pytest.raises(ValueError, match=match):
        getattr(wide.agree, method)(confidence_level=0.95, method="analytic")


def test_unknown_alternative(wide: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match=r"`alternative` must be one of 'greater'.*got 'above'"):
        wide.agree.fleiss().p_value(alternative="above")


def test_population_not_positive(wide: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match=r"`N` \(the population size.*must be positive; got 0"):
        wide.agree.fleiss().standard_error(N=0)


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"method": "delta"}, r"`method` must be one of"),
        ({"method": "jackknife"}, r"method='jackknife' is the jackknife over items"),
        ({"method": "bootstrap", "n_resamples": 0}, r"`n_resamples` must be an integer from 1 to"),
        ({"N": -5}, r"`N`.*must be positive"),
        ({"method": "large-sample"}, r"method='large-sample'"),
    ],
)
def test_inference_options_are_validated_without_confidence_level(
    wide: pd.DataFrame, options: dict[str, Any], match: str
) -> None:
    # Validation happens once, at the public boundary (docs/architecture.md): a bad option
    # is an error even when `confidence_level` is not given, never silently ignored.
    with pytest.raises(ValueError, match=match):
        wide.agree.fleiss(**options)


# --------------------------------------------------------------------------- coverage


# A fixed joint distribution of two raters over three categories: rows = rater 1,
# columns = rater 2. Population Cohen's kappa = (sum_k P_kk - sum_k P_k. P_.k) / (1 - ...).
JOINT = np.array(
    [
        [0.30, 0.05, 0.02],
        [0.04, 0.25, 0.04],
        [0.01, 0.05, 0.24],
    ]
)


def _population_kappa() -> float:
    po = float(np.trace(JOINT))
    pe = float(JOINT.sum(axis=1) @ JOINT.sum(axis=0))
    return (po - pe) / (1 - pe)


def _simulate(n_sims: int, n_items: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    cells = rng.choice(JOINT.size, size=n_sims * n_items, p=JOINT.ravel())
    return pd.DataFrame(
        {"sim": np.repeat(np.arange(n_sims), n_items), "r1": cells // 3, "r2": cells % 3}
    )


def test_population_kappa_of_the_model() -> None:
    # trace 0.79; margins (0.37, 0.33, 0.30) and (0.35, 0.35, 0.30): pe = 0.335.
    assert _population_kappa() == pytest.approx((0.79 - 0.335) / (1 - 0.335), abs=1e-12)


@pytest.mark.slow
def test_coverage_of_the_intervals() -> None:
    # Each simulated data set is a `by=` group, so every interval comes from one call.
    truth = _population_kappa()
    analytic = _simulate(400, 100, seed=2024).agree(by="sim", categories=[0, 1, 2])
    for kind in ("analytic", "large-sample"):
        res = analytic.cohen(confidence_level=0.95, method=kind)
        covered = ((res["low"] <= truth) & (truth <= res["high"])).mean()
        assert 0.90 <= covered <= 0.98, (kind, covered)
    boot = _simulate(200, 100, seed=2025).agree(by="sim", categories=[0, 1, 2])
    res = boot.cohen(confidence_level=0.95, method="bootstrap", n_resamples=300, rng=7)
    covered = ((res["low"] <= truth) & (truth <= res["high"])).mean()
    assert 0.90 <= covered <= 0.98, ("bootstrap", covered)


# --------------------------------------------------------------------------- bootstrap kinds


FLEISS_1971 = pdagree.datasets.load("fleiss1971")


def test_ungrouped_bootstrap_is_scipy_bootstrap_of_the_coefficient() -> None:
    # The batched statistic gives what a plain per-resample recomputation gives, through
    # the same scipy.stats.bootstrap call (same rng, same resamples).
    from scipy import stats

    result = FLEISS_1971.agree.fleiss()
    rows = FLEISS_1971.reset_index(drop=True)

    def naive(sample: np.ndarray, axis: int = -1) -> np.ndarray:
        picks = np.moveaxis(np.asarray(sample), axis, -1).astype(int)
        flat = picks.reshape(-1, picks.shape[-1])
        values = [float(rows.iloc[p].reset_index(drop=True).agree.fleiss()) for p in flat]
        return np.asarray(values).reshape(picks.shape[:-1])

    for kind in ("percentile", "basic", "BCa"):
        expected = stats.bootstrap(
            (np.arange(len(rows), dtype=float),),
            naive,
            vectorized=True,
            n_resamples=60,
            confidence_level=0.9,
            method=kind,
            rng=np.random.default_rng(7),
        )
        low, high = result.confidence_interval(
            0.9, method="bootstrap", n_resamples=60, rng=7, interval=kind
        )
        assert low == pytest.approx(expected.confidence_interval.low, rel=1e-12)
        assert high == pytest.approx(expected.confidence_interval.high, rel=1e-12)


def test_basic_interval_reflects_the_percentile_interval_with_by() -> None:
    frame = FLEISS_1971.assign(half=np.arange(30) // 15)
    options = {"confidence_level": 0.9, "method": "bootstrap", "n_resamples": 300, "rng": 3}
    pct = frame.agree(by="half").fleiss(**options)
    basic = frame.agree(by="half").fleiss(**options, interval="basic")
    np.testing.assert_allclose(basic["low"], 2 * pct["value"] - pct["high"], rtol=1e-12)
    np.testing.assert_allclose(basic["high"], 2 * pct["value"] - pct["low"], rtol=1e-12)


def test_bca_with_by_is_an_error() -> None:
    frame = FLEISS_1971.assign(half=np.arange(30) // 15)
    message = (
        "`interval='BCa'` needs a jackknife per group and is available without `by=` only; "
        "use interval='percentile' or 'basic' with `by=`."
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        frame.agree(by="half").fleiss(confidence_level=0.95, method="bootstrap", interval="BCa")


def test_unknown_interval_is_an_error() -> None:
    message = "`interval` must be one of 'percentile', 'basic', 'BCa'; got 'bca'."
    with pytest.raises(ValueError, match=re.escape(message)):
        FLEISS_1971.agree.fleiss().confidence_interval(method="bootstrap", interval="bca")
    with pytest.raises(ValueError, match=re.escape(message)):
        FLEISS_1971.agree.fleiss(interval="bca")


def test_large_sample_ignores_raters_without_ratings() -> None:
    # An empty rater column does not count as a rater: the large-sample interval is the one
    # of the two raters who rated.
    pair = pd.DataFrame({"a": [1, 2, 3, 1, 2, 3], "b": [1, 2, 3, 1, 3, 3]})
    padded = pair.assign(e=None)[["e", "a", "b"]]
    expected = pair.agree.cohen().confidence_interval(method="large-sample")
    got = padded.agree.cohen().confidence_interval(method="large-sample")
    assert got == pytest.approx(expected, rel=1e-12)
