"""Agreement weights: Gwet's eight named schemes, user matrices, and weighted coefficients.

The expected matrices are written out below from the formulas of Gwet (2014), *Handbook of
Inter-Rater Reliability*, 4th ed., ch. 3 ("weighting"), in the form R's irrCAC implements them
(github.com/kgwet/irrCAC, R/weights.gen.r: ``identity.weights`` ... ``ordinal.weights``), with
one loop per cell so that they share nothing with pdagree's vectorised construction. Scores
``x_k`` are the category *values* when the categories are numeric and ``1, ..., K`` otherwise;
the ordinal scheme always uses the ranks.

Weighted Cohen's kappa is also checked against statsmodels (``cohens_kappa``) and scikit-learn
(``cohen_kappa_score``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import cohens_kappa

import pdagree  # noqa: F401  (registers DataFrame.agree)
from pdagree.encoding.weights import SCHEMES, weight_matrix

WEIGHTED = ("observed", "bennett", "scott", "cohen", "fleiss", "conger", "gwet")

# --------------------------------------------------------------------------- Gwet's formulas
# Gwet (2014), ch. 3; irrCAC R/weights.gen.r. ``x`` holds the scores in category order,
# ``lo``/``hi`` their minimum and maximum.


def gwet_identity(x: list[float]) -> np.ndarray:
    return np.eye(len(x))


def gwet_linear(x: list[float]) -> np.ndarray:
    # w_kl = 1 - |x_k - x_l| / (x_max - x_min)
    lo, hi = min(x), max(x)
    return np.array([[1 - abs(a - b) / (hi - lo) for b in x] for a in x])


def gwet_quadratic(x: list[float]) -> np.ndarray:
    # w_kl = 1 - (x_k - x_l)^2 / (x_max - x_min)^2
    lo, hi = min(x), max(x)
    return np.array([[1 - (a - b) ** 2 / (hi - lo) ** 2 for b in x] for a in x])


def gwet_radical(x: list[float]) -> np.ndarray:
    # w_kl = 1 - sqrt(|x_k - x_l|) / sqrt(x_max - x_min)
    lo, hi = min(x), max(x)
    return np.array([[1 - math.sqrt(abs(a - b)) / math.sqrt(hi - lo) for b in x] for a in x])


def gwet_ratio(x: list[float]) -> np.ndarray:
    # w_kl = 1 - ((x_k - x_l) / (x_k + x_l))^2 / ((x_max - x_min) / (x_max + x_min))^2
    lo, hi = min(x), max(x)
    return np.array(
        [[1 - ((a - b) / (a + b)) ** 2 / ((hi - lo) / (hi + lo)) ** 2 for b in x] for a in x]
    )


def gwet_circular(x: list[float]) -> np.ndarray:
    # raw_kl = sin^2(pi (x_k - x_l) / U), U = x_max - x_min + 1; w = 1 - raw / max(raw)
    lo, hi = min(x), max(x)
    u = hi - lo + 1
    raw = np.array([[math.sin(math.pi * (a - b) / u) ** 2 for b in x] for a in x])
    return 1 - raw / raw.max()


def gwet_bipolar(x: list[float]) -> np.ndarray:
    # raw_kl = (x_k - x_l)^2 / ((x_k + x_l - 2 x_min) (2 x_max - x_k - x_l)) off the diagonal,
    # 0 on it; w = 1 - raw / max(raw)
    lo, hi = min(x), max(x)
    k = len(x)
    raw = np.zeros((k, k))
    for i, a in enumerate(x):
        for j, b in enumerate(x):
            if i != j:
                raw[i, j] = (a - b) ** 2 / ((a + b - 2 * lo) * (2 * hi - a - b))
    return 1 - raw / raw.max()


def gwet_ordinal(x: list[float]) -> np.ndarray:
    # ranks only: n_kl = |k - l| + 1, raw_kl = C(n_kl, 2) = n_kl (n_kl - 1) / 2;
    # w = 1 - raw / max(raw)
    k = len(x)
    raw = np.array(
        [[math.comb(abs(i - j) + 1, 2) for j in range(k)] for i in range(k)], dtype=float
    )
    return 1 - raw / raw.max()


FORMULAS: dict[str, Callable[[list[float]], np.ndarray]] = {
    "identity": gwet_identity,
    "linear": gwet_linear,
    "quadratic": gwet_quadratic,
    "ordinal": gwet_ordinal,
    "radical": gwet_radical,
    "ratio": gwet_ratio,
    "circular": gwet_circular,
    "bipolar": gwet_bipolar,
}

# Irregularly spaced positive values, so that value-based and rank-based weights differ for
# every scheme but "ordinal" and "identity" (ratio weights need positive values).
NUMERIC = [1, 2, 4, 9, 10]
LETTERS = ["a", "b", "c", "d", "e"]


def test_every_scheme_has_a_formula() -> None:
    assert set(SCHEMES) == set(FORMULAS)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_scheme_on_numeric_categories_uses_values(scheme: str) -> None:
    categories = pd.Index(NUMERIC)
    w, name = weight_matrix(scheme, categories, np.array(NUMERIC, dtype=float))
    assert name == scheme
    np.testing.assert_allclose(w, FORMULAS[scheme]([float(v) for v in NUMERIC]), atol=1e-12)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_scheme_on_labels_uses_order(scheme: str) -> None:
    w, _ = weight_matrix(scheme, pd.Index(LETTERS), None)
    ranks = [float(r) for r in range(1, len(LETTERS) + 1)]
    np.testing.assert_allclose(w, FORMULAS[scheme](ranks), atol=1e-12)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_every_scheme_is_an_agreement_matrix(scheme: str) -> None:
    w, _ = weight_matrix(scheme, pd.Index(NUMERIC), np.array(NUMERIC, dtype=float))
    np.testing.assert_allclose(np.diag(w), 1.0)
    np.testing.assert_allclose(w, w.T, atol=1e-15)
    assert w.min() >= -1e-12
    assert w.max() <= 1.0 + 1e-12


def test_small_matrices_written_out() -> None:
    # Gwet (2014), ch. 3, on scores 1, 2, 3: linear 1 - |d|/2, quadratic 1 - d^2/4;
    # ordinal on 3 ranks: raw C(2, 2) = 1, C(3, 2) = 3, so 1 - 1/3 and 0.
    cats, values = pd.Index([1, 2, 3]), np.array([1.0, 2.0, 3.0])
    linear, _ = weight_matrix("linear", cats, values)
    quadratic, _ = weight_matrix("quadratic", cats, values)
    ordinal, _ = weight_matrix("ordinal", cats, values)
    np.testing.assert_allclose(linear, [[1, 0.5, 0], [0.5, 1, 0.5], [0, 0.5, 1]])
    np.testing.assert_allclose(quadratic, [[1, 0.75, 0], [0.75, 1, 0.75], [0, 0.75, 1]])
    np.testing.assert_allclose(ordinal, [[1, 2 / 3, 0], [2 / 3, 1, 2 / 3], [0, 2 / 3, 1]])


def test_ordered_categorical_order_gives_the_scores() -> None:
    # Non-numeric categories are scored by their order, and an ordered Categorical's order
    # wins over the sorted labels (README, "Weights, alpha and uncertainty").
    order = ["low", "mid", "high", "top"]
    rng = np.random.default_rng(3)
    labels = rng.choice(order, size=(40, 3))
    wide = pd.DataFrame(labels, columns=["r1", "r2", "r3"]).astype(
        pd.CategoricalDtype(order, ordered=True)
    )
    ratings = wide.agree()
    assert list(ratings.categories) == order
    by_name = ratings.fleiss(weights="quadratic")
    by_matrix = ratings.fleiss(weights=gwet_quadratic([1.0, 2.0, 3.0, 4.0]))
    assert float(by_name) == pytest.approx(float(by_matrix), abs=1e-12)


# --------------------------------------------------------------------------- values, not ranks


def _pairs(labels: list[int], seed: int = 0, n: int = 120) -> pd.DataFrame:
    """Two raters who mostly agree, over ``labels``, with every label used by both."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, len(labels), size=n)
    noise = rng.integers(-1, 2, size=n) * (rng.random(n) < 0.4)
    b = np.clip(a + noise, 0, len(labels) - 1)
    a[: len(labels)] = b[: len(labels)] = np.arange(len(labels))
    lab = np.asarray(labels)
    return pd.DataFrame({"r1": lab[a], "r2": lab[b]})


