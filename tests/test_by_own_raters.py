"""``by=`` groups whose raters are their own (#26): every method equals a loop over the
groups, and memory grows with the (group, rater) pairs that occur, not groups x raters."""

from __future__ import annotations

import tracemalloc
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest

import pdagree
from pdagree import PdagreeWarning


def own_raters(n_groups: int, seed: int, *, sizes: tuple[int, ...] = (2, 3, 4)) -> pd.DataFrame:
    """A long frame of ``n_groups`` groups, each with 2-4 raters of its own (named so that
    their global order differs from their order within the group) rating 5-8 items with
    some annotations missing; one rater ("shared") also rates in every group."""
    rng = np.random.default_rng(seed)
    rows = []
    for g in range(n_groups):
        n_items, n_raters = int(rng.integers(5, 9)), int(rng.choice(sizes))
        raters = [f"r{(7 * g + 3 * j) % 97:02d}_{g}" for j in range(n_raters)]
        if g % 2 == 0:
            raters.append("shared")
        truth = rng.integers(0, 3, n_items)
        for i in range(n_items):
            for r in raters:
                if rng.random() < 0.15:
                    continue
                label = truth[i] if rng.random() < 0.7 else rng.integers(0, 3)
                rows.append((f"g{g}", f"g{g}i{i}", r, "abc"[label]))
    return pd.DataFrame(rows, columns=["group", "item", "rater", "label"])


def ratings(df: pd.DataFrame, **kw: Any) -> pdagree.Ratings:
    return df.agree(item="item", rater="rater", label="label", **kw)


def quietly(f: Callable[[], Any]) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PdagreeWarning)
        return f()


