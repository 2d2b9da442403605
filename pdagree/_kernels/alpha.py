"""Kernels for Krippendorff's alpha: observed and expected disagreement of pairable values.

Symbols (Krippendorff 2011, "Computing Krippendorff's alpha-reliability"): an item (unit) ``u``
with ``m_u >= 2`` values is *pairable*; the others do not count. ``n_uc`` is the number of
values ``c`` in item ``u``. The coincidences are
``o_ck = sum_u (number of c-k pairs in u) / (m_u - 1)``, their marginals
``n_c = sum_k o_ck = sum_u n_uc`` and ``n = sum_c n_c``. With a metric ``delta2_ck``
(``delta2_cc = 0``, symmetric),

    D_o = (1 / n) sum_ck o_ck delta2_ck
    D_e = 1 / (n (n - 1)) sum_ck n_c n_k delta2_ck
    alpha = 1 - D_o / D_e.

No (K, K) coincidence matrix, no (items, K) table and no (items, K, K) temporary is formed: the
pairable values are reduced to sparse ``(item, category)`` counts ``n_uc`` and sparse
``(group, category)`` marginals ``n_gc`` (one ``np.unique`` each), and

- nominal: ``sum_ck n_c n_k [c != k] = n^2 - sum_c n_c^2`` (and the same per item), O(E);
- interval, and ordinal on mid-ranks: ``delta2_ck = (x_c - x_k)^2``, so
  ``sum_ck n_c n_k delta2_ck = 2 n sum_c n_c (x_c - xbar)^2`` (and the same per item), O(E).
  Krippendorff's ordinal metric
  ``delta2_ck = (sum_{g=c..k} n_g - (n_c + n_k) / 2)^2`` equals ``(M_k - M_c)^2`` with the
  mid-rank ``M_c = sum_{g<=c} n_g - n_c / 2`` of the pooled value frequencies;
- any other metric (ratio, a user matrix or callable): an exact sum over the pairs of
  distinct values within each item and each group, in chunks of at most ``budget`` pairs,
  so memory stays O(E + budget) while time is O(sum_u d_u^2 + sum_g V_g^2) for ``d_u``
  distinct values in item ``u`` and ``V_g`` in group ``g``.

Here ``E`` is the number of annotations. Items carry a group code, so one call computes every
``by=`` group. Kernels never validate, warn or touch pandas.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from math import isqrt
from typing import NamedTuple

import numpy as np

from ._typing import BoolArray, FloatArray, IntArray
from .key_counts import distinct_keys, entry_counts

__all__ = [
    "DEFAULT_BUDGET",
    "AlphaComponents",
    "Delta2",
    "Interval",
    "Metric",
    "Nominal",
    "Ordinal",
    "PairableValues",
    "Pairwise",
    "alpha_components",
    "alpha_from_disagreement",
    "item_disagreement",
    "matrix_delta2",
    "midranks",
    "pairable_values",
    "ratio_delta2",
]

Delta2 = Callable[[IntArray, IntArray], FloatArray]
"""``delta2(a, b)``: the squared difference of categories with codes ``a`` and ``b``.

The arrays broadcast against each other (a column against a row in the blocked sums); the
result has their broadcast shape."""

DEFAULT_BUDGET = 1 << 17
"""Most value pairs evaluated at once by the pairwise sums (1 MiB per float array)."""

_DENSE_SEGMENT = 512  # segments longer than this are summed in dense blocks


@dataclass(frozen=True)
class Nominal:
    """``delta2_ck = [c != k]``."""


@dataclass(frozen=True)
class Ordinal:
    """Krippendorff's ordinal metric on the category order (codes), from the pooled frequencies."""


@dataclass(frozen=True)
class Interval:
    """``delta2_ck = (x_c - x_k)^2`` on the category values ``values`` (shape (K,))."""

    values: FloatArray


