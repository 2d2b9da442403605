"""Charts of the breakdowns: category frequencies, the bias decomposition, the pairwise
heatmap and the agreement per category."""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import pandas as pd

from .._warnings import warn
from ..results import Coefficient
from ._base import MANY, axes, crowded, errors, labels_of, legend_beside, pyplot, table_of
from .intervals import coefficient_name

__all__ = ["bias", "frequencies", "pairwise", "per_category"]


def frequencies(
    data: Any,
    *,
    proportion: bool = True,
    stacked: bool = True,
    ax: Any = None,
) -> Any:
    """Each rater's category frequencies: Amidei et al. (2020)'s Table 1 as a chart.

    Parameters
    ----------
    data : Ratings or DataFrame
        The ratings (``df.agree(...)``) or the frame of their :meth:`~pdagree.Ratings.frequencies`.
    proportion : bool, default True
        Plot each rater's proportions (over the items that rater rated); ``False``: counts.
    stacked : bool, default True
        One horizontal bar per rater, split by category; ``False``: a group of vertical bars
        per category, one bar per rater.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure's Axes by default.

    Returns
    -------
    matplotlib.axes.Axes
        One bar per (rater, category), one legend entry per category (stacked) or rater.
        The legend is drawn to the right of the Axes; on a figure the chart makes, the
        layout keeps it inside the saved figure; beside an Axes of yours, give it room
        (``plt.subplots(layout="constrained")``, or ``bbox_inches="tight"`` when saving).

    Examples
    --------
    >>> import pdagree
    >>> from pdagree import plotting
    >>> ax = plotting.frequencies(pdagree.datasets.load("fort2011_trains").agree())
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['Annot1', 'Annot2', 'Annot3', 'Annot4']
    """
    ax = axes(ax, constrained=True)
    table = table_of(data, "frequencies")[("proportion" if proportion else "count")]
    raters = labels_of(table.index)
    values = table.to_numpy(dtype=np.float64)
    what = "proportion" if proportion else "count"
    if stacked:
        position = np.arange(len(raters))[::-1]  # the first rater on top
        left = np.zeros(len(raters))
        for column, category in enumerate(table.columns):
            ax.barh(position, values[:, column], left=left, label=str(category))
            left += values[:, column]
        ax.set_yticks(position, raters)
        crowded(ax, "y", len(raters))
        ax.set_xlabel(what)
        ax.set_ylabel("rater")
        legend_beside(ax, "category", table.shape[1])
    else:
        centre = np.arange(table.shape[1], dtype=np.float64)
        width = 0.8 / max(len(raters), 1)
        for row, rater in enumerate(raters):
            ax.bar(centre + (row - (len(raters) - 1) / 2) * width, values[row], width, label=rater)
        ax.set_xticks(centre, [str(c) for c in table.columns])
        ax.set_xlabel("category")
        ax.set_ylabel(what)
        legend_beside(ax, "rater", len(raters))
    ax.set_title(f"category {what}s of each rater")
    return ax


