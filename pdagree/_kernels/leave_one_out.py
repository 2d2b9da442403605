"""Each annotator's part of the agreement: nominal alpha without them, their observed
agreement and their kappa against the others' plurality, for every annotator at once.

Inputs are per annotation: ``item``, ``key`` (the annotator, with ``by=`` one key per group
and annotator) and ``code``; ``group`` is per item and ``key_group`` per key; ``nik`` the
(items, K) counts.

Nominal alpha from the coincidences (Krippendorff 2011, as in :mod:`.alpha`): with ``n_c`` the
pairable values in category ``c`` and ``n = sum_c n_c``, and the matched coincidences
``o_cc = sum_i n_ic (n_ic - 1) / (m_i - 1)`` over the items with ``m_i >= 2`` values,

    alpha = 1 - (n - 1) (n - sum_c o_cc) / (n^2 - sum_c n_c^2).

Removing annotator ``j`` changes only the items ``j`` rated: an item with ``m_i >= 3`` values
loses one value of ``j``'s category ``l`` (its ``sum_c n_ic (n_ic - 1)`` falls by
``2 (n_il - 1)`` and its divisor becomes ``m_i - 2``); an item with two values stops being
pairable, losing ``j``'s value and the other one. Everything an annotation contributes is a
function of its *cell* (item, category), so each quantity is computed once per cell and
gathered once per annotation, then summed per key by ``np.bincount``: no (annotators, items)
table and no recount.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._typing import FloatArray, IntArray, as_float
from .rows import first_true, row_max, row_sum

__all__ = ["AnnotatorParts", "annotator_parts", "others_plurality"]


class AnnotatorParts(NamedTuple):
    """Per group the nominal alpha (G,); per key (keys,): alpha without the key, the mean
    share of the others' values on its items that equal its own, Cohen's kappa against the
    others' plurality and the number of items in that comparison."""

    alpha: FloatArray
    without: FloatArray
    observed: FloatArray
    vs_rest: FloatArray
    n_vs_rest: FloatArray


def _alpha(n_c: FloatArray, trace: FloatArray) -> FloatArray:
    n = n_c.sum(axis=1)
    expected = n * n - (n_c * n_c).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        out: FloatArray = np.where(
            (n >= 2) & (expected > 0), 1.0 - (n - 1.0) * (n - trace) / expected, np.nan
        )
    return out


def others_plurality(nik: FloatArray) -> IntArray:
    """Per cell (item, category l), flattened: the category most of the item's *other*
    values take once one value ``l`` is removed; -1 where they tie or there are none.

    With ``M`` an item's largest count, held by ``n_top`` categories (the first two ``t1``,
    ``t2``), and ``S`` its largest count below ``M``, held by ``n_second`` categories (the
    first ``s1``): removing a value of a top category leaves ``M - 1`` there, so the others'
    plurality is the other top category if there were exactly two, ``l`` itself if
    ``M - 1 > S`` and ``s1`` if ``M - 1 < S`` with ``s1`` alone; removing any other value
    leaves the top alone if it was alone. Column passes only, O(items x K)."""
    k = nik.shape[1]
    top = row_max(nik)
    is_top = nik == top[:, None]
    n_top = row_sum(is_top.astype(np.float64))
    t1 = first_true(is_top)
    later = is_top.copy()
    later[np.arange(len(nik)), t1] = False
    t2 = first_true(later)
    below = np.where(is_top, -1.0, nik)
    second = np.maximum(row_max(below), 0.0)
    is_second = (nik == second[:, None]) & ~is_top & (second[:, None] > 0)
    n_second = row_sum(is_second.astype(np.float64))
    s1 = first_true(is_second)
    label = np.arange(k)[None, :]
    m1 = (top - 1.0)[:, None]
    sec = second[:, None]
    out = np.where(
        is_top,
        np.where(
            n_top[:, None] == 2,
            np.where(label == t1[:, None], t2[:, None], t1[:, None]),  # the other top one
            np.where(
                n_top[:, None] > 2,
                -1,
                np.where(
                    m1 > sec,
                    label,
                    np.where((m1 < sec) & (n_second[:, None] == 1), s1[:, None], -1),
                ),
            ),
        ),
        np.where(n_top[:, None] == 1, t1[:, None], -1),
    )
    out[(top + second <= 1.0) & (n_top == 1)] = -1  # nobody else rated the item
    return out.ravel().astype(np.int64)


