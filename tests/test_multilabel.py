"""Rosenberg & Binkowski (2004)'s kappa for primary and secondary labels (issue 10).

Hand-computed cases for every pair type of the paper, a brute-force reference (dense
annotation matrices and a loop over pairs, written from the issue's formulas) on random
frames, the reduction to Cohen's kappa, symmetry and invariances, ``by=``, the bootstrap, the
sweep, the item classes and the per-label agreement.
"""

from __future__ import annotations

import itertools
import re
import warnings
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import pdagree
import pdagree.multilabel
from pdagree import resampling
from pdagree.tensors import RatingData

SETTINGS = settings(max_examples=40, deadline=None)
LABELS = ("a", "b", "c", "d")
F = Fraction


def quiet(fn: Any, *args: Any, **kwargs: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pdagree.UndefinedStatisticWarning)
        return fn(*args, **kwargs)


def cells(cells_a: list[Any], cells_b: list[Any]) -> pd.DataFrame:
    return pd.DataFrame({"A": cells_a, "B": cells_b}, dtype=object)


# ------------------------------------------------------------------ reference (brute force)


def matrix(cell: Any, labels: list[Any], p: float) -> np.ndarray | None:
    """One row of an annotation matrix M: 1 for a single label, p and 1 - p for a primary
    and a secondary; None for no annotation."""
    if cell is None or (not isinstance(cell, tuple) and pd.isna(cell)):
        return None
    row = np.zeros(len(labels))
    if isinstance(cell, tuple) and len(cell) == 2:
        row[labels.index(cell[0])] = p
        row[labels.index(cell[1])] = 1 - p
    else:
        label = cell[0] if isinstance(cell, tuple) else cell
        row[labels.index(label)] = 1.0
    return row


def reference(wide: pd.DataFrame, p: float) -> tuple[float, float, float, dict[Any, float]]:
    """The issue's formulas, literally: the mean kappa over the pairs with one (pairs sharing
    at least two items), the mean p(A) and p(E) over the pairs that share an item, and the
    pairs' kappas."""
    labels = sorted(
        {
            x
            for c in wide.to_numpy().ravel()
            if c is not None
            for x in (c if isinstance(c, tuple) else (c,))
        }
    )
    kappas, observed, expected, pairs = [], [], [], {}
    for a, b in itertools.combinations(wide.columns, 2):
        rows = [
            (matrix(x, labels, p), matrix(y, labels, p))
            for x, y in zip(wide[a], wide[b], strict=True)
        ]
        common = [(x, y) for x, y in rows if x is not None and y is not None]
        if not common:
            continue
        m_a = np.array([x for x, _ in common])
        m_b = np.array([y for _, y in common])
        n = len(common)
        p_a = (m_a * m_b).sum() / n
        p_e = float((m_a.sum(axis=0) / n) @ (m_b.sum(axis=0) / n))
        observed.append(p_a)  # every pair that shares an item
        expected.append(p_e)
        if abs(1.0 - p_e) <= 1e-12 or n < 2:  # kappa undefined: not in the mean
            continue  # (one shared item: no kappa, as pairwise() and light(); issue 17)
        kappa = (p_a - p_e) / (1 - p_e)
        kappas.append(kappa)
        pairs[(a, b)] = kappa
    mean = lambda x: float(np.mean(x)) if x else np.nan  # noqa: E731
    return mean(kappas), mean(observed), mean(expected), pairs


@st.composite
def ranked_frames(
    draw: st.DrawFn, min_raters: int = 2, max_raters: int = 4, complete: bool = False
) -> pd.DataFrame:
    n_items = draw(st.integers(1, 8))
    n_raters = draw(st.integers(min_raters, max_raters))
    n_labels = draw(st.integers(1, len(LABELS)))
    label = st.sampled_from(LABELS[:n_labels])
    pair = st.tuples(label, label).filter(lambda t: t[0] != t[1])
    cell = st.one_of(label, pair) if complete else st.one_of(st.none(), label, pair)
    rows = draw(
        st.lists(
            st.lists(cell, min_size=n_raters, max_size=n_raters),
            min_size=n_items,
            max_size=n_items,
        )
    )
    frame = pd.DataFrame(
        rows,
        columns=[f"r{j}" for j in range(n_raters)],
        index=pd.Index([f"i{i}" for i in range(n_items)], name="item"),
        dtype=object,
    )
    assume(int(frame.notna().any().sum()) >= 2)
    return frame


def to_long(wide: pd.DataFrame) -> pd.DataFrame:
    """One row per label with its rank, written without pdagree."""
    rows = []
    for item, row in wide.iterrows():
        for rater, cell in row.items():
            if cell is None:
                continue
            labels = cell if isinstance(cell, tuple) else (cell,)
            for rank, label in enumerate(labels, start=1):
                rows.append({"item": item, "rater": rater, "label": label, "rank": rank})
    return pd.DataFrame(rows)


