"""Span annotations as one label per character, so that every coefficient applies.

The items are the characters of the documents two or more annotators annotated (a document's
length: ``text=``, else its furthest span end); each annotator of a document gives each of its
characters the label of the span covering it, or ``"O"`` (outside any span). Where one
annotator's spans of different labels overlap, the shortest span's label wins (the innermost
entity). Memory: one int64 code per (character, annotator), never a Python object per cell.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._typing import IntArray
from ..encoding import Encoded
from ..ratings import Ratings
from ._data import SpanData

__all__ = ["OUTSIDE", "token_agreement"]

OUTSIDE = "O"


def token_agreement(data: SpanData, unit: str = "char") -> Ratings:
    """The characters' labels as :class:`~pdagree.Ratings` (see the module's docstring)."""
    if unit != "char":
        raise ValueError(f"`unit` must be 'char' (characters); got {unit!r}.")
    per_doc = np.bincount(data.doc, minlength=data.n_docs)
    shared = per_doc >= 2
    rows = np.flatnonzero(shared[data.doc])
    row_doc, row_rater = data.doc[rows], data.rater[rows]
    length = data.length[row_doc]
    offset = np.cumsum(length) - length  # each (document, annotator)'s first cell
    n_cells = int(length.sum())
    code = np.zeros(n_cells, dtype=np.int64)  # OUTSIDE
    # spans of the kept rows, longest first so that the shortest is written last
    row_of = np.full(data.n_docs * data.n_raters, -1, dtype=np.int64)
    row_of[row_doc * data.n_raters + row_rater] = np.arange(len(rows))
    span_row = row_of[data.span_doc * data.n_raters + data.span_rater]
    kept = np.flatnonzero(span_row >= 0)
    kept = kept[np.argsort(-(data.end[kept] - data.start[kept]), kind="stable")]
    width = data.end[kept] - data.start[kept]
    cell = np.repeat(offset[span_row[kept]] + data.start[kept], width)
    cell += np.arange(len(cell)) - np.repeat(np.cumsum(width) - width, width)
    code[cell] = np.repeat(data.label[kept] + 1, width)
    # items: (document, character) of the shared documents, numbered in document order
    docs = np.flatnonzero(shared)
    item_first = np.zeros(data.n_docs, dtype=np.int64)
    item_first[docs] = np.cumsum(data.length[docs]) - data.length[docs]
    position = np.arange(n_cells) - np.repeat(offset, length)
    item = np.repeat(item_first[row_doc], length) + position
    rater = np.repeat(row_rater, length)
    doc_of_item = np.repeat(docs, data.length[docs])
    char = np.arange(len(doc_of_item)) - np.repeat(item_first[docs], data.length[docs])
    labels = [OUTSIDE, *(data.labels if data.labelled else ["span"])]
    return Ratings(
        Encoded(
            layout="long",
            items=_item_index(data, doc_of_item, char),
            raters=data.raters,
            categories=pd.Index(labels, dtype=object),
            item=item,
            rater=rater,
            code=code,
            weight=np.ones(n_cells, dtype=np.float64),
            group=data.group[doc_of_item],
            groups=data.groups,
            by=tuple(data.groups.names) if data.groups is not None else (),
            declared=True,  # "O" and every label of the spans, used or not
            ordered=False,
        )
    )


def _item_index(data: SpanData, doc: IntArray, char: IntArray) -> pd.MultiIndex:
    """(document, character) labels without a Python object per character."""
    docs = data.docs
    width = int(char.max()) + 1 if len(char) else 0
    chars = pd.RangeIndex(width, name="char")
    levels: list[Any] = [docs, chars]
    codes: list[Any] = [doc, char]
    names: list[Any] = [docs.name, "char"]
    if isinstance(docs, pd.MultiIndex):
        levels = [*docs.levels, chars]
        codes = [*(np.asarray(c)[doc] for c in docs.codes), char]
        names = [*docs.names, "char"]
    return pd.MultiIndex(levels=levels, codes=codes, names=names, verify_integrity=False)
