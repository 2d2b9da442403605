"""Coefficients with their intervals (per group, per coefficient) and SPA's weight curves."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..results import Statistic
from ..spa import WEIGHTINGS, scheme_weights
from ._base import axes, crowded, errors, labels_of, legend_beside

__all__ = ["coefficient_name", "coefficients", "spa_weights"]


def _as_frame(results: Any) -> pd.DataFrame:
    """A frame with ``value`` (and ``low``, ``high`` when known), one row per estimate."""
    if isinstance(results, Statistic):
        results = [results]
    if isinstance(results, pd.DataFrame):
        frame = results
    elif isinstance(results, Sequence) and all(isinstance(r, Statistic) for r in results):
        rows = []
        for result in results:
            row = {"value": float(result)}
            row.update({k: result.__dict__.get(k, np.nan) for k in ("low", "high")})
            rows.append(row)
        frame = pd.DataFrame(rows, index=pd.Index([r.name for r in results]))
    else:
        raise TypeError(
            "expected a result (a Coefficient), a list of them, or a frame with a `value` "
            f"column (a `by=` result, `report()`); got {type(results).__name__}."
        )
    if "value" not in frame.columns:
        raise ValueError(
            f"expected a frame with a `value` column (a `by=` result, `report()`); its columns "
            f"are {list(frame.columns)}."
        )
    return frame


def coefficients(
    results: Any,
    *,
    thresholds: Sequence[float] = (),
    ax: Any = None,
) -> Any:
    """Coefficients as points with their intervals: per ``by=`` group, or side by side.

    Parameters
    ----------
    results : DataFrame, Statistic (a Coefficient, ICC, ...) or list of them
        A ``by=`` result (one row per group: ``value``, and ``low`` and ``high`` when it was
        computed with ``confidence_level=``), a :meth:`~pdagree.Ratings.report`, or results.
    thresholds : sequence of float
        Vertical reference lines, e.g. ``(0.667, 0.8)`` for Krippendorff's.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure's Axes by default.

    Returns
    -------
    matplotlib.axes.Axes
        One point per row (the first on top), with horizontal error bars where the interval
        is known.

    Examples
    --------
    >>> import pdagree
    >>> from pdagree import plotting
    >>> crowd = pdagree.datasets.load("crowd_sparse")
    >>> groups = crowd.agree(item="item", rater="annotator", label="label", by="batch")
    >>> ax = plotting.coefficients(groups.fleiss(confidence_level=0.95))
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['1', '2', '3']
    """
    ax = axes(ax)
    frame = _as_frame(results)
    values = frame["value"].to_numpy(dtype=np.float64)
    position = np.arange(len(frame))[::-1]
    if {"low", "high"} <= set(frame.columns):
        xerr = errors(values, frame["low"], frame["high"])
    else:
        xerr = None
    ax.errorbar(values, position, xerr=xerr, fmt="o", capsize=3, color="C0")
    for threshold in thresholds:
        ax.axvline(threshold, color="grey", linestyle="--", linewidth=0.8)
    ax.set_yticks(position, labels_of(frame.index))
    crowded(ax, "y", len(frame))
    name = coefficient_name(frame)
    ax.set_xlabel(name or "value")
    names = [str(n) for n in frame.index.names if n is not None]
    if names:
        ax.set_ylabel(" / ".join(names))
    # A report's rows are coefficients: "per coefficient" would say nothing.
    groups = " / ".join(n for n in names if n != "coefficient")
    title = name or ("coefficients" if "coefficient" in names or not names else "value")
    if groups:
        title += f" per {groups}"
    if thresholds:
        title += f" (dashed: {', '.join(f'{t:g}' for t in thresholds)})"
    ax.set_title(title)
    return ax


def coefficient_name(frame: pd.DataFrame) -> str:
    """The coefficient a ``by=`` frame holds (``""`` for several or none)."""
    name = frame.attrs.get("coefficient")
    if not name and "name" in frame.columns and frame["name"].nunique() == 1:
        name = frame["name"].iloc[0]
    return str(name or "")


def spa_weights(
    *,
    n_max: int = 10,
    schemes: Sequence[str] | None = None,
    categories: int = 2,
    p: Any = None,
    highlight: str | None = None,
    ax: Any = None,
) -> Any:
    """SPA's weight curves: how much an item with ``n`` labels weighs under each weighting.

    Each curve is ``k(n) / k(2)`` (weights are relative within a weighting), on a log scale.
    ``inv_var`` is the same curve as ``edges`` for every number of categories; with ``p``
    the ``inv_var_class`` curve shows how a skewed category distribution flattens it.

    Parameters
    ----------
    n_max : int, default 10
        The largest number of labels per item to draw (from 2).
    schemes : sequence of str, optional
        The weightings (default: all of them; ``inv_var_class`` only with ``p``).
    categories : int, default 2
        The number of categories of the uniform ``inv_var`` weights.
    p : array-like, Series or dict, optional
        Category probabilities for ``inv_var_class``.
    highlight : str, optional
        A weighting to draw thicker (the one a result used).
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure's Axes by default.

    Returns
    -------
    matplotlib.axes.Axes
        One line per weighting, labelled with its name, and the legend to the right of the
        Axes (inside the saved figure when the chart makes the figure; see
        :func:`frequencies` for an Axes of yours).

    Examples
    --------
    >>> from pdagree import plotting
    >>> ax = plotting.spa_weights(n_max=5)
    >>> {line.get_label(): line.get_ydata()[-1] for line in ax.get_lines()}["edges"]
    np.float64(10.0)
    """
    if n_max < 2:
        raise ValueError(f"`n_max` must be at least 2 (labels per item); got {n_max!r}.")
    if schemes is None:
        schemes = [s for s in WEIGHTINGS if s != "inv_var_class" or p is not None]
    ax = axes(ax, constrained=True)
    n = np.arange(2, int(n_max) + 1, dtype=np.float64)
    for scheme in schemes:
        k = scheme_weights(n, scheme, categories=categories, p=p)
        wide = scheme == highlight
        ax.plot(
            n,
            k / k[0],
            marker="o",
            markersize=3,
            label=scheme,
            linewidth=3.0 if wide else 1.5,
            linestyle="--" if scheme == "inv_var" else "-",
        )
    ax.set_yscale("log")
    ax.set_xlabel("labels on the item, n")
    ax.set_ylabel("weight k(n) / k(2)")
    ax.set_title("SPA item weights")
    legend_beside(ax, "weights", len(schemes))
    return ax
