"""Cronbach's alpha, Lin's concordance and Bland & Altman's limits of agreement (#28): against
pingouin, R DescTools' printed values, the formulas written out on hand data, and a loop over
``by=`` groups."""

from __future__ import annotations

import io
import math
import pickle
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from peers import peer

import pdagree
from pdagree import UndefinedStatisticWarning


def _scores(seed: int, n: int = 40, k: int = 4, holes: float = 0.0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(
        rng.normal(size=(n, k)) + rng.normal(size=(n, 1)) * 1.5 + np.arange(k) * 0.3,
        columns=[f"r{j}" for j in range(k)],
    )
    if holes:
        mask = rng.random(frame.shape) < holes
        mask[:, 0] &= ~mask[:, 1:].all(axis=1)  # every item keeps a rating
        frame = frame.mask(mask)
    return frame


# --------------------------------------------------------------------------- Cronbach


def _cronbach_formula(frame: pd.DataFrame) -> float:
    """Cronbach (1951) on complete items: k / (k - 1) (1 - sum var_j / var_total)."""
    x = frame.dropna().to_numpy()
    k = x.shape[1]
    return k / (k - 1) * (1 - x.var(axis=0, ddof=1).sum() / x.sum(axis=1).var(ddof=1))


@pytest.mark.parametrize("seed", range(6))
def test_cronbach_equals_pingouin(seed: int) -> None:
    pg = peer("pingouin")
    frame = _scores(seed, k=3 + seed % 3)
    alpha = frame.agree.cronbach_alpha(confidence_level=0.95)
    value, (low, high) = pg.cronbach_alpha(frame, ci=0.95)
    assert float(alpha) == pytest.approx(value, rel=1e-12)
    assert float(alpha) == pytest.approx(_cronbach_formula(frame), rel=1e-12)
    # pingouin rounds its interval to three decimals
    assert (round(alpha.low, 3), round(alpha.high, 3)) == (low, high)
    assert alpha.confidence_interval(0.95) == pytest.approx((alpha.low, alpha.high))


@pytest.mark.parametrize("seed", range(6))
def test_cronbach_missing_omit_and_pairwise_equal_pingouin(seed: int) -> None:
    pg = peer("pingouin")
    frame = _scores(seed, n=50, k=4, holes=0.1)
    with pytest.warns(pdagree.PdagreeWarning, match="dropped"):
        omit = frame.agree.cronbach_alpha(confidence_level=0.9)
    value, _ = pg.cronbach_alpha(frame, nan_policy="listwise", ci=0.9)
    assert float(omit) == pytest.approx(value, rel=1e-12)
    # Feldt's interval counts the items the alpha is computed on, the complete ones: pingouin
    # 0.7's listwise interval counts every row (n is read before its dropna), so compare with
    # pingouin on the complete rows, which gives the same alpha and Feldt's n.
    value, (low, high) = pg.cronbach_alpha(frame.dropna(), ci=0.9)
    assert float(omit) == pytest.approx(value, rel=1e-12)
    assert (round(omit.low, 3), round(omit.high, 3)) == (low, high)
    assert omit.n_items == len(frame.dropna())
    assert omit.n_dropped == len(frame) - len(frame.dropna())
    pairwise = frame.agree.cronbach_alpha(missing="pairwise", confidence_level=0.9)
    value, (low, high) = pg.cronbach_alpha(frame, nan_policy="pairwise", ci=0.9)
    assert float(pairwise) == pytest.approx(value, rel=1e-12)
    assert (round(pairwise.low, 3), round(pairwise.high, 3)) == (low, high)


def test_cronbach_long_layout_and_by_equal_a_loop() -> None:
    frames = [_scores(seed, n=20 + seed, k=3 + seed % 2, holes=0.15) for seed in range(4)]
    long = pd.concat(
        [
            f.rename_axis("item").reset_index().melt("item", var_name="rater").assign(g=g)
            for g, f in enumerate(frames)
        ]
    ).dropna()
    long["item"] = long["g"].astype(str) + "-" + long["item"].astype(str)
    for missing in ("omit", "pairwise"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", pdagree.PdagreeWarning)
            table = long.agree(item="item", rater="rater", label="value", by="g").cronbach_alpha(
                missing=missing, confidence_level=0.95
            )
            for g, frame in enumerate(frames):
                one = frame.agree.cronbach_alpha(missing=missing, confidence_level=0.95)
                assert table.loc[g, "value"] == pytest.approx(float(one), rel=1e-12)
                assert table.loc[g, "low"] == pytest.approx(one.low, rel=1e-12)
                assert table.loc[g, "n_items"] == one.n_items


def test_cronbach_offset_and_scale_invariant() -> None:
    frame = (_scores(3) * 10).round()  # whole numbers: an offset of 1e12 keeps them exact
    base = float(frame.agree.cronbach_alpha())
    assert float((frame + 1e12).agree.cronbach_alpha()) == pytest.approx(base, rel=1e-12)
    assert float((frame * 1e-150).agree.cronbach_alpha()) == pytest.approx(base, rel=1e-12)
    assert float((frame * 2.0**600).agree.cronbach_alpha()) == base


def test_cronbach_undefined_and_bad_input() -> None:
    with pytest.warns(UndefinedStatisticWarning, match="cronbach_alpha"):
        assert math.isnan(pd.DataFrame({"a": [1, 1, 1], "b": [2, 2, 2]}).agree.cronbach_alpha())
    one_item = pd.DataFrame({"a": [1.0], "b": [2.0], "c": [4.0]})
    with pytest.warns(UndefinedStatisticWarning):
        assert math.isnan(one_item.agree.cronbach_alpha())
    with pytest.raises(ValueError, match="`missing` must be 'omit' or 'pairwise'; got 'all'"):
        _scores(0).agree.cronbach_alpha(missing="all")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="needs numeric ratings"):
        pd.DataFrame({"a": ["x", "y"], "b": ["x", "x"]}).agree.cronbach_alpha()
    with pytest.raises(ValueError, match="confidence_level"):
        _scores(0).agree.cronbach_alpha(confidence_level=95)


def test_cronbach_result_is_an_immutable_float_that_pickles_small() -> None:
    alpha = _scores(1, n=20_000).agree.cronbach_alpha(confidence_level=0.95)
    assert isinstance(alpha, float)
    with pytest.raises(AttributeError, match="immutable"):
        alpha.n_items = 3  # type: ignore[misc]
    data = pickle.dumps(alpha)
    assert len(data) < 1024
    back = pickle.loads(data)
    assert float(back) == float(alpha) and back.low == alpha.low and back.n_items == 20_000
    assert back.confidence_interval(0.9) == alpha.confidence_interval(0.9)
    assert list(alpha.to_frame().columns[:3]) == ["value", "n_items", "n_raters"]


# --------------------------------------------------------------------------- concordance

N = 20
X1 = [math.sin(1.1 * i) + 0.1 * i for i in range(N)]
X2 = [math.cos(0.7 * i) for i in range(N)]
Y = [
    1 + 0.5 * a - 0.3 * b + 0.2 * math.sin(3.3 * i)
    for i, (a, b) in enumerate(zip(X1, X2, strict=True))
]


def test_concordance_equals_desctools() -> None:
    # R DescTools::CCC(x, y, ci = "z-transform", conf.level = 0.95) on these x and y:
    # rho.c est 0.59824339226692769, lwr.ci 0.38254267739764947, upr.ci 0.75210290764044829.
    ccc = pd.DataFrame({"x": X1, "y": Y}).agree.concordance(confidence_level=0.95)
    assert float(ccc) == pytest.approx(0.59824339226692769, rel=1e-13)
    assert ccc.low == pytest.approx(0.38254267739764947, rel=1e-12)
    assert ccc.high == pytest.approx(0.75210290764044829, rel=1e-12)
    assert ccc.raters == ("x", "y") and ccc.n_items == N


def _lin(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """Lin (1989) written out: rho_c, r and C_b with divisor n."""
    mx, my = x.mean(), y.mean()
    sxx, syy = ((x - mx) ** 2).mean(), ((y - my) ** 2).mean()
    sxy = ((x - mx) * (y - my)).mean()
    rho = 2 * sxy / (sxx + syy + (mx - my) ** 2)
    r = sxy / math.sqrt(sxx * syy)
    return rho, r, (rho / r if r != 0 else math.nan)  # C_b is undefined where r is 0


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(-50, 50), st.integers(-50, 50)), min_size=4, max_size=30
    ).filter(lambda p: len({a for a, _ in p}) > 1 and len({b for _, b in p}) > 1)
)
def test_concordance_equals_the_formula(pairs: list[tuple[int, int]]) -> None:
    x, y = (np.array(v, dtype=float) for v in zip(*pairs, strict=True))
    ccc = pd.DataFrame({"a": x, "b": y}).agree.concordance()
    rho, r, accuracy = _lin(x, y)
    assert float(ccc) == pytest.approx(rho, rel=1e-9, abs=1e-12)
    assert ccc.pearson == pytest.approx(r, rel=1e-9, abs=1e-12)
    assert ccc.accuracy == pytest.approx(accuracy, rel=1e-9, abs=1e-12, nan_ok=True)
    swapped = pd.DataFrame({"b": y, "a": x}).agree.concordance()
    assert float(swapped) == pytest.approx(float(ccc), rel=1e-12, abs=1e-15)