@SETTINGS
@given(wide=ranked_frames(), p=st.sampled_from([0.5, 0.6, 0.75, 0.9, 1.0]))
def test_equals_reference(wide: pd.DataFrame, p: float) -> None:
    value, observed, expected, pairs = reference(wide, p)
    result = quiet(wide.agree.multilabel, p=p)
    np.testing.assert_allclose(
        [float(result), result.observed, result.expected],
        [value, observed, expected],
        rtol=1e-12,
        atol=1e-12,
        equal_nan=True,
    )
    assert result.n_pairs == len(pairs)
    for (a, b), kappa in pairs.items():  # the pairwise table, both ways round
        assert result.pairwise.loc[a, b] == pytest.approx(kappa, abs=1e-12)
        assert result.pairwise.loc[b, a] == pytest.approx(kappa, abs=1e-12)
    assert np.isnan(np.diag(result.pairwise.to_numpy())).all()
    # The long frame with rank= is the same data.
    long = to_long(wide)
    assume(long["rater"].nunique() >= 2)
    from_long = quiet(
        long.agree(item="item", rater="rater", label="label", rank="rank").multilabel, p=p
    )
    np.testing.assert_allclose(
        [float(from_long), from_long.observed, from_long.expected],
        [float(result), result.observed, result.expected],
        rtol=1e-12,
        atol=1e-12,
        equal_nan=True,
    )


# ------------------------------------------------------------------ the paper's pair types

# Item 1 holds the pair type; items 2 ({x, x}) and 3 ({y, x}) use other labels. With
# s = sum_y Ag[1, y] the agreement on item 1: sum(Ag) = s + 1, so p(A) = (s + 1) / 3; the
# column sums give Freq_A = {item 1's labels, x: 1, y: 1} / 3 and Freq_B = {item 1's labels,
# x: 2} / 3, so p(E) = (s + 2) / 9 (item 1's labels meet only on item 1, adding s).
P = F(3, 4)
PAIR_TYPES = {
    "{a,a}": ("a", "a", F(1)),
    "{a,b}": ("a", "b", F(0)),
    "{ab,a}": (("a", "b"), "a", P),
    "{ab,b}": (("a", "b"), "b", 1 - P),
    "{ab,c}": (("a", "b"), "c", F(0)),
    "{ab,ab}": (("a", "b"), ("a", "b"), P * P + (1 - P) * (1 - P)),
    "{ab,ba}": (("a", "b"), ("b", "a"), 2 * P * (1 - P)),
    "{ab,ac}": (("a", "b"), ("a", "c"), P * P),
    "{ab,bc}": (("a", "b"), ("b", "c"), P * (1 - P)),
    "{ab,cd}": (("a", "b"), ("c", "d"), F(0)),
}


@pytest.mark.parametrize("kind", list(PAIR_TYPES))
def test_pair_types_by_hand(kind: str) -> None:
    first, second, s = PAIR_TYPES[kind]
    wide = cells([first, "x", "y"], [second, "x", "x"])
    p_a, p_e = (s + 1) / 3, (s + 2) / 9
    kappa = (p_a - p_e) / (1 - p_e)
    result = wide.agree.multilabel(p=0.75)
    assert float(result) == pytest.approx(float(kappa), abs=1e-12)
    assert result.observed == pytest.approx(float(p_a), abs=1e-12)
    assert result.expected == pytest.approx(float(p_e), abs=1e-12)
    # Item 1's kappa: its own agreement against the pair's chance agreement.
    items = wide.agree.multilabel_items(ps=[0.5, 0.75])
    assert items.kappa.loc[0, 0.75] == pytest.approx(float((s - p_e) / (1 - p_e)), abs=1e-12)


def test_worked_example_two_annotators() -> None:
    # p = 0.6 (the paper's Table 2 uses 0.6). M_A rows: {a .6, b .4}, {a 1}, {b .6, a .4},
    # {c 1}; M_B rows: {a 1}, {a .6, c .4}, {b 1}, {c 1}. Ag per item: .6, .6, .6, 1, so
    # p(A) = 2.8 / 4 = .7. Column sums A: a 2.0, b 1.0, c 1; B: a 1.6, b 1, c 1.4; p(E) =
    # (3.2 + 1 + 1.4) / 16 = .35; kappa = .35 / .65 = 7 / 13.
    wide = cells([("a", "b"), "a", ("b", "a"), "c"], ["a", ("a", "c"), "b", "c"])
    result = wide.agree.multilabel(p=0.6)
    assert float(result) == pytest.approx(7 / 13, abs=1e-12)
    assert (result.observed, result.expected) == pytest.approx((0.7, 0.35), abs=1e-12)
    assert (result.n_items, result.n_raters, result.n_pairs, result.p) == (4, 2, 1, 0.6)
    assert result.name == "multilabel[p=0.6]"
    items = wide.agree.multilabel_items(ps=[0.6, 1.0]).kappa[0.6]
    assert items.tolist() == pytest.approx([0.25 / 0.65, 0.25 / 0.65, 0.25 / 0.65, 1.0])


