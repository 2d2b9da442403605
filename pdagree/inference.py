"""Standard errors, confidence intervals and p-values for agreement coefficients.

Three methods:

- ``"analytic"``: Gwet's (2014) linearised variance (percent agreement, Bennett's S, Scott,
  Cohen, Fleiss, Conger, AC1/AC2), with the interval ``value ± t(n - 1) · SE`` over the ``n``
  rated items, upper bound capped at 1, as R's irrCAC prints it, and the optional
  finite-population correction ``N=``.
- ``"large-sample"``: two-rater Cohen's kappa only; the asymptotic standard error of Fleiss,
  Cohen & Everitt (1969) with a normal interval, as SAS PROC FREQ and statsmodels print it.
- ``"bootstrap"``: resampling items (within each ``by=`` group), every coefficient. All
  replicates are computed in one batched call: each replicate is a group of its own, so the
  same kernels run once over ``n_resamples × n_groups`` groups (in chunks that bound memory).
  The interval is the percentile interval; the standard error is the replicates' standard
  deviation.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

import numpy as np
import pandas as pd

from ._encode import Encoded
from ._kernels import agreement as K
from ._kernels import variance as V
from ._typing import FloatArray, IntArray

if TYPE_CHECKING:
    from .ratings import Ratings

__all__ = ["INTERVAL_METHODS", "SCALES", "ConfidenceInterval", "interpret"]

Method = Literal["analytic", "large-sample", "bootstrap"]
INTERVAL_METHODS = ("analytic", "large-sample", "bootstrap")
_ANALYTIC = ("observed", "bennett", "fleiss", "scott", "gwet", "conger", "cohen", "alpha")
_MAX_ANALYTIC_ALPHA_CATEGORIES = 2000
_DEFAULT_RESAMPLES = 2000
_CHUNK_ANNOTATIONS = 5_000_000


class ConfidenceInterval(NamedTuple):
    """A confidence interval: ``low`` and ``high``."""

    low: float
    high: float


# ---------------------------------------------------------------------------- validation


def check_confidence_level(confidence_level: float) -> float:
    level = float(confidence_level)
    if not 0.0 < level < 1.0:
        raise ValueError(
            f"`confidence_level` must be strictly between 0 and 1, e.g. 0.95; got "
            f"{confidence_level!r}."
        )
    return level


def check_method(method: str, name: str) -> Method:
    if method not in INTERVAL_METHODS:
        raise ValueError(
            f"`method` must be one of 'analytic', 'large-sample', 'bootstrap'; got {method!r}."
        )
    base = name.split("[")[0]
    if method == "analytic" and base not in _ANALYTIC:
        raise ValueError(
            f"no analytic variance is available for `{base}`; use method='bootstrap'."
        )
    if method == "large-sample" and base != "cohen":
        raise ValueError(
            f"method='large-sample' is the asymptotic variance of two-rater Cohen's kappa; "
            f"`{base}` needs method='analytic' or 'bootstrap'."
        )
    return method  # type: ignore[return-value]


def check_resamples(n_resamples: int) -> int:
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)):
        raise TypeError(f"`n_resamples` must be an integer; got {n_resamples!r}.")
    if n_resamples < 1:
        raise ValueError(f"`n_resamples` must be at least 1, e.g. 2000; got {n_resamples!r}.")
    return int(n_resamples)


def check_options(
    name: str,
    method: str,
    n_resamples: int,
    population: float,
    level: float | None,
    interval: str = "percentile",
) -> None:
    """Validate inference options at the public boundary, whether or not they are used.

    Whether the method applies to the coefficient is checked when an interval is asked for (the
    default "analytic" must not make ``light()`` fail)."""
    if level is not None or method != "analytic":
        check_method(method, name)
    if method == "bootstrap":
        check_resamples(n_resamples)
    check_interval(interval)
    check_population(population)
    if level is not None:
        check_confidence_level(level)


INTERVALS = ("percentile", "basic", "BCa")


def check_interval(interval: str) -> str:
    if interval not in INTERVALS:
        raise ValueError(
            f"`interval` must be one of 'percentile', 'basic', 'BCa'; got {interval!r}."
        )
    return interval


def check_population(population: float) -> float:
    value = float(population)
    if not value > 0:
        raise ValueError(
            f"`N` (the population size for the finite-population correction) must be "
            f"positive; got {population!r}. Leave it at infinity to skip the correction."
        )
    return value


# ---------------------------------------------------------------------------- analytic


def analytic(
    ratings: Ratings, method: str, kwargs: dict[str, Any], population: float
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Value, Gwet's standard error and the number of rated items, per group."""
    value, _, expected = ratings._raw(method, kwargs)
    enc = ratings._enc
    if method == "alpha":
        return _alpha_analytic(ratings, kwargs, value, population)
    nik = ratings._nik
    w, _ = ratings._weights(kwargs.get("weights"))
    item_expected: FloatArray | None
    if method in ("observed", "bennett"):
        item_expected = None
    elif method in ("fleiss", "scott"):
        _, pi = K.fleiss_expected(nik, w, enc.group, enc.n_groups)
        item_expected = V.fleiss_item_expected(nik, w, pi, enc.group)
    elif method == "gwet":
        _, pi = K.gwet_expected(nik, w, enc.group, enc.n_groups)
        item_expected = V.gwet_item_expected(nik, w, pi, enc.group)
    else:  # conger, cohen
        if enc.rater is None:  # pragma: no cover - the method itself refuses counts tables
            raise ValueError("needs raters")
        n_rated = _rated_per_group(ratings)
        item_expected = V.conger_item_expected(
            ratings._nck, w, n_rated, enc.group, enc.item, enc.rater, enc.code, enc.n_items
        )
    var, n = V.linearised_variance(
        nik, w, enc.group, enc.n_groups, value, expected, item_expected, population
    )
    _check_sample_within_population(n, population)
    return value, np.sqrt(var), n


