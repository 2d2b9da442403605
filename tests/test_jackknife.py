"""The jackknife over items of Light's kappa and the annotator bias (#26).

``method="jackknife"`` (the default of ``"auto"`` for both) is Efron's jackknife variance
``(n - 1) / n sum_i (theta_(i) - theta_(.))^2`` with the leave-one-item-out values in closed
form (pdagree._kernels.jackknife). It is checked against the definition itself: the
coefficient recomputed without each item, one at a time.
"""

from __future__ import annotations

import tracemalloc
import warnings
from collections.abc import Callable

import numpy as np
import pandas as pd
import pytest

import pdagree
from pdagree._kernels import jackknife as KJ

FLEISS = pdagree.datasets.load("fleiss1971")
METHODS = ("light", "bias")
#: The tables by cells only, or by cells and by rater pair, left out.
KJ_LIMITS = ("CELL_KEYS", "DENSE_KEYS")


def _frame(rng: np.random.Generator, n_items: int, n_raters: int, k: int, missing: float):
    cells = rng.integers(0, k, size=(n_items, n_raters)).astype(object)
    cells[rng.random(cells.shape) < missing] = None
    return pd.DataFrame(cells, columns=[f"r{j}" for j in range(n_raters)])


def _brute_variance(frame: pd.DataFrame, method: str, ratings: Callable) -> float:
    """The jackknife variance from the coefficient recomputed without each rated item."""
    values = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i in range(len(frame)):
            if frame.iloc[i].notna().sum() == 0:
                continue  # not a rated item: not a unit
            rest = frame.drop(index=frame.index[i])
            try:
                values.append(float(getattr(ratings(rest), method)()))
            except ValueError:  # fewer than two raters left: the coefficient is undefined
                values.append(np.nan)
    theta = np.array(values)
    n = len(theta)
    return float((n - 1) / n * ((theta - theta.mean()) ** 2).sum())


def _jackknife_se(result: pdagree.Coefficient) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pdagree.UndefinedStatisticWarning)
        return float(result.standard_error("jackknife"))


def _small_frames(seed: int, count: int):
    rng = np.random.default_rng(seed)
    made = 0
    while made < count:
        frame = _frame(
            rng,
            int(rng.integers(3, 14)),
            int(rng.integers(2, 6)),
            int(rng.integers(2, 5)),
            float(rng.choice([0.0, 0.25, 0.5])),
        )
        if (frame.notna().sum() > 0).sum() >= 2:  # two raters with ratings
            made += 1
            yield frame


@pytest.mark.parametrize("method", METHODS)
def test_jackknife_equals_leaving_each_item_out(method: str) -> None:
    # Complete and incomplete designs (missing cells), 2 to 5 raters, 2 to 4 categories.
    for frame in _small_frames(26, 60):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", pdagree.UndefinedStatisticWarning)
            result = getattr(frame.agree, method)()
        se = _jackknife_se(result)
        brute = _brute_variance(frame, method, lambda f: f.agree)
        if np.isnan(brute):
            assert np.isnan(se)
        else:
            assert se**2 == pytest.approx(brute, rel=1e-9, abs=1e-12), frame


@pytest.mark.parametrize(("method", "limit"), [(m, x) for m in METHODS for x in KJ_LIMITS])
def test_jackknife_tables_that_only_cover_what_occurs(
    method: str, limit: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Many rater pairs or categories: the corrections are computed for the combinations
    # that occur and the pairs found by search, not tabulated; the same values.
    frames = list(_small_frames(7, 15))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pdagree.UndefinedStatisticWarning)
        results = [getattr(f.agree, method)() for f in frames]
    dense = [_jackknife_se(r) for r in results]
    monkeypatch.setattr(KJ, limit, 0)
    monkeypatch.setattr(KJ, "CHUNK", 8)  # and many chunks of items
    sparse = [_jackknife_se(r) for r in results]
    np.testing.assert_allclose(sparse, dense, rtol=1e-10, atol=1e-14)


