"""The rating data a Dask reduction leaves: count tensors, no annotations
(:mod:`pdagree.tensors.count_data`, shared with :class:`pdagree.Tally`)."""

from __future__ import annotations

from ..tensors.count_data import AnnotationsNeeded, CountData, needs_annotations

__all__ = ["AnnotationsNeeded", "CountData", "needs_annotations"]
