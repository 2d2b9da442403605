"""`Ratings.irt`: the graded response model with judges as IRT items (Amidei et al. 2020).

Parameter recovery on data simulated from the model, invariances (judge order, layouts,
reversed scales), missing cells, judges fitted on part of the scale, the errors the spec
asks for, convergence judged at the solution, and the result's members. The comparison
with independent implementations is in ``test_irt_oracles.py``.
"""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

import pdagree
from pdagree.irt import ConvergenceWarning, GradedResponseFit, LRTest, simulate

nan = np.nan
JUDGES = ["J1", "J2", "J3", "J4", "J5"]


def truth(n_judges: int = 5, discrimination: float | list[float] = 1.5) -> pd.DataFrame:
    shift = np.linspace(-0.4, 0.4, n_judges)
    return pd.DataFrame(
        {
            "discrimination": discrimination,
            "extremity_1": -1.2 + shift,
            "extremity_2": -0.1 + shift,
            "extremity_3": 0.9 + shift / 2,
        },
        index=JUDGES[:n_judges],
    )


@pytest.fixture(scope="module")
def ratings() -> pd.DataFrame:
    return simulate(truth(), 600, missing=0.1, rng=11)


@pytest.fixture(scope="module")
def fitted(ratings: pd.DataFrame) -> GradedResponseFit:
    return ratings.agree.irt()


# --------------------------------------------------------------------------- recovery


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_parameter_recovery_constrained(seed: int) -> None:
    true = truth()
    fit = simulate(true, 2000, missing=0.1, rng=seed).agree.irt()
    assert fit.converged
    z = (fit.parameters - true) / fit.standard_errors
    assert (z.abs() < 4.5).all().all(), z
    assert (fit.parameters - true).abs().max().max() < 0.2


@pytest.mark.parametrize("seed", [4, 5])
def test_parameter_recovery_unconstrained(seed: int) -> None:
    true = truth(discrimination=[0.8, 1.2, 1.6, 2.0, 2.4])
    fit = simulate(true, 2000, missing=0.1, rng=seed).agree.irt(constrained=False)
    assert fit.converged
    z = (fit.parameters - true) / fit.standard_errors
    assert (z.abs() < 4.5).all().all(), z


def test_standard_errors_match_the_spread_over_replications() -> None:
    # 40 replications of 300 items: the mean standard error is within 25% of the spread.
    true = truth(3)
    fits = [simulate(true, 300, rng=100 + s).agree.irt() for s in range(40)]
    spread = pd.concat([f.parameters for f in fits]).groupby(level=0).std()
    mean_se = pd.concat([f.standard_errors for f in fits]).groupby(level=0).mean()
    ratio = (mean_se / spread).to_numpy()
    assert np.all((ratio > 0.75) & (ratio < 1.33)), ratio


# --------------------------------------------------------------------------- invariances


def test_judge_order_does_not_matter(ratings: pd.DataFrame, fitted: GradedResponseFit) -> None:
    order = ["J4", "J1", "J5", "J3", "J2"]
    fit = ratings[order].agree.irt()
    assert fit.parameters.index.tolist() == order  # the frame's column order
    assert fit.loglik == pytest.approx(fitted.loglik, rel=1e-10)
    pd.testing.assert_frame_equal(fit.parameters.loc[JUDGES], fitted.parameters, atol=1e-6)
    pd.testing.assert_frame_equal(
        fit.standard_errors.loc[JUDGES], fitted.standard_errors, atol=1e-6
    )
    scores = fit.item_scores()
    pd.testing.assert_frame_equal(scores, fitted.item_scores(), atol=1e-6)