def test_worked_example_three_annotators() -> None:
    # The two of the example above and C: {b 1}, {a 1}, {a .6, b .4}, {c .6, a .4}.
    # A-C: Ag = .4 + 1 + (.24 + .24) + .6 = 2.48, p(A) = .62; C's column sums a 2.0, b 1.4,
    # c .6, p(E) = (4 + 1.4 + .6) / 16 = .375, kappa = .245 / .625 = .392.
    # B-C: Ag = 0 + .6 + .4 + .6 = 1.6, p(A) = .4; p(E) = (3.2 + 1.4 + .84) / 16 = .34,
    # kappa = .06 / .66 = 1 / 11.
    wide = pd.DataFrame(
        {
            "A": [("a", "b"), "a", ("b", "a"), "c"],
            "B": ["a", ("a", "c"), "b", "c"],
            "C": ["b", "a", ("a", "b"), ("c", "a")],
        },
        dtype=object,
    )
    result = wide.agree.multilabel(p=0.6)
    kappas = [7 / 13, 0.392, 1 / 11]
    assert float(result) == pytest.approx(np.mean(kappas), abs=1e-12)
    assert result.observed == pytest.approx((0.7 + 0.62 + 0.4) / 3, abs=1e-12)
    assert result.expected == pytest.approx((0.35 + 0.375 + 0.34) / 3, abs=1e-12)
    table = result.pairwise
    assert table.loc["A", "C"] == pytest.approx(0.392) and table.loc["C", "B"] == pytest.approx(
        1 / 11
    )
    # Item 1: pairs A-B (.6 - .35) / .65, A-C (.4 - .375) / .625, B-C (0 - .34) / .66.
    item = wide.agree.multilabel_items(ps=[0.6, 1.0]).kappa.loc[0, 0.6]
    assert item == pytest.approx(np.mean([0.25 / 0.65, 0.025 / 0.625, -0.34 / 0.66]))


# ------------------------------------------------------------------ Cohen, symmetry, invariance


@SETTINGS
@given(wide=ranked_frames(min_raters=2, max_raters=2, complete=True))
def test_equals_cohen_at_p_one(wide: pd.DataFrame) -> None:
    # At p = 1 the secondary labels weigh nothing: Cohen's kappa on the primary labels,
    # which is what cohen() reads from ranked data.
    ratings = wide.agree()
    primary = wide.apply(lambda col: col.map(lambda c: c[0] if isinstance(c, tuple) else c))
    for cohen in (quiet(ratings.cohen), quiet(primary.agree.cohen)):
        result = quiet(ratings.multilabel, p=1.0)
        if len(wide) < 2:
            # One item: the pair's chance agreement rests on that item alone, so multilabel
            # (as pairwise() and light()) has no kappa (issue 17); cohen() reports 0 or nan.
            assert np.isnan(float(result)) and result.n_pairs == 0
            continue
        np.testing.assert_allclose(
            [float(result), result.observed, result.expected],
            [float(cohen), cohen.observed, cohen.expected],
            rtol=1e-12,
            atol=1e-12,
            equal_nan=True,
        )


@SETTINGS
@given(
    wide=ranked_frames(min_raters=2, max_raters=4, complete=True),
    p=st.sampled_from([0.5, 0.7, 0.85]),
)
def test_without_secondary_labels_equals_cohen_and_light(wide: pd.DataFrame, p: float) -> None:
    primary = wide.apply(lambda col: col.map(lambda c: c[0] if isinstance(c, tuple) else c))
    ratings = primary.agree()
    result = quiet(ratings.multilabel, p=p)
    light = quiet(ratings.light)  # the mean of Cohen's kappa over pairs
    assert float(result) == pytest.approx(float(light), abs=1e-12, nan_ok=True)
    assert result.n_pairs == light.n_pairs
    if light.n_pairs == primary.shape[1] * (primary.shape[1] - 1) // 2:  # every pair counts
        assert (result.observed, result.expected) == pytest.approx(
            (light.observed, light.expected), abs=1e-12
        )
    if primary.shape[1] == 2 and light.n_pairs:  # (one shared item: no pair kappa)
        cohen = quiet(ratings.cohen)
        assert float(result) == pytest.approx(float(cohen), abs=1e-12, nan_ok=True)
    pairs = quiet(ratings.pairwise)
    pd.testing.assert_frame_equal(
        result.pairwise.where(~np.eye(len(pairs), dtype=bool)),
        pairs.where(~np.eye(len(pairs), dtype=bool)),
        check_names=False,
    )


