"""Standard errors, confidence intervals and p-values for agreement coefficients.

Four methods:

- ``"analytic"``: Gwet's (2014) linearised variance (percent agreement, Bennett's S, Scott,
  Cohen, Fleiss, Conger, AC1/AC2), with the interval ``value ± t(n - 1) · SE`` over the ``n``
  rated items, upper bound capped at 1, as R's irrCAC prints it, and the optional
  finite-population correction ``N=``.
- ``"large-sample"``: two-rater Cohen's kappa; the asymptotic standard error of Fleiss,
  Cohen & Everitt (1969) with a normal interval, as SAS PROC FREQ and statsmodels print it.
  Its test of H0: kappa = 0 uses the standard error under H0 (SAS's "ASE under H0", R irr's
  ``kappa2``); for Fleiss' kappa and Scott's pi only that test exists, with the variance under
  H0 of Fleiss, Nee & Landis (1979) (R irr's ``kappam.fleiss``).
- ``"jackknife"``: Light's kappa and the annotator bias, which have no linearised variance:
  Efron's (1982) jackknife over items, ``(n - 1) / n sum_i (theta_(i) - theta_(.))^2`` with
  the leave-one-item-out values in closed form (:mod:`pdagree.definitions.jackknife`), and
  the interval ``value ± t(n - 1) · SE`` as for ``"analytic"`` (Efron & Tibshirani 1993,
  ch. 11); the finite-population correction ``N=`` multiplies the variance by ``1 - n / N``.
- ``"bootstrap"``: resampling items (within each ``by=`` group), every coefficient. All
  replicates are computed in one batched call: each replicate is a group of its own, so the
  same kernels run once over ``n_resamples × n_groups`` groups (in chunks that bound memory).
  The interval is the percentile interval; the standard error is the replicates' standard
  deviation. Replicates in which the coefficient is undefined (a resample with every rating in
  one category, say) are left out of both, with a warning that counts them, with and without
  ``by=`` alike; ``interval="BCa"`` needs every replicate and is nan then.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

import numpy as np

from ._kernels.quantiles import nan_quantiles
from ._typing import FloatArray
from ._validation import check_fraction, check_integer, check_option, check_seed
from ._warnings import UndefinedStatisticWarning, warn
from .category_sets import compute, per_category_set, scatter_arrays
from .definitions import Components, Definition, get
from .encoding import plain
from .resampling import bootstrap_values, scipy_bootstrap, table_bootstrap
from .tensors import RatingData
from .tensors.table_data import TableData

__all__ = [
    "INTERVAL_METHODS",
    "ConfidenceInterval",
    "ZTest",
    "summarise",
    "t_summary",
]

Method = Literal["auto", "analytic", "large-sample", "jackknife", "bootstrap"]
INTERVAL_METHODS = ("auto", "analytic", "large-sample", "jackknife", "bootstrap")
_DEFAULT_RESAMPLES = 2000


class ConfidenceInterval(NamedTuple):
    """A confidence interval: ``low`` and ``high``."""

    low: float
    high: float


class ZTest(NamedTuple):
    """The test of H0: coefficient = 0: the statistic ``z``, the standard error under H0
    ``se_h0`` it divides by (``nan`` where the test divides by the standard error itself) and
    the ``p_value``."""

    z: float
    se_h0: float
    p_value: float


# ---------------------------------------------------------------------------- validation


def check_confidence_level(confidence_level: float) -> float:
    return check_fraction(confidence_level, "confidence_level")


def check_method(method: str, name: str, test_only: bool = False) -> Method:
    """``method`` for coefficient ``name``; ``test_only``: for a test (``z_test()``,
    ``p_value()``), where method='large-sample' also covers the coefficients that have a
    standard error under H0 only (Fleiss' kappa, Scott's pi)."""
    check_option(method, "method", INTERVAL_METHODS)
    base = name.split("[")[0]
    definition = get(base)
    if method == "analytic" and definition.variance is None:
        other = "'jackknife' or 'bootstrap'" if definition.jackknife else "'bootstrap'"
        raise ValueError(f"no analytic variance is available for `{base}`; use method={other}.")
    if method == "jackknife" and definition.jackknife is None:
        raise ValueError(
            f"method='jackknife' is the jackknife over items of Light's kappa and the "
            f"annotator bias; `{base}` has Gwet's analytic variance (method='analytic') or "
            "the item bootstrap (method='bootstrap')."
        )
    if method == "large-sample" and definition.large_sample is None:
        if test_only and definition.null_se is not None:
            return "large-sample"
        extra = ""
        if definition.null_se is not None:
            extra = (
                " For `z_test()` and `p_value()`, method='large-sample' gives it the standard "
                "error under H0 of Fleiss, Nee & Landis (1979), as R irr's kappam.fleiss."
            )
        raise ValueError(
            f"method='large-sample' is the asymptotic variance of two-rater Cohen's kappa; "
            f"`{base}` needs method='analytic' or 'bootstrap'.{extra}"
        )
    return method  # type: ignore[return-value]


def resolve_method(
    method: str, definition: Definition, data: RatingData, options: dict[str, Any]
) -> str:
    """``"auto"``: Gwet's analytic variance where the definition offers one for these options,
    else the jackknife over items where it has one, else the item bootstrap; any other method
    as given."""
    if method != "auto":
        return method
    applies = definition.variance is not None and (
        definition.analytic_applies is None or definition.analytic_applies(data, options)
    )
    if applies:
        return "analytic"
    return "jackknife" if definition.jackknife is not None else "bootstrap"


MAX_RESAMPLES = 1_000_000
"""The most bootstrap resamples accepted: the Monte Carlo error of a percentile bound falls
as 1/sqrt(B), and past 10^6 resamples it is far below the bound's own sampling error while
the work (resamples x items) can run for hours."""


def check_resamples(n_resamples: int) -> int:
    return check_integer(
        n_resamples,
        "n_resamples",
        high=MAX_RESAMPLES,
        remedy="More would run for hours; 2,000 to 10,000 resamples give intervals whose "
        "Monte Carlo error is small beside their width.",
    )


def check_options(
    name: str,
    method: str,
    n_resamples: int,
    population: float,
    level: float | None,
    interval: str = "percentile",
    rng: Any = None,
) -> None:
    """Validate inference options at the public boundary, whether or not they are used."""
    check_method(method, name)
    if method in ("auto", "bootstrap"):
        check_resamples(n_resamples)
    check_seed(rng)
    check_interval(interval)
    check_population(population)
    if level is not None:
        check_confidence_level(level)


INTERVALS = ("percentile", "basic", "BCa")


def check_interval(interval: str) -> str:
    return check_option(interval, "interval", INTERVALS)


def check_population(population: float) -> float:
    value = float(population)
    if not value > 0:
        raise ValueError(
            f"`N` (the population size for the finite-population correction) must be "
            f"positive; got {plain(population)!r}. Leave it at infinity to skip the correction."
        )
    return value


# ---------------------------------------------------------------------------- analytic


def analytic(
    data: RatingData,
    definition: Definition,
    options: dict[str, Any],
    population: float,
    jackknife: bool = False,
    parts: Components | None = None,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Value, Gwet's standard error (``jackknife``: the jackknife's over items) and the
    number of rated items, per group. ``parts``: the coefficient's components on ``data``,
    already computed (the caller's value), so that they are not computed twice; used when
    every group has the same categories (otherwise each set of categories is its own)."""
    variance = definition.jackknife if jackknife else definition.variance
    if variance is None:  # pragma: no cover - check_method refuses it first
        raise ValueError(f"no such variance for `{definition.name}`")
    if parts is not None and data.category_mask is None:
        var, n = variance(data, options, parts, population)
        _check_sample_within_population(n, population)
        return parts.value, np.sqrt(var), n

    def run(sub: RatingData, options: dict[str, Any]) -> tuple[Any, Any, Any]:
        parts = compute(definition, sub, options)
        var, n = variance(sub, options, parts, population)
        return parts.value, var, n

    value, var, n = per_category_set(data, options, run, scatter_arrays, definition)
    _check_sample_within_population(n, population)
    return value, np.sqrt(var), n


