"""The ``DataFrame.agree`` accessor.

``df.agree(...)`` encodes the frame and returns a :class:`~pdagree.ratings.Ratings`;
``df.agree.<method>()`` is shorthand for ``df.agree().<method>()`` on a wide frame. The accessor
stores the frame and nothing else (pandas may rebuild it on every attribute access).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd

from ._forwarding import forward, public_members
from .encoding import Layout, LayoutSpec
from .ratings import Ratings
from .spans import SpanRatings

__all__ = ["FORWARDED", "AgreeAccessor"]

#: The methods (and properties) of :class:`~pdagree.Ratings` that ``df.agree.<name>`` offers:
#: ``df.agree.<name>(...)`` is ``df.agree().<name>(...)``, the frame encoded as a wide one on
#: each call.
FORWARDED = public_members(Ratings)


def _ratings(accessor: AgreeAccessor) -> Ratings:
    return Ratings.from_frame(accessor._df)


if TYPE_CHECKING:  # the forwarded methods, as type checkers see them (not a base at run time)
    _Forwarded = Ratings
else:
    _Forwarded = object


@pd.api.extensions.register_dataframe_accessor("agree")
@forward(Ratings, FORWARDED, via=_ratings)
class AgreeAccessor(_Forwarded):
    """Inter-annotator agreement on this frame.

    Call it to describe the layout (the parameters below), or use a method directly on a wide
    frame:

    >>> import pandas as pd
    >>> import pdagree
    >>> wide = pd.DataFrame({"ann1": ["a", "b", "b"], "ann2": ["a", "b", "a"]})
    >>> round(float(wide.agree.observed()), 4)
    0.6667
    >>> long = wide.reset_index().melt(id_vars="index", var_name="coder", value_name="tag")
    >>> round(float(long.agree(item="index", rater="coder", label="tag").observed()), 4)
    0.6667

    Parameters
    ----------
    item, rater, label : column names, optional
        Give all three for a long frame (one row per annotation).
    raters : list of column names, optional
        Wide frames: the rater columns (default: every column not in ``by``).
    categories : list, optional
        The categories and their order; declares unused categories too. An ordered
        Categorical's own order takes precedence; any Categorical declares its categories.
        Labels that are all numbers (also as text) are ordered by value; other text labels
        have no declared order, which order-dependent coefficients refuse.
    by : column name or list of them, optional
        Compute every group in one pass; results get one row per group. Declared categories
        apply to every group; otherwise each group uses the labels it has.
    layout : {"wide", "long", "counts", "contingency"}, optional
        ``"counts"`` reads an items x categories table of counts (Fleiss' table).
        ``"contingency"`` reads two raters' K x K table (a confusion matrix, ``pd.crosstab``):
        the index holds the first rater's categories, the columns the second's, a cell the
        number of items they put there (whole, non-negative counts). The axes are aligned by
        label, and their union is the categories (in an ordered Categorical's order, else
        ``categories=``, else the table's own order when both axes list the same labels in
        the same order, else sorted); the index and columns names name the raters
        (``"rater1"`` and ``"rater2"`` when unset). Every two-rater coefficient and breakdown
        equals that of the wide frame the table expands to; the analytic standard errors are
        Gwet's two-rater table formulas, as R irrCAC's ``*.table`` functions print them.
        ``by=`` does not apply.
    rank : column name, optional
        Long frames: the rank of each label, 1 (primary) or 2 (secondary), so that a rater may
        give an item a primary and an optional secondary label (in a wide frame, a cell holding
        a tuple or list, primary first, does the same). :meth:`~pdagree.Ratings.multilabel`
        weighs both; every other coefficient reads the primary labels.

    Examples
    --------
    >>> table = pd.DataFrame([[13, 0, 0], [0, 20, 7], [0, 4, 56]],
    ...                      index=["Ectopic", "AIU", "NIU"], columns=["Ectopic", "AIU", "NIU"])
    >>> kappa = table.agree(layout="contingency").cohen()  # irrCAC's cont3x3abstractors
    >>> round(float(kappa), 4), round(kappa.standard_error(), 5)  # kappa2.table
    (0.7964, 0.05891)
    """

    __slots__ = ("_df",)

    def __init__(self, df: pd.DataFrame) -> None:
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
        layout: Layout | None = None,
        rank: Hashable | None = None,
    ) -> Ratings:
        spec = LayoutSpec.of(
            item=item, rater=rater, label=label, raters=raters, categories=categories, by=by,
            layout=layout, rank=rank,
        )  # fmt: skip
        return Ratings._from_spec(self._df, spec)

    def spans(
        self,
        *,
        item: Hashable,
        rater: Hashable,
        start: Hashable,
        end: Hashable,
        label: Hashable | None = None,
        text: Any = None,
        by: Hashable | Sequence[Hashable] | None = None,
    ) -> SpanRatings:
        """This frame's span annotations (entities, segments) as a :class:`SpanRatings`:
        one row per span, character offsets (``end`` exclusive); see
        :class:`pdagree.SpanRatings`.

        Parameters
        ----------
        item, rater, start, end : column names
            The document, the annotator and the span's character offsets.
        label : column name, optional
            The span's label; ``None`` for unlabelled segmentation.
        text : column name or Series, optional
            The documents' texts or lengths, for the character-level measures.
        by : column name or list of them, optional
            One result per group.

        Returns
        -------
        SpanRatings
            The checked spans.
        """
        return SpanRatings.from_frame(
            self._df, item=item, rater=rater, start=start, end=end, label=label, text=text, by=by
        )