@SETTINGS
@given(wide=ranked_frames(), data=st.data(), p=st.sampled_from([0.5, 0.75, 1.0]))
def test_symmetric_in_the_annotators(wide: pd.DataFrame, data: st.DataObject, p: float) -> None:
    order = data.draw(st.permutations(list(wide.columns)))
    a, b = quiet(wide.agree.multilabel, p=p), quiet(wide[order].agree.multilabel, p=p)
    assert float(a) == pytest.approx(float(b), abs=1e-12, nan_ok=True)
    pd.testing.assert_frame_equal(a.pairwise.loc[order, order], b.pairwise)
    # Each pair's kappa is symmetric: A against B is B against A.
    table = a.pairwise.to_numpy()
    np.testing.assert_array_equal(table, table.T)


@SETTINGS
@given(wide=ranked_frames(), data=st.data(), p=st.sampled_from([0.5, 0.75, 1.0]))
def test_invariant_to_renaming_and_item_order(
    wide: pd.DataFrame, data: st.DataObject, p: float
) -> None:
    targets = data.draw(st.permutations([10, 3, 7, 1]))
    mapping = dict(zip(LABELS, targets, strict=True))

    def rename(cell: Any) -> Any:
        if isinstance(cell, tuple):
            return tuple(mapping[x] for x in cell)
        return None if cell is None else mapping[cell]

    renamed = wide.apply(lambda col: col.map(rename)).astype(object)
    renamed = renamed.where(wide.notna(), None)
    order = data.draw(st.permutations(list(wide.index)))
    base = quiet(wide.agree.multilabel, p=p)
    for other in (renamed, wide.loc[order]):
        result = quiet(other.agree.multilabel, p=p)
        np.testing.assert_allclose(
            [float(result), result.observed, result.expected],
            [float(base), base.observed, base.expected],
            rtol=1e-12,
            atol=1e-12,
            equal_nan=True,
        )
    items = wide.agree.multilabel_items().kappa
    pd.testing.assert_frame_equal(wide.loc[order].agree.multilabel_items().kappa, items.loc[order])
    pd.testing.assert_frame_equal(renamed.agree.multilabel_items().kappa, items)


# ------------------------------------------------------------------ p and its errors


@pytest.mark.parametrize("p", [0.49, 1.01, -1, 2, float("nan")])
def test_p_outside_the_range(p: float) -> None:
    wide = cells([("a", "b"), "a"], ["a", "b"])
    message = (
        "`p` must be between 0.5 and 1 (the weight of a primary label; 1 - p goes to the "
        f"secondary); got {p!r}."
    )
    for call in (wide.agree.multilabel, wide.agree.multilabel_labels):
        with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
            call(p=p)


@pytest.mark.parametrize("p", ["0.7", None, True])
def test_p_of_the_wrong_type(p: Any) -> None:
    wide = cells([("a", "b"), "a"], ["a", "b"])
    message = (
        "`p` must be a number between 0.5 and 1 (the weight of a primary label; 1 - p goes to "
        f"the secondary); got {p!r}."
    )
    with pytest.raises(TypeError, match=f"^{re.escape(message)}$"):
        wide.agree.multilabel(p=p)


def test_ps_errors() -> None:
    wide = cells([("a", "b"), "a"], ["a", "b"])
    with pytest.raises(ValueError, match=re.escape("`ps` must hold numbers between 0.5 and 1 (")):
        wide.agree.multilabel_sweep(ps=[0.5, 0.2, 1.5])
    with pytest.raises(ValueError, match=re.escape("got [0.2, 1.5].")):
        wide.agree.multilabel_sweep(ps=[0.5, 0.2, 1.5])
    with pytest.raises(ValueError, match="non-empty list"):
        wide.agree.multilabel_sweep(ps=[])
    with pytest.raises(TypeError, match="`ps` must be a list of numbers"):
        wide.agree.multilabel_sweep(ps=["x"])
    with pytest.raises(ValueError, match="needs at least two values of p"):
        wide.agree.multilabel_items(ps=[0.75])


def test_the_bounds_are_allowed() -> None:
    wide = cells([("a", "b"), "a", "c"], ["a", ("b", "a"), "c"])
    for p in (0.5, 1, 1.0, np.float64(0.5)):
        assert np.isfinite(float(wide.agree.multilabel(p=p)))


def test_default_p_is_the_middle() -> None:
    wide = cells([("a", "b"), "a", "c"], ["a", ("b", "a"), "c"])
    assert float(wide.agree.multilabel()) == float(wide.agree.multilabel(p=0.75))


def test_counts_table_is_refused() -> None:
    counts = pd.DataFrame({"a": [2, 1], "b": [0, 1]})
    with pytest.raises(ValueError, match=r"`multilabel\(\)` needs to know which rater"):
        counts.agree(layout="counts").multilabel()


def test_undefined_is_nan_with_a_warning() -> None:
    wide = cells(["a", "a"], ["a", "a"])  # p(E) = 1
    with pytest.warns(pdagree.UndefinedStatisticWarning, match="`multilabel\\[p=0.75\\]`"):
        result = wide.agree.multilabel()
    assert np.isnan(float(result)) and result.n_pairs == 0


# ------------------------------------------------------------------ the sweep