def test_long_layout_and_declared_orders_give_the_same_fit(
    ratings: pd.DataFrame, fitted: GradedResponseFit
) -> None:
    long = ratings.reset_index().melt(id_vars="item", var_name="judge", value_name="score")
    fit = long.agree(item="item", rater="judge", label="score").irt()
    pd.testing.assert_frame_equal(fit.parameters, fitted.parameters, atol=1e-6, check_names=False)
    assert fit.parameters.index.name == "judge"
    # text labels with a declared order: an ordered Categorical, or `categories=`
    words = {1: "low", 2: "mid", 3: "high", 4: "top"}
    text = ratings.apply(lambda col: col.map(words, na_action="ignore")).astype(object)
    order = ["low", "mid", "high", "top"]
    declared = text.agree(categories=order).irt()
    pd.testing.assert_frame_equal(declared.parameters, fitted.parameters, atol=1e-6)
    ordered = text.astype(pd.CategoricalDtype(order, ordered=True)).agree.irt()
    pd.testing.assert_frame_equal(ordered.parameters, fitted.parameters, atol=1e-6)
    assert ordered.categories.tolist() == order


def test_reversed_scale_mirrors_the_extremities(
    ratings: pd.DataFrame, fitted: GradedResponseFit
) -> None:
    reversed_fit = (5 - ratings).agree.irt()
    assert reversed_fit.loglik == pytest.approx(fitted.loglik, rel=1e-10)
    np.testing.assert_allclose(
        reversed_fit.parameters["discrimination"], fitted.parameters["discrimination"], rtol=1e-6
    )
    extremities = fitted.parameters.iloc[:, 1:].to_numpy()
    np.testing.assert_allclose(
        reversed_fit.parameters.iloc[:, 1:].to_numpy(), -extremities[:, ::-1], atol=1e-6
    )


def test_the_frame_is_not_modified(ratings: pd.DataFrame) -> None:
    before = ratings.copy(deep=True)
    ratings.agree.irt().item_scores()
    pd.testing.assert_frame_equal(ratings, before)


# --------------------------------------------------------------------------- missing cells


def test_missing_cells_leave_their_judge_out_of_the_item(ratings: pd.DataFrame) -> None:
    # An item rated by one judge only, and one rated by nobody.
    frame = ratings.copy()
    frame.loc[0, ["J2", "J3", "J4", "J5"]] = pd.NA
    frame.loc[1, :] = pd.NA
    fit = frame.agree.irt()
    assert fit.n_items == len(frame) - 1
    scores = fit.item_scores()
    assert scores.index.equals(frame.index)
    assert scores.loc[1, "mean"] == pytest.approx(0.0, abs=1e-12)
    assert scores.loc[1, "sd"] == pytest.approx(1.0, abs=1e-10)
    # dropping the empty row changes nothing but n_items and the scores' index
    dropped = frame.drop(index=1).agree.irt()
    assert dropped.loglik == pytest.approx(fit.loglik, rel=1e-12)
    assert dropped.bic == pytest.approx(fit.bic, rel=1e-12)
    pd.testing.assert_frame_equal(dropped.parameters, fit.parameters, atol=1e-8)


def test_missing_cells_are_missing_at_random(ratings: pd.DataFrame) -> None:
    # Deleting further cells at random keeps the estimates within their standard errors.
    full = simulate(truth(), 2000, rng=21)
    holes = full.mask(np.random.default_rng(0).random(full.shape) < 0.3)
    a, b = full.agree.irt(), holes.agree.irt()
    z = (b.parameters - a.parameters) / b.standard_errors
    assert (z.abs() < 3).all().all()
    assert (b.standard_errors > a.standard_errors).all().all()


# --------------------------------------------------------------------------- partial scales


def _partial() -> pd.DataFrame:
    # J2 never uses the top category, J3 never the bottom one.
    true = truth(4)
    true.loc["J2", "extremity_3"] = nan
    true.loc["J3", "extremity_1"] = nan
    return simulate(true, 800, missing=0.05, rng=8)


