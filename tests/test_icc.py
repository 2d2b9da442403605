"""Intraclass correlations and Kendall's W: published values, pingouin, the formulas'
properties, by= against a loop, and bad input."""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import pdagree
from pdagree import UndefinedStatisticWarning
from pdagree.icc import FORMS

# Shrout & Fleiss (1979), Table 2: 6 targets rated by 4 judges.
SHROUT_FLEISS = pd.DataFrame(
    [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]],
    columns=["j1", "j2", "j3", "j4"],
)


def test_shrout_and_fleiss_published_values() -> None:
    # Shrout & Fleiss (1979), Table 4: ICC(1,1) .17, ICC(2,1) .29, ICC(3,1) .71,
    # ICC(1,4) .44, ICC(2,4) .62, ICC(3,4) .91; the F tests 1.8 (5, 18) and 11.0 (5, 15).
    table = SHROUT_FLEISS.agree.icc_table()
    assert table.index.tolist() == list(FORMS)
    assert table["value"].round(2).tolist() == [0.17, 0.29, 0.71, 0.44, 0.62, 0.91]
    assert table["shrout_fleiss"].tolist() == ["ICC1", "ICC2", "ICC3", "ICC1k", "ICC2k", "ICC3k"]
    assert table.loc["1,1", "F"].round(1) == 1.8 and table.loc["1,1", "df2"] == 18
    assert table.loc["C,1", "F"].round(1) == 11.0 and table.loc["C,1", "df2"] == 15
    assert table.loc[["1,1", "1,k"], "df1"].tolist() == [5, 5]
    for alias, form in (("ICC2", "A,1"), ("ICC3k", "C,k"), ("ICC(A,1)", "A,1")):
        assert float(SHROUT_FLEISS.agree.icc(alias)) == pytest.approx(table.loc[form, "value"])


def wine() -> pd.DataFrame:
    # pingouin's documented example (pingouin.intraclass_corr, its bundled `icc` data set):
    # 8 wines (rows) x judges A, B, C, D.
    scores = [
        [1, 2, 0, 1], [1, 3, 3, 2], [3, 8, 1, 4], [6, 4, 3, 3],
        [6, 5, 5, 6], [7, 5, 6, 2], [8, 7, 7, 9], [9, 9, 9, 8],
    ]  # fmt: skip
    return pd.DataFrame(
        [(w + 1, j, s) for w, row in enumerate(scores) for j, s in zip("ABCD", row, strict=True)],
        columns=["Wine", "Judge", "Scores"],
    )


def test_pingouin_s_documented_wine_example() -> None:
    # pingouin 0.7 docs: ICC 0.727521 0.727689 0.729487 0.914384 0.914450 0.915159,
    # F 11.680026 / 11.786693, df2 24 / 21, CI95 [0.43, 0.93] x3, [0.75, 0.98] x3.
    table = wine().agree(item="Wine", rater="Judge", label="Scores").icc_table()
    np.testing.assert_allclose(
        table["value"], [0.727521, 0.727689, 0.729487, 0.914384, 0.914450, 0.915159], atol=5e-7
    )
    np.testing.assert_allclose(table["F"], [11.680026, 11.786693, 11.786693] * 2, atol=5e-7)
    assert table["df2"].tolist() == [24, 21, 21, 24, 21, 21]
    assert table["low"].round(2).tolist() == [0.43, 0.43, 0.43, 0.75, 0.75, 0.75]
    assert table["high"].round(2).tolist() == [0.93, 0.93, 0.93, 0.98, 0.98, 0.98]


