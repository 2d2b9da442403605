"""docs/coefficients/edges.md: what each coefficient gives at the edges, checked cell by cell."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest

import pdagree


def frames() -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(0)
    truth = rng.normal(size=40)
    return {
        "one item": pd.DataFrame({"a": ["x"], "b": ["y"], "c": ["x"]}),
        "one item, two raters": pd.DataFrame({"a": ["x"], "b": ["y"]}),
        "one category": pd.DataFrame({"a": ["x"] * 4, "b": ["x"] * 4, "c": ["x"] * 4}),
        "one shared item": pd.DataFrame(
            {"a": ["x", "y", "x", None, None], "b": [None, None, "y", "x", "y"]}
        ),
        "continuous": pd.DataFrame({f"r{j}": truth + rng.normal(0, 0.3, 40) for j in range(3)}),
    }


NAN = "nan + warning"
REFUSED = "refused"
NEAR_ZERO_WARNED = "near 0 + warning"
# (coefficient, frame) -> the documented outcome: a number, or one of the words above.
TABLE: dict[str, dict[str, Any]] = {
    "observed": {
        "one item": 1 / 3,
        "one item, two raters": 0,
        "one category": 1,
        "one shared item": 0,
        "continuous": NEAR_ZERO_WARNED,
    },
    "bennett": {
        "one item": -1 / 3,
        "one item, two raters": -1,
        "one category": NAN,
        "one shared item": -1,
        "continuous": NEAR_ZERO_WARNED,
    },
    "scott": {
        "one item": REFUSED,
        "one item, two raters": -1,
        "one category": REFUSED,
        "one shared item": -1,
        "continuous": REFUSED,
    },
    "cohen": {
        "one item": REFUSED,
        "one item, two raters": 0,
        "one category": REFUSED,
        "one shared item": -0.8,
        "continuous": REFUSED,
    },
    "fleiss": {
        "one item": -0.5,
        "one item, two raters": -1,
        "one category": NAN,
        "one shared item": -1,
        "continuous": NEAR_ZERO_WARNED,
    },
    "conger": {
        "one item": 0,
        "one item, two raters": 0,
        "one category": NAN,
        "one shared item": -0.8,
        "continuous": NEAR_ZERO_WARNED,
    },
    "light": {
        "one item": NAN,
        "one item, two raters": NAN,
        "one category": NAN,
        "one shared item": NAN,
        "continuous": NEAR_ZERO_WARNED,
    },
    "gwet": {
        "one item": -0.2,
        "one item, two raters": -1,
        "one category": NAN,
        "one shared item": -1,
        "continuous": NEAR_ZERO_WARNED,
    },
    "alpha": {
        "one item": 0,
        "one item, two raters": 0,
        "one category": NAN,
        "one shared item": 0,
        "continuous": NEAR_ZERO_WARNED,
    },
    "bias": {
        "one item": 2 / 9,
        "one item, two raters": 0.5,
        "one category": 0,
        "one shared item": 1 / 18,
        "continuous": "warning",
    },
    "spa": {
        "one item": 1 / 3,
        "one item, two raters": 0,
        "one category": 1,
        "one shared item": 0,
        "continuous": NEAR_ZERO_WARNED,
    },
}


def outcome(frame: pd.DataFrame, method: str) -> tuple[Any, list[type[Warning]]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value: Any = float(getattr(frame.agree, method)())
        except ValueError:
            value = REFUSED
    return value, [w.category for w in caught]


@pytest.mark.parametrize("method", list(TABLE))
@pytest.mark.parametrize("case", list(frames()))
def test_the_documented_edge(method: str, case: str) -> None:
    expected = TABLE[method][case]
    value, categories = outcome(frames()[case], method)
    assert all(issubclass(c, pdagree.PdagreeWarning) for c in categories)
    if expected == REFUSED:
        assert value == REFUSED
    elif expected == NAN:
        assert np.isnan(value) and pdagree.UndefinedStatisticWarning in categories
    elif expected in (NEAR_ZERO_WARNED, "warning"):
        assert categories, (method, case)
        if expected == NEAR_ZERO_WARNED:
            assert abs(value) < 0.05
    else:
        assert value == pytest.approx(expected, abs=1e-12)
        assert not categories, (method, case, categories)


def test_interval_alpha_on_the_continuous_frame_does_not_warn() -> None:
    _, categories = outcome(frames()["continuous"], "alpha")
    assert categories
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert float(frames()["continuous"].agree.alpha(level="interval")) > 0.8


def test_pairwise_at_the_edges() -> None:
    with pytest.warns(pdagree.UndefinedStatisticWarning, match="share a single item"):
        table = frames()["one shared item"].agree.pairwise()
    assert np.isnan(table.loc["a", "b"])
    with pytest.warns(pdagree.UndefinedStatisticWarning, match="share a single item"):
        assert np.isnan(frames()["one item"].agree.pairwise().loc["a", "b"])