def test_judges_who_never_use_top_or_bottom_categories() -> None:
    frame = _partial()
    counts = frame.agree.frequencies()["count"]
    assert counts.loc["J2", 4] == 0 and counts.loc["J3", 1] == 0
    fit = frame.agree.irt()
    assert fit.converged
    assert np.isnan(fit.parameters.loc["J2", "extremity_3"])
    assert np.isnan(fit.parameters.loc["J3", "extremity_1"])
    assert np.isnan(fit.standard_errors.loc["J2", "extremity_3"])
    assert fit.parameters.drop(index=["J2", "J3"]).notna().all().all()
    assert fit.standard_errors.drop(index=["J2", "J3"]).notna().all().all()
    assert fit.n_parameters == 4 * 3 - 2 + 1
    assert fit.aic == pytest.approx(-2 * fit.loglik + 2 * fit.n_parameters)
    assert fit.bic == pytest.approx(-2 * fit.loglik + np.log(800) * fit.n_parameters)
    unconstrained = frame.agree.irt(constrained=False)
    assert unconstrained.n_parameters == 4 * 3 - 2 + 4
    # the judge's category probabilities: zero for the category it never uses
    curves = fit.irccc(z=[-1.0, 0.0, 1.0])
    j2_top = curves[(curves["rater"] == "J2") & (curves["category"] == 4)]
    assert (j2_top["probability"] == 0).all()


def test_declared_but_unused_top_category_gives_nan_for_everyone(ratings: pd.DataFrame) -> None:
    fit = ratings.agree(categories=[1, 2, 3, 4, 5]).irt()
    assert fit.parameters.columns.tolist()[-1] == "extremity_4"
    assert fit.parameters["extremity_4"].isna().all()
    ref = ratings.agree.irt()
    pd.testing.assert_frame_equal(fit.parameters.iloc[:, :-1], ref.parameters, atol=1e-8)


def test_a_skipped_middle_category_is_an_error_naming_judge_and_category(
    ratings: pd.DataFrame,
) -> None:
    frame = ratings.copy()
    frame["J3"] = frame["J3"].replace(2, 1)
    message = (
        r"^`irt\(\)` cannot place a category a judge skips between two it uses: judge 'J3' "
        r"never uses category 2 but uses 1 and 4, so the thresholds around 2 are not "
        r"identified\. Merge 2 with a neighbouring category \(e\.g\. `df\.replace\(\.\.\.\)`\), "
        r"or leave the judge out with `raters=\[\.\.\.\]`\.$"
    )
    with pytest.raises(ValueError, match=message):
        frame.agree.irt()
    kept = frame.agree(raters=["J1", "J2", "J4", "J5"]).irt()
    assert kept.parameters.index.tolist() == ["J1", "J2", "J4", "J5"]


def test_a_judge_with_one_category_or_none_is_an_error(ratings: pd.DataFrame) -> None:
    frame = ratings.assign(J5=3)
    with pytest.raises(
        ValueError,
        match=r"^`irt\(\)` needs every judge to use at least two categories; judge 'J5' "
        r"uses only category 3\. Leave the judge out with `raters=\[\.\.\.\]`\.$",
    ):
        frame.agree.irt()
    empty = ratings.assign(J5=pd.array([pd.NA] * len(ratings), dtype="Int64"))
    with pytest.raises(ValueError, match=r"judge 'J5' has no ratings\. Leave"):
        empty.agree.irt()


# --------------------------------------------------------------------------- other errors


def test_errors_for_data_the_model_does_not_apply_to(ratings: pd.DataFrame) -> None:
    text = ratings.apply(lambda col: col.map({1: "a", 2: "b", 3: "c", 4: "d"}, na_action="ignore"))
    with pytest.raises(
        ValueError,
        match=r"^`irt\(\)` depends on the order of the categories, and the order of these text "
        r"labels was not declared; it would have been \['a', 'b', 'c', 'd'\]\.",
    ):
        text.astype(object).agree.irt()
    with pytest.raises(ValueError, match=r"^`irt\(\)` needs to know which rater gave each"):
        ratings.agree.counts().agree(layout="counts").irt()
    grouped = ratings.assign(half=np.arange(len(ratings)) % 2)
    with pytest.raises(
        ValueError,
        match=r"^`irt\(\)` fits one model to one set of ratings; these ratings are grouped by "
        r"\['half'\]\. Fit each group on its own, e\.g\. `\{key: g\.agree\(\.\.\.\)\.irt\(\) "
        r"for key, g in df\.groupby\(\.\.\.\)\}`\.$",
    ):
        grouped.agree(by="half").irt()


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"constrained": "yes"}, TypeError, r"^`constrained` must be True or False; got 'yes'\.$"),
        ({"quadrature": 2}, ValueError, r"^`quadrature` must be an integer >= 3; got 2\.$"),
        ({"quadrature": 21.0}, ValueError, r"^`quadrature` must be an integer >= 3; got 21\.0"),
        (
            {"max_iterations": 0},
            ValueError,
            r"^`max_iterations` must be an integer >= 1; got 0\.$",
        ),
    ],
)
def test_option_errors(
    ratings: pd.DataFrame, options: dict[str, object], error: type, message: str
) -> None:
    with pytest.raises(error, match=message):
        ratings.agree.irt(**options)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- convergence