def _rated_per_group(ratings: Ratings) -> FloatArray:
    """Items with at least one rating, per group: the ``n`` of Gwet's variances."""
    enc = ratings._enc
    rated = (ratings._nik.sum(axis=1) >= 1).astype(np.float64)
    return np.bincount(enc.group, weights=rated, minlength=enc.n_groups).astype(np.float64)


def _check_sample_within_population(n: FloatArray, population: float) -> None:
    if np.isfinite(population) and np.any(n > population):
        raise ValueError(
            f"`N` (the population size) must be at least the number of rated items "
            f"({int(n.max())}); got {population!r}. N counts the items the sample was "
            "drawn from."
        )


def _alpha_analytic(
    ratings: Ratings, kwargs: dict[str, Any], value: FloatArray, population: float
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Gwet's variance of alpha, through its agreement-weight form ``w = 1 - delta2 / max``."""
    enc = ratings._enc
    if kwargs.get("weights") is not None:
        w, _ = ratings._weights(kwargs["weights"])
    else:
        w = _alpha_weights(ratings, kwargs.get("level", "nominal"))
    var, _ = V.weighted_alpha_variance(ratings._nik, w, enc.group, enc.n_groups, population)
    n = _rated_per_group(ratings)
    _check_sample_within_population(n, population)
    return value, np.sqrt(var), n


def _alpha_weights(ratings: Ratings, level: Any) -> FloatArray:
    """``w = 1 - delta2 / max(delta2)`` over the categories, for a fixed metric."""
    from ._kernels import alpha as KA
    from .levels import metric_for

    enc = ratings._enc
    k = enc.n_categories
    metric, label = metric_for(level, enc.categories, enc.values, ordered=enc.ordered)
    if isinstance(metric, KA.Ordinal) or k > _MAX_ANALYTIC_ALPHA_CATEGORIES:
        why = (
            "ordinal distances depend on the observed frequencies"
            if isinstance(metric, KA.Ordinal)
            else f"it has {k} distinct values (more than {_MAX_ANALYTIC_ALPHA_CATEGORIES})"
        )
        raise ValueError(
            f"no analytic variance is available for `alpha[{label}]` here: {why}; use "
            "method='bootstrap'."
        )
    if isinstance(metric, KA.Nominal):
        return np.eye(k)
    codes = np.arange(k, dtype=np.int64)
    if isinstance(metric, KA.Interval):
        delta2 = (metric.values[:, None] - metric.values[None, :]) ** 2
    else:
        a, b = np.repeat(codes, k), np.tile(codes, k)
        delta2 = np.asarray(metric.delta2(a, b), dtype=np.float64).reshape(k, k)
    top = delta2.max()
    return np.eye(k) if top <= 0 else 1.0 - delta2 / top


def large_sample(
    ratings: Ratings, kwargs: dict[str, Any]
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Cohen's kappa on the items both raters rated, its ASE, ASE under H0 and n, per group.

    Fleiss, Cohen & Everitt (1969): with cell proportions ``p_kl``, margins ``p_k.``,
    ``p_.l``, ``wbar_k. = sum_l p_.l w_kl`` and ``wbar_.l = sum_k p_k. w_kl``,
    ``var = [sum_kl p_kl (w_kl - (wbar_k. + wbar_.l)(1 - kappa))^2
    - (kappa - A_e (1 - kappa))^2] / (n (1 - A_e)^2)``; under H0,
    ``var0 = [sum_kl p_k. p_.l (w_kl - (wbar_k. + wbar_.l))^2 - A_e^2] / (n (1 - A_e)^2)``.
    """
    w, _ = ratings._weights(kwargs.get("weights"))
    # The two raters with ratings in each group (columns without ratings do not count).
    active = ratings._nck.sum(axis=-1) > 0  # (G, R)
    first_two = np.argsort(~active, axis=1, kind="stable")[:, :2]
    table = ratings._pair_confusion(first_two[:, 0], first_two[:, 1])  # (G, K, K)
    n = table.sum(axis=(1, 2))
    with np.errstate(invalid="ignore", divide="ignore"):
        p = table / n[:, None, None]
        row = p.sum(axis=2)
        col = p.sum(axis=1)
        po = np.einsum("gkl,kl->g", p, w)
        pe = np.einsum("gk,kl,gl->g", row, w, col)
        kappa = (po - pe) / (1.0 - pe)
        wrow = np.einsum("gl,kl->gk", col, w)
        wcol = np.einsum("gk,kl->gl", row, w)
        spread = wrow[:, :, None] + wcol[:, None, :]
        inner = w[None] - spread * (1.0 - kappa)[:, None, None]
        var = ((p * inner**2).sum(axis=(1, 2)) - (kappa - pe * (1.0 - kappa)) ** 2) / (
            n * (1.0 - pe) ** 2
        )
        outer = row[:, :, None] * col[:, None, :]
        var0 = ((outer * (w[None] - spread) ** 2).sum(axis=(1, 2)) - pe**2) / (n * (1.0 - pe) ** 2)
    return kappa, np.sqrt(np.maximum(var, 0.0)), np.sqrt(np.maximum(var0, 0.0)), n


# ---------------------------------------------------------------------------- bootstrap


def _replica(enc: Encoded, pick: IntArray, group: IntArray, n_groups: int) -> Encoded:
    """The items ``pick`` of ``enc`` (repeats allowed) as a new encoding, item ``j`` of it in
    group ``group[j]``: bootstrap and jackknife replicates become groups of one ``by=`` call."""
    n_ann_item = np.bincount(enc.item, minlength=enc.n_items)
    by_item = np.argsort(enc.item, kind="stable")
    starts = np.r_[0, np.cumsum(n_ann_item)[:-1]]
    counts = n_ann_item[pick]
    total = int(counts.sum())
    first = np.repeat(starts[pick] - np.r_[0, np.cumsum(counts)[:-1]], counts)
    ann = by_item[first + np.arange(total)]
    return Encoded(
        layout=enc.layout,
        items=pd.RangeIndex(len(pick)),
        raters=enc.raters,
        categories=enc.categories,
        item=np.repeat(np.arange(len(pick), dtype=np.int64), counts),
        rater=None if enc.rater is None else enc.rater[ann],
        code=enc.code[ann],
        weight=enc.weight[ann],
        group=group.astype(np.int64),
        groups=pd.RangeIndex(n_groups),
        by=enc.by,
    )


class _Replicates:
    """Evaluates one coefficient on many item resamples in one batched call per chunk."""

    def __init__(self, ratings: Ratings, method: str, kwargs: dict[str, Any]) -> None:
        self.ratings = ratings
        self.method = method
        self.kwargs = kwargs
        enc = ratings._enc
        n_ann_item = np.bincount(enc.item, minlength=enc.n_items)
        #: items with at least one rating: the units that are resampled
        self.rated = np.flatnonzero(n_ann_item > 0)
        self.per_item = max(float(n_ann_item[self.rated].mean()), 1.0) if self.rated.size else 1.0
        # Per-item SPA weights follow their items into the replicates.
        self.item_weights: FloatArray | None = None
        weights = kwargs.get("weights")
        if method == "spa" and not (weights is None or isinstance(weights, str)):
            from .spa import _custom_weights

            self.item_weights = _custom_weights(ratings, weights)

    def rows_per_chunk(self, row_length: int) -> int:
        return max(1, int(_CHUNK_ANNOTATIONS // max(row_length * self.per_item, 1.0)))

    def values(self, pick: IntArray, group: IntArray, n_groups: int) -> FloatArray:
        """The coefficient on replica groups: ``pick`` items, ``group`` their replica."""
        from .ratings import Ratings

        replica = Ratings(_replica(self.ratings._enc, pick, group, n_groups))
        call = self.kwargs
        if self.item_weights is not None:
            call = {**call, "weights": self.item_weights[pick]}
        value, _, _ = replica._raw(self.method, call)
        return value

    def statistic(self, sample: FloatArray, axis: int = -1) -> FloatArray:
        """For :func:`scipy.stats.bootstrap` (``vectorized=True``): each slice along ``axis``
        of ``sample`` holds item codes; returns the coefficient of each slice."""
        items = np.moveaxis(np.asarray(sample), axis, -1).astype(np.int64)
        shape, m = items.shape[:-1], items.shape[-1]
        rows = items.reshape(-1, m)
        out = np.empty(len(rows))
        step = self.rows_per_chunk(m)
        for lo in range(0, len(rows), step):
            block = rows[lo : lo + step]
            b = len(block)
            group = np.repeat(np.arange(b, dtype=np.int64), m)
            out[lo : lo + b] = self.values(block.ravel(), group, b)
        return out.reshape(shape)


def bootstrap_values(
    ratings: Ratings,
    method: str,
    kwargs: dict[str, Any],
    n_resamples: int,
    rng: np.random.Generator | int | None,
) -> FloatArray:
    """Replicate values resampling items within each group, shape (n_resamples, n_groups).

    Replicate ``b`` of group ``g`` is group ``b * n_groups + g`` of one batched call (in
    chunks that bound memory); :func:`scipy.stats.bootstrap` cannot resample groups of
    different sizes in one vectorised call, hence this resampler for ``by=``.
    """
    gen = np.random.default_rng(rng)
    enc = ratings._enc
    reps = _Replicates(ratings, method, kwargs)
    grp = enc.group[reps.rated]
    order = reps.rated[np.argsort(grp, kind="stable")]
    sizes = np.bincount(grp, minlength=enc.n_groups)
    offsets = np.r_[0, np.cumsum(sizes)[:-1]]
    slot_group = enc.group[order]
    chunk = min(n_resamples, reps.rows_per_chunk(len(order)))
    out = []
    done = 0
    while done < n_resamples:
        size = min(chunk, n_resamples - done)
        u = gen.random((size, len(order)))
        pick = order[offsets[slot_group] + np.floor(u * sizes[slot_group]).astype(np.int64)]
        group = np.arange(size)[:, None] * enc.n_groups + slot_group[None, :]
        value = reps.values(pick.ravel(), group.ravel(), size * enc.n_groups)
        out.append(value.reshape(size, enc.n_groups))
        done += size
    return np.concatenate(out, axis=0)


def scipy_bootstrap(
    ratings: Ratings,
    method: str,
    kwargs: dict[str, Any],
    *,
    confidence_level: float,
    n_resamples: int,
    rng: np.random.Generator | int | None,
    interval: str,
) -> tuple[float, float, float]:
    """Standard error and interval of an ungrouped coefficient by
    :func:`scipy.stats.bootstrap` (``vectorized=True``) over the rated items, every batch of
    resamples (and the jackknife of ``"BCa"``) being one batched kernel call."""
    from scipy import stats

    reps = _Replicates(ratings, method, kwargs)
    n = len(reps.rated)
    if n < 2 or n_resamples < 2:  # no spread to estimate (as for the grouped resampler)
        return np.nan, np.nan, np.nan
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        # scipy warns when replicates are degenerate (nan, or all equal); the nan interval
        # it then returns is the answer, and the coefficient itself has already warned.
        warnings.simplefilter("ignore", RuntimeWarning)
        warnings.simplefilter("ignore", getattr(stats, "DegenerateDataWarning", RuntimeWarning))
        res = stats.bootstrap(
            (reps.rated.astype(np.float64),),
            reps.statistic,
            vectorized=True,
            n_resamples=n_resamples,
            batch=reps.rows_per_chunk(n),
            confidence_level=confidence_level,
            method=interval,
            rng=np.random.default_rng(rng),
        )
    return (
        float(res.standard_error),
        float(res.confidence_interval.low),
        float(res.confidence_interval.high),
    )


# ---------------------------------------------------------------------------- summaries


def summarise(
    ratings: Ratings,
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
) -> dict[str, FloatArray]:
    """Per-group ``se``, ``low``, ``high`` and ``p_value`` for one coefficient."""
    from scipy import stats  # imported on first use: it is slow to import

    level = check_confidence_level(confidence_level)
    chosen = check_method(method, method_name)
    population = check_population(population)
    if chosen == "analytic":
        value, se, n = analytic(ratings, method_name, kwargs, population)
        with np.errstate(invalid="ignore", divide="ignore"):
            df = n - 1.0
            t = stats.t.ppf(1.0 - (1.0 - level) / 2.0, df)
            low = value - t * se
            high = np.minimum(1.0, value + t * se)
            p = _p_value(value / se, df, alternative)
    elif chosen == "large-sample":
        if np.isfinite(population):
            raise ValueError(
                "`N` (finite-population correction) applies to method='analytic' only; the "
                "large-sample variance of Fleiss, Cohen & Everitt (1969) has none."
            )
        value, se, se0, n = large_sample(ratings, kwargs)
        z = stats.norm.ppf(1.0 - (1.0 - level) / 2.0)
        low, high = value - z * se, value + z * se
        with np.errstate(invalid="ignore", divide="ignore"):
            p = _p_value(value / se0, None, alternative)
    else:
        resamples = check_resamples(n_resamples)
        kind = check_interval(interval)
        if ratings._enc.groups is None:
            se_1, low_1, high_1 = scipy_bootstrap(
                ratings,
                method_name,
                kwargs,
                confidence_level=level,
                n_resamples=resamples,
                rng=rng,
                interval=kind,
            )
            se, low, high = np.array([se_1]), np.array([low_1]), np.array([high_1])
        else:
            if kind == "BCa":
                raise ValueError(
                    "`interval='BCa'` needs a jackknife per group and is available without "
                    "`by=` only; use interval='percentile' or 'basic' with `by=`."
                )
            reps = bootstrap_values(ratings, method_name, kwargs, resamples, rng)
            value = ratings._raw(method_name, kwargs)[0]
            se, low, high = _replicate_summary(reps, value, level, kind)
        p = np.full(se.shape, np.nan)
    return {"se": se, "low": low, "high": high, "p_value": p}


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
        q_low, q_high = np.nanquantile(masked, [tail, 1.0 - tail], axis=0)
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


# ---------------------------------------------------------------------------- interpretation

# Each band: (upper bound, whether the bound belongs to the band, label); values above the last
# bound fall in the last band.
SCALES: dict[str, list[tuple[float, bool, str]]] = {
    # Landis & Koch (1977), Biometrics 33(1), p. 165: < 0 poor, 0.00-0.20 slight, 0.21-0.40
    # fair, 0.41-0.60 moderate, 0.61-0.80 substantial, 0.81-1.00 almost perfect.
    "landis-koch": [
        (0.0, False, "poor"),
        (0.20, True, "slight"),
        (0.40, True, "fair"),
        (0.60, True, "moderate"),
        (0.80, True, "substantial"),
        (1.0, True, "almost perfect"),
    ],
    # Altman (1991), Practical Statistics for Medical Research, p. 404: < 0.20 poor,
    # 0.21-0.40 fair, 0.41-0.60 moderate, 0.61-0.80 good, 0.81-1.00 very good.
    "altman": [
        (0.20, True, "poor"),
        (0.40, True, "fair"),
        (0.60, True, "moderate"),
        (0.80, True, "good"),
        (1.0, True, "very good"),
    ],
    # Fleiss (1981), Statistical Methods for Rates and Proportions, p. 218: below 0.40 poor,
    # 0.40-0.75 fair to good, above 0.75 excellent.
    "fleiss": [(0.40, False, "poor"), (0.75, True, "fair to good"), (1.0, True, "excellent")],
    # Krippendorff (2004), Content Analysis, 2nd ed., p. 241: rely on alpha >= .800, draw
    # tentative conclusions for .667 <= alpha < .800, discard data below .667.
    "krippendorff": [
        (0.667, False, "unreliable"),
        (0.800, False, "tentative"),
        (1.0, True, "reliable"),
    ],
}


def interpret(value: float, scale: str) -> str:
    """The band ``value`` falls in on ``scale``; see :meth:`Coefficient.interpret`."""
    if scale not in SCALES:
        raise ValueError(
            "`scale` must be one of 'landis-koch', 'altman', 'fleiss', 'krippendorff'; got "
            f"{scale!r}."
        )
    if np.isnan(value):
        return "undefined"
    bands = SCALES[scale]
    for upper, inclusive, label in bands:
        if value < upper or (inclusive and value == upper):
            return label
    return bands[-1][2]
