"""Cronbach's alpha with the raters as the items of a scale (Cronbach 1951), and Feldt's
(1965) interval.

With ``k`` raters, ``C`` the (k, k) covariance matrix of their ratings over the items,

    alpha = k / (k - 1) * (1 - trace(C) / sum(C)),

which on complete items is ``k / (k - 1) * (1 - sum_j var_j / var_T)`` with ``var_T`` the
variance of the items' totals. ``missing="omit"`` keeps the items every rater of the group
rated (listwise, R ``psych::alpha(use="complete.obs")``); ``"pairwise"`` takes each variance
and covariance over the items its rater(s) rated (pandas' ``DataFrame.cov``, pingouin's
default). Feldt's interval: ``(1 - alpha) / (1 - alpha_pop)`` is F-distributed with ``n - 1``
and ``(n - 1)(k - 1)`` degrees of freedom, ``n`` the items (pingouin's, with every item that
has a rating under ``"pairwise"``).
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import pandas as pd

from .._typing import FloatArray
from .._warnings import PdagreeWarning, warn
from ..inference import ConfidenceInterval, check_confidence_level
from ..results import Statistic
from ..scores import ScoreData, Scores, complete_items, warn_undefined
from ._sums import pair_sums, rater_variances

__all__ = ["CronbachAlpha", "cronbach_alpha"]

Missing = Literal["omit", "pairwise"]


def feldt_interval(
    alpha: FloatArray, n: FloatArray, k: FloatArray, confidence_level: float
) -> tuple[FloatArray, FloatArray]:
    """Feldt's (1965) interval of Cronbach's alpha from ``n`` items and ``k`` raters."""
    from scipy import stats

    tail = (1.0 - confidence_level) / 2.0
    df1 = n - 1.0
    df2 = df1 * (k - 1.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        ok = (df1 > 0) & (df2 > 0) & np.isfinite(alpha)
        d1, d2 = np.where(ok, df1, 1.0), np.where(ok, df2, 1.0)
        low = 1.0 - (1.0 - alpha) * stats.f.isf(tail, d1, d2)
        high = 1.0 - (1.0 - alpha) * stats.f.isf(1.0 - tail, d1, d2)
    return np.where(ok, low, np.nan), np.where(ok, high, np.nan)


class CronbachAlpha(Statistic):
    """Cronbach's alpha: a ``float`` with the items and raters it was computed on.

    Attributes
    ----------
    n_items, n_raters : int
        The items (the complete ones with ``missing="omit"``) and the raters.
    missing : str
        ``"omit"`` or ``"pairwise"``.
    n_dropped : int
        The items left out by ``missing="omit"``.
    confidence_level, low, high : float or None
        The interval asked for when computing (``None`` when none was).
    """

    missing: str
    n_dropped: int
    confidence_level: float | None
    low: float | None
    high: float | None

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """Feldt's (1965) interval at ``confidence_level`` (pingouin's ``ci``).

        Parameters
        ----------
        confidence_level : float, default 0.95
            The interval's level.

        Returns
        -------
        ConfidenceInterval
            ``(low, high)``.
        """
        level = check_confidence_level(confidence_level)
        one = np.array([float(self)])
        low, high = feldt_interval(
            one, np.array([float(self.n_items)]), np.array([float(self.n_raters)]), level
        )
        return ConfidenceInterval(float(low[0]), float(high[0]))


def _alpha(scores: Scores, missing: object) -> tuple[FloatArray, FloatArray, FloatArray, int]:
    """Per group: alpha, its items and its raters; and the items dropped."""
    x = scores.centred  # alpha is a ratio of (co)variances: the group's unit cancels
    k = scores.raters_per_group.astype(np.float64)
    if missing == "omit":
        keep, _, dropped = complete_items(scores, "omit")
        rows = keep[scores.item]
        n = np.bincount(scores.group, weights=keep, minlength=scores.n_groups).astype(np.float64)
        var = rater_variances(scores, x, rows)
        total = np.bincount(scores.item, weights=np.where(rows, x, 0.0), minlength=len(keep))
        s1 = np.bincount(scores.group, weights=np.where(keep, total, 0.0), minlength=len(n))
        s2 = np.bincount(scores.group, weights=np.where(keep, total**2, 0.0), minlength=len(n))
        with np.errstate(invalid="ignore", divide="ignore"):
            var_total = (s2 - s1 * s1 / n) / (n - 1.0)
        trace = np.bincount(scores.pairs[1], weights=var, minlength=scores.n_groups)
    else:
        dropped = 0
        n = scores.items_per_group.astype(np.float64)
        var = rater_variances(scores, x)
        trace = np.bincount(scores.pairs[1], weights=var, minlength=scores.n_groups)
        pairs = pair_sums(scores, x)
        off = np.bincount(pairs.group, weights=pairs.covariance, minlength=scores.n_groups)
        found = np.bincount(pairs.group, minlength=scores.n_groups)
        var_total = trace + 2.0 * off
        var_total[found < k * (k - 1.0) / 2.0] = np.nan  # a pair who share no item
    with np.errstate(invalid="ignore", divide="ignore"):
        value = k / (k - 1.0) * (1.0 - trace / var_total)
    undefined = (k < 2) | (n < 2) | ~(var_total > 0) | ~np.isfinite(value)
    return np.where(undefined, np.nan, value), n, k, dropped


def cronbach_alpha(
    data: ScoreData,
    confidence_level: float | None = None,
    *,
    missing: Missing = "omit",
) -> CronbachAlpha | pd.DataFrame:
    """Cronbach's alpha, with the raters as the items of a scale.

    ``alpha = k / (k - 1) * (1 - trace(C) / sum(C))`` (Cronbach 1951) over the ``k``
    raters' covariance matrix ``C``: how well the raters' scores add up to one consistent
    total. It reads numeric ratings; it measures consistency (a rater who scores every item
    2 points higher does not lower it), not absolute agreement (see ``icc("A,1")``).

    Parameters
    ----------
    confidence_level : float, optional
        Add Feldt's (1965) interval at this level (``low`` and ``high``; with ``by=``, as
        columns); the result's ``confidence_interval(level)`` gives it at any level.
    missing : {"omit", "pairwise"}, default "omit"
        ``"omit"``: only the items every rater (of the group) rated, as R
        ``psych::alpha(use="complete.obs")`` and pingouin's ``nan_policy="listwise"``; the
        items dropped are counted (``n_dropped``) and announced. ``"pairwise"``: each
        variance and covariance over the items its rater(s) rated, as pandas'
        ``DataFrame.cov`` and pingouin's default.

    Returns
    -------
    CronbachAlpha or pandas.DataFrame
        A ``float`` with ``n_items``, ``n_raters``, ``missing``, ``n_dropped`` and
        ``confidence_interval()``; with ``by=``, one row per group (``value``, ``n_items``,
        ``n_raters``, and ``low``/``high`` with a ``confidence_level``). Fewer than two
        raters or items, totals that do not vary, or (pairwise) two raters with fewer than
        two items in common: nan with an :class:`~pdagree.UndefinedStatisticWarning`.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdagree
    >>> scores = pd.DataFrame({"a": [1, 2, 3, 4, 5], "b": [2, 2, 4, 4, 5], "c": [1, 3, 3, 5, 4]})
    >>> round(float(scores.agree.cronbach_alpha()), 4)
    0.9364
    """
    if missing not in ("omit", "pairwise"):
        raise ValueError(f"`missing` must be 'omit' or 'pairwise'; got {missing!r}.")
    level = None if confidence_level is None else check_confidence_level(confidence_level)
    data = data.rows
    scores = Scores.of(data, "cronbach_alpha")
    value, n, k, dropped = _alpha(scores, missing)
    if dropped:
        warn(
            f"`cronbach_alpha()` dropped {dropped} items that lack a rating from some rater "
            "(missing='omit'; missing='pairwise' keeps them).",
            PdagreeWarning,
        )
    groups = data.enc.groups
    warn_undefined(value, "cronbach_alpha", groups)
    if groups is not None:
        out: dict[str, Any] = {
            "value": value, "n_items": n.astype(np.int64), "n_raters": k.astype(np.int64),
        }  # fmt: skip
        if level is not None:
            out["low"], out["high"] = feldt_interval(value, n, k, level)
        return pd.DataFrame(out, index=groups)
    low = high = None
    if level is not None:
        bounds = feldt_interval(value[:1], n[:1], k[:1], level)
        low, high = float(bounds[0][0]), float(bounds[1][0])
    return CronbachAlpha(
        float(value[0]),
        name="cronbach_alpha",
        n_items=int(n[0]),
        n_raters=int(k[0]),
        n_categories=0,  # read as numbers
        categories=(),
        missing=str(missing),
        n_dropped=dropped,
        confidence_level=level,
        low=low,
        high=high,
    )
