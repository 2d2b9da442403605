"""Plots of numeric scores: Bland & Altman's mean-difference plot."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._base import axes, label_of

__all__ = ["bland_altman"]


def bland_altman(result: Any, *, ax: Any = None, intervals: bool = True) -> Any:
    """Bland & Altman's plot: each item's mean of the two scores against their difference,
    with the bias and the limits of agreement as lines (Bland & Altman 1986, Figure 2).

    Parameters
    ----------
    result : BlandAltman
        What :meth:`pdagree.Ratings.bland_altman` returns (without ``by=``).
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure's Axes by default.
    intervals : bool, default True
        Shade the confidence interval of the bias and of each limit.

    Returns
    -------
    matplotlib.axes.Axes
        One point per item scored by both raters; a solid line at the bias and dashed lines
        at the two limits, each labelled with its value on the right.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdagree
    >>> from pdagree import plotting
    >>> judges = pd.DataFrame({"a": [3.0, 5.0, 4.0, 6.0], "b": [2.0, 5.0, 3.0, 5.0]})
    >>> ax = plotting.bland_altman(judges.agree.bland_altman("a", "b"))
    >>> [round(line.get_ydata()[0], 2) for line in ax.get_lines()]
    [0.75, -0.23, 1.73]
    """
    means = getattr(result, "means", None)
    if means is None or not hasattr(result, "differences"):
        raise TypeError(
            "`result` must be what `Ratings.bland_altman(a, b)` returns (without `by=`); "
            f"got {type(result).__name__}."
        )
    ax = axes(ax)
    ax.scatter(np.asarray(means), np.asarray(result.differences), s=16, alpha=0.7)
    lines = (
        ("bias", result.bias, "-", (result.bias_low, result.bias_high)),
        ("lower", result.lower, "--", (result.lower_low, result.lower_high)),
        ("upper", result.upper, "--", (result.upper_low, result.upper_high)),
    )
    for name, level, style, (low, high) in lines:
        ax.axhline(level, color="C1" if name == "bias" else "C3", linestyle=style, linewidth=1.2)
        if intervals and np.isfinite([low, high]).all():
            ax.axhspan(low, high, color="C1" if name == "bias" else "C3", alpha=0.12, lw=0)
        if np.isfinite(level):
            ax.annotate(
                f"{name} {level:.3g}",
                xy=(1.0, level),
                xycoords=("axes fraction", "data"),
                xytext=(-4, 3),
                textcoords="offset points",
                ha="right",
                fontsize="small",
            )
    a, b = label_of(result.rater_a), label_of(result.rater_b)
    ax.set_xlabel(f"mean of {a} and {b}")
    ax.set_ylabel(f"{a} - {b}")
    ax.set_title(f"Bland-Altman: {a} vs {b} ({result.n_items} items)")
    return ax
