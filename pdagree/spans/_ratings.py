"""``SpanRatings``: span annotations, checked once, ready for any number of span measures."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import pandas as pd

from ..ratings import Ratings
from . import _consensus, _per_rater, _tables, _tokens, _unitizing
from ._data import SpanData, span_data
from ._match import Match

__all__ = ["SpanRatings"]


class SpanRatings:
    """Span annotations (entities, segments) of documents by annotators.

    Build it with ``df.agree.spans(item=, rater=, start=, end=, label=None, text=None,
    by=None)``: one row per span, character offsets with ``end`` exclusive, and a row with
    missing ``start`` and ``end`` for a document an annotator saw and marked nothing in (such
    an annotator agrees with another who also marked nothing). It is immutable; the frame is
    never modified.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdagree
    >>> spans = pd.DataFrame({
    ...     "doc": [1, 1, 1, 1], "who": ["a", "a", "b", "b"],
    ...     "start": [0, 10, 0, 12], "end": [5, 15, 5, 15], "tag": ["PER", "ORG", "PER", "ORG"],
    ... })
    >>> s = spans.agree.spans(item="doc", rater="who", start="start", end="end", label="tag")
    >>> s.f1(), s.f1(match="overlap")
    (0.5, 1.0)
    """

    __slots__ = ("_data",)
    _data: SpanData

    def __init__(self, data: SpanData) -> None:
        object.__setattr__(self, "_data", data)

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError(f"SpanRatings is immutable; cannot set {key!r}.")

    @classmethod
    def from_frame(
        cls,
        df: pd.DataFrame,
        *,
        item: Hashable,
        rater: Hashable,
        start: Hashable,
        end: Hashable,
        label: Hashable | None = None,
        text: Any = None,
        by: Hashable | Sequence[Hashable] | None = None,
    ) -> SpanRatings:
        """Read ``df``'s spans (see the class docstring).

        Parameters
        ----------
        df : DataFrame
            One row per span (and one without offsets per document marked with none).
        item, rater, start, end : column names
            The document, the annotator and the span's character offsets (``end`` exclusive).
        label : column name, optional
            The span's label; ``None`` for unlabelled segmentation.
        text : column name or Series, optional
            The documents' texts or lengths (a column, or a Series indexed by item): the
            characters the character-level measures read; default, each document's furthest
            span end.
        by : column name or list of them, optional
            One result per group.

        Returns
        -------
        SpanRatings
            The checked spans.
        """
        return cls(
            span_data(
                df, item=item, rater=rater, start=start, end=end, label=label, text=text, by=by
            )
        )

    @property
    def raters(self) -> pd.Index:
        """The annotators."""
        return self._data.raters

    @property
    def labels(self) -> pd.Index:
        """The span labels (``[None]`` for unlabelled segmentation)."""
        return self._data.labels

    @property
    def n_spans(self) -> int:
        """The number of spans."""
        return len(self._data.start)

    def __repr__(self) -> str:
        d = self._data
        groups = "" if d.groups is None else f", {d.n_groups} groups"
        return (
            f"SpanRatings({d.n_docs} documents, {d.n_raters} annotators, {self.n_spans} "
            f"spans, {d.n_labels if d.labelled else 0} labels{groups})"
        )

    def pairwise_f1(self, match: Match = "exact", *, by_label: bool = False) -> pd.DataFrame:
        """One row per unordered pair of annotators over the documents both annotated:
        ``precision`` and ``recall`` of the first with the second as the reference, ``f1``,
        ``n_a``, ``n_b`` and ``n_matched`` (``by_label``: one row per pair and label).

        ``match="exact"``: the same start, end and label; ``"overlap"``: the same label and at
        least one shared character, each span matched at most once, greedily by the largest
        overlap (ties: the earlier span). Two annotators who both marked nothing agree (1.0).

        Parameters
        ----------
        match : {"exact", "overlap"}, default "exact"
            ``"exact"``: the same start, end and label; ``"overlap"``: the same label and at
            least one shared character, each span matched at most once, greedily by the
            largest overlap.
        by_label : bool, default False
            One row per pair of annotators and label.

        Returns
        -------
        DataFrame
            ``precision``, ``recall``, ``f1``, ``n_a``, ``n_b``, ``n_matched`` per pair.
        """
        return _tables.pairwise_f1(self._data, match, by_label)

    def f1(self, match: Match = "exact") -> float | pd.Series:
        """The mean of :meth:`pairwise_f1`'s ``f1`` over pairs (Prodigy's pairwise F1); with
        ``by=``, one value per group.

        Parameters
        ----------
        match : {"exact", "overlap"}, default "exact"
            ``"exact"``: the same start, end and label; ``"overlap"``: the same label and at
            least one shared character, each span matched at most once, greedily by the
            largest overlap.

        Returns
        -------
        float or Series
            The mean F1 (per group with ``by=``).
        """
        return _tables.f1(self._data, match)

    def per_label(self, match: Match = "exact") -> pd.DataFrame:
        """Per label: the mean over pairs of their F1 on it, with the spans and matches.

        Parameters
        ----------
        match : {"exact", "overlap"}, default "exact"
            ``"exact"``: the same start, end and label; ``"overlap"``: the same label and at
            least one shared character, each span matched at most once, greedily by the
            largest overlap.

        Returns
        -------
        DataFrame
            ``f1``, ``n_pairs``, ``n_a``, ``n_b``, ``n_matched`` per label.
        """
        return _tables.per_label(self._data, match)

    def token_agreement(self, unit: str = "char") -> Ratings:
        """The characters of the documents two or more annotators annotated as
        :class:`~pdagree.Ratings` (categories ``"O"`` and the labels), so that every
        coefficient applies: ``.alpha()``, ``.cohen()``, ``.fleiss()``, ``.report()``.

        Parameters
        ----------
        unit : {"char", "token"}, default "char"
            Characters, or the whitespace-separated tokens of the texts given with ``text=``
            (``str.split()``'s tokens; a token takes the label covering most of its
            characters, ``"O"`` where none does; items labelled by the token's first
            character).

        Returns
        -------
        Ratings
            One item per character (token), categories ``"O"`` and the labels.
        """
        return _tokens.token_agreement(self._data, unit)

    def consensus(self, min_votes: int | None = None) -> pd.DataFrame:
        """Consensus spans: the maximal runs of characters that more than half of a
        document's annotators (or ``min_votes``) gave the same label; ``votes`` and
        ``n_raters`` beside each.

        Parameters
        ----------
        min_votes : int, optional
            The annotators a character needs; default, more than half of the document's.

        Returns
        -------
        DataFrame
            ``start``, ``end``, ``label``, ``votes``, ``n_raters`` per consensus span, indexed
            by document.
        """
        return _consensus.consensus(self._data, min_votes)

    def per_rater(self, match: Match = "exact") -> pd.DataFrame:
        """Each annotator against the consensus of the others (leave-one-out), over the
        documents shared with others: ``n_items``, ``precision`` (their spans the others'
        consensus has), ``recall`` (the consensus spans they have), ``f1``, ``n_spans``,
        ``n_reference`` and ``n_matched``; the span analogue of :meth:`Ratings.per_rater`.

        Parameters
        ----------
        match : {"exact", "overlap"}, default "exact"
            ``"exact"``: the same start, end and label; ``"overlap"``: the same label and at
            least one shared character, each span matched at most once, greedily by the
            largest overlap.

        Returns
        -------
        DataFrame
            One row per annotator (with ``by=``: group, annotator).
        """
        return _per_rater.per_rater(self._data, match)

    def items(self, match: Match = "exact") -> pd.DataFrame:
        """Per document, for review queues: ``n_raters``, ``n_spans``, ``min_spans`` and
        ``max_spans`` (per annotator), ``f1`` (the mean over its pairs of annotators) and
        ``n_disputed`` (the distinct spans not every annotator gave).

        Parameters
        ----------
        match : {"exact", "overlap"}, default "exact"
            ``"exact"``: the same start, end and label; ``"overlap"``: the same label and at
            least one shared character, each span matched at most once, greedily by the
            largest overlap.

        Returns
        -------
        DataFrame
            One row per document.
        """
        return _tables.items(self._data, match)

    def alpha_u(self, *, by_label: bool = False) -> float | pd.Series | pd.DataFrame:
        """Krippendorff's unitizing alpha (1995; 2004): the documents every annotator
        annotated laid end to end as one continuum, units and gaps compared by their
        beginnings and ends; over the labels (``1 - mean D_o / mean D_e``) or, with
        ``by_label``, one value per label. See :mod:`pdagree.spans._unitizing`.

        Parameters
        ----------
        by_label : bool, default False
            One value per label (with ``by=``, a DataFrame: groups x labels).

        Returns
        -------
        float, Series or DataFrame
            Krippendorff's alpha_u.
        """
        return _unitizing.alpha_u(self._data, by_label)
