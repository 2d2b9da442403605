"""Fault finding for the ICC and Kendall's W (#26): random long frames of numeric ratings.

Frames are complete or incomplete, with one or several ``by=`` groups (raters shared or of
their own), rows or columns that do not vary, missing cells, numbers as text, and now and
then an infinite rating. Every call either returns a documented result (nan with a pdagree
warning where a form is undefined) or raises ValueError/TypeError with a clear message; no
warning from another library leaks out; values stay within their bounds; the result does not
depend on the order of raters, items or rows, nor on an exact offset or scale; the frame is
never modified.
"""

from __future__ import annotations

import math
import os
import re
import warnings
from typing import Any

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pdagree
from pdagree.icc import FORMS

# CI runs a fixed set of examples; `PDAGREE_FAULT_EXAMPLES=2000 pytest tests/test_fault_icc.py`
# searches harder with fresh random examples.
_HARD = int(os.environ.get("PDAGREE_FAULT_EXAMPLES", "0"))
SETTINGS = settings(
    max_examples=_HARD or 40,
    deadline=None,
    derandomize=not _HARD,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SHAPES = ["complete", "incomplete", "constant items", "perfect agreement", "constant"]
COLUMNS = ["value", "F", "df1", "df2", "p_value", "low", "high"]
# What numpy, pandas and Python say when a library did not check its input first.
INTERNAL = re.compile(
    r"operands could not be broadcast|out of bounds|cannot convert|unsupported operand|"
    r"object of type|not supported between instances|truth value of an array|"
    r"invalid literal|could not convert|unhashable type|NoneType|zero-size array|"
    r"overflow|divide by zero|invalid value"
)


@st.composite
def score_frames(draw: st.DrawFn) -> tuple[pd.DataFrame, dict[str, Any]]:
    """A long frame (``g``, ``item``, ``rater``, ``y``) and how it was drawn."""
    n_groups = draw(st.integers(1, 3))
    own = draw(st.booleans())
    parts = []
    for g in range(n_groups):
        n_items, n_raters = draw(st.integers(1, 6)), draw(st.integers(1, 4))
        shape = draw(st.sampled_from(SHAPES))
        # Multiples of 1/4: exact after the offsets and scales tried below.
        cells = st.integers(-12, 24).map(lambda v: v / 4)
        y = np.array(
            draw(st.lists(cells, min_size=n_items * n_raters, max_size=n_items * n_raters))
        )
        y = y.reshape(n_items, n_raters)
        if shape == "constant items":  # every item rated alike: the items do not vary
            y = np.broadcast_to(y[:1], y.shape).copy()
        elif shape == "perfect agreement":
            y = np.broadcast_to(y[:, :1], y.shape).copy()
        elif shape == "constant":
            y = np.full(y.shape, y[0, 0])
        present = np.ones(y.shape, dtype=bool)
        if shape == "incomplete":
            present = np.array(draw(st.lists(st.booleans(), min_size=y.size, max_size=y.size)))
            present = present.reshape(y.shape)
        item, rater = np.nonzero(present)
        parts.append(
            pd.DataFrame(
                {
                    "g": f"g{g}",
                    "item": [f"g{g}i{i}" for i in item],
                    "rater": [f"g{g}r{j}" if own else f"r{j}" for j in rater],
                    "y": y[present],
                }
            )
        )
    frame = pd.concat(parts, ignore_index=True)
    infinite = draw(st.integers(0, 9)) == 0 and len(frame) > 0
    if infinite:
        frame.loc[0, "y"] = draw(st.sampled_from([np.inf, -np.inf]))
    text = draw(st.integers(0, 4)) == 0
    if text:
        frame["y"] = frame["y"].map(repr).astype(object)
    return frame, {"by": n_groups > 1 or draw(st.booleans()), "infinite": infinite, "text": text}


def run(call: Any) -> tuple[Any, list[warnings.WarningMessage]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result: Any = call()
        except (ValueError, TypeError) as exc:
            result = exc
    return result, list(caught)


def clean(result: Any, caught: list[warnings.WarningMessage], what: str) -> Any:
    """The result after checking that only pdagree warnings came out and that an error
    says something."""
    for warning in caught:
        assert issubclass(warning.category, pdagree.PdagreeWarning), (
            what,
            warning.category,
            str(warning.message),
        )
    if isinstance(result, Exception):
        message = str(result)
        assert len(message) >= 30 and not INTERNAL.search(message), (what, message)
    return result


def ratings(frame: pd.DataFrame, by: bool) -> Any:
    return frame.agree(item="item", rater="rater", label="y", by="g" if by else None)


def table(frame: pd.DataFrame, by: bool) -> Any:
    return clean(*run(lambda: ratings(frame, by).icc_table()), "icc_table")


def _reciprocal(x: Any) -> Any:
    """Numbers beyond 1 in magnitude as their reciprocals: a bound far below -1 is the
    inverse of a small number (1 - 1/F at F near 0, A,k's Spearman-Brown step near its pole
    -1 / (k - 1), where it is -inf on one side), whose relative rounding it amplifies."""
    with np.errstate(divide="ignore"):
        return np.where(np.abs(x) > 1.0, 1.0 / x, x)


def same(a: Any, b: Any, what: str) -> None:
    """Two results (frames or errors) alike: the same error type, or the same numbers (nan
    where the other is nan). The ANOVA forms to rounding; the REML forms of incomplete
    groups (the ``reml`` column) to 1e-3: on a tiny group (two items, four ratings) the
    likelihood is flat to its rounding (1e-13) over a stretch of the parameters that moves
    an ICC by up to 1e-4, so where the optimiser stops depends on the order of the sums."""
    if isinstance(a, Exception) or isinstance(b, Exception):
        assert type(a) is type(b), (what, a, b)
        return
    if isinstance(a, pd.DataFrame):
        reml = a["reml"].to_numpy(bool)
        x, y = (_reciprocal(f[COLUMNS].to_numpy(float)) for f in (a, b))
        for rows, rtol in ((~reml, 1e-9), (reml, 1e-3)):
            np.testing.assert_allclose(
                x[rows], y[rows], rtol=rtol, atol=1e-9, equal_nan=True, err_msg=what
            )
        return
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    np.testing.assert_allclose(x, y, rtol=1e-12, atol=1e-12, equal_nan=True, err_msg=what)


def _values(result: Any, by: bool) -> Any:
    if isinstance(result, Exception):
        return result
    frame = result.sort_index() if by else result.loc[list(FORMS)]
    missing = result.attrs["mean_squares"]["missing"]
    form = frame.index.get_level_values(-1) if by else frame.index
    if by:
        incomplete = missing.reindex(frame.index.droplevel(-1)).to_numpy() == "incomplete"
    else:
        incomplete = np.full(len(frame), missing == "incomplete")
    return frame[COLUMNS].assign(reml=incomplete & ~form.str.startswith("1"))


@SETTINGS
@given(case=score_frames())
def test_icc_and_kendall_w_on_random_frames(case: tuple[pd.DataFrame, dict[str, Any]]) -> None:
    frame, how = case
    by = how["by"]
    before = frame.copy(deep=True)
    out = table(frame, by)
    if how["infinite"]:
        assert isinstance(out, ValueError), out  # "needs finite ratings", or the layout's error
    if not isinstance(out, Exception):
        values = out["value"].to_numpy(float)
        assert np.all(np.isnan(values) | (values <= 1.0 + 1e-9)), out
        bounds = out[["low", "high"]].to_numpy(float)
        ok = np.isfinite(bounds).all(axis=1)
        assert np.all(bounds[ok, 0] <= bounds[ok, 1] + 1e-9), out
        for form in ("A,1", "C,k"):
            one = clean(*run(lambda f=form: ratings(frame, by).icc(f)), f"icc({form})")
            if not by and not isinstance(one, Exception):
                assert math.isclose(float(one), out.loc[form, "value"], rel_tol=1e-12) or (
                    math.isnan(float(one)) and math.isnan(out.loc[form, "value"])
                )
                clean(*run(one.confidence_interval), "confidence_interval")
                clean(*run(one.p_value), "p_value")
    w = clean(*run(lambda: ratings(frame, by).kendall_w()), "kendall_w")
    if not isinstance(w, Exception):
        values = np.atleast_1d(np.asarray(w["value"] if by else float(w), dtype=float))
        assert np.all(np.isnan(values) | ((values >= -1e-12) & (values <= 1.0 + 1e-12)))
    pd.testing.assert_frame_equal(frame, before)


@SETTINGS
@given(case=score_frames(), seed=st.integers(0, 2**16), data=st.data())
def test_icc_does_not_depend_on_order_offset_or_scale(
    case: tuple[pd.DataFrame, dict[str, Any]], seed: int, data: st.DataObject
) -> None:
    frame, how = case
    if how["text"] or how["infinite"]:
        return
    by = how["by"]
    base = _values(table(frame, by), by)
    shuffled = frame.sample(frac=1.0, random_state=seed)
    rename = {
        r: f"z{i}"
        for i, r in enumerate(np.random.default_rng(seed).permutation(frame["rater"].unique()))
    }
    shuffled = shuffled.assign(rater=shuffled["rater"].map(rename))
    same(base, _values(table(shuffled, by), by), "rows, items and raters reordered")
    offset = data.draw(st.sampled_from([2.0**40, -(2.0**45), 1e15, 1.7e12 - 2.0**10]))
    same(base, _values(table(frame.assign(y=frame["y"] + offset), by), by), f"+ {offset}")
    scale = data.draw(st.sampled_from([2.0**500, 2.0**-700, 1e154, 1e-200, -3.0]))
    same(base, _values(table(frame.assign(y=frame["y"] * scale), by), by), f"x {scale}")
    w = run(lambda: ratings(frame, by).kendall_w())[0]
    w_scaled = run(lambda: ratings(frame.assign(y=frame["y"] * 2.0**300), by).kendall_w())[0]
    if not isinstance(w, Exception):
        same(
            w["value"] if by else float(w),
            w_scaled["value"] if by else float(w_scaled),
            "W",
        )
