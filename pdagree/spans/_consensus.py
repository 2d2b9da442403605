"""Consensus spans: the characters most of a document's annotators gave the same label.

A character belongs to a consensus span of label ``L`` when more than half of the document's
annotators (or at least ``min_votes``) gave it ``L``; the consensus spans are the maximal runs
of such characters. From the spans' ends alone (a sweep over sorted events, no array of
characters): ``O(spans log spans)``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._typing import BoolArray, IntArray
from ._data import SpanData

__all__ = ["consensus", "consensus_arrays"]


def consensus_arrays(
    data: SpanData, need: IntArray, keep: BoolArray | None = None
) -> tuple[IntArray, IntArray, IntArray, IntArray, IntArray]:
    """The consensus spans of the spans ``keep`` marks (all by default), ``need[d]`` votes
    in document ``d``: per span its document, start, end, label and votes."""
    n_l = max(data.n_labels, 1)
    pick = slice(None) if keep is None else keep
    segment = data.span_doc[pick] * n_l + data.label[pick]
    start, end = data.start[pick], data.end[pick]
    position = np.r_[start, end]
    step = np.r_[np.ones(len(start), np.int64), -np.ones(len(end), np.int64)]
    seg = np.r_[segment, segment]
    order = np.lexsort((step, position, seg))  # at one position, ends before starts
    seg, position, step = seg[order], position[order], step[order]
    # Every segment's starts and ends balance, so the running sum is back at 0 where a
    # segment begins: it is the coverage from each event to the next one.
    cover = np.cumsum(step)
    enough = cover >= need[seg // n_l]
    # an interval [position_i, position_{i+1}) of one segment with enough votes
    nxt = np.r_[position[1:], 0]
    same_next = np.r_[seg[1:] == seg[:-1], False]
    idx = np.flatnonzero(enough & same_next & (nxt > position))
    empty = np.zeros(0, dtype=np.int64)
    if not len(idx):
        return empty, empty, empty, empty, empty
    starts, ends, gseg = position[idx], nxt[idx], seg[idx]
    # touching intervals of one segment are one span
    new = np.r_[True, (gseg[1:] != gseg[:-1]) | (starts[1:] != ends[:-1])]
    first = np.flatnonzero(new)
    last = np.r_[first[1:], len(idx)] - 1
    votes = np.minimum.reduceat(cover[idx], first)
    doc, label = np.divmod(gseg[first], n_l)
    return doc, starts[first], ends[last], label, votes


def consensus(data: SpanData, min_votes: int | None = None) -> pd.DataFrame:
    """One row per consensus span: ``item``, ``start``, ``end``, ``label``, ``votes`` (the
    fewest annotators covering one of its characters) and ``n_raters`` (the document's)."""
    whole = isinstance(min_votes, int) and not isinstance(min_votes, bool)
    if min_votes is not None and not (whole and min_votes >= 1):
        raise ValueError(f"`min_votes` must be a positive whole number; got {min_votes!r}.")
    raters = np.bincount(data.doc, minlength=data.n_docs)
    need = raters // 2 + 1 if min_votes is None else np.full(data.n_docs, min_votes)
    doc, start, end, label, votes = consensus_arrays(data, need)
    if not len(doc):
        return _empty(data)
    out = pd.DataFrame(
        {
            "start": start,
            "end": end,
            "label": data.labels[label] if data.labelled else None,
            "votes": votes,
            "n_raters": raters[doc],
        },
        index=data.docs[doc],
    )
    order = np.lexsort((start, doc))  # by document, then start
    return out.iloc[order]


def _empty(data: SpanData) -> pd.DataFrame:
    columns = {"start": np.int64, "end": np.int64, "label": object, "votes": np.int64}
    empty = pd.DataFrame({name: pd.Series(dtype=t) for name, t in columns.items()})
    empty["n_raters"] = pd.Series(dtype=np.int64)
    empty.index = data.docs[:0]
    return empty