@pytest.mark.parametrize("seed", range(5))
def test_equal_to_pingouin_on_random_complete_designs(seed: int) -> None:
    pg = pytest.importorskip("pingouin")
    rng = np.random.default_rng(seed)
    n, k = rng.integers(5, 40), rng.integers(2, 7)
    target = rng.normal(0, 2, n)[:, None]
    bias = rng.normal(0, 1, k)[None, :]
    wide = np.round(target + bias + rng.normal(0, 1, (n, k)), 1)
    long = pd.DataFrame(
        {"t": np.repeat(np.arange(n), k), "r": np.tile(np.arange(k), n), "x": wide.ravel()}
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = pg.intraclass_corr(long, targets="t", raters="r", ratings="x")
    ours = long.agree(item="t", rater="r", label="x").icc_table()
    np.testing.assert_allclose(ours["value"], theirs["ICC"], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(ours["F"], theirs["F"], rtol=1e-10)
    np.testing.assert_allclose(ours["df2"], theirs["df2"], rtol=1e-12)
    np.testing.assert_allclose(ours["p_value"], theirs["pval"], rtol=1e-8, atol=1e-300)
    # pingouin rounds its intervals to two decimals.
    ci = np.array(theirs["CI95"].tolist())
    np.testing.assert_allclose(ours[["low", "high"]].to_numpy(), ci, atol=0.005 + 1e-12)
    # The same layout as a wide frame.
    wide_frame = pd.DataFrame(wide)
    np.testing.assert_allclose(wide_frame.agree.icc_table()["value"], ours["value"], rtol=1e-12)


def irr_test(ms: dict, form: str, r0: float) -> tuple[float, float, float]:
    """McGraw & Wong's (1996, Tables 7 and 8) tests as R irr 0.84.1 computes them
    (R/icc.R), written here from the mean squares: (F, df1, df2)."""
    n, k = ms["n_items"], ms["n_raters"]
    msr, msc, mse, msw = ms["ms_rows"], ms["ms_columns"], ms["ms_error"], ms["ms_within"]
    if form == "1,1":
        return msr / msw * (1 - r0) / (1 + (k - 1) * r0), n - 1, n * (k - 1)
    if form == "1,k":
        return msr / msw * (1 - r0), n - 1, n * (k - 1)
    if form == "C,1":
        return msr / mse * (1 - r0) / (1 + (k - 1) * r0), n - 1, (n - 1) * (k - 1)
    if form == "C,k":
        return msr / mse * (1 - r0), n - 1, (n - 1) * (k - 1)
    if form == "A,1":
        coeff = (msr - mse) / (msr + (k - 1) * mse + k / n * (msc - mse))
        a, b = k * r0 / (n * (1 - r0)), 1 + k * r0 * (n - 1) / (n * (1 - r0))
    else:
        coeff = (msr - mse) / (msr + (msc - mse) / n)
        a, b = r0 / (n * (1 - r0)), 1 + r0 * (n - 1) / (n * (1 - r0))
    f = msr / (a * msc + b * mse)
    a, b = k * coeff / (n * (1 - coeff)), 1 + k * coeff * (n - 1) / (n * (1 - coeff))
    v = (a * msc + b * mse) ** 2 / (
        (a * msc) ** 2 / (k - 1) + (b * mse) ** 2 / ((n - 1) * (k - 1))
    )
    return f, n - 1, v


@pytest.mark.parametrize("rho0", [0.0, 0.3, 0.6])
def test_mcgraw_wong_tests_equal_irr_s(rho0: float) -> None:
    for frame in (SHROUT_FLEISS, wine().pivot(index="Wine", columns="Judge", values="Scores")):
        table = frame.agree.icc_table(test="mcgraw_wong", rho0=rho0)
        ms = table.attrs["mean_squares"]
        for form in FORMS:
            f, df1, df2 = irr_test(ms, form, rho0)
            row = table.loc[form]
            assert row["F"] == pytest.approx(f, rel=1e-12), form
            assert (row["df1"], row["df2"]) == pytest.approx((df1, df2), rel=1e-12), form
            assert row["p_value"] == pytest.approx(stats.f.sf(f, df1, df2), rel=1e-9)
    single = SHROUT_FLEISS.agree.icc("A,1")
    f, df1, df2 = irr_test(SHROUT_FLEISS.agree.icc_table().attrs["mean_squares"], "A,1", 0.2)
    assert single.p_value(rho0=0.2) == pytest.approx(stats.f.sf(f, df1, df2), rel=1e-9)


def test_mcgraw_wong_tests_at_the_estimate_give_f_equal_to_one() -> None:
    """Testing ICC = rho0 at rho0 = the estimate gives F = 1 for every form (McGraw & Wong's
    statistics follow from the forms' definitions), and at rho0 = 0 the statistic is Shrout
    & Fleiss's."""
    ratings = SHROUT_FLEISS.agree()
    plain = ratings.icc_table()
    zero = ratings.icc_table(test="mcgraw_wong")
    np.testing.assert_allclose(zero["F"], plain["F"], rtol=1e-12)
    for form in FORMS:
        rho = float(plain.loc[form, "value"])
        if rho > 0:
            at = ratings.icc_table(test="mcgraw_wong", rho0=rho).loc[form]
            assert at["F"] == pytest.approx(1.0, rel=1e-12), form


def test_by_groups_equal_a_loop_and_omit_equals_dropping_incomplete_items() -> None:
    rng = np.random.default_rng(3)
    frame = pd.DataFrame(rng.integers(1, 8, (60, 4)), columns=list("abcd")).astype(float)
    frame["g"] = np.repeat(["x", "y", "z"], 20)
    grouped = frame.agree(by="g").icc_table()
    for g in "xyz":
        alone = frame[frame["g"] == g].drop(columns="g").agree.icc_table()
        np.testing.assert_allclose(
            grouped.loc[g][["value", "F", "low", "high"]].to_numpy(),
            alone[["value", "F", "low", "high"]].to_numpy(),
            rtol=1e-12,
        )
    one = frame.agree(by="g").icc("C,k", confidence_level=0.9)
    assert one.index.tolist() == ["x", "y", "z"] and {"low", "high", "F"} <= set(one.columns)
    gaps = frame.drop(columns="g").copy()
    gaps.iloc[[3, 10], [1, 2]] = np.nan
    with pytest.warns(pdagree.PdagreeWarning, match="dropped 2 items"):
        omitted = gaps.agree.icc(missing="omit")
    assert omitted.missing == "omit" and omitted.n_dropped == 2 and omitted.n_items == 58
    assert float(omitted) == pytest.approx(float(gaps.dropna().agree.icc()), rel=1e-12)
    # missing="auto": the incomplete layout's own estimate (REML), every item kept.
    auto = gaps.agree.icc()
    assert auto.missing == "incomplete" and auto.n_items == 60 and auto != float(omitted)
    with pytest.warns(UndefinedStatisticWarning, match="no interval"):
        assert np.isnan(auto.confidence_interval().low)


def incomplete_design(seed: int, n: int = 40, k: int = 5) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.normal(0, 1.5, n)[:, None] + rng.normal(0, 0.8, k)[None, :]
    y = y + rng.normal(0, 1.0, (n, k)) + 3.0
    present = rng.random((n, k)) < 0.75
    present[:, 0] |= ~present.any(axis=1)  # every item has a rating
    item, rater = np.nonzero(present)
    return pd.DataFrame({"item": item, "rater": rater, "y": np.round(y[present], 3)})


@pytest.mark.parametrize("seed", range(3))
def test_incomplete_layouts_reml_equals_statsmodels_mixedlm(seed: int) -> None:
    sm = pytest.importorskip("statsmodels.api")
    long = incomplete_design(seed)
    model = sm.MixedLM.from_formula(
        "y ~ 1",
        groups=np.ones(len(long)),
        vc_formula={"item": "0 + C(item)", "rater": "0 + C(rater)"},
        data=long,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fit = model.fit(reml=True, method="bfgs", maxiter=20000, gtol=1e-12)
    s_item, s_rater = fit.vcomp  # the formula's keys in sorted order: item, rater
    s_e = fit.scale
    ratings = long.agree(item="item", rater="rater", label="y")
    k_bar = len(long) / long["item"].nunique()
    want = {
        "A,1": s_item / (s_item + s_rater + s_e),
        "C,1": s_item / (s_item + s_e),
        "A,k": s_item / (s_item + (s_rater + s_e) / k_bar),
        "C,k": s_item / (s_item + s_e / k_bar),
    }
    table = ratings.icc_table()
    for form, value in want.items():
        assert table.loc[form, "value"] == pytest.approx(value, rel=1e-6), form
        assert np.isnan(table.loc[form, "F"])
    assert table.attrs["missing"] == "incomplete"


def test_reml_on_a_complete_layout_is_the_anova_estimate() -> None:
    from pdagree.icc._reml import reml

    rng = np.random.default_rng(5)
    n, k = 30, 4
    wide = rng.normal(0, 2, (n, 1)) + rng.normal(0, 1, (1, k)) + rng.normal(0, 1, (n, k))
    targets, raters, residual = reml(
        wide.ravel(), np.repeat(np.arange(n), k), np.tile(np.arange(k), n), n, k
    )
    table = pd.DataFrame(wide).agree.icc_table().attrs["mean_squares"]
    msr, msc, mse = table["ms_rows"], table["ms_columns"], table["ms_error"]
    assert targets == pytest.approx((msr - mse) / k, rel=1e-7)
    assert raters == pytest.approx((msc - mse) / n, rel=1e-7)
    assert residual == pytest.approx(mse, rel=1e-7)


def test_one_way_forms_on_an_unbalanced_layout_use_n0() -> None:
    long = incomplete_design(7)
    table = long.agree(item="item", rater="rater", label="y").icc_table()
    sizes = long.groupby("item")["y"].size()
    means = long.groupby("item")["y"].transform("mean")
    big_n, n = len(long), len(sizes)
    msb = (sizes * (long.groupby("item")["y"].mean() - long["y"].mean()) ** 2).sum() / (n - 1)
    msw = ((long["y"] - means) ** 2).sum() / (big_n - n)
    n0 = (big_n - (sizes**2).sum() / big_n) / (n - 1)
    assert table.loc["1,1", "value"] == pytest.approx((msb - msw) / (msb + (n0 - 1) * msw))
    assert table.loc["1,k", "value"] == pytest.approx((msb - msw) / msb)
    assert table.loc["1,1", "F"] == pytest.approx(msb / msw)
    assert table.loc["1,1", "df2"] == big_n - n


def test_by_groups_with_an_incomplete_group_equal_a_loop() -> None:
    long = pd.concat(
        [incomplete_design(1).assign(g="a"), incomplete_design(2).assign(g="b")],
        ignore_index=True,
    )
    full = pd.DataFrame(
        {"item": np.repeat(np.arange(20), 3), "rater": np.tile(np.arange(3), 20)}
    ).assign(y=np.random.default_rng(0).normal(size=60), g="c")
    long = pd.concat([long, full], ignore_index=True)
    grouped = long.agree(item="item", rater="rater", label="y", by="g").icc_table()
    for g in "abc":
        alone = long[long["g"] == g].agree(item="item", rater="rater", label="y").icc_table()
        np.testing.assert_allclose(
            grouped.loc[g]["value"].to_numpy(), alone["value"].to_numpy(), rtol=1e-9
        )
    assert grouped.attrs["mean_squares"]["missing"].tolist() == [
        "incomplete",
        "incomplete",
        "complete",
    ]


def test_numbers_as_text_and_ordered_categoricals_use_their_values() -> None:
    text = SHROUT_FLEISS.astype(str)
    assert float(text.agree.icc()) == pytest.approx(float(SHROUT_FLEISS.agree.icc()))
    scale = list(range(1, 11))
    cats = SHROUT_FLEISS.apply(lambda c: pd.Categorical(c, categories=scale, ordered=True))
    assert float(cats.agree.icc("C,1")) == pytest.approx(float(SHROUT_FLEISS.agree.icc("C,1")))
    words = pd.DataFrame({"a": ["low", "high", "mid"], "b": ["low", "mid", "mid"]})
    with pytest.raises(ValueError, match="needs numeric ratings"):
        words.agree.icc()


def test_undefined_and_bad_input() -> None:
    constant = pd.DataFrame({"a": [3.0, 3.0, 3.0], "b": [3.0, 3.0, 3.0]})
    with pytest.warns(UndefinedStatisticWarning, match="undefined"):
        assert np.isnan(float(constant.agree.icc()))
    one_item = pd.DataFrame({"a": [1.0], "b": [2.0]})
    with pytest.warns(UndefinedStatisticWarning):
        one_item.agree.icc()
    with pytest.raises(ValueError, match="`form` must be one of"):
        SHROUT_FLEISS.agree.icc("ICC4")
    with pytest.raises(ValueError, match="`missing` must be"):
        SHROUT_FLEISS.agree.icc(missing="drop")
    with pytest.raises(ValueError, match="`test` must be"):
        SHROUT_FLEISS.agree.icc_table(test="z")
    with pytest.raises(ValueError, match="`rho0` must be"):
        SHROUT_FLEISS.agree.icc_table(test="mcgraw_wong", rho0=1.0)
    result = SHROUT_FLEISS.agree.icc()
    # An ICC has no standard error or z test (#27): the methods are absent, not refusals.
    assert not hasattr(result, "standard_error")
    assert not hasattr(result, "z_test")
    with pytest.raises(ValueError, match="F distribution"):
        result.confidence_interval(method="bootstrap")
    before = SHROUT_FLEISS.copy()
    SHROUT_FLEISS.agree.icc_table()
    pd.testing.assert_frame_equal(SHROUT_FLEISS, before)


# --------------------------------------------------------------------------- Kendall's W


def kendall_direct(wide: np.ndarray, correct: bool) -> tuple[float, float]:
    """W from its definition (Kendall & Babington Smith 1939), ranks by scipy."""
    n, m = wide.shape
    ranks = np.column_stack([stats.rankdata(wide[:, j]) for j in range(m)])
    s = ((ranks.sum(axis=1) - m * (n + 1) / 2) ** 2).sum()
    t = 0.0
    if correct:
        for j in range(m):
            _, counts = np.unique(wide[:, j], return_counts=True)
            t += (counts**3 - counts).sum()
    w = 12 * s / (m**2 * (n**3 - n) - m * t)
    return w, m * (n - 1) * w


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("correct", [True, False])
def test_kendall_w_equals_its_definition_with_ties(seed: int, correct: bool) -> None:
    rng = np.random.default_rng(seed)
    n, m = rng.integers(3, 30), rng.integers(2, 8)
    wide = rng.integers(1, 6, (n, m)).astype(float)  # many ties
    w = pd.DataFrame(wide).agree.kendall_w(correct_ties=correct)
    want, chi2 = kendall_direct(wide, correct)
    assert float(w) == pytest.approx(want, rel=1e-12)
    assert w.chi2 == pytest.approx(chi2, rel=1e-12) and w.df == n - 1
    assert w.p_value() == pytest.approx(stats.chi2.sf(chi2, n - 1), rel=1e-12)


def test_kendall_w_perfect_and_by_groups() -> None:
    same = pd.DataFrame({"a": [1, 2, 3, 4], "b": [10, 20, 30, 40], "c": [1.5, 2, 7, 9]})
    assert float(same.agree.kendall_w()) == pytest.approx(1.0)
    frame = same.assign(g=["x", "x", "y", "y"])
    frame = pd.concat([frame, frame.assign(g=frame["g"] + "2")], ignore_index=True)
    grouped = frame.agree(by="g").kendall_w()
    assert set(grouped.columns) >= {"value", "chi2", "df", "p_value"}
    with pytest.raises(TypeError, match="correct_ties"):
        same.agree.kendall_w(correct_ties="yes")


def test_the_command_line_prints_the_icc_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pdagree.cli import main

    path = tmp_path / "scores.csv"
    SHROUT_FLEISS.to_csv(path, index=False)
    assert main(["report", str(path), "--no-index", "--icc", "--format", "csv"]) == 0
    out = pd.read_csv(io.StringIO(capsys.readouterr().out), index_col="form")
    want = SHROUT_FLEISS.agree.icc_table()
    np.testing.assert_allclose(out["value"], want["value"], rtol=1e-12)
    assert out["shrout_fleiss"].tolist() == want["shrout_fleiss"].tolist()
    assert main(["report", str(path), "--no-index", "--icc", "--coefficients", "fleiss"]) == 2
    assert "takes no --coefficients" in capsys.readouterr().err


def test_report_can_be_asked_for_icc_rows() -> None:
    table = SHROUT_FLEISS.agree.report(
        confidence_level=0.95, coefficients=["icc", "icc[ICC3k]", "fleiss"]
    )
    assert table.index.tolist() == ["icc[A,1]", "icc[C,k]", "fleiss"]
    full = SHROUT_FLEISS.agree.icc_table()
    assert table.loc["icc[A,1]", "value"] == pytest.approx(full.loc["A,1", "value"])
    assert table.loc["icc[C,k]", "low"] == pytest.approx(full.loc["C,k", "low"])
    assert table.loc["icc[A,1]", "p_value"] == pytest.approx(full.loc["A,1", "p_value"])
    assert table.loc["icc[A,1]", "ci_method"] == "F" and np.isnan(table.loc["icc[A,1]", "se"])
    grouped = pd.concat([SHROUT_FLEISS.assign(g="a"), (SHROUT_FLEISS * 2).assign(g="b")])
    by = grouped.agree(by="g").report(coefficients="icc,alpha")
    assert by.loc[("b", "icc[A,1]"), "value"] == pytest.approx(full.loc["A,1", "value"])
    with pytest.raises(ValueError, match="`form` must be one of"):
        SHROUT_FLEISS.agree.report(coefficients=["icc[B,1]"])
    with pytest.raises(ValueError, match="or 'icc'"):
        SHROUT_FLEISS.agree.report(coefficients=["intraclass"])


def test_a_flat_or_tiny_incomplete_group_is_nan_and_leaves_the_others_alone() -> None:
    good = incomplete_design(1).assign(g="good")
    flat = incomplete_design(2).assign(y=3.0, g="flat")
    flat = flat.iloc[1:]  # incomplete
    tiny = pd.DataFrame({"item": [0, 0], "rater": [0, 1], "y": [1.0, 2.0], "g": "tiny"})
    frame = pd.concat([good, flat, tiny], ignore_index=True)
    with pytest.warns(UndefinedStatisticWarning):
        table = frame.agree(item="item", rater="rater", label="y", by="g").icc_table()
    assert table.loc["flat"]["value"].isna().all() and table.loc["tiny"]["value"].isna().all()
    alone = good.agree(item="item", rater="rater", label="y").icc_table()
    np.testing.assert_allclose(table.loc["good"]["value"], alone["value"], rtol=1e-9)


# Numerical edges (#26): constant items, offsets and scales, unidentified designs, infinite
# ratings, perfect agreement, groups with raters of their own.

COLUMNS = ["value", "F", "df1", "df2", "p_value", "low", "high"]


def _long(wide: pd.DataFrame) -> pd.DataFrame:
    out = wide.rename_axis("item").reset_index().melt("item", var_name="rater", value_name="y")
    return out.dropna(subset=["y"])


def _table(long: pd.DataFrame, by: str | None = None) -> pd.DataFrame:
    return long.agree(item="item", rater="rater", label="y", by=by).icc_table()


def eighths(seed: int) -> pd.DataFrame:
    """An incomplete design whose ratings are multiples of 1/8 (exact after an offset of
    1e15, whose ulp is 1/8)."""
    out = incomplete_design(seed, n=25, k=4)
    return out.assign(y=np.round(out["y"] * 8) / 8)


@pytest.mark.parametrize("kind", ["float", "int", "by"])
def test_items_that_do_not_vary_are_nan_not_one(kind: str) -> None:
    wide = pd.DataFrame([[6, 4, 8, 9, 1]] * 2)
    if kind == "float":
        wide = wide + 0.1  # the item means are not exact: MSR is 1e-31, not 0
    with pytest.warns(UndefinedStatisticWarning, match="undefined"):
        if kind == "by":
            frame = pd.concat(
                [_long(wide + 0.1).assign(g="flat"), _long(SHROUT_FLEISS).assign(g="sf")]
            )
            table = _table(frame, "g").loc["flat"]
        else:
            table = wide.agree.icc_table()
    # MS_rows is 0: the forms that divide by it, and the two-way F tests (MSR / MSE = 0/0),
    # are undefined; the one-way single form is its floor -1 / (k - 1), the agreement ones 0.
    for form in ("C,1", "C,k", "1,k"):
        assert np.isnan(table.loc[form, "value"]), form
        assert np.isnan(table.loc[form, ["low", "high"]].astype(float)).all(), form
    assert table.loc["1,1", "value"] == pytest.approx(-0.25, abs=1e-12)
    assert table.loc["A,1", "value"] == 0.0 and table.loc["A,k", "value"] == 0.0
    assert np.isnan(table.loc["C,1", "F"]) and table.loc["1,1", "F"] == 0.0
    assert (table["value"].dropna().abs() <= 1).all()


def test_a_tiny_residual_against_a_large_total_is_kept() -> None:
    # A residual 1e-6 of the spread is real, far above rounding: C,1 is below 1.
    wide = pd.DataFrame({"a": [1.0, 2.0, 3.0, 5.0], "b": [1.0, 2.0, 3.0, 5.0]}) * 1e3
    wide.iloc[0, 0] += 1e-3
    table = wide.agree.icc_table()
    assert 0.999 < table.loc["C,1", "value"] < 1.0
    assert np.isfinite(table["F"]).all()


def _variants(frame: pd.DataFrame, column: str) -> list[pd.DataFrame]:
    out = []
    for offset in (1e15, 1.7e12, -1e15):
        out.append(frame.assign(**{column: frame[column] + offset}))
    for scale in (1e154, 1e-160, 1e-200, 2.0**-1000, -3.0):
        out.append(frame.assign(**{column: frame[column] * scale}))
    # Tiny and offset at once, still exact: multiples of 2**-693 beside 2**-650.
    out.append(frame.assign(**{column: frame[column] * 2.0**-690 + 2.0**-650}))
    return out


@pytest.mark.parametrize("design", ["complete", "incomplete", "by"])
def test_offsets_and_scales_change_nothing(design: str) -> None:
    if design == "complete":
        frame, by = _long(SHROUT_FLEISS), None
    elif design == "incomplete":
        frame, by = eighths(0), None
    else:
        frame = pd.concat(
            [
                _long(SHROUT_FLEISS).assign(g="sf"),
                eighths(1).assign(g="gaps"),
                _long(pd.DataFrame([[1.0, 2.0, 3.0], [4.0, 4.0, 6.0], [2.0, 5.0, 5.0]])).assign(
                    g="small"
                ),
            ],
            ignore_index=True,
        )
        by = "g"
    base = _table(frame, by)
    for variant in _variants(frame, "y"):
        got = _table(variant, by)
        np.testing.assert_allclose(
            got[COLUMNS].to_numpy(float), base[COLUMNS].to_numpy(float), rtol=1e-9, atol=1e-12
        )
    assert frame.equals(frame)  # the variants are copies


def test_offset_of_the_published_table() -> None:
    shifted = (SHROUT_FLEISS + 10**15).astype(float)
    assert float(shifted.agree.icc("C,1")) == pytest.approx(0.714840714840715, rel=1e-12)
    result = (SHROUT_FLEISS * 1e-200).agree.icc("A,1")
    assert float(result) == pytest.approx(float(SHROUT_FLEISS.agree.icc("A,1")), rel=1e-12)
    low, high = result.confidence_interval()
    want = SHROUT_FLEISS.agree.icc("A,1").confidence_interval()
    assert (low, high) == pytest.approx(tuple(want), rel=1e-9)
    assert result.ms_rows == pytest.approx(SHROUT_FLEISS.agree.icc().ms_rows * 1e-400, abs=0)


@pytest.mark.parametrize("design", ["one rating per item", "one item per rater"])
def test_two_way_forms_where_not_identified_are_nan_naming_the_design(design: str) -> None:
    rng = np.random.default_rng(4)
    if design == "one rating per item":  # every item rated by one of three raters
        flat = pd.DataFrame({"item": range(12), "rater": np.arange(12) % 3})
        match = "no item is rated by two raters"
        undefined = FORMS
    else:  # every rater rates one item (pairs of raters per item)
        flat = pd.DataFrame({"item": np.repeat(range(6), 2), "rater": range(12)})
        match = "no rater rates two items"
        undefined = ("A,1", "C,1", "A,k", "C,k")
    flat["y"] = rng.normal(size=len(flat)).round(2)
    for scale in (1.0, 1e3):
        with pytest.warns(UndefinedStatisticWarning, match=match):
            table = _table(flat.assign(y=flat["y"] * scale))
        assert table.loc[list(undefined), "value"].isna().all()
        assert table.attrs["missing"] == "incomplete"
        with pytest.warns(UndefinedStatisticWarning, match=match):
            assert np.isnan(flat.agree(item="item", rater="rater", label="y").icc("A,1"))
    if design == "one item per rater":
        assert table.loc[["1,1", "1,k"], "value"].notna().all()
    good = eighths(2).assign(g="good")
    frame = pd.concat([good, flat.assign(g="flat", item=flat["item"] + 100)])
    with pytest.warns(UndefinedStatisticWarning, match=rf"in groups \['flat'\]: {match}"):
        grouped = _table(frame, "g")
    assert grouped.loc["flat"].loc[list(undefined), "value"].isna().all()
    np.testing.assert_allclose(grouped.loc["good"]["value"], _table(good)["value"], rtol=1e-9)


@pytest.mark.parametrize("bad", [np.inf, -np.inf])
def test_infinite_ratings_are_refused_by_name(bad: float) -> None:
    wide = SHROUT_FLEISS.astype(float)
    wide.iloc[2, 1] = bad
    before = wide.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for call in (lambda: wide.agree.icc(), lambda: wide.agree.icc_table()):
            with pytest.raises(ValueError, match=rf"finite ratings; got \[{bad!r}\] in 1 "):
                call()
    pd.testing.assert_frame_equal(wide, before)
    # Kendall's W ranks the ratings: an infinite one is ranked as the largest (smallest).
    finite = wide.replace(bad, np.sign(bad) * 1e300)
    assert float(wide.agree.kendall_w()) == float(finite.agree.kendall_w())


def test_perfect_agreement_has_every_interval_one() -> None:
    wide = pd.DataFrame({"a": [1.0, 2.0, 3.0, 5.0], "b": [1.0, 2.0, 3.0, 5.0]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table = wide.agree.icc_table()
        assert (table["value"] == 1.0).all()
        assert (table["low"] == 1.0).all() and (table["high"] == 1.0).all()
        for form in FORMS:
            assert tuple(wide.agree.icc(form).confidence_interval()) == (1.0, 1.0)
        # Raters who differ by a constant: consistency 1, agreement below, finite bounds.
        shifted = wide.assign(b=wide["b"] + 1.0).agree.icc_table()
    assert shifted.loc["C,1", ["low", "high"]].tolist() == [1.0, 1.0]
    assert np.isfinite(shifted.loc[["A,1", "A,k"], ["low", "high"]].to_numpy()).all()
    assert shifted.loc["A,1", "low"] <= shifted.loc["A,1", "value"] <= 1.0


def own_rater_groups(n_groups: int) -> pd.DataFrame:
    g = np.repeat(np.arange(n_groups), 6)
    return pd.DataFrame(
        {
            "g": g,
            "item": np.tile(np.repeat(np.arange(2), 3), n_groups) + 2 * g,
            "rater": np.tile(np.arange(3), 2 * n_groups) + 3 * g,
            "y": np.random.default_rng(0).integers(1, 6, len(g)),
        }
    )


@pytest.mark.parametrize("call", ["icc_table", "kendall_w"])
def test_groups_with_raters_of_their_own_take_memory_in_proportion(call: str) -> None:
    import tracemalloc

    frame = own_rater_groups(4000)  # 24,000 ratings; groups x raters would be 4.8e7
    ratings = frame.agree(item="item", rater="rater", label="y", by="g")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedStatisticWarning)  # a few constant groups
        getattr(frame.head(60).agree(item="item", rater="rater", label="y", by="g"), call)()
        tracemalloc.start()
        try:
            out = getattr(ratings, call)()
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert peak < 40 * 2**20, peak  # O(ratings): a groups x raters table alone is 384 MB
    for g in (0, 1, 5):
        alone = frame[frame["g"] == g].agree(item="item", rater="rater", label="y")
        want = getattr(alone, call)()
        if call == "kendall_w":
            assert out.loc[g, "value"] == pytest.approx(float(want), rel=1e-12)
        else:
            np.testing.assert_allclose(
                out.loc[g]["value"].to_numpy(), want["value"].to_numpy(), rtol=1e-12
            )


@pytest.mark.parametrize("own", [False, True])
def test_incomplete_groups_fitted_together_equal_each_alone(own: bool) -> None:
    parts = []
    for g in range(12):
        part = eighths(20 + g)
        part = part[part["rater"] < 3 + g % 3]  # groups of 3 to 5 raters
        parts.append(part.assign(g=g, rater=part["rater"] + (10 * g if own else 0)))
    frame = pd.concat(parts, ignore_index=True)
    grouped = _table(frame, "g")
    assert (grouped.attrs["mean_squares"]["missing"] == "incomplete").all()
    for g, part in enumerate(parts):
        np.testing.assert_allclose(
            grouped.loc[g]["value"].to_numpy(), _table(part)["value"].to_numpy(), rtol=1e-9
        )


def test_a_k_lower_bound_past_the_spearman_brown_pole_is_unbounded() -> None:
    # A,1's lower bound -0.48 is below -1 / (k - 1): Spearman-Brown has no image there
    # (psych's formula gives 4.4, above the upper bound).
    wide = pd.DataFrame([[0, 0, 0, 0], [0, 0, 0, -0.25], [0, 0, 0, 0.25]], dtype=float)
    table = wide.agree.icc_table()
    assert table.loc["A,1", "low"] < -1 / 3
    assert table.loc["A,k", "low"] == -np.inf and table.loc["A,k", "high"] <= 1.0
    assert (table["low"] <= table["high"]).all()


def test_incomplete_by_groups_fitted_together_equal_statsmodels_mixedlm() -> None:
    sm = pytest.importorskip("statsmodels.api")
    parts = [incomplete_design(seed).assign(g=seed) for seed in (0, 2)]
    grouped = _table(pd.concat(parts, ignore_index=True), "g")
    for part in parts:
        model = sm.MixedLM.from_formula(
            "y ~ 1",
            groups=np.ones(len(part)),
            vc_formula={"item": "0 + C(item)", "rater": "0 + C(rater)"},
            data=part,
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fit = model.fit(reml=True, method="bfgs", maxiter=20000, gtol=1e-12)
        s_item, s_rater = fit.vcomp
        want = s_item / (s_item + s_rater + fit.scale)
        g = int(part["g"].iloc[0])
        assert grouped.loc[(g, "A,1"), "value"] == pytest.approx(want, rel=1e-6)


def test_a_residual_variance_of_zero_gives_the_dense_reml_whatever_the_order_or_scale() -> None:
    # Found by tests/test_fault_icc.py: four ratings (three items, two raters) whose REML
    # residual variance is zero. The batched objective's 1/s_e terms cancel there, and
    # ICC(A,1) moved by 1.7e-3 (relative) with the order, offset or scale of the rows
    # (0.11616-0.11641). Refitted on the dense covariance, every variant gives the REML
    # optimum, checked against a fit of -2 l_R written out with numpy matrices below.
    from scipy.optimize import minimize

    frame = pd.DataFrame(
        {"item": ["i0", "i3", "i4", "i4"], "rater": ["r0", "r1", "r0", "r1"]}
    ).assign(y=[4.25, -2.5, 5.0, 0.0])
    shuffled = frame.iloc[[3, 1, 0, 2]].assign(
        rater=lambda f: f["rater"].map({"r0": "z1", "r1": "z0"})
    )
    variants = [
        frame,
        shuffled,
        frame.assign(y=frame["y"] + 1e15),
        frame.assign(y=frame["y"] * 1e154),
    ]
    values = []
    for variant in variants:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedStatisticWarning)
            table = variant.agree(item="item", rater="rater", label="y").icc_table()
        values.append(table.loc[["A,1", "A,k"], "value"].to_numpy(float))
    np.testing.assert_allclose(values, [values[0]] * len(values), rtol=1e-9)

    y = frame["y"].to_numpy() - frame["y"].mean()
    items = frame["item"].to_numpy()
    raters = frame["rater"].to_numpy()
    same_item = (items[:, None] == items[None, :]).astype(float)
    same_rater = (raters[:, None] == raters[None, :]).astype(float)

    def minus_two_l(log_v: np.ndarray) -> float:  # s_e = 0: V = s_a Z_a Z_a' + s_b Z_b Z_b'
        v = np.exp(log_v[0]) * same_item + np.exp(log_v[1]) * same_rater
        inverse, one = np.linalg.inv(v), np.ones(len(y))
        a11, a1y, ayy = one @ inverse @ one, one @ inverse @ y, y @ inverse @ y
        return float(np.linalg.slogdet(v)[1] + np.log(a11) + ayy - a1y**2 / a11)

    fit = minimize(minus_two_l, [1.0, 1.0], method="Nelder-Mead",
                   options={"xatol": 1e-12, "fatol": 1e-15, "maxiter": 20_000})  # fmt: skip
    s_a, s_b = np.exp(fit.x)
    assert values[0][0] == pytest.approx(s_a / (s_a + s_b), rel=1e-7)  # ICC(A,1), s_e = 0


def test_the_dense_refit_of_a_singular_covariance_warns_nothing_of_numpy() -> None:
    # Found by tests/test_fault_icc.py: a group whose covariance without residual is singular
    # gave numpy's "invalid value encountered in subtract" from the refit's differences.
    rows = [("g0", "g0i1", "r1", 0.0), ("g0", "g0i2", "r2", 0.0)] + [
        ("g1", f"g1i{i}", f"r{j}", 0.25 if j == 3 else 0.0) for i in range(4) for j in range(4)
    ]
    frame = pd.DataFrame(rows, columns=["g", "item", "rater", "y"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = frame.agree(item="item", rater="rater", label="y", by="g").icc_table()
    assert {w.category for w in caught} == {UndefinedStatisticWarning}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedStatisticWarning)
        alone = frame[frame["g"] == "g1"].agree(item="item", rater="rater", label="y").icc_table()
    np.testing.assert_allclose(
        table.loc["g1", "value"].to_numpy(float), alone["value"].to_numpy(float), atol=1e-12
    )
