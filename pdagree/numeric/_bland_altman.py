"""Bland & Altman's limits of agreement of two raters (Bland & Altman 1986, 1999).

Over the ``n`` items both rated, with ``d = a - b`` per item: the bias ``mean(d)``, the
standard deviation ``sd`` of ``d`` (``ddof=1``) and the limits of agreement ``bias -/+ 1.96
sd``, between which about 95% of the differences fall. Their confidence intervals use
``t_(n-1)``: ``bias -/+ t sd / sqrt(n)`` and, for each limit, ``-/+ t sqrt(3 sd^2 / n)``
(Bland & Altman 1986, section 5; 1999, section 2.2), as pingouin's ``plot_blandaltman``.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .._typing import FloatArray, IntArray
from .._warnings import UndefinedStatisticWarning, warn
from ..encoding import fmt, plain
from ..inference import check_confidence_level
from ..scores import ScoreData, Scores
from ._sums import two_raters

__all__ = ["BlandAltman", "bland_altman"]

#: The summary columns, in order (the DataFrame with ``by=``, ``to_frame()``).
COLUMNS = (
    "bias", "sd", "lower", "upper", "bias_low", "bias_high", "lower_low", "lower_high",
    "upper_low", "upper_high", "n_items",
)  # fmt: skip


@dataclass(frozen=True, repr=False, eq=False)
class BlandAltman:
    """Bland & Altman's limits of agreement of ``rater_a`` and ``rater_b``.

    Attributes
    ----------
    bias, sd : float
        The mean and the standard deviation of ``rater_a - rater_b`` over the items both
        rated.
    lower, upper : float
        The limits of agreement, ``bias -/+ agreement * sd``.
    bias_low, bias_high, lower_low, lower_high, upper_low, upper_high : float
        The ``confidence_level`` intervals of the bias and of each limit.
    n_items : int
        The items both rated.
    means, differences : numpy.ndarray
        Per item both rated, the mean of the two scores and their difference (what
        :func:`pdagree.plotting.bland_altman` draws).
    """

    bias: float
    sd: float
    lower: float
    upper: float
    bias_low: float
    bias_high: float
    lower_low: float
    lower_high: float
    upper_low: float
    upper_high: float
    n_items: int
    rater_a: Hashable
    rater_b: Hashable
    confidence_level: float
    agreement: float
    means: FloatArray = field(repr=False)
    differences: FloatArray = field(repr=False)

    def to_frame(self) -> pd.DataFrame:
        """One labelled row: the bias, the limits and their intervals.

        Returns
        -------
        DataFrame
            One row indexed ``"rater_a - rater_b"``.
        """
        row = {name: getattr(self, name) for name in COLUMNS}
        index = pd.Index([f"{plain(self.rater_a)} - {plain(self.rater_b)}"], name="raters")
        return pd.DataFrame([row], index=index)

    def __repr__(self) -> str:
        return (
            f"<bland_altman {plain(self.rater_a)} - {plain(self.rater_b)}: "
            f"bias={self.bias:.4g}, limits=[{self.lower:.4g}, {self.upper:.4g}], "
            f"n_items={self.n_items}>"
        )


def _limits(
    group: FloatArray,
    d: FloatArray,
    n_groups: int,
    confidence_level: float,
    agreement: float,
) -> dict[str, FloatArray]:
    """Per group: the bias, sd, limits and their intervals from the differences ``d``."""
    from scipy import stats

    g = group.astype(np.int64)
    n = np.bincount(g, minlength=n_groups).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        bias = np.bincount(g, weights=d, minlength=n_groups) / n
        e = d - bias[g]
        sd = np.sqrt(np.bincount(g, weights=e * e, minlength=n_groups) / (n - 1.0))
        t = stats.t.ppf(0.5 + confidence_level / 2.0, np.where(n > 1, n - 1.0, 1.0))
        half_bias = t * sd / np.sqrt(n)
        half_limit = t * np.sqrt(3.0 * sd**2 / n)
    ok = n >= 2
    sd = np.where(ok, sd, np.nan)
    lower, upper = bias - agreement * sd, bias + agreement * sd
    return {
        "bias": np.where(n >= 1, bias, np.nan),
        "sd": sd,
        "lower": lower,
        "upper": upper,
        "bias_low": np.where(ok, bias - half_bias, np.nan),
        "bias_high": np.where(ok, bias + half_bias, np.nan),
        "lower_low": lower - half_limit,
        "lower_high": lower + half_limit,
        "upper_low": upper - half_limit,
        "upper_high": upper + half_limit,
        "n_items": n,
    }


def _code(raters: pd.Index | None, rater: Hashable, name: str) -> int:
    """The code of rater ``rater`` (argument ``name``)."""
    if raters is None:
        raise ValueError("`bland_altman()` compares two raters; these data have no raters.")
    found: IntArray = (
        np.flatnonzero(raters == rater) if not isinstance(rater, tuple) else np.array([], int)
    )
    if not len(found):
        raise ValueError(
            f"`{name}` names rater {plain(rater)!r}, which is not in the data; raters: "
            f"{fmt(list(raters[:10]))}."
        )
    return int(found[0])


def bland_altman(
    data: ScoreData,
    rater_a: Hashable,
    rater_b: Hashable,
    confidence_level: float = 0.95,
    *,
    agreement: float = 1.96,
) -> BlandAltman | pd.DataFrame:
    """Bland & Altman's limits of agreement of two raters' numeric scores.

    Over the items both raters scored, ``d = rater_a - rater_b``: the ``bias`` (mean of
    ``d``), its standard deviation ``sd``, and the limits ``bias -/+ 1.96 sd`` within which
    about 95% of the two raters' differences fall (Bland & Altman 1986), each with its
    ``confidence_level`` interval from ``t`` with ``n - 1`` degrees of freedom (the limits'
    standard error ``sqrt(3 sd^2 / n)``, Bland & Altman 1986, 1999).

    Parameters
    ----------
    rater_a, rater_b : hashable
        The two raters (column names of a wide frame, values of the rater column).
    confidence_level : float, default 0.95
        The level of the intervals of the bias and the limits.
    agreement : float, default 1.96
        The limits' multiple of ``sd`` (1.96: 95% limits of agreement).

    Returns
    -------
    BlandAltman or pandas.DataFrame
        ``bias``, ``sd``, ``lower``, ``upper`` and their intervals (``bias_low``,
        ``bias_high``, ``lower_low``, ``lower_high``, ``upper_low``, ``upper_high``),
        ``n_items``, and per item ``means`` and ``differences``; with ``by=``, one row per
        group. Fewer than two items scored by both: nan with an
        :class:`~pdagree.UndefinedStatisticWarning`.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdagree
    >>> judges = pd.DataFrame({"a": [3.0, 5.0, 4.0, 6.0], "b": [2.0, 5.0, 3.0, 5.0]})
    >>> ba = judges.agree.bland_altman("a", "b")
    >>> round(ba.bias, 2), round(ba.sd, 2)
    (0.75, 0.5)
    """
    level = check_confidence_level(confidence_level)
    if isinstance(agreement, bool) or not isinstance(agreement, (int, float, np.floating)):
        raise TypeError(f"`agreement` must be a number, e.g. 1.96; got {agreement!r}.")
    if not np.isfinite(agreement) or agreement <= 0:
        raise ValueError(f"`agreement` must be a positive number, e.g. 1.96; got {agreement!r}.")
    data = data.rows
    raters = data.enc.raters
    a, b = _code(raters, rater_a, "rater_a"), _code(raters, rater_b, "rater_b")
    if a == b:
        raise ValueError(f"`rater_a` and `rater_b` are the same rater, {plain(rater_a)!r}.")
    scores = Scores.of(data, "bland_altman")
    pair_rater: IntArray = np.zeros(scores.n_pairs, dtype=np.int64)
    pair_rater[scores.group_rater] = scores.rater
    slots = np.select([pair_rater == a, pair_rater == b], [0, 1], -1)
    group, x, y = two_raters(scores, scores.x, slots)
    parts = _limits(group, x - y, scores.n_groups, level, float(agreement))
    groups = data.enc.groups
    bad = parts["n_items"] < 2
    if bad.any():
        where = "" if groups is None else f" in groups {fmt(list(groups[bad][:5]))}"
        warn(
            f"`bland_altman()` is undefined{where}: fewer than two items scored by both "
            f"{plain(rater_a)!r} and {plain(rater_b)!r}.",
            UndefinedStatisticWarning,
        )
    if groups is not None:
        frame = pd.DataFrame({name: parts[name] for name in COLUMNS}, index=groups)
        frame["n_items"] = frame["n_items"].astype(np.int64)
        return frame
    one: dict[str, Any] = {name: float(parts[name][0]) for name in COLUMNS}
    one["n_items"] = int(one["n_items"])
    return BlandAltman(
        **one,
        rater_a=rater_a,
        rater_b=rater_b,
        confidence_level=level,
        agreement=float(agreement),
        means=(x + y) / 2.0,
        differences=x - y,
    )
