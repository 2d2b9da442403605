"""The six intraclass correlations, their F tests and intervals, from the mean squares.

Names as McGraw & Wong (1996) and Liljequist, Elfving & Skavberg Roaldsen (2019) give them
(pingouin >= 0.7 too), with Shrout & Fleiss's (1979) names as aliases:

======  ========  ==========================================  ================================
form    S & F     model                                       value
======  ========  ==========================================  ================================
1,1     ICC1      one-way random, single rater                (MSR - MSW) / (MSR + (k-1) MSW)
A,1     ICC2      two-way, absolute agreement, single         (MSR - MSE) / (MSR + (k-1) MSE
                                                              + k (MSC - MSE) / n)
C,1     ICC3      two-way, consistency, single                (MSR - MSE) / (MSR + (k-1) MSE)
1,k     ICC1k     one-way random, mean of k raters            (MSR - MSW) / MSR
A,k     ICC2k     two-way, absolute agreement, mean of k      (MSR - MSE) / (MSR + (MSC - MSE) / n)
C,k     ICC3k     two-way, consistency, mean of k             (MSR - MSE) / MSR
======  ========  ==========================================  ================================

``test="F"`` (Shrout & Fleiss 1979, eqs. 5-8; psych and pingouin): ``F = MSR / MSW`` on
``(n - 1, n (k - 1))`` degrees of freedom for the one-way forms, ``F = MSR / MSE`` on
``(n - 1, (n - 1)(k - 1))`` for the two-way ones. ``test="mcgraw_wong"`` (McGraw & Wong
1996, Tables 7 and 8; R irr 0.84): the same against ``ICC = rho0``, the one-way and
consistency statistics scaled by ``(1 - rho0) / (1 + (k - 1) rho0)`` (single) or
``1 - rho0`` (mean), the agreement ones ``F = MSR / (a MSC + b MSE)`` with ``a`` and ``b``
at ``rho0`` and Satterthwaite's ``df2`` with them at the estimate (so that even at
``rho0 = 0`` the agreement forms' ``df2`` is not ``(n - 1)(k - 1)``, as in irr).

Intervals (psych >= 2.2.2, pingouin): from the F quantiles for the one-way and consistency
forms (Shrout & Fleiss 1979, eqs. 6 and 8); for ``A,1`` Satterthwaite's ``v`` and
McGraw & Wong's Table 7 bounds, and ``A,k`` those bounds stepped up by Spearman-Brown
(psych's choice; irr computes ``A,k``'s bounds from Table 8's own formulas instead, which
differ slightly).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._lazy import scipy_stats as stats
from .._typing import FloatArray
from ._anova import MeanSquares

__all__ = ["ALIASES", "FORMS", "form_name", "interval", "statistic", "test", "value"]

FORMS = ("1,1", "A,1", "C,1", "1,k", "A,k", "C,k")
ALIASES = dict(zip(("ICC1", "ICC2", "ICC3", "ICC1k", "ICC2k", "ICC3k"), FORMS, strict=True))
SHROUT_FLEISS = {form: alias for alias, form in ALIASES.items()}


def form_name(form: object) -> str:
    """The McGraw & Wong name of ``form`` (given as that name or a Shrout & Fleiss alias)."""
    if isinstance(form, str):
        if form in FORMS:
            return form
        if form in ALIASES:
            return ALIASES[form]
        spaced = form.replace(" ", "").upper().replace("K", "k")
        if spaced.startswith("ICC(") and spaced.endswith(")") and spaced[4:-1] in FORMS:
            return spaced[4:-1]
    raise ValueError(
        f"`form` must be one of {', '.join(map(repr, FORMS))} (McGraw & Wong) or "
        f"{', '.join(map(repr, ALIASES))} (Shrout & Fleiss); got {form!r}."
    )


def value(ms: MeanSquares, form: str) -> FloatArray:
    """The ICC ``form`` per group (nan where its denominator is 0: items whose ratings do not
    differ, or no variation at all)."""
    n, k = ms.n, ms.k
    msr, msc, mse, msw = ms.ms_rows, ms.ms_columns, ms.ms_error, ms.ms_within
    numerator = msr - (msw if form[0] == "1" else mse)
    with np.errstate(invalid="ignore", divide="ignore"):
        denominator = {
            "1,1": msr + (k - 1.0) * msw,
            "A,1": msr + (k - 1.0) * mse + k * (msc - mse) / n,
            "C,1": msr + (k - 1.0) * mse,
            "1,k": msr,
            "A,k": msr + (msc - mse) / n,
            "C,k": msr,
        }[form]
        out = np.where(denominator > 0, numerator / denominator, np.nan)
    return np.asarray(out, dtype=np.float64)


def statistic(
    ms: MeanSquares, form: str, rho0: float = 0.0, mcgraw_wong: bool = False
) -> tuple[FloatArray, ...]:
    """``(F, df1, df2)``: Shrout & Fleiss's F test of ``ICC = 0``, or (``mcgraw_wong``)
    McGraw & Wong's test of ``ICC = rho0`` as R's irr computes it."""
    n, k = ms.n, ms.k
    msr, msc, mse, msw = ms.ms_rows, ms.ms_columns, ms.ms_error, ms.ms_within
    df1 = n - 1.0
    single = form.endswith(",1")
    with np.errstate(invalid="ignore", divide="ignore"):
        scale = (1.0 - rho0) / (1.0 + (k - 1.0) * rho0) if single else 1.0 - rho0
        if form[0] == "1":
            return msr / msw * scale, df1, n * (k - 1.0)
        if form[0] == "C" or not mcgraw_wong:
            return msr / mse * scale, df1, (n - 1.0) * (k - 1.0)

        # Absolute agreement (McGraw & Wong 1996, Tables 7-8, cases 2A/3A): the statistic with
        # a and b at rho0, its df2 Satterthwaite's with a and b at the estimate, as irr
        # computes it (for the mean of k too, irr keeps the single form's factor k).
        a, b = _agreement_weights(rho0, n, k if single else 1.0)
        a_hat, b_hat = _agreement_weights(value(ms, form), n, k)
        denominator = a_hat * msc + b_hat * mse
        df2 = denominator**2 / (
            (a_hat * msc) ** 2 / (k - 1.0) + (b_hat * mse) ** 2 / ((n - 1.0) * (k - 1.0))
        )
        return msr / (a * msc + b * mse), df1, df2


def _agreement_weights(r: Any, n: Any, factor: Any) -> tuple[Any, Any]:
    """McGraw & Wong's ``a`` and ``b`` of the absolute-agreement test at ``ICC = r``
    (``factor``: ``k`` for one rater's form, 1 for the mean of ``k``)."""
    return factor * r / (n * (1.0 - r)), 1.0 + factor * r * (n - 1.0) / (n * (1.0 - r))


def test(
    ms: MeanSquares, form: str, rho0: float = 0.0, mcgraw_wong: bool = False
) -> dict[str, FloatArray]:
    """``F``, ``df1``, ``df2`` and the one-sided p-value ``P(F' > F)``."""
    f, df1, df2 = statistic(ms, form, rho0, mcgraw_wong)
    return {"F": f, "df1": df1, "df2": df2, "p_value": stats.f.sf(f, df1, df2)}


def interval(
    ms: MeanSquares,
    form: str,
    confidence_level: float,
    cache: dict[str, tuple[FloatArray, FloatArray]] | None = None,
) -> tuple[FloatArray, FloatArray]:
    """The ``confidence_level`` interval of the ICC ``form`` per group, as psych and
    pingouin compute it (see the module's notes). ``cache`` keeps the F quantiles of a form
    family (``1``, ``A``, ``C``) for its other form: the quantiles are most of the cost."""
    cache = {} if cache is None else cache
    n, k = ms.n, ms.k
    msr, msc, mse = ms.ms_rows, ms.ms_columns, ms.ms_error
    q = 1.0 - (1.0 - confidence_level) / 2.0
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        if form[0] in "1C":
            f, df1, df2 = statistic(ms, form)
            if form[0] not in cache:
                cache[form[0]] = (_ppf(q, df1, df2), _ppf(q, df2, df1))
            q12, q21 = cache[form[0]]
            f_low = f / q12
            f_high = f * q21
            if form.endswith(",1"):
                # F = inf (no error variance, items that differ): both bounds are 1, the
                # limit of (F - 1) / (F + k - 1).
                low = np.where(f_low == np.inf, 1.0, (f_low - 1.0) / (f_low + k - 1.0))
                high = np.where(f_high == np.inf, 1.0, (f_high - 1.0) / (f_high + k - 1.0))
                return low, high
            return 1.0 - 1.0 / f_low, 1.0 - 1.0 / f_high
        icc = value(ms, "A,1")
        # F_j = MSC / MSE: 0 when the raters do not differ (even with MSE = 0: perfect
        # agreement); with MSE = 0 < MSC Satterthwaite's v is its limit k - 1.
        fj = np.where(msc == 0, 0.0, msc / mse)
        vn = (k - 1.0) * (n - 1.0) * (k * icc * fj + n * (1.0 + (k - 1.0) * icc) - k * icc) ** 2
        vd = (n - 1.0) * k**2 * icc**2 * fj**2 + (n * (1.0 + (k - 1.0) * icc) - k * icc) ** 2
        v = np.where((mse == 0) & (msc > 0), k - 1.0, vn / vd)
        if "A" not in cache:
            cache["A"] = (_ppf(q, n - 1.0, v), _ppf(q, v, n - 1.0))
        f_upper, f_lower = cache["A"]
        low = n * (msr - f_upper * mse) / (f_upper * (k * msc + (k * n - k - n) * mse) + n * msr)
        high = n * (f_lower * msr - mse) / (k * msc + (k * n - k - n) * mse + n * f_lower * msr)
        if form == "A,k":  # Spearman-Brown, as psych
            # It maps (-1 / (k - 1), 1] onto (-inf, 1]; a bound at or below its pole has no
            # image and the interval is unbounded below (as 1 - 1/F is for the other ,k forms).
            low, high = (
                np.where(1.0 + b * (k - 1.0) <= 0, -np.inf, b * k / (1.0 + b * (k - 1.0)))
                for b in (low, high)
            )
        return np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)


def _ppf(q: float, df1: Any, df2: Any) -> FloatArray:
    """The F distribution's ``q`` quantile; once when every group shares its degrees of
    freedom (``by=`` groups of one size): the quantile is the costly part of an interval."""
    d1, d2 = np.broadcast_arrays(np.asarray(df1, np.float64), np.asarray(df2, np.float64))
    if d1.size <= 1 or (np.all(d1 == d1.flat[0]) and np.all(d2 == d2.flat[0])):
        one = np.asarray(stats.f.ppf(q, d1.flat[0], d2.flat[0]), dtype=np.float64)
        return np.broadcast_to(one, d1.shape).copy() if d1.size else one
    return np.asarray(stats.f.ppf(q, d1, d2), dtype=np.float64)
