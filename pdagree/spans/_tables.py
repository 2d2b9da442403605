"""Pairwise F1 of span annotations: per pair of annotators, per label, and their means."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from .._typing import FloatArray, IntArray
from ._data import SpanData
from ._match import Match, pair_counts

__all__ = ["f1", "items", "pairwise_f1", "per_label", "rater_pairs"]


def rater_pairs(data: SpanData) -> tuple[IntArray, IntArray, IntArray]:
    """Every pair of annotators ``a < b`` who annotated a document in common: group, a, b."""
    order = np.lexsort((data.rater, data.doc))
    doc, rater = data.doc[order], data.rater[order]
    sizes = np.bincount(doc, minlength=data.n_docs)
    sizes = sizes[sizes > 0]
    run = np.repeat(np.arange(len(sizes)), sizes)
    start = np.cumsum(sizes) - sizes
    later = sizes[run] - (np.arange(len(doc)) - start[run]) - 1
    x = np.repeat(np.arange(len(doc)), later)
    y = x + 1 + (np.arange(len(x)) - np.repeat(np.cumsum(later) - later, later))
    n_r = data.n_raters
    keys = np.unique((data.group[doc[x]] * n_r + rater[x]) * n_r + rater[y])
    rest, b = np.divmod(keys, n_r)
    group, a = np.divmod(rest, n_r)
    return group, a, b


def _scores(n_a: FloatArray, n_b: FloatArray, matched: FloatArray) -> dict[str, FloatArray]:
    """Precision of ``a`` (``b`` the reference), recall, F1; two annotators who both marked
    nothing agree (1.0)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        nothing = (n_a == 0) & (n_b == 0)
        precision = np.where(nothing, 1.0, matched / n_a)
        recall = np.where(nothing, 1.0, matched / n_b)
        f1 = np.where(nothing, 1.0, 2.0 * matched / (n_a + n_b))
    return {"precision": precision, "recall": recall, "f1": f1}


def _frame(
    data: SpanData, group: IntArray, a: IntArray, b: IntArray, label: IntArray | None,
    n_a: FloatArray, n_b: FloatArray, matched: FloatArray,
) -> pd.DataFrame:  # fmt: skip
    names = data.raters.name if data.raters.name is not None else "rater"
    levels: dict[Any, Any] = {}
    if data.groups is not None:
        keys = data.groups[group]
        frame = keys.to_frame(index=False) if isinstance(keys, pd.MultiIndex) else None
        if frame is None:
            levels[data.groups.name if data.groups.name is not None else "group"] = keys
        else:
            levels.update({c: frame[c].to_numpy() for c in frame.columns})
    levels[f"{names}_a"] = data.raters[a]
    levels[f"{names}_b"] = data.raters[b]
    if label is not None:
        levels["label"] = data.labels[label]
    index = pd.MultiIndex.from_arrays(list(levels.values()), names=list(levels))
    out = pd.DataFrame(_scores(n_a, n_b, matched), index=index)
    out["n_a"] = n_a.astype(np.int64)
    out["n_b"] = n_b.astype(np.int64)
    out["n_matched"] = matched.astype(np.int64)
    return out


def pairwise_f1(data: SpanData, match: Match = "exact", by_label: bool = False) -> pd.DataFrame:
    """One row per unordered pair of annotators (``by_label``: per pair and label) over the
    documents both annotated: ``precision`` and ``recall`` of the first with the second as
    the reference, ``f1``, ``n_a``, ``n_b`` and ``n_matched``."""
    counts = pair_counts(data, match)
    group, a, b = rater_pairs(data)
    n_r = data.n_raters
    pair_key = (group * n_r + a) * n_r + b
    counted_pair = (counts.group * n_r + counts.a) * n_r + counts.b
    if by_label:
        # every (pair, label) where either gave a span of the label
        return _frame(
            data, counts.group, counts.a, counts.b, counts.label,
            counts.n_a.astype(float), counts.n_b.astype(float), counts.n_matched.astype(float),
        )  # fmt: skip
    where = np.searchsorted(pair_key, counted_pair)
    totals = [
        np.bincount(where, weights=c, minlength=len(pair_key)).astype(np.float64)
        for c in (counts.n_a, counts.n_b, counts.n_matched)
    ]
    return _frame(data, group, a, b, None, *totals)


def f1(data: SpanData, match: Match = "exact") -> float | pd.Series:
    """The mean over pairs of annotators of their F1 (Prodigy's pairwise F1); with ``by=``,
    one value per group."""
    table = pairwise_f1(data, match)
    if data.groups is None:
        return float(table["f1"].mean())
    levels = list(range(data.groups.nlevels))
    means: pd.Series = table["f1"].groupby(level=levels).mean().rename("f1")
    return means


def per_label(data: SpanData, match: Match = "exact") -> pd.DataFrame:
    """Per label: the mean over pairs of annotators of their F1 on that label, and the spans
    and matches summed over the pairs (with ``by=``, per group and label)."""
    table = pairwise_f1(data, match, by_label=True)
    levels = [*(range(data.groups.nlevels) if data.groups is not None else []), -1]
    grouped = table.groupby(level=levels)
    out = pd.DataFrame(
        {
            "f1": grouped["f1"].mean(),
            "n_pairs": grouped.size(),
            "n_a": grouped["n_a"].sum(),
            "n_b": grouped["n_b"].sum(),
            "n_matched": grouped["n_matched"].sum(),
        }
    )
    return out


def items(data: SpanData, match: Match = "exact") -> pd.DataFrame:
    """Per document (for review queues): ``n_raters``, ``n_spans``, the fewest and most
    spans one annotator gave, ``f1`` (the mean over its pairs of annotators) and
    ``n_disputed``: the distinct spans (offsets and label) not every annotator gave."""
    per_doc = replace(data, group=np.arange(data.n_docs), groups=pd.RangeIndex(data.n_docs))
    pairs = pairwise_f1(per_doc, match)
    doc_of_pair = pairs.index.get_level_values(0).to_numpy()
    n_docs = data.n_docs
    with np.errstate(invalid="ignore", divide="ignore"):
        f1_sum = np.bincount(doc_of_pair, weights=pairs["f1"].to_numpy(), minlength=n_docs)
        f1 = f1_sum / np.bincount(doc_of_pair, minlength=n_docs)
    raters = np.bincount(data.doc, minlength=n_docs)
    row = data.row_of(data.span_doc, data.span_rater)  # every span has its annotated row
    own = np.bincount(row[row >= 0], minlength=len(data.doc))  # per annotated row: its spans
    fewest = np.full(n_docs, np.iinfo(np.int64).max)
    most = np.zeros(n_docs, dtype=np.int64)
    np.minimum.at(fewest, data.doc, own)
    np.maximum.at(most, data.doc, own)
    key = np.stack([data.span_doc, data.start, data.end, data.label], axis=1)
    distinct, given = np.unique(key, axis=0, return_counts=True)
    disputed = np.bincount(
        distinct[:, 0], weights=given < raters[distinct[:, 0]], minlength=n_docs
    )
    rated = raters > 0
    out = pd.DataFrame(
        {
            "n_raters": raters,
            "n_spans": np.bincount(data.span_doc, minlength=n_docs),
            "min_spans": np.where(rated, fewest, 0),
            "max_spans": most,
            "f1": np.where(raters >= 2, f1, np.nan),
            "n_disputed": disputed.astype(np.int64),
        },
        index=data.docs,
    )
    return out[rated]