def test_sweep_default_and_values() -> None:
    wide = cells([("a", "b"), "a", ("b", "a"), "c"], ["a", ("a", "c"), "b", "c"])
    sweep = wide.agree.multilabel_sweep()
    assert sweep.index.name == "p"
    assert sweep.index.tolist() == [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.0]
    assert list(sweep.columns) == ["kappa", "observed", "expected"]
    for p in (0.5, 0.6, 0.85, 1.0):
        result = wide.agree.multilabel(p=p)
        assert sweep.loc[p].tolist() == pytest.approx(
            [float(result), result.observed, result.expected], abs=1e-12
        )
    assert sweep.loc[0.6, "kappa"] == pytest.approx(7 / 13)
    # Sorted and unique.
    assert wide.agree.multilabel_sweep(ps=[1.0, 0.5, 1.0]).index.tolist() == [0.5, 1.0]


# ------------------------------------------------------------------ by= and the bootstrap


def grouped_long() -> pd.DataFrame:
    emails = pdagree.datasets.load("emails_multilabel")
    emails = emails[emails["email"] <= 60].copy()
    emails["batch"] = np.where(emails["email"] <= 30, "early", "late")
    # The late batch never uses two of the labels: its own categories.
    uses = emails.groupby("email")["label"].transform(
        lambda x: x.isin(["answer", "broadcast"]).any()
    )
    return emails[~((emails["batch"] == "late") & uses)]


@pytest.mark.parametrize("own", [False, True])
def test_by_equals_loop(own: bool) -> None:
    long = grouped_long()
    if own:  # each batch's annotators are its own: pairs are kept per group's raters
        long = long.assign(annotator=long["annotator"].astype(str) + "-" + long["batch"])
    spec = {"item": "email", "rater": "annotator", "label": "label", "rank": "rank"}
    grouped = long.agree(**spec, by="batch")
    result = grouped.multilabel(p=0.6)
    sweep = grouped.multilabel_sweep(ps=[0.5, 1.0])
    items = grouped.multilabel_items(ps=[0.5, 1.0])
    labels = grouped.multilabel_labels(p=0.6)
    assert list(result.index) == ["early", "late"]
    for key, sub in long.groupby("batch"):
        alone = sub.agree(**spec)
        one = alone.multilabel(p=0.6)
        row = result.loc[key]
        assert [row["value"], row["observed"], row["expected"], row["n_pairs"]] == pytest.approx(
            [float(one), one.observed, one.expected, one.n_pairs], abs=1e-12
        )
        assert row["n_categories"] == one.n_categories
        pd.testing.assert_frame_equal(sweep.loc[key], alone.multilabel_sweep(ps=[0.5, 1.0]))
        one_items = alone.multilabel_items(ps=[0.5, 1.0])
        pd.testing.assert_frame_equal(
            items.kappa.loc[key].dropna(how="all"), one_items.kappa.dropna(how="all")
        )
        assert items.counts.loc[key].tolist() == one_items.counts.tolist()
        pd.testing.assert_frame_equal(
            labels.loc[key].dropna(how="all", subset=["kappa"]),
            alone.multilabel_labels(p=0.6).dropna(how="all", subset=["kappa"]),
            check_index_type=False,
        )


def test_replicas_carry_the_secondary_labels() -> None:
    # The bootstrap re-runs the definition on resampled items: a replica of every item once
    # gives the value itself (a replica without the secondary labels would give p = 1's).
    ratings = pdagree.datasets.load("emails_multilabel").agree(
        item="email", rater="annotator", label="label", rank="rank"
    )
    data = ratings._data
    enc = data.enc
    replica = resampling._replica(
        enc, np.arange(enc.n_items), np.zeros(enc.n_items, dtype=np.int64), 1
    )
    again = pdagree.definitions.multilabel.multilabel(RatingData(replica), p=0.5)
    assert again.value[0] == pytest.approx(float(ratings.multilabel(p=0.5)), abs=1e-12)
    assert float(ratings.multilabel(p=0.5)) != pytest.approx(float(ratings.multilabel(p=1.0)))


def test_bootstrap_interval() -> None:
    ratings = pdagree.datasets.load("emails_multilabel").agree(
        item="email", rater="annotator", label="label", rank="rank"
    )
    result = ratings.multilabel(p=0.75, confidence_level=0.95, n_resamples=200, rng=7)
    assert result.ci_method == "bootstrap"
    assert result.low < float(result) < result.high
    assert 0 < result.se < 0.1
    again = ratings.multilabel(p=0.75, confidence_level=0.95, n_resamples=200, rng=7)
    assert (again.low, again.high) == (result.low, result.high)
    low, high = result.confidence_interval(n_resamples=200, rng=7)
    assert (low, high) == (result.low, result.high)
    by = pdagree.datasets.load("emails_multilabel").agree(
        item="email", rater="annotator", label="label", rank="rank", by="kind"
    )
    frame = by.multilabel(confidence_level=0.9, n_resamples=100, rng=1)
    assert set(frame["ci_method"]) == {"bootstrap"}
    assert ((frame["low"] <= frame["value"]) & (frame["value"] <= frame["high"])).all()
    with pytest.raises(ValueError, match="no analytic variance is available for `multilabel`"):
        ratings.multilabel(confidence_level=0.95, method="analytic")


