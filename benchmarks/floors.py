"""The floors: the least work that computes each coefficient from the long frame.

A floor factorizes the columns it needs (``pd.factorize``), counts with one ``np.bincount``
(two for the kappa family, which also needs each rater's counts) and applies the coefficient's
formula to the counts. It validates nothing, labels nothing and handles no edge case (no
weights, no groups of one rater, no ``A_e = 1``), so it is a lower bound for any
implementation that starts from the same frame, not a competitor. The formulas are the ones
pdagree documents, for incomplete designs as well (Gwet's generalisation):

- ``n_ik`` ratings of item ``i`` in category ``k``, ``r_i = sum_k n_ik``;
- observed agreement ``A_o``: the mean over items with ``r_i >= 2`` of
  ``sum_k n_ik (n_ik - 1) / (r_i (r_i - 1))``;
- Fleiss / Scott (multi-pi): ``A_e = sum_k pi_k^2`` with ``pi_k`` the mean over items of
  ``n_ik / r_i``; Gwet's AC1: ``A_e = sum_k pi_k (1 - pi_k) / (K - 1)``; Bennett's S:
  ``A_e = 1 / K``;
- Conger / Cohen (multi-kappa): ``A_e`` the mean over pairs of distinct raters of
  ``sum_k p_ak p_bk``, each rater's proportions ``p_ck = n_ck / n_c``;
- Krippendorff's nominal alpha from the coincidences of the pairable values (items with two or
  more): ``o_kk = sum_u n_uk (n_uk - 1) / (m_u - 1)``, ``n_k = sum_u n_uk``,
  ``alpha = 1 - D_o / D_e`` with ``D_o = 1 - sum_k o_kk / n`` and
  ``D_e = 1 - sum_k n_k (n_k - 1) / (n (n - 1))``;
- interval alpha from per-item moment sums of the pairable values ``x``: with
  ``S1_u = sum x``, ``S2_u = sum x^2`` and ``m_u`` values in item ``u``, the ordered pairs of
  an item give ``sum (x - y)^2 = 2 (m_u S2_u - S1_u^2)``, so
  ``D_o = (1 / n) sum_u 2 (m_u S2_u - S1_u^2) / (m_u - 1)`` and
  ``D_e = 2 (n S2 - S1^2) / (n (n - 1))`` over all pairable values.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

__all__ = ["FLOORS", "alpha_interval", "fleiss_by"]

Floor = Callable[[pd.DataFrame], float]


def _item_counts(frame: pd.DataFrame) -> np.ndarray:
    """``n_ik``: factorize item and label, one bincount, as an (items, K) float table."""
    item, items = pd.factorize(frame["item"])
    label, labels = pd.factorize(frame["label"])
    k = len(labels)
    nik = np.bincount(item * k + label, minlength=len(items) * k)
    return nik.reshape(len(items), k).astype(np.float64)


def _observed(nik: np.ndarray) -> float:
    r = nik.sum(axis=1)
    pairable = r >= 2
    n = nik[pairable]
    rp = r[pairable]
    return float(((n * (n - 1.0)).sum(axis=1) / (rp * (rp - 1.0))).mean())


def _pi(nik: np.ndarray) -> np.ndarray:
    return (nik / nik.sum(axis=1, keepdims=True)).mean(axis=0)


def _kappa(observed: float, expected: float) -> float:
    return (observed - expected) / (1.0 - expected)


def observed(frame: pd.DataFrame) -> float:
    return _observed(_item_counts(frame))


def bennett(frame: pd.DataFrame) -> float:
    nik = _item_counts(frame)
    return _kappa(_observed(nik), 1.0 / nik.shape[1])


def fleiss(frame: pd.DataFrame) -> float:
    """Fleiss' kappa, and Scott's pi on a two-rater frame."""
    nik = _item_counts(frame)
    pi = _pi(nik)
    return _kappa(_observed(nik), float((pi * pi).sum()))


def gwet(frame: pd.DataFrame) -> float:
    nik = _item_counts(frame)
    pi = _pi(nik)
    k = nik.shape[1]
    return _kappa(_observed(nik), float((pi * (1.0 - pi)).sum() / (k - 1)))


def conger(frame: pd.DataFrame) -> float:
    """Conger's kappa, and Cohen's kappa on a two-rater frame."""
    item, items = pd.factorize(frame["item"])
    rater, raters = pd.factorize(frame["rater"])
    label, labels = pd.factorize(frame["label"])
    k = len(labels)
    nik = np.bincount(item * k + label, minlength=len(items) * k).reshape(len(items), k)
    nck = np.bincount(rater * k + label, minlength=len(raters) * k).reshape(len(raters), k)
    p = nck / nck.sum(axis=1, keepdims=True)
    c = len(raters)
    total = p.sum(axis=0)
    expected = float(((total * total).sum() - (p * p).sum()) / (c * (c - 1.0)))
    return _kappa(_observed(nik.astype(np.float64)), expected)


def alpha_nominal(frame: pd.DataFrame) -> float:
    nik = _item_counts(frame)
    m = nik.sum(axis=1)
    nuk = nik[m >= 2]
    mu = m[m >= 2]
    agreeing = ((nuk * (nuk - 1.0)).sum(axis=1) / (mu - 1.0)).sum()
    nk = nuk.sum(axis=0)
    n = nk.sum()
    d_o = 1.0 - agreeing / n
    d_e = 1.0 - float((nk * (nk - 1.0)).sum()) / (n * (n - 1.0))
    return float(1.0 - d_o / d_e)


def alpha_interval(frame: pd.DataFrame) -> float:
    """Interval alpha of the float ``value`` column from per-item moment sums."""
    item, items = pd.factorize(frame["item"])
    x = frame["value"].to_numpy(dtype=np.float64)
    x = x - x.mean()  # centring keeps the moment sums well conditioned
    m = np.bincount(item, minlength=len(items)).astype(np.float64)
    s1 = np.bincount(item, weights=x, minlength=len(items))
    s2 = np.bincount(item, weights=x * x, minlength=len(items))
    pairable = m >= 2
    m, s1, s2 = m[pairable], s1[pairable], s2[pairable]
    n = m.sum()
    d_o = (2.0 * (m * s2 - s1 * s1) / (m - 1.0)).sum() / n
    t1, t2 = s1.sum(), s2.sum()
    d_e = 2.0 * (n * t2 - t1 * t1) / (n * (n - 1.0))
    return float(1.0 - d_o / d_e)


def fleiss_by(frame: pd.DataFrame) -> np.ndarray:
    """Fleiss' kappa of every ``group`` (in sorted group order), items nested in groups."""
    group, groups = pd.factorize(frame["group"], sort=True)
    item, items = pd.factorize(frame["item"])
    label, labels = pd.factorize(frame["label"])
    k, g = len(labels), len(groups)
    nik = np.bincount(item * k + label, minlength=len(items) * k).reshape(len(items), k)
    item_group = np.empty(len(items), dtype=np.int64)
    item_group[item] = group
    r = nik.sum(axis=1).astype(np.float64)
    pairable = r >= 2
    with np.errstate(invalid="ignore", divide="ignore"):
        a = (nik * (nik - 1.0)).sum(axis=1) / (r * (r - 1.0))
        a_o = np.bincount(item_group, weights=np.where(pairable, a, 0.0), minlength=g)
        a_o /= np.bincount(item_group, weights=pairable, minlength=g)
        share = (nik / r[:, None]).ravel()
        cells = (item_group[:, None] * k + np.arange(k)).ravel()
        pi = np.bincount(cells, weights=share, minlength=g * k).reshape(g, k)
        pi /= np.bincount(item_group, minlength=g)[:, None]
        a_e = (pi * pi).sum(axis=1)
        return (a_o - a_e) / (1.0 - a_e)


FLOORS: dict[str, Floor] = {
    "observed": observed,
    "bennett": bennett,
    "scott": fleiss,
    "cohen": conger,
    "fleiss": fleiss,
    "conger": conger,
    "gwet": gwet,
    "alpha": alpha_nominal,
}
"""The floor of each nominal coefficient (pdagree's method name -> floor)."""
