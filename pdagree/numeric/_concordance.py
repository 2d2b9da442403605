"""Lin's concordance correlation coefficient of two raters (Lin 1989; the variance as
corrected in Lin 2000).

Over the ``n`` items both rated, with means ``m_x``, ``m_y``, variances ``s_x^2``, ``s_y^2``
and covariance ``s_xy`` (divisor ``n``, as Lin writes them),

    rho_c = 2 s_xy / (s_x^2 + s_y^2 + (m_x - m_y)^2),

the Pearson correlation ``r`` times the accuracy ``C_b = rho_c / r``: how far the pairs lie
from the line ``y = x``. The interval is Lin's, through Fisher's ``z = atanh(rho_c)``, with
``u = (m_x - m_y) / sqrt(s_x s_y)``:

    var(z) = [(1 - r^2) rho_c^2 (1 - rho_c^2) / r^2 + 2 rho_c^3 (1 - rho_c) u^2 / r
              - rho_c^4 u^4 / (2 r^2)] / ((n - 2) (1 - rho_c^2)^2).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._kernels.multilabel import annotation_pairs
from .._typing import FloatArray, IntArray
from .._warnings import UndefinedStatisticWarning, warn
from ..definitions.breakdowns import check_pairwise_size
from ..encoding import fmt
from ..inference import ConfidenceInterval, check_confidence_level
from ..results import Statistic
from ..scores import ScoreData, Scores, warn_undefined
from ._sums import two_raters

__all__ = ["Concordance", "concordance", "lin_terms", "pairwise_concordance"]


def lin_terms(group: FloatArray, x: FloatArray, y: FloatArray, n_groups: int) -> dict[str, Any]:
    """Per group: ``n``, ``rho_c``, Pearson's ``r``, the location shift ``u``, the scale shift
    ``v = s_x / s_y`` and the standard error of Fisher's ``z`` of ``rho_c``."""
    g: IntArray = group.astype(np.int64)

    def total(w: FloatArray) -> FloatArray:
        out: FloatArray = np.bincount(g, weights=w, minlength=n_groups).astype(np.float64)
        return out

    n = np.bincount(g, minlength=n_groups).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mx, my = total(x) / n, total(y) / n
        dx, dy = x - mx[g], y - my[g]  # deviations from the group's means: two passes
        sxx, syy, sxy = total(dx * dx) / n, total(dy * dy) / n, total(dx * dy) / n
        shift = mx - my
        rho = 2.0 * sxy / (sxx + syy + shift**2)
        r = sxy / np.sqrt(sxx * syy)
        u = shift / np.sqrt(np.sqrt(sxx * syy))
        v = np.sqrt(sxx / syy)
        var_z = (
            (1.0 - r**2) * rho**2 * (1.0 - rho**2) / r**2
            + 2.0 * rho**3 * (1.0 - rho) * u**2 / r
            - rho**4 * u**4 / (2.0 * r**2)
        ) / ((n - 2.0) * (1.0 - rho**2) ** 2)
        se_z = np.where((n > 2) & (var_z >= 0), np.sqrt(var_z), np.nan)
    rho = np.where(n >= 2, rho, np.nan)
    return {"n": n, "rho": rho, "r": r, "u": u, "v": v, "se_z": se_z}


