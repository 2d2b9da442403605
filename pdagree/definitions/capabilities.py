"""The capability table: every method of :class:`pdagree.Ratings` with what it reads.

A coefficient declares what it reads on its :class:`~.base.Definition` in :mod:`.registry`;
the other methods (the breakdowns and tables that return labelled frames, the models) are
listed here as :class:`Method`. :data:`CAPABILITIES` is both, one entry per method, and the
one place that says which methods the data of a tally or of a Dask frame give
(:func:`provided`, :func:`missing`): :data:`COUNT_METHODS`, :data:`ROW_METHODS` and
:data:`ITEM_METHODS` are derived from it, and :class:`pdagree.count_ratings.CountRatings`
refuses by it.

What a method reads, from most to least:

- :data:`~.base.ANNOTATIONS`: which rater gave each rating, item by item (a wide or long
  frame, a contingency table);
- :data:`~.base.ITEMS`: one row of category counts per item (a counts table, a tally, a Dask
  frame with ``keep_items=True``);
- :data:`~.base.ROWS`: each group's distinct rows of counts with how many items have them
  (a Dask frame's default reduction);
- :data:`~.base.RATERS`: the raters' category counts ``n_gck`` (every layout but a counts
  table).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from ..tensors.data import RatingData
from . import breakdowns, gold, multilabel, spa
from .base import ANNOTATIONS, ITEMS, RATERS, ROWS, Reads
from .registry import REGISTRY

__all__ = [
    "CAPABILITIES",
    "COUNT_METHODS",
    "FROM_COUNTS",
    "FROM_FRAME",
    "FROM_ROWS",
    "ITEM_METHODS",
    "METHODS",
    "ROW_METHODS",
    "Capability",
    "Method",
    "missing",
    "provided",
]

#: What the data hold: a wide or long frame (and a contingency table, read as its items)
#: everything; a tally or a Dask frame with ``keep_items=True`` the items and the raters'
#: counts; a Dask frame's default reduction the rows of counts and the raters' counts.
FROM_FRAME: Reads = frozenset({ANNOTATIONS, ITEMS, ROWS, RATERS})
FROM_COUNTS: Reads = frozenset({ITEMS, ROWS, RATERS})
FROM_ROWS: Reads = frozenset({ROWS, RATERS})


@dataclass(frozen=True, eq=False)
class Method:
    """A method of :class:`pdagree.Ratings` that is not a coefficient of the registry.

    Attributes
    ----------
    name
        The method name (``Ratings.<name>``).
    compute
        For a table of :mod:`pdagree.definitions`, ``compute(data, ...)``, whose docstring
        the method shows; ``None`` for a method implemented above the definitions (a model,
        the report).
    summary
        One line for listings.
    reads
        What it reads (:mod:`.capabilities`).
    """

    name: str
    compute: Callable[..., Any] | None
    summary: str
    reads: Reads

    @property
    def needs_raters(self) -> bool:
        """Needs rater identity: refuses a counts table."""
        return bool(self.reads & {ANNOTATIONS, RATERS})


_A, _I, _R = frozenset({ANNOTATIONS}), frozenset({ITEMS}), frozenset({ROWS})

METHODS: dict[str, Method] = {
    m.name: m
    for m in (
        Method("counts", breakdowns.counts, "items x categories: Fleiss' table n_ik", _I),
        Method(
            "frequencies",
            breakdowns.frequencies,
            "raters x categories: counts and proportions",
            frozenset({RATERS}),
        ),
        Method("contingency", breakdowns.contingency, "two raters' K x K table", _A),
        Method("pairwise", breakdowns.pairwise, "raters x raters: a coefficient per pair", _A),
        Method("per_category", breakdowns.per_category, "per category: kappa, agreement", _I),
        Method("items", breakdowns.items, "per item: ratings, agreement and entropy", _I),
        Method("spa_items", spa.spa_items, "per item: SPA's labels, agreement and weight", _I),
        Method("against", gold.against, "each rater against a reference: precision, ...", _A),
        Method("multilabel_sweep", multilabel.multilabel_sweep, "multilabel() over p", _A),
        Method("multilabel_items", multilabel.multilabel_items, "items by p class", _A),
        Method("multilabel_labels", multilabel.multilabel_labels, "per label pair", _A),
        Method("irt", None, "graded response model, raters as items", _A),
        Method("consensus", None, "consensus labels and annotator quality", _A),
        Method("icc", None, "intraclass correlation", _A),
        Method("icc_table", None, "the six ICC forms", _A),
        Method("kendall_w", None, "Kendall's W", _A),
        Method("consensus_scores", None, "scores adjusted for each rater's severity", _A),
        Method("cronbach_alpha", None, "Cronbach's alpha, raters as a scale's items", _A),
        Method("concordance", None, "Lin's concordance correlation of two raters", _A),
        Method("bland_altman", None, "Bland & Altman's limits of agreement", _A),
        Method("per_rater", None, "each annotator's part of the agreement", _A),
        Method("report", None, "every coefficient that applies (those the data give)", _R),
        Method("to_html", None, "one self-contained HTML report page", _A),
    )
}


@dataclass(frozen=True, eq=False)
class Capability:
    """One method and what it reads.

    Attributes
    ----------
    name
        The method name.
    kind
        ``"coefficient"`` (a :class:`~.base.Definition` of the registry) or ``"method"``
        (a :class:`Method`).
    reads
        What it reads whatever its options.
    reads_with
        ``reads_with(options)``: what it reads besides with these options, or ``None``.
    """

    name: str
    kind: Literal["coefficient", "method"]
    reads: Reads
    reads_with: Callable[[dict[str, Any]], Reads] | None = None

    def reads_for(self, options: dict[str, Any]) -> Reads:
        """What it reads with ``options``."""
        more = frozenset() if self.reads_with is None else self.reads_with(options)
        return self.reads | more


#: Every method of :class:`pdagree.Ratings` (but the constructor ``from_frame``), once.
CAPABILITIES: dict[str, Capability] = {
    **{n: Capability(n, "coefficient", d.reads, d.reads_with) for n, d in REGISTRY.items()},
    **{n: Capability(n, "method", m.reads) for n, m in METHODS.items()},
}


def _given(held: Reads) -> tuple[str, ...]:
    return tuple(n for n, c in CAPABILITIES.items() if c.reads <= held)


#: The methods besides the coefficients that count tensors give (a tally, a Dask frame with
#: ``keep_items=True``); the others raise :class:`~pdagree.AnnotationsNeeded` there.
COUNT_METHODS: tuple[str, ...] = tuple(n for n in _given(FROM_COUNTS) if n in METHODS)

#: What each group's distinct rows of counts with their multiplicities give (a Dask frame's
#: default, :func:`pdagree.tensors.count_data.profile_data`): the coefficients whose
#: definitions and analytic variances sum over items with the multiplicities, alpha at the
#: nominal level or with ``weights=``, and the tables of the raters' counts.
ROW_METHODS: frozenset[str] = frozenset(_given(FROM_ROWS))

#: What the items give and rows of counts do not (:class:`~pdagree.ItemsNeeded` there).
ITEM_METHODS: frozenset[str] = frozenset(_given(FROM_COUNTS)) - ROW_METHODS


def provided(data: RatingData) -> Reads:
    """What ``data`` hold (:data:`FROM_FRAME`, :data:`FROM_COUNTS`, :data:`FROM_ROWS`, or
    a counts table's items and rows)."""
    enc = data.enc
    if enc.rater is not None or data.table is not None:
        return FROM_FRAME
    held = {ROWS}
    if enc.raters is not None:
        held.add(RATERS)
    if data.item_weight is None:
        held.add(ITEMS)
    return frozenset(held)


def missing(name: str, data: RatingData, options: dict[str, Any] | None = None) -> Reads:
    """What method ``name`` reads with ``options`` that ``data`` do not hold (empty: it
    runs)."""
    return CAPABILITIES[name].reads_for(options or {}) - provided(data)
