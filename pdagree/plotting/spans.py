"""Plots of span agreement: F1 per label, and per pair of annotators."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .charts import pairwise, per_category

__all__ = ["span_labels", "span_pairs"]


def span_labels(spans: Any, match: str = "exact", *, ax: Any = None) -> Any:
    """Span agreement per label: each label's mean pairwise F1 as a bar.

    Parameters
    ----------
    spans : SpanRatings
        ``df.agree.spans(...)`` (without ``by=``).
    match : {"exact", "overlap"}, default "exact"
        How two annotators' spans match (:meth:`pdagree.SpanRatings.pairwise_f1`).
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure's Axes by default.

    Returns
    -------
    matplotlib.axes.Axes
        One horizontal bar per label.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdagree
    >>> from pdagree import plotting
    >>> frame = pd.DataFrame({"doc": [1, 1, 1, 1], "who": ["a", "b", "a", "b"],
    ...                       "s": [0, 0, 6, 7], "e": [4, 4, 9, 9], "tag": ["P", "P", "L", "L"]})
    >>> spans = frame.agree.spans(item="doc", rater="who", start="s", end="e", label="tag")
    >>> ax = plotting.span_labels(spans)
    >>> len(ax.patches)
    2
    """
    ax = per_category(spans.per_label(match)[["f1"]], column="f1", ax=ax)
    ax.set_xlim(0.0, 1.0)
    ax.set_xlabel(f"mean pairwise F1 ({match} match)")
    ax.set_title("span agreement per label")
    return ax


def span_pairs(spans: Any, match: str = "exact", *, ax: Any = None, **options: Any) -> Any:
    """Span agreement per pair of annotators: their F1 as a heatmap (1 on the diagonal).

    Parameters
    ----------
    spans : SpanRatings
        ``df.agree.spans(...)`` (without ``by=``).
    match : {"exact", "overlap"}, default "exact"
        How two annotators' spans match.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure's Axes by default.
    **options
        Passed to :func:`pdagree.plotting.pairwise` (``annotate``, ``cmap``, ...).

    Returns
    -------
    matplotlib.axes.Axes
        The heatmap is ``ax.images[0]``; pairs who annotated no document in common are grey.
    """
    table = spans.pairwise_f1(match)
    raters = pd.Index(spans.raters)
    values = np.full((len(raters), len(raters)), np.nan)
    first = raters.get_indexer(table.index.get_level_values(0))
    second = raters.get_indexer(table.index.get_level_values(1))
    values[first, second] = values[second, first] = table["f1"].to_numpy()
    np.fill_diagonal(values, 1.0)
    square = pd.DataFrame(values, index=raters, columns=raters)
    ax = pairwise(square, ax=ax, vmin=options.pop("vmin", 0.0), **options)
    ax.set_title(f"pairwise F1 of the annotators' spans ({match} match)")
    return ax