def test_concordance_by_equals_a_loop_and_gaps() -> None:
    rng = np.random.default_rng(5)
    frame = pd.DataFrame({"a": rng.normal(size=60), "g": np.repeat(["p", "q", "r"], 20)}).assign(
        b=lambda f: f["a"] * 0.8 + rng.normal(size=60) * 0.4 + 0.2
    )
    frame.loc[[3, 25, 41], "b"] = np.nan  # items rated by one rater only are left out
    table = frame.agree(raters=["a", "b"], by="g").concordance(confidence_level=0.9)
    for g, part in frame.groupby("g"):
        one = part[["a", "b"]].agree.concordance(confidence_level=0.9)
        assert table.loc[g, "value"] == pytest.approx(float(one), rel=1e-12)
        assert table.loc[g, "high"] == pytest.approx(one.high, rel=1e-12)
        assert table.loc[g, "n_items"] == part[["a", "b"]].dropna().shape[0]


def test_concordance_refuses_other_than_two_raters() -> None:
    with pytest.raises(ValueError, match="compares two raters; the data have 3"):
        _scores(0, k=3).agree.concordance()
    with pytest.warns(UndefinedStatisticWarning, match="concordance"):
        assert math.isnan(pd.DataFrame({"a": [1, 1, 1], "b": [1, 1, 1]}).agree.concordance())
    # two constant raters who differ: no covariance, a squared shift of 1: rho_c = 0
    assert float(pd.DataFrame({"a": [1, 1, 1], "b": [2, 2, 2]}).agree.concordance()) == 0.0