def test_frame_unchanged() -> None:
    long = grouped_long()
    snapshot = long.copy(deep=True)
    ratings = long.agree(item="email", rater="annotator", label="label", rank="rank", by="batch")
    ratings.multilabel()
    ratings.multilabel_sweep()
    ratings.multilabel_items()
    ratings.multilabel_labels()
    pd.testing.assert_frame_equal(long, snapshot, check_exact=True)


# ------------------------------------------------------------------ items and their classes


def test_item_classes_of_the_pair_types() -> None:
    # One item per pair type, two annotators; the paper's reading of each type: single labels
    # agreeing are constant high, disagreeing constant low; {ab,a}, {ab,ab}, {ab,ac} agree on
    # the primary (higher at p = 1); {ab,b}, {ab,ba}, {ab,bc} agree more when the secondary
    # weighs as much as the primary (higher at p = 0.5).
    # Thirty items on which both give the same single label, each its own, keep chance
    # agreement small, as in a real corpus, so that it barely moves with p.
    kinds = list(PAIR_TYPES)
    background = [f"l{i}" for i in range(30)]
    wide = cells(
        [PAIR_TYPES[k][0] for k in kinds] + background,
        [PAIR_TYPES[k][1] for k in kinds] + background,
    )
    wide.index = pd.Index(kinds + background, name="pair type")
    items = wide.agree.multilabel_items()
    expected = {
        "{a,a}": "constant high",
        "{a,b}": "constant low",
        "{ab,a}": "higher at p=1",
        "{ab,b}": "higher at p=0.5",
        "{ab,c}": "constant low",
        "{ab,ab}": "higher at p=1",
        "{ab,ba}": "higher at p=0.5",
        "{ab,ac}": "higher at p=1",
        "{ab,bc}": "higher at p=0.5",
        "{ab,cd}": "constant low",
    }
    assert items.classes.loc[kinds].to_dict() == expected
    assert (items.classes.loc[background] == "constant high").all()
    assert items.classes.name == "class"
    assert list(items.classes.cat.categories) == [
        "constant high",
        "constant low",
        "higher at p=1",
        "higher at p=0.5",
    ]
    assert items.counts.to_dict() == {
        "constant high": 31,
        "constant low": 3,
        "higher at p=1": 3,
        "higher at p=0.5": 3,
    }
    assert items.kappa.columns.name == "p" and items.kappa.index.name == "pair type"
    assert items.kappa.loc["{a,a}"].eq(1.0).all()


def test_item_class_thresholds() -> None:
    kappa = pd.DataFrame(
        {0.5: [0.9, 0.2, 0.1, 0.7, 0.55, np.nan], 1.0: [0.95, 0.25, 0.5, 0.3, 0.62, 0.4]},
        index=list("uvwxyz"),
    )
    kappa.columns.name = "p"
    classify = pdagree.multilabel.classify_items
    classes = classify(kappa)
    assert classes.iloc[:5].tolist() == [
        "constant high",
        "constant low",
        "higher at p=1",
        "higher at p=0.5",
        "constant low",  # mean 0.585 < 0.6
    ]
    assert pd.isna(classes.iloc[5])
    assert classify(kappa, high=0.5).tolist()[4] == "constant high"
    assert classify(kappa, tolerance=0.5).tolist()[:4] == [
        "constant high",
        "constant low",
        "constant low",
        "constant low",
    ]
    with pytest.raises(ValueError, match=r"`tolerance` must be a finite number >= 0; got -0.1"):
        classify(kappa, tolerance=-0.1)
    with pytest.raises(TypeError, match=r"`high` must be a number; got 'x'"):
        classify(kappa, high="x")


def test_items_of_a_single_annotator_have_no_kappa() -> None:
    wide = cells([("a", "b"), "a", "c", "b"], ["a", None, "c", "b"])
    items = wide.agree.multilabel_items()
    assert items.kappa.loc[1].isna().all()
    assert pd.isna(items.classes.loc[1])
    assert int(items.counts.sum()) == 3


def test_items_on_the_bundled_emails() -> None:
    emails = pdagree.datasets.load("emails_multilabel")
    ratings = emails.agree(item="email", rater="annotator", label="label", rank="rank")
    items = ratings.multilabel_items()
    assert items.kappa.shape == (380, 11)
    assert int(items.counts.sum()) == 380
    kind = emails.groupby("email")["kind"].first()
    table = pd.crosstab(kind, items.classes)
    # Each generated kind lands mostly in the class it was meant to produce.
    for generated, cls in [
        ("clear", "constant high"),
        ("unclear", "constant low"),
        ("general/specific", "higher at p=1"),
        ("concurrent", "higher at p=0.5"),
    ]:
        assert table.loc[generated].idxmax() == cls


