""":class:`CountRatings`: :class:`pdagree.Ratings` on count tensors (a tally, a Dask frame).

Which methods count tensors give is read from one table,
:data:`pdagree.definitions.capabilities.CAPABILITIES` (what each method reads: the
annotations, the items, rows of counts, the raters' counts). Every method of
:class:`~pdagree.Ratings` is declared here once, in the class body: those whose reads the
data hold run the method of :class:`~pdagree.Ratings` unchanged on
:class:`~pdagree.tensors.count_data.CountData` (Gwet's analytic standard errors, intervals
and p-values included wherever they read the counts alone); the others raise
:class:`~pdagree.AnnotationsNeeded` (or :class:`~pdagree.ItemsNeeded` on rows of counts),
``ValueError`` subclasses that say why and what to run instead. A method added to
:class:`~pdagree.Ratings` must be added to the table and here
(``tests/test_capabilities.py`` fails otherwise).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ._errors import AnnotationsNeeded, RatersNeeded
from ._warnings import PdagreeWarning, warn
from .category_sets import compute
from .counting import Counts, check_labels
from .definitions import REGISTRY
from .definitions.base import ANNOTATIONS, ITEMS, RATERS
from .definitions.capabilities import (
    CAPABILITIES,
    COUNT_METHODS,
    FROM_COUNTS,
    ITEM_METHODS,
    ROW_METHODS,
    missing,
)
from .encoding import Layout, LayoutSpec
from .inference import resolve_method
from .ratings import Ratings
from .report import report as _report
from .tensors.count_data import CountData, count_data, needs_annotations, needs_items

__all__ = ["COUNT_METHODS", "ITEM_METHODS", "ROW_METHODS", "CountRatings"]


def _refusal(name: str, data: Any, options: dict[str, Any]) -> AnnotationsNeeded | None:
    """The error of method ``name`` with ``options`` on ``data`` when they do not hold what
    it reads (:func:`~pdagree.definitions.capabilities.missing`), else ``None``."""
    if not isinstance(data, CountData):
        return None
    lacking = missing(name, data, options)
    if lacking & {ANNOTATIONS, RATERS}:
        return needs_annotations(f"`{name}()`")
    if ITEMS in lacking:
        level = options.get("level")
        if name not in ITEM_METHODS and level is not None:  # alpha at another level
            return needs_items(f"`{name}(level={level!r})`")
        return needs_items(f"`{name}()`")
    return None


def _refused_doc(name: str, doc: str) -> str:
    """``Ratings.<name>``'s docstring with the refusal on counts as its first paragraph."""
    summary, _, rest = doc.partition("\n\n")
    note = (
        f"On counts (a tally, a Dask frame) ``{name}()`` raises "
        ":class:`pdagree.AnnotationsNeeded`: it needs the annotations."
    )
    indent = "    " if rest.startswith("    ") else ""
    return f"{summary}\n\n{indent}{note}\n\n{rest}" if rest else f"{summary}\n\n{note}"


def _on_counts(name: str) -> Callable[..., Any]:
    """``Ratings.<name>`` on count tensors, as the capability table says: refused up front
    when the data do not hold what it reads (reading its arguments whether given by position
    or by name); a definition's guard for each annotation's rater says so too."""
    method = getattr(Ratings, name)
    signature = inspect.signature(method)

    if not CAPABILITIES[name].reads <= FROM_COUNTS:

        @functools.wraps(method)
        def refused(self: CountRatings, *args: Any, **kwargs: Any) -> Any:
            raise needs_annotations(f"`{name}()`")

        refused.__doc__ = _refused_doc(name, method.__doc__ or "")
        return refused

    @functools.wraps(method)
    def on_counts(self: CountRatings, *args: Any, **kwargs: Any) -> Any:
        bound = signature.bind_partial(self, *args, **kwargs).arguments
        error = _refusal(name, self._data, {**bound, **bound.get("options", {})})
        if error is not None:
            raise error
        try:
            return method(self, *args, **kwargs)
        except RatersNeeded:
            # A definition's guard for each annotation's rater (its variance, say).
            raise needs_annotations(f"`{name}()` with its options") from None

    return on_counts


