"""Labels to categories (issue 8, points 2 and 3): numbers stored as text are numbers, text
labels have no order unless one is declared, and a Categorical declares its categories.

The reference values come from the same data coded as numbers, whose results the other test
modules check against published values and independent implementations.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import pdagree  # noqa: F401  (registers the accessor)
from pdagree import datasets
from pdagree._warnings import LayoutWarning
from pdagree.encoding._encode import encode
from pdagree.encoding.levels import metric_for
from pdagree.encoding.weights import weight_matrix

# 4 raters, 12 items, a 1..10 scale (Krippendorff-style incomplete design).
SCALE = {
    "A": [1, 2, 3, 3, 2, 1, 4, 1, 2, 10, 9, 7],
    "B": [1, 2, 3, 3, 2, 2, 4, 1, 2, 10, 8, 7],
    "C": [2, 3, 3, 3, 2, 3, 4, 2, 2, 9, 10, 6],
    "D": [1, 2, 3, 4, 2, 4, 4, 1, 2, 10, 10, 7],
}


@pytest.fixture
def numbers() -> pd.DataFrame:
    return pd.DataFrame(SCALE)


@pytest.fixture
def text_numbers(numbers: pd.DataFrame) -> pd.DataFrame:
    """The same ratings as read_csv gives them when the column also holds text: strings."""
    return numbers.map(str).astype(object)


def test_numbers_as_text_order_by_value(text_numbers: pd.DataFrame) -> None:
    ratings = text_numbers.agree()
    assert list(ratings.categories) == ["1", "2", "3", "4", "6", "7", "8", "9", "10"]
    enc = encode(text_numbers)
    assert enc.ordered
    assert enc.values is not None
    assert enc.values.tolist() == [1.0, 2.0, 3.0, 4.0, 6.0, 7.0, 8.0, 9.0, 10.0]


@pytest.mark.parametrize(
    ("method", "kwargs"),
    [
        ("alpha", {"level": "ordinal"}),
        ("alpha", {"level": "interval"}),
        ("alpha", {"level": "ratio"}),
        ("gwet", {"weights": "linear"}),
        ("fleiss", {"weights": "quadratic"}),
        ("cohen", {"weights": "ordinal"}),
    ],
)
def test_numbers_as_text_equal_numbers(
    numbers: pd.DataFrame, text_numbers: pd.DataFrame, method: str, kwargs: dict[str, str]
) -> None:
    frames = (numbers, text_numbers)
    if method == "cohen":
        frames = (numbers[["A", "B"]], text_numbers[["A", "B"]])
    want, got = (getattr(f.agree, method)(**kwargs) for f in frames)
    assert float(got) == pytest.approx(float(want), rel=1e-12)
    assert got.categories == tuple(str(c) for c in want.categories)


def test_numbers_as_text_in_a_long_frame_with_text_elsewhere(numbers: pd.DataFrame) -> None:
    # The column mixes two tasks, so read_csv keeps it as text; one task's labels are numbers.
    long = numbers.rename_axis("item").reset_index().melt("item", var_name="coder")
    long["value"] = long["value"].map(str)
    other = long.assign(task="sentiment", value=np.where(long["item"] % 2, "pos", "neg"))
    mixed = pd.concat([long.assign(task="score"), other], ignore_index=True)
    score = mixed[mixed["task"] == "score"]
    got = score.agree(item="item", rater="coder", label="value").alpha(level="ordinal")
    assert float(got) == pytest.approx(float(numbers.agree.alpha(level="ordinal")), rel=1e-12)


def test_numbers_as_text_counts_columns_by_value(numbers: pd.DataFrame) -> None:
    counts = numbers.agree.counts()
    counts.columns = [str(c) for c in counts.columns]
    shuffled = counts[["1", "10", "2", "3", "4", "6", "7", "8", "9"]]  # as text sorts them
    ratings = shuffled.agree(layout="counts")
    assert list(ratings.categories) == ["1", "2", "3", "4", "6", "7", "8", "9", "10"]
    assert float(ratings.fleiss(weights="ordinal")) == pytest.approx(
        float(numbers.agree.fleiss(weights="ordinal")), rel=1e-12
    )


def test_mixed_numbers_and_numeric_text_are_numbers() -> None:
    df = pd.DataFrame({"a": [1, "2", 10], "b": [1, "2", "3"]}, dtype=object)
    assert list(df.agree().categories) == [1, "2", "3", 10]
    with pytest.raises(ValueError, match=r"labels 1 and '1' are one number, 1\.0, written 2 ways"):
        df.assign(b=["1", "2", "3"]).agree()


def test_one_number_written_two_ways() -> None:
    df = pd.DataFrame({"a": ["1", "2", "1.0"], "b": ["1", "2", "2"]})
    with pytest.raises(
        ValueError,
        match=re.escape(
            "labels '1' and '1.0' are one number, 1.0, written 2 ways; labels that are all "
            "numbers are read as numbers. Write each number one way (e.g. "
            "df.replace({'1.0': '1'})), or pass `categories=[...]` to keep them apart as labels."
        ),
    ):
        df.agree()
    # Declared categories keep them apart (two categories of one value).
    assert list(df.agree(categories=["1", "1.0", "2"]).categories) == ["1", "1.0", "2"]


def test_text_that_is_not_all_numbers_stays_text() -> None:
    df = pd.DataFrame({"a": ["1", "2", "x"], "b": ["10", "2", "x"]})
    assert list(df.agree().categories) == ["1", "10", "2", "x"]
    assert encode(df).values is None
    assert not encode(df).ordered


@pytest.mark.parametrize("labels", [["1", "nan"], ["1", "inf"], ["1", ""]])
def test_text_that_is_not_a_finite_number_stays_text(labels: list[str]) -> None:
    df = pd.DataFrame({"a": labels, "b": labels})
    if labels[1] in ("nan", ""):  # missing-value markers kept as labels are announced
        with pytest.warns(LayoutWarning, match="look like missing values"):
            assert encode(df).values is None
    else:
        assert encode(df).values is None


def test_booleans_are_labels_not_numbers() -> None:
    df = pd.DataFrame({"a": [True, False, True], "b": [True, True, False]})
    enc = encode(df)
    assert enc.values is None
    assert not enc.ordered
    with pytest.raises(ValueError, match=r"`weights='linear'` depends on the order"):
        df.agree.cohen(weights="linear")


# ------------------------------------------------------------------- undeclared text order


@pytest.fixture
def levels() -> pd.DataFrame:
    codes = {1: "low", 2: "medium", 3: "high"}
    return pd.DataFrame(
        {
            "A": [1, 2, 3, 3, 2, 1, 3, 1, 2, 3],
            "B": [1, 2, 3, 2, 2, 2, 3, 1, 2, 3],
            "C": [2, 2, 3, 3, 1, 1, 3, 1, 3, 3],
        }
    ).replace(codes)


ORDER_MESSAGE = (
    "{what} depends on the order of the categories, and the order of these text labels was "
    "not declared; it would have been ['high', 'low', 'medium']. Declare the order with "
    "`categories=[...]` in your order, or make the labels an ordered Categorical."
)


@pytest.mark.parametrize(
    ("method", "kwargs", "what"),
    [
        ("alpha", {"level": "ordinal"}, "`level='ordinal'`"),
        ("alpha", {"weights": "linear"}, "`weights='linear'`"),
        ("gwet", {"weights": "linear"}, "`weights='linear'`"),
        ("fleiss", {"weights": "quadratic"}, "`weights='quadratic'`"),
        ("conger", {"weights": "ordinal"}, "`weights='ordinal'`"),
        ("bennett", {"weights": "radical"}, "`weights='radical'`"),
        ("observed", {"weights": "circular"}, "`weights='circular'`"),
        ("fleiss", {"weights": "bipolar"}, "`weights='bipolar'`"),
        ("fleiss", {"weights": "ratio"}, "`weights='ratio'`"),
    ],
)
def test_order_dependent_coefficient_on_undeclared_order(
    levels: pd.DataFrame, method: str, kwargs: dict[str, str], what: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(ORDER_MESSAGE.format(what=what))):
        getattr(levels.agree, method)(**kwargs)


def test_undeclared_order_in_long_and_grouped_frames(levels: pd.DataFrame) -> None:
    long = levels.rename_axis("item").reset_index().melt("item", var_name="coder")
    long["half"] = long["item"] < 5
    ratings = long.agree(item="item", rater="coder", label="value", by="half")
    with pytest.raises(
        ValueError, match=re.escape(ORDER_MESSAGE.format(what="`level='ordinal'`"))
    ):
        ratings.alpha(level="ordinal")


def test_undeclared_order_with_bootstrap_interval(levels: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match=r"`weights='linear'` depends on the order"):
        levels.agree.fleiss(weights="linear", confidence_level=0.95, method="bootstrap", rng=0)
    with pytest.raises(ValueError, match=r"`level='ordinal'` depends on the order"):
        levels.agree.alpha(level="ordinal", confidence_level=0.95, method="bootstrap", rng=0)


def test_undeclared_order_shows_the_first_ten() -> None:
    words = [f"w{i:02d}" for i in range(12)]
    df = pd.DataFrame({"a": words, "b": words})
    with pytest.raises(
        ValueError,
        match=re.escape(f"it would have been {words[:10]!r}"[:-1] + ", ...]. Declare"),
    ):
        df.agree.gwet(weights="quadratic")


@pytest.mark.parametrize(
    ("method", "kwargs"),
    [
        ("alpha", {}),
        ("alpha", {"level": "nominal"}),
        ("fleiss", {"weights": "identity"}),
        ("gwet", {}),
        ("fleiss", {"weights": np.eye(3)}),
        ("alpha", {"level": 1.0 - np.eye(3)}),
    ],
)
def test_order_free_coefficients_on_undeclared_order(
    levels: pd.DataFrame, method: str, kwargs: dict[str, object]
) -> None:
    result = getattr(levels.agree, method)(**kwargs)
    assert np.isfinite(float(result))


def test_callable_level_on_undeclared_order(levels: pd.DataFrame) -> None:
    result = levels.agree.alpha(level=lambda c, k: (c - k) ** 2)
    assert np.isfinite(float(result))


@pytest.mark.parametrize(
    ("method", "kwargs"),
    [
        ("alpha", {"level": "ordinal"}),
        ("gwet", {"weights": "linear"}),
        ("fleiss", {"weights": "quadratic"}),
    ],
)
def test_declared_order_equals_numeric_coding(
    levels: pd.DataFrame, method: str, kwargs: dict[str, str]
) -> None:
    order = ["low", "medium", "high"]
    want = float(
        getattr(levels.replace({"low": 1, "medium": 2, "high": 3}).agree, method)(**kwargs)
    )
    declared = float(getattr(levels.agree(categories=order), method)(**kwargs))
    dtype = pd.CategoricalDtype(order, ordered=True)
    ordered = float(getattr(levels.astype(dtype).agree, method)(**kwargs))
    assert declared == pytest.approx(want, rel=1e-12)
    assert ordered == pytest.approx(want, rel=1e-12)


def test_counts_columns_declare_their_order(levels: pd.DataFrame) -> None:
    counts = levels.agree(categories=["low", "medium", "high"]).counts()
    ratings = counts.agree(layout="counts")
    assert list(ratings.categories) == ["low", "medium", "high"]
    assert float(ratings.fleiss(weights="linear")) == pytest.approx(
        float(levels.agree(categories=["low", "medium", "high"]).fleiss(weights="linear"))
    )


def test_weight_matrix_and_metric_for_keep_their_default() -> None:
    # Other callers (no `ordered=`) keep the old behaviour.
    cats = pd.Index(["b", "a"])
    w, name = weight_matrix("linear", cats, None)
    assert name == "linear"
    assert w.tolist() == [[1.0, 0.0], [0.0, 1.0]]
    assert metric_for("ordinal", cats, None)[1] == "ordinal"
    with pytest.raises(ValueError, match=r"`weights='linear'` depends on the order"):
        weight_matrix("linear", cats, None, ordered=False)
    with pytest.raises(ValueError, match=r"`level='ordinal'` depends on the order"):
        metric_for("ordinal", cats, None, ordered=False)
    assert weight_matrix("identity", cats, None, ordered=False)[1] == "identity"


def test_bundled_text_datasets_refuse_ordered_weights() -> None:
    with pytest.raises(ValueError, match=r"it would have been \['Depression', 'Neurosis'"):
        datasets.load("fleiss1971").agree.fleiss(weights="linear")


# --------------------------------------------------------------------------- Categoricals


@pytest.fixture
def pair() -> pd.DataFrame:
    # 12 items, observed agreement 7/12, categories a, b, c used; d declared but unused.
    return pd.DataFrame(
        {
            "r1": list("aaabbbcccabc"),
            "r2": list("aaabbbcccbca"),
        }
    ).iloc[:, :]


@pytest.mark.parametrize("ordered", [False, True])
def test_categorical_declares_unused_categories(pair: pd.DataFrame, ordered: bool) -> None:
    dtype = pd.CategoricalDtype(["a", "b", "c", "d"], ordered=ordered)
    df = pair.astype(dtype)
    ratings = df.agree()
    assert list(ratings.categories) == ["a", "b", "c", "d"]
    assert ratings.bennett().expected == pytest.approx(1 / 4)
    assert float(ratings.bennett()) == pytest.approx(
        float(pair.agree(categories=["a", "b", "c", "d"]).bennett()), rel=1e-12
    )


def test_unordered_categorical_does_not_declare_an_order(pair: pd.DataFrame) -> None:
    df = pair.astype(pd.CategoricalDtype(["c", "b", "a", "d"]))
    assert list(df.agree().categories) == ["c", "b", "a", "d"]  # the dtype's own order
    assert not encode(df).ordered
    with pytest.raises(
        ValueError,
        match=re.escape(
            "`level='ordinal'` depends on the order of the categories, and the order "
            "of these text labels was not declared; it would have been ['c', 'b', 'a', 'd']."
        ),
    ):
        df.agree.alpha(level="ordinal")
    assert encode(pair.astype(pd.CategoricalDtype(["c", "b", "a", "d"], ordered=True))).ordered


def test_unordered_categorical_in_a_long_frame(pair: pd.DataFrame) -> None:
    long = pair.rename_axis("item").reset_index().melt("item", var_name="coder")
    long["value"] = long["value"].astype(pd.CategoricalDtype(["a", "b", "c", "d"]))
    ratings = long.agree(item="item", rater="coder", label="value")
    assert list(ratings.categories) == ["a", "b", "c", "d"]
    assert ratings.n_categories == 4


def test_unordered_categoricals_with_different_categories_declare_their_union() -> None:
    df = pd.DataFrame(
        {
            "r1": pd.Categorical(["a", "b", "a"], categories=["a", "b", "x"]),
            "r2": pd.Categorical(["a", "b", "c"], categories=["a", "b", "c"]),
        }
    )
    assert list(df.agree().categories) == ["a", "b", "x", "c"]


def test_unordered_categorical_with_declared_categories(pair: pd.DataFrame) -> None:
    df = pair.astype(pd.CategoricalDtype(["a", "b", "c", "d"]))
    ratings = df.agree(categories=["c", "b", "a"])
    assert list(ratings.categories) == ["c", "b", "a"]
    assert encode(df, categories=["c", "b", "a"]).ordered


def test_unordered_categorical_of_numbers_orders_by_value() -> None:
    dtype = pd.CategoricalDtype([3, 1, 2, 10])
    df = pd.DataFrame({"a": [1, 2, 3], "b": [1, 3, 3]}).astype(dtype)
    enc = encode(df)
    assert list(enc.categories) == [1, 2, 3, 10]
    assert enc.ordered
    assert float(df.agree.cohen(weights="linear")) == pytest.approx(
        float(
            pd.DataFrame({"a": [1, 2, 3], "b": [1, 3, 3]})
            .agree(categories=[1, 2, 3, 10])
            .cohen(weights="linear")
        )
    )


def test_counts_with_categorical_columns(pair: pd.DataFrame) -> None:
    long = pair.rename_axis("item").reset_index().melt("item", var_name="coder")
    long["value"] = long["value"].astype(pd.CategoricalDtype(["c", "b", "a", "d"], ordered=True))
    table = pd.crosstab(long["item"], long["value"], dropna=False)
    ratings = table.agree(layout="counts")
    assert list(ratings.categories) == ["c", "b", "a", "d"]
    assert encode(table, layout="counts").ordered
