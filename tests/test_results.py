"""Results: float-like coefficients that carry their components, and the by= frames."""

from __future__ import annotations

import copy
import json
import math
import pickle
import warnings

import numpy as np
import pandas as pd
import pytest

import pdagree
from pdagree import Coefficient, datasets

METHODS = ("observed", "bennett", "fleiss", "conger", "light", "bias", "scott", "cohen")


@pytest.fixture
def kappa() -> Coefficient:
    result = datasets.load("artstein_poesio2005").agree.cohen()
    assert isinstance(result, Coefficient)
    return result


# ---------------------------------------------------------------------------- float-like


def test_is_a_float(kappa: Coefficient) -> None:
    assert isinstance(kappa, float)
    assert float(kappa) == kappa.value
    assert type(kappa.value) is float
    # Artstein & Poesio (2005), section 13.2: kappa = (0.7 - 0.54) / (1 - 0.54).
    assert kappa.value == pytest.approx((0.7 - 0.54) / (1 - 0.54), rel=1e-12)


def test_comparisons_and_arithmetic(kappa: Coefficient) -> None:
    assert kappa < 0.6
    assert kappa > 0.3
    assert 0.3 < kappa < 0.4
    assert not (kappa >= 0.6)
    assert kappa == kappa.value
    assert kappa + 1 == pytest.approx(kappa.value + 1)
    assert type(kappa + 1) is float
    assert 2 * kappa == pytest.approx(2 * kappa.value)
    assert -kappa == pytest.approx(-kappa.value)
    assert abs(kappa) == pytest.approx(kappa.value)
    assert round(kappa, 3) == 0.348
    assert math.isclose(kappa, kappa.value)
    assert np.float64(kappa) == kappa.value
    assert np.isclose(kappa, 0.3478, atol=1e-4)
    assert sorted([0.9, kappa, 0.1])[1] is kappa
    assert max(kappa, 0.1) is kappa


def test_formatting(kappa: Coefficient) -> None:
    assert f"{kappa:.3f}" == "0.348"
    assert f"{kappa:.1%}" == "34.8%"
    assert format(kappa, ".2f") == "0.35"
    assert str(kappa) == repr(kappa.value)
    assert json.dumps(kappa) == json.dumps(kappa.value)
    assert json.loads(json.dumps({"kappa": kappa}))["kappa"] == kappa.value


def test_numpy_and_pandas_see_a_float(kappa: Coefficient) -> None:
    assert np.asarray([kappa, kappa]).dtype == np.float64
    assert pd.Series([kappa, 0.5]).dtype == np.float64
    assert hash(kappa) == hash(kappa.value)
    assert {kappa: "x"}[kappa.value] == "x"


def test_groupby_apply_gives_float_series() -> None:
    df = datasets.load("fleiss1971").assign(g=np.arange(30) % 3)
    # Issue 2's example; in pandas >= 3 the grouping column is already left out of g.
    with warnings.catch_warnings():
        # pandas 2.x deprecates passing the grouping column to apply (pandas 3 leaves it out).
        warnings.simplefilter("ignore", DeprecationWarning)
        series = df.groupby("g").apply(
            lambda g: g.drop(columns="g", errors="ignore").agree.fleiss()
        )
    assert isinstance(series, pd.Series)
    assert series.dtype == np.float64
    assert list(series.index) == [0, 1, 2]
    by = df.agree(by="g").fleiss()
    np.testing.assert_allclose(series.to_numpy(), by["value"].to_numpy(), rtol=1e-12)
    raters = [c for c in df.columns if c != "g"]
    series2 = df.groupby("g")[raters].apply(lambda g: g.agree.fleiss())
    assert series2.dtype == np.float64
    np.testing.assert_allclose(series2.to_numpy(), series.to_numpy())


def test_nan_result_is_a_float() -> None:
    wide = pd.DataFrame({"a": ["x", "x"], "b": ["x", "x"]})
    with pytest.warns(pdagree.UndefinedStatisticWarning):
        result = wide.agree.fleiss()
    assert math.isnan(result)
    assert not (result < 0.6)
    assert f"{result:.2f}" == "nan"
    assert "nan" in repr(result)


# ------------------------------------------------------------------------------- members


def test_members_artstein_poesio(kappa: Coefficient) -> None:
    assert kappa.name == "cohen"
    assert kappa.observed == pytest.approx(0.7)
    assert kappa.expected == pytest.approx(0.54)
    assert kappa.n_items == 10
    assert kappa.n_raters == 2
    assert kappa.n_categories == 2
    assert kappa.categories == ("N", "Y")
    assert type(kappa.n_items) is int
    assert type(kappa.observed) is float