@dataclass(frozen=True)
class Pairwise:
    """Any other metric, evaluated pair by pair (ratio, a user matrix or callable).

    ``extremes``: the category values, when ``delta2`` is largest between the lowest and the
    highest value present (Krippendorff's ratio metric on non-negative values), so its
    maximum needs one pair per group; ``None`` to search every pair.

    ``ceiling``: a value ``delta2`` never exceeds (1 for distances between sets), so that the
    search for the largest distance stops once every group has a pair at it; ``None``: none.
    """

    delta2: Delta2
    extremes: FloatArray | None = None
    ceiling: float | None = None


Metric = Nominal | Ordinal | Interval | Pairwise


class PairableValues(NamedTuple):
    """The pairable values as sparse counts.

    Entries (one per item and category present, sorted by item then code): ``item``,
    ``code``, ``frequency`` (``n_uc``), ``value_index`` (the entry's row in the value table).
    The value table (one row per group and category present, sorted by group then code):
    ``value_group``, ``value_code``, ``value_frequency`` (``n_gc``). Per item (every item):
    ``total`` (``m_u``), ``pairable`` and ``group``. Per group: ``n_items`` (pairable items)
    and ``n_values`` (``n``).
    """

    item: IntArray
    code: IntArray
    frequency: FloatArray
    value_index: IntArray
    value_group: IntArray
    value_code: IntArray
    value_frequency: FloatArray
    total: FloatArray
    pairable: BoolArray
    group: IntArray
    n_items: FloatArray
    n_values: FloatArray


class AlphaComponents(NamedTuple):
    """Per group: ``D_o``, ``D_e``, pairable items, pairable values ``n`` and the largest
    ``delta2`` between two categories present among the pairable values (0 with fewer than
    two categories present)."""

    observed_disagreement: FloatArray
    expected_disagreement: FloatArray
    n_items: FloatArray
    n_values: FloatArray
    max_delta2: FloatArray


# --------------------------------------------------------------------------- counting


def pairable_values(
    item: IntArray,
    code: IntArray,
    weight: FloatArray,
    group: IntArray,
    n_groups: int,
    n_categories: int,
) -> PairableValues:
    """Reduce annotations to the sparse counts of the pairable values.

    ``item``, ``code``, ``weight``: per annotation (``weight`` is how many annotations the
    entry stands for); ``group``: per item. Items with ``m_u = sum weight < 2`` are dropped.

    >>> import numpy as np
    >>> pv = pairable_values(np.array([0, 0, 0, 1]), np.array([2, 0, 2, 1]),
    ...                      np.ones(4), np.array([0, 0]), 1, 3)
    >>> pv.code.tolist(), pv.frequency.tolist(), pv.n_items.tolist(), pv.n_values.tolist()
    ([0, 2], [1.0, 2.0], [1.0], [3.0])
    """
    n_items = len(group)
    width = max(n_categories, 1)
    total = np.bincount(item, weights=weight, minlength=n_items).astype(np.float64)
    pairable = total >= 2
    keep = pairable[item]
    if not keep.all():  # every item pairable (the usual case): no copy of the annotations
        item, code, weight = item[keep], code[keep], weight[keep]
    del keep
    key = item * width
    key += code
    entries, count = entry_counts(key, weight, n_items * width)
    del key
    e_item, e_code = np.divmod(entries, width)
    del entries
    value_key = group[e_item] * width
    value_key += e_code
    values, value_index = distinct_keys(value_key, n_groups * width)
    del value_key
    value_frequency = np.bincount(value_index, weights=count, minlength=len(values))
    value_group = values // width
    n_pairable = np.bincount(group, weights=pairable.astype(np.float64), minlength=n_groups)
    n_values = np.bincount(value_group, weights=value_frequency, minlength=n_groups)
    return PairableValues(
        item=e_item.astype(np.int64, copy=False),
        code=e_code.astype(np.int64, copy=False),
        frequency=count.astype(np.float64, copy=False),
        value_index=value_index,
        value_group=value_group.astype(np.int64),
        value_code=(values % width).astype(np.int64),
        value_frequency=value_frequency.astype(np.float64),
        total=total,
        pairable=pairable,
        group=group,
        n_items=n_pairable.astype(np.float64),
        n_values=n_values.astype(np.float64),
    )


