"""Uncertainty of the per-category kappas (:meth:`pdagree.Ratings.per_category` with
``confidence_level=``).

Each category's kappa is a function of three sums over the items with two or more ratings,
``D_k = sum_i n_ik (r_i - n_ik) / (r_i - 1)``, ``N_k = sum_i n_ik`` and ``R = sum_i r_i``:
``pi_k = N_k / R`` and ``kappa_k = 1 - D_k / (R pi_k (1 - pi_k))``. The item bootstrap
resamples the rated items within each ``by=`` group and recomputes the sums from the drawn
items' rows (one gather and one segment sum per chunk of resamples: no per-resample
recomputation): the standard error is the replicates' standard deviation and the interval
their percentiles.

Under H0 (no agreement beyond chance) and with every rated item rated ``m`` times, Fleiss,
Nee & Landis (1979) give each category's kappa the variance ``2 / (N m (m - 1))`` over ``N``
items, the variance R irr's ``kappam.fleiss(detail=TRUE)`` uses for its per-category tests:
``se_h0``, ``z = kappa / se_h0`` and the one-sided p-value of ``kappa > 0`` (the alternative
of pdagree's p-values; irr prints the two-sided one, twice this). With items rated different
numbers of times the formula does not hold and these are nan.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ._kernels import variance as V
from ._kernels._segment import segment_sum
from ._kernels.quantiles import nan_quantiles
from ._typing import FloatArray, IntArray
from ._validation import check_seed
from .inference import check_confidence_level, check_resamples
from .tensors import RatingData

__all__ = ["category_kappas", "category_uncertainty", "with_uncertainty"]

#: Floats gathered per chunk of resamples (resamples x items x columns).
_CHUNK = 2e7


def _item_rows(data: RatingData) -> tuple[IntArray, FloatArray]:
    """The rated items (positions) and their rows ``[D_i1..D_iK, n_i1..n_iK, r_i]`` (zero
    for items with fewer than two ratings)."""
    nik = data.nik
    r = nik.sum(axis=1)
    rated = np.flatnonzero(r >= 1)
    nik, r = nik[rated], r[rated]
    pairable = (r >= 2)[:, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        d = np.where(pairable, nik * (r[:, None] - nik) / (r[:, None] - 1.0), 0.0)
    rows = np.hstack([d, np.where(pairable, nik, 0.0), np.where(pairable, r[:, None], 0.0)])
    return rated, rows


def category_kappas(sums: FloatArray, k: int) -> FloatArray:
    """``kappa_k`` from the sums ``[D_1..D_K, N_1..N_K, R]`` along the last axis."""
    d, n, total = sums[..., :k], sums[..., k : 2 * k], sums[..., 2 * k : 2 * k + 1]
    with np.errstate(invalid="ignore", divide="ignore"):
        pi = n / total
        out: FloatArray = 1.0 - d / (total * pi * (1.0 - pi))
    return out


def _sums(rows: FloatArray, starts: IntArray, sizes: IntArray, picks: IntArray) -> FloatArray:
    """Per resample and group, the sums of the drawn rows: ``picks`` (resamples x slots)
    holds, for each slot of the rated items sorted by group, the drawn item's row."""
    drawn = rows[picks]  # (resamples, slots, columns)
    sums = np.zeros((len(picks), len(sizes), rows.shape[1]))
    present = sizes > 0
    sums[:, present] = np.add.reduceat(drawn, starts[present], axis=1)
    return sums


def _groups(data: RatingData, rated: IntArray) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """The rated items' groups, their order by group, and each group's size and first slot."""
    group = data.enc.group[rated]
    order = np.argsort(group, kind="stable")
    sizes = np.bincount(group, minlength=data.enc.n_groups)
    starts = np.r_[0, np.cumsum(sizes)[:-1]].astype(np.int64)
    return group, order, sizes, starts


def replicate_kappas(data: RatingData, picks: IntArray) -> FloatArray:
    """The per-category kappas of the resamples ``picks`` (resamples x rated items: for
    each slot of the rated items sorted by group, the position among the rated items of the
    drawn one, of the same group), shape (resamples, groups, categories)."""
    rated, rows = _item_rows(data)
    _, _, sizes, starts = _groups(data, rated)
    return category_kappas(_sums(rows, starts, sizes, picks), data.enc.n_categories)