# --------------------------------------------------------------------------- Bland-Altman


def test_bland_altman_equals_the_formulas() -> None:
    from scipy import stats

    frame = _scores(2, n=25, k=2, holes=0.1)
    ba = frame.agree.bland_altman("r0", "r1", confidence_level=0.9)
    both = frame.dropna()
    d = (both["r0"] - both["r1"]).to_numpy()
    n, bias, sd = len(d), d.mean(), d.std(ddof=1)
    t = stats.t.ppf(0.95, n - 1)
    assert (ba.n_items, ba.bias, ba.sd) == (n, pytest.approx(bias), pytest.approx(sd))
    assert ba.lower == pytest.approx(bias - 1.96 * sd) and ba.upper == pytest.approx(
        bias + 1.96 * sd
    )
    assert ba.bias_low == pytest.approx(bias - t * sd / math.sqrt(n))
    assert ba.upper_high == pytest.approx(bias + 1.96 * sd + t * math.sqrt(3 * sd**2 / n))
    assert ba.lower_low == pytest.approx(bias - 1.96 * sd - t * math.sqrt(3 * sd**2 / n))
    np.testing.assert_allclose(ba.differences, d)
    np.testing.assert_allclose(ba.means, (both["r0"] + both["r1"]).to_numpy() / 2)


def test_bland_altman_lines_equal_pingouins_plot() -> None:
    pg = peer("pingouin")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    frame = _scores(4, n=30, k=2)
    ba = frame.agree.bland_altman("r0", "r1")
    ax = pg.plot_blandaltman(frame["r0"], frame["r1"])
    # pingouin 0.7 draws the zero line, then the bias and the two limits
    levels = [float(line.get_ydata()[0]) for line in ax.get_lines()[1:]]
    plt.close("all")
    assert levels == pytest.approx([ba.bias, ba.upper, ba.lower], rel=1e-12)


