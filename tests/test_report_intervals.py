"""``report(confidence_level=)``: each row's interval is its method's own (#26, point 18).

The report computes every coefficient once: the value of a row is also what its analytic or
jackknife variance starts from, so that the intervals cost no second pass over the ratings.
These tests check both: the report equals each method called alone (value, standard error,
interval, p-value), and no coefficient is computed twice for its interval.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

import pdagree
from pdagree import evaluate, inference

COLUMNS = ["value", "se", "low", "high", "p_value"]
ORDER = ["a", "b", "c", "d"]


def _long(seed: int, n_items: int, n_raters: int, missing: float) -> pd.DataFrame:
    """A long frame of labels ``a``-``d``, some cells missing, items by a latent truth."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 4, n_items)
    rows = []
    for j in range(n_raters):
        label = np.where(rng.random(n_items) < 0.6, truth, rng.integers(0, 4, n_items))
        keep = rng.random(n_items) >= missing
        rows.append(
            pd.DataFrame(
                {
                    "item": np.flatnonzero(keep),
                    "rater": f"r{j}",
                    "label": np.array(ORDER)[label[keep]],
                }
            )
        )
    return pd.concat(rows, ignore_index=True)


def _cases() -> dict[str, tuple[Any, dict[str, Any]]]:
    frame = _long(0, 120, 5, 0.3)
    grouped = frame.assign(g=frame["item"] % 3)
    # Group 2 never uses label "d": the groups have different sets of categories.
    grouped = grouped[~((grouped["g"] == 2) & (grouped["label"] == "d"))]
    counts = pdagree.datasets.load("fleiss1971").agree.counts()
    return {
        "incomplete": (frame.agree(item="item", rater="rater", label="label"), {}),
        "quadratic": (
            frame.agree(item="item", rater="rater", label="label", categories=ORDER),
            {"weights": "quadratic"},
        ),
        "by": (grouped.agree(item="item", rater="rater", label="label", by="g"), {}),
        "counts": (counts.agree(layout="counts"), {}),
        "fleiss1971": (pdagree.datasets.load("fleiss1971").agree, {}),
    }


CASES = _cases()


def _alone(ratings: Any, row: str) -> pd.DataFrame:
    """Row ``row`` of the report computed by its own method (its option from its name:
    ``gwet[quadratic]``, ``alpha[nominal]``), as a frame of COLUMNS."""
    name, _, option = row.rstrip("]").partition("[")
    kwargs: dict[str, Any] = {}
    if option.startswith("weights="):
        kwargs["weights"] = option[len("weights=") :]
    elif option:
        kwargs["level" if name == "alpha" else "weights"] = option
    result = getattr(ratings, name)(confidence_level=0.95, **kwargs)
    if isinstance(result, pd.DataFrame):
        return result[COLUMNS]
    return pd.DataFrame(
        [[float(result), result.se, result.low, result.high, result.p_value()]], columns=COLUMNS
    )


@pytest.mark.parametrize("case", list(CASES))
def test_report_intervals_equal_each_method_alone(case: str) -> None:
    ratings, options = CASES[case]
    report = ratings.report(confidence_level=0.95, **options)
    assert (report["ci_method"] != "bootstrap").all()
    by = "coefficient" in (report.index.names or []) and report.index.nlevels > 1
    rows = report.index.get_level_values("coefficient").unique() if by else report.index
    assert len(rows) >= 5
    for row in rows:
        got = report.xs(row, level="coefficient") if by else report.loc[[row]]
        want = _alone(ratings, row)
        np.testing.assert_allclose(
            got[COLUMNS].to_numpy(float),
            want.to_numpy(float),
            rtol=1e-12,
            atol=1e-15,
            err_msg=f"{case}: {row}",
        )
    bias = report.attrs.get("annotator_bias")
    if bias is not None:
        alone = ratings.bias(confidence_level=0.95)
        got = bias[["value", "se", "low", "high"]].to_numpy(float)
        if isinstance(alone, pd.DataFrame):
            want = alone[["value", "se", "low", "high"]].to_numpy(float)
        else:
            want = np.array([[float(alone), alone.se, alone.low, alone.high]])
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("case", ["incomplete", "quadratic", "counts"])
def test_report_intervals_compute_each_coefficient_once(
    case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each row's value and its variance came from two computations of the coefficient (#26).
    ratings, options = CASES[case]
    calls: list[str] = []

    def counting(module: Any) -> Any:
        original = module.compute

        def compute(definition: Any, data: Any, arguments: Any) -> Any:
            calls.append(definition.name)
            return original(definition, data, arguments)

        return compute

    monkeypatch.setattr(evaluate, "compute", counting(evaluate))
    monkeypatch.setattr(inference, "compute", counting(inference))
    report = ratings.report(confidence_level=0.95, **options)
    assert len(report) >= 5
    assert sorted(calls) == sorted(set(calls)), calls
    assert len(calls) == len(report) + ("annotator_bias" in report.attrs)