def test_non_convergence_warns_and_says_so(ratings: pd.DataFrame) -> None:
    with pytest.warns(ConvergenceWarning, match=r"^the graded response model did not converge"):
        fit = ratings.agree.irt(max_iterations=2)
    assert fit.converged is False
    assert fit.n_iterations == 2
    assert fit.message.endswith("not converged")
    assert issubclass(ConvergenceWarning, pdagree.PdagreeWarning)


def test_judges_who_always_agree_do_not_converge() -> None:
    # The discrimination runs off to infinity: no maximum, whatever BFGS says.
    scores = np.random.default_rng(0).integers(1, 4, 200)
    frame = pd.DataFrame({"a": scores, "b": scores, "c": scores})
    with pytest.warns(
        ConvergenceWarning,
        match=r"^the graded response model did not converge: the observed information is not "
        r"positive definite at the solution, so some parameter is not identified \(judges who "
        r"always agree, or more parameters than the ratings can fix\)\. The estimates and "
        r"standard errors are not reliable \(BFGS: ",
    ):
        fit = frame.agree.irt()
    assert not fit.converged
    assert fit.standard_errors.isna().all().all()


def test_a_likelihood_rising_to_infinity_does_not_converge() -> None:
    # Five items: the likelihood flattens as the parameters run off, the steps do not shrink.
    frame = pd.DataFrame({"a": [1, 2, 3, 2, 1], "b": [1, 3, 3, 2, 2]})
    with pytest.warns(
        ConvergenceWarning,
        match=r"^the graded response model did not converge: the likelihood still rises with "
        r"the .+: its maximum lies at infinity \(judges who agree perfectly, or too few items\)",
    ):
        fit = frame.agree.irt()
    assert not fit.converged


def test_converged_is_judged_at_the_solution_not_from_the_optimiser_flag(
    ratings: pd.DataFrame, fitted: GradedResponseFit, monkeypatch: pytest.MonkeyPatch
) -> None:
    # BFGS may report a loss of precision at the optimum: the fit still converged.
    from scipy import optimize

    real = optimize.minimize

    def pessimistic(*args: object, **kwargs: object) -> optimize.OptimizeResult:
        result = real(*args, **kwargs)
        result.success = False
        result.message = "Desired error not necessarily achieved due to precision loss."
        return result

    monkeypatch.setattr(optimize, "minimize", pessimistic)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fit = ratings.agree.irt()
    assert fit.converged
    assert "precision loss" in fit.message
    pd.testing.assert_frame_equal(fit.parameters, fitted.parameters, atol=1e-8)


def test_quadrature_can_be_raised(ratings: pd.DataFrame, fitted: GradedResponseFit) -> None:
    fine = ratings.agree.irt(quadrature=61)
    assert fine.quadrature == 61 and fitted.quadrature == 21
    assert fine.parameters.sub(fitted.parameters).abs().max().max() < 0.01


# --------------------------------------------------------------------------- the result