def midranks(pv: PairableValues) -> FloatArray:
    """Per row of the value table: ``M_c = sum_{g<=c} n_g - n_c / 2`` within its group.

    Krippendorff's ordinal ``delta2_ck = (sum_{g=c..k} n_g - (n_c + n_k) / 2)^2`` is
    ``(M_k - M_c)^2``, so ordinal alpha is interval alpha on these mid-ranks.
    """
    counts = pv.value_frequency
    if len(counts) == 0:
        return np.zeros(0)
    cumulative = np.cumsum(counts)
    starts = _segment_starts(pv.value_group)
    before = cumulative[starts] - counts[starts]  # values of earlier groups
    first = np.repeat(before, np.diff(np.r_[starts, len(counts)]))
    return np.asarray(cumulative - first - counts / 2.0, dtype=np.float64)


# --------------------------------------------------------------------------- sums


def _segment_starts(segment: IntArray) -> IntArray:
    """Positions where a run of equal (sorted) segment codes begins."""
    if len(segment) == 0:
        return np.zeros(0, dtype=np.int64)
    change = np.flatnonzero(segment[1:] != segment[:-1]) + 1
    return np.concatenate(([0], change)).astype(np.int64)


def _spread(x: FloatArray, count: FloatArray, segment: IntArray, n_segments: int) -> FloatArray:
    """Per segment: ``sum_e count_e (x_e - xbar)^2`` with ``xbar`` the weighted mean.

    Values are first shifted by the segment's first value, so a segment of equal values gives
    exactly 0 and large offsets do not cancel.
    """
    if len(x) == 0:
        return np.zeros(n_segments)
    starts = _segment_starts(segment)
    reference = np.zeros(n_segments)
    reference[segment[starts]] = x[starts]
    shifted = x - reference[segment]
    weight = np.bincount(segment, weights=count, minlength=n_segments)
    moment = np.bincount(segment, weights=count * shifted, minlength=n_segments)
    mean = moment / np.where(weight > 0, weight, 1.0)
    deviation = shifted - mean[segment]
    spread = np.bincount(segment, weights=count * deviation * deviation, minlength=n_segments)
    return spread.astype(np.float64)


def _pair_rows(first: int, stop: IntArray, budget: int) -> Iterator[tuple[IntArray, IntArray]]:
    """Index pairs ``(a, b)``, ``first <= a < b < stop[a - first]``, in chunks of ~``budget``.

    ``stop[a - first]`` ends the segment of entry ``a``. A chunk holds whole rows, so a chunk
    exceeds ``budget`` only when one row does.
    """
    rows = np.arange(first, first + len(stop), dtype=np.int64)
    cost = stop - rows - 1
    cumulative = np.cumsum(cost)
    begin = 0
    while begin < len(rows):
        done = int(cumulative[begin - 1]) if begin else 0
        end = max(int(np.searchsorted(cumulative, done + budget, side="right")), begin + 1)
        c = cost[begin:end]
        a = np.repeat(rows[begin:end], c)
        offset = np.repeat(np.cumsum(c) - c, c)
        b = a + 1 + (np.arange(len(a), dtype=np.int64) - offset)
        yield a, b
        begin = end


