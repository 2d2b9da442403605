"""The encoding layer through the public accessor: layouts, category rules and bad input.

Every bad input of issue 2 (item 9) is pinned here with its exception type and message: the
parameter, the offending value and the remedy.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest
import references as ref

import pdagree
from pdagree import datasets


def melt(wide: pd.DataFrame, item: str = "item") -> pd.DataFrame:
    """The long form of a wide frame: one row per (item, rater), missing labels kept."""
    return (
        wide.rename_axis(item).reset_index().melt(id_vars=item, var_name="coder", value_name="tag")
    )


@pytest.fixture
def wide() -> pd.DataFrame:
    return pd.DataFrame(
        {"a": ["x", "y", "x", "y"], "b": ["x", "y", "y", "y"], "c": ["y", "y", "x", None]},
        index=pd.Index([10, 11, 12, 13], name="doc"),
    )


@pytest.fixture
def long() -> pd.DataFrame:
    return pd.DataFrame(
        {"doc": [1, 1, 2, 2, 3, 3], "coder": ["p", "q"] * 3, "tag": ["x", "y", "x", "x", "y", "y"]}
    )


# ----------------------------------------------------------------------------- wide layout


def test_wide_index_is_items_and_columns_are_raters(wide: pd.DataFrame) -> None:
    ratings = wide.agree()
    assert ratings.layout == "wide"
    assert list(ratings.raters) == ["a", "b", "c"]
    assert list(ratings.categories) == ["x", "y"]
    assert ratings.n_items == 4
    assert ratings.n_raters == 3
    assert ratings.n_categories == 2
    counts = ratings.counts()
    assert list(counts.index) == [10, 11, 12, 13]
    assert counts.index.name == "doc"
    assert counts.to_numpy().tolist() == [[2, 1], [0, 3], [2, 1], [0, 2]]


@pytest.mark.parametrize("missing", [np.nan, None, pd.NA])
def test_wide_missing_cells_are_not_annotations(missing: object) -> None:
    df = pd.DataFrame({"a": ["x", "y", missing], "b": ["x", "y", "x"]}, dtype=object)
    items = df.agree.items()
    assert items["n_ratings"].tolist() == [2, 2, 1]
    assert np.isnan(items["agreement"].iloc[2])
    assert list(df.agree().categories) == ["x", "y"]
    assert float(df.agree.observed()) == 1.0


def test_wide_string_dtype_missing_values() -> None:
    df = pd.DataFrame(
        {
            "a": pd.Series(["x", None, "y"], dtype="string"),
            "b": pd.Series(["x", "x", "y"], dtype="string"),
        }
    )
    assert df.agree.items()["n_ratings"].tolist() == [2, 1, 2]
    assert float(df.agree.cohen()) == 1.0


def test_raters_selects_columns(wide: pd.DataFrame) -> None:
    df = wide.assign(note=["n1", "n2", "n3", "n4"])
    ratings = df.agree(raters=["a", "b"])
    assert list(ratings.raters) == ["a", "b"]
    expected = wide[["a", "b"]].agree.cohen()
    assert float(ratings.cohen()) == float(expected)


def test_raters_order_is_kept(wide: pd.DataFrame) -> None:
    assert list(wide.agree(raters=["c", "a"]).raters) == ["c", "a"]


def test_by_columns_are_not_raters(wide: pd.DataFrame) -> None:
    df = wide.assign(g=[1, 1, 2, 2])
    ratings = df.agree(by="g")
    assert list(ratings.raters) == ["a", "b", "c"]
    assert list(ratings.groups) == [1, 2]
    assert ratings.groups.name == "g"


def test_by_several_columns_gives_a_multiindex(wide: pd.DataFrame) -> None:
    df = wide.assign(g=[1, 1, 2, 2], h=["u", "v", "u", "v"])
    groups = df.agree(by=["g", "h"]).groups
    assert isinstance(groups, pd.MultiIndex)
    assert list(groups.names) == ["g", "h"]
    assert list(groups) == [(1, "u"), (1, "v"), (2, "u"), (2, "v")]


# ----------------------------------------------------------------------------- long layout


def test_long_layout_equals_wide() -> None:
    wide = datasets.load("fort2011_trains")
    long = melt(wide)
    ratings = long.agree(item="item", rater="coder", label="tag")
    assert ratings.layout == "long"
    assert list(ratings.raters) == ["Annot1", "Annot2", "Annot3", "Annot4"]
    pd.testing.assert_frame_equal(ratings.counts(), wide.agree.counts())
    assert float(ratings.fleiss()) == pytest.approx(float(wide.agree.fleiss()), rel=1e-12)


def test_long_missing_labels_are_not_annotations(long: pd.DataFrame) -> None:
    extra = pd.DataFrame({"doc": [3, 4], "coder": ["r", "r"], "tag": [None, np.nan]})
    with_missing = pd.concat([long, extra], ignore_index=True)
    a = long.agree(item="doc", rater="coder", label="tag")
    b = with_missing.agree(item="doc", rater="coder", label="tag")
    pd.testing.assert_frame_equal(a.counts(), b.counts())
    assert float(a.cohen()) == float(b.cohen())


def test_long_by_keeps_items_within_groups() -> None:
    # The same item label in two groups is two items.
    long = pd.DataFrame(
        {
            "g": ["u", "u", "v", "v"],
            "doc": [1, 1, 1, 1],
            "coder": ["p", "q", "p", "q"],
            "tag": ["x", "x", "x", "y"],
        }
    )
    ratings = long.agree(item="doc", rater="coder", label="tag", by="g")
    assert ratings.n_items == 2
    result = ratings.observed()
    assert result["value"].tolist() == [1.0, 0.0]
    assert list(ratings.items().index) == [("u", 1), ("v", 1)]


# --------------------------------------------------------------------------- counts layout


def test_counts_layout_reads_fleiss_table() -> None:
    # Fleiss (1971), Table 1: patients x diagnoses, counts of 6 psychiatrists.
    table = pd.DataFrame(ref.FLEISS_1971_COUNTS, columns=ref.FLEISS_1971_CATEGORIES)
    ratings = table.agree(layout="counts")
    assert ratings.layout == "counts"
    assert ratings.raters is None
    assert list(ratings.categories) == ref.FLEISS_1971_CATEGORIES  # column order kept
    assert float(ratings.fleiss()) == pytest.approx(ref.FLEISS_1971_KAPPA, abs=5e-4)
    pd.testing.assert_frame_equal(
        ratings.counts(), table.rename_axis(columns="category"), check_dtype=False
    )


def test_counts_round_trip() -> None:
    wide = datasets.load("fort2011_trains")
    counts = wide.agree.counts()
    again = counts.agree(layout="counts")
    pd.testing.assert_frame_equal(again.counts(), counts)
    for method in ("observed", "bennett", "fleiss"):
        a = getattr(wide.agree, method)()
        b = getattr(again, method)()
        assert float(b) == pytest.approx(float(a), rel=1e-12)


def test_counts_layout_with_by() -> None:
    counts = datasets.load("artstein_poesio2005").agree.counts()
    grouped = counts.assign(g=[1] * 5 + [2] * 5).agree(layout="counts", by="g")
    assert list(grouped.categories) == ["N", "Y"]
    result = grouped.fleiss()
    for key, sub in counts.groupby(np.repeat([1, 2], 5)):
        assert result.loc[key, "value"] == pytest.approx(
            float(sub.agree(layout="counts").fleiss())
        )


def test_scott_accepts_counts_table() -> None:
    # Scott's pi needs no rater identity (Fort 2011, slide 21: A_e from the pooled totals);
    # The layouts' contract lists only Cohen, Conger, bias, IRT and frequencies as refusing
    # the counts layout, and asks for identical values on identical data.
    wide = datasets.load("artstein_poesio2005")
    counts = wide.agree.counts()
    assert float(counts.agree(layout="counts").scott()) == pytest.approx(
        float(wide.agree.scott()), rel=1e-12
    )


def test_scott_on_counts_table_with_more_than_two_ratings() -> None:
    counts = datasets.load("fort2011_trains").agree.counts()
    with pytest.raises(
        ValueError, match=r"`scott\(\)` is defined for two ratings per item.*up to 4.*`fleiss\(\)`"
    ):
        counts.agree(layout="counts").scott()


# ------------------------------------------------------------------------ categories rules


def test_default_categories_are_sorted_observed_labels() -> None:
    df = pd.DataFrame({"a": ["pear", "apple", "fig"], "b": ["fig", "fig", "apple"]})
    assert list(df.agree().categories) == ["apple", "fig", "pear"]


def test_numeric_labels_sort_numerically() -> None:
    df = pd.DataFrame({"a": [10, 2, 1], "b": [2, 2, 10]})
    assert list(df.agree().categories) == [1, 2, 10]


def test_declared_categories_fix_order_and_add_unused() -> None:
    df = pd.DataFrame({"a": ["x", "y"], "b": ["x", "x"]})
    ratings = df.agree(categories=["y", "x", "z"])
    assert list(ratings.categories) == ["y", "x", "z"]
    assert list(ratings.counts().columns) == ["y", "x", "z"]
    assert ratings.bennett().expected == pytest.approx(1 / 3)


def test_declared_int_categories_match_float_labels() -> None:
    # A column with a missing value holds floats; its labels still match int categories.
    df = pd.DataFrame({"a": [1, 2, np.nan], "b": [1, 2, 3]})
    ratings = df.agree(categories=[1, 2, 3, 4])
    assert ratings.counts().to_numpy().tolist() == [[2, 0, 0, 0], [0, 2, 0, 0], [0, 0, 1, 0]]


def test_ordered_categorical_order_wins() -> None:
    dtype = pd.CategoricalDtype(["lo", "mid", "hi"], ordered=True)
    df = pd.DataFrame(
        {"a": pd.Series(["hi", "lo"], dtype=dtype), "b": pd.Series(["hi", "hi"], dtype=dtype)}
    )
    ratings = df.agree()
    # The unused "mid" is declared by the dtype, so Bennett's S uses K = 3.
    assert list(ratings.categories) == ["lo", "mid", "hi"]
    assert ratings.bennett().expected == pytest.approx(1 / 3)
    # Passing the same categories is fine.
    assert list(df.agree(categories=["lo", "mid", "hi"]).categories) == ["lo", "mid", "hi"]


def test_ordered_categorical_in_long_frame() -> None:
    dtype = pd.CategoricalDtype(["lo", "mid", "hi"], ordered=True)
    long = pd.DataFrame(
        {
            "doc": [1, 1, 2, 2],
            "coder": ["p", "q", "p", "q"],
            "tag": pd.Series(["hi", "hi", "lo", "hi"], dtype=dtype),
        }
    )
    ratings = long.agree(item="doc", rater="coder", label="tag")
    assert list(ratings.categories) == ["lo", "mid", "hi"]


def test_ordered_categorical_conflicting_categories() -> None:
    dtype = pd.CategoricalDtype(["lo", "hi"], ordered=True)
    df = pd.DataFrame({"a": pd.Series(["lo"], dtype=dtype), "b": pd.Series(["hi"], dtype=dtype)})
    with pytest.raises(TypeError, match=r"ordered Categorical.*`categories` \['hi', 'lo'\]"):
        df.agree(categories=["hi", "lo"])


def test_mixed_ordered_and_plain_columns() -> None:
    # Issue 9: one ordered Categorical column and plain text columns are unambiguous: the
    # Categorical fixes the order (and declares its unused "mid"), the others follow it.
    dtype = pd.CategoricalDtype(["lo", "mid", "hi"], ordered=True)
    plain = pd.DataFrame(
        {"a": ["lo", "hi", "hi"], "b": ["hi", "hi", "lo"], "c": ["lo", "hi", "hi"]}
    )
    mixed = plain.assign(a=plain["a"].astype(dtype))
    ratings = mixed.agree()
    assert list(ratings.categories) == ["lo", "mid", "hi"]
    assert ratings.layout == "wide"
    everywhere = plain.astype(dtype).agree()
    for name in ("fleiss", "bennett", "conger", "gwet"):
        assert float(getattr(ratings, name)()) == float(getattr(everywhere, name)())
    assert float(ratings.fleiss(weights="linear")) == float(everywhere.fleiss(weights="linear"))
    # An unordered Categorical among them follows the ordered one as well.
    unordered = mixed.assign(b=plain["b"].astype("category"))
    assert list(unordered.agree().categories) == ["lo", "mid", "hi"]


def test_mixed_columns_label_outside_the_ordered_categorical() -> None:
    dtype = pd.CategoricalDtype(["lo", "hi"], ordered=True)
    df = pd.DataFrame({"a": pd.Series(["lo", "hi"], dtype=dtype), "b": ["hi", "top"]})
    message = (
        "rating column 'b' holds the label 'top', which is not among the categories "
        "['lo', 'hi'] of the ordered Categorical rating column 'a', whose order the other "
        "rating columns follow. Add it to the Categorical's categories "
        "(df['a'].cat.add_categories(...)) or fix the label."
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        df.agree()


def test_ordered_categoricals_with_different_orders() -> None:
    up = pd.CategoricalDtype(["lo", "hi"], ordered=True)
    down = pd.CategoricalDtype(["hi", "lo"], ordered=True)
    df = pd.DataFrame(
        {
            "a": pd.Series(["lo", "hi"], dtype=up),
            "b": ["lo", "lo"],
            "c": pd.Series(["hi", "lo"], dtype=down),
        }
    )
    message = (
        "rating columns 'a' and 'c' are ordered Categoricals with different categories or "
        "orders, ['lo', 'hi'] and ['hi', 'lo']; an ordered Categorical fixes the order, so they "
        "must agree. Give both the same dtype, e.g. df['c'].astype(df['a'].dtype)."
    )
    with pytest.raises(TypeError, match=re.escape(message)):
        df.agree()


def test_long_categorical_with_categories_in_its_order() -> None:
    # Issue 9: `categories=` beside an ordered Categorical label column is accepted when it
    # lists the Categorical's categories (or some of them) in the Categorical's order.
    dtype = pd.CategoricalDtype(["lo", "mid", "hi"], ordered=True)
    long = pd.DataFrame(
        {
            "doc": [1, 1, 2, 2, 3, 3],
            "coder": ["p", "q"] * 3,
            "tag": pd.Series(["lo", "hi", "hi", "hi", "lo", "lo"], dtype=dtype),
        }
    )
    full = long.agree(item="doc", rater="coder", label="tag", categories=["lo", "mid", "hi"])
    assert list(full.categories) == ["lo", "mid", "hi"]
    # Some of them, in its order: the categories declared, so "mid" is left out.
    some = long.agree(item="doc", rater="coder", label="tag", categories=["lo", "hi"])
    assert list(some.categories) == ["lo", "hi"]
    assert float(some.bennett()) == float(
        long.astype({"tag": str})
        .agree(item="doc", rater="coder", label="tag", categories=["lo", "hi"])
        .bennett()
    )
    message = (
        "`categories` lists 'top', which is not among the categories ['lo', 'mid', 'hi'] of the "
        "ordered Categorical labels; an ordered Categorical fixes the categories and their "
        "order, and a category outside it has no place in that order. Drop it from "
        "`categories`, or add it to the Categorical's categories (`.cat.add_categories(...)`, "
        "`.cat.reorder_categories(...)`)."
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        long.agree(item="doc", rater="coder", label="tag", categories=["lo", "mid", "hi", "top"])
    with pytest.raises(TypeError, match=r"ordered Categorical.*`categories` \['hi', 'lo'\]"):
        long.agree(item="doc", rater="coder", label="tag", categories=["hi", "lo"])
    # A label the subset leaves out is a rating outside `categories`.
    with pytest.raises(ValueError, match=re.escape("missing from `categories`, e.g. ['hi']")):
        long.agree(item="doc", rater="coder", label="tag", categories=["lo", "mid"])


def test_counts_declared_categories_add_unused() -> None:
    counts = datasets.load("fort2011_balanced").agree.counts()
    ratings = counts.agree(layout="counts", categories=["Yes", "No", "C", "D"])
    assert list(ratings.categories) == ["Yes", "No", "C", "D"]
    # Fort (2011), slide 21: S = 0.73 once C and D are declared.
    assert float(ratings.bennett()) == pytest.approx(0.73, abs=5e-3)


# --------------------------------------------------------------- bad input (issue 2, item 9)


def test_empty_frame() -> None:
    with pytest.raises(ValueError, match=re.escape("the frame is empty (0 rows)")):
        pd.DataFrame({"a": [], "b": []}).agree.fleiss()
    with pytest.raises(ValueError, match=re.escape("the frame is empty (0 rows)")):
        pd.DataFrame().agree()


def test_empty_long_frame(long: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match=re.escape("the frame is empty (0 rows)")):
        long.iloc[:0].agree(item="doc", rater="coder", label="tag")


def test_frame_without_ratings() -> None:
    df = pd.DataFrame({"a": [None, None], "b": [np.nan, None]})
    with pytest.raises(ValueError, match="every rating cell is missing"):
        df.agree()


def test_long_frame_without_labels(long: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match=r"`label` column 'tag' holds no labels"):
        long.assign(tag=None).agree(item="doc", rater="coder", label="tag")


def test_not_a_dataframe() -> None:
    with pytest.raises(TypeError, match="expected a pandas DataFrame; got list"):
        pdagree.Ratings.from_frame([["x", "y"]])  # type: ignore[arg-type]


def test_single_rater_wide() -> None:
    df = pd.DataFrame({"a": ["x", "y"]})
    with pytest.raises(
        ValueError,
        match=r"at least two raters; the wide frame has 1 rater column\(s\) \['a'\]\. "
        r"Add raters, or pass `item=`, `rater=`, `label=`",
    ):
        df.agree.fleiss()


def test_single_rater_after_selection(wide: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match=r"at least two raters.*\['b'\]"):
        wide.agree(raters=["b"])


def test_single_rater_long(long: pd.DataFrame) -> None:
    with pytest.raises(
        ValueError, match=r"at least two raters; `rater` column 'coder' has 1 \(\['p'\]\)"
    ):
        long[long["coder"] == "p"].agree(item="doc", rater="coder", label="tag")


@pytest.mark.parametrize("param", ["item", "rater", "label"])
def test_long_frame_without_named_column(long: pd.DataFrame, param: str) -> None:
    names = {"item": "doc", "rater": "coder", "label": "tag"}
    names[param] = "nope"
    with pytest.raises(
        ValueError,
        match=rf"`{param}` names column 'nope', which is not in the frame; available "
        r"columns: \['doc', 'coder', 'tag'\]",
    ):
        long.agree(**names)


@pytest.mark.parametrize(
    ("given", "missing"),
    [
        ({"item": "doc", "rater": "coder"}, "missing `label`"),
        ({"label": "tag"}, "missing `item`, `rater`"),
        ({"item": "doc"}, "missing `rater`, `label`"),
    ],
)
def test_partial_layout_arguments(long: pd.DataFrame, given: dict[str, str], missing: str) -> None:
    with pytest.raises(
        TypeError,
        match=r"a long frame needs `item`, `rater` and `label` together; got .*" + missing,
    ):
        long.agree(**given)


def test_partial_layout_arguments_names_given_values(long: pd.DataFrame) -> None:
    with pytest.raises(TypeError, match=r"got item='doc', rater='coder', missing `label`"):
        long.agree(item="doc", rater="coder")


def test_long_arguments_with_counts_layout(long: pd.DataFrame) -> None:
    with pytest.raises(TypeError, match=r"do not apply to layout='counts'"):
        long.agree(layout="counts", item="doc")


def test_raters_with_long_frame(long: pd.DataFrame) -> None:
    with pytest.raises(TypeError, match="`raters` selects columns of a wide frame"):
        long.agree(item="doc", rater="coder", label="tag", raters=["p", "q"])


def test_unknown_layout(wide: pd.DataFrame) -> None:
    with pytest.raises(
        ValueError,
        match=r"`layout` must be one of 'wide', 'long', 'counts', 'contingency'; got 'tall'",
    ):
        wide.agree(layout="tall")  # type: ignore[arg-type]


def test_duplicate_pairs(long: pd.DataFrame) -> None:
    dup = pd.concat([long, long.iloc[[0]].assign(tag="z")], ignore_index=True)
    with pytest.raises(
        ValueError,
        match=r"1 \(item, rater\) pairs have more than one label, e\.g\. .*; keep one label "
        r"per rater and item \(drop duplicates or aggregate them first\)",
    ):
        dup.agree(item="doc", rater="coder", label="tag")


def test_duplicate_pairs_shows_a_few() -> None:
    long = pd.DataFrame(
        {"doc": [f"d{i}" for i in range(8)] * 2, "coder": ["p"] * 16, "tag": ["x"] * 16}
    )
    long = pd.concat([long, pd.DataFrame({"doc": ["d0"], "coder": ["q"], "tag": ["x"]})])
    with pytest.raises(
        ValueError,
        match=re.escape(
            "8 (item, rater) pairs have more than one label, e.g. [('d0', 'p'), ('d1', 'p'), "
            "('d2', 'p'), ('d3', 'p'), ('d4', 'p')"
        ),
    ):
        long.agree(item="doc", rater="coder", label="tag")


def test_duplicate_pairs_show_labels_as_written(long: pd.DataFrame) -> None:
    # The user wrote item 1; the message should say 1, not np.int64(1).
    dup = pd.concat([long, long.iloc[[0]]], ignore_index=True)
    with pytest.raises(ValueError, match=re.escape("e.g. [(1, 'p')]")):
        dup.agree(item="doc", rater="coder", label="tag")


def test_labels_outside_categories(wide: pd.DataFrame) -> None:
    with pytest.raises(
        ValueError,
        match=re.escape(
            "7 ratings use labels missing from `categories`, e.g. ['y']; add them to "
            "`categories` or drop those ratings."
        ),
    ):
        wide.agree(categories=["x"])


def test_labels_outside_categories_long(long: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match=r"3 ratings use labels missing from `categories`"):
        long.agree(item="doc", rater="coder", label="tag", categories=["x", "z"])


def test_categories_given_as_a_string(wide: pd.DataFrame) -> None:
    with pytest.raises(
        TypeError, match=re.escape("got the string 'xy'. Wrap it in a list: categories=['xy'].")
    ):
        wide.agree(categories="xy")  # type: ignore[arg-type]


def test_repeated_categories(wide: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match=r"`categories` must not repeat a category; got \['x'\]"):
        wide.agree(categories=["x", "y", "x"])


def test_unorderable_labels() -> None:
    df = pd.DataFrame({"a": [1, "x"], "b": ["x", 1]})
    with pytest.raises(TypeError, match=r"cannot be put in order; pass `categories=\[\.\.\.\]`"):
        df.agree()
    # Declaring the categories is the remedy.
    assert list(df.agree(categories=["x", 1]).categories) == ["x", 1]


@pytest.mark.parametrize(
    ("cell", "shown"),
    [
        # A list or tuple cell holds a primary and a secondary label (issue 10); a list among
        # them is still no label.
        ((["x"], "y"), r"\['x'\] of type list"),
        ({"x": 1}, r"\{'x': 1\} of type dict"),
    ],
)
def test_unhashable_labels_wide(cell: object, shown: str) -> None:
    df = pd.DataFrame({"a": [cell, "y"], "b": ["x", "y"]})
    with pytest.raises(
        TypeError,
        match=r"labels must be hashable scalars; a rating cell holds " + shown + r"\. Use one "
        r"label per cell",
    ):
        df.agree.fleiss()


def test_unhashable_labels_long(long: pd.DataFrame) -> None:
    bad = long.assign(tag=[{"x": 1}, "y", "x", "x", "y", "y"])
    with pytest.raises(TypeError, match=r"`label` column 'tag' holds \{'x': 1\} of type dict"):
        bad.agree(item="doc", rater="coder", label="tag")
    # #30: a list (or set) in a long frame's cell is a set of labels, one category per set.
    sets = long.assign(tag=[["x", "y"], "y", "x", {"y", "x"}, "y", "y"])
    categories = sets.agree(item="doc", rater="coder", label="tag").categories
    assert categories.tolist() == ["x", "y", frozenset({"x", "y"})]


@pytest.mark.parametrize("param", ["item", "rater"])
def test_missing_item_or_rater(long: pd.DataFrame, param: str) -> None:
    column = {"item": "doc", "rater": "coder"}[param]
    bad = long.astype({column: object})
    bad.loc[0, column] = None
    with pytest.raises(
        ValueError,
        match=rf"`{param}` column '{column}' has 1 missing values; every annotation needs its "
        rf"{param}\. Fill them or drop those rows\.",
    ):
        bad.agree(item="doc", rater="coder", label="tag")


@pytest.mark.parametrize("param", ["item", "rater"])
@pytest.mark.parametrize("where", ["labelled row", "unlabelled row", "both"])
def test_missing_item_or_rater_wherever_it_is(long: pd.DataFrame, param: str, where: str) -> None:
    # The missing keys are found by the factorization of the labelled rows and by a look at
    # the rows without a label: either way the message counts the whole column.
    column = {"item": "doc", "rater": "coder"}[param]
    bad = long.astype({column: object, "tag": object})
    bad.loc[5, "tag"] = None  # a row without a label
    rows = {"labelled row": [0], "unlabelled row": [5], "both": [0, 5]}[where]
    bad.loc[rows, column] = None
    before = bad.copy()
    with pytest.raises(
        ValueError, match=rf"`{param}` column '{column}' has {len(rows)} missing values"
    ):
        bad.agree(item="doc", rater="coder", label="tag")
    pd.testing.assert_frame_equal(bad, before)


def test_missing_item_within_by_groups(long: pd.DataFrame) -> None:
    bad = long.assign(g=["a", "a", "b", "b", "a", "a"]).astype({"doc": "float64"})
    bad.loc[2, "doc"] = np.nan
    with pytest.raises(ValueError, match=r"`item` column 'doc' has 1 missing values"):
        bad.agree(item="doc", rater="coder", label="tag", by="g")


STORAGES = {
    "pyarrow str": pd.StringDtype("pyarrow", na_value=np.nan),
    "python str": pd.StringDtype("python", na_value=np.nan),
    "python string (pd.NA)": pd.StringDtype("python"),
    "object": np.dtype(object),
}


@pytest.mark.parametrize("storage", list(STORAGES))
def test_every_text_storage_gives_the_same_results(storage: str) -> None:
    # The same labels held by pandas in any of its string storages: the same encoding, so the
    # same coefficients, breakdowns and labels (each storage takes its own hashing path).
    pytest.importorskip("pyarrow") if storage.startswith("pyarrow") else None
    rng = np.random.default_rng(7)
    n = 400
    frame = pd.DataFrame(
        {
            "item": rng.integers(0, 60, n),
            "rater": np.array(["ann", "bob", "cy", "dee"], dtype=object)[rng.integers(0, 4, n)],
            "label": np.array(["neg", "pos", "neu", None], dtype=object)[rng.integers(0, 4, n)],
        }
    ).drop_duplicates(["item", "rater"])
    reference = frame.agree(item="item", rater="rater", label="label")
    held = frame.astype({"rater": STORAGES[storage], "label": STORAGES[storage]})
    before = held.copy()
    ratings = held.agree(item="item", rater="rater", label="label")
    assert list(ratings.raters) == list(reference.raters)
    assert list(ratings.categories) == list(reference.categories)
    pd.testing.assert_frame_equal(ratings.items(), reference.items())
    for method in ("fleiss", "conger", "gwet", "alpha", "observed", "bennett"):
        got, want = getattr(ratings, method)(), getattr(reference, method)()
        assert float(got) == float(want), method
    pd.testing.assert_frame_equal(ratings.per_category(), reference.per_category())
    pd.testing.assert_frame_equal(held, before)


@pytest.mark.parametrize("backend", ["numpy_nullable", "pyarrow"])
def test_a_csv_read_with_any_dtype_backend_gives_the_same_results(backend: str) -> None:
    # read_csv(dtype_backend=...) gives Int64 / int64[pyarrow] ids and ratings and
    # string[pyarrow] text: each takes a fast path of its own, with the same results.
    import io

    pytest.importorskip("pyarrow")
    rng = np.random.default_rng(11)
    n = 300
    frame = pd.DataFrame(
        {
            "item": rng.integers(1000, 1060, n),
            "rater": np.array(["ann", "bob", "cy"], dtype=object)[rng.integers(0, 3, n)],
            "label": np.array(["neg", "pos", None], dtype=object)[rng.integers(0, 3, n)],
            "score": np.array([1.0, 2.0, 5.0, np.nan])[rng.integers(0, 4, n)],
        }
    ).drop_duplicates(["item", "rater"])
    text = frame.to_csv(index=False)
    plain = pd.read_csv(io.StringIO(text))
    typed = pd.read_csv(io.StringIO(text), dtype_backend=backend)
    assert not isinstance(typed["item"].dtype, np.dtype)  # a nullable integer dtype
    for label in ("label", "score"):
        want = plain.agree(item="item", rater="rater", label=label)
        got = typed.agree(item="item", rater="rater", label=label)
        assert list(got.categories) == list(want.categories)
        for method in ("fleiss", "alpha", "gwet"):
            assert float(getattr(got, method)()) == float(getattr(want, method)()), method
        assert float(got.alpha("interval" if label == "score" else "nominal")) == float(
            want.alpha("interval" if label == "score" else "nominal")
        )
        pd.testing.assert_frame_equal(
            got.items(), want.items(), check_index_type=False, check_dtype=False
        )


@pytest.fixture
def counts() -> pd.DataFrame:
    return pd.DataFrame({"x": [2, 1, 0], "y": [0, 1, 2]})


def test_negative_counts(counts: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match=r"counts must be non-negative integers; got \[-1\]\. "):
        counts.assign(x=[-1, 1, 0]).agree(layout="counts")


def test_fractional_counts(counts: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match=r"counts must be whole numbers; got \[1\.5\]"):
        counts.assign(x=[1.5, 1, 0]).agree(layout="counts")


def test_nan_counts(counts: pd.DataFrame) -> None:
    with pytest.raises(
        ValueError,
        match=r"counts must not be missing; 1 cells are NaN, e\.g\. at \[\(0, 'x'\)\]\. "
        r"Use 0 for a category nobody chose\.",
    ):
        counts.assign(x=[np.nan, 1, 0]).agree(layout="counts")


def test_infinite_counts(counts: pd.DataFrame) -> None:
    # An infinite count is no more a count than NaN is.
    with pytest.raises(ValueError, match=r"counts must"):
        counts.assign(x=[np.inf, 1, 0]).agree(layout="counts").fleiss()


def test_non_numeric_counts(counts: pd.DataFrame) -> None:
    with pytest.raises(
        TypeError, match=r"counts must be numbers; columns \['x'\] are not numeric"
    ):
        counts.assign(x=["a", "b", "c"]).agree(layout="counts")


def test_all_zero_counts(counts: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match=r"the counts table holds no ratings"):
        (counts * 0).agree(layout="counts")


def test_counts_columns_outside_categories(counts: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match=r"counts columns \['y'\] are missing from `categories`"):
        counts.agree(layout="counts", categories=["x"])


@pytest.mark.parametrize("method", ["scott", "cohen"])
def test_two_rater_coefficients_with_three_raters(wide: pd.DataFrame, method: str) -> None:
    pointer = {"scott": r"`fleiss\(\)`", "cohen": r"`conger\(\)`.*`light\(\)`.*`fleiss\(\)`"}
    with pytest.raises(
        ValueError,
        match=rf"`{method}\(\)` is defined for exactly two raters; got 3 \(\['a', 'b', 'c'\]\)\. "
        rf"For more raters use {pointer[method]}.*or select two with `raters=\[\.\.\.\]`",
    ):
        getattr(wide.agree, method)()


@pytest.mark.parametrize("by", ["zz", ["a", "zz"]])
def test_by_column_that_does_not_exist(wide: pd.DataFrame, by: object) -> None:
    with pytest.raises(
        ValueError,
        match=r"`by` names column 'zz', which is not in the frame; available columns: "
        r"\['a', 'b', 'c'\]",
    ):
        wide.agree(by=by).fleiss()


def test_by_column_that_does_not_exist_long(long: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match=r"`by` names column 'zz', which is not in the frame"):
        long.agree(item="doc", rater="coder", label="tag", by="zz")


def test_by_column_with_missing_keys(wide: pd.DataFrame) -> None:
    # Rows without a key are left out with a warning that counts them, as groupby leaves
    # them out (issue 8, point 13); the frame itself is not modified.
    framed = wide.assign(g=[1, None, 2, 2])
    before = framed.copy()
    with pytest.warns(
        pdagree.PdagreeWarning, match=r"`by` is missing on 1 of 4 rows \('g' on 1\); they are"
    ):
        grouped = framed.agree(by="g").fleiss()
    pd.testing.assert_frame_equal(framed, before)
    assert list(grouped.index) == [1.0, 2.0]
    kept = framed.dropna(subset=["g"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pdagree.UndefinedStatisticWarning)
        expected = kept.agree(by="g").fleiss()
        pd.testing.assert_frame_equal(grouped, expected)


def test_raters_and_by_overlap(wide: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match=r"`raters` and `by` share columns \['a'\]"):
        wide.agree(raters=["a", "b"], by="a")


def test_raters_column_that_does_not_exist(wide: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match=r"`raters` names column 'zz', which is not in the frame"):
        wide.agree(raters=["a", "zz"])


@pytest.mark.parametrize(
    ("method", "args"),
    [
        ("cohen", ()),
        ("conger", ()),
        ("light", ()),
        ("bias", ()),
        ("frequencies", ()),
        ("pairwise", ()),
        ("contingency", ("x", "y")),
    ],
)
def test_rater_identity_on_counts_table(
    counts: pd.DataFrame, method: str, args: tuple[str, ...]
) -> None:
    ratings = counts.agree(layout="counts")
    with pytest.raises(
        ValueError,
        match=rf"`{method}\(\)` needs to know which rater gave each rating, and a counts table "
        r"does not record it\. Use a wide frame \(one column per rater\) or a long frame",
    ):
        getattr(ratings, method)(*args)


def test_contingency_unknown_rater(wide: pd.DataFrame) -> None:
    with pytest.raises(
        ValueError, match=r"`b` must be one of the raters \['a', 'b', 'c'\]; got 'z'"
    ):
        wide.agree().contingency("a", "z")


def test_pairwise_unknown_method(wide: pd.DataFrame) -> None:
    with pytest.raises(
        ValueError, match=r"`coefficient` must be one of 'cohen', .*; got 'fleiss'"
    ):
        wide.agree().pairwise("fleiss")  # type: ignore[arg-type]
