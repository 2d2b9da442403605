"""The data every definition reads: encoded ratings and their count tensors.

:class:`RatingData` (:mod:`.data`) holds one :class:`~pdagree.encoding.Encoded` and computes
each count tensor once, on first use; :class:`~.count_data.CountData` is the same from count
tensors alone (a tally, a Dask frame's reduction) and :class:`~.table_data.TableData` from two
raters' contingency table; :mod:`.keys` keys per-annotator rows by the (group, rater) pairs
that occur. The coefficients over them are in :mod:`pdagree.definitions`.
"""

from __future__ import annotations

from .data import RatingData

__all__ = ["RatingData"]