@pytest.mark.parametrize("method", WEIGHTED)
@pytest.mark.parametrize(
    ("scheme", "spread", "ranks"),
    [
        ("linear", [0, 1, 10], [0, 1, 2]),
        ("quadratic", [0, 1, 10], [0, 1, 2]),
        ("radical", [0, 1, 10], [0, 1, 2]),
        ("circular", [0, 1, 10], [0, 1, 2]),
        ("bipolar", [0, 1, 10], [0, 1, 2]),
        ("ratio", [1, 2, 11], [1, 2, 3]),
    ],
)
def test_value_schemes_see_the_values(
    method: str, scheme: str, spread: list[int], ranks: list[int]
) -> None:
    # Same data, labels {0, 1, 10} vs {0, 1, 2}: rank-based weights (scikit-learn's) would
    # give the same coefficient; Gwet's value-based weights must not.
    spread_df = _pairs(spread)
    ranks_df = spread_df.replace(dict(zip(spread, ranks, strict=True)))
    on_values = getattr(spread_df.agree, method)(weights=scheme)
    on_ranks = getattr(ranks_df.agree, method)(weights=scheme)
    assert abs(float(on_values) - float(on_ranks)) > 1e-6  # different, not rounding noise
    x = [float(v) for v in spread]
    explicit = getattr(spread_df.agree, method)(weights=FORMULAS[scheme](x))
    assert float(on_values) == pytest.approx(float(explicit), abs=1e-12)