def _pair_sums(
    segment: IntArray,
    code: IntArray,
    count: FloatArray,
    n_segments: int,
    delta2: Delta2,
    budget: int,
) -> FloatArray:
    """Per segment: ``sum_{a<b} count_a count_b delta2(code_a, code_b)`` over entry pairs.

    Entries are sorted by ``segment``. Short segments are paired through flat index arrays
    (many segments per chunk); long ones in dense square tiles of about ``budget`` pairs.
    """
    out = np.zeros(n_segments)
    n = len(segment)
    if n == 0:
        return out
    starts = _segment_starts(segment)
    stops = np.r_[starts[1:], n].astype(np.int64)
    lengths = stops - starts
    long_ = lengths > _DENSE_SEGMENT
    stop_of_entry = np.repeat(stops, lengths)
    short_entry = np.repeat(~long_, lengths)
    if short_entry.any():
        (short_rows,) = np.nonzero(short_entry)
        # Short segments are runs of entries; pair within each run of consecutive short rows.
        runs = _segment_starts(np.cumsum(np.r_[0, np.diff(short_rows) != 1]))
        run_stops = np.r_[runs[1:], len(short_rows)]
        for r0, r1 in zip(runs.tolist(), run_stops.tolist(), strict=True):
            first = int(short_rows[r0])
            for a, b in _pair_rows(first, stop_of_entry[first : first + r1 - r0], budget):
                w = count[a] * count[b] * delta2(code[a], code[b])
                out += np.bincount(segment[a], weights=w, minlength=n_segments)
    side = max(16, isqrt(budget))
    for s, e in zip(starts[long_].tolist(), stops[long_].tolist(), strict=True):
        total = 0.0
        for r0 in range(s, e, side):
            r1 = min(r0 + side, e)
            rows = code[r0:r1, None]
            # the diagonal tile: pairs strictly above its diagonal
            d2 = np.asarray(delta2(rows, code[None, r0:r1]), dtype=np.float64)
            total += float(count[r0:r1] @ (np.triu(d2, 1) @ count[r0:r1]))
            for c0 in range(r1, e, side):
                c1 = min(c0 + side, e)
                d2 = np.asarray(delta2(rows, code[None, c0:c1]), dtype=np.float64)
                total += float(count[r0:r1] @ (d2 @ count[c0:c1]))
        out[segment[s]] += total
    return out


# --------------------------------------------------------------------------- metrics


def ratio_delta2(values: FloatArray) -> Delta2:
    """Krippendorff's ratio metric ``((x_c - x_k) / (x_c + x_k))^2`` (0 where both are 0)."""

    has_zero = bool((values == 0).any())

    def delta2(a: IntArray, b: IntArray) -> FloatArray:
        xa, xb = values[a], values[b]
        total = np.add(xa, xb)
        ratio = np.subtract(xa, xb)
        with np.errstate(invalid="ignore", divide="ignore"):
            np.divide(ratio, total, out=ratio)
        if has_zero:  # 0 / 0 where both values are 0
            ratio[total == 0] = 0.0
        return np.multiply(ratio, ratio, out=ratio)

    return delta2


def matrix_delta2(matrix: FloatArray) -> Delta2:
    """Look ``delta2`` up in a (K, K) matrix."""

    def delta2(a: IntArray, b: IntArray) -> FloatArray:
        return np.asarray(matrix[a, b], dtype=np.float64)

    return delta2


def item_disagreement(
    pv: PairableValues, metric: Metric, budget: int = DEFAULT_BUDGET
) -> FloatArray:
    """Per item ``u``: its term of ``sum_ck o_ck delta2_ck``, that is
    ``sum_ck n_uc n_uk delta2_ck / (m_u - 1)`` (0 for an item that is not pairable).

    For every metric but :class:`Ordinal` the term depends on the item alone (the item
    bootstrap sums it over resampled items); ordinal distances depend on the pooled
    frequencies, here those of ``pv``.

    >>> import numpy as np
    >>> pv = pairable_values(np.array([0, 0, 0, 1, 1]), np.array([0, 1, 1, 0, 0]),
    ...                      np.ones(5), np.zeros(2, dtype=np.int64), 1, 2)
    >>> item_disagreement(pv, Nominal())  # 2 * (1 * 2) / (3 - 1), and no disagreement
    array([2., 0.])
    """
    if isinstance(metric, Nominal):
        return _nominal_items(pv)
    if isinstance(metric, Ordinal):
        return _quadratic_items(pv, midranks(pv)[pv.value_index])
    if isinstance(metric, Interval):
        return _quadratic_items(pv, metric.values[pv.code])
    return _pairwise_items(pv, metric.delta2, budget)


