"""Each annotator against the consensus of the others: the span analogue of ``per_rater()``.

For every document an annotator shares with others, the others' consensus spans (the
characters more than half of them gave one label, :mod:`._consensus`) are the reference of
that annotator's spans, matched exactly or by overlap (:mod:`._match`). The annotators are
left out one position at a time (the first annotator of every document, then the second,
...), every document at once: as many passes as a document has annotators at most.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from .._typing import IntArray
from ._consensus import consensus_arrays
from ._data import SpanData
from ._match import Match, pair_counts
from ._tables import _scores

__all__ = ["per_rater"]


def _slots(data: SpanData) -> IntArray:
    """Per annotated (document, annotator) row: its annotator's position in the document."""
    order = np.lexsort((data.rater, data.doc))
    doc = data.doc[order]
    first = np.r_[True, doc[1:] != doc[:-1]]
    start = np.maximum.accumulate(np.where(first, np.arange(len(doc)), 0))
    slot = np.empty(len(doc), dtype=np.int64)
    slot[order] = np.arange(len(doc)) - start
    return slot


def per_rater(data: SpanData, match: Match = "exact") -> pd.DataFrame:
    """One row per annotator (with ``by=``: group, annotator): ``n_items`` (the documents
    shared with others), ``n_spans`` (theirs there), ``n_reference`` (the others' consensus
    spans), ``n_matched``, ``precision``, ``recall`` and ``f1``."""
    n_r = data.n_raters
    per_doc = np.bincount(data.doc, minlength=data.n_docs)
    slot = _slots(data)
    span_slot = slot[data.row_of(data.span_doc, data.span_rater)]
    # the (group, annotator) pairs that occur: with annotators of their own per group,
    # far fewer than groups x annotators
    pairs = np.unique(data.group[data.doc] * n_r + data.rater)
    totals = np.zeros((4, len(pairs)))  # n_items, n_a, n_b, n_matched per pair
    virtual = n_r  # the consensus of the others, as one more annotator
    for s in range(int(slot.max()) + 1 if len(slot) else 0):
        left = (slot == s) & (per_doc[data.doc] >= 2)
        if not left.any():
            continue
        docs = data.doc[left]
        alone = np.zeros(data.n_docs, dtype=bool)
        alone[docs] = True
        in_docs = alone[data.span_doc]
        need = (per_doc - 1) // 2 + 1
        c_doc, c_start, c_end, c_label, _ = consensus_arrays(
            data, need, in_docs & (span_slot != s)
        )
        mine = in_docs & (span_slot == s)
        both = replace(
            data,
            doc=np.r_[docs, docs],
            rater=np.r_[data.rater[left], np.full(len(docs), virtual)],
            span_doc=np.r_[data.span_doc[mine], c_doc],
            span_rater=np.r_[data.span_rater[mine], np.full(len(c_doc), virtual)],
            start=np.r_[data.start[mine], c_start],
            end=np.r_[data.end[mine], c_end],
            label=np.r_[data.label[mine], c_label],
            raters=pd.Index([*data.raters, "(consensus)"], dtype=object),
        )
        counts = pair_counts(both, match)
        key = np.searchsorted(pairs, counts.group * n_r + counts.a)  # a: the annotator
        for row, values in enumerate((counts.n_a, counts.n_b, counts.n_matched), start=1):
            totals[row] += np.bincount(key, weights=values, minlength=len(pairs))
        given = np.searchsorted(pairs, data.group[docs] * n_r + data.rater[left])
        totals[0] += np.bincount(given, minlength=len(pairs))
    kept = np.flatnonzero(totals[0] > 0)
    n_items, n_a, n_b, matched = (t[kept] for t in totals)
    group, rater = np.divmod(pairs[kept], n_r)
    out = pd.DataFrame(_scores(n_a, n_b, matched), index=_index(data, group, rater))
    out.insert(0, "n_items", n_items.astype(np.int64))
    out["n_spans"] = n_a.astype(np.int64)
    out["n_reference"] = n_b.astype(np.int64)
    out["n_matched"] = matched.astype(np.int64)
    return out


def _index(data: SpanData, group: IntArray, rater: IntArray) -> pd.Index:
    name = data.raters.name if data.raters.name is not None else "rater"
    if data.groups is None:
        return pd.Index(data.raters[rater], name=name)
    keys = data.groups[group]
    frame = keys.to_frame(index=False) if isinstance(keys, pd.MultiIndex) else None
    arrays = [keys] if frame is None else [frame[c] for c in frame.columns]
    names = [data.groups.name] if frame is None else list(frame.columns)
    return pd.MultiIndex.from_arrays([*arrays, data.raters[rater]], names=[*names, name])