def bias(
    result: Coefficient,
    *,
    by: Literal["category", "rater"] = "category",
    ax: Any = None,
) -> Any:
    """Artstein & Poesio's annotator bias ``B``, decomposed by category or by rater.

    Parameters
    ----------
    result : Coefficient
        The result of :meth:`pdagree.Ratings.bias` (without ``by=``).
    by : {"category", "rater"}
        ``"category"``: one bar per category, ``sigma^2_k / (c - 1)`` (the variance over
        raters of the proportion of category ``k``, over the raters less one).
        ``"rater"``: one bar per rater, its squared distance from the mean distribution over
        ``c (c - 1)``. Either way the bars sum to the variance term of ``B`` (all of ``B``
        in a complete design; the title gives the marginal gap otherwise).
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure's Axes by default.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import pdagree
    >>> from pdagree import plotting
    >>> b = pdagree.datasets.load("artstein_poesio2005_four").agree.bias()
    >>> ax = plotting.bias(b, by="rater")
    >>> [round(float(p.get_height()), 6) for p in ax.patches]
    [0.000417, 0.000417, 0.000417, 0.000417]
    """
    if by not in ("category", "rater"):
        raise ValueError(f"`by` must be 'category' or 'rater'; got {by!r}.")
    members = getattr(result, "__dict__", {})
    if not isinstance(result, Coefficient) or "per_category" not in members:
        raise TypeError(
            "expected the result of `bias()` without `by=` (it carries the decomposition); "
            f"got {type(result).__name__}. With `by=`, plot each group's `bias()` alone."
        )
    ax = axes(ax)
    if by == "category":
        parts: pd.Series = members["per_category"]
        what, measure = "category", "σ²_k / (c − 1)"
    else:
        parts = members["per_rater"][("contribution", "")]
        what, measure = "rater", "distance / (c (c − 1))"
    names, heights = labels_of(parts.index), parts.to_numpy(dtype=np.float64)
    if len(names) > MANY:  # many bars: horizontal, one readable label per row
        position = np.arange(len(names))[::-1]
        ax.barh(position, heights)
        ax.set_yticks(position, names)
        crowded(ax, "y", len(names))
        ax.set_ylabel(what)
        ax.set_xlabel(measure)
    else:
        ax.bar(names, heights)
        ax.set_xlabel(what)
        ax.set_ylabel(measure)
    title = f"annotator bias B = {float(result):.4g} by {by}"
    gap = float(members.get("marginal_gap", 0.0))
    if abs(gap) > 1e-12:
        title += f" (marginal gap {gap:.2g})"
    ax.set_title(title)
    return ax


def pairwise(
    data: Any,
    *,
    coefficient: str = "cohen",
    annotate: bool | None = None,
    cmap: str = "viridis",
    vmin: float | None = None,
    vmax: float | None = 1.0,
    min_items: int = 2,
    few_items: int = 10,
    ax: Any = None,
    method: str | None = None,
) -> Any:
    """The pairwise agreement heatmap: a two-rater coefficient for every pair of raters.

    Parameters
    ----------
    data : Ratings or DataFrame
        The ratings, or the frame of their :meth:`~pdagree.Ratings.pairwise` (raters x
        raters; without ``by=``).
    coefficient : str, default "cohen"
        With ratings: the ``coefficient`` of :meth:`~pdagree.Ratings.pairwise`.
    annotate : bool, optional
        Write each value in its cell (default: with at most 12 raters).
    cmap, vmin, vmax
        The colour map and its range (``vmin`` defaults to the smallest value).
    min_items : int, default 2
        With ratings: cells of pairs that share fewer items are greyed out, not coloured
        like the rest (their value rests on too little; the chance-corrected ones are nan
        below two shared items anyway). Not applied to ``coefficient="n_items"``.
    few_items : int, default 10
        With ratings: cells of pairs that share fewer items (but at least ``min_items``)
        are hatched (``//``), and annotated cells say ``n=`` how many, so that a kappa from 2
        items does not look like one from 200; the title says so when any is.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure's Axes by default.
    method : str, optional
        Deprecated: the former name of ``coefficient`` (a :class:`FutureWarning`; removed in
        the next release).

    Returns
    -------
    matplotlib.axes.Axes
        The image is ``ax.images[0]`` (a masked array: nan cells, and with ratings the
        pairs sharing fewer than ``min_items`` items, are masked and drawn grey).

    Examples
    --------
    >>> import pdagree
    >>> from pdagree import plotting
    >>> ax = plotting.pairwise(pdagree.datasets.load("fort2011_trains").agree())
    >>> round(float(ax.images[0].get_array()[0, 1]), 3)
    0.176
    """
    if method is not None:  # the former name of `coefficient`, for one release
        warn(
            "plotting.pairwise(method=...) is deprecated and will be removed in the next "
            f"release; use coefficient={method!r}.",
            FutureWarning,
        )
        coefficient = method
    ax = axes(ax)
    table = table_of(data, "pairwise", coefficient)
    if isinstance(table.index, pd.MultiIndex):
        raise ValueError(
            "`pairwise` draws one table of raters x raters; got a frame with a "
            f"{table.index.nlevels}-level index (from `by=`). Select one group, e.g. "
            "`table.loc[key]`."
        )
    values = table.to_numpy(dtype=np.float64)
    shared = None
    if not isinstance(data, pd.DataFrame) and coefficient != "n_items":
        shared = table_of(data, "pairwise", "n_items").to_numpy()
        values = np.where(shared < min_items, np.nan, values)
    colours = pyplot().get_cmap(cmap).with_extremes(bad="lightgrey")
    image = ax.imshow(np.ma.masked_invalid(values), cmap=colours, vmin=vmin, vmax=vmax)
    names = labels_of(table.columns)
    ax.set_xticks(np.arange(len(names)), names, rotation=45, ha="right")
    ax.set_yticks(np.arange(len(table.index)), labels_of(table.index))
    crowded(ax, "x", len(names))
    crowded(ax, "y", len(table.index))
    ax.figure.colorbar(image, ax=ax)
    few = np.zeros(values.shape, dtype=bool)
    if shared is not None:
        few = np.isfinite(values) & (shared < few_items)
        np.fill_diagonal(few, False)  # a rater with itself: nothing to doubt
        rectangle = pyplot().Rectangle
        for row, column in zip(*np.nonzero(few), strict=True):  # the few hatched cells
            corner = (column - 0.5, row - 0.5)
            hatched = rectangle(corner, 1, 1, fill=False, hatch="//", edgecolor="0.85", lw=0)
            ax.add_patch(hatched)
    if annotate is None:
        annotate = len(names) <= 12
    if annotate:
        low, high = image.get_clim()
        middle = (low + high) / 2
        for (row, column), value in np.ndenumerate(values):
            if np.isfinite(value):
                text = f"{value:.2f}"
                if few[row, column] and shared is not None:
                    text += f"\nn={int(shared[row, column])}"
                ax.text(
                    column,
                    row,
                    text,
                    ha="center",
                    va="center",
                    color="black" if value > middle else "white",
                    fontsize="small",
                )
    title = f"pairwise {coefficient}" if not isinstance(data, pd.DataFrame) else "pairwise"
    if few.any():
        title += f" (// under {few_items} items)"
    ax.set_title(title)
    return ax