def _quadratic_items(pv: PairableValues, entry_x: FloatArray) -> FloatArray:
    """Per item, for squared differences of the coordinates ``x``:
    ``2 m sum n (x - xbar)^2 / (m - 1)``."""
    n_items = len(pv.total)
    spread_items = _spread(entry_x, pv.frequency, pv.item, n_items)
    m = pv.total
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(pv.pairable, 2.0 * m * spread_items / (m - 1.0), 0.0)


def _quadratic(
    pv: PairableValues, entry_x: FloatArray, value_x: FloatArray, n_groups: int
) -> tuple[FloatArray, FloatArray]:
    """Numerators ``sum_ck o_ck delta2_ck`` and ``sum_ck n_c n_k delta2_ck`` for squared
    differences of the coordinates ``x``."""
    per_item = _quadratic_items(pv, entry_x)
    observed = np.bincount(pv.group, weights=per_item, minlength=n_groups).astype(np.float64)
    spread_groups = _spread(value_x, pv.value_frequency, pv.value_group, n_groups)
    expected = 2.0 * pv.n_values * spread_groups
    return observed, expected


def _nominal_items(pv: PairableValues) -> FloatArray:
    n_items = len(pv.total)
    m = pv.total
    same = np.bincount(pv.item, weights=pv.frequency * pv.frequency, minlength=n_items)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(pv.pairable, (m * m - same) / (m - 1.0), 0.0)


def _nominal(pv: PairableValues, n_groups: int) -> tuple[FloatArray, FloatArray]:
    per_item = _nominal_items(pv)
    observed = np.bincount(pv.group, weights=per_item, minlength=n_groups).astype(np.float64)
    same_g = np.bincount(pv.value_group, weights=pv.value_frequency**2, minlength=n_groups)
    expected = pv.n_values**2 - same_g
    return observed, expected


def _pairwise_items(pv: PairableValues, delta2: Delta2, budget: int) -> FloatArray:
    n_items = len(pv.total)
    m = pv.total
    pairs = _pair_sums(pv.item, pv.code, pv.frequency, n_items, delta2, budget)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(pv.pairable, 2.0 * pairs / (m - 1.0), 0.0)


def _pairwise(
    pv: PairableValues, delta2: Delta2, n_groups: int, budget: int
) -> tuple[FloatArray, FloatArray]:
    per_item = _pairwise_items(pv, delta2, budget)
    observed = np.bincount(pv.group, weights=per_item, minlength=n_groups).astype(np.float64)
    expected = 2.0 * _pair_sums(
        pv.value_group, pv.value_code, pv.value_frequency, n_groups, delta2, budget
    )
    return observed, expected


def alpha_components(
    item: IntArray,
    code: IntArray,
    weight: FloatArray,
    group: IntArray,
    n_groups: int,
    n_categories: int,
    metric: Metric,
    budget: int = DEFAULT_BUDGET,
) -> AlphaComponents:
    """``D_o``, ``D_e``, pairable items and pairable values ``n`` per group.

    Parameters are the encoded annotations (``item``, ``code``, ``weight`` per annotation,
    ``group`` per item) and the metric. ``D_o`` and ``D_e`` are nan for a group without
    pairable items. ``budget`` bounds the pairs a :class:`Pairwise` metric evaluates at once.

    >>> import numpy as np
    >>> item, code = np.array([0, 0, 1, 1, 2, 2]), np.array([0, 0, 1, 1, 0, 1])
    >>> c = alpha_components(item, code, np.ones(6), np.zeros(3, dtype=np.int64), 1, 2,
    ...                      Nominal())
    >>> c.observed_disagreement, c.expected_disagreement
    (array([0.33333333]), array([0.6]))
    >>> alpha_from_disagreement(c.observed_disagreement, c.expected_disagreement)
    array([0.44444444])
    """
    pv = pairable_values(item, code, weight, group, n_groups, n_categories)
    if isinstance(metric, Nominal):
        observed, expected = _nominal(pv, n_groups)
        top = np.where(_segment_count(pv.value_group, n_groups) >= 2, 1.0, 0.0)
    elif isinstance(metric, Ordinal):
        value_x = midranks(pv)
        observed, expected = _quadratic(pv, value_x[pv.value_index], value_x, n_groups)
        top = _value_range(value_x, pv.value_group, n_groups) ** 2
    elif isinstance(metric, Interval):
        values = metric.values
        observed, expected = _quadratic(pv, values[pv.code], values[pv.value_code], n_groups)
        top = _value_range(values[pv.value_code], pv.value_group, n_groups) ** 2
    else:
        observed, expected = _pairwise(pv, metric.delta2, n_groups, budget)
        top = _pair_max(pv, metric, n_groups, budget)
    n = pv.n_values
    with np.errstate(invalid="ignore", divide="ignore"):
        d_o = np.where(n > 0, observed / n, np.nan)
        d_e = np.where(n > 0, expected / (n * (n - 1.0)), np.nan)
    return AlphaComponents(d_o, d_e, pv.n_items, n, top)