# ------------------------------------------------------------------ labels, one vs rest


@SETTINGS
@given(wide=ranked_frames(min_raters=2, max_raters=2, complete=True))
def test_labels_at_p_one_are_cohen_of_binary_labels(wide: pd.DataFrame) -> None:
    primary = wide.apply(lambda col: col.map(lambda c: c[0] if isinstance(c, tuple) else c))
    table = wide.agree.multilabel_labels(p=1.0)
    categories = wide.agree().categories
    assert list(table.index) == list(categories)
    for label in categories:  # a label given only as a secondary weighs nothing at p = 1
        binary = primary.eq(label).astype(int)
        cohen = quiet(binary.agree(categories=[0, 1]).cohen)
        assert table.loc[label, "kappa"] == pytest.approx(float(cohen), abs=1e-12, nan_ok=True)
        if np.isfinite(float(cohen)):
            assert table.loc[label, "observed"] == pytest.approx(cohen.observed, abs=1e-12)
            assert table.loc[label, "expected"] == pytest.approx(cohen.expected, abs=1e-12)
    # A subset of labels merged into one: Cohen's kappa of "the primary is in the subset".
    subset = list(categories[:2])
    merged = wide.agree.multilabel_labels(p=1.0, labels=[subset]).iloc[0]
    binary = primary.isin(subset).astype(int)
    cohen = quiet(binary.agree(categories=[0, 1]).cohen)
    assert merged["kappa"] == pytest.approx(float(cohen), abs=1e-12, nan_ok=True)


def test_labels_by_hand() -> None:
    # p = 0.6, label a: m_A = (.6, 1, .4, 0), m_B = (1, .6, 0, 0). Sum m_A m_B = 1.2, so
    # p(A) = (4 - 2 - 1.6 + 2.4) / 4 = .7; f_A = .5, f_B = .4, p(E) = .2 + .3 = .5,
    # kappa = .4. The subset {a, b}: m_A = (1, 1, 1, 0), m_B = (1, .6, 1, 0): p(A) =
    # (4 - 3 - 2.6 + 5.2) / 4 = .9, f_A = .75, f_B = .65, p(E) = .4875 + .0875 = .575,
    # kappa = .325 / .425.
    wide = cells([("a", "b"), "a", ("b", "a"), "c"], ["a", ("a", "c"), "b", "c"])
    table = wide.agree.multilabel_labels(p=0.6, labels=["a", ("a", "b")])
    assert list(table.index) == ["a", ("a", "b")]
    assert table.loc["a", ["kappa", "observed", "expected"]].tolist() == pytest.approx(
        [0.4, 0.7, 0.5]
    )
    row = table.iloc[1]
    assert [row["kappa"], row["observed"], row["expected"]] == pytest.approx(
        [0.325 / 0.425, 0.9, 0.575]
    )
    assert table["n_pairs"].tolist() == [1, 1]


def test_labels_errors() -> None:
    wide = cells([("a", "b"), "a"], ["a", "b"])
    with pytest.raises(ValueError, match=r"`labels` entries must be labels of the data"):
        wide.agree.multilabel_labels(labels=["z"])
    with pytest.raises(ValueError, match=r"`labels` entries must be labels of the data"):
        wide.agree.multilabel_labels(labels=[[]])
    with pytest.raises(TypeError, match=r"Wrap a single label in a list: labels=\['a'\]"):
        wide.agree.multilabel_labels(labels="a")
    with pytest.raises(ValueError, match=r"`labels` must not repeat an entry"):
        wide.agree.multilabel_labels(labels=["a", "a"])


# ------------------------------------------------------------------ plots


def test_plots() -> None:
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from pdagree.multilabel import plot_items, plot_sweep

    emails = pdagree.datasets.load("emails_multilabel")
    spec = {"item": "email", "rater": "annotator", "label": "label", "rank": "rank"}
    _, ax = plt.subplots()
    assert plot_sweep(emails.agree(**spec).multilabel_sweep(), ax=ax) is ax
    assert len(ax.get_lines()) == 3
    grouped = plot_sweep(emails.agree(**spec, by="kind").multilabel_sweep())
    assert len(grouped.get_lines()) == 4
    items = plot_items(emails.agree(**spec).multilabel_items())
    assert items.get_xlabel() == "p (weight of the primary label)"
    plt.close("all")


# ------------------------------------------------------------------ the bundled data set


