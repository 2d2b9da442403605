"""Matching two annotators' spans, for every pair of annotators at once.

For each pair of annotators ``a < b`` (codes) and each document both annotated, ``a``'s spans
are compared with ``b``'s: ``exact`` matches have the same start, end and label; ``overlap``
matches have the same label and share at least one character, each span matched at most once,
greedily by the largest overlap (ties: the earlier span of ``a``, then of ``b``). The greedy
matching of every pair is computed at once: an edge that is the best remaining edge of both
its spans is taken, their other edges dropped, and so on until no edge is left (the
locally-dominant edges are the greedy algorithm's choices, in another order).

The counts come per (group, a, b, label) *key*: ``n_a`` and ``n_b`` (the spans each annotator
gave in the documents both annotated) and ``n_matched``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from .._typing import IntArray
from ._data import SpanData

__all__ = ["Match", "PairCounts", "pair_counts"]

Match = Literal["exact", "overlap"]


@dataclass(frozen=True)
class PairCounts:
    """Per (group, a, b, label) key that occurs: the key's parts and the three counts."""

    group: IntArray
    a: IntArray
    b: IntArray
    label: IntArray
    n_a: IntArray
    n_b: IntArray
    n_matched: IntArray


def _segments(keys: IntArray) -> tuple[IntArray, IntArray]:
    """For sorted ``keys``: per element, the start and the stop of its run of equal keys."""
    n = len(keys)
    new = np.r_[True, keys[1:] != keys[:-1]] if n else np.zeros(0, bool)
    first = np.flatnonzero(new)
    stops = np.r_[first[1:], n]
    run = np.cumsum(new) - 1
    return first[run], stops[run]


def _codes(keys: IntArray) -> IntArray:
    """``keys`` numbered 0..n-1 in sorted order (equal keys, one number)."""
    out: IntArray = np.unique(keys, return_inverse=True)[1].reshape(-1)
    return out


def _partners(data: SpanData) -> tuple[IntArray, IntArray]:
    """Every (span, other annotator of its document): the span and the partner's code."""
    n_r = data.n_raters
    order = np.argsort(data.doc * n_r + data.rater, kind="stable")
    row_doc, row_rater = data.doc[order], data.rater[order]
    count = np.bincount(row_doc, minlength=data.n_docs)
    first = np.cumsum(count) - count
    per_span = count[data.span_doc]
    span = np.repeat(np.arange(len(data.span_doc)), per_span)
    offset = np.arange(len(span)) - np.repeat(np.cumsum(per_span) - per_span, per_span)
    partner = row_rater[first[data.span_doc][span] + offset]
    keep = partner != data.span_rater[span]
    return span[keep], partner[keep]


def _exact_edges(data: SpanData) -> tuple[IntArray, IntArray]:
    """Pairs of spans (of two annotators) with the same document, offsets and label."""
    key = np.stack([data.span_doc, data.start, data.end, data.label, data.span_rater], axis=1)
    order = np.lexsort(key.T[::-1])
    same = np.all(key[order][1:, :4] == key[order][:-1, :4], axis=1)
    first = np.flatnonzero(np.r_[True, ~same])
    sizes = np.diff(np.r_[first, len(order)])
    x, y = _pairs_within(sizes)
    return order[x], order[y]


def _pairs_within(sizes: IntArray) -> tuple[IntArray, IntArray]:
    """Every pair ``(x, y)``, ``x < y``, of positions within consecutive runs of ``sizes``."""
    n = int(sizes.sum())
    run = np.repeat(np.arange(len(sizes)), sizes)
    start = np.cumsum(sizes) - sizes
    later = sizes[run] - (np.arange(n) - start[run]) - 1
    first = np.repeat(np.arange(n, dtype=np.int64), later)
    step = np.arange(len(first), dtype=np.int64) - np.repeat(np.cumsum(later) - later, later)
    return first, first + 1 + step


