"""#30: Krippendorff's alpha on set-valued labels, ``alpha(distance="masi" | "jaccard")``.

Differential: nltk's ``AnnotationTask(data, distance=masi_distance).alpha()`` and
``jaccard_distance`` (nltk.metrics.distance) at full precision, on complete data (nltk pools
every value, pairable or not, so only complete designs compare). nltk's distances divide 0 by
0 on two empty sets; pdagree puts two empty sets at distance 0 (they are equal), which the
tests check against nltk with that one case defined.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from peers import peer

import pdagree
from pdagree.encoding import SetDistance
from pdagree.encoding import _sets as sets_module
from pdagree.encoding._sets import set_distances
from pdagree.encoding.levels import metric_for

SETTINGS = settings(max_examples=40, deadline=None)
LABELS = ("a", "b", "c", "d")
DISTANCES = ("masi", "jaccard")
CLOSE = {"rel": 1e-9, "abs": 1e-12}


def nltk_alpha(rows: list[tuple[str, str, frozenset[Any]]], name: str) -> float:
    agreement = peer("nltk.metrics.agreement")
    distance = peer("nltk.metrics.distance")
    metric = {"masi": distance.masi_distance, "jaccard": distance.jaccard_distance}[name]

    def defined(a: frozenset[Any], b: frozenset[Any]) -> float:
        return 0.0 if not a and not b else float(metric(a, b))

    return float(agreement.AnnotationTask(data=rows, distance=defined).alpha())


def long_frame(rows: list[tuple[str, str, frozenset[Any]]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["coder", "doc", "tags"])


def alpha_of(frame: pd.DataFrame, name: str, **kwargs: Any) -> Any:
    return frame.agree(item="doc", rater="coder", label="tags", **kwargs).alpha(distance=name)


def simulated(seed: int, n_items: int, n_raters: int, *, empty: bool = False) -> list[Any]:
    """Complete data with agreement: each coder keeps a true set, drops or adds labels."""
    rng = np.random.default_rng(seed)
    labels = np.array(list("abcdef"))
    rows = []
    for item in range(n_items):
        truth = rng.random(len(labels)) < 0.35
        for coder in range(n_raters):
            flip = rng.random(len(labels)) < 0.1
            chosen = truth ^ flip
            if not empty and not chosen.any():
                chosen[rng.integers(len(labels))] = True
            rows.append((f"c{coder}", f"i{item}", frozenset(labels[chosen].tolist())))
    return rows


@st.composite
def set_rows(draw: st.DrawFn, *, empty: bool = False) -> list[tuple[str, str, frozenset[Any]]]:
    n_items = draw(st.integers(2, 10))
    n_raters = draw(st.integers(2, 4))
    cell = st.frozensets(st.sampled_from(LABELS), min_size=0 if empty else 1)
    return [(f"c{r}", f"i{i}", draw(cell)) for i in range(n_items) for r in range(n_raters)]


# --------------------------------------------------------------------------- nltk


@pytest.mark.parametrize("name", DISTANCES)
@SETTINGS
@given(rows=set_rows())
def test_matches_nltk(name: str, rows: list[Any]) -> None:
    assume(len({cell for *_, cell in rows}) >= 2)
    assert float(alpha_of(long_frame(rows), name)) == pytest.approx(
        nltk_alpha(rows, name), **CLOSE
    )


@pytest.mark.parametrize("name", DISTANCES)
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_matches_nltk_on_simulated_coders(name: str, seed: int) -> None:
    rows = simulated(seed, n_items=40, n_raters=3 + seed % 2)
    value = float(alpha_of(long_frame(rows), name))
    assert value == pytest.approx(nltk_alpha(rows, name), **CLOSE)
    assert value > 0.3  # the coders agree: not a test of noise around 0


@pytest.mark.parametrize("name", DISTANCES)
@SETTINGS
@given(rows=set_rows(empty=True))
def test_empty_sets_are_annotations_equal_to_each_other(name: str, rows: list[Any]) -> None:
    assume(len({cell for *_, cell in rows}) >= 2)
    assert float(alpha_of(long_frame(rows), name)) == pytest.approx(
        nltk_alpha(rows, name), **CLOSE
    )


def test_distances_between_sets() -> None:
    # {a}, {a, b}, {b, c}, {d}, {}: Passonneau's monotonicity 1, 2/3, 1/3, 0
    codes = np.array([0, 0, 1, 1, 2, 3])
    sizes = np.array([1, 2, 2, 1, 0])
    masi = set_distances("masi", codes, sizes, 5)
    jaccard = set_distances("jaccard", codes, sizes, 5)
    assert masi[0, 1] == pytest.approx(1 - (1 / 2) * (2 / 3))  # subset
    assert masi[1, 2] == pytest.approx(1 - (1 / 3) * (1 / 3))  # overlap
    assert masi[0, 3] == 1.0 and jaccard[0, 3] == 1.0  # disjoint
    assert jaccard[1, 2] == pytest.approx(1 - 1 / 3)
    assert masi[4, 4] == 0.0 and jaccard[4, 4] == 0.0  # two empty sets: equal
    assert (masi[4, :4] == 1.0).all() and (jaccard[4, :4] == 1.0).all()
    for d in (masi, jaccard):
        np.testing.assert_array_equal(d, d.T)
        np.testing.assert_array_equal(np.diag(d), 0.0)


# --------------------------------------------------------------------------- cells


def test_lists_sets_tuples_order_and_repeats_are_the_same_sets() -> None:
    rows = simulated(5, n_items=12, n_raters=3)
    frame = long_frame(rows)
    rng = np.random.default_rng(0)
    kinds = [
        set,
        list,
        tuple,
        lambda s: list(rng.permutation(sorted(s))) + sorted(s),  # order and repeats
    ]
    expected = {name: alpha_of(frame, name) for name in DISTANCES}
    for kind in kinds:
        cells = pd.Series([kind(s) for s in frame["tags"]], dtype=object)
        other = frame.assign(tags=cells)
        for name in DISTANCES:
            result = alpha_of(other, name)
            assert float(result) == pytest.approx(float(expected[name]), **CLOSE)
            assert result.observed == pytest.approx(expected[name].observed, **CLOSE)
            # equal sets written differently are one category
            assert result.n_categories == expected[name].n_categories


def test_numbers_read_as_text_are_numbers() -> None:
    numbers = pd.DataFrame(
        {
            "doc": [1, 1, 2, 2, 3, 3, 4, 4],
            "coder": ["x", "y"] * 4,
            "tags": [{1, 2}, {1}, {2}, {2, 10}, {10}, {10}, {1, 2, 10}, {1, 10}],
        }
    )
    text = numbers.assign(tags=[{str(v) for v in s} for s in numbers["tags"]])
    mixed = numbers.assign(tags=[{1, "2"}, {"1"}, {2}, {"2", 10}, {10}, {"10"}, {1, 2, 10}, {1}])
    mixed.loc[7, "tags"] = {"1", 10}
    for name in DISTANCES:
        base = float(alpha_of(numbers, name))
        assert float(alpha_of(text, name)) == pytest.approx(base, **CLOSE)
        assert float(alpha_of(mixed, name)) == pytest.approx(base, **CLOSE)


def test_missing_cells_are_no_annotation() -> None:
    rows = simulated(7, n_items=10, n_raters=3)
    frame = long_frame(rows)
    extra = pd.DataFrame({"coder": ["c9", "c9", "c0"], "doc": ["i0", "i1", "i99"]})
    extra["tags"] = pd.Series([None, np.nan, None], dtype=object)
    padded = pd.concat([frame, extra], ignore_index=True)
    for name in DISTANCES:
        assert float(alpha_of(padded, name)) == pytest.approx(
            float(alpha_of(frame, name)), **CLOSE
        )


def test_wide_frame_of_sets_equals_long() -> None:
    frame = long_frame(simulated(3, n_items=15, n_raters=3))
    wide = frame.pivot(index="doc", columns="coder", values="tags")
    wide = wide.map(set)  # plain sets in a wide frame are sets of labels too
    for name in DISTANCES:
        assert float(wide.agree.alpha(distance=name)) == pytest.approx(
            float(alpha_of(frame, name)), **CLOSE
        )


def test_primary_and_secondary_labels_are_sets_of_two() -> None:
    # One row per label with `rank=`, a Categorical of labels, and the wide frame's tuples
    # (primary first) are the same sets as set cells.
    sets = pd.DataFrame(
        {
            "doc": [1, 1, 2, 2, 3, 3, 4, 4, 5, 5],
            "coder": ["x", "y"] * 5,
            "tags": [
                ("a", "b"),
                ("b",),
                ("b",),
                ("b", "c"),
                ("c",),
                ("c",),
                ("a",),
                ("b",),
                ("a", "c"),
                ("c", "a"),
            ],
        }
    )
    ranked = sets.explode("tags").assign(
        rank=lambda f: f.groupby(["doc", "coder"]).cumcount() + 1,
        tags=lambda f: pd.Categorical(f["tags"], categories=["c", "b", "a"]),
    )
    wide = sets.pivot(index="doc", columns="coder", values="tags").map(
        lambda t: t if len(t) > 1 else t[0]
    )
    for name in DISTANCES:
        expected = float(alpha_of(sets.assign(tags=sets["tags"].map(frozenset)), name))
        from_ranks = ranked.agree(item="doc", rater="coder", label="tags", rank="rank")
        assert float(from_ranks.alpha(distance=name)) == pytest.approx(expected, **CLOSE)
        assert float(wide.agree.alpha(distance=name)) == pytest.approx(expected, **CLOSE)
        assert float(
            sets.agree(item="doc", rater="coder", label="tags").alpha(distance=name)
        ) == pytest.approx(expected, **CLOSE)


def test_equal_sets_in_different_forms_are_one_category() -> None:
    frame = pd.DataFrame(
        {
            "doc": [1, 1, 2, 2],
            "coder": ["x", "y"] * 2,
            "tags": [("b", "a"), ["a", "b"], "a", {"a"}],
        }
    )
    result = alpha_of(frame, "masi")
    assert result.n_categories == 2
    assert list(result.categories) == [frozenset({"a"}), frozenset({"a", "b"})]
    assert float(result) == 1.0


def test_single_labels_among_sets_are_sets_of_one() -> None:
    frame = pd.DataFrame(
        {
            "doc": [1, 1, 2, 2, 3, 3],
            "coder": ["x", "y"] * 3,
            "tags": [{"a", "b"}, "a", "b", {"b"}, "c", {"a"}],
        }
    )
    as_sets = frame.assign(tags=[{"a", "b"}, {"a"}, {"b"}, {"b"}, {"c"}, {"a"}])
    for name in DISTANCES:
        assert float(alpha_of(frame, name)) == pytest.approx(
            float(alpha_of(as_sets, name)), **CLOSE
        )


# --------------------------------------------------------------------------- the machinery


def test_by_groups_equal_a_loop() -> None:
    frame = pd.concat(
        [long_frame(simulated(s, n_items=8 + s, n_raters=3)).assign(batch=s) for s in range(3)],
        ignore_index=True,
    )
    for name in DISTANCES:
        table = alpha_of(frame, name, by="batch")
        for batch, group in frame.groupby("batch"):
            single = alpha_of(group.drop(columns="batch"), name)
            assert table.loc[batch, "value"] == pytest.approx(float(single), **CLOSE)


def test_intervals_are_gwets_with_the_distances_as_weights() -> None:
    # Krippendorff's alpha with delta2 = d is Gwet's weighted alpha with w = 1 - d: the same
    # value and the same analytic standard error.
    ratings = long_frame(simulated(11, n_items=30, n_raters=3)).agree(
        item="doc", rater="coder", label="tags"
    )
    for name in DISTANCES:
        result = ratings.alpha(distance=name)
        metric, _ = metric_for(SetDistance(name), ratings.categories, None)
        k = len(ratings.categories)
        codes = np.arange(k)
        d = metric.delta2(np.repeat(codes, k), np.tile(codes, k)).reshape(k, k)
        weighted = ratings.alpha(weights=1.0 - d)
        assert float(result) == pytest.approx(float(weighted), **CLOSE)
        assert result.standard_error() == pytest.approx(weighted.standard_error(), **CLOSE)
        low, high = result.confidence_interval(method="bootstrap", n_resamples=200, rng=0)
        assert low < float(result) < high


def test_the_frame_is_unchanged() -> None:
    frame = long_frame(simulated(2, n_items=6, n_raters=2)).assign(
        tags=lambda f: [sorted(s) for s in f["tags"]]
    )
    before = frame.copy(deep=True)
    alpha_of(frame, "masi")
    pd.testing.assert_frame_equal(frame, before)


# --------------------------------------------------------------------------- errors


def test_single_labels_are_refused() -> None:
    wide = pd.DataFrame({"A": ["a", "b", "a"], "B": ["a", "b", "b"]})
    with pytest.raises(
        ValueError,
        match=r"`distance='masi'` compares sets of labels; these labels are single values, "
        r"e\.g\. \['a', 'b'\], on which it equals level='nominal'\. Give each annotation",
    ):
        wide.agree.alpha(distance="masi")


def test_bad_distance_and_combinations() -> None:
    ratings = long_frame(simulated(1, n_items=4, n_raters=2)).agree(
        item="doc", rater="coder", label="tags"
    )
    with pytest.raises(
        ValueError,
        match=r"`distance` must be one of 'masi', 'jaccard'; got "
        r"'masy'\.",
    ):
        ratings.alpha(distance="masy")
    with pytest.raises(TypeError, match=r"got distance='masi' and level='interval'\. Drop"):
        ratings.alpha("interval", distance="masi")
    with pytest.raises(TypeError, match=r"got distance='jaccard' and weights='linear'\. Drop"):
        ratings.alpha(weights="linear", distance="jaccard")


def test_nominal_alpha_on_sets_is_exact_agreement() -> None:
    # Without `distance`, each distinct set is a category: agreement only on equal sets.
    frame = long_frame(simulated(4, n_items=10, n_raters=2))
    as_text = frame.assign(tags=[",".join(sorted(s)) for s in frame["tags"]])
    assert float(frame.agree(item="doc", rater="coder", label="tags").alpha()) == (
        pytest.approx(float(as_text.agree(item="doc", rater="coder", label="tags").alpha()))
    )


def test_tally_gives_the_same_value() -> None:
    # set and list cells (a long frame), and sets in a wide one, counted in two batches
    frame = long_frame(simulated(6, n_items=12, n_raters=3))
    frame["tags"] = pd.Series(
        [sorted(s) if i % 2 else set(s) for i, s in enumerate(frame["tags"])]
    )
    tally = pdagree.Tally(item="doc", rater="coder", label="tags")
    tally.add(frame.iloc[:20]).add(frame.iloc[20:])
    wide = frame.pivot(index="doc", columns="coder", values="tags").map(set)
    wide_tally = pdagree.Tally()
    wide_tally.add(wide)
    for name in DISTANCES:
        expected = float(alpha_of(frame, name))
        assert float(tally.alpha(distance=name)) == pytest.approx(expected, **CLOSE)
        assert float(wide_tally.alpha(distance=name)) == pytest.approx(expected, **CLOSE)


def test_per_rater_leaves_each_annotator_out() -> None:
    frame = long_frame(simulated(8, n_items=12, n_raters=3))
    ratings = frame.agree(item="doc", rater="coder", label="tags")
    for name in DISTANCES:
        table = ratings.per_rater("alpha", distance=name)
        assert table.attrs["full"] == pytest.approx(float(alpha_of(frame, name)), **CLOSE)
        for coder in table.index:
            without = alpha_of(frame[frame["coder"] != coder], name)
            assert table.loc[coder, "without"] == pytest.approx(float(without), **CLOSE)


def test_many_distinct_sets_pair_by_pair_equal_the_matrix(monkeypatch: pytest.MonkeyPatch) -> None:
    # Beyond MATRIX_SETS distinct sets the distances come from bit-packed rows, pair by pair.
    rng = np.random.default_rng(0)
    labels = np.array([f"t{i}" for i in range(13)])  # 13 labels: bytes of two packed words
    member = rng.random((1500 * 2, len(labels))) < 0.5
    frame = pd.DataFrame(
        {
            "doc": np.repeat(np.arange(1500), 2),
            "coder": np.tile(["x", "y"], 1500),
            "tags": pd.Series([frozenset(labels[m].tolist()) for m in member], dtype=object),
        }
    )
    frame.loc[1::2, "tags"] = frame["tags"].to_numpy()[0::2]  # y copies x, except on
    frame.loc[range(1, 3000, 6), "tags"] = pd.Series(  # every third item, where y says t0
        [frozenset({"t0"})] * len(range(1, 3000, 6)), index=range(1, 3000, 6), dtype=object
    )
    ratings = frame.agree(item="doc", rater="coder", label="tags")
    assert len(ratings.categories) > sets_module.MATRIX_SETS
    pair_by_pair = {name: ratings.alpha(distance=name) for name in DISTANCES}
    monkeypatch.setattr(sets_module, "MATRIX_SETS", 10**6)
    for name in DISTANCES:
        matrix = ratings.alpha(distance=name)
        assert float(pair_by_pair[name]) == pytest.approx(float(matrix), rel=1e-12)
        assert 0.5 < float(matrix) < 1.0


def test_popcount_without_numpy_bitwise_count(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(1)
    words = sets_module._packed_words(rng.random((40, 70)) < 0.5)  # two words a row
    expected = np.array([[bin(int(w)).count("1") for w in row] for row in words])
    np.testing.assert_array_equal(sets_module._popcount(words), expected)
    monkeypatch.delattr(np, "bitwise_count", raising=False)  # NumPy < 2.0
    np.testing.assert_array_equal(sets_module._popcount(words), expected)


def test_dask_with_the_items_gives_the_same_value() -> None:
    dask = pytest.importorskip("dask")
    dd = pytest.importorskip("dask.dataframe")
    import pdagree.dask  # registers the Dask accessor

    frame = long_frame(simulated(9, n_items=10, n_raters=3))
    frame["tags"] = pd.Series([sorted(s) for s in frame["tags"]])  # list cells
    with dask.config.set({"dataframe.convert-string": False}):  # keep the cells as lists
        ddf = dd.from_pandas(frame, npartitions=3)
        ratings = ddf.agree(item="doc", rater="coder", label="tags", keep_items=True)
        for name in DISTANCES:
            assert float(ratings.alpha(distance=name)) == pytest.approx(
                float(alpha_of(frame, name)), **CLOSE
            )
        with pytest.raises(pdagree.AnnotationsNeeded, match=r"`alpha\(\)` reads the items"):
            ddf.agree(item="doc", rater="coder", label="tags").alpha(distance="masi")


def test_a_categorical_of_sets_equals_the_object_column() -> None:
    frame = long_frame(simulated(12, n_items=10, n_raters=3))
    categorical = frame.assign(tags=pd.Categorical(frame["tags"]))
    for name in DISTANCES:
        assert float(alpha_of(categorical, name)) == pytest.approx(
            float(alpha_of(frame, name)), **CLOSE
        )


def _masi(a: frozenset[Any], b: frozenset[Any]) -> float:
    """Passonneau's MASI, written out for the check below (0 for two empty sets)."""
    union = len(a | b)
    if union == 0:
        return 0.0
    inter = len(a & b)
    m = 1.0 if a == b else 2 / 3 if inter == min(len(a), len(b)) else 1 / 3 if inter else 0.0
    return 1.0 - inter / union * m