@pytest.mark.parametrize("method", METHODS)
def test_every_coefficient_carries_its_components(method: str) -> None:
    result = getattr(datasets.load("artstein_poesio2005").agree, method)()
    assert isinstance(result, Coefficient)
    assert result.name == method
    for member in ("observed", "expected", "n_items", "n_raters", "n_categories", "categories"):
        assert hasattr(result, member)
    if method != "bias":
        expected = (result.observed - result.expected) / (1 - result.expected)
        assert result.value == pytest.approx(expected, rel=1e-12)


def test_n_items_counts_items_with_two_ratings() -> None:
    wide = pd.DataFrame({"a": ["x", "y", None, "x"], "b": ["x", "y", "y", None], "c": [None] * 4})
    result = wide.agree.fleiss()
    assert result.n_items == 2
    assert result.n_raters == 2
    assert result.n_categories == 2


def test_declared_categories_are_carried() -> None:
    result = datasets.load("fort2011_balanced").agree(categories=["Yes", "No", "C", "D"]).bennett()
    assert result.categories == ("Yes", "No", "C", "D")
    assert result.n_categories == 4


def test_bias_members() -> None:
    bias = datasets.load("artstein_poesio2005_four").agree.bias()
    assert bias.expected == bias.expected_pi
    assert isinstance(bias.variances, pd.Series)
    assert list(bias.variances.index) == ["N", "Y"]
    assert isinstance(bias.per_category, pd.Series)
    assert isinstance(bias.per_rater, pd.DataFrame)


# ----------------------------------------------------------------------- pickling, copies


@pytest.mark.parametrize("method", METHODS)
def test_pickle_round_trip(method: str) -> None:
    result = getattr(datasets.load("artstein_poesio2005").agree, method)()
    again = pickle.loads(pickle.dumps(result))
    assert type(again) is type(result)
    assert again.value == result.value
    for member in ("name", "observed", "expected", "n_items", "n_raters", "n_categories"):
        assert getattr(again, member) == getattr(result, member)
    assert again.categories == result.categories
    pd.testing.assert_frame_equal(again.to_frame(), result.to_frame())


def test_pickle_round_trip_bias_breakdowns() -> None:
    bias = datasets.load("artstein_poesio2005_six").agree.bias()
    again = pickle.loads(pickle.dumps(bias))
    pd.testing.assert_series_equal(again.variances, bias.variances)
    pd.testing.assert_frame_equal(again.per_rater, bias.per_rater)


def test_pickle_nan() -> None:
    wide = pd.DataFrame({"a": ["x", "x"], "b": ["x", "x"]})
    with pytest.warns(pdagree.UndefinedStatisticWarning):
        result = wide.agree.cohen()
    assert math.isnan(pickle.loads(pickle.dumps(result)))


def test_copies(kappa: Coefficient) -> None:
    for other in (copy.copy(kappa), copy.deepcopy(kappa)):
        assert type(other) is Coefficient
        assert other.value == kappa.value
        assert other.expected == kappa.expected


def test_pickle_standalone() -> None:
    result = Coefficient(
        0.5,
        name="demo",
        observed=0.75,
        expected=0.5,
        n_items=4,
        n_raters=2,
        n_categories=2,
        categories=("a", "b"),
    )
    again = pickle.loads(pickle.dumps(result))
    assert again.categories == ("a", "b")
    assert again.name == "demo"


# --------------------------------------------------------------------------- immutability


@pytest.mark.parametrize("member", ["value", "name", "observed", "n_items", "categories", "new"])
def test_members_cannot_be_set(kappa: Coefficient, member: str) -> None:
    with pytest.raises(AttributeError):
        setattr(kappa, member, 1)


@pytest.mark.parametrize("member", ["name", "observed"])
def test_members_cannot_be_deleted(kappa: Coefficient, member: str) -> None:
    with pytest.raises(AttributeError):
        delattr(kappa, member)


def test_categories_are_a_tuple(kappa: Coefficient) -> None:
    assert isinstance(kappa.categories, tuple)


# ------------------------------------------------------------------------------- to_frame