def _overlap_edges(data: SpanData) -> tuple[IntArray, IntArray, IntArray]:
    """Pairs of spans of two annotators with the same document and label that share a
    character, and their overlaps: one sweep over the spans sorted by start."""
    segment = data.span_doc * max(data.n_labels, 1) + data.label
    order = np.lexsort((data.start, segment))
    seg, st, en = segment[order], data.start[order], data.end[order]
    _, stop = _segments(seg)
    # Within its (document, label), a span overlaps the later spans that start before its end.
    big = int(en.max()) + 1 if len(en) else 1
    combined = seg * big + st
    reach = np.minimum(np.searchsorted(combined, seg * big + en, side="left"), stop)
    later = np.maximum(reach - np.arange(len(order)) - 1, 0)
    x = np.repeat(np.arange(len(order)), later)
    y = x + 1 + (np.arange(len(x)) - np.repeat(np.cumsum(later) - later, later))
    overlap = np.minimum(en[x], en[y]) - st[y]
    u, v = order[x], order[y]
    keep = data.span_rater[u] != data.span_rater[v]
    return u[keep], v[keep], overlap[keep]


def _greedy(
    u: IntArray, v: IntArray, overlap: IntArray, data: SpanData
) -> tuple[IntArray, IntArray]:
    """The greedy matchings (largest overlap first) of every pair of annotators at once."""
    # orient each edge as (span of a, span of b), a < b
    flip = data.span_rater[u] > data.span_rater[v]
    u, v = np.where(flip, v, u), np.where(flip, u, v)
    # the annotator pairs numbered 0..P-1 (P <= edges): node keys stay far below 2**63
    pair = _codes(data.span_rater[u] * data.n_raters + data.span_rater[v])
    rank = np.lexsort((data.start[v], data.start[u], -overlap))  # best edges first
    u, v, pair = u[rank], v[rank], pair[rank]
    n_spans = len(data.start)
    node_u, node_v = pair * n_spans + u, pair * n_spans + v
    taken_u: list[IntArray] = []
    alive = np.arange(len(u))
    while len(alive):
        nu, nv = node_u[alive], node_v[alive]
        best_u = np.zeros(len(alive), dtype=bool)
        best_u[np.unique(nu, return_index=True)[1]] = True  # first alive edge of each span
        best_v = np.zeros(len(alive), dtype=bool)
        best_v[np.unique(nv, return_index=True)[1]] = True
        chosen = alive[best_u & best_v]
        taken_u.append(chosen)
        used_u, used_v = node_u[chosen], node_v[chosen]
        alive = alive[~(np.isin(nu, used_u) | np.isin(nv, used_v))]
    picked = np.concatenate(taken_u) if taken_u else np.zeros(0, dtype=np.int64)
    return u[picked], v[picked]


def pair_counts(data: SpanData, match: Match) -> PairCounts:
    """``n_a``, ``n_b`` and ``n_matched`` per (group, a, b, label) key."""
    if match not in ("exact", "overlap"):
        raise ValueError(f"`match` must be 'exact' or 'overlap'; got {match!r}.")
    n_r, n_l = data.n_raters, max(data.n_labels, 1)
    span, partner = _partners(data)
    own = data.span_rater[span]
    first_side = own < partner
    if match == "exact":
        u, v = _exact_edges(data)
    else:
        u, v = _greedy(*_overlap_edges(data), data)
    # (group, a, b, label) of every count, as (group, pair) codes and a label: the pairs
    # that occur are numbered first, so the packed keys stay below 2**63 however many
    # groups and annotators (group x annotators^2 x labels would not)
    a = np.r_[np.minimum(own, partner), np.minimum(data.span_rater[u], data.span_rater[v])]
    b = np.r_[np.maximum(own, partner), np.maximum(data.span_rater[u], data.span_rater[v])]
    pairs, pair = np.unique(a * n_r + b, return_inverse=True)
    group = np.r_[data.span_group[span], data.span_group[u]]
    label = np.r_[data.label[span], data.label[u]]
    keys, inverse = np.unique(
        (group * len(pairs) + pair.reshape(-1)) * n_l + label, return_inverse=True
    )
    inverse = inverse.reshape(-1)
    m = len(keys)
    n_count = len(span)
    n_a = np.bincount(inverse[:n_count], weights=first_side, minlength=m)
    n_b = np.bincount(inverse[:n_count], weights=~first_side, minlength=m)
    n_matched = np.bincount(inverse[n_count:], minlength=m)
    rest, label_code = np.divmod(keys, n_l)
    group_code, pair_code = np.divmod(rest, max(len(pairs), 1))
    a_code, b_code = np.divmod(pairs[pair_code], n_r)
    return PairCounts(
        group_code,
        a_code,
        b_code,
        label_code,
        n_a.astype(np.int64),
        n_b.astype(np.int64),
        n_matched.astype(np.int64),
    )
