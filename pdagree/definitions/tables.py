"""The registry of tables: the methods of :class:`pdagree.Ratings` that return labelled frames.

Coefficients are in :mod:`.registry` (they return a :class:`~pdagree.Coefficient` and take
the inference options); the breakdowns, the per-item SPA table and the evaluation against a
reference return DataFrames and are listed here, each with the function whose docstring its
method shows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd

from . import breakdowns, gold, spa

__all__ = ["TABLES", "Table"]


@dataclass(frozen=True, eq=False)
class Table:
    """A table as the registry knows it.

    Attributes
    ----------
    name
        The method name (``Ratings.<name>``).
    compute
        ``compute(data, ...) -> DataFrame``; its docstring is the method's.
    summary
        One line for listings.
    needs_raters
        Needs rater identity: refuses a counts table.
    """

    name: str
    compute: Callable[..., pd.DataFrame]
    summary: str
    needs_raters: bool = False


TABLES: dict[str, Table] = {
    t.name: t
    for t in (
        Table("counts", breakdowns.counts, "items x categories: Fleiss' table n_ik"),
        Table(
            "frequencies",
            breakdowns.frequencies,
            "raters x categories: counts and proportions",
            needs_raters=True,
        ),
        Table(
            "contingency",
            breakdowns.contingency,
            "two raters' K x K table",
            needs_raters=True,
        ),
        Table("pairwise", breakdowns.pairwise, "raters x raters: a coefficient per pair", True),
        Table("per_category", breakdowns.per_category, "per category: kappa, specific agreement"),
        Table("items", breakdowns.items, "per item: ratings, agreement and entropy"),
        Table("spa_items", spa.spa_items, "per item: SPA's labels, agreement and weight"),
        Table(
            "against",
            gold.against,
            "each rater against a reference: precision, recall, F, ...",
            needs_raters=True,
        ),
    )
}