@pytest.mark.parametrize("method", WEIGHTED)
@pytest.mark.parametrize("scheme", ["ordinal", "identity"])
def test_rank_schemes_ignore_the_values(method: str, scheme: str) -> None:
    spread_df = _pairs([0, 1, 10])
    ranks_df = spread_df.replace({10: 2})
    on_values = getattr(spread_df.agree, method)(weights=scheme)
    on_ranks = getattr(ranks_df.agree, method)(weights=scheme)
    assert float(on_values) == pytest.approx(float(on_ranks), abs=1e-12)


def test_sklearn_linear_weights_are_rank_based_and_pdagree_differs() -> None:
    # The motivating example: scikit-learn builds linear weights on label ranks, so
    # {0, 1, 10} and {0, 1, 2} give the same weighted kappa there.
    spread_df = _pairs([0, 1, 10])
    ranks_df = spread_df.replace({10: 2})
    sk_spread = cohen_kappa_score(spread_df.r1, spread_df.r2, weights="linear")
    sk_ranks = cohen_kappa_score(ranks_df.r1, ranks_df.r2, weights="linear")
    assert sk_spread == pytest.approx(sk_ranks, abs=1e-12)
    assert float(ranks_df.agree.cohen(weights="linear")) == pytest.approx(sk_ranks, abs=1e-12)
    assert abs(float(spread_df.agree.cohen(weights="linear")) - sk_spread) > 1e-3


# --------------------------------------------------------------------------- names, identity


@pytest.mark.parametrize("method", WEIGHTED)
def test_weighted_results_are_named(method: str) -> None:
    df = _pairs([1, 2, 3])
    for scheme in SCHEMES:
        result = getattr(df.agree, method)(weights=scheme)
        expected = method if scheme == "identity" else f"{method}[{scheme}]"
        assert result.name == expected
    assert getattr(df.agree, method)(weights=np.eye(3)).name == f"{method}[custom]"


@pytest.mark.parametrize("method", WEIGHTED)
def test_identity_weights_equal_unweighted(method: str) -> None:
    df = _pairs([1, 2, 3, 4], seed=5)
    plain = getattr(df.agree, method)()
    for weights in (
        "identity",
        np.eye(4),
        pd.DataFrame(np.eye(4), index=[1, 2, 3, 4], columns=[1, 2, 3, 4]),
    ):
        weighted = getattr(df.agree, method)(weights=weights)
        assert float(weighted) == pytest.approx(float(plain), abs=1e-14)
        assert weighted.observed == pytest.approx(plain.observed, abs=1e-14)
        assert weighted.expected == pytest.approx(plain.expected, abs=1e-14)


def test_dataframe_weights_are_aligned_by_label() -> None:
    df = _pairs([1, 2, 3], seed=2)
    w = gwet_radical([1.0, 2.0, 3.0])
    frame = pd.DataFrame(w, index=[1, 2, 3], columns=[1, 2, 3])
    shuffled = frame.loc[[3, 1, 2], [2, 3, 1]]
    assert float(df.agree.fleiss(weights=shuffled)) == pytest.approx(
        float(df.agree.fleiss(weights=w)), abs=1e-14
    )
    assert float(df.agree.fleiss(weights=w)) == pytest.approx(
        float(df.agree.fleiss(weights="radical")), abs=1e-14
    )


