"""The six forms on an incomplete layout (a rater missing on some items).

One-way forms: the classic unbalanced one-way ANOVA. With ``N`` ratings of ``n`` items,
``m_i`` on item ``i``, ``MSB = sum_i m_i (mean_i - mean)^2 / (n - 1)``,
``MSW = sum_ij (y_ij - mean_i)^2 / (N - n)`` and the mean group size
``n0 = (N - sum_i m_i^2 / N) / (n - 1)`` (Snedecor & Cochran; Searle, Casella & McCulloch
1992, section 3.6), ``ICC(1,1) = (MSB - MSW) / (MSB + (n0 - 1) MSW)`` and
``ICC(1,k) = (MSB - MSW) / MSB``; ``F = MSB / MSW`` on ``(n - 1, N - n)``, and the interval
is the balanced one with ``n0`` for ``k`` (an approximation).

Two-way forms: the variance components of the crossed random-effects model by REML
(:mod:`._reml`), converted as McGraw & Wong (1996) define the forms:
``A,1 = s_a / (s_a + s_b + s_e)``, ``C,1 = s_a / (s_a + s_e)``, and the mean of ``k``
ratings with ``k`` the mean number of ratings per item:
``A,k = s_a / (s_a + (s_b + s_e) / k)``, ``C,k = s_a / (s_a + s_e / k)``. No F test or
interval is given for them (nan): the F distributions of the complete layout do not hold.
"""

from __future__ import annotations

import numpy as np

from .._lazy import scipy_stats as stats
from .._typing import BoolArray, FloatArray, as_float
from ..scores import Scores
from ._anova import ZERO_ULPS
from ._reml import reml_groups

__all__ = ["identified", "incomplete_forms", "incomplete_groups"]

Table = dict[str, dict[str, FloatArray]]


def identified(scores: Scores) -> tuple[BoolArray, BoolArray]:
    """Per group: does an item have two ratings, does a rater rate two items? Without the
    first the targets' variance cannot be told from the residual, without the second the
    raters': the REML likelihood is flat along that direction, so the two-way forms are
    not identified."""
    n_groups = scores.n_groups
    twice = (scores.per_item >= 2).astype(np.float64)
    item_twice = np.bincount(scores.group, weights=twice, minlength=n_groups) > 0
    pair, pair_group, _ = scores.pairs
    rated = np.bincount(pair, minlength=scores.n_pairs) >= 2
    rater_twice = np.bincount(pair_group, weights=rated, minlength=n_groups) > 0
    return item_twice, rater_twice


def incomplete_groups(scores: Scores, level: float) -> Table:
    """Per form and column (``value``, ``F``, ``df1``, ``df2``, ``p_value``, ``low``,
    ``high``): one value per group, every group at once."""
    item, item_group, n_groups = scores.item, scores.group, scores.n_groups
    x = scores.centred  # each group centred and of unit size (offsets and scales drop out)
    g_ann = scores.rating_group
    m = scores.per_item.astype(np.float64)
    rated = m > 0
    n = scores.items_per_group
    big_n = scores.group_count
    s = np.bincount(item, weights=x, minlength=scores.n_items)
    mean_i = np.divide(s, m, out=np.zeros_like(s), where=rated)
    total = np.bincount(g_ann, weights=x * x, minlength=n_groups)
    zero = ZERO_ULPS * np.finfo(np.float64).eps * big_n * total
    with np.errstate(invalid="ignore", divide="ignore"):
        ss_b = np.bincount(item_group, weights=m * mean_i * mean_i, minlength=n_groups)
        ss_b = np.where(ss_b <= zero, 0.0, ss_b)
        ss_w = np.bincount(g_ann, weights=(x - mean_i[item]) ** 2, minlength=n_groups)
        ss_w = np.where(ss_w <= zero, 0.0, ss_w)
        msb = ss_b / (n - 1.0)
        msw = ss_w / (big_n - n)
        sum_m2 = np.bincount(item_group, weights=m * m, minlength=n_groups)
        n0 = (big_n - sum_m2 / big_n) / (n - 1.0)
        f = msb / msw
        df1, df2 = as_float(n - 1.0), as_float(big_n - n)
        p = stats.f.sf(f, df1, df2)
        q = 1.0 - (1.0 - level) / 2.0
        f_low = f / stats.f.ppf(q, df1, df2)
        f_high = f * stats.f.ppf(q, df2, df1)
        out: Table = {
            "1,1": {
                "value": np.where(
                    msb + (n0 - 1.0) * msw > 0, (msb - msw) / (msb + (n0 - 1.0) * msw), np.nan
                ),
                "low": np.where(f_low == np.inf, 1.0, (f_low - 1.0) / (f_low + n0 - 1.0)),
                "high": np.where(f_high == np.inf, 1.0, (f_high - 1.0) / (f_high + n0 - 1.0)),
            },
            "1,k": {
                "value": np.where(msb > 0, (msb - msw) / msb, np.nan),
                "low": 1.0 - 1.0 / f_low,
                "high": 1.0 - 1.0 / f_high,
            },
        }
    for form in ("1,1", "1,k"):
        out[form].update(F=f, df1=df1, df2=df2, p_value=p)
    item_twice, rater_twice = identified(scores)
    undefined = (n < 2) | (scores.raters_per_group < 2) | ~item_twice | ~rater_twice
    a, b, e = reml_groups(scores, fit=~undefined)  # a flat likelihood is not fitted
    a, b, e = (np.where(undefined, np.nan, v) for v in (a, b, e))
    k_bar = big_n / n
    nan = np.full(n_groups, np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        for form, v in (
            ("A,1", a / (a + b + e)),
            ("C,1", a / (a + e)),
            ("A,k", a / (a + (b + e) / k_bar)),
            ("C,k", a / (a + e / k_bar)),
        ):
            out[form] = {"value": v, **dict.fromkeys(("F", "df1", "df2", "p_value"), nan)}
            out[form].update(low=nan, high=nan)
    return out


def incomplete_forms(one: Scores, level: float) -> dict[str, dict[str, float]]:
    """:func:`incomplete_groups` of one group's layout (:meth:`Scores.alone`), as floats."""
    table = incomplete_groups(one, level)
    return {form: {c: float(v[0]) for c, v in cols.items()} for form, cols in table.items()}
