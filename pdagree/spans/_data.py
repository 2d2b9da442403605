"""Span annotations as integer arrays, checked: who annotated which document, and each span's
document, annotator, offsets and label.

A frame holds one row per span (``item``, ``rater``, ``start``, ``end``, optionally ``label``),
and a row with missing ``start`` and ``end`` for a document an annotator saw and marked nothing
in: such an annotator *annotated* the document (and agrees with another who also marked
nothing), without a span. Offsets are characters, ``end`` exclusive (Python's slices, Label
Studio's and Prodigy's offsets). Documents are identified within their ``by=`` group.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from .._typing import BoolArray, IntArray
from ..encoding import factorize_columns, fmt, plain

__all__ = ["SpanData", "span_data"]


@dataclass(frozen=True, eq=False)
class SpanData:
    """Checked span annotations.

    Attributes
    ----------
    doc, rater : IntArray
        Per (document, annotator) that annotated: the document and the annotator codes.
    span_doc, span_rater, start, end, label : IntArray
        Per span: its document, annotator, offsets and label code (0 without labels).
    group : IntArray
        Per document: its ``by=`` group.
    docs, raters, labels : pd.Index
        The labels of documents (with the group keys in front under ``by=``), annotators and
        span labels (``[None]`` for unlabelled segmentation).
    groups : pd.Index or None
        The ``by=`` group keys.
    length : IntArray
        Per document: its length in characters (``text=``), or the furthest span end.
    """

    doc: IntArray
    rater: IntArray
    span_doc: IntArray
    span_rater: IntArray
    start: IntArray
    end: IntArray
    label: IntArray
    group: IntArray
    docs: pd.Index
    raters: pd.Index
    labels: pd.Index
    groups: pd.Index | None
    length: IntArray
    labelled: bool
    texts: Any = None  # per document its text, where ``text=`` gave texts

    @property
    def n_docs(self) -> int:
        return len(self.docs)

    @property
    def n_raters(self) -> int:
        return len(self.raters)

    @property
    def n_labels(self) -> int:
        return len(self.labels)

    @property
    def n_groups(self) -> int:
        return 1 if self.groups is None else len(self.groups)

    @cached_property
    def span_group(self) -> IntArray:
        out: IntArray = self.group[self.span_doc]
        return out

    def row_of(self, doc: IntArray, rater: IntArray) -> IntArray:
        """Per (document, annotator) asked, the position of that annotated row in
        :attr:`doc` and :attr:`rater`, -1 where there is none: a sort of the rows, no table
        over every document x annotator (documents and annotators both grow with ``by=``
        groups that have annotators of their own)."""
        width = self.n_raters + 1
        keys = self.doc * width + self.rater
        order = np.argsort(keys, kind="stable")
        ordered = keys[order]
        asked = doc * width + rater
        if not len(ordered):
            return np.full(len(asked), -1, dtype=np.int64)
        at = np.minimum(np.searchsorted(ordered, asked), len(ordered) - 1)
        out: IntArray = np.where(ordered[at] == asked, order[at], -1)
        return out


def _columns(df: pd.DataFrame, roles: dict[str, Hashable | None]) -> None:
    missing = {role: col for role, col in roles.items() if col is not None and col not in df}
    if missing:
        shown = ", ".join(f"`{role}` {plain(col)!r}" for role, col in missing.items())
        raise ValueError(
            f"the span columns {shown} are not in the frame; its columns: "
            f"{fmt(list(df.columns)[:12])}."
        )


def _offsets(df: pd.DataFrame, column: Hashable, role: str) -> tuple[IntArray, BoolArray]:
    """A column of character offsets as int64, and where it is missing."""
    values = df[column]
    missing = values.isna().to_numpy()
    numbers = pd.to_numeric(values, errors="coerce")
    bad = numbers.isna().to_numpy() & ~missing
    whole = numbers.to_numpy(dtype=np.float64, na_value=np.nan)
    bad |= ~missing & (whole != np.round(whole))
    if bad.any():
        rows = list(df.index[bad][:5])
        raise ValueError(
            f"`{role}` column {plain(column)!r} must hold whole character offsets; rows "
            f"{fmt(rows)} hold {fmt(list(values[bad][:5]))}."
        )
    out: IntArray = np.where(missing, 0, np.nan_to_num(whole)).astype(np.int64)
    return out, missing


def _refuse(df: pd.DataFrame, rows: BoolArray, what: str, remedy: str) -> None:
    if rows.any():
        shown = fmt(list(df.index[rows][:5]))
        raise ValueError(f"{int(rows.sum())} span row(s) {what}, e.g. rows {shown}; {remedy}")


def _lengths(
    text: Any, df: pd.DataFrame, docs: pd.Index, doc_of_row: IntArray, item: Hashable
) -> tuple[IntArray, Any] | None:
    """Per document: its length from ``text=`` (a column, or a Series indexed by item, of
    texts or lengths), or ``None``."""
    if text is None:
        return None
    if isinstance(text, pd.Series):
        keys = docs.get_level_values(-1) if isinstance(docs, pd.MultiIndex) else docs
        values = text.reindex(keys)
        if values.isna().any():
            absent = list(pd.Index(keys)[values.isna().to_numpy()][:5])
            raise ValueError(f"`text` gives no text for the documents {fmt(absent)}.")
        per_doc = values.to_numpy()
    else:
        if text not in df:
            raise ValueError(f"`text` column {plain(text)!r} is not in the frame.")
        per_doc = np.empty(len(docs), dtype=object)
        per_doc[doc_of_row] = df[text].to_numpy()
    lengths = [v if isinstance(v, (int, np.integer)) else len(str(v)) for v in per_doc]
    texts = per_doc if all(isinstance(v, str) for v in per_doc) else None
    return np.array(lengths, dtype=np.int64), texts


def span_data(
    df: pd.DataFrame,
    *,
    item: Hashable,
    rater: Hashable,
    start: Hashable,
    end: Hashable,
    label: Hashable | None = None,
    text: Any = None,
    by: Hashable | Sequence[Hashable] | None = None,
) -> SpanData:
    """``df``'s spans, checked (see the module's docstring)."""
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"expected a pandas DataFrame; got {type(df).__name__}.")
    by_cols: list[Hashable] = (
        [] if by is None else list(by) if isinstance(by, (list, tuple)) else [by]
    )
    _columns(df, {"item": item, "rater": rater, "start": start, "end": end, "label": label})
    _columns(df, {f"by[{i}]": col for i, col in enumerate(by_cols)})
    if len(df) == 0:
        raise ValueError("the frame is empty (0 rows): span agreement needs annotated documents.")
    for role, col in (("item", item), ("rater", rater), *(("by", c) for c in by_cols)):
        if df[col].isna().any():
            raise ValueError(
                f"`{role}` column {plain(col)!r} has {int(df[col].isna().sum())} missing "
                "values; every row needs its document and annotator."
            )
    s, s_missing = _offsets(df, start, "start")
    e, e_missing = _offsets(df, end, "end")
    _refuse(
        df,
        s_missing != e_missing,
        "give one of `start` and `end` without the other",
        "give both (a span) or neither (a document marked with no span).",
    )
    is_span = ~s_missing
    _refuse(df, is_span & (s < 0), "start before the text (a negative offset)", "fix them.")
    _refuse(
        df,
        is_span & (e <= s),
        "end at or before their start (`end` is exclusive: a span [3, 7) covers 4 characters)",
        "drop the empty spans or fix their offsets.",
    )
    doc_of_row, docs = factorize_columns(df, [*by_cols, item], required=[item])
    rater_of_row, raters = factorize_columns(df, [rater], required=[rater])
    if label is not None:
        label_values = df[label]
        no_label = label_values.isna().to_numpy() & is_span
        _refuse(df, no_label, "have a span but no label", "label them, or pass label=None.")
        codes, labels = pd.factorize(label_values[is_span], sort=True)
        labels = pd.Index(labels, name=label)
    else:
        codes, labels = np.zeros(int(is_span.sum()), dtype=np.int64), pd.Index([None])
    if by_cols:
        frame = docs.to_frame(index=False)
        group, groups = factorize_columns(frame, by_cols)
    else:
        group, groups = np.zeros(len(docs), dtype=np.int64), None
    n_raters = len(raters)
    pair = doc_of_row * n_raters + rater_of_row
    annotated = np.unique(pair)
    span_doc, span_rater = doc_of_row[is_span], rater_of_row[is_span]
    start_, end_ = s[is_span], e[is_span]
    label_ = np.asarray(codes, dtype=np.int64)
    _check_overlaps(df.index[is_span], span_doc, span_rater, label_, start_, end_)
    furthest = np.zeros(len(docs), dtype=np.int64)
    np.maximum.at(furthest, span_doc, end_)
    given = _lengths(text, df, docs, doc_of_row, item)
    lengths, texts = (None, None) if given is None else given
    if lengths is not None:
        beyond = end_ > lengths[span_doc]
        if beyond.any():
            rows = list(df.index[is_span][beyond][:5])
            raise ValueError(
                f"{int(beyond.sum())} span(s) end beyond their document's text (`text=`), "
                f"e.g. rows {fmt(rows)}; check the offsets and the texts."
            )
    return SpanData(
        doc=annotated // n_raters,
        rater=annotated % n_raters,
        span_doc=span_doc,
        span_rater=span_rater,
        start=start_,
        end=end_,
        label=label_,
        group=group,
        docs=docs,
        raters=raters,
        labels=labels,
        groups=groups,
        length=furthest if lengths is None else lengths,
        labelled=label is not None,
        texts=texts,
    )


def _check_overlaps(
    index: pd.Index,
    doc: IntArray,
    rater: IntArray,
    label: IntArray,
    start: IntArray,
    end: IntArray,
) -> None:
    """One annotator marking one label twice over shared characters of a document is refused:
    which of the two spans counts is not the library's to guess."""
    order = np.lexsort((start, label, rater, doc))
    d, r, lab, s, e = doc[order], rater[order], label[order], start[order], end[order]
    same = (d[1:] == d[:-1]) & (r[1:] == r[:-1]) & (lab[1:] == lab[:-1])
    # per span, the furthest end of the earlier spans of its (document, annotator, label)
    furthest = _running_max(e, np.flatnonzero(np.r_[True, ~same])) if len(e) else e
    overlap = same & (s[1:] < furthest[:-1])
    if overlap.any():
        rows = sorted({*index[order[1:][overlap]][:3], *index[order[:-1][overlap]][:3]})
        raise ValueError(
            f"{int(overlap.sum())} span(s) overlap another span of the same annotator and label "
            f"in the same document, e.g. rows {fmt(rows[:5])}; merge them (one span from the "
            "first start to the last end) or drop the duplicates."
        )


def _running_max(values: IntArray, starts: IntArray) -> IntArray:
    """The running maximum of ``values``, restarted at each of ``starts``."""
    mark = np.zeros(len(values), dtype=np.int64)
    mark[starts] = 1
    segment = np.cumsum(mark) - 1
    big = int(values.max()) + 1
    out: IntArray = np.maximum.accumulate(values + segment * big) - segment * big
    return out