def test_gwet_is_ac1_unweighted_and_ac2_weighted() -> None:
    # AC1 (Gwet 2008): A_e = sum_k pi_k (1 - pi_k) / (K - 1); AC2 (Gwet 2014, ch. 4):
    # A_e = T_w / (K (K - 1)) sum_k pi_k (1 - pi_k), T_w the sum of the weights.
    df = _pairs([1, 2, 3, 4], seed=11)
    nik = np.stack([(df == k).sum(axis=1).to_numpy() for k in [1, 2, 3, 4]], axis=1)
    pi = (nik / 2).mean(axis=0)
    ac1 = df.agree.gwet()
    assert ac1.name == "gwet"
    assert ac1.expected == pytest.approx((pi * (1 - pi)).sum() / 3, abs=1e-14)
    w = gwet_quadratic([1.0, 2.0, 3.0, 4.0])
    ac2 = df.agree.gwet(weights="quadratic")
    assert ac2.name == "gwet[quadratic]"
    assert ac2.expected == pytest.approx(w.sum() / 12 * (pi * (1 - pi)).sum(), abs=1e-14)
    observed = np.mean([w[a - 1, b - 1] for a, b in zip(df.r1, df.r2, strict=True)])
    assert ac2.observed == pytest.approx(observed, abs=1e-14)


def test_gwet_many_raters_incomplete_design() -> None:
    # Gwet (2014), ch. 4: pi_k = mean over rated items of n_ik / r_i; A_o over items with two
    # or more ratings: sum_kl w_kl n_ik (n_il - [k = l]) / (r_i (r_i - 1)).
    wide = pd.DataFrame(
        {
            "r1": [1, 2, 3, 3, 2, 1, 4, np.nan, 2],
            "r2": [1, 2, 3, 4, np.nan, 2, 4, 1, 2],
            "r3": [np.nan, 3, 3, 3, 2, 3, 4, 2, np.nan],
            "r4": [1, 2, np.nan, 3, 2, 4, 4, 1, 2],
        }
    )
    cats = [1.0, 2.0, 3.0, 4.0]
    nik = np.stack([(wide == k).sum(axis=1).to_numpy() for k in cats], axis=1).astype(float)
    r = nik.sum(axis=1)
    pi = (nik / r[:, None]).mean(axis=0)
    w = gwet_linear(cats)
    pairable = r >= 2
    a_i = [(np.outer(n, n) * w).sum() - (n * np.diag(w)).sum() for n in nik[pairable]] / (
        r[pairable] * (r[pairable] - 1)
    )
    a_o = a_i.mean()
    a_e = w.sum() / (4 * 3) * (pi * (1 - pi)).sum()
    result = wide.agree.gwet(weights="linear")
    assert result.n_raters == 4
    assert result.observed == pytest.approx(a_o, abs=1e-14)
    assert result.expected == pytest.approx(a_e, abs=1e-14)
    assert float(result) == pytest.approx((a_o - a_e) / (1 - a_e), abs=1e-14)


# --------------------------------------------------------------------------- differential


def _table(df: pd.DataFrame, labels: list[int]) -> np.ndarray:
    return pd.crosstab(df.r1, df.r2).reindex(index=labels, columns=labels, fill_value=0).to_numpy()


@pytest.mark.parametrize("scheme", ["linear", "quadratic"])
def test_weighted_cohen_matches_sklearn(scheme: str) -> None:
    # Labels 0..K-1, where scikit-learn's rank weights equal Gwet's value weights.
    df = _pairs([0, 1, 2, 3, 4], seed=7, n=200)
    ours = float(df.agree.cohen(weights=scheme))
    theirs = cohen_kappa_score(df.r1, df.r2, weights=scheme, labels=[0, 1, 2, 3, 4])
    assert ours == pytest.approx(theirs, abs=1e-12)


@pytest.mark.parametrize("labels", [[0, 1, 2, 3, 4], [0, 1, 3, 7, 20]])
@pytest.mark.parametrize("scheme", ["linear", "quadratic"])
def test_weighted_cohen_matches_statsmodels_scores(labels: list[int], scheme: str) -> None:
    # statsmodels builds disagreement weights |s_k - s_l| / (s_K - s_1) (linear) or their
    # square (quadratic) from the category scores s: pass the category values as scores.
    df = _pairs(labels, seed=8, n=200)
    table = _table(df, labels)
    theirs = cohens_kappa(table, weights=np.asarray(labels, dtype=float), wt=scheme).kappa
    assert float(df.agree.cohen(weights=scheme)) == pytest.approx(theirs, abs=1e-12)


