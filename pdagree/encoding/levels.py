"""Krippendorff's levels of measurement: names, user matrices and callables, as kernel metrics.

``delta2_ck`` is the squared difference between categories ``c`` and ``k`` (0 for equal
values, symmetric). The named levels follow Krippendorff (2011): ``"nominal"``
(``[c != k]``), ``"ordinal"`` (rank sums over the pooled value frequencies), ``"interval"``
(``(c - k)^2``) and ``"ratio"`` (``((c - k) / (c + k))^2``). A (K, K) matrix gives
``delta2`` over the categories in order; a callable computes it from two arrays of category
values. This module validates once, at the public boundary; the kernels in
:mod:`pdagree._kernels.alpha` trust what they get.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from .._kernels import alpha as KA
from .._typing import FloatArray, IntArray
from ._labels import _plain, fmt, label_numbers
from ._sets import SetDistance, label_sets, set_delta2
from .weights import category_matrix, check_numeric_order, undeclared_order_message

__all__ = ["LEVELS", "Level", "magnitude", "metric_for"]

LEVELS = ("nominal", "ordinal", "interval", "ratio")

Level = str | FloatArray | pd.DataFrame | Callable[[FloatArray, FloatArray], FloatArray]

_LEVEL_RULE = (
    "`level` must be one of 'nominal', 'ordinal', 'interval', 'ratio', a (K, K) matrix or a "
    "callable"
)
_SHOWN = 8


def metric_for(
    level: Level, categories: pd.Index, values: FloatArray | None, *, ordered: bool = True
) -> tuple[KA.Metric, str]:
    """The kernel metric for ``level`` and the suffix of the result's name.

    Parameters
    ----------
    level
        A level name, a (K, K) matrix of ``delta2`` (array, or DataFrame labelled by the
        categories) or a callable ``delta2(c, k)`` on arrays of category values.
    categories
        The declared categories, in order.
    values
        The categories as numbers when they are numeric, else ``None``.
    ordered
        Whether the order of the categories was declared (``Encoded.ordered``). If not,
        ``"ordinal"`` is refused (``"interval"`` and ``"ratio"`` need numbers, which are
        always ordered); matrices and callables are taken as given.

    Raises
    ------
    ValueError
        Unknown level name; ``"ordinal"`` on categories whose order was not declared;
        ``"interval"`` or ``"ratio"`` on labels that are not numbers (or
        ``"ratio"`` on negative values); a matrix of the wrong shape, with entries that are
        negative or not finite, not symmetric or with a non-zero diagonal; a callable that
        breaks those rules on the categories.
    TypeError
        ``level`` of another type.

    Examples
    --------
    >>> import pandas as pd
    >>> metric, name = metric_for("interval", pd.Index([1, 2, 5]), np.array([1.0, 2.0, 5.0]))
    >>> name, metric.values.tolist()  # in units of magnitude(values) = 8
    ('interval', [0.125, 0.25, 0.625])
    """
    if isinstance(level, SetDistance):
        return KA.Pairwise(_set_delta2(level.name, categories), ceiling=1.0), level.name
    if isinstance(level, str):
        if level == "nominal":
            return KA.Nominal(), level
        if level == "ordinal":
            if not ordered:
                raise ValueError(undeclared_order_message(f"`level={level!r}`", categories))
            check_numeric_order(f"`level={level!r}`", categories, values)
            return KA.Ordinal(), level
        if level in ("interval", "ratio"):
            x = _numeric(level, categories, values)
            if level == "interval":  # alpha is scale invariant: squares of unit-size values
                return KA.Interval(x / magnitude(x)), level
            if (x < 0).any():
                raise ValueError(
                    "`level='ratio'` needs non-negative values (ratio data have an absolute "
                    f"zero and the metric divides by c + k); got {float(x[x < 0][0])!r}. Use "
                    "level='interval' for values without a natural zero."
                )
            return KA.Pairwise(KA.ratio_delta2(x), extremes=x), level
        raise ValueError(f"{_LEVEL_RULE}; got {level!r}.")
    if isinstance(level, (np.ndarray, pd.DataFrame, list, tuple)):
        return KA.Pairwise(KA.matrix_delta2(_matrix(level, categories))), "custom"
    if callable(level):
        x = values if values is not None else np.arange(len(categories), dtype=np.float64)
        _check_callable(level, x, categories)
        return KA.Pairwise(_call_on_codes(level, x)), "custom"
    raise TypeError(f"{_LEVEL_RULE}; got {type(level).__name__} {level!r}.")


def _set_delta2(name: str, categories: pd.Index) -> KA.Delta2:
    """The set distances ``name`` between the categories read as sets (a frozenset or
    tuple: its elements; another label: the set of itself). Elements that are all numbers,
    or text that reads as numbers, are compared as numbers (``'1'`` is ``1``)."""
    elements, any_set = label_sets(categories)
    if not any_set:
        raise ValueError(
            f"`distance={name!r}` compares sets of labels; these labels are single values, "
            f"e.g. {fmt(categories[:4].tolist())}, on which it equals level='nominal'. Give "
            "each annotation its labels in one cell (a set or frozenset; a list or tuple in a "
            "long frame), or a primary and a secondary label; for one row per selected label, "
            "first df.groupby([item, rater])[label].agg(frozenset).reset_index()."
        )
    sizes = np.fromiter((len(e) for e in elements), dtype=np.int64, count=len(elements))
    pooled = pd.Index([x for e in elements for x in e], dtype=object)
    numbers = label_numbers(pooled) if len(pooled) else None
    keys = pooled if numbers is None else pd.Index(numbers)
    codes = np.asarray(pd.factorize(keys)[0], dtype=np.int64)
    return set_delta2(name, codes, sizes, len(categories))


def magnitude(values: FloatArray) -> float:
    """The power of two just above the largest magnitude among finite ``values`` (1 when
    there is none or it is 0): the unit that interval distances are computed in, so that
    squaring values near 1e200 does not overflow nor near 1e-200 underflow. Dividing by a
    power of two is exact, so ordinary values give the same distances to the last bit.

    >>> magnitude(np.array([1.0, -5.0, 3.0])), magnitude(np.array([0.0]))
    (8.0, 1.0)
    """
    finite = values[np.isfinite(values)]
    size = float(np.abs(finite).max()) if finite.size else 0.0
    if size <= 0:
        return 1.0
    return float(np.ldexp(1.0, int(np.frexp(size)[1])))  # a power of two: exact division


def _numeric(level: str, categories: pd.Index, values: FloatArray | None) -> FloatArray:
    if values is None:
        raise ValueError(
            f"`level={level!r}` needs numeric labels (it takes differences of values); the "
            f"categories are {list(categories[:_SHOWN])!r}. Use level='ordinal' for ordered "
            "labels or 'nominal' for unordered ones, or pass a (K, K) matrix."
        )
    bad = ~np.isfinite(values)
    if bad.any():
        raise ValueError(
            f"`level={level!r}` needs finite values; got {float(values[bad][0])!r}. Drop those "
            "ratings or use level='ordinal'."
        )
    return values


def _matrix(level: Any, categories: pd.Index) -> FloatArray:
    matrix = category_matrix(level, categories, subject="`level`", rule=_LEVEL_RULE)
    if (matrix < 0).any():
        raise ValueError(
            "`level` as a matrix holds squared differences delta2[c, k], which cannot be "
            f"negative; got {float(matrix[matrix < 0][0])!r}."
        )
    if not np.allclose(matrix, matrix.T, rtol=1e-12, atol=0.0):
        raise ValueError(
            "`level` as a matrix must be symmetric (delta2[c, k] == delta2[k, c]); got an "
            "asymmetric matrix. Use (D + D.T) / 2 if the asymmetry is unintended."
        )
    diagonal = np.diag(matrix)
    if (diagonal != 0).any():
        raise ValueError(
            "`level` as a matrix must have 0 on the diagonal (equal values do not disagree); "
            f"got diagonal {diagonal[:_SHOWN].tolist()!r}."
        )
    return (matrix + matrix.T) / 2.0


def _evaluate(
    level: Callable[[FloatArray, FloatArray], FloatArray], c: FloatArray, k: FloatArray
) -> FloatArray:
    out = np.asarray(level(c, k), dtype=np.float64)
    if out.shape != c.shape:
        raise ValueError(
            "a `level` callable must return delta2 elementwise, an array of the shape of its "
            f"arguments {c.shape}; got shape {out.shape}."
        )
    if not np.isfinite(out).all() or (out < 0).any():
        raise ValueError(
            "a `level` callable must return finite, non-negative squared differences; got "
            f"{out[~np.isfinite(out) | (out < 0)][:_SHOWN].tolist()!r}."
        )
    return out


def _check_callable(
    level: Callable[[FloatArray, FloatArray], FloatArray], x: FloatArray, categories: pd.Index
) -> None:
    """Check the callable on every category against itself and on neighbouring categories."""
    same = _evaluate(level, x.copy(), x.copy())
    if (same != 0).any():
        bad = int(np.flatnonzero(same != 0)[0])
        raise ValueError(
            "a `level` callable must give 0 for equal values (delta2(c, c) == 0); got "
            f"{float(same[bad])!r} for category {_plain(categories[bad])!r}."
        )
    forward = _evaluate(level, x[:-1].copy(), x[1:].copy())
    backward = _evaluate(level, x[1:].copy(), x[:-1].copy())
    if not np.allclose(forward, backward, rtol=1e-12, atol=0.0):
        bad = int(np.flatnonzero(~np.isclose(forward, backward, rtol=1e-12, atol=0.0))[0])
        raise ValueError(
            "a `level` callable must be symmetric (delta2(c, k) == delta2(k, c)); got "
            f"{float(forward[bad])!r} and {float(backward[bad])!r} for categories "
            f"{_plain(categories[bad])!r} and {_plain(categories[bad + 1])!r}."
        )


def _call_on_codes(
    level: Callable[[FloatArray, FloatArray], FloatArray], x: FloatArray
) -> KA.Delta2:
    def delta2(a: IntArray, b: IntArray) -> FloatArray:
        c, k = np.broadcast_arrays(x[a], x[b])
        return np.asarray(level(c, k), dtype=np.float64)

    return delta2