def test_bland_altman_by_and_bad_raters() -> None:
    frame = _scores(6, n=40, k=2).assign(g=np.repeat([1, 2], 20))
    table = frame.agree(raters=["r0", "r1"], by="g").bland_altman("r0", "r1")
    for g, part in frame.groupby("g"):
        one = part[["r0", "r1"]].agree.bland_altman("r0", "r1")
        assert table.loc[g, "bias"] == pytest.approx(one.bias, rel=1e-12)
        assert table.loc[g, "upper_high"] == pytest.approx(one.upper_high, rel=1e-12)
    with pytest.raises(ValueError, match="`rater_b` names rater 'r9', which is not in the data"):
        frame[["r0", "r1"]].agree.bland_altman("r0", "r9")
    with pytest.raises(ValueError, match="the same rater"):
        frame[["r0", "r1"]].agree.bland_altman("r0", "r0")
    with pytest.raises(ValueError, match="`agreement` must be a positive number"):
        frame[["r0", "r1"]].agree.bland_altman("r0", "r1", agreement=-1.0)


def test_bland_altman_plot(tmp_path: object) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from pdagree import plotting

    ba = _scores(7, n=30, k=2).agree.bland_altman("r0", "r1")
    ax = plotting.bland_altman(ba)
    assert len(ax.collections[0].get_offsets()) == 30
    levels = [line.get_ydata()[0] for line in ax.get_lines()]
    assert levels == pytest.approx([ba.bias, ba.lower, ba.upper])
    assert ax.get_ylabel() == "r0 - r1"
    path = f"{tmp_path}/bland_altman.png"
    ax.figure.savefig(path)
    plt.close("all")
    with pytest.raises(TypeError, match=r"must be what `Ratings\.bland_altman"):
        plotting.bland_altman(pd.DataFrame())


# --------------------------------------------------------------------------- command line


def test_cli_cronbach_and_concordance(
    capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    from pdagree.cli import main

    frame = _scores(8, n=12, k=3).round(2).rename_axis("item")
    path = f"{tmp_path}/judges.csv"
    frame.to_csv(path)
    assert main(["cronbach", path, "--format", "csv", "--confidence-level", "0.9"]) == 0
    table = pd.read_csv(io.StringIO(capsys.readouterr().out), index_col=0)
    alpha = frame.agree.cronbach_alpha(confidence_level=0.9)
    assert table.loc["cronbach_alpha", "value"] == pytest.approx(float(alpha), rel=1e-12)
    assert table.loc["cronbach_alpha", "low"] == pytest.approx(alpha.low, rel=1e-12)
    assert main(["concordance", path, "--raters", "r0,r2", "--format", "csv"]) == 0
    table = pd.read_csv(io.StringIO(capsys.readouterr().out), index_col=0)
    ccc = frame[["r0", "r2"]].agree.concordance()
    assert table.loc["concordance", "value"] == pytest.approx(float(ccc), rel=1e-12)
    assert main(["concordance", path]) == 2
    assert "Select two of them with `--raters`" in capsys.readouterr().err


def test_pairwise_concordance_equals_each_pair() -> None:
    frame = _scores(9, n=30, k=4, holes=0.1)
    table = frame.agree.pairwise("concordance")
    for a in frame.columns:
        for b in frame.columns:
            if a == b:
                assert table.loc[a, b] == 1.0
                continue
            pair = frame[[a, b]].dropna()
            expected = float(pair.agree.concordance())
            assert table.loc[a, b] == pytest.approx(expected, rel=1e-12)
    grouped = frame.assign(g=np.repeat(["p", "q"], 15))
    by = grouped.agree(by="g").pairwise("concordance")
    for g, part in grouped.groupby("g"):
        expected = part.drop(columns="g").agree.pairwise("concordance")
        np.testing.assert_allclose(by.loc[g].to_numpy(), expected.to_numpy(), rtol=1e-12)
    with pytest.raises(TypeError, match="`weights` do not apply"):
        frame.agree.pairwise("concordance", weights="quadratic")
