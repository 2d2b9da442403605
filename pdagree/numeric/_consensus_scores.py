"""``Ratings.consensus_scores``: each item's score adjusted for who rated it, each rater's
severity, and the variance components behind them (:class:`ScoreConsensus`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

from .._typing import FloatArray, IntArray
from ..encoding import fmt
from ..icc import reml_groups
from ..scores import ScoreData, Scores, warn_undefined
from ..tensors.keys import key_index
from ._blup import predict

__all__ = ["METHODS", "ScoreConsensus", "consensus_scores"]

METHODS = ("mixed", "mean", "median")
Method = Literal["mixed", "mean", "median"]


@dataclass(frozen=True, repr=False)
class ScoreConsensus:
    """One score per item and one severity per rater.

    Attributes
    ----------
    method : str
        ``"mixed"``, ``"mean"`` or ``"median"``.
    scores : pandas.DataFrame
        One row per item: ``score`` (the adjusted score, or the plain mean or median),
        ``standard_error`` (the square root of the prediction error variance; for the mean,
        ``sd / sqrt(n)``; nan for the median), ``mean`` (the plain mean) and ``n_ratings``.
    raters : pandas.DataFrame
        One row per rater: ``severity`` (in score units: how much higher than the item's
        score the rater scores), its ``standard_error``, ``n_items`` and ``residual_sd`` (the
        root mean square of the rater's residuals: a rater who scores noisily stands out).
    variance_components : pandas.Series or pandas.DataFrame
        The REML estimates ``item``, ``rater`` and ``residual`` (with ``by=``, one row per
        group), in squared score units.
    """

    method: str
    scores: pd.DataFrame
    raters: pd.DataFrame
    variance_components: pd.Series | pd.DataFrame

    def to_frame(self) -> pd.DataFrame:
        """The per-item scores (:attr:`scores`).

        Returns
        -------
        DataFrame
            A copy of :attr:`scores`.
        """
        return self.scores.copy()

    def __repr__(self) -> str:
        return (
            f"<consensus_scores method={self.method!r}: {len(self.scores)} items, "
            f"{len(self.raters)} raters>"
        )


def _median(x: FloatArray, item: IntArray, n_items: int) -> FloatArray:
    """Each item's median, from one sort of (item, value)."""
    order = np.lexsort((x, item))
    count = np.bincount(item, minlength=n_items)
    start = np.cumsum(count) - count
    low = start + (count - 1) // 2
    high = start + count // 2
    with np.errstate(invalid="ignore"):
        out: FloatArray = np.where(
            count > 0,
            (x[order][np.minimum(low, len(x) - 1)] + x[order][np.minimum(high, len(x) - 1)]) / 2,
            np.nan,
        )
    return out


def consensus_scores(data: ScoreData, method: Method = "mixed") -> ScoreConsensus:
    """Each item's score adjusted for the severity of whoever rated it.

    ``method="mixed"`` (the default) fits the two-way random-effects model ``y_ij = mu + a_i
    + b_j + e_ij`` (items, raters, residual), estimates its variance components by REML as
    :meth:`icc` does, and predicts each item's score ``mu + a_i`` and each rater's effect
    ``b_j`` by their best linear unbiased predictions (Henderson's mixed-model equations):
    an item scored only by severe raters is raised, one scored only by lenient raters
    lowered, and each item's mean is shrunk towards the grand mean by the reliability of its
    ratings (on a complete design, ``sigma_a^2 / (sigma_a^2 + sigma_e^2 / k)``). The standard
    error is the square root of the prediction error variance. ``"mean"`` and ``"median"``
    are the plain per-item aggregates, for comparison, with each rater's severity their mean
    deviation from them.

    Parameters
    ----------
    method : {"mixed", "mean", "median"}, default "mixed"
        The score.

    Returns
    -------
    ScoreConsensus
        ``scores`` (per item: ``score``, ``standard_error``, ``mean``, ``n_ratings``),
        ``raters`` (per rater: ``severity``, ``standard_error``, ``n_items``,
        ``residual_sd``), ``variance_components`` (``item``, ``rater``, ``residual``) and
        ``to_frame()``; with ``by=``, one model per group, every group in one pass, the
        frames indexed by group and item (rater). A group whose ratings do not vary: nan
        with an :class:`~pdagree.UndefinedStatisticWarning`.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdagree
    >>> judges = pd.DataFrame({"a": [7, 5, 9, 6], "b": [6, 4, 8, 6], "c": [8, 5, 9, 7]})
    >>> fit = judges.agree.consensus_scores()
    >>> fit.scores["score"].round(2).tolist()
    [6.99, 4.7, 8.63, 6.34]
    """
    if method not in METHODS:
        raise ValueError(f"`method` must be one of {fmt(list(METHODS))}; got {method!r}.")
    data = data.rows
    scores = Scores.of(data, "consensus_scores")
    x, item, g_item, g_rating = scores.x, scores.item, scores.group, scores.rating_group
    pair, pair_group, _ = scores.pairs
    unit = np.ldexp(1.0, scores.exponent)  # per group: the score units of one centred unit
    n_items = scores.n_items
    n_i = scores.per_item.astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.bincount(item, weights=x, minlength=n_items) / n_i
    s_a, s_b, s_e = reml_groups(scores)
    warn_undefined(s_e, "consensus_scores", data.enc.groups)
    if method == "mixed":
        fit = predict(scores, s_a, s_b, s_e)
        offset = _group_mean(scores)
        score = offset[g_item] + fit.item_score * unit[g_item]
        se = np.sqrt(fit.item_pev) * unit[g_item]
        severity = fit.rater_effect * unit[pair_group]
        severity_se = np.sqrt(fit.rater_pev) * unit[pair_group]
        residual = fit.residual * unit[g_rating]
    else:
        score = mean if method == "mean" else _median(x, item, n_items)
        deviation = x - score[item]
        with np.errstate(invalid="ignore", divide="ignore"):
            spread = np.bincount(item, weights=(x - mean[item]) ** 2, minlength=n_items)
            se = (
                np.sqrt(spread / (n_i - 1.0) / n_i)
                if method == "mean"
                else np.full(n_items, np.nan)
            )
        severity, severity_se = _mean_and_se(deviation, pair, scores.n_pairs)
        residual = deviation - severity[pair]
    n_rated = np.bincount(pair, minlength=scores.n_pairs)
    with np.errstate(invalid="ignore", divide="ignore"):
        residual_sd = np.sqrt(
            np.bincount(pair, weights=residual**2, minlength=scores.n_pairs) / n_rated
        )
    items = pd.DataFrame(
        {"score": score, "standard_error": se, "mean": mean, "n_ratings": n_i.astype(np.int64)},
        index=data.item_index(),
    )
    keys = np.arange(scores.n_pairs) if data.enc.groups is not None else _rater_codes(scores)
    raters = pd.DataFrame(
        {
            "severity": severity,
            "standard_error": severity_se,
            "n_items": n_rated,
            "residual_sd": residual_sd,
        },
        index=key_index(data, keys),
    )
    scale = unit**2
    components = pd.DataFrame(
        {"item": s_a * scale, "rater": s_b * scale, "residual": s_e * scale},
        index=data.enc.groups,
    )
    kept: pd.Series | pd.DataFrame = (
        components if data.enc.groups is not None else components.iloc[0].rename(None)
    )
    return ScoreConsensus(str(method), items, raters, kept)


def _group_mean(scores: Scores) -> FloatArray:
    """Per group: the origin of :attr:`Scores.centred` in score units, ``x = origin +
    centred * 2**exponent``: the mean of the ratings in two passes (the second removes the
    first one's rounding, as :class:`Scores` centres them), less what is left of the mean in
    the centred values."""
    g, count = scores.rating_group, scores.group_count
    with np.errstate(invalid="ignore", divide="ignore"):
        first = np.bincount(g, weights=scores.x, minlength=scores.n_groups) / count
        second = np.bincount(g, weights=scores.x - first[g], minlength=scores.n_groups) / count
        rest = np.bincount(g, weights=scores.centred, minlength=scores.n_groups) / count
        out: FloatArray = first + second - rest * np.ldexp(1.0, scores.exponent)
    return out


def _mean_and_se(values: FloatArray, key: IntArray, n_keys: int) -> tuple[FloatArray, FloatArray]:
    """Per key: the mean of ``values`` and its standard error ``sd / sqrt(n)``."""
    n = np.bincount(key, minlength=n_keys).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.bincount(key, weights=values, minlength=n_keys) / n
        ss = np.bincount(key, weights=(values - mean[key]) ** 2, minlength=n_keys)
        se = np.sqrt(ss / (n - 1.0) / n)
    return mean, np.where(n > 1, se, np.nan)


def _rater_codes(scores: Scores) -> IntArray:
    """Without ``by=``: each (group, rater) pair's rater code."""
    code: IntArray = np.zeros(scores.n_pairs, dtype=np.int64)
    code[scores.group_rater] = scores.rater
    return code
