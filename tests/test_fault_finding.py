"""Fault finding (issue 17): every public method on random frames of every layout and dtype.

Each call either returns a documented result (a float ``Coefficient``, possibly nan with a
pdagree warning; a DataFrame for the tables and ``by=``) or raises ValueError/TypeError
whose message names something concrete (a backticked parameter or a quoted value); no other
exception type and no warning from another library leaks out. The user's frame is never
modified, and the value does not depend on the order of raters, items or rows.
"""

from __future__ import annotations

import math
import os
import re
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import pdagree
from pdagree.definitions import REGISTRY
from pdagree.results import Coefficient

# CI runs a fixed set of examples; `PDAGREE_FAULT_EXAMPLES=2000 pytest tests/test_fault_finding.py`
# searches harder with fresh random examples.
_HARD = int(os.environ.get("PDAGREE_FAULT_EXAMPLES", "0"))
SETTINGS = settings(
    max_examples=_HARD or 60,
    deadline=None,
    derandomize=not _HARD,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

TEXT = ["lo", "mid", "hi", "n/a?", "x y"]
NUMBERS = [1, 2, 3, 5]
# What numpy, pandas and Python say when a library did not check its input first.
INTERNAL = re.compile(
    r"operands could not be broadcast|out of bounds|cannot convert|unsupported operand|"
    r"object of type|not supported between instances|truth value of an array|"
    r"invalid literal|could not convert|unhashable type|NoneType|takes \d+ positional|"
    r"got an unexpected keyword|must be real number|zero-size array|setting an array element"
)

# A method call on Ratings and the options it is tried with.
CALLS: list[tuple[str, dict[str, Any]]] = [
    *[(name, {}) for name in REGISTRY],
    ("fleiss", {"weights": "quadratic"}),
    ("cohen", {"weights": "linear"}),
    ("gwet", {"weights": "ordinal"}),
    ("alpha", {"level": "ordinal"}),
    ("alpha", {"level": "interval"}),
    ("alpha", {"level": "ratio"}),
    ("spa", {"weights": "flat"}),
    ("spa", {"weights": "inv_var_class"}),
    ("fleiss", {"confidence_level": 0.9}),
    ("cohen", {"confidence_level": 0.9}),
    ("alpha", {"confidence_level": 0.9, "method": "bootstrap", "n_resamples": 30, "rng": 0}),
    ("light", {"confidence_level": 0.9, "n_resamples": 30, "rng": 1}),
    ("counts", {}),
    ("frequencies", {}),
    ("pairwise", {}),
    ("per_category", {}),
    ("items", {}),
    ("spa_items", {}),
    ("report", {}),
]


def labels_for(kind: str) -> st.SearchStrategy[Any]:
    if kind in ("int", "Int64", "category_ordered", "numeric_text"):
        return st.sampled_from(NUMBERS)
    if kind == "float":
        return st.one_of(st.sampled_from([1.0, 2.5, 4.0]), st.floats(-5, 5, width=32))
    if kind == "bool":
        return st.booleans()
    return st.sampled_from(TEXT)


def as_dtype(column: pd.Series, kind: str) -> pd.Series:
    if kind == "Int64":
        return column.astype("Int64")
    if kind == "float":
        return column.astype("float64")
    if kind == "string":
        return column.astype("string")
    if kind == "category":
        return column.astype("category")
    if kind == "category_ordered":
        return column.astype(pd.CategoricalDtype(NUMBERS, ordered=True))
    if kind == "numeric_text":
        return column.map(lambda v: v if pd.isna(v) else str(v)).astype(object)
    return column.astype(object) if kind in ("bool", "text") else column


KINDS = [
    "int",
    "Int64",
    "float",
    "text",
    "string",
    "bool",
    "category",
    "category_ordered",
    "numeric_text",
]


@st.composite
def wide_frames(draw: st.DrawFn) -> tuple[pd.DataFrame, str]:
    kind = draw(st.sampled_from(KINDS))
    n_items = draw(st.integers(1, 9))
    n_raters = draw(st.integers(1, 4))
    label = labels_for(kind)
    cell = st.one_of(st.none(), label, label)
    data = {
        f"r{j}": draw(st.lists(cell, min_size=n_items, max_size=n_items)) for j in range(n_raters)
    }
    frame = pd.DataFrame(data, index=pd.Index([f"i{i}" for i in range(n_items)], name="item"))
    frame = frame.apply(lambda c: as_dtype(c, kind))
    return frame, kind


def run(call: Callable[[], Any]) -> tuple[Any, list[warnings.WarningMessage]]:
    """The call's result (or the exception it raised) and the warnings it emitted."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result: Any = call()
        except (ValueError, TypeError) as exc:
            result = exc
    return result, list(caught)


def check_outcome(result: Any, caught: list[warnings.WarningMessage], what: str) -> None:
    for warning in caught:
        assert issubclass(warning.category, pdagree.PdagreeWarning), (
            what,
            warning.category,
            str(warning.message),
        )
    if isinstance(result, Exception):
        message = str(result)
        assert len(message) >= 30 and not INTERNAL.search(message), (what, message)
    else:
        documented = (Coefficient, pd.DataFrame, pd.Series, pdagree.Ratings, tuple)
        assert isinstance(result, documented), (what, type(result))


def call_method(ratings: pdagree.Ratings, name: str, options: dict[str, Any]) -> Any:
    return getattr(ratings, name)(**options)


@SETTINGS
@given(case=wide_frames(), by=st.booleans())
def test_every_method_on_random_wide_frames(case: tuple[pd.DataFrame, str], by: bool) -> None:
    frame, kind = case
    if by:
        frame = frame.assign(g=np.arange(len(frame)) % 2)
    before = frame.copy(deep=True)
    ratings, caught = run(lambda: frame.agree(by="g" if by else None))
    check_outcome(ratings, caught, f"agree on {kind}")
    pd.testing.assert_frame_equal(frame, before)
    if isinstance(ratings, Exception):
        return
    for name, options in CALLS:
        result, caught = run(lambda n=name, o=options: call_method(ratings, n, o))
        check_outcome(result, caught, f"{name}({options}) on {kind}")
        if isinstance(result, Coefficient):
            for interval in ("confidence_interval", "z_test"):
                more, caught = run(getattr(result, interval))
                check_outcome(more, caught, f"{name}.{interval} on {kind}")
    pd.testing.assert_frame_equal(frame, before)


@SETTINGS
@given(case=wide_frames(), data=st.data())
def test_long_and_counts_frames_agree_with_the_wide_one(
    case: tuple[pd.DataFrame, str], data: st.DataObject
) -> None:
    frame, kind = case
    assume(kind not in ("category", "category_ordered", "bool"))
    wide, caught = run(lambda: frame.agree())
    assume(not isinstance(wide, Exception))
    long = frame.reset_index().melt(id_vars="item", var_name="coder", value_name="tag")
    long = long.sample(frac=1.0, random_state=data.draw(st.integers(0, 9)))
    before = long.copy(deep=True)
    from_long, caught = run(lambda: long.agree(item="item", rater="coder", label="tag"))
    check_outcome(from_long, caught, f"long agree on {kind}")
    pd.testing.assert_frame_equal(long, before)
    assume(not isinstance(from_long, Exception))
    order = data.draw(st.permutations(list(frame.columns)))
    shuffled = frame[order].iloc[::-1]
    for name in ("observed", "bennett", "fleiss", "gwet", "alpha", "conger", "light", "bias"):
        if REGISTRY[name].needs_raters and frame.shape[1] < 2:
            continue
        values = []
        for source in (wide, from_long, shuffled):
            ratings = source if isinstance(source, pdagree.Ratings) else run(source.agree)[0]
            if isinstance(ratings, Exception):
                break
            result, caught = run(lambda r=ratings, n=name: call_method(r, n, {}))
            check_outcome(result, caught, f"{name} on {kind}")
            values.append(result)
        if len(values) == 3 and all(isinstance(v, Coefficient) for v in values):
            first = float(values[0])
            for other in values[1:]:
                assert math.isclose(first, float(other), rel_tol=1e-9, abs_tol=1e-12) or (
                    math.isnan(first) and math.isnan(float(other))
                ), (name, kind, values)


@SETTINGS
@given(
    counts=st.lists(st.lists(st.integers(0, 4), min_size=3, max_size=3), min_size=1, max_size=6),
    contingency=st.lists(
        st.lists(st.integers(0, 9), min_size=3, max_size=3), min_size=3, max_size=3
    ),
)
def test_every_method_on_counts_and_contingency_tables(
    counts: list[list[int]], contingency: list[list[int]]
) -> None:
    tables = [
        (pd.DataFrame(counts, columns=["a", "b", "c"]), "counts"),
        (
            pd.DataFrame(
                contingency,
                index=pd.Index(list("abc"), name="first"),
                columns=pd.Index(list("abc"), name="second"),
            ),
            "contingency",
        ),
    ]
    for table, layout in tables:
        before = table.copy(deep=True)
        ratings, caught = run(lambda t=table, lay=layout: t.agree(layout=lay))
        check_outcome(ratings, caught, layout)
        if isinstance(ratings, Exception):
            continue
        for name, options in CALLS:
            result, caught = run(lambda r=ratings, n=name, o=options: call_method(r, n, o))
            check_outcome(result, caught, f"{name}({options}) on {layout}")
        pd.testing.assert_frame_equal(table, before)


@pytest.mark.parametrize(
    "argument",
    [
        {"categories": {1, 2}},
        {"categories": [1, None]},
        {"raters": "ab"},
        {"raters": ["zz"]},
        {"by": "nope"},
        {"layout": "tall"},
        {"item": "a"},
    ],
)
def test_bad_arguments_are_clear_errors(argument: dict[str, Any]) -> None:
    frame = pd.DataFrame({"a": [1, 2, 1], "b": [1, 2, 2]})
    result, caught = run(lambda: frame.agree(**argument).fleiss())
    assert isinstance(result, (ValueError, TypeError)), result
    check_outcome(result, caught, str(argument))