def test_result_members(fitted: GradedResponseFit) -> None:
    assert fitted.parameters.columns.tolist() == [
        "discrimination",
        "extremity_1",
        "extremity_2",
        "extremity_3",
    ]
    assert fitted.parameters.index.tolist() == JUDGES
    assert fitted.standard_errors.shape == fitted.parameters.shape
    assert fitted.standard_errors.index.equals(fitted.parameters.index)
    assert fitted.parameters["discrimination"].nunique() == 1  # constrained
    assert fitted.converged is True
    assert isinstance(fitted.n_iterations, int) and fitted.n_iterations > 0
    assert isinstance(fitted.message, str)
    assert fitted.n_parameters == 5 * 3 + 1
    assert fitted.n_items == 600
    assert fitted.aic == pytest.approx(-2 * fitted.loglik + 2 * 16)
    assert fitted.bic == pytest.approx(-2 * fitted.loglik + np.log(600) * 16)
    assert fitted.categories.tolist() == [1, 2, 3, 4]
    table = fitted.parameters
    table.iloc[0, 0] = 99.0  # a copy: the fit is unchanged
    assert fitted.parameters.iloc[0, 0] != 99.0
    with pytest.raises(AttributeError, match=r"^GradedResponseFit is immutable; cannot set"):
        fitted.converged = False  # type: ignore[misc]
    text = repr(fitted)
    assert text.startswith("GradedResponseFit(constrained: 5 judges, 600 items, categories")
    assert "extremity_3" in text


def test_lr_test(ratings: pd.DataFrame, fitted: GradedResponseFit) -> None:
    free = ratings.agree.irt(constrained=False)
    assert free.parameters["discrimination"].nunique() == 5
    assert free.loglik >= fitted.loglik
    test = fitted.lr_test(free)
    assert isinstance(test, LRTest)
    assert test.df == 4
    assert test.statistic == pytest.approx(2 * (free.loglik - fitted.loglik))
    from scipy.stats import chi2

    assert test.p_value == pytest.approx(chi2.sf(test.statistic, 4))
    assert free.lr_test(fitted) == test
    with pytest.raises(ValueError, match=r"^`lr_test` compares a restricted model with a larger"):
        fitted.lr_test(fitted)
    other = ratings.iloc[:300].agree.irt(constrained=False)
    with pytest.raises(ValueError, match=r"^`lr_test` compares two fits of the same ratings"):
        fitted.lr_test(other)
    with pytest.raises(TypeError, match=r"^`other` must be a fit from `irt\(\)`; got float\.$"):
        fitted.lr_test(1.0)  # type: ignore[arg-type]


def test_lr_test_rejects_a_wrong_constraint() -> None:
    frame = simulate(truth(discrimination=[0.6, 0.8, 2.5, 3.0, 3.5]), 1000, rng=3)
    test = frame.agree.irt().lr_test(frame.agree.irt(constrained=False))
    assert test.p_value < 1e-6


def test_irccc(fitted: GradedResponseFit) -> None:
    curves = fitted.irccc(z=np.linspace(-3, 3, 7))
    assert curves.columns.tolist() == ["rater", "category", "z", "probability"]
    assert len(curves) == 5 * 4 * 7
    sums = curves.groupby(["rater", "z"])["probability"].sum()
    np.testing.assert_allclose(sums, 1.0, atol=1e-12)
    # at z = extremity_k, P(Y > k) = 0.5
    params = fitted.parameters
    at = fitted.irccc(z=[params.loc["J2", "extremity_2"]])
    j2 = at[at["rater"] == "J2"].set_index("category")["probability"]
    assert j2.loc[[3, 4]].sum() == pytest.approx(0.5, abs=1e-12)
    default = fitted.irccc()
    assert default["z"].min() == -4 and default["z"].max() == 4
    with pytest.raises(ValueError, match=r"^`z` must hold finite numbers"):
        fitted.irccc(z=[0.0, nan])


def test_item_scores(ratings: pd.DataFrame, fitted: GradedResponseFit) -> None:
    scores = fitted.item_scores()
    assert scores.columns.tolist() == ["mean", "sd"]
    assert scores.index.equals(ratings.index)
    assert (scores["sd"] > 0).all() and (scores["sd"] < 1).all()
    # complete items: the posterior mean increases with the sum of the ratings
    complete = ratings.notna().all(axis=1)
    total = ratings[complete].astype(float).sum(axis=1)
    corr = np.corrcoef(total, scores.loc[complete, "mean"])[0, 1]
    assert corr > 0.95
    # the EAP of an item by hand
    one = ratings.loc[complete].iloc[0]
    nodes, weights = np.polynomial.hermite_e.hermegauss(21)
    weights = weights / weights.sum()
    a = fitted.parameters["discrimination"].to_numpy()
    beta = fitted.parameters.iloc[:, 1:].to_numpy() * a[:, None]
    likelihood = np.ones(21)
    for j, judge in enumerate(JUDGES):
        edges = np.concatenate([[-np.inf], beta[j], [np.inf]])
        cum = 1 / (1 + np.exp(-(edges[:, None] - a[j] * nodes)))
        likelihood *= cum[int(one[judge])] - cum[int(one[judge]) - 1]
    post = weights * likelihood / (weights @ likelihood)
    assert scores.loc[one.name, "mean"] == pytest.approx(post @ nodes, abs=1e-10)


