"""The rating data a Dask reduction leaves: count tensors, no annotations.

:class:`CountData` is a :class:`~pdagree.definitions.RatingData` built from what the cluster
sends back: the non-zero cells of ``n_ik`` (ratings of item ``i`` in category ``k``) as the
entries of an :class:`~pdagree.encoding._encode.Encoded` weighted by their counts, and the raters'
category counts ``n_gck`` as a given tensor. Every definition that reads only these (and the
tensors derived from them) runs unchanged; one that needs each annotation's rater and item
together (the rater-pair tables, Conger's per-item variance, the item bootstrap) gets an
:class:`AnnotationsNeeded` error instead of a wrong number.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, NoReturn

import numpy as np

from .._typing import BoolArray, FloatArray, IntArray
from ..definitions import RatingData
from ..encoding._encode import Encoded

__all__ = ["AnnotationsNeeded", "CountData", "NoAnnotations", "needs_annotations"]


class AnnotationsNeeded(ValueError):
    """The analysis needs the annotations themselves, which a Dask frame is reduced away from."""


def needs_annotations(what: str) -> AnnotationsNeeded:
    """The error for ``what`` (e.g. "`light()`") on a Dask frame."""
    return AnnotationsNeeded(
        f"{what} needs each annotation's item and rater together (rater-pair tables, per-item "
        "variances, the item bootstrap), and a Dask frame is reduced to count tensors on the "
        "cluster (ratings per item and category, per rater and category). Run it on the pandas "
        "path: on the whole frame, `ddf.compute().agree(...)`, if it fits in memory, or on a "
        "sample of items, e.g. `ddf[ddf[item].isin(some_items)].compute().agree(...)`."
    )


class CountData(RatingData):
    """:class:`~pdagree.definitions.RatingData` from count tensors.

    ``enc`` holds the non-zero ``n_ik`` cells as entries (``weight``: their counts) and no
    per-entry rater (``enc.rater is None``, ``enc.raters`` the rater labels); ``nck`` is the
    (G, R, K) tensor of the raters' category counts per group.
    """

    __slots__ = ()

    def __init__(self, enc: Encoded, nck: FloatArray, category_mask: Any = "auto") -> None:
        super().__init__(enc, category_mask)
        self.__dict__["nck"] = np.asarray(nck, dtype=np.float64)

    def __reduce__(self) -> tuple[Any, ...]:
        return (CountData, (self.enc, self.nck, self._given_mask))

    @cached_property
    def active_raters(self) -> FloatArray:
        """Raters with a rating, per group: those with a non-zero row in ``n_gck``."""
        counts = (self.nck.sum(axis=-1) > 0).sum(axis=-1)
        return np.asarray(counts, dtype=np.float64)

    @property
    def pair_margins(self) -> NoReturn:
        raise needs_annotations("the rater-pair tables (`light()`, `pairwise()`)")

    @property
    def pair_agreements(self) -> NoReturn:
        raise needs_annotations("the rater-pair tables (`light()`, `pairwise()`)")

    def pair_confusion(self, first: IntArray, second: IntArray) -> NoReturn:
        raise needs_annotations("a contingency table of two raters")

    def subset(self, groups: IntArray, categories: BoolArray) -> tuple[RatingData, IntArray]:
        sub, items = super().subset(groups, categories)
        nck = self.nck[groups][:, :, categories]
        return CountData(sub.enc, nck, category_mask=None), items


class NoAnnotations:
    """Stands in for the data of a result computed on a Dask frame, so that asking the result
    for its uncertainty afterwards (``r.standard_error()``) explains why it cannot be had."""

    __slots__ = ("_what",)

    def __init__(self, what: str) -> None:
        self._what = what

    def __getattr__(self, name: str) -> NoReturn:
        raise needs_annotations(self._what)
