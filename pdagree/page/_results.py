"""What the page shows, computed once by the public methods of the ratings (every ``by=``
group in the same pass), and cut into one :class:`View` per group.

A method that does not apply to the data (a counts table has no raters, text labels give no
ICC) leaves a :class:`Failure` with its message, which the page shows instead of the section.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

import pandas as pd

if TYPE_CHECKING:  # the ratings are passed in: the page sits below them
    from ..ratings import Ratings

__all__ = ["CONFIDENCE_LEVEL", "Computed", "Failure", "View", "compute", "numeric"]

#: The level of the coefficients' intervals on the page.
CONFIDENCE_LEVEL = 0.95
#: Numeric ratings with more distinct values than this are continuous scores: the page shows
#: their ICC, score consensus and coefficients, not tables and charts of every value.
MAX_SCORE_CATEGORIES = 50


@dataclass(frozen=True)
class Failure:
    """A method that does not apply to the data, and why."""

    message: str


def _attempt(method: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    try:
        return method(*args, **kwargs)
    except (ValueError, TypeError) as exc:
        return Failure(str(exc))


def numeric(ratings: Ratings) -> bool:
    """Whether the ratings are numbers (the ICC and the score consensus apply)."""
    categories = ratings.categories
    if pd.api.types.is_bool_dtype(categories.dtype):
        return False
    if pd.api.types.is_numeric_dtype(categories.dtype):
        return True
    return bool(len(categories)) and all(
        isinstance(c, (int, float)) and not isinstance(c, bool) for c in categories
    )


@dataclass(frozen=True)
class Computed:
    """Every table of the page, for all groups at once (the methods' own results)."""

    report: Any
    bias: Any  # the report's annotator bias B
    per_category: Any
    pairwise: Any
    per_rater: Any
    frequencies: Any
    counts: Any
    items: Any
    labels: Any  # the consensus: a frame per item (label, probability, margin, n_ratings)
    quality: Any
    priors: Any
    fit: Any  # converged, n_iterations, log_likelihood: a frame, one row per group
    against: Any
    icc: Any
    scores: Any  # consensus_scores: the raters' severities
    components: Any  # consensus_scores: the variance components
    pairwise_coefficient: str = "cohen"  # what ``pairwise`` holds: "cohen" or "concordance"


def _by_value(ratings: Ratings) -> Failure | None:
    """Why the tables by value (per category, the frequencies, the consensus labels, per
    rater) are left out, if the ratings are continuous scores: a column or a row for each of
    thousands of values makes pages of hundreds of MB (and tables of categories squared)."""
    n = ratings.n_categories
    if not numeric(ratings) or n <= MAX_SCORE_CATEGORIES:
        return None
    return Failure(
        f"the ratings are continuous scores ({n:,} distinct values): tables and charts by "
        "value are left out; the intraclass correlations and the score consensus below read "
        "them as numbers."
    )


def compute(ratings: Ratings, gold: Any, consensus: str) -> Computed:
    """Run every method the page shows (for continuous scores, not those by value)."""
    skipped = _by_value(ratings)
    if skipped is not None:
        return _scores_only(ratings, gold, skipped)
    fit = _attempt(ratings.consensus, consensus, rng=0)
    failed = isinstance(fit, Failure)
    summary = fit
    if not failed:
        columns = {"converged": fit.converged, "n_iterations": fit.n_iterations}
        columns["log_likelihood"] = fit.log_likelihood
        summary = (
            pd.DataFrame(columns)
            if isinstance(fit.converged, pd.Series)
            else pd.DataFrame(columns, index=pd.Index([fit.method], name="method"))
        )
    scores: Any = None
    icc: Any = None
    if numeric(ratings):
        icc = _attempt(ratings.icc_table)
        scores = _attempt(ratings.consensus_scores)
    against = None if gold is None else _attempt(ratings.against, gold, average="macro")
    report = _attempt(ratings.report, confidence_level=CONFIDENCE_LEVEL, rng=0)
    return Computed(
        report=report,
        bias=None if isinstance(report, Failure) else report.attrs.get("annotator_bias"),
        per_category=_attempt(ratings.per_category),
        pairwise=_attempt(ratings.pairwise, "cohen"),
        per_rater=_attempt(ratings.per_rater),
        frequencies=_attempt(ratings.frequencies),
        counts=_attempt(ratings.counts),
        items=_attempt(ratings.items),
        labels=fit if failed else fit.to_frame(),
        quality=fit if failed else fit.quality,
        priors=fit if failed else fit.priors,
        fit=summary,
        against=against,
        icc=icc,
        scores=scores if scores is None or isinstance(scores, Failure) else scores.raters,
        components=(
            scores if scores is None or isinstance(scores, Failure) else scores.variance_components
        ),
    )


def _scores_only(ratings: Ratings, gold: Any, skipped: Failure) -> Computed:
    """The page's tables of continuous scores: the coefficients, the items, the ICC and the
    score consensus; ``skipped`` in place of the tables by value."""
    report = _attempt(ratings.report, confidence_level=CONFIDENCE_LEVEL, rng=0)
    scores = _attempt(ratings.consensus_scores)
    fitted = not isinstance(scores, Failure)
    return Computed(
        report=report,
        bias=None if isinstance(report, Failure) else report.attrs.get("annotator_bias"),
        per_category=skipped,
        pairwise=_attempt(ratings.pairwise, "concordance"),
        per_rater=skipped,
        frequencies=skipped,
        counts=skipped,
        items=_attempt(ratings.items),
        labels=skipped,
        quality=skipped,
        priors=skipped,
        fit=skipped,
        against=None if gold is None else skipped,
        icc=_attempt(ratings.icc_table),
        scores=scores.raters if fitted else scores,
        components=scores.variance_components if fitted else scores,
        pairwise_coefficient="concordance",
    )


def _pick(table: Any, key: Hashable, n_levels: int) -> Any:
    """The rows of group ``key`` of a ``by=`` table (the group levels dropped)."""
    if not isinstance(table, (pd.DataFrame, pd.Series)):
        return table
    index = table.index
    if not isinstance(index, pd.MultiIndex) or index.nlevels <= n_levels:
        # One row per group (a fit's summary, the variance components): that row.
        if key not in index:
            return Failure("no value for this group.")
        return table.loc[pd.Index([key], tupleize_cols=False)]
    levels: Any = list(range(n_levels))
    where = key if isinstance(key, tuple) else (key,)
    try:
        return table.xs(where, level=levels, drop_level=True)
    except KeyError:
        return Failure("no value for this group.")


@dataclass(frozen=True)
class View(Computed):
    """The tables of one group (or of the whole data when there are no groups)."""

    @classmethod
    def of(cls, computed: Computed, key: Hashable | None, n_levels: int) -> View:
        """``computed`` cut to group ``key`` (``None``: all of it)."""
        values = {f.name: getattr(computed, f.name) for f in fields(computed)}
        if key is not None:
            values = {name: _pick(value, key, n_levels) for name, value in values.items()}
            matrix = values["pairwise"]
            if isinstance(matrix, pd.DataFrame):  # the group's own raters
                matrix = matrix.dropna(how="all")
                values["pairwise"] = matrix.loc[:, matrix.columns.isin(matrix.index)]
        return cls(**values)
