"""The registry: every coefficient by name, with what it needs and what it offers.

This is the one list that :class:`pdagree.Ratings`, :meth:`~pdagree.Ratings.report`, the
command line and the inference layer (analytic variances and the bootstrap) read. Adding a
coefficient is one definition (a function ``compute(data, **options) -> Components`` in the
module of its family) and one entry here; the order here is the order of ``report()``.
"""

from __future__ import annotations

from typing import Any

from . import alpha, bias, kappa, multilabel, spa
from . import item_sums as sums
from . import jackknife as jk
from .base import ANNOTATIONS, ITEMS, RATERS, ROWS, Definition, Reads

__all__ = ["REGISTRY", "get"]


def _unweighted(options: dict[str, Any]) -> bool:
    """Without weights, categories nobody used add zeros to every sum (``A_o``, ``pi``,
    each rater's proportions): a group's value does not depend on them."""
    return options.get("weights") is None


def _nominal(options: dict[str, Any]) -> bool:
    """Nominal alpha without weights: the coincidences of the values present only; interval
    alpha: their moment sums (the distances are differences of the values present, in a
    power-of-two unit, so exact whichever categories set it)."""
    level = options.get("level", "nominal")
    return (
        _unweighted(options)
        and options.get("distance") is None
        and isinstance(level, str)
        and level in ("nominal", "interval")
    )


_ROWS: Reads = frozenset({ROWS})
_ROWS_RATERS: Reads = frozenset({ROWS, RATERS})
_ITEMS: Reads = frozenset({ITEMS})
_ANNOTATIONS: Reads = frozenset({ANNOTATIONS})


def _alpha_levels(options: dict[str, Any]) -> Reads:
    """Alpha at a level other than nominal (ordinal, interval, ratio, a matrix) or with a
    set ``distance`` reads the items: its distances are not those of rows of counts summed
    with multiplicities."""
    level = options.get("level", "nominal")
    nominal = isinstance(level, str) and level == "nominal" and options.get("distance") is None
    return frozenset() if nominal else _ITEMS


REGISTRY: dict[str, Definition] = {
    d.name: d
    for d in (
        Definition(
            "observed",
            kappa.observed,
            "observed agreement A_o",
            reads=_ROWS,
            weights=True,
            variance=kappa.observed_variance,
            item_sums=sums.observed_sums,
            ignores_unused_categories=_unweighted,
            on_table=True,
        ),
        Definition(
            "bennett",
            kappa.bennett,
            "Bennett's S (uniform chance agreement)",
            reads=_ROWS,
            weights=True,
            variance=kappa.bennett_variance,
            item_sums=sums.bennett_sums,
            on_table=True,
        ),
        Definition(
            "fleiss",
            kappa.fleiss,
            "Fleiss' kappa (multi-pi)",
            reads=_ROWS,
            weights=True,
            variance=kappa.fleiss_variance,
            item_sums=sums.fleiss_sums,
            null_se=kappa.fleiss_null_se,
            ignores_unused_categories=_unweighted,
            on_table=True,
        ),
        Definition(
            "gwet",
            kappa.gwet,
            "Gwet's AC1 / AC2",
            reads=_ROWS,
            weights=True,
            variance=kappa.gwet_variance,
            item_sums=sums.gwet_sums,
            on_table=True,
        ),
        Definition(
            "alpha",
            alpha.alpha,
            "Krippendorff's alpha",
            reads=_ROWS,
            reads_with=_alpha_levels,
            weights=True,
            levels=True,
            variance=alpha.alpha_variance,
            analytic_applies=alpha.alpha_analytic_applies,
            item_sums=sums.alpha_sums,
            ignores_unused_categories=_nominal,
            on_table=True,
        ),
        Definition(
            "scott",
            kappa.scott,
            "Scott's pi (two raters)",
            reads=_ROWS,
            two_raters=True,
            weights=True,
            variance=kappa.fleiss_variance,
            item_sums=sums.fleiss_sums,
            null_se=kappa.fleiss_null_se,
            ignores_unused_categories=_unweighted,
            on_table=True,
        ),
        Definition(
            "cohen",
            kappa.cohen,
            "Cohen's kappa (two raters)",
            reads=_ROWS_RATERS,
            two_raters=True,
            weights=True,
            variance=kappa.conger_variance,
            large_sample=kappa.cohen_large_sample,
            item_sums=sums.conger_sums,
            null_se=kappa.cohen_null_se,
            ignores_unused_categories=_unweighted,
            on_table=True,
        ),
        Definition(
            "conger",
            kappa.conger,
            "Conger's kappa (multi-kappa)",
            reads=_ROWS_RATERS,
            weights=True,
            variance=kappa.conger_variance,
            item_sums=sums.conger_sums,
            ignores_unused_categories=_unweighted,
            on_table=True,
        ),
        Definition(
            "light",
            kappa.light,
            "Light's kappa (mean pairwise Cohen)",
            reads=_ANNOTATIONS,
            jackknife=jk.light_jackknife,
            item_sums=sums.light_sums,
            on_table=True,
        ),
        Definition(
            "bias",
            bias.bias,
            "Artstein & Poesio's annotator bias",
            reads=_ROWS_RATERS,
            jackknife=jk.bias_jackknife,
            item_sums=sums.bias_sums,
            on_table=True,
        ),
        Definition(
            "spa",
            spa.spa,
            "Sparse Probability of Agreement",
            reads=_ITEMS,
            per_item=spa.per_item_weights,
            in_report=False,
            item_sums=sums.spa_sums,
        ),
        Definition(
            "multilabel",
            multilabel.multilabel,
            "Rosenberg & Binkowski's kappa for primary and secondary labels",
            reads=_ANNOTATIONS,
            item_sums=sums.multilabel_sums,
            in_report=False,
        ),
    )
}


def get(name: str) -> Definition:
    """The definition called ``name``; a ValueError listing the names otherwise."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise ValueError(
            f"unknown coefficient {name!r}; choose one of {', '.join(map(repr, REGISTRY))}."
        ) from None
