"""The IRCCC panels of Amidei et al. (2020), Figures 2 and 3; matplotlib is imported lazily."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .._typing import FloatArray
from ..encoding import fmt

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from ._result import GradedResponseFit

__all__ = ["plot_irccc"]

_INSTALL = 'pip install "pdagree[plot]"'


def _pyplot() -> Any:
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise ImportError(
            f"`plot()` needs matplotlib, which is not installed; install it with `{_INSTALL}`."
        ) from exc
    return plt


def _axes(ax: Any, n_panels: int, plt: Any) -> list[Any]:
    if ax is None:
        n_cols = min(n_panels, 3)
        n_rows = -(-n_panels // n_cols)
        fig, grid = plt.subplots(
            n_rows,
            n_cols,
            figsize=(4.0 * n_cols, 3.2 * n_rows),
            sharex=True,
            sharey=True,
            squeeze=False,
            layout="constrained",
        )
        axes = list(grid.ravel())
        for extra in axes[n_panels:]:
            fig.delaxes(extra)
        return axes[:n_panels]
    axes = list(np.ravel(np.asarray(ax, dtype=object)))
    if len(axes) != n_panels:
        raise ValueError(
            f"`ax` must hold one Axes per judge drawn ({n_panels}); got {len(axes)}. Pass "
            "`raters=[...]` to draw fewer judges, or leave `ax` out for a new figure."
        )
    return axes


def plot_irccc(
    fit: GradedResponseFit,
    raters: Sequence[Hashable] | None,
    *,
    z: Sequence[float] | FloatArray | None,
    ax: Any,
) -> Figure:
    """One panel per judge, one curve per category it uses; see `GradedResponseFit.plot`."""
    chosen = list(fit.raters) if raters is None else list(raters)
    unknown = [r for r in chosen if r not in fit.raters]
    if unknown or not chosen:
        raise ValueError(
            f"`raters` must name judges of the fit {fmt(list(fit.raters))}; got "
            f"{fmt(unknown if unknown else chosen)}."
        )
    plt = _pyplot()
    curves = fit.irccc(z)
    axes = _axes(ax, len(chosen), plt)
    own_figure = ax is None
    for axis, judge in zip(axes, chosen, strict=True):
        position = fit.raters.get_loc(judge)
        mine = curves[curves["rater"] == judge]
        for k, category in enumerate(fit.categories):
            if not fit._data.valid[position, k]:
                continue  # the judge never uses it: no curve
            one = mine[mine["category"] == category]
            axis.plot(one["z"], one["probability"], color=f"C{k}", label=str(category))
        axis.set_title(f"{judge}")
        axis.set_xlabel("latent trait z")
        axis.set_ylabel("probability")
        axis.set_ylim(-0.02, 1.02)
        axis.legend(title="category", fontsize="small")
        if own_figure:
            axis.label_outer()  # the panels share their axes
    figure: Figure = axes[0].figure
    return figure
