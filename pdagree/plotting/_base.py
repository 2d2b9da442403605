"""What every chart shares: matplotlib imported on first use, an Axes, tables from results.

matplotlib is imported inside the functions that draw, never when pdagree is imported; a
missing matplotlib is an ImportError that names the extra to install. Charts draw on the
Axes they are given (or on a new figure's), return it, and never call ``plt.show()`` nor
touch ``rcParams``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._labels import label_of, shared_start

__all__ = [
    "MANY",
    "axes",
    "crowded",
    "label_of",
    "labels_of",
    "legend_beside",
    "pyplot",
    "table_of",
]

#: Above this many labels on an axis they are cut to ``SHORT`` characters (25 e-mail addresses
#: side by side overlap into a black band) and drawn smaller.
MANY = 10
SHORT = 18


def pyplot() -> Any:
    """``matplotlib.pyplot``, or an ImportError that says how to install it."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - exercised with matplotlib hidden
        raise ImportError(
            "pdagree's plots need matplotlib, which is not installed; install it with "
            '`pip install "pdagree[plot]"` (or `pip install matplotlib`).'
        ) from exc
    return plt


def axes(ax: Any, *, constrained: bool = False) -> Any:
    """``ax``, or the Axes of a new figure when ``ax`` is None; ``constrained``: that figure
    lays itself out when drawn (``layout="constrained"``), so that what is drawn beside the
    Axes (:func:`legend_beside`) is inside it when saved."""
    plt = pyplot()
    if ax is None:
        _, ax = plt.subplots(layout="constrained" if constrained else None)
    return ax


#: A legend entry's height in font sizes (text, ``labelspacing`` 0.5, the handle's room), and
#: the font sizes a legend's title and padding take: what :func:`legend_beside` fits.
ENTRY_HEIGHT = 1.8
LEGEND_FRAME = 5.0


def legend_beside(ax: Any, title: str, n_entries: int) -> Any:
    """A legend to the right of ``ax``, in as many columns as the figure's height needs for
    ``n_entries`` (in a smaller font above :data:`MANY` of them). On a figure a chart made
    (:func:`axes` with ``constrained=True``) the layout makes room for it, so the saved
    figure holds it whole (``savefig`` without ``bbox_inches="tight"``); beside an Axes of
    the caller's, the room is the caller's to give (``plt.subplots(layout="constrained")``,
    or ``bbox_inches="tight"`` when saving)."""
    from matplotlib import rcParams
    from matplotlib.font_manager import FontProperties

    fontsize = "small" if n_entries > MANY else rcParams["legend.fontsize"]
    size = FontProperties(size=fontsize).get_size_in_points()
    height = ax.figure.get_figheight() * 72.0  # points
    rows = max(1, int((height / size - LEGEND_FRAME) // ENTRY_HEIGHT))
    return ax.legend(
        title=title,
        loc="upper left",
        bbox_to_anchor=(1.02, 1.0),
        borderaxespad=0.0,
        ncols=max(1, -(-n_entries // rows)),
        fontsize=fontsize,
    )


def table_of(data: Any, method: str, *args: Any) -> pd.DataFrame:
    """``data`` when it is a DataFrame, else ``data.<method>(*args)`` (a :class:`Ratings`)."""
    if isinstance(data, pd.DataFrame):
        return data
    compute = getattr(data, method, None)
    if compute is None or not callable(compute):
        raise TypeError(
            f"expected the DataFrame of `{method}()` or the ratings to compute it from (the "
            f"result of `df.agree(...)`); got {type(data).__name__}."
        )
    table: pd.DataFrame = compute(*args)
    return table


def labels_of(index: pd.Index) -> list[str]:
    """Axis labels for ``index``: whole up to :data:`MANY` of them; beyond, long labels are
    shortened to what tells them apart (the part after a prefix they all share and before a
    suffix they all share, e.g. ``annota…07…`` for ``annotator.number07@example.com``), cut
    to :data:`SHORT` characters."""
    labels = [label_of(key) for key in index]
    if len(labels) <= MANY or all(len(s) <= SHORT for s in labels):
        return labels
    prefix = shared_start(labels)
    suffix = shared_start([s[::-1] for s in labels])[::-1]
    half = (SHORT - 1) // 2
    out = []
    for s in labels:
        core = s[len(prefix) : len(s) - len(suffix)] if len(prefix) + len(suffix) < len(s) else s
        text = (prefix[:6] + "…" if prefix and core is not s else "") + core
        text += "…" if suffix and core is not s else ""
        out.append(text if len(text) <= SHORT else f"{text[:half]}…{text[-half:]}")
    return out


def crowded(ax: Any, axis: str, n: int) -> None:
    """Smaller tick labels on ``axis`` ("x" or "y") of ``ax`` when it carries more than
    :data:`MANY` of them; on x, vertical too."""
    if n <= MANY:
        return
    size = "x-small" if n > 2 * MANY else "small"
    if axis == "x":
        ax.tick_params(axis="x", labelsize=size, labelrotation=90)
    else:
        ax.tick_params(axis="y", labelsize=size)


def errors(values: Any, low: Any, high: Any) -> np.ndarray[Any, Any]:
    """Error bar lengths (2, n) from an interval; 0 where it is unknown."""
    values = np.asarray(values, dtype=np.float64)
    below = np.nan_to_num(values - np.asarray(low, dtype=np.float64), nan=0.0)
    above = np.nan_to_num(np.asarray(high, dtype=np.float64) - values, nan=0.0)
    return np.vstack([np.maximum(below, 0.0), np.maximum(above, 0.0)])
