"""Primary and secondary labels in the encoding layer: ``rank=`` in long frames, tuples and
lists in wide cells, and the errors that name the (item, rater) at fault (issue 10)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import pdagree
from pdagree.encoding._ranks import split_cells

SPEC = {"item": "doc", "rater": "coder", "label": "tag", "rank": "rank"}


@pytest.fixture
def long() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "doc": ["d1", "d1", "d1", "d2", "d2", "d3", "d3", "d3"],
            "coder": ["p", "p", "q", "p", "q", "p", "q", "q"],
            "tag": ["x", "y", "x", "z", "z", "y", "x", "y"],
            "rank": [1, 2, 1, 1, 1, 1, 2, 1],
        }
    )


def wide_of(long: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame(
        {"p": [("x", "y"), "z", "y"], "q": ["x", "z", ["y", "x"]]},
        index=pd.Index(["d1", "d2", "d3"], name="doc"),
        dtype=object,
    )


def encoded(ratings: pdagree.Ratings) -> dict[str, list[object]]:
    """(item, rater) -> (primary, secondary) labels, in a layout-free form."""
    enc = ratings._data.enc
    cats = list(enc.categories)
    second = enc.secondary if enc.secondary is not None else np.full(len(enc.code), -1)
    return {
        (enc.items[i], enc.raters[r]): (cats[c], None if s < 0 else cats[s])
        for i, r, c, s in zip(enc.item, enc.rater, enc.code, second, strict=True)
    }


def test_long_and_wide_encode_the_same(long: pd.DataFrame) -> None:
    from_long = long.agree(**SPEC)
    from_wide = wide_of(long).agree()
    want = {
        ("d1", "p"): ("x", "y"),
        ("d1", "q"): ("x", None),
        ("d2", "p"): ("z", None),
        ("d2", "q"): ("z", None),
        ("d3", "p"): ("y", None),
        ("d3", "q"): ("y", "x"),
    }
    assert encoded(from_long) == want
    assert encoded(from_wide) == want
    assert list(from_long.categories) == ["x", "y", "z"]
    for p in (0.5, 0.8):
        assert float(from_long.multilabel(p=p)) == pytest.approx(float(from_wide.multilabel(p=p)))
    # Every other coefficient reads the primary labels.
    primary = long[long["rank"] == 1]
    assert float(from_long.cohen()) == pytest.approx(
        float(primary.agree(item="doc", rater="coder", label="tag").cohen())
    )


def test_row_order_does_not_matter(long: pd.DataFrame) -> None:
    shuffled = long.sample(frac=1.0, random_state=3)
    assert encoded(shuffled.agree(**SPEC)) == encoded(long.agree(**SPEC))


def test_ranks_as_floats_or_text(long: pd.DataFrame) -> None:
    for ranks in (long["rank"].astype(float), long["rank"].astype(str)):
        assert encoded(long.assign(rank=ranks).agree(**SPEC)) == encoded(long.agree(**SPEC))


def test_missing_labels_are_not_annotations(long: pd.DataFrame) -> None:
    # A missing secondary is no secondary; its rank does not matter.
    extra = pd.DataFrame({"doc": ["d2"], "coder": ["q"], "tag": [None], "rank": [None]})
    with_missing = pd.concat([long, extra], ignore_index=True)
    assert encoded(with_missing.agree(**SPEC)) == encoded(long.agree(**SPEC))


def test_no_secondary_label(long: pd.DataFrame) -> None:
    primary = long[long["rank"] == 1]
    ratings = primary.agree(**SPEC)
    assert ratings._data.enc.secondary is None
    assert float(ratings.multilabel(p=0.6)) == pytest.approx(float(ratings.cohen()))


def test_wide_cells() -> None:
    wide = pd.DataFrame(
        {"p": [("x", "y"), ("x",), ["z"], ("y", None), (), None], "q": ["x"] * 6},
        dtype=object,
    )
    assert encoded(wide.agree()) == {
        (0, "p"): ("x", "y"),
        (1, "p"): ("x", None),  # a 1-tuple is a single label
        (2, "p"): ("z", None),
        (3, "p"): ("y", None),  # a missing secondary is none
        **{(i, "q"): ("x", None) for i in range(6)},  # () and None: no annotation
    }
    # Tuple cells with a by= column and numbers as labels.
    numbers = pd.DataFrame({"p": [(1, 2), 3], "q": [1, (3, 1)], "g": ["u", "v"]}, dtype=object)
    ratings = numbers.agree(by="g")
    assert list(ratings.categories) == [1, 2, 3]
    assert ratings._data.enc.secondary.tolist() == [1, -1, -1, 0]


def test_split_cells_leaves_plain_labels_alone() -> None:
    values = np.array(["a", "b"], dtype=object)
    out, _, _, rank = split_cells(values, np.array([0, 1]), np.array([0, 0]))
    assert out is values and rank is None


# ------------------------------------------------------------------------------- errors


def message(n: int, what: str, shown: str, remedy: str) -> str:
    return re.escape(
        f"{n} (item, rater) pairs have {what}, e.g. {shown}; each rater gives an item one "
        f"primary label and at most one secondary label: {remedy}."
    )


@pytest.mark.parametrize(
    ("rows", "what", "shown", "remedy"),
    [
        (
            [("d2", "p", "y", 2), ("d2", "p", "x", 2)],
            "more than two labels",
            "[('d2', 'p')]",
            "drop the extra labels",
        ),
        (
            [("d2", "p", "y", 1)],
            "two primary labels",
            "[('d2', 'p')]",
            "give one of them rank 2, or keep one",
        ),
        (
            [("d4", "q", "y", 2)],
            "a secondary label but no primary",
            "[('d4', 'q')]",
            "add the primary label, or make the secondary the primary",
        ),
        (
            [("d2", "q", "z", 2)],
            "the same label as primary and secondary",
            "[('d2', 'q')]",
            "drop the repeated secondary label",
        ),
    ],
)
def test_long_errors(
    long: pd.DataFrame, rows: list[tuple[object, ...]], what: str, shown: str, remedy: str
) -> None:
    bad = pd.concat([long, pd.DataFrame(rows, columns=list(long.columns))], ignore_index=True)
    with pytest.raises(ValueError, match="^" + message(1, what, shown, remedy) + "$"):
        bad.agree(**SPEC)


@pytest.mark.parametrize(
    ("cell", "what", "remedy"),
    [
        (("x", "y", "z"), "more than two labels", "drop the extra labels"),
        (("x", None, "z"), "more than two labels", "drop the extra labels"),
        (
            (None, "y"),
            "a secondary label but no primary",
            "add the primary label, or make the secondary the primary",
        ),
        (
            ["x", "x"],
            "the same label as primary and secondary",
            "drop the repeated secondary label",
        ),
    ],
)
def test_wide_errors(cell: object, what: str, remedy: str) -> None:
    wide = pd.DataFrame(
        {"ann1": ["x", cell], "ann2": ["x", "y"]}, index=["m1", "m2"], dtype=object
    )
    with pytest.raises(ValueError, match="^" + message(1, what, "[('m2', 'ann1')]", remedy)):
        wide.agree()


def test_errors_count_and_show_a_few() -> None:
    wide = pd.DataFrame({"a": [("x", "y", "z")] * 7, "b": ["x"] * 7}, dtype=object)
    with pytest.raises(
        ValueError,
        match=re.escape(
            "7 (item, rater) pairs have more than two labels, e.g. [(0, 'a'), (1, 'a'), (2, 'a'), "
            "(3, 'a'), (4, 'a'), ...]"
        ),
    ):
        wide.agree()


@pytest.mark.parametrize(
    ("ranks", "shown", "n"),
    [
        ([1, 2, 1, 1, 1, 1, 3, 1], "[3]", 1),
        ([1, 2, 1, 1, None, 1, 2, 1], "[None]", 1),
        ([1, 2, 1, 1, 1, 1, "second", 0], "['second', 0]", 2),
    ],
)
def test_rank_values(long: pd.DataFrame, ranks: list[object], shown: str, n: int) -> None:
    with pytest.raises(
        ValueError,
        match=re.escape(
            f"`rank` column 'rank' must hold 1 (primary label) or 2 (secondary label) for every "
            f"label; {n} rows hold {shown}. Give each label its rank."
        ),
    ):
        long.assign(rank=pd.Series(ranks, dtype=object)).agree(**SPEC)


def test_boolean_ranks_are_refused(long: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match=r"rows hold \[True, False\]"):
        long.assign(rank=long["rank"] == 1).agree(**SPEC)


def test_rank_with_other_layouts(long: pd.DataFrame) -> None:
    with pytest.raises(
        TypeError,
        match=re.escape(
            "`rank` names the column of label ranks in a long frame (with `item`, `rater`, "
            "`label`); it does not apply to layout='wide'. In a wide frame a cell holds a "
            "primary and a secondary label as a tuple or list, primary first."
        ),
    ):
        wide_of(long).agree(rank="rank")
    with pytest.raises(TypeError, match="does not apply to layout='counts'"):
        pd.DataFrame({"x": [1, 2]}).agree(layout="counts", rank="rank")


def test_rank_column_checks(long: pd.DataFrame) -> None:
    with pytest.raises(
        ValueError, match=r"`rank` names column 'level', which is not in the frame"
    ):
        long.agree(**{**SPEC, "rank": "level"})
    with pytest.raises(ValueError, match=r"`by` and `rank` both name column 'rank'"):
        long.agree(**SPEC, by="rank")
    with pytest.raises(ValueError, match=r"`label` and `rank` both name column 'tag'"):
        long.agree(**{**SPEC, "rank": "tag"})


def test_duplicates_without_rank_point_to_rank(long: pd.DataFrame) -> None:
    with pytest.raises(
        ValueError,
        match=re.escape(
            "2 (item, rater) pairs have more than one label, e.g. [('d1', 'p'), ('d3', 'q')]; "
            "keep one label per rater and item (drop duplicates or aggregate them first), or "
            "pass `rank=` (1 = primary, 2 = secondary) for a primary and a secondary label."
        ),
    ):
        long.agree(item="doc", rater="coder", label="tag")


def test_secondary_labels_in_by_groups_and_subsets(long: pd.DataFrame) -> None:
    # Without declared categories each group has its own labels, secondary ones included.
    grouped = long.assign(g=long["doc"].map({"d1": 1, "d2": 2, "d3": 1})).agree(**SPEC, by="g")
    mask = grouped._data.category_mask
    assert mask.tolist() == [[True, True, False], [False, False, True]]
    with pytest.warns(
        pdagree.UndefinedStatisticWarning, match=r"in 1 of 2 groups \(e\.g\. \[2\]\)"
    ):
        frame = grouped.multilabel(p=0.6)  # group 2: one item, one label: p(E) = 1
    alone = long[long["doc"] != "d2"].agree(**SPEC).multilabel(p=0.6)
    assert frame.loc[1, "value"] == pytest.approx(float(alone))
    assert frame.loc[1, "n_categories"] == 2
