"""Issue 17: arguments and labels that used to give a silent number on wrong input."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import pdagree  # noqa: F401  (registers the accessor)


@pytest.fixture
def ordinal_frame() -> pd.DataFrame:
    return pd.DataFrame({"a": [1, 2, 3, 1, 2, 3], "b": [1, 3, 3, 2, 2, 1]})


# --------------------------------------------------------------------- point 7: arguments


@pytest.mark.parametrize("cats", [{1, 2, 3}, frozenset({1, 2, 3}), {1: "x", 2: "y", 3: "z"}])
def test_categories_as_an_unordered_collection_is_refused(ordinal_frame, cats):
    # A set's order follows PYTHONHASHSEED, and weighted coefficients read the order.
    kind = type(cats).__name__
    with pytest.raises(TypeError, match=rf"`categories` must be an ordered list; got a {kind}"):
        ordinal_frame.agree(categories=cats)


def test_categories_as_dict_keys_is_refused(ordinal_frame):
    with pytest.raises(TypeError, match="got a dict_keys, whose order is arbitrary"):
        ordinal_frame.agree(categories={1: 0, 2: 0, 3: 0}.keys())


@pytest.mark.parametrize("gap", [None, np.nan, pd.NA, float("nan")])
def test_a_missing_value_among_categories_is_refused(gap):
    # Bennett's S was 0.625 instead of 0.5: the missing value counted as a fourth category.
    df = pd.DataFrame({"a": ["x", "y", "x", "y"], "b": ["x", "y", "y", "x"]})
    with pytest.raises(ValueError, match=r"`categories` must not hold a missing value; got "):
        df.agree(categories=["x", "y", gap]).bennett()


def test_categories_with_tuples_and_numbers_are_still_accepted():
    df = pd.DataFrame({"a": [1, 2, 1, 2], "b": [1, 2, 2, 1]})
    assert df.agree(categories=[1, 2, 3]).n_categories == 3


def test_raters_as_a_string_is_refused():
    df = pd.DataFrame({"a": [1, 2, 1], "b": [1, 2, 2], "ab": [1, 1, 1]})
    with pytest.raises(
        TypeError,
        match=re.escape(
            "`raters` must be a list of column names; got the string 'ab', which would be read "
            "as one column per character. Wrap it in a list: raters=['ab']."
        ),
    ):
        df.agree(raters="ab")
    assert df.agree(raters=["a", "b"]).n_raters == 2


def test_the_dask_engine_refuses_the_same_arguments(ordinal_frame):
    dd = pytest.importorskip("dask.dataframe")
    import pdagree.dask  # noqa: F401

    ddf = dd.from_pandas(ordinal_frame, npartitions=1)
    with pytest.raises(TypeError, match="`categories` must be an ordered list; got a set"):
        ddf.agree(categories={1, 2, 3}).fleiss()
    with pytest.raises(TypeError, match="`raters` must be a list of column names"):
        ddf.agree(raters="ab").fleiss()
