"""Plots of agreement results (matplotlib, the ``plot`` extra: ``pip install "pdagree[plot]"``).

Every function takes the results pdagree returns (or the ratings, for the breakdowns),
draws on ``ax`` (a new figure's Axes by default) and returns the Axes. matplotlib is imported
when a chart is drawn, not when pdagree is; nothing here calls ``plt.show()`` or changes
``rcParams``.

- :func:`frequencies`: each rater's category frequencies.
- :func:`bias`: the annotator bias decomposed by category or by rater.
- :func:`pairwise`: the pairwise agreement heatmap.
- :func:`per_category`: agreement per category, with intervals when given.
- :func:`coefficients`: coefficients with their intervals, per ``by=`` group or side by side.
- :func:`spa_weights`: the Sparse Probability of Agreement's item-weight curves.
- :func:`span_labels`, :func:`span_pairs`: span agreement per label and per pair of
  annotators.
- :func:`bland_altman`: two raters' scores, mean against difference, with the limits of
  agreement.

A result's ``.plot()`` (:meth:`pdagree.Coefficient.plot`) delegates here: the bias to
:func:`bias`, SPA to :func:`spa_weights`, any other coefficient to :func:`coefficients`.
``by=`` results are DataFrames (whose ``.plot`` is pandas'): pass them to :func:`coefficients`.
"""

from __future__ import annotations

import warnings
from typing import Any

from ..results import Coefficient, register_plot
from ..spa import scheme_weights as _scheme_weights
from .charts import bias, frequencies, pairwise, per_category
from .intervals import coefficients, spa_weights
from .scores import bland_altman
from .spans import span_labels, span_pairs

__all__ = [
    "bias",
    "bland_altman",
    "coefficients",
    "frequencies",
    "pairwise",
    "per_category",
    "spa_weights",
    "span_labels",
    "span_pairs",
]


def _plot_spa(result: Coefficient, ax: Any = None, **options: Any) -> Any:
    """SPA's result: the weight curves, its own weighting drawn thicker."""
    weighting = result.__dict__.get("weighting")
    p = result.__dict__.get("p")
    options.setdefault("highlight", weighting)
    if p is not None:
        options.setdefault("p", p)
    if weighting in ("inv_var", "inv_var_class"):
        options.setdefault("categories", max(result.n_categories, 2))
    return spa_weights(ax=ax, **options)


def scheme_weights(*args: Any, **kwargs: Any) -> Any:
    """Deprecated: :func:`pdagree.spa.scheme_weights` (it returns weights and draws nothing;
    every name of :mod:`pdagree.plotting` draws)."""
    warnings.warn(
        "pdagree.plotting.scheme_weights moved to pdagree.spa.scheme_weights; this alias will "
        "be removed.",
        DeprecationWarning,
        stacklevel=2,
    )
    return _scheme_weights(*args, **kwargs)


register_plot("bias", bias)
register_plot("spa", _plot_spa)
register_plot("", coefficients)
