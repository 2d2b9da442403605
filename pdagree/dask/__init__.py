"""pdagree on Dask: ``import pdagree.dask`` registers ``.agree`` on Dask DataFrames.

The accessor takes the arguments of the pandas one (long frames: ``item=``, ``rater=``,
``label=``; wide frames, one row per item; ``categories=``, ``by=``) and gives the same
numbers as the pandas path on the computed frame. Each partition is reduced to counts on the
cluster, ratings per (item, label) and per (rater, label), combined across partitions (an item
may straddle partitions), and only those counts come back; the coefficient definitions of
pdagree's registry then run on them unchanged. Memory on the client grows with the number of
items (the non-zero cells of the items x categories table), not with the annotations.

>>> import dask.dataframe as dd
>>> import pandas as pd
>>> import pdagree.dask
>>> frame = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3], "coder": list("ababab"),
...                       "tag": ["x", "x", "y", "y", "x", "y"]})
>>> ddf = dd.from_pandas(frame, npartitions=2)
>>> round(float(ddf.agree(item="item", rater="coder", label="tag").fleiss()), 4)
0.3333
>>> round(float(frame.agree(item="item", rater="coder", label="tag").fleiss()), 4)
0.3333

What counts do not give raises :class:`AnnotationsNeeded` (a ``ValueError``) with the way
out: uncertainty (Gwet's variances need per-item terms of each rater, the bootstrap resamples
items), Light's kappa and the other rater-pair tables, and every method that is not a
coefficient or a breakdown of counts; run those on the pandas path, on the whole frame
(``ddf.compute()``) or on a sample of its items.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

try:
    import dask.dataframe as dd
    from dask.dataframe.extensions import register_dataframe_accessor
except ImportError as exc:  # pragma: no cover - the extra is installed in CI
    raise ImportError(
        'pdagree.dask needs Dask: pip install "pdagree[dask]" (dask[dataframe] and '
        f"distributed); {exc}"
    ) from exc

from .._forwarding import forward, public_members
from ..encoding import LayoutSpec
from ._data import AnnotationsNeeded, CountData
from ._reduce import reduce_frame
from .ratings import DaskRatings

__all__ = ["FORWARDED", "AnnotationsNeeded", "CountData", "DaskAgreeAccessor", "DaskRatings"]

#: The methods (and properties) of :class:`DaskRatings` that ``ddf.agree.<name>`` offers:
#: ``ddf.agree.<name>(...)`` is ``ddf.agree().<name>(...)``, the frame reduced with the
#: default arguments on each call.
FORWARDED = public_members(DaskRatings)


def _ratings(accessor: DaskAgreeAccessor) -> DaskRatings:
    return accessor()


if TYPE_CHECKING:  # the forwarded methods, as type checkers see them (not a base at run time)
    _Forwarded = DaskRatings
else:
    _Forwarded = object


@register_dataframe_accessor("agree")
@forward(DaskRatings, FORWARDED, via=_ratings)
class DaskAgreeAccessor(_Forwarded):
    """Inter-annotator agreement on a Dask DataFrame (see :mod:`pdagree.dask`).

    Call it as the pandas accessor is called; ``check_duplicates=False`` skips the check
    that no (item, rater) pair has two labels across partitions (within a partition it is
    always made); ``split_out`` sets how many shards the items are spread over (default:
    about the square root of the number of partitions, 10 for 100; more shards hold less
    each, at the cost of more tasks).

    ``keep_items=False`` (the default): the client receives each ``by=`` group's distinct
    rows of counts with how many items have them, not the items, so its memory does not grow
    with the items; observed agreement, Bennett's S, Fleiss' kappa, Scott's pi, Gwet's
    AC1/AC2, Cohen's and Conger's kappa, nominal and weighted alpha, their analytic standard
    errors, the bias and ``frequencies()`` come from them. ``keep_items=True`` sends the
    items (the non-zero (item, category) cells) for what reads them one by one: ``items()``,
    ``counts()``, ``per_category()``, SPA, alpha at the other levels, the large-sample test.
    Above 64 distinct labels the items are kept whatever ``keep_items`` says.
    """

    __slots__ = ("_df",)

    def __init__(self, df: dd.DataFrame) -> None:
        self._df = df

    def __call__(
        self,
        *,
        item: Hashable | None = None,
        rater: Hashable | None = None,
        label: Hashable | None = None,
        raters: Sequence[Hashable] | None = None,
        categories: Sequence[Hashable] | None = None,
        by: Hashable | Sequence[Hashable] | None = None,
        layout: str | None = None,
        rank: Hashable | None = None,
        check_duplicates: bool = True,
        split_out: int | None = None,
        keep_items: bool = False,
    ) -> DaskRatings:
        if rank is not None:
            raise TypeError(
                "`rank` (primary and secondary labels) is not read on a Dask frame: "
                "multi-label agreement needs the annotations themselves; run it on the pandas "
                "path, `ddf.compute().agree(..., rank=...)`."
            )
        spec = LayoutSpec.of(
            item=item, rater=rater, label=label, raters=raters, categories=categories, by=by,
            layout=layout, check_duplicates=check_duplicates,
        )  # fmt: skip
        data = reduce_frame(self._df, spec, split_out=split_out, keep_items=keep_items)
        return DaskRatings(data)