def test_the_largest_distance_per_group() -> None:
    # Group 0 holds two disjoint sets (distance 1, where the search may stop); in group 1
    # every set holds "a" (the largest distance is below 1 and every pair is searched).
    rng = np.random.default_rng(3)
    rows = []
    for group in (0, 1):
        for item in range(30):
            for coder in ("x", "y"):
                extra = frozenset(rng.choice(list("bcdefg"), rng.integers(0, 4), replace=False))
                cell = extra | {"a"} if group or item else extra - {"a"} or frozenset({"b"})
                rows.append((coder, f"{group}-{item}", cell, group))
    rows[0] = ("x", "0-0", frozenset({"c"}), 0)
    rows[1] = ("y", "0-0", frozenset({"d"}), 0)
    frame = pd.DataFrame(rows, columns=["coder", "doc", "tags", "g"])
    table = alpha_of(frame, "masi", by="g")
    for group, part in frame.groupby("g"):
        sets = list(part["tags"].unique())
        largest = max(_masi(a, b) for a in sets for b in sets)
        assert table.loc[group, "max_delta2"] == pytest.approx(largest, rel=1e-12)
    assert table.loc[0, "max_delta2"] == 1.0 and table.loc[1, "max_delta2"] < 1.0


def test_the_report_names_the_method_for_a_set_distance() -> None:
    # "alpha:masi" used to be read as a weights name ("`weights` must be one of ...").
    frame = pd.DataFrame({"item": [1, 1, 2, 2], "rater": list("abab"),
                          "label": [{"x"}, {"x", "y"}, {"y"}, {"y"}]})  # fmt: skip
    ratings = frame.agree(item="item", rater="rater", label="label")
    with pytest.raises(ValueError, match=r"alpha:masi.*ratings\.alpha\(distance='masi'\)"):
        ratings.report(coefficients=["alpha:masi"])