def groups_of(df: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    return [(str(key), sub.drop(columns="group")) for key, sub in df.groupby("group")]


COEFFICIENTS = ["conger", "bias", "light", "fleiss", "alpha", "gwet"]


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("method", COEFFICIENTS)
def test_coefficients_by_own_raters_equal_a_loop(method: str, seed: int) -> None:
    df = own_raters(6, seed)
    before = df.copy()
    grouped = quietly(lambda: getattr(ratings(df, by="group"), method)())
    for key, sub in groups_of(df):
        alone = quietly(lambda sub=sub: getattr(ratings(sub), method)())
        row = grouped.loc[key]
        for member in ("value", "observed", "expected", "n_items", "n_raters"):
            assert row[member] == pytest.approx(getattr(alone, member), rel=1e-12, nan_ok=True)
    pd.testing.assert_frame_equal(df, before)


@pytest.mark.parametrize("seed", [0, 3])
def test_conger_and_cohen_standard_errors_by_own_raters_equal_a_loop(seed: int) -> None:
    df = own_raters(5, seed)
    grouped = quietly(lambda: ratings(df, by="group").conger(confidence_level=0.95))
    two = own_raters(5, seed, sizes=(2,))
    two = two[two["rater"] != "shared"]
    cohen = quietly(lambda: ratings(two, by="group").cohen(confidence_level=0.95))
    for key, sub in groups_of(df):
        alone = quietly(lambda sub=sub: ratings(sub).conger())
        assert grouped.loc[key, "low"] == pytest.approx(alone.confidence_interval().low)
    for key, sub in groups_of(two):
        alone = quietly(lambda sub=sub: ratings(sub).cohen())
        assert cohen.loc[key, "value"] == pytest.approx(float(alone), rel=1e-12)
        assert cohen.loc[key, "high"] == pytest.approx(alone.confidence_interval().high)


@pytest.mark.parametrize("method", ["majority", "one_coin", "dawid_skene", "glad", "mace"])
def test_consensus_by_own_raters_equals_a_loop(method: str) -> None:
    df = own_raters(5, 4)
    grouped = ratings(df, by="group").consensus(method, ties="first")
    for key, sub in groups_of(df):
        alone = ratings(sub).consensus(method, ties="first")
        pd.testing.assert_series_equal(
            grouped.labels.loc[key], alone.labels, check_names=False, check_index_type=False
        )
        got = grouped.probabilities.loc[key][alone.probabilities.columns]
        np.testing.assert_allclose(got.to_numpy(), alone.probabilities.to_numpy(), atol=1e-9)
        quality = grouped.quality.loc[key]
        assert list(quality.index) == list(alone.quality.index)
        np.testing.assert_allclose(quality.to_numpy(), alone.quality.to_numpy(), atol=1e-9)
        if alone.confusion is not None:
            conf = grouped.confusion.loc[key]
            assert list(conf.index) == list(alone.confusion.index)
            np.testing.assert_allclose(conf.to_numpy(), alone.confusion.to_numpy(), atol=1e-9)


@pytest.mark.parametrize("coefficient", ["fleiss", "alpha", "conger"])
def test_per_rater_by_own_raters_equals_a_loop(coefficient: str) -> None:
    df = own_raters(6, 5)
    grouped = quietly(lambda: ratings(df, by="group").per_rater(coefficient))
    for key, sub in groups_of(df):
        alone = quietly(lambda sub=sub: ratings(sub).per_rater(coefficient))
        part = grouped.loc[key]
        assert list(part.index) == list(alone.index)
        np.testing.assert_allclose(
            part.to_numpy(dtype=float), alone.to_numpy(dtype=float), atol=1e-12
        )


def test_breakdowns_and_report_by_own_raters_equal_a_loop() -> None:
    df = own_raters(4, 6)
    r = ratings(df, by="group")
    freq = r.frequencies()
    pairs = quietly(lambda: r.pairwise("cohen"))
    n_common = r.pairwise("n_items")
    report = quietly(r.report)
    raters = sorted(df["rater"].unique())
    for key, sub in groups_of(df):
        alone = ratings(sub)
        pd.testing.assert_frame_equal(freq.loc[key], alone.frequencies(), check_names=False)
        mine = sorted(sub["rater"].unique())
        want = quietly(lambda alone=alone: alone.pairwise("cohen"))
        got = pairs.loc[key].loc[mine, mine]
        np.testing.assert_allclose(got.to_numpy(), want.loc[mine, mine].to_numpy())
        others = [x for x in raters if x not in mine]
        assert pairs.loc[key][others].isna().all().all()
        assert (n_common.loc[key].loc[mine, mine] == alone.pairwise("n_items")).all().all()
        assert (n_common.loc[key][others] == 0).all().all()
        one = quietly(alone.report)
        for name in one.index:
            assert report.loc[(key, name), "value"] == pytest.approx(
                one.loc[name, "value"], rel=1e-12, nan_ok=True
            )
        a, b = mine[0], mine[-1]
        pd.testing.assert_frame_equal(
            r.contingency(a, b).loc[key], alone.contingency(a, b), check_names=False
        )
        pd.testing.assert_frame_equal(
            r.contingency(a, a).loc[key], alone.contingency(a, a), check_names=False
        )
    elsewhere = raters[-1]  # a rater of one group only: zero tables in the others
    table = r.contingency(elsewhere, "shared")
    assert int(table.to_numpy().sum()) == 0 or df.loc[df["rater"] == elsewhere].shape[0] > 0


@pytest.mark.parametrize("average", [None, "macro", "micro"])
def test_against_a_reference_by_own_raters_equals_a_loop(average: str | None) -> None:
    df = own_raters(5, 8)
    gold = (
        df.drop_duplicates("item").set_index("item")["label"].map({"a": "b", "b": "b", "c": "c"})
    )
    got = quietly(lambda: ratings(df, by="group").against(gold, average=average))
    for key, sub in groups_of(df):
        alone = quietly(lambda sub=sub: ratings(sub).against(gold, average=average))
        pd.testing.assert_frame_equal(got.loc[key], alone, check_names=False)
    # the warnings name the raters of the group, not the rater in that position overall
    with pytest.warns(PdagreeWarning, match=r"e\.g\. \[\('g\d', 'r\d+_\d', '[abc]'\)"):
        ratings(df, by="group").against(gold)


def test_two_rater_refusal_names_the_raters_of_the_group() -> None:
    df = own_raters(4, 7, sizes=(3,))
    with pytest.raises(ValueError, match=r"got \d in group 'g\d' \(\['r\d+_\d'"):
        ratings(df, by="group").cohen()


def groups_own_raters(n_groups: int) -> pd.DataFrame:
    """``n_groups`` groups of three raters of their own and two items."""
    g = np.repeat(np.arange(n_groups), 6)
    rng = np.random.default_rng(0)
    return pd.DataFrame(
        {
            "group": g,
            "item": g * 2 + np.tile(np.repeat([0, 1], 3), n_groups),
            "rater": g * 3 + np.tile([0, 1, 2], 2 * n_groups),
            "label": rng.integers(0, 3, 6 * n_groups),
        }
    )


CALLS: dict[str, Callable[[pdagree.Ratings], Any]] = {
    "majority": lambda r: r.consensus("majority", ties="first"),
    "dawid_skene": lambda r: r.consensus("dawid_skene", max_iterations=3),
    "glad": lambda r: r.consensus("glad", max_iterations=3),
    "mace": lambda r: r.consensus("mace", max_iterations=3),
    "per_rater": lambda r: r.per_rater("fleiss"),
    "conger": lambda r: r.conger(),
    "bias": lambda r: r.bias(),
    "light": lambda r: r.light(),
    "report": lambda r: r.report(),
    # the reference labels of every item of groups_own_raters(2000) (items 0-3,999)
    "against": lambda r: r.against(pd.Series(np.arange(4000) % 3, index=np.arange(4000))),
}


@pytest.mark.parametrize("method", list(CALLS))
def test_memory_grows_with_the_pairs_that_occur_not_groups_times_raters(method: str) -> None:
    # 2,000 groups x 3 raters of their own: 12,000 annotations, 6,000 raters. Tables over
    # every (group, rater) were 12 million cells (hundreds of MiB to GiB); the pairs that
    # occur are 6,000.
    df = groups_own_raters(2000)
    r = ratings(df, by="group")
    quietly(lambda: CALLS[method](ratings(groups_own_raters(5), by="group")))  # imports
    tracemalloc.start()
    try:
        quietly(lambda: CALLS[method](r))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 48 * 2**20, f"{method}: {peak / 2**20:.0f} MiB"


def test_several_by_columns_label_the_annotators_of_each_group() -> None:
    df = own_raters(4, 8)
    df["half"] = np.where(df["item"].str[-1].astype(int) % 2 == 0, "even", "odd")
    two = ratings(df, by=["group", "half"])
    quality = two.consensus("majority", ties="first").quality
    per = quietly(lambda: two.per_rater("fleiss"))
    assert list(quality.index.names) == ["group", "half", "rater"] == list(per.index.names)
    for (key, half), sub in df.groupby(["group", "half"]):
        alone = ratings(sub.drop(columns=["group", "half"])).consensus("majority", ties="first")
        got = quality.loc[(key, half)]
        assert list(got.index) == list(alone.quality.index)
        np.testing.assert_allclose(got.to_numpy(), alone.quality.to_numpy(), atol=1e-12)
        assert list(per.loc[(key, half)].index) == sorted(sub["rater"].unique())


@pytest.mark.parametrize("method", ["dawid_skene", "mace"])
def test_one_large_group_does_not_pad_the_consensus_keys(method: str) -> None:
    # 2,000 groups of 3 raters and one of 500: the (group, rater) pairs that occur are
    # 6,500; padding every group to 500 raters would make a million keys.
    small = groups_own_raters(2000)
    n = 500
    large = pd.DataFrame(
        {
            "group": -1,
            "item": np.repeat([-1, -2], n),
            "rater": np.tile(10**6 + np.arange(n), 2),
            "label": np.random.default_rng(1).integers(0, 3, 2 * n),
        }
    )
    r = ratings(pd.concat([large, small], ignore_index=True), by="group")
    quietly(lambda: CALLS[method](ratings(groups_own_raters(5), by="group")))
    tracemalloc.start()
    try:
        fit = quietly(lambda: CALLS[method](r))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(fit.quality) == 6500
    assert peak < 48 * 2**20, f"{method}: {peak / 2**20:.0f} MiB"


def test_pairwise_refuses_a_table_too_large_to_hold_before_allocating(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 10,000 groups x 30,000 raters of their own: the (group, rater) x rater table was a raw
    # MemoryError for 65.5 TiB; the report page built on it failed the same way.
    df = groups_own_raters(10_000)
    r = ratings(df, by="group")
    tracemalloc.start()
    try:
        with pytest.raises(ValueError) as caught:
            r.pairwise("n_items")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20, peak
    message = str(caught.value)
    assert "10,000 `by=` groups x 30,000 x 30,000 raters = 9,000,000,000,000 cells" in message
    assert "(67,055.2 GiB), above the bound of 134,217,728" in message
    # the bound is on the cells: 3 groups x 9 raters x 9 raters = 243 (3 of their own each)
    small = ratings(groups_own_raters(3), by="group")
    monkeypatch.setattr("pdagree.definitions.breakdowns.MAX_PAIRWISE_CELLS", 243)
    assert small.pairwise("n_items").shape == (27, 9)
    monkeypatch.setattr("pdagree.definitions.breakdowns.MAX_PAIRWISE_CELLS", 242)
    with pytest.raises(ValueError, match=r"3 `by=` groups x 9 x 9 raters = 243 cells"):
        small.pairwise()
    whole = ratings(groups_own_raters(3))  # no by=: one 9 x 9 table
    assert whole.pairwise("n_items").shape == (9, 9)
    monkeypatch.setattr("pdagree.definitions.breakdowns.MAX_PAIRWISE_CELLS", 80)
    with pytest.raises(ValueError, match=r"table \(with .*\): 9 x 9 raters = 81 cells"):
        whole.pairwise()


def test_continuous_scores_in_many_groups_are_refused_with_the_numeric_methods_named() -> None:
    # 20,000 groups x 3 raters x 2 items of distinct floats: 120,000 categories, so every
    # (group, category) table is 2.4e9 cells (fleiss, alpha, per_category, frequencies and
    # the report page asked for 18-1,300 GiB: raw MemoryErrors). Refused before allocating,
    # naming the methods that read the scores as numbers, which work.
    n = 20_000
    df = groups_own_raters(n).assign(
        label=np.random.default_rng(0).normal(size=6 * n).round(9) + np.arange(6 * n)
    )
    r = ratings(df, by="group")
    message = (
        r"the ratings have 120,000 distinct values in 20,000 `by=` groups: counting them per "
        r"group needs a table of (2,4|7,2)00,000,000 cells"  # (G, K), or (G, 3 raters, K)
    )
    tracemalloc.start()
    try:
        for call in (r.fleiss, r.alpha, r.per_category, r.frequencies, r.conger):
            with pytest.raises(ValueError, match=message):
                call()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2**20, peak
    assert len(quietly(r.icc)) == n and len(quietly(r.kendall_w)) == n


def test_the_report_page_of_such_scores_shows_the_refusals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    df = groups_own_raters(4).assign(label=np.arange(24) * 0.5)
    monkeypatch.setattr("pdagree.tensors.data.MAX_GROUP_CATEGORY_CELLS", 4 * 24 - 1)
    html = quietly(lambda: ratings(df, by="group").to_html())
    assert "24 distinct values in 4 `by=` groups" in html
    assert "intraclass correlation" in html  # the ICC table of the numeric ratings


def test_pairwise_concordance_refuses_a_table_too_large_to_hold() -> None:
    # Lin's concordance of every pair with by=: (groups, raters, raters) over all raters,
    # 63.9 PiB for 10^5 groups of 3 raters of their own (a raw MemoryError).
    n = 10_000
    df = groups_own_raters(n).assign(label=np.random.default_rng(0).normal(size=6 * n))
    with pytest.raises(ValueError, match=r"10,000 `by=` groups x 30,000 x 30,000 raters"):
        ratings(df, by="group").pairwise("concordance")
    small = groups_own_raters(3).assign(label=np.arange(18) % 5 * 1.5)
    assert ratings(small, by="group").pairwise("concordance").shape == (27, 9)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_interval_alpha_of_groups_with_values_of_their_own_equals_a_loop(seed: int) -> None:
    # Continuous scores by model (LLM judges): each group's categories are its own values, and
    # interval alpha was computed one set of categories at a time (10 groups x 20,000 items x
    # 5 judges: 10.9 s, against 0.02 s for one group). Its moment sums do not see unused
    # categories, so every group is computed at once: the same frame as a loop.
    rng = np.random.default_rng(seed)
    parts = []
    for g in range(4):
        n_items = int(rng.integers(3, 9))
        x = rng.normal(size=(n_items, 1)) + rng.normal(size=(n_items, 3)) * rng.uniform(0.1, 2)
        x = np.round(x * 10**g, int(rng.integers(0, 4)))  # scales and ties differ per group
        keep = rng.random(x.shape) < 0.85
        item, rater = np.nonzero(keep)
        parts.append(
            pd.DataFrame({"group": f"m{g}", "item": item, "rater": rater, "label": x[keep]})
        )
    df = pd.concat(parts, ignore_index=True)
    got = quietly(lambda: ratings(df, by="group").alpha(level="interval"))
    for key, sub in df.groupby("group"):
        alone = quietly(lambda sub=sub: ratings(sub.drop(columns="group")).alpha(level="interval"))
        row = got.loc[key]
        assert row["value"] == pytest.approx(float(alone), rel=1e-12, abs=1e-15, nan_ok=True)
        for name in ("observed", "expected", "n_items", "n_raters", "n_categories"):
            assert row[name] == pytest.approx(getattr(alone, name), rel=1e-12, nan_ok=True)
        assert row["max_delta2"] == pytest.approx(alone.max_delta2, rel=1e-12)


@pytest.mark.parametrize("by", [None, ["group"], ["group", "half"]])
def test_confusion_rows_are_each_annotator_with_each_true_category(by: list[str] | None) -> None:
    # The confusion frame's index is built from codes (#26: no label hashed again); its rows
    # are the quality rows' annotators, each with every true category, named as before.
    df = own_raters(4, 8)
    df["half"] = np.where(df["item"].str[-1].astype(int) % 2 == 0, "even", "odd")
    if by is None:
        df = df[df["group"] == df["group"].iloc[0]].drop(columns="group")
    r = ratings(df.drop(columns="half") if by is None else df, by=by)
    c = r.consensus("mace", ties="first")
    cats = list(c.probabilities.columns)
    annotators = c.quality.index
    want = pd.MultiIndex.from_tuples(
        [(*(a if isinstance(a, tuple) else (a,)), k) for a in annotators for k in cats],
        names=[*annotators.names, "true"],
    )
    assert c.confusion.index.equals(want) and list(c.confusion.index.names) == list(want.names)
    assert c.confusion.loc[annotators[0]].index.tolist() == cats