def test_to_frame(kappa: Coefficient) -> None:
    frame = kappa.to_frame()
    assert list(frame.index) == ["cohen"]
    assert frame.index.name == "coefficient"
    assert list(frame.columns)[:6] == [
        "value",
        "observed",
        "expected",
        "n_items",
        "n_raters",
        "n_categories",
    ]
    row = frame.loc["cohen"]
    assert row["value"] == kappa.value
    assert row["expected"] == pytest.approx(0.54)
    assert row["n_items"] == 10


def test_to_frame_concatenates() -> None:
    ratings = datasets.load("artstein_poesio2005").agree()
    table = pd.concat([ratings.scott().to_frame(), ratings.cohen().to_frame()])
    assert list(table.index) == ["scott", "cohen"]
    # Artstein & Poesio (2005), section 13.2.
    np.testing.assert_allclose(table["expected"], [0.545, 0.54])


def test_to_frame_extra_scalar_members() -> None:
    bias = datasets.load("artstein_poesio2005").agree.bias()
    frame = bias.to_frame()
    assert frame.loc["bias", "expected_pi"] == pytest.approx(0.545)
    assert frame.loc["bias", "expected_kappa"] == pytest.approx(0.54)
    light = datasets.load("fort2011_trains").agree.light()
    assert light.to_frame().loc["light", "n_pairs"] == 6


# ----------------------------------------------------------------------------------- repr


def test_repr_is_short(kappa: Coefficient) -> None:
    text = repr(kappa)
    assert text == "<cohen 0.3478: A_o=0.7000, A_e=0.5400, n_items=10, n_raters=2>"
    assert "\n" not in text
    html = kappa._repr_html_()
    assert "cohen" in html
    assert "&lt;" in html


# ----------------------------------------------------------------------------- by= frames


def test_by_frame_layout() -> None:
    wide = datasets.load("fleiss1971").assign(g=np.arange(30) % 3)
    result = wide.agree(by="g").fleiss()
    assert isinstance(result, pd.DataFrame)
    assert result.index.name == "g"
    assert list(result.index) == [0, 1, 2]
    for column in ("value", "observed", "expected", "n_items", "n_raters", "n_categories"):
        assert column in result.columns
    assert result["value"].dtype == np.float64
    assert result["n_items"].dtype == np.int64
    assert (result["name"] == "fleiss").all()
    assert result.attrs["coefficient"] == "fleiss"
    assert result["n_items"].sum() == 30


def test_by_frame_multiindex() -> None:
    wide = datasets.load("fleiss1971").assign(g=np.arange(30) % 2, h=np.arange(30) % 3)
    result = wide.agree(by=["g", "h"]).fleiss()
    assert isinstance(result.index, pd.MultiIndex)
    assert list(result.index.names) == ["g", "h"]
    assert len(result) == 6


def test_by_frame_bias_members() -> None:
    wide = datasets.load("artstein_poesio2005_four").assign(g=[1] * 5 + [2] * 5)
    result = wide.agree(by="g").bias()
    np.testing.assert_allclose(
        result["value"], result["expected_pi"] - result["expected_kappa"], atol=1e-12
    )


def test_ratings_is_immutable() -> None:
    ratings = pd.DataFrame({"a": ["x", "y"], "b": ["x", "x"]}).agree()
    with pytest.raises(AttributeError, match="Ratings is immutable; cannot set 'extra'"):
        ratings.extra = 1  # type: ignore[attr-defined]


def test_ratings_show_layout_counts_categories_and_groups_in_notebooks() -> None:
    # Issue #21, point 7: a Ratings has a _repr_html_ as a Coefficient has.
    frame = pdagree.datasets.load("fleiss1971")
    html_text = frame.agree()._repr_html_()
    for part in ("<caption>Ratings</caption>", "wide", ">30<", "6: rater1", "180",
                 "5: Depression", "order not declared"):  # fmt: skip
        assert part in html_text
    long = pd.DataFrame(
        {"item": [1, 1, 2, 2], "who": ["a", "b", "a", "b"], "tag": ["<b>x</b>", "y", "y", "y"],
         "g": ["p", "p", "q", "q"]}
    )  # fmt: skip
    grouped = long.agree(item="item", rater="who", label="tag", by="g")._repr_html_()
    assert "&lt;b&gt;x&lt;/b&gt;" in grouped and "<b>x" not in grouped  # labels are escaped
    assert "2 by g: p, q" in grouped
    many = pd.DataFrame({f"r{i}": ["x", "y"] for i in range(12)})
    assert "... (12 in all)" in many.agree()._repr_html_()