def _check_sample_within_population(n: FloatArray, population: float) -> None:
    if np.isfinite(population) and np.any(n > population):
        raise ValueError(
            f"`N` (the population size) must be at least the number of rated items "
            f"({int(n.max())}); got {plain(population)!r}. N counts the items the sample was "
            "drawn from."
        )


# ---------------------------------------------------------------------------- summaries


def summarise(
    data: RatingData,
    method_name: str,
    kwargs: dict[str, Any],
    *,
    confidence_level: float,
    method: str,
    n_resamples: int,
    rng: np.random.Generator | int | None,
    population: float,
    alternative: str = "greater",
    interval: str = "percentile",
    test_only: bool = False,
    parts: Components | None = None,
) -> dict[str, FloatArray]:
    """Per-group ``se``, ``low``, ``high``, ``z``, ``se_h0``, ``p_value`` and ``ci_method``
    (the method used) for one coefficient; a pdagree warning where the value is defined but
    its standard error is not.

    ``z`` is ``value / se_h0`` for method='large-sample' (``se_h0``: the standard error under
    H0) and ``value / se`` otherwise (``se_h0`` is nan). ``test_only``: for ``z_test()`` and
    ``p_value()``, where method='large-sample' on Fleiss' kappa or Scott's pi gives the test
    alone (``se``, ``low`` and ``high`` nan). ``parts``: the coefficient's components on
    ``data`` with ``kwargs`` when the caller has them (its value), not computed again.
    """
    level = check_confidence_level(confidence_level)
    check_method(method, method_name, test_only)
    check_seed(rng)
    population = check_population(population)
    definition = get(method_name)
    chosen = resolve_method(method, definition, data, kwargs)
    se_h0: FloatArray | None = None
    if chosen in ("analytic", "jackknife"):
        jackknife = chosen == "jackknife"
        value, se, n = analytic(data, definition, kwargs, population, jackknife, parts)
        low, high, z, p = t_summary(value, se, n, level, alternative)
    elif chosen == "large-sample":
        data.require_rows("method='large-sample'")
        value, se, low, high, se_h0 = _large_sample(data, definition, kwargs, level, population)
        with np.errstate(invalid="ignore", divide="ignore"):
            z = value / se_h0
            p = _p_value(z, None, alternative)
    else:
        resamples = check_resamples(n_resamples)
        data.require_items(f"the item bootstrap of `{method_name}`")
        kind = check_interval(interval)
        value = (parts if parts is not None else compute(definition, data, kwargs)).value
        if data.enc.groups is None:
            # A contingency table's cells are drawn from the multinomial; items otherwise.
            resample = table_bootstrap if isinstance(data, TableData) else scipy_bootstrap
            se_1, low_1, high_1, reps = resample(
                data,
                definition,
                kwargs,
                confidence_level=level,
                n_resamples=resamples,
                rng=rng,
                interval=kind,
            )
            se, low, high = np.array([se_1]), np.array([low_1]), np.array([high_1])
            if not np.isfinite(reps).all() and kind != "BCa":
                # One rule on both paths: undefined replicates are left out (scipy's
                # summary is nan as soon as one is); BCa's jackknife needs every one.
                se, low, high = _replicate_summary(reps, value, level, kind)
        else:
            if kind == "BCa":
                raise ValueError(
                    "`interval='BCa'` needs a jackknife per group and is available without "
                    "`by=` only; use interval='percentile' or 'basic' with `by=`."
                )
            reps = bootstrap_values(data, definition, kwargs, resamples, rng)
            se, low, high = _replicate_summary(reps, value, level, kind)
        _warn_undefined_replicates(data, method_name, reps, value)
        p = bootstrap_p_value(reps, alternative)
        p = np.where(np.isnan(se), np.nan, p)
        with np.errstate(invalid="ignore", divide="ignore"):
            z = value / se
    test_alone = chosen == "large-sample" and definition.large_sample is None
    checked = se_h0 if test_alone and se_h0 is not None else se
    _warn_undefined_se(data, method_name, chosen, value, checked, n_resamples)
    method_used = np.full(se.shape, chosen, dtype=object)
    return {
        "se": se,
        "low": low,
        "high": high,
        "z": z,
        "se_h0": np.full(se.shape, np.nan) if se_h0 is None else se_h0,
        "p_value": p,
        "ci_method": method_used,
    }