def per_category(
    data: Any,
    *,
    column: str | None = None,
    ax: Any = None,
) -> Any:
    """Agreement per category, with intervals when the frame has ``low`` and ``high``.

    Parameters
    ----------
    data : Ratings or DataFrame
        The ratings, the frame of their :meth:`~pdagree.Ratings.per_category`, or any frame
        indexed by category with a value column and, for intervals, ``low`` and ``high``
        columns: for instance ``fleiss(confidence_level=0.95)`` with ``by=`` a category-vs-
        rest recoding (one group per category; with every rater rating every item, Fleiss'
        kappa of category ``k`` against the rest is the category-specific kappa).
    column : str, optional
        The value to draw: default ``"kappa"`` if present, else ``"value"``.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure's Axes by default.

    Returns
    -------
    matplotlib.axes.Axes
        One horizontal bar per category; the intervals are an errorbar container.

    Examples
    --------
    >>> import pdagree
    >>> from pdagree import plotting
    >>> ax = plotting.per_category(pdagree.datasets.load("fleiss1971").agree())
    >>> len(ax.patches), ax.get_xlabel()
    (5, 'kappa')
    """
    ax = axes(ax)
    table = table_of(data, "per_category")
    if column is None:
        column = "kappa" if "kappa" in table.columns else "value"
    if column not in table.columns:
        raise ValueError(
            f"`column` must name a column of the frame {list(table.columns)}; got {column!r}."
        )
    values = table[column].to_numpy(dtype=np.float64)
    position = np.arange(len(table))[::-1]
    ax.barh(position, values, color="C0")
    if {"low", "high"} <= set(table.columns):
        ax.errorbar(
            values,
            position,
            xerr=errors(values, table["low"], table["high"]),
            fmt="none",
            ecolor="black",
            capsize=3,
        )
    ax.set_yticks(position, labels_of(table.index))
    ax.axvline(0.0, color="grey", linewidth=0.8)
    name = (column != "value" and column) or coefficient_name(table) or column
    ax.set_xlabel(name)
    ax.set_title(f"{name} per category")
    return ax