class CountRatings(Ratings):
    """Ratings kept as count tensors: the coefficients and breakdowns of
    :class:`pdagree.Ratings` that are functions of them, with the same results as on the
    frames they count; every other method raises :class:`pdagree.AnnotationsNeeded`."""

    __slots__ = ()

    def __init__(self, data: CountData) -> None:
        self._hold(data)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self._data,))

    @classmethod
    def from_frame(
        cls,
        df: pd.DataFrame,
        *,
        item: Hashable | None = None,
        rater: Hashable | None = None,
        label: Hashable | None = None,
        raters: Sequence[Hashable] | None = None,
        categories: Sequence[Hashable] | None = None,
        by: Hashable | Sequence[Hashable] | None = None,
        layout: Layout | None = None,
        rank: Hashable | None = None,
    ) -> CountRatings:
        """The count tensors of ``df`` (a wide or long frame), as one batch of a
        :class:`pdagree.Tally` with these arguments gives them; ``rank=`` and the counts and
        contingency layouts are refused (counts keep no secondary labels; those tables are
        counted already: ``df.agree(layout=...)``)."""
        if rank is not None:
            raise TypeError(
                "`rank` (primary and secondary labels) is not read on counts: multi-label "
                "agreement needs the annotations themselves; use `df.agree(..., rank=...)`."
            )
        spec = LayoutSpec.of(
            item=item, rater=rater, label=label, raters=raters, categories=categories, by=by,
            layout=layout,
        )  # fmt: skip
        counts = Counts.of_frame(df, spec)
        check_labels(counts)
        message = counts.missing_by_message()
        if message:
            warn(message, PdagreeWarning)
        return cls(count_data(counts))

    def report(
        self,
        *,
        confidence_level: float | None = None,
        method: str = "auto",
        n_resamples: int = 2000,
        rng: Any = None,
        coefficients: Sequence[str] | None = None,
        weights: Any = None,
        level: Any = None,
    ) -> pd.DataFrame:
        """:meth:`pdagree.Ratings.report` of the coefficients that count tensors give (by
        default every one of the report's that applies and needs no more; with
        ``confidence_level``, those with an analytic variance on counts).

        Parameters
        ----------
        confidence_level : float, optional
            Add standard errors, intervals and tests at this level (analytic variances).
        method, n_resamples, rng, coefficients, weights, level
            As for :meth:`pdagree.Ratings.report` (``method="bootstrap"`` needs the
            annotations: refused).

        Returns
        -------
        DataFrame
            One row per coefficient, as :meth:`pdagree.Ratings.report`.
        """
        if confidence_level is not None and method == "bootstrap":
            raise needs_annotations("the item bootstrap (`method='bootstrap'`)")
        named = coefficients.split(",") if isinstance(coefficients, str) else coefficients
        for entry in named or ():
            name, _, option = str(entry).strip().partition(":")
            if name in CAPABILITIES:
                options = {"level": option} if name == "alpha" and option else {}
                error = _refusal(name, self._data, options)
                if error is not None:
                    raise error
        uncertainty = confidence_level is not None
        return _report(
            self._data,
            confidence_level,
            method=method,
            n_resamples=n_resamples,
            rng=rng,
            coefficients=coefficients,
            weights=weights,
            level=level,
            available=lambda name: self._counts_suffice(name, uncertainty),
        )

    def _counts_suffice(self, name: str, uncertainty: bool = False) -> bool:
        """Whether coefficient ``name`` (and, with ``uncertainty``, its analytic variance)
        computes from the count tensors alone."""
        definition = REGISTRY[name]
        if _refusal(name, self._data, {}) is not None:
            return False
        try:
            with np.errstate(all="ignore"):
                parts = compute(definition, self._data, {})
                if uncertainty:
                    variance = definition.variance
                    analytic = resolve_method("auto", definition, self._data, {}) == "analytic"
                    if variance is None or not analytic:
                        return False
                    variance(self._data, {}, parts, np.inf)
        except AnnotationsNeeded:  # RatersNeeded and ItemsNeeded included
            return False
        except ValueError:  # refused for these data: let report() say so
            return True
        return True

    # The methods of Ratings, as the capability table says (one line each).
    observed = _on_counts("observed")
    bennett = _on_counts("bennett")
    fleiss = _on_counts("fleiss")
    conger = _on_counts("conger")
    scott = _on_counts("scott")
    cohen = _on_counts("cohen")
    gwet = _on_counts("gwet")
    light = _on_counts("light")
    bias = _on_counts("bias")
    alpha = _on_counts("alpha")
    spa = _on_counts("spa")
    spa_items = _on_counts("spa_items")
    multilabel = _on_counts("multilabel")
    multilabel_sweep = _on_counts("multilabel_sweep")
    multilabel_items = _on_counts("multilabel_items")
    multilabel_labels = _on_counts("multilabel_labels")
    irt = _on_counts("irt")
    consensus = _on_counts("consensus")
    icc = _on_counts("icc")
    icc_table = _on_counts("icc_table")
    kendall_w = _on_counts("kendall_w")
    consensus_scores = _on_counts("consensus_scores")
    cronbach_alpha = _on_counts("cronbach_alpha")
    concordance = _on_counts("concordance")
    bland_altman = _on_counts("bland_altman")
    per_rater = _on_counts("per_rater")
    counts = _on_counts("counts")
    frequencies = _on_counts("frequencies")
    contingency = _on_counts("contingency")
    pairwise = _on_counts("pairwise")
    per_category = _on_counts("per_category")
    items = _on_counts("items")
    against = _on_counts("against")
    to_html = _on_counts("to_html")
