"""Each annotator's part of the agreement: nominal alpha without them, their observed
agreement and their kappa against the others' majority, for every annotator at once.

Inputs are per annotation: ``item``, ``key`` (the annotator, with ``by=`` one key per group
and annotator) and ``code``; ``group`` is per item and ``key_group`` per key.

Nominal alpha from the coincidences (Krippendorff 2011, as in :mod:`.alpha`): with ``n_c`` the
pairable values in category ``c`` and ``n = sum_c n_c``, and the matched coincidences
``o_cc = sum_i n_ic (n_ic - 1) / (m_i - 1)`` over the items with ``m_i >= 2`` values,

    alpha = 1 - (n - 1) (n - sum_c o_cc) / (n^2 - sum_c n_c^2).

Removing annotator ``j`` changes only the items ``j`` rated: an item with ``m_i >= 3`` values
loses one value of ``j``'s category ``l`` (its ``sum_c n_ic (n_ic - 1)`` falls by
``2 (n_il - 1)`` and its divisor becomes ``m_i - 2``); an item with two values stops being
pairable. Both are sums over ``j``'s annotations, so every annotator's alpha comes from one
``np.bincount`` per quantity: no (annotators, items) table and no recount.
"""

from __future__ import annotations

import numpy as np

from ._typing import FloatArray, IntArray, as_float

__all__ = ["nominal_alpha_without", "observed_share", "vs_rest"]


def nominal_alpha_without(
    nik: FloatArray,
    item: IntArray,
    key: IntArray,
    code: IntArray,
    group: IntArray,
    key_group: IntArray,
    n_groups: int,
) -> tuple[FloatArray, FloatArray]:
    """Nominal alpha per group (G,), and per key without that key's annotations (keys,),
    from the item counts ``nik`` (n_items, K); nan where it is undefined (fewer than two
    pairable values, or one category)."""
    n_keys = len(key_group)
    k = nik.shape[1]
    m = nik.sum(axis=1)
    matched = (nik * (nik - 1.0)).sum(axis=1)
    pairable = m >= 2
    with np.errstate(invalid="ignore", divide="ignore"):
        item_trace = np.where(pairable, matched / (m - 1.0), 0.0)
    n_c = as_float(
        np.bincount(
            group[item] * k + code,
            weights=pairable[item].astype(np.float64),
            minlength=n_groups * k,
        )
    ).reshape(n_groups, k)
    trace = as_float(np.bincount(group, weights=item_trace, minlength=n_groups))
    # Each annotation's removal: the item's matched coincidences before and after.
    mi = m[item]
    nil = nik[item, code]
    after_matched = matched[item] - 2.0 * (nil - 1.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        after = np.where(mi >= 3, after_matched / (mi - 2.0), 0.0)
    drop_trace = as_float(np.bincount(key, weights=item_trace[item] - after, minlength=n_keys))
    # ... and the pairable values it takes away: its own (m >= 3) or the whole item's (m = 2).
    drop = as_float(
        np.bincount(key * k + code, weights=(mi >= 3).astype(np.float64), minlength=n_keys * k)
    ).reshape(n_keys, k)
    two = np.flatnonzero(mi == 2)
    if len(two):
        cells = (key[two, None] * k + np.arange(k)).ravel()
        drop += np.bincount(cells, weights=nik[item[two]].ravel(), minlength=n_keys * k).reshape(
            n_keys, k
        )
    return _alpha(n_c, trace), _alpha(n_c[key_group] - drop, trace[key_group] - drop_trace)


def _alpha(n_c: FloatArray, trace: FloatArray) -> FloatArray:
    n = n_c.sum(axis=1)
    expected = n * n - (n_c * n_c).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        out: FloatArray = np.where(
            (n >= 2) & (expected > 0), 1.0 - (n - 1.0) * (n - trace) / expected, np.nan
        )
    return out


def observed_share(
    nik: FloatArray, item: IntArray, key: IntArray, code: IntArray, n_keys: int
) -> FloatArray:
    """Per key, the mean over its annotations on items with another value of the share of
    the item's other values that equal its own: ``(n_il - 1) / (m_i - 1)``."""
    m = nik.sum(axis=1)[item]
    pairable = m >= 2
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(pairable, (nik[item, code] - 1.0) / (m - 1.0), 0.0)
        out: FloatArray = np.bincount(key, weights=share, minlength=n_keys) / np.bincount(
            key, weights=pairable.astype(np.float64), minlength=n_keys
        )
    return out


def _others_plurality(nik: FloatArray, item: IntArray, code: IntArray) -> IntArray:
    """Per annotation, the category most of the item's *other* values take; -1 where they
    tie or there are none. From each item's three largest counts, in O(annotations)."""
    k = nik.shape[1]
    top = np.argmax(nik, axis=1)
    v1 = nik[np.arange(len(nik)), top]
    rest = nik.copy()
    rest[np.arange(len(nik)), top] = -1.0
    second = np.argmax(rest, axis=1)
    v2 = np.maximum(rest[np.arange(len(nik)), second], 0.0)
    v3 = np.sort(nik, axis=1)[:, -3] if k >= 3 else np.zeros(len(nik))
    c1, c2, a1, a2, a3 = top[item], second[item], v1[item], v2[item], v3[item]
    own_top = code == c1
    # The annotation's own category is the item's first: it loses one value.
    first_wins = own_top & (a1 - 1.0 > a2)
    second_wins = own_top & (a1 - 1.0 < a2) & (a2 > a3)
    # Otherwise the first keeps its count; a tie with the second survives unless the second
    # is the annotation's own category (and no third ties).
    kept = ~own_top & ((a2 < a1) | ((code == c2) & (a3 < a1)))
    out = np.full(len(item), -1, dtype=np.int64)
    out[first_wins | kept] = c1[first_wins | kept]
    out[second_wins] = c2[second_wins]
    out[a1 + a2 + a3 <= 1.0] = -1  # defensive: nobody else rated the item
    return out


def vs_rest(
    nik: FloatArray, item: IntArray, key: IntArray, code: IntArray, n_keys: int
) -> tuple[FloatArray, FloatArray]:
    """Per key, Cohen's kappa of its labels against the plurality of the other annotators'
    labels on the same item (items where the others tie, or that nobody else rated, left
    out), and the number of items compared."""
    k = nik.shape[1]
    majority = _others_plurality(nik, item, code)
    valid = majority >= 0
    table = np.bincount(
        ((key * k + code) * k + majority)[valid], minlength=n_keys * k * k
    ).reshape(n_keys, k, k)
    total = table.sum(axis=(1, 2)).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        p_o = np.trace(table, axis1=1, axis2=2) / total
        p_e = (table.sum(axis=2) * table.sum(axis=1)).sum(axis=1) / (total * total)
        kappa: FloatArray = np.where(p_e < 1.0, (p_o - p_e) / (1.0 - p_e), np.nan)
    return kappa, total
