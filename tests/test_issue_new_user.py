"""What a new user hit (issue 8): each test failed before its fix."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest

import pdagree
from pdagree._kernels import alpha as KA

nan = np.nan
# Krippendorff (2011): 4 observers rate 12 units on 1..5, with gaps.
K2011 = pd.DataFrame(
    {
        "A": [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
        "B": [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
        "C": [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
        "D": [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
    }
)


# ------------------------------------------------------------- 11: alpha on the agreement scale


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_alpha_components_on_the_agreement_scale(level: str) -> None:
    a = K2011.agree.alpha(level)
    assert 0.0 <= a.expected <= a.observed <= 1.0
    assert float(a) == pytest.approx((a.observed - a.expected) / (1.0 - a.expected), rel=1e-12)
    assert a.D_o == a.observed_disagreement and a.D_e == a.expected_disagreement
    assert a.observed == pytest.approx(1.0 - a.D_o / a.max_delta2, rel=1e-12)


def test_alpha_max_delta2_per_level() -> None:
    # Categories 1..5 are all present among the pairable values.
    assert K2011.agree.alpha("nominal").max_delta2 == 1.0
    assert K2011.agree.alpha("interval").max_delta2 == 16.0  # (5 - 1)^2
    assert K2011.agree.alpha("ratio").max_delta2 == pytest.approx((4 / 6) ** 2)
    # Ordinal: (n - (n_1 + n_5) / 2)^2 with n = 40 pairable values, n_1 = 9, n_5 = 3.
    assert K2011.agree.alpha("ordinal").max_delta2 == pytest.approx((40 - (9 + 3) / 2) ** 2)
    custom = np.abs(np.subtract.outer(np.arange(5.0), np.arange(5.0)))
    assert K2011.agree.alpha(custom).max_delta2 == 4.0


def test_alpha_scale_uses_the_categories_present_per_group() -> None:
    df = pd.DataFrame({"a": [1, 2, 1, 10, 20, 10], "b": [1, 2, 2, 10, 20, 20]})
    df["g"] = ["x", "x", "x", "y", "y", "y"]
    table = df.agree(by="g").alpha("interval")
    assert table["max_delta2"].tolist() == [1.0, 100.0]
    for key, sub in df.groupby("g"):
        alone = sub.drop(columns="g").agree().alpha("interval")
        assert table.loc[key, "observed"] == pytest.approx(alone.observed)
        assert table.loc[key, "value"] == pytest.approx(float(alone))


def test_pair_max_kernel_equals_brute_force() -> None:
    rng = np.random.default_rng(3)
    values = rng.uniform(0, 10, 30)
    item = np.repeat(np.arange(40), 3)
    code = rng.integers(0, 30, 120)
    group = rng.integers(0, 3, 40)
    matrix = np.abs(np.sin(np.subtract.outer(values, values)))  # no order structure
    metric = KA.Pairwise(KA.matrix_delta2(matrix))
    out = KA.alpha_components(item, code, np.ones(120), group, 3, 30, metric, budget=7)
    for g in range(3):
        present = np.unique(code[np.isin(item, np.flatnonzero(group == g))])
        assert out.max_delta2[g] == pytest.approx(matrix[np.ix_(present, present)].max())


# --------------------------------------------------------------------- 13: smaller things


def test_spa_default_is_the_papers_recommendation() -> None:
    crowd = pdagree.datasets.load("crowd_sparse")
    ratings = crowd.agree(item="item", rater="annotator", label="label")
    assert ratings.spa().weighting == "annotations_m1"
    assert float(ratings.spa()) == float(ratings.spa("annotations_m1"))


def test_pairwise_n_items_is_integer() -> None:
    table = pdagree.datasets.load("fort2011_trains").agree.pairwise("n_items")
    assert all(pd.api.types.is_integer_dtype(t) for t in table.dtypes)
    assert table.loc["Annot1", "Annot2"] == 7


def test_per_category_by_level_is_named_category() -> None:
    df = pd.DataFrame({"a": list("xyxy"), "b": list("xyyy"), "g": [1, 1, 2, 2]})
    table = df.agree(by="g").per_category()
    assert list(table.index.names) == ["g", "category"]


def test_no_warning_escapes_on_ordinary_data() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = float(K2011.agree.alpha("interval"))
    assert [str(w.message) for w in caught] == []
    assert np.isfinite(value)


# ------------------------------------------------ 5, 6, 7: p-values, announcements, defaults

FLEISS = pdagree.datasets.load("fleiss1971")


def test_bootstrap_p_value_formula() -> None:
    from pdagree.inference import bootstrap_p_value

    reps = np.array([[-0.2, 0.1], [0.0, 0.3], [0.4, nan], [0.5, 0.2]])
    # Group 0: 2 of 4 replicates <= 0 and 3 >= 0; group 1: none of 3 <= 0, all 3 >= 0.
    assert bootstrap_p_value(reps, "greater").tolist() == [3 / 5, 1 / 4]
    assert bootstrap_p_value(reps, "less").tolist() == [4 / 5, 1.0]
    assert bootstrap_p_value(reps, "two-sided").tolist() == [1.0, 0.5]


def test_bootstrap_p_value_is_computed() -> None:
    r = FLEISS.agree.fleiss()
    p = r.p_value("bootstrap", n_resamples=400, rng=1)
    assert p == pytest.approx(1 / 401)  # kappa 0.43 on 30 items: no replicate <= 0
    table = (
        FLEISS.assign(g=np.arange(30) % 2)
        .agree(by="g")
        .light(confidence_level=0.95, method="bootstrap", n_resamples=200, rng=0)
    )
    assert table["p_value"].notna().all() and (table["p_value"] <= 1).all()


def test_single_item_interval_is_announced() -> None:
    one = pd.DataFrame({"a": ["x"], "b": ["y"], "c": ["y"]})
    with pytest.warns(
        pdagree.UndefinedStatisticWarning,
        match=r"standard error of `fleiss` is undefined: fewer than two items were rated",
    ):
        low, high = one.agree.fleiss().confidence_interval()
    assert np.isnan(low) and np.isnan(high)


def test_default_method_is_analytic_else_jackknife() -> None:
    # Light's kappa has no linearised variance: the jackknife over items (#26).
    light = FLEISS.agree.light(confidence_level=0.95)
    assert light.ci_method == "jackknife" and light.low < float(light) < light.high
    fleiss = FLEISS.agree.fleiss(confidence_level=0.95)
    assert fleiss.ci_method == "analytic"
    assert (fleiss.low, fleiss.high) == pytest.approx((0.3194, 0.5411), abs=5e-5)
    assert FLEISS.agree.bias().standard_error(n_resamples=200, rng=0) > 0
    grouped = FLEISS.assign(g=np.arange(30) % 2).agree(by="g")
    assert grouped.fleiss(confidence_level=0.9)["ci_method"].tolist() == ["analytic"] * 2
    with pytest.raises(ValueError, match="no analytic variance is available for `light`"):
        FLEISS.agree.light(confidence_level=0.95, method="analytic")


# ------------------------------------------------------- 1: by= uses each group's categories

TASKS = pd.DataFrame(
    {
        "task": ["A"] * 6 + ["B"] * 6,
        "r1": ["yes", "yes", "no", "no", "yes", "no", "x", "y", "z", "w", "x", "y"],
        "r2": ["yes", "no", "no", "yes", "yes", "no", "x", "y", "z", "w", "y", "x"],
    }
)


@pytest.mark.parametrize("method", ["bennett", "gwet", "fleiss", "alpha", "spa"])
def test_by_uses_each_groups_own_categories(method: str) -> None:
    grouped = getattr(TASKS.agree(by="task"), method)()
    for task, sub in TASKS.groupby("task"):
        alone = getattr(sub.drop(columns="task").agree(), method)()
        assert grouped.loc[task, "value"] == pytest.approx(float(alone), rel=1e-12)
        assert grouped.loc[task, "n_categories"] == alone.n_categories
    # Task A has two labels: S = (4/6 - 1/2) / (1 - 1/2), not (4/6 - 1/6) / (1 - 1/6).
    if method == "bennett":
        assert grouped.loc["A", "value"] == pytest.approx(1 / 3)
        assert grouped.loc["A", "n_categories"] == 2


def test_declared_categories_apply_to_every_group() -> None:
    labels = ["no", "w", "x", "y", "yes", "z"]
    grouped = TASKS.agree(by="task", categories=labels).bennett()
    assert grouped["n_categories"].tolist() == [6, 6]
    dtype = pd.CategoricalDtype(labels)  # a Categorical declares its categories
    as_categorical = TASKS.astype({"r1": dtype, "r2": dtype}).agree(by="task").bennett()
    pd.testing.assert_frame_equal(as_categorical, grouped)


def test_report_and_per_category_by_groups() -> None:
    report = TASKS.agree(by="task").report()
    for task, sub in TASKS.groupby("task"):
        alone = sub.drop(columns="task").agree().report()
        np.testing.assert_allclose(
            report.loc[task, "value"].to_numpy(dtype=float), alone["value"].to_numpy(dtype=float)
        )
    per_category = TASKS.agree(by="task").per_category()
    assert list(per_category.loc["A"].index) == ["no", "yes"]
    assert list(per_category.loc["B"].index) == ["w", "x", "y", "z"]
    assert not per_category["proportion"].isna().any()


def test_by_bootstrap_keeps_each_groups_categories() -> None:
    # Task A alone and task A in a by= call resample the same way (same categories).
    grouped = TASKS.agree(by="task").gwet(
        confidence_level=0.9, method="bootstrap", n_resamples=300, rng=0
    )
    analytic = TASKS.agree(by="task").gwet(confidence_level=0.9)
    assert (grouped["se"] > 0).all()
    np.testing.assert_allclose(grouped["se"], analytic["se"], rtol=0.5)


# ------------------------------------------ 12: the CLI's coefficient, weight, level choices


def test_report_selects_coefficients_weights_and_level() -> None:
    table = K2011.agree.report(coefficients=["fleiss", "alpha", "spa"], weights="quadratic")
    assert list(table.index) == ["fleiss[quadratic]", "alpha[weights=quadratic]", "spa"]
    assert table.loc["fleiss[quadratic]", "value"] == pytest.approx(
        float(K2011.agree.fleiss(weights="quadratic"))
    )
    by_level = K2011.agree.report(coefficients="alpha,light", level="interval")
    assert list(by_level.index) == ["alpha[interval]", "light"]
    with pytest.raises(ValueError, match=r"`coefficients` must name coefficients among .*'fleis'"):
        K2011.agree.report(coefficients=["fleis"])
    with pytest.raises(TypeError, match=r"`weights=` .* or `level=` .* not both"):
        K2011.agree.report(weights="linear", level="interval")


def test_cli_coefficients_weights_level(capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    from pdagree.cli import main

    path = tmp_path / "k2011.csv"
    K2011.to_csv(path, index_label="unit")
    status = main(
        [
            "report",
            str(path),
            "--coefficients",
            "gwet,alpha",
            "--weights",
            "linear",
            "--format",
            "csv",
        ]
    )
    out = capsys.readouterr().out.splitlines()
    assert status == 0
    assert [line.split(",")[0] for line in out[1:]] == ["gwet[linear]", "alpha[weights=linear]"]
    assert main(["report", str(path), "--coefficients", "alpha", "--level", "ratio"]) == 0
    assert "alpha[ratio]" in capsys.readouterr().out
