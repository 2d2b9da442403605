"""What a definition returns and what the registry records about it.

A *definition* is a function ``compute(data, **options) -> Components``: the coefficient of
every group, with what it was computed from, as float arrays (one entry per ``by=`` group).
Labels are attached later, by :mod:`pdagree.evaluate`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .._typing import FloatArray
from ..tensors.data import RatingData

__all__ = [
    "ANNOTATIONS",
    "ITEMS",
    "MIN_SHARED_ITEMS",
    "RATERS",
    "ROWS",
    "Components",
    "Definition",
    "ItemSums",
    "Reads",
]

#: What an analysis reads, and what data hold (:mod:`.capabilities`): the *annotations*
#: (which rater gave each rating, item by item), the *items* (one row of category counts per
#: item), *rows* of counts (each group's distinct rows with how many items have them) and the
#: *raters*' category counts (``n_gck``). Annotations give the other three; items give rows.
ANNOTATIONS, ITEMS, ROWS, RATERS = "annotations", "items", "rows", "raters"

#: A set of the four above.
Reads = frozenset[str]


MIN_SHARED_ITEMS = 2
"""A rater pair's chance-corrected agreement needs at least this many items both rated: on
one item, chance agreement is estimated from that item alone (kappa is -1, 0 or undefined
whatever the raters do). Used by ``pairwise()``, ``light()`` and ``multilabel()``."""


@dataclass(frozen=True, eq=False)
class Components:
    """A coefficient's value and components per group.

    Attributes
    ----------
    name
        The result's name, e.g. ``"fleiss[linear]"``.
    value, observed, expected
        The coefficient, ``A_o`` and ``A_e``, shape (n_groups,).
    n_items
        Items that count, per group; ``None`` for the items with two or more ratings.
    extra
        Further per-group numbers: members of a single result and columns of a ``by=`` frame.
    members
        Members of a single (ungrouped) result only: Series, frames, strings.
    columns
        Columns of a ``by=`` frame only, after ``extra``.
    """

    name: str
    value: FloatArray
    observed: FloatArray
    expected: FloatArray
    n_items: FloatArray | None = None
    extra: Mapping[str, FloatArray] = field(default_factory=dict)
    members: Mapping[str, Any] = field(default_factory=dict)
    columns: Mapping[str, Any] = field(default_factory=dict)


#: ``variance(data, options, components, population) -> (var, n)``: per group, Gwet's
#: linearised variance and the number of rated items ``n`` (the t quantile has ``n - 1``
#: degrees of freedom).
Variance = Callable[[RatingData, dict[str, Any], Components, float], tuple[Any, Any]]

#: ``large_sample(data, options) -> (value, se, se_h0, n)`` per group.
LargeSample = Callable[[RatingData, dict[str, Any]], tuple[Any, Any, Any, Any]]

#: ``null_se(data, options) -> (se_h0, n)`` per group: the standard error under H0.
NullSE = Callable[[RatingData, dict[str, Any]], tuple[Any, Any]]

#: ``per_item(data, options) -> {option: per-item array}``: options that hold one value per
#: item, which must follow their items into bootstrap replicates.
PerItem = Callable[[RatingData, dict[str, Any]], dict[str, FloatArray]]


class ItemSums(NamedTuple):
    """A coefficient as a function of sums of per-item rows, for the item bootstrap.

    Attributes
    ----------
    matrix
        ``S``, one row per item, shape (n_items, m): a float array or a
        :mod:`scipy.sparse` matrix. Rows of items without ratings are never summed.
    finish
        ``finish(T) -> values``: ``T`` has shape (n, m), each row a sum of rows of ``S``
        over a set of items (with multiplicity, as a bootstrap resample draws them), and
        the result, shape (n,), holds the coefficient of each set. Summing the rows of
        each ``by=`` group gives what ``compute`` gives (up to rounding); ``finish`` never
        warns (nan where the coefficient is undefined).
    row_floats
        Floats ``finish`` allocates per row of ``T`` beyond ``T`` itself (e.g. a (K, K)
        table per row), so that chunks of resamples bound memory.
    """

    matrix: Any
    finish: Callable[[FloatArray], FloatArray]
    row_floats: int = 0


#: ``item_sums(data, options) -> ItemSums | None``: ``None`` where these data or options have
#: no compact per-item form (too many columns); the bootstrap then recomputes the definition.
ItemSumsOf = Callable[[RatingData, dict[str, Any]], ItemSums | None]


@dataclass(frozen=True, eq=False)
class Definition:
    """A coefficient as the registry knows it.

    Attributes
    ----------
    name
        The method name (``Ratings.<name>``).
    compute
        ``compute(data, **options) -> Components``.
    summary
        One line for listings.
    reads
        What its value reads (:data:`ANNOTATIONS`, :data:`ITEMS`, :data:`ROWS`,
        :data:`RATERS`; :mod:`.capabilities`); rater identity (annotations or the raters'
        counts) makes it refuse a counts table (:attr:`needs_raters`).
    reads_with
        ``reads_with(options)``: what it reads besides ``reads`` with these options (e.g.
        alpha's ordinal, interval and ratio levels read the items); ``None``: nothing.
    two_raters
        Defined for exactly two raters per group.
    weights, levels
        Takes ``weights=`` (agreement weights) or ``level=`` (Krippendorff's metrics).
    variance
        Gwet's linearised variance (``method="analytic"``), or ``None``.
    analytic_applies
        ``analytic_applies(data, options)``: whether ``variance`` exists for these options
        (``None``: whenever ``variance`` is given); ``method="auto"`` uses the bootstrap
        where it does not.
    jackknife
        The jackknife variance over items (``method="jackknife"``), with ``variance``'s
        signature, for a coefficient without a linearised variance; ``method="auto"`` uses
        it where there is no ``variance``. ``None``: none.
    large_sample
        The large-sample variance of Fleiss, Cohen & Everitt (``method="large-sample"``), or
        ``None``.
    null_se
        The standard error under H0 (no agreement beyond chance) of the large-sample test
        (``z_test(method="large-sample")``, ``p_value(method="large-sample")``): Fleiss,
        Cohen & Everitt (1969) for Cohen's kappa, Fleiss, Nee & Landis (1979) for Fleiss'
        kappa; or ``None``.
    per_item
        Options that follow their items into bootstrap replicates, or ``None``.
    item_sums
        The coefficient as a function of sums of per-item rows (:class:`ItemSums`), which
        the item bootstrap resamples in O(resamples x items x m) instead of recomputing
        the definition on every resample; ``None`` to recompute it.
    in_report
        Listed by :meth:`pdagree.Ratings.report` where it applies.
    on_table
        Computed from a contingency table's K x K counts
        (:class:`~.table_data.TableData`), with its uncertainty, at any number of items;
        otherwise the table is read as one item per count (``TableData.rows``).
    ignores_unused_categories
        ``ignores_unused_categories(options)``: whether, with these options, a group's value
        stays the same when categories it does not use are added (their counts are zero),
        so that ``by=`` groups with categories of their own are computed in one call on all
        categories instead of one call per set of categories; ``None``: never.
    """

    name: str
    compute: Callable[..., Components]
    summary: str
    reads: Reads
    reads_with: Callable[[dict[str, Any]], Reads] | None = None
    two_raters: bool = False
    weights: bool = False
    levels: bool = False
    variance: Variance | None = None
    analytic_applies: Callable[[RatingData, dict[str, Any]], bool] | None = None
    jackknife: Variance | None = None
    large_sample: LargeSample | None = None
    null_se: NullSE | None = None
    per_item: PerItem | None = None
    item_sums: ItemSumsOf | None = None
    in_report: bool = True
    on_table: bool = False
    ignores_unused_categories: Callable[[dict[str, Any]], bool] | None = None

    @property
    def needs_raters(self) -> bool:
        """Needs rater identity (it reads the annotations or the raters' counts): refuses a
        counts table."""
        return bool(self.reads & {ANNOTATIONS, RATERS})

    def applies_to(self, data: RatingData) -> bool:
        """Whether the coefficient is defined for ``data``'s layout and number of raters."""
        if self.needs_raters and data.enc.raters is None:
            return False
        if self.two_raters:
            return data.enc.raters is not None and bool(data.active_raters.max() <= 2)
        return True