def _segment_count(segment: IntArray, n_segments: int) -> FloatArray:
    return np.bincount(segment, minlength=n_segments).astype(np.float64)


def _extreme_rows(x: FloatArray, segment: IntArray, n_segments: int) -> tuple[IntArray, IntArray]:
    """Per segment, the rows of its smallest and largest ``x`` (-1 for an empty segment)."""
    lowest = np.full(n_segments, -1, dtype=np.int64)
    highest = np.full(n_segments, -1, dtype=np.int64)
    if len(x):
        order = np.lexsort((x, segment))
        starts = _segment_starts(segment[order])
        stops = np.r_[starts[1:], len(order)] - 1
        seg = segment[order][starts]
        lowest[seg] = order[starts]
        highest[seg] = order[stops]
    return lowest, highest


def _value_range(x: FloatArray, segment: IntArray, n_segments: int) -> FloatArray:
    """Per segment ``max x - min x`` (0 for an empty segment)."""
    lowest, highest = _extreme_rows(x, segment, n_segments)
    present = lowest >= 0
    out = np.zeros(n_segments)
    out[present] = x[highest[present]] - x[lowest[present]]
    return out


def _pair_max(pv: PairableValues, metric: Pairwise, n_groups: int, budget: int) -> FloatArray:
    """Per group, the largest ``delta2`` between two categories present (0 if fewer than two)."""
    out = np.zeros(n_groups)
    code, segment = pv.value_code, pv.value_group
    if metric.extremes is not None:
        lowest, highest = _extreme_rows(metric.extremes[code], segment, n_groups)
        present = lowest >= 0
        pair = np.asarray(metric.delta2(code[lowest[present]], code[highest[present]]))
        out[present] = pair
        return out
    if len(segment) == 0:
        return out
    starts = _segment_starts(segment)
    stops = np.r_[starts[1:], len(segment)].astype(np.int64)
    stop_of_entry = np.repeat(stops, stops - starts)
    paired = np.bincount(segment, minlength=n_groups) >= 2  # groups with a pair to search
    for a, b in _pair_rows(0, stop_of_entry, budget):
        np.maximum.at(out, segment[a], np.asarray(metric.delta2(code[a], code[b])))
        if metric.ceiling is not None and bool((out[paired] >= metric.ceiling).all()):
            break  # every group has a pair at the largest value there is
    return out


def alpha_from_disagreement(observed: FloatArray, expected: FloatArray) -> FloatArray:
    """``alpha = 1 - D_o / D_e``; nan where ``D_e`` is 0 or nan (alpha is undefined).

    >>> import numpy as np
    >>> alpha_from_disagreement(np.array([0.25, 0.0]), np.array([1.0, 0.0]))
    array([0.75,  nan])
    """
    observed = np.asarray(observed, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    undefined = ~(expected > 0)
    safe = np.where(undefined, 1.0, expected)
    return np.where(undefined, np.nan, 1.0 - observed / safe)