def test_auto_and_report_use_the_jackknife() -> None:
    light = FLEISS.agree.light()
    assert light.standard_error() == light.standard_error("jackknife")
    assert FLEISS.agree.bias(confidence_level=0.9).ci_method == "jackknife"
    table = FLEISS.agree.report(confidence_level=0.95)
    assert table.loc["light", "ci_method"] == "jackknife"
    assert table.loc["light", "se"] == pytest.approx(light.standard_error(), rel=1e-12)
    bias = table.attrs["annotator_bias"].loc["bias"]
    assert bias["ci_method"] == "jackknife"
    assert bias["se"] == pytest.approx(FLEISS.agree.bias().standard_error(), rel=1e-12)
    # value +- t(n - 1) SE, as the analytic intervals.
    from scipy import stats

    t = stats.t.ppf(0.975, light.n_items - 1)
    low, high = light.confidence_interval()
    se = light.standard_error()
    assert (low, high) == pytest.approx((light - t * se, light + t * se), rel=1e-12)
    # The bootstrap on request.
    boot = FLEISS.agree.report(confidence_level=0.95, method="bootstrap", n_resamples=50, rng=0)
    assert boot.loc["light", "ci_method"] == "bootstrap"


@pytest.mark.parametrize("method", METHODS)
def test_jackknife_by_groups_equals_a_loop(method: str) -> None:
    rng = np.random.default_rng(5)
    parts = []
    for g in range(5):
        wide = _frame(rng, int(rng.integers(6, 20)), 4, 3, 0.3)
        wide = wide.dropna(how="all")
        long = wide.stack().rename("label").reset_index()
        long.columns = ["item", "rater", "label"]
        if g % 2:  # groups with raters of their own
            long["rater"] = long["rater"] + f"_{g}"
        long["item"] = long["item"].astype(str) + f"_{g}"
        parts.append(long.assign(group=g))
    long = pd.concat(parts, ignore_index=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pdagree.UndefinedStatisticWarning)
        table = getattr(long.agree(item="item", rater="rater", label="label", by="group"), method)(
            confidence_level=0.95
        )
        assert (table["ci_method"] == "jackknife").all()
        for g, sub in long.groupby("group"):
            alone = getattr(sub.agree(item="item", rater="rater", label="label"), method)()
            assert table.loc[g, "se"] == pytest.approx(
                alone.standard_error(), rel=1e-10, nan_ok=True
            )
            assert table.loc[g, "se"] ** 2 == pytest.approx(
                _brute_variance(
                    sub.pivot(index="item", columns="rater", values="label"),
                    method,
                    lambda f: f.agree,
                ),
                rel=1e-9,
            )


def test_two_raters_light_is_cohen_and_its_jackknife_agrees_with_gwet() -> None:
    rng = np.random.default_rng(3)
    n = 3000
    truth = rng.integers(0, 3, n)
    wide = pd.DataFrame(
        {
            rater: np.where(rng.random(n) < accuracy, truth, rng.integers(0, 3, n))
            for rater, accuracy in (("a", 0.7), ("b", 0.6))
        }
    )
    light, cohen = wide.agree.light(), wide.agree.cohen()
    assert float(light) == pytest.approx(float(cohen), rel=1e-12)
    jack = light.standard_error()
    # Gwet's linearised variance and the jackknife estimate the same asymptotic variance of
    # kappa; on 3,000 items their ratio differs from 1 by O(1/n) terms and by the
    # difference of the two estimators (each a first-order approximation), about 1%: 3%
    # leaves room for both and still fails if either were off by a constant factor such
    # as (n - 1) / n or n / (n - 1) of a different sample size, or a missing term.
    assert jack == pytest.approx(cohen.standard_error("analytic"), rel=0.03)
    assert jack == pytest.approx(cohen.standard_error("large-sample"), rel=0.03)
    # On the same two raters' contingency table: the same jackknife, one value per cell.
    table = pd.crosstab(wide["a"], wide["b"])
    on_table = table.agree(layout="contingency").light()
    assert on_table.standard_error() == pytest.approx(jack, rel=1e-10)
    assert float(on_table) == pytest.approx(float(light), rel=1e-12)


