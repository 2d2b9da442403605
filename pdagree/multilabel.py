"""Rosenberg & Binkowski's kappa for primary and secondary labels: the public helpers.

The analyses are methods of :class:`pdagree.Ratings` (:meth:`~pdagree.Ratings.multilabel`,
:meth:`~pdagree.Ratings.multilabel_sweep`, :meth:`~pdagree.Ratings.multilabel_items`,
:meth:`~pdagree.Ratings.multilabel_labels`), defined in :mod:`pdagree.definitions.multilabel`.
Here are the plots of their results (matplotlib, the ``plot`` extra, imported when a plot is
drawn) and the item classifier for a kappa table of your own.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from .definitions.multilabel import SWEEP, MultilabelItems, classify_items

__all__ = ["SWEEP", "MultilabelItems", "classify_items", "plot_items", "plot_sweep"]


def _pyplot() -> Any:
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError(
            'plotting needs matplotlib; install it with `pip install "pdagree[plot]"`.'
        ) from None
    return plt


def _axes(ax: Any) -> Any:
    return _pyplot().subplots()[1] if ax is None else ax


def plot_sweep(sweep: pd.DataFrame, ax: Any = None) -> Any:
    """Draw a :meth:`~pdagree.Ratings.multilabel_sweep` against ``p``.

    Without ``by=``: kappa, ``p(A)`` (observed) and ``p(E)`` (expected) as three lines. With
    ``by=`` (index: group keys, then ``p``): one kappa line per group.

    Parameters
    ----------
    sweep : pandas.DataFrame
        The result of ``multilabel_sweep()``.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure's axes by default.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on (nothing is shown: call ``plt.show()`` or display the figure).

    Raises
    ------
    ImportError
        Without matplotlib (``pip install "pdagree[plot]"``).

    Examples
    --------
    >>> import pandas as pd
    >>> import pdagree
    >>> from pdagree.multilabel import plot_sweep
    >>> wide = pd.DataFrame({"A": [("q", "a"), "q", "s"], "B": [("a", "q"), "q", "s"]})
    >>> ax = plot_sweep(wide.agree.multilabel_sweep())
    >>> ax.get_xlabel()
    'p (weight of the primary label)'
    """
    ax = _axes(ax)
    if isinstance(sweep.index, pd.MultiIndex):
        kappa = sweep["kappa"].unstack("p")
        for key, row in kappa.iterrows():  # one line per group
            ax.plot(row.index, row.to_numpy(), marker="o", label=str(key))
        ax.legend(title=", ".join(map(str, sweep.index.names[:-1])))
        ax.set_ylabel("kappa (mean over annotator pairs)")
    else:
        styles = {"kappa": "-o", "observed": "--", "expected": ":"}
        labels = {"kappa": "kappa", "observed": "p(A) observed", "expected": "p(E) chance"}
        for column, style in styles.items():
            ax.plot(sweep.index, sweep[column], style, label=labels[column])
        ax.legend()
        ax.set_ylabel("mean over annotator pairs")
    ax.set_xlabel("p (weight of the primary label)")
    ax.set_title("Rosenberg & Binkowski kappa across p")
    return ax


def plot_items(items: MultilabelItems, ax: Any = None) -> Any:
    """Draw each item's kappa across the sweep, coloured by its class, with the mean per
    class in bold (:meth:`~pdagree.Ratings.multilabel_items`).

    Returns the :class:`matplotlib.axes.Axes` drawn on (``ax``, or a new figure's).

    Examples
    --------
    >>> import pandas as pd
    >>> import pdagree
    >>> from pdagree.multilabel import plot_items
    >>> wide = pd.DataFrame({"A": [("q", "a"), "q", "s"], "B": [("a", "q"), "q", "s"]})
    >>> ax = plot_items(wide.agree.multilabel_items())
    >>> ax.get_ylabel()
    'item kappa'
    """
    ax = _axes(ax)
    ps = items.kappa.columns.to_numpy(dtype=float)
    colours = _pyplot().rcParams["axes.prop_cycle"].by_key()["color"]
    for i, name in enumerate(items.classes.cat.categories):  # four classes
        rows = items.kappa[(items.classes == name).to_numpy()]
        if rows.empty:
            continue
        colour = colours[i % len(colours)]
        ax.plot(ps, rows.to_numpy().T, color=colour, alpha=0.15, linewidth=0.8)
        ax.plot(
            ps, rows.mean().to_numpy(), color=colour, linewidth=2.5, label=f"{name} ({len(rows)})"
        )
    ax.legend()
    ax.set_xlabel("p (weight of the primary label)")
    ax.set_ylabel("item kappa")
    return ax