def annotator_parts(
    nik: FloatArray,
    item: IntArray,
    key: IntArray,
    code: IntArray,
    group: IntArray,
    key_group: IntArray,
    n_groups: int,
) -> AnnotatorParts:
    """Every key's :class:`AnnotatorParts` (see the module's notes)."""
    n_keys = len(key_group)
    k = nik.shape[1]
    m = row_sum(nik)
    matched = row_sum(nik * (nik - 1.0))
    pairable = m >= 2
    with np.errstate(invalid="ignore", divide="ignore"):
        item_trace = np.where(pairable, matched / (m - 1.0), 0.0)
        # Per cell: the item's matched coincidences lost when one value of the cell's
        # category goes, and the share of the item's other values that equal it.
        after = np.where(
            m[:, None] >= 3, (matched[:, None] - 2.0 * (nik - 1.0)) / (m[:, None] - 2.0), 0.0
        )
        lost = (item_trace[:, None] - after).ravel()
        share = np.where(pairable[:, None], (nik - 1.0) / (m[:, None] - 1.0), 0.0).ravel()
    size = np.minimum(m, 3).astype(np.int8)  # 0, 1, 2 or "3 or more" values
    plurality = others_plurality(nik) + 1  # 0: none; c + 1: category c
    cell = item * k + code
    in_item = np.take(size, item)
    majority = np.take(plurality, cell)
    two_or_more = (in_item >= 2).astype(np.float64)
    key_code = key * k + code
    # Full alpha per group, from the items' counts.
    counted = nik * pairable[:, None]
    cells = (group[:, None] * k + np.arange(k)).ravel()
    n_c = as_float(np.bincount(cells, weights=counted.ravel(), minlength=n_groups * k))
    n_c = n_c.reshape(n_groups, k)
    trace = as_float(np.bincount(group, weights=item_trace, minlength=n_groups))
    # Without each key: its values go, and with an item of two values the other one too
    # (the others' plurality of such an item is that other value).
    drop = as_float(np.bincount(key_code, weights=two_or_more, minlength=n_keys * k))
    other = np.bincount(
        key * (k + 1) + majority, weights=(in_item == 2), minlength=n_keys * (k + 1)
    )
    drop = drop.reshape(n_keys, k) + other.reshape(n_keys, k + 1)[:, 1:]
    drop_trace = as_float(np.bincount(key, weights=np.take(lost, cell), minlength=n_keys))
    without = _alpha(n_c[key_group] - drop, trace[key_group] - drop_trace)
    # Observed: the mean share over the key's values on items with another value.
    with np.errstate(invalid="ignore", divide="ignore"):
        observed = np.bincount(key, weights=np.take(share, cell), minlength=n_keys) / np.bincount(
            key, weights=two_or_more, minlength=n_keys
        )
    # Kappa against the others' plurality, from each key's K x K table (column 0: none).
    table = np.bincount(key_code * (k + 1) + majority, minlength=n_keys * k * (k + 1))
    table = table.reshape(n_keys, k, k + 1)[:, :, 1:]
    total = table.sum(axis=(1, 2)).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        p_o = np.trace(table, axis1=1, axis2=2) / total
        p_e = (table.sum(axis=2) * table.sum(axis=1)).sum(axis=1) / (total * total)
        kappa: FloatArray = np.where(p_e < 1.0, (p_o - p_e) / (1.0 - p_e), np.nan)
    return AnnotatorParts(_alpha(n_c, trace), without, as_float(observed), kappa, total)