@pytest.mark.parametrize("method", METHODS)
def test_jackknife_is_close_to_the_bootstrap(method: str) -> None:
    rng = np.random.default_rng(11)
    n = 800
    truth = rng.integers(0, 4, n)
    cells = np.where(rng.random((n, 5)) < 0.6, truth[:, None], rng.integers(0, 4, (n, 5)))
    # Each rater leans to a category of its own, so that the bias is clearly above 0 (near
    # 0 it is a variance-like statistic at its boundary, where no first-order method holds).
    cells = np.where(rng.random((n, 5)) < 0.15, np.arange(5)[None, :] % 4, cells)
    frame = pd.DataFrame(cells.astype(object)).where(rng.random((n, 5)) >= 0.2)
    result = getattr(frame.agree, method)()
    jack = result.standard_error()
    boot = result.standard_error("bootstrap", n_resamples=4000, rng=2)
    # The bootstrap SE from B = 4000 resamples has a Monte Carlo relative error of about
    # 1 / sqrt(2 B) = 1.1%; the jackknife and the bootstrap estimate the same variance and
    # differ on 800 items by a few percent at most (Efron & Tibshirani 1993, ch. 11: the
    # jackknife is the bootstrap's first-order approximation). 10% is several times both.
    assert jack == pytest.approx(boot, rel=0.10)


def test_undefined_jackknife_is_nan_with_a_warning() -> None:
    # Two raters sharing two items: without either, no pair has two items in common.
    frame = pd.DataFrame({"a": ["x", "y", "x"], "b": ["x", "y", None]})
    light = frame.agree.light()
    with pytest.warns(pdagree.UndefinedStatisticWarning, match=r"jackknife standard error"):
        assert np.isnan(light.standard_error())


def test_finite_population_correction() -> None:
    light = FLEISS.agree.light()
    se, n = light.standard_error(), light.n_items
    assert light.standard_error(N=3 * n) == pytest.approx(se * np.sqrt(1 - 1 / 3), rel=1e-12)


def test_report_intervals_do_not_hold_a_resample_per_item() -> None:
    # report(0.95) bootstrapped Light's kappa and the bias, holding ~7 KB per item (#26):
    # the jackknife keeps the report with intervals near the one without.
    rng = np.random.default_rng(0)
    n = 20_000
    truth = rng.integers(0, 5, n)
    wide = pd.DataFrame(
        {f"r{j}": np.where(rng.random(n) < 0.7, truth, rng.integers(0, 5, n)) for j in range(6)}
    )
    wide.head(50).agree.report(confidence_level=0.95)  # imports and caches before measuring

    def peak(**options: object) -> int:
        ratings = wide.agree()
        tracemalloc.start()
        try:
            ratings.report(**options)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    assert peak(confidence_level=0.95) < 1.5 * peak()


@pytest.mark.parametrize(
    "sizes", [[4, 4, 4], [10] * 7, [1, 1], [0, 0], [3, 0, 5, 2, 1], [2, 6, 6, 6], []]
)
def test_pairs_within_items_of_one_size_or_several(sizes: list[int]) -> None:
    # Every (x, y), x < y, of each item, item by item and x then y ascending: the template
    # for items of one size (complete designs) gives what the general case gives.
    expected, start = [], 0
    for size in sizes:
        expected += [(start + x, start + y) for x in range(size) for y in range(x + 1, size)]
        start += size
    x, y = KJ._within_items(np.array(sizes, dtype=np.int64))
    assert list(zip(x.tolist(), y.tolist(), strict=True)) == expected
    assert x.dtype == y.dtype == np.int64