def t_summary(
    value: FloatArray, se: FloatArray, n: FloatArray, level: float, alternative: str
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """``low``, ``high``, ``z`` and ``p_value`` of the interval ``value ± t(n - 1) · SE``
    (upper bound capped at 1) and of the test ``value / SE`` against t(n - 1)."""
    from scipy import stats

    with np.errstate(invalid="ignore", divide="ignore"):
        df = n - 1.0
        t = stats.t.ppf(1.0 - (1.0 - level) / 2.0, df)
        low = value - t * se
        high = np.minimum(1.0, value + t * se)
        z = value / se
        p = _p_value(z, df, alternative)
    return low, high, z, p


def _large_sample(
    data: RatingData,
    definition: Definition,
    kwargs: dict[str, Any],
    level: float,
    population: float,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]:
    """Value, ASE, normal interval and ASE under H0 per group (Fleiss, Cohen & Everitt 1969);
    for a coefficient with a standard error under H0 only (Fleiss, Nee & Landis 1979) the
    ASE and the interval are nan."""
    from scipy import stats

    if np.isfinite(population):
        raise ValueError(
            "`N` (finite-population correction) applies to method='analytic' only; the "
            "large-sample variances of Fleiss, Cohen & Everitt (1969) and Fleiss, Nee & Landis "
            "(1979) have none."
        )
    if definition.large_sample is not None:
        value, se, se0, _ = per_category_set(
            data, kwargs, definition.large_sample, scatter_arrays, definition
        )
        z = stats.norm.ppf(1.0 - (1.0 - level) / 2.0)
        return value, se, value - z * se, value + z * se, se0
    if definition.null_se is None:  # pragma: no cover - check_method refuses it
        raise ValueError(f"no large-sample variance for `{definition.name}`")
    value = compute(definition, data, kwargs).value
    se0, _ = per_category_set(data, kwargs, definition.null_se, scatter_arrays, definition)
    nan = np.full(value.shape, np.nan)
    return value, nan, nan, nan.copy(), se0


def bootstrap_p_value(reps: FloatArray, alternative: str) -> FloatArray:
    """The bootstrap p-value of H0: coefficient = 0, by inverting the percentile interval.

    ``reps`` holds replicate values, shape (n_resamples, n_groups) (nan replicates are left
    out). With ``B`` usable replicates: ``"greater"`` (H1: coefficient > 0) gives
    ``(1 + #{replicates <= 0}) / (B + 1)``, ``"less"`` the same with ``>= 0``, and
    ``"two-sided"`` twice the smaller of the two, at most 1 (Davison & Hinkley 1997, §4.4:
    the ``+ 1`` keeps the p-value above 0, as a permutation p-value).
    """
    reps = np.asarray(reps, dtype=np.float64)
    if reps.ndim == 1:
        reps = reps[:, None]
    ok = np.isfinite(reps)
    b = ok.sum(axis=0).astype(np.float64)
    at_most = (np.where(ok, reps, np.inf) <= 0).sum(axis=0)
    at_least = (np.where(ok, reps, -np.inf) >= 0).sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        greater = (1.0 + at_most) / (b + 1.0)
        less = (1.0 + at_least) / (b + 1.0)
    if alternative == "greater":
        out = greater
    elif alternative == "less":
        out = less
    elif alternative == "two-sided":
        out = np.minimum(1.0, 2.0 * np.minimum(greater, less))
    else:
        raise ValueError(
            f"`alternative` must be one of 'greater', 'two-sided', 'less'; got {alternative!r}."
        )
    return np.where(b >= 2, out, np.nan)


def _warn_undefined_replicates(
    data: RatingData, name: str, reps: FloatArray, value: FloatArray
) -> None:
    """Announce bootstrap replicates that are undefined (a resample whose coefficient is nan,
    e.g. every rating in one category): they are left out of the standard error and the
    percentile or basic interval, which are then conditional on a defined coefficient."""
    if reps.size == 0:
        return
    undefined = (~np.isfinite(reps)).sum(axis=0) * np.isfinite(value)
    if not undefined.any():
        return
    total, n = int(undefined.sum()), reps.shape[0]
    enc = data.enc
    where = f"`{name}`"
    if enc.groups is not None:
        keys = list(enc.groups[undefined > 0][:5])
        where += f" in {int((undefined > 0).sum())} of {enc.n_groups} groups (e.g. {keys})"
    warn(
        f"{total} of {n * int((undefined > 0).sum())} bootstrap replicates of {where} are "
        "undefined (a resample in which the coefficient is nan, e.g. every rating in one "
        "category); the standard error and the interval use the defined ones, so they are "
        "conditional on the coefficient being defined (interval='BCa' needs every replicate "
        "and is then nan).",
        UndefinedStatisticWarning,
    )


def _warn_undefined_se(
    data: RatingData, name: str, method: str, value: FloatArray, se: FloatArray, resamples: int
) -> None:
    """Announce standard errors that are nan where the coefficient itself is defined."""
    bad = np.isnan(se) & np.isfinite(value)
    if not bad.any():
        return
    rated = data.rated_per_group
    if (bad & (rated < 2)).any():
        why = "fewer than two items were rated, so there is no spread to estimate"
    elif method == "bootstrap" and resamples < 2:
        why = "one resample has no spread; ask for more `n_resamples`"
    elif method == "bootstrap":
        why = "the bootstrap replicates are undefined"
    else:
        why = "its variance is undefined"
    enc = data.enc
    where = ""
    if enc.groups is not None:
        keys = list(enc.groups[bad][:5])
        where = f" in {int(bad.sum())} of {enc.n_groups} groups (e.g. {keys})"
    warn(
        f"the {method} standard error of `{name}` is undefined{where}: {why}; se, low, high "
        "and p_value are nan."
    )


def _replicate_summary(
    reps: FloatArray, value: FloatArray, level: float, kind: str
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Per-group standard deviation and percentile (or basic: ``2 value - quantiles``)
    interval of replicates."""
    n_groups = reps.shape[1]
    se = np.full(n_groups, np.nan)
    low = np.full(n_groups, np.nan)
    high = np.full(n_groups, np.nan)
    ok = np.isfinite(reps)
    enough = ok.sum(axis=0) >= 2
    if enough.any():
        masked = np.where(ok, reps, np.nan)[:, enough]
        se[enough] = np.nanstd(masked, axis=0, ddof=1)
        tail = (1.0 - level) / 2.0
        q_low, q_high = nan_quantiles(masked, np.array([tail, 1.0 - tail]))
        if kind == "basic":
            q_low, q_high = 2.0 * value[enough] - q_high, 2.0 * value[enough] - q_low
        low[enough], high[enough] = q_low, q_high
    return se, low, high


def _p_value(z: FloatArray, df: FloatArray | None, alternative: str) -> FloatArray:
    from scipy import stats

    dist: Any = stats.norm if df is None else stats.t(df)
    if alternative == "greater":
        return np.asarray(dist.sf(z), dtype=np.float64)
    if alternative == "less":
        return np.asarray(dist.cdf(z), dtype=np.float64)
    if alternative == "two-sided":
        return np.asarray(2.0 * dist.sf(np.abs(z)), dtype=np.float64)
    raise ValueError(
        f"`alternative` must be one of 'greater', 'two-sided', 'less'; got {alternative!r}."
    )