def lin_interval(
    rho: FloatArray, se_z: FloatArray, confidence_level: float
) -> tuple[FloatArray, FloatArray]:
    """Lin's interval: ``tanh(atanh(rho_c) -/+ z_(1 - a/2) se_z)``."""
    from scipy import stats

    q = stats.norm.ppf(0.5 + confidence_level / 2.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        z = np.arctanh(rho)
        return np.tanh(z - q * se_z), np.tanh(z + q * se_z)


class Concordance(Statistic):
    """Lin's concordance correlation coefficient: a ``float`` with its parts.

    Attributes
    ----------
    pearson : float
        Pearson's correlation of the two raters' scores (the precision).
    accuracy : float
        ``C_b = rho_c / r``, 1 when the best-fit line is ``y = x``.
    location_shift, scale_shift : float
        ``u = (m_x - m_y) / sqrt(s_x s_y)`` and ``v = s_x / s_y`` (Lin 1989).
    se_z : float
        The standard error of Fisher's ``z`` of ``rho_c`` (Lin 1989, 2000).
    raters : tuple
        The two raters, ``x`` first.
    """

    raters: tuple[Any, ...]
    pearson: float
    accuracy: float
    location_shift: float
    scale_shift: float
    se_z: float
    confidence_level: float | None
    low: float | None
    high: float | None

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """Lin's interval at ``confidence_level``, through Fisher's z.

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
        low, high = lin_interval(np.array([float(self)]), np.array([self.se_z]), level)
        return ConfidenceInterval(float(low[0]), float(high[0]))


def _slots(scores: Scores, data: ScoreData) -> IntArray:
    """Per (group, rater) pair: its rater's position (0, 1) among its group's raters; a clear
    error (or, with ``by=``, nan for the group) when a group has not two raters."""
    k = scores.raters_per_group
    groups = data.enc.groups
    if groups is None and k[0] != 2:
        raters = data.enc.raters
        shown = fmt(list(raters[:5])) if raters is not None else "none"
        raise ValueError(
            f"`concordance()` compares two raters; the data have {int(k[0])} ({shown}). "
            "Select two of them with `raters=`, or compare every pair with "
            "`pairwise('concordance')`."
        )
    if groups is not None and (k != 2).any():
        warn(
            f"`concordance()` compares two raters; groups {fmt(list(groups[k != 2][:5]))} "
            "have another number: nan there.",
            UndefinedStatisticWarning,
        )
    _, pair_group, slot = scores.pairs
    return np.where(k[pair_group] == 2, slot, -1)


def concordance(
    data: ScoreData, confidence_level: float | None = None
) -> Concordance | pd.DataFrame:
    """Lin's concordance correlation coefficient of two raters' numeric scores.

    ``rho_c = 2 s_xy / (s_x^2 + s_y^2 + (m_x - m_y)^2)`` over the items both rated (Lin
    1989): 1 when every pair of scores is equal, lowered both by scatter (Pearson's ``r``,
    the precision) and by a shift of one rater's location or scale (the accuracy ``C_b``).
    Variances use the divisor ``n``, as Lin's estimator, R ``DescTools::CCC`` and
    ``epiR::epi.ccc`` do.

    Parameters
    ----------
    confidence_level : float, optional
        Add Lin's (1989; 2000 correction) interval through Fisher's z (``low``, ``high``);
        ``confidence_interval(level)`` gives it at any level.

    Returns
    -------
    Concordance or pandas.DataFrame
        A ``float`` with ``pearson``, ``accuracy``, ``location_shift``, ``scale_shift``,
        ``se_z``, ``n_items``, ``raters``; with ``by=``, one row per group. Fewer than two
        items rated by both, or scores that do not vary: nan with an
        :class:`~pdagree.UndefinedStatisticWarning`.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdagree
    >>> judges = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "b": [1.5, 2.0, 3.5, 4.5]})
    >>> round(float(judges.agree.concordance()), 4)
    0.9333
    """
    level = None if confidence_level is None else check_confidence_level(confidence_level)
    data = data.rows
    scores = Scores.of(data, "concordance")
    slots = _slots(scores, data)
    # Lin's rho_c is unchanged by a shift and a scale common to both raters: each group's
    # ratings in its unit (Scores.centred) keep the sums exact at any offset or magnitude.
    group, x, y = two_raters(scores, scores.centred, slots)
    parts = lin_terms(group, x, y, scores.n_groups)
    value = parts["rho"]
    groups = data.enc.groups
    warn_undefined(np.where(scores.raters_per_group == 2, value, 0.0), "concordance", groups)
    names = ("n", "pearson", "accuracy", "location_shift", "scale_shift", "se_z")
    with np.errstate(invalid="ignore", divide="ignore"):
        columns = dict(zip(names, (parts["n"], parts["r"], value / parts["r"], parts["u"],
                                   parts["v"], parts["se_z"]), strict=True))  # fmt: skip
    if groups is not None:
        out: dict[str, Any] = {"value": value, "n_items": columns.pop("n").astype(np.int64)}
        out.update(columns)
        if level is not None:
            out["low"], out["high"] = lin_interval(value, parts["se_z"], level)
        return pd.DataFrame(out, index=groups)
    raters = data.enc.raters
    low = high = None
    if level is not None:
        bounds = lin_interval(value, parts["se_z"], level)
        low, high = float(bounds[0][0]), float(bounds[1][0])
    return Concordance(
        float(value[0]),
        name="concordance",
        n_items=int(columns["n"][0]),
        n_raters=2,
        n_categories=0,  # read as numbers
        categories=(),
        raters=() if raters is None else _two(raters, scores),
        pearson=float(columns["pearson"][0]),
        accuracy=float(columns["accuracy"][0]),
        location_shift=float(columns["location_shift"][0]),
        scale_shift=float(columns["scale_shift"][0]),
        se_z=float(columns["se_z"][0]),
        confidence_level=level,
        low=low,
        high=high,
    )


def _two(raters: pd.Index, scores: Scores) -> tuple[Any, ...]:
    """The two raters' labels in slot order (the order of the data's raters)."""
    used = np.unique(scores.rater)
    return tuple(raters[used].tolist())


def pairwise_concordance(data: ScoreData) -> pd.DataFrame:
    """Lin's concordance of every pair of raters over the items both rated: raters x raters
    (with ``by=``, rows (group, rater)), 1 on the diagonal, nan for a pair with fewer than
    two items in common or scores that do not vary."""
    data = data.rows
    scores = Scores.of(data, "pairwise")
    enc = data.enc
    n_raters, n_groups = enc.n_raters, scores.n_groups
    check_pairwise_size(n_groups, n_raters)  # the (G, R, R) table, before it is allocated
    u, v = annotation_pairs(scores.item, scores.rater)
    g = scores.rating_group[u]
    key = (g * n_raters + scores.rater[u]) * n_raters + scores.rater[v]
    keys, which = np.unique(key, return_inverse=True)
    which = which.reshape(-1)
    x = scores.centred  # per group: a shift and a scale common to its raters, which rho_c ignores
    parts = lin_terms(which.astype(np.float64), x[u], x[v], len(keys))
    table = np.full((n_groups, n_raters, n_raters), np.nan)
    group, rest = np.divmod(keys, n_raters * n_raters)
    first, second = np.divmod(rest, n_raters)
    table[group, first, second] = parts["rho"]
    table[group, second, first] = parts["rho"]
    rated = np.zeros((n_groups, n_raters), dtype=bool)
    rated[scores.rating_group, scores.rater] = True
    diagonal = np.arange(n_raters)
    table[:, diagonal, diagonal] = np.where(rated, 1.0, np.nan)
    raters = pd.Index(data.rater_labels)
    if enc.groups is None:
        return pd.DataFrame(table[0], index=raters, columns=raters)
    outer = enc.groups.to_frame(index=False).loc[np.repeat(np.arange(n_groups), n_raters)]
    outer[raters.name if raters.name is not None else "rater"] = np.tile(raters, n_groups)
    return pd.DataFrame(
        table.reshape(-1, n_raters), index=pd.MultiIndex.from_frame(outer), columns=raters
    )
