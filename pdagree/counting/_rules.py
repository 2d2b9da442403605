"""The label rules of the pandas path, on the labels a state counts.

A tally counts labels as they come (``1``, ``"1"``, a Categorical's value) and the rules that
turn labels into categories (:func:`~pdagree.encoding._labels.encode_labels`: one kind of
label unless ``categories=`` orders them, one way of writing each number, the scale an
ordered Categorical declares) apply to every distinct label counted. :func:`check_labels`
runs them on the labels of a would-be state, so that a batch (or a tally, or a file) that
would break every later result is refused before it is counted, not at the first method.
"""

from __future__ import annotations

import numpy as np

from ..encoding import encode_labels, fmt
from .state import Counts

__all__ = ["check_labels"]


def check_labels(counts: Counts) -> None:
    """Raise the pandas path's ``TypeError`` or ``ValueError`` when the distinct labels of
    ``counts`` cannot be read as categories (labels of kinds that cannot be put in order, a
    number written two ways, a label outside declared categories or outside the categories
    of an ordered Categorical)."""
    spec = counts.spec
    labels = counts.labels.index()
    dtype = counts.from_dtype
    if dtype is not None and dtype.ordered and spec.categories is None and len(labels):
        unknown = labels[dtype.categories.get_indexer(labels) < 0]
        if len(unknown):
            raise ValueError(
                f"labels {fmt(list(unknown))} are not among the categories "
                f"{fmt(list(dtype.categories))} of the ordered Categorical the labels were "
                "given as, which fixes the scale and its order. Give every batch the same "
                "Categorical dtype (with the label added to its categories, "
                "`.cat.add_categories(...)`), or fix the label."
            )
    where = f"`label` column {spec.label!r}" if spec.layout == "long" else "a rating cell"
    encode_labels(np.asarray(labels, dtype=object), spec.categories, dtype, where)