def _nan_std(defined: FloatArray, count: IntArray) -> FloatArray:
    """``np.nanstd(defined, axis=0, ddof=1)`` where ``count`` (the values defined per
    column) is at least 2, nan elsewhere, by NumPy's own steps (the same numbers) and without
    its warning for those columns (a warning filter swapped here would be the process's,
    seen by other threads)."""
    missing = np.isnan(defined)
    centred = np.where(missing, 0.0, defined)
    with np.errstate(invalid="ignore", divide="ignore"):  # columns of 0 or 1: nan below
        mean = np.sum(centred, axis=0, keepdims=True)
        mean /= count
        centred -= mean
        centred[missing] = 0.0
        np.multiply(centred, centred, out=centred)
        var = np.sum(centred, axis=0) / (count - 1)
        out: FloatArray = np.where(count >= 2, np.sqrt(var), np.nan)
    return out


def category_uncertainty(
    data: RatingData,
    confidence_level: float,
    n_resamples: int = 2000,
    rng: Any = None,
) -> dict[str, FloatArray]:
    """Per group and category (flattened as :func:`per_category` orders its rows): ``se``,
    ``low``, ``high`` (item bootstrap), ``se_h0``, ``z`` and ``p_value`` (Fleiss, Nee &
    Landis's variance under H0)."""
    from scipy import stats  # imported on first use: it is slow to import

    level = check_confidence_level(confidence_level)
    resamples = check_resamples(n_resamples)
    gen = np.random.default_rng(check_seed(rng))
    enc = data.enc
    rated, rows = _item_rows(data)
    group, order, sizes, starts = _groups(data, rated)
    slot_group = group[order]
    slot_offset, slot_size = starts[slot_group], sizes[slot_group]
    n_slots, width = len(order), rows.shape[1]
    chunk = max(1, int(_CHUNK // max(n_slots * width, 1)))
    reps = np.empty((resamples, enc.n_groups, enc.n_categories))
    done = 0
    while done < resamples:  # over chunks of resamples
        size = min(chunk, resamples - done)
        slot = (gen.random((size, n_slots)) * slot_size).astype(np.int64) + slot_offset
        sums = _sums(rows, starts, sizes, order[slot])
        reps[done : done + size] = category_kappas(sums, enc.n_categories)
        done += size
    alpha = (1.0 - level) / 2.0
    with np.errstate(invalid="ignore"):
        defined = np.where(np.isfinite(reps), reps, np.nan)
        count = np.isfinite(defined).sum(axis=0)
        se = _nan_std(defined, count)
        low, high = nan_quantiles(defined, np.array([alpha, 1.0 - alpha]))
    # Fleiss, Nee & Landis (1979): under H0, 2 / (N m (m - 1)) with m ratings on every item;
    # the rated items and the fewest and most ratings per group, as their overall test reads.
    _, n_items, fewest, most = V.fleiss_null_variance(data.nik, enc.group, enc.n_groups)
    with np.errstate(invalid="ignore", divide="ignore"):
        even = (fewest == most) & (most >= 2)
        se_h0 = np.where(even, np.sqrt(2.0 / (n_items * most * (most - 1.0))), np.nan)
    kappa = category_kappas(segment_sum(rows, group, enc.n_groups), enc.n_categories)
    with np.errstate(invalid="ignore", divide="ignore"):
        z = kappa / se_h0[:, None]
    p = stats.norm.sf(z)
    out = {
        "se": se,
        "low": low,
        "high": high,
        "se_h0": np.broadcast_to(se_h0[:, None], kappa.shape),
        "z": z,
        "p_value": p,
    }
    return {name: np.asarray(v, dtype=np.float64).ravel() for name, v in out.items()}


def with_uncertainty(
    table: pd.DataFrame,
    data: RatingData,
    confidence_level: float,
    n_resamples: int = 2000,
    rng: Any = None,
) -> pd.DataFrame:
    """:func:`~pdagree.definitions.breakdowns.per_category`'s ``table`` with the columns
    ``se``, ``low``, ``high`` (item bootstrap), ``se_h0``, ``z`` and ``p_value`` (under H0)
    of its ``kappa``."""
    columns = category_uncertainty(data, confidence_level, n_resamples, rng)
    out = table.copy()
    mask = data.category_mask
    keep = np.ones(len(columns["se"]), dtype=bool) if mask is None else mask.ravel()
    for name, values in columns.items():
        out[name] = values[keep]
    return out