@pytest.mark.parametrize("scheme", ["linear", "quadratic", "radical", "circular", "bipolar"])
def test_weighted_cohen_matches_statsmodels_matrix(scheme: str) -> None:
    # statsmodels' 2-D `weights` follows Wikipedia's definition, kappa = 1 - sum(D p) / sum(D
    # p_e), with D a DISagreement matrix (its docstring: "weights follows the Wikipedia
    # definition, not the SAS, which is 1 -"). pdagree takes agreement weights W, so pass
    # D = 1 - W.
    labels = [1, 2, 3, 4, 5]
    df = _pairs(labels, seed=9, n=150)
    w = FORMULAS[scheme]([float(v) for v in labels])
    theirs = cohens_kappa(_table(df, labels), weights=1.0 - w).kappa
    assert float(df.agree.cohen(weights=w)) == pytest.approx(theirs, abs=1e-12)
    assert float(df.agree.cohen(weights=scheme)) == pytest.approx(theirs, abs=1e-12)


def test_unweighted_cohen_matches_statsmodels_and_sklearn() -> None:
    df = _pairs([0, 1, 2], seed=10, n=90)
    ours = float(df.agree.cohen())
    assert ours == pytest.approx(cohen_kappa_score(df.r1, df.r2), abs=1e-12)
    assert ours == pytest.approx(cohens_kappa(_table(df, [0, 1, 2])).kappa, abs=1e-12)


# --------------------------------------------------------------------------- errors


@pytest.fixture
def three() -> pd.DataFrame:
    return _pairs([1, 2, 3])


def test_wrong_shape(three: pd.DataFrame) -> None:
    with pytest.raises(
        ValueError,
        match=r"`weights` as a matrix must be \(3, 3\), one row and column per category.*"
        r"got shape \(2, 2\)",
    ):
        three.agree.fleiss(weights=np.eye(2))


def test_not_symmetric(three: pd.DataFrame) -> None:
    w = np.eye(3)
    w[0, 1] = 0.5
    message = (
        "`weights` must be symmetric (w[k, l] == w[l, k]); got w[1, 2] = 0.5 and "
        "w[2, 1] = 0.0. The coefficients for more than two raters (Fleiss, Conger, Gwet, "
        "alpha) only see the symmetric part (W + W.T) / 2 of a matrix, so pdagree refuses an "
        "asymmetric one rather than change it silently (R irrCAC accepts it). Pass "
        "(W + W.T) / 2 if the asymmetry is unintended."
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        three.agree.cohen(weights=w)


def test_diagonal_not_one(three: pd.DataFrame) -> None:
    w = gwet_linear([1.0, 2.0, 3.0])
    w[1, 1] = 0.9
    with pytest.raises(ValueError, match=r"`weights` must have 1 on the diagonal"):
        three.agree.gwet(weights=w)


def test_unknown_scheme(three: pd.DataFrame) -> None:
    with pytest.raises(
        ValueError, match=r"`weights` must be one of 'identity', .*'bipolar'.*got 'quadratc'"
    ):
        three.agree.fleiss(weights="quadratc")


def test_non_finite_matrix(three: pd.DataFrame) -> None:
    w = np.eye(3)
    w[0, 2] = w[2, 0] = np.nan
    with pytest.raises(ValueError, match=r"`weights` as a matrix must hold finite numbers"):
        three.agree.fleiss(weights=w)


def test_dataframe_missing_a_category(three: pd.DataFrame) -> None:
    frame = pd.DataFrame(np.eye(2), index=[1, 2], columns=[1, 2])
    with pytest.raises(ValueError, match=r"every category as a row and a column; missing \[3\]"):
        three.agree.fleiss(weights=frame)


def test_ratio_needs_positive_values() -> None:
    df = _pairs([0, 1, 2])
    with pytest.raises(ValueError, match=r"`weights='ratio'` needs positive category values"):
        df.agree.fleiss(weights="ratio")


def test_weights_of_the_wrong_type(three: pd.DataFrame) -> None:
    with pytest.raises(TypeError, match=r"`weights` must be a scheme name, a \(K, K\) array"):
        three.agree.fleiss(weights={"a": 1})