def test_disagreement_reads_like_the_paper(fitted: GradedResponseFit) -> None:
    table = fitted.disagreement("J1", "J5")
    assert table.index.tolist() == ["extremity_1", "extremity_2", "extremity_3"]
    assert table.index.name == "boundary"
    assert table.columns.tolist() == ["J1", "J5", "low", "high", "stricter"]
    params = fitted.parameters
    for boundary in table.index:
        pair = sorted([params.loc["J1", boundary], params.loc["J5", boundary]])
        assert table.loc[boundary, "low"] == pair[0]
        assert table.loc[boundary, "high"] == pair[1]
        lower = "J1" if params.loc["J1", boundary] < params.loc["J5", boundary] else "J5"
        assert table.loc[boundary, "stricter"] == lower
    lenient = fitted.disagreement("J1", "J5", strict_end="low")
    assert (lenient["stricter"] != table["stricter"]).all()
    with pytest.raises(ValueError, match=r"^`b` must be one of the judges \['J1', 'J2'"):
        fitted.disagreement("J1", "J9")
    with pytest.raises(ValueError, match=r"^`a` and `b` must be two different judges"):
        fitted.disagreement("J1", "J1")
    with pytest.raises(ValueError, match=r"^`strict_end` must be 'high' or 'low'; got 'up'\.$"):
        fitted.disagreement("J1", "J2", strict_end="up")  # type: ignore[arg-type]


def test_disagreement_with_a_boundary_one_judge_lacks() -> None:
    fit = _partial().agree.irt()
    table = fit.disagreement("J1", "J2")
    assert np.isnan(table.loc["extremity_3", "J2"])
    assert np.isnan(table.loc["extremity_3", "low"]) and np.isnan(table.loc["extremity_3", "high"])
    assert table.loc["extremity_3", "stricter"] is None


def test_ratings_method_documents_the_fit() -> None:
    assert pdagree.Ratings.irt.__doc__ == pdagree.irt.fit.__doc__
    assert "ltm" in pdagree.Ratings.irt.__doc__


def test_import_stays_light() -> None:
    code = (
        "import sys, pdagree; "
        "print(any(m in sys.modules for m in ('scipy.optimize', 'matplotlib', 'scipy.stats')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# --------------------------------------------------------------------------- simulate


def test_simulate_is_reproducible_and_checks_its_input() -> None:
    true = truth(2)
    pd.testing.assert_frame_equal(simulate(true, 50, rng=1), simulate(true, 50, rng=1))
    labelled = simulate(true, 50, categories=["a", "b", "c", "d"], rng=1)
    assert set(labelled.stack().unique()) <= {"a", "b", "c", "d"}
    with pytest.raises(ValueError, match=r"^`parameters` must have the columns"):
        simulate(true.drop(columns="extremity_3").rename(columns={"extremity_2": "x"}), 5)
    with pytest.raises(ValueError, match=r"^`parameters`' extremities must increase"):
        simulate(true.assign(extremity_2=5.0), 5)
    with pytest.raises(ValueError, match=r"^`n_items` must be an integer >= 1; got 0\.$"):
        simulate(true, 0)
    with pytest.raises(ValueError, match=r"^`missing` must be a probability in \[0, 1\)"):
        simulate(true, 5, missing=1.0)
    with pytest.raises(ValueError, match=r"^`categories` must list 4 distinct labels"):
        simulate(true, 5, categories=["a", "b"])
    with pytest.raises(TypeError, match=r"^`parameters` must be a DataFrame"):
        simulate(true.to_numpy(), 5)  # type: ignore[arg-type]
