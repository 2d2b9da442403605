"""The errors of data that do not hold what an analysis reads.

Each is a ``ValueError`` (the data cannot give the statistic), so ``except ValueError`` still
catches it; the type says what is missing, so that callers tell these refusals apart by type,
never by message.
"""

from __future__ import annotations

__all__ = ["AnnotationsNeeded", "ItemsNeeded", "RatersNeeded"]


class AnnotationsNeeded(ValueError):
    """The analysis needs the annotations themselves (which rater gave which label to which
    item), and the data keep counts only: a tally, a Dask frame, a counts table."""


class RatersNeeded(AnnotationsNeeded):
    """The analysis needs to know which rater gave each rating, and the data do not record
    it (a counts table, or count tensors without each annotation's rater)."""


class ItemsNeeded(AnnotationsNeeded):
    """The analysis reads the items one by one, and the data hold each group's distinct rows
    of counts with how many items have them (a Dask frame's default reduction); pass
    ``keep_items=True`` to ``ddf.agree(...)``."""