def test_emails_dataset_is_its_generator() -> None:
    emails = pdagree.datasets.load("emails_multilabel")
    pd.testing.assert_frame_equal(emails, pdagree.datasets.make_emails())
    assert list(emails.columns) == ["email", "annotator", "label", "rank", "kind"]
    assert emails["email"].nunique() == 380
    assert sorted(emails["annotator"].unique()) == ["A", "B", "C"]
    assert set(emails["label"]) == set(pdagree.datasets.EMAIL_LABELS)
    assert len(pdagree.datasets.EMAIL_LABELS) == 10
    # Every annotator gives every email one primary label; some add a secondary one.
    primary = emails[emails["rank"] == 1]
    assert len(primary) == 3 * 380 and not primary.duplicated(["email", "annotator"]).any()
    assert 0.1 < (emails["rank"] == 2).mean() < 0.3
    assert "make_emails()" in pdagree.datasets.describe("emails_multilabel")


def test_make_emails() -> None:
    small = pdagree.datasets.make_emails(n_items=20, seed=1)
    assert small["email"].max() == 20
    assert small.equals(pdagree.datasets.make_emails(n_items=20, seed=1))
    ratings = small.agree(item="email", rater="annotator", label="label", rank="rank")
    assert ratings.n_items == 20
    with pytest.raises(ValueError, match=r"`n_items` must be an integer >= 1; got 0"):
        pdagree.datasets.make_emails(n_items=0)


def test_items_by_several_columns() -> None:
    emails = pdagree.datasets.load("emails_multilabel")
    emails["half"] = np.where(emails["email"] <= 190, "first", "second")
    spec = {"item": "email", "rater": "annotator", "label": "label", "rank": "rank"}
    counts = emails.agree(**spec, by=["kind", "half"]).multilabel_items().counts
    assert list(counts.index.names) == ["kind", "half"]
    assert counts.columns.name == "class" and len(counts.columns) == 4
    for key, sub in emails.groupby(["kind", "half"]):
        alone = sub.agree(**spec).multilabel_items().counts
        assert counts.loc[key].tolist() == alone.tolist()


# ------------------------------------------------------------------ the bootstrap's item sums


def test_item_sums_with_secondary_labels() -> None:
    # The item bootstrap resamples per-item sums; with secondary labels they must give the
    # definition's value and, replicate for replicate, what recomputing it gives.
    from pdagree.definitions import REGISTRY

    definition = REGISTRY["multilabel"]
    emails = grouped_long()
    spec = {"item": "email", "rater": "annotator", "label": "label", "rank": "rank"}
    data = emails.agree(**spec, by="batch")._data
    for p in (0.5, 0.8):
        sums = definition.item_sums(data, {"p": p})  # type: ignore[misc]
        assert sums is not None
        totals = np.stack(
            [np.asarray(sums.matrix[data.enc.group == g].sum(axis=0)).ravel() for g in (0, 1)]
        )
        value = definition.compute(data, p=p).value
        np.testing.assert_allclose(sums.finish(totals), value, rtol=1e-12)
        summed = resampling.bootstrap_values(data, definition, {"p": p}, 60, rng=3)
        again = resampling.bootstrap_values(data, definition, {"p": p}, 60, 3, item_sums=False)
        np.testing.assert_allclose(summed, again, rtol=1e-10, atol=1e-12)
    alone = emails.agree(**spec)._data
    kw: dict[str, Any] = {"confidence_level": 0.9, "n_resamples": 80, "rng": 5}
    summed = resampling.scipy_bootstrap(alone, definition, {"p": 0.6}, interval="percentile", **kw)
    again = resampling.scipy_bootstrap(
        alone, definition, {"p": 0.6}, interval="percentile", item_sums=False, **kw
    )
    np.testing.assert_allclose(summed[:3], again[:3], rtol=1e-9)


def test_groups_with_raters_of_their_own_keep_their_pairs_only() -> None:
    # 3,000 groups of 3 raters of their own: the pair sums over every pair of the 9,000
    # raters per group (2.4e11) were refused; over each group's 3 raters they are 27,000.
    n = 3000
    rng = np.random.default_rng(0)
    g = np.repeat(np.arange(n), 6)
    primary = pd.DataFrame(
        {
            "g": g,
            "item": g * 2 + np.tile(np.repeat([0, 1], 3), n),
            "rater": g * 3 + np.tile([0, 1, 2], 2 * n),
            "label": rng.integers(0, 3, 6 * n),
            "rank": 1,
        }
    )
    secondary = primary.assign(label=(primary["label"] + 1) % 3, rank=2)
    long = pd.concat([primary, secondary[rng.random(6 * n) < 0.4]], ignore_index=True)
    ratings = long.agree(item="item", rater="rater", label="label", rank="rank", by="g")
    result = ratings.multilabel(p=0.75)
    assert len(result) == n and result["n_pairs"].max() == 3
    first = long[long["g"] == 17].drop(columns="g")
    alone = first.agree(item="item", rater="rater", label="label", rank="rank")
    assert result.loc[17, "value"] == pytest.approx(float(alone.multilabel(p=0.75)), nan_ok=True)
    sweep = ratings.multilabel_sweep(ps=[0.5, 1.0])
    pd.testing.assert_frame_equal(sweep.loc[17], alone.multilabel_sweep(ps=[0.5, 1.0]))
