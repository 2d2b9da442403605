"""Span annotations as one label per character, so that every coefficient applies.

The items are the characters of the documents two or more annotators annotated (a document's
length: ``text=``, else its furthest span end); each annotator of a document gives each of its
characters the label of the span covering it, or ``"O"`` (outside any span). Where one
annotator's spans of different labels overlap, the shortest span's label wins (the innermost
entity). Memory: one int64 code per (character, annotator), never a Python object per cell.
With ``unit="token"`` the items are the whitespace-separated tokens of the texts given with
``text=`` (the tokens of ``str.split()``, found on one array of code points), each labelled by
the label covering most of its characters (``"O"`` where none does, ties to the first label).
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


#: The code points Python's ``str.isspace`` accepts: the separators of whitespace tokens.
_SPACES = np.array(
    [9, 10, 11, 12, 13, 28, 29, 30, 31, 32, 133, 160, 5760, *range(8192, 8203), 8232, 8233,
     8239, 8287, 12288]
)  # fmt: skip


def _whitespace_tokens(texts: Any, docs: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """The whitespace-separated tokens of the texts of ``docs`` (``str.split()``'s tokens):
    per token its document and its start and end offsets, from one array of code points."""
    joined = " ".join(texts[d] for d in docs) + " "
    points = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)
    space = np.isin(points, _SPACES)
    starts = np.flatnonzero(~space & np.r_[True, space[:-1]])
    ends = np.flatnonzero(~space & np.r_[space[1:], True]) + 1
    lengths = np.array([len(texts[d]) for d in docs], dtype=np.int64)
    doc_start = np.cumsum(lengths + 1) - (lengths + 1)  # each text's offset in ``joined``
    which = np.searchsorted(doc_start, starts, side="right") - 1
    return docs[which], starts - doc_start[which], ends - doc_start[which]


def token_agreement(data: SpanData, unit: str = "char") -> Ratings:
    """The characters' (or tokens') labels as :class:`~pdagree.Ratings` (see the module's
    docstring)."""
    if unit not in ("char", "token"):
        raise ValueError(
            f"`unit` must be 'char' (characters) or 'token' (whitespace tokens); got {unit!r}."
        )
    if unit == "token" and data.texts is None:
        raise ValueError(
            "`unit='token'` splits the documents' texts at whitespace: pass the texts with "
            "`text=` (a column or a Series of strings indexed by item)."
        )
    per_doc = np.bincount(data.doc, minlength=data.n_docs)
    shared = per_doc >= 2
    rows = np.flatnonzero(shared[data.doc])
    row_doc, row_rater = data.doc[rows], data.rater[rows]
    length = data.length[row_doc]
    offset = np.cumsum(length) - length  # each (document, annotator)'s first cell
    n_cells = int(length.sum())
    code = np.zeros(n_cells, dtype=np.int64)  # OUTSIDE
    # spans of the kept rows, longest first so that the shortest is written last
    position = np.full(len(data.doc), -1, dtype=np.int64)  # of each annotated row in rows
    position[rows] = np.arange(len(rows))
    row = data.row_of(data.span_doc, data.span_rater)
    span_row = np.where(row >= 0, position[row], -1)
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
    item = np.repeat(item_first[row_doc] - offset, length)  # a cell's item: its position
    item += np.arange(n_cells)  # ... in its row, after the row's document's first item
    rater = np.repeat(row_rater, length)
    doc_of_item = np.repeat(docs, data.length[docs])
    char = np.arange(len(doc_of_item)) - np.repeat(item_first[docs], data.length[docs])
    labels = [OUTSIDE, *(data.labels if data.labelled else ["span"])]
    if unit == "token":
        tok_doc, tok_start, tok_end = _whitespace_tokens(data.texts, docs)
        token_of_char = np.full(len(doc_of_item), -1, dtype=np.int64)
        width = tok_end - tok_start
        first = np.repeat(item_first[tok_doc] + tok_start, width)
        token_of_char[
            first + np.arange(len(first)) - np.repeat(np.cumsum(width) - width, width)
        ] = np.repeat(np.arange(len(tok_doc)), width)
        n_tokens = np.bincount(tok_doc, minlength=data.n_docs)
        token_first = np.cumsum(n_tokens) - n_tokens
        row_base = np.cumsum(n_tokens[row_doc]) - n_tokens[row_doc]
        tok = token_of_char[item]
        inside = tok >= 0
        row_of_cell = np.repeat(np.arange(len(rows)), length)[inside]
        key = row_base[row_of_cell] + tok[inside] - token_first[doc_of_item[item[inside]]]
        k1 = len(labels)
        n_keys = int(n_tokens[row_doc].sum())
        votes = np.bincount(key * k1 + code[inside], minlength=n_keys * k1).reshape(n_keys, k1)
        votes[:, 0] = 0  # outside: only where no character of the token has a label
        code = np.where(votes.max(axis=1) > 0, votes.argmax(axis=1), 0).astype(np.int64)
        key_row = np.repeat(np.arange(len(rows)), n_tokens[row_doc])
        item = np.repeat(token_first[row_doc], n_tokens[row_doc])
        item += np.arange(n_keys) - np.repeat(row_base, n_tokens[row_doc])
        rater = row_rater[key_row]
        shared_tokens = np.flatnonzero(np.isin(tok_doc, docs))
        doc_of_item, char = tok_doc[shared_tokens], tok_start[shared_tokens]
        n_cells = n_keys
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
