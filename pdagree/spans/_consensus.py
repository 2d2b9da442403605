"""Consensus spans: the characters most of a document's annotators gave the same label.

A character belongs to a consensus span of label ``L`` when more than half of the document's
annotators (or at least ``min_votes``) gave it ``L``; the consensus spans are the maximal runs
of such characters. From the spans' ends alone (a sweep over sorted events, no array of
characters): ``O(spans log spans)``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._data import SpanData

__all__ = ["consensus"]


def consensus(data: SpanData, min_votes: int | None = None) -> pd.DataFrame:
    """One row per consensus span: ``item``, ``start``, ``end``, ``label``, ``votes`` (the
    fewest annotators covering one of its characters) and ``n_raters`` (the document's)."""
    whole = isinstance(min_votes, int) and not isinstance(min_votes, bool)
    if min_votes is not None and not (whole and min_votes >= 1):
        raise ValueError(f"`min_votes` must be a positive whole number; got {min_votes!r}.")
    n_l = max(data.n_labels, 1)
    raters = np.bincount(data.doc, minlength=data.n_docs)
    need = raters // 2 + 1 if min_votes is None else np.full(data.n_docs, min_votes)
    segment = data.span_doc * n_l + data.label
    position = np.r_[data.start, data.end]
    step = np.r_[np.ones(len(data.start), np.int64), -np.ones(len(data.end), np.int64)]
    seg = np.r_[segment, segment]
    order = np.lexsort((step, position, seg))  # at one position, ends before starts
    seg, position, step = seg[order], position[order], step[order]
    # Every segment's starts and ends balance, so the running sum is back at 0 where a
    # segment begins: it is the coverage from each event to the next one.
    cover = np.cumsum(step)
    doc = seg // n_l
    enough = cover >= need[doc]
    # an interval [position_i, position_{i+1}) of the same segment with enough votes
    nxt = np.r_[position[1:], 0]
    same_next = np.r_[seg[1:] == seg[:-1], False]
    good = enough & same_next & (nxt > position)
    # merge touching intervals of one segment into spans
    idx = np.flatnonzero(good)
    if not len(idx):
        return _empty(data)
    starts = position[idx]
    ends = nxt[idx]
    gseg = seg[idx]
    new = np.r_[True, (gseg[1:] != gseg[:-1]) | (starts[1:] != ends[:-1])]
    first_idx = np.flatnonzero(new)
    last_idx = np.r_[first_idx[1:], len(idx)] - 1
    votes = np.minimum.reduceat(cover[idx], first_idx)
    span_seg = gseg[first_idx]
    span_doc, span_label = np.divmod(span_seg, n_l)
    out = pd.DataFrame(
        {
            "start": starts[first_idx],
            "end": ends[last_idx],
            "label": data.labels[span_label] if data.labelled else None,
            "votes": votes,
            "n_raters": raters[span_doc],
        },
        index=data.docs[span_doc],
    )
    order = np.lexsort((out["start"].to_numpy(), span_doc))  # by document, then start
    return out.iloc[order]


def _empty(data: SpanData) -> pd.DataFrame:
    columns = {"start": np.int64, "end": np.int64, "label": object, "votes": np.int64}
    empty = pd.DataFrame({name: pd.Series(dtype=t) for name, t in columns.items()})
    empty["n_raters"] = pd.Series(dtype=np.int64)
    empty.index = data.docs[:0]
    return empty
