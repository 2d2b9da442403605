"""Krippendorff's unitizing alpha, ``alpha_u`` (Krippendorff 1995; 2004, "Measuring the
reliability of qualitative text analysis data").

The documents every annotator of a group annotated are laid end to end as one continuum of
length ``L`` (a document's length: ``text=``, else its furthest span end). For a label ``c``,
each of the ``m`` annotators divides the continuum into *units* (their spans of ``c``) and
*gaps* (everything else, other labels' spans included). Two sections of two annotators that
overlap are ``delta^2`` apart: two units, ``(b - b')^2 + (e - e')^2`` (their beginnings' and
ends' squared differences); a unit inside a gap, its squared length; anything else 0. Then

    D_o(c) = 2 sum_{pairs of annotators} sum_{overlapping sections} delta^2 / (m (m - 1) L^2),
    D_e(c) = (2 / L) sum_{units u} [(N_c - 1) (2 l_u^3 - 3 l_u^2 + l_u) / 3
             + l_u^2 sum_{gaps g, l_g >= l_u} (l_g - l_u + 1)]
             / (m L (m L - 1) - sum_u l_u (l_u - 1)),

with ``N_c`` units of ``c`` and the gaps of every annotator; ``alpha_c = 1 - D_o / D_e`` (0
where they are equal), and over the labels ``1 - mean D_o / mean D_e``. These are the
quantities DKPro Agreement's ``KrippendorffAlphaUnitizingAgreement`` computes (tested on
Krippendorff's 2004 example). From the units' ends alone: ``O(spans log spans)``.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from .._typing import BoolArray, FloatArray, IntArray
from .._warnings import UndefinedStatisticWarning, warn
from ._data import SpanData
from ._match import _overlap_edges

__all__ = ["alpha_u", "disagreements"]


def _continuum(data: SpanData) -> tuple[BoolArray, IntArray, FloatArray, FloatArray]:
    """The documents every annotator of their group annotated (per document), each kept
    document's offset in its group's continuum, per group the continuum's length and its
    annotators."""
    n_g = data.n_groups
    pairs = np.unique(data.group[data.doc] * data.n_raters + data.rater)
    raters_of_group = np.bincount(pairs // data.n_raters, minlength=n_g).astype(np.float64)
    per_doc = np.bincount(data.doc, minlength=data.n_docs)
    kept: BoolArray = per_doc == raters_of_group[data.group]
    length = np.where(kept, data.length, 0)
    order = np.argsort(data.group, kind="stable")  # documents by group, in their order
    ends = np.cumsum(length[order])
    group_length = np.bincount(data.group, weights=length, minlength=n_g).astype(np.float64)
    group_start = np.cumsum(group_length) - group_length
    offset = np.empty(data.n_docs, dtype=np.int64)
    offset[order] = ends - length[order] - group_start[data.group[order]].astype(np.int64)
    return kept, offset, group_length, raters_of_group


def _gap_sums(
    gaps: FloatArray, gap_key: IntArray, units: FloatArray, unit_key: IntArray
) -> FloatArray:
    """Per unit: the sum over the gaps of its key with ``g >= l`` of ``g - l + 1``."""
    order = np.lexsort((gaps, gap_key))
    g, k = gaps[order], gap_key[order]
    total = np.r_[0.0, np.cumsum(g + 1.0)]
    # the first gap of the unit's key at least as long as the unit, and the key's end
    big = float(max(g.max() if len(g) else 0.0, units.max() if len(units) else 0.0)) + 1.0
    combined = k * big + g
    first = np.searchsorted(combined, unit_key * big + units, side="left")
    stop = np.searchsorted(k, unit_key, side="right")
    count = stop - first
    return total[stop] - total[first] - count * units


def alpha_u(data: SpanData, by_label: bool = False) -> float | pd.Series | pd.DataFrame:
    """Krippendorff's unitizing alpha (see the module's docstring): over the labels, or with
    ``by_label`` one value per label (with ``by=``, per group)."""
    return _finish(data, *disagreements(data), by_label)


def disagreements(data: SpanData) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Per (group, label): ``D_o``, ``D_e`` and the number of units, (groups, labels)."""
    kept, offset, length, m = _continuum(data)
    n_l = max(data.n_labels, 1)
    keep_span = kept[data.span_doc]
    sub = replace(
        data,
        span_doc=data.span_doc[keep_span],
        span_rater=data.span_rater[keep_span],
        start=data.start[keep_span],
        end=data.end[keep_span],
        label=data.label[keep_span],
    )
    group = sub.group[sub.span_doc]
    begin = (offset[sub.span_doc] + sub.start).astype(np.float64)
    end = (offset[sub.span_doc] + sub.end).astype(np.float64)
    size = end - begin
    key = group * n_l + sub.label  # (group, label)
    n_keys = data.n_groups * n_l
    mg = m[group]
    # observed: overlapping units of two annotators, and units no unit of another overlaps
    u, v, _ = _overlap_edges(sub)
    pair_sum = np.bincount(
        key[u], weights=(begin[u] - begin[v]) ** 2 + (end[u] - end[v]) ** 2, minlength=n_keys
    )
    touched = np.unique(
        np.r_[u * data.n_raters + sub.span_rater[v], v * data.n_raters + sub.span_rater[u]]
    )
    overlapped = np.bincount(touched // data.n_raters, minlength=len(size))
    alone = np.bincount(key, weights=size**2 * (mg - 1.0 - overlapped), minlength=n_keys)
    key_group = np.arange(n_keys) // n_l
    lk, mk = length[key_group], m[key_group]
    with np.errstate(invalid="ignore", divide="ignore"):
        d_o = 2.0 * (pair_sum + alone) / (mk * (mk - 1.0) * lk * lk)
    # expected: the units against every annotator's gaps
    n_c = np.bincount(key, minlength=n_keys).astype(np.float64)
    squares = np.bincount(key, weights=size * (size - 1.0), minlength=n_keys)
    order = np.lexsort((begin, sub.span_rater, key))
    kk, rr, bb, ee = key[order], sub.span_rater[order], begin[order], end[order]
    run_start = np.r_[True, (kk[1:] != kk[:-1]) | (rr[1:] != rr[:-1])]
    run_end = np.r_[run_start[1:], True]
    inner = np.where(run_start, bb, bb - np.r_[0.0, ee[:-1]])  # before each unit
    trailing = lk[kk[run_end]] - ee[run_end]  # after each annotator's last unit
    gaps = np.r_[inner, trailing]
    gap_key = np.r_[kk, kk[run_end]]
    with_units = np.bincount(kk[run_start], minlength=n_keys)
    empty = mk - with_units  # annotators without a unit of the label: one gap of L
    gaps = np.r_[gaps, np.repeat(lk, empty.astype(np.int64))]
    gap_key = np.r_[gap_key, np.repeat(np.arange(n_keys), empty.astype(np.int64))]
    positive = gaps > 0
    beyond = _gap_sums(gaps[positive], gap_key[positive], size, key)
    per_unit = (n_c[key] - 1.0) * (2.0 * size**3 - 3.0 * size**2 + size) / 3.0 + size**2 * beyond
    with np.errstate(invalid="ignore", divide="ignore"):
        d_e = (
            (2.0 / lk)
            * np.bincount(key, weights=per_unit, minlength=n_keys)
            / (mk * lk * (mk * lk - 1.0) - squares)
        )
    return d_o.reshape(-1, n_l), d_e.reshape(-1, n_l), n_c.reshape(-1, n_l)


def _alpha(d_o: FloatArray, d_e: FloatArray) -> FloatArray:
    with np.errstate(invalid="ignore", divide="ignore"):
        out: FloatArray = np.where(d_o == d_e, 0.0, 1.0 - d_o / d_e)
    return out


def _finish(
    data: SpanData, d_o: FloatArray, d_e: FloatArray, n_c: FloatArray, by_label: bool
) -> float | pd.Series | pd.DataFrame:
    if by_label:
        values = np.where(n_c > 0, _alpha(d_o, d_e), np.nan)
        labels = data.labels
        if data.groups is None:
            return pd.Series(values[0], index=labels, name="alpha_u")
        return pd.DataFrame(values, index=data.groups, columns=labels)
    used = n_c > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_o = np.where(used, d_o, 0.0).sum(axis=1) / used.sum(axis=1)
        mean_e = np.where(used, d_e, 0.0).sum(axis=1) / used.sum(axis=1)
    value = _alpha(mean_o, mean_e)
    value = np.where(used.any(axis=1), value, np.nan)
    if np.isnan(value).any():
        warn(
            "`alpha_u()` is undefined where no annotator marked a span (nan).",
            UndefinedStatisticWarning,
        )
    if data.groups is None:
        return float(value[0])
    return pd.Series(value, index=data.groups, name="alpha_u")
