"""Artstein & Poesio's annotator bias: ``B = A_e(pi) - A_e(kappa)`` and its decomposition.

:func:`bias`'s docstring is the documentation of :meth:`pdagree.Ratings.bias`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._kernels import agreement as K
from .._kernels import sparse as KS
from ..tensors.data import RatingData
from .base import Components
from .kappa import fleiss

__all__ = ["bias"]


def bias(data: RatingData) -> Components:
    """Artstein & Poesio's annotator bias ``B = A_e(pi) - A_e(kappa)``.

    For a complete design ``B = sum_k sigma^2_k / (c - 1)``, where ``sigma^2_k`` is the
    variance over the ``c`` raters of ``P(k|c)`` (Artstein & Poesio 2005, section 13.4): bias
    shrinks in proportion to the number of raters less one.

    Incomplete designs use the generalisations of :meth:`fleiss` and :meth:`conger`, so
    that ``B = fleiss().expected - conger().expected`` always. Then
    ``B = sum_k (pi_k^2 - pbar_k^2) + sum_k sigma^2_k / (c - 1)``, where ``pbar_k`` is the
    mean of the raters' proportions; the first term (``marginal_gap``) is zero in a
    complete design and small when raters rate similar numbers of items.

    Returns
    -------
    Coefficient
        ``B`` as a float with ``expected_pi``, ``expected_kappa``, ``marginal_gap``,
        ``variances`` (Series over categories of ``sigma^2_k``), ``per_category``
        (``sigma^2_k / (c - 1)``) and ``per_rater`` (DataFrame: each rater's category
        proportions, its squared distance from the mean distribution
        ``sum_k (P(k|c) - pbar_k)^2`` and its ``contribution``, that distance over
        ``c (c - 1)``, which sums to the variance term of ``B``). ``observed`` is ``A_o``
        and ``expected`` is ``A_e(pi)``. With ``by=``, a DataFrame with one row per group.
        Its standard error (``method="auto"``) is the jackknife over items,
        ``(n - 1) / n sum_i (theta_(i) - theta_(.))^2`` (Efron 1982), each value without one
        item in closed form (:mod:`pdagree.definitions.jackknife`).

    Examples
    --------
    >>> import pdagree
    >>> b = pdagree.datasets.load("artstein_poesio2005").agree.bias()
    >>> round(b.expected_pi, 3), round(b.expected_kappa, 3), round(float(b), 3)
    (0.545, 0.54, 0.005)
    """

    enc = data.require_raters("bias")
    a_o, _ = data.observed
    e_pi = fleiss(data).expected  # sum_k pi_k^2
    e_kappa, c = KS.identity_conger_expected(data.nck)
    p, active = K.rater_proportions(data.nck)
    with np.errstate(invalid="ignore", divide="ignore"):
        pbar = p.sum(axis=1) / c[:, None]
        dev = np.where(active[..., None], p - pbar[:, None, :], 0.0)
        variances = (dev**2).sum(axis=1) / c[:, None]  # population variance over raters
        per_category = variances / (c[:, None] - 1.0)
        distance = (dev**2).sum(axis=-1)
        contribution = distance / (c * (c - 1.0))[:, None]
    gap = e_pi - (pbar**2).sum(axis=-1)
    value = e_pi - e_kappa
    undefined = np.isnan(e_kappa) | np.isnan(e_pi)
    value = np.where(undefined, np.nan, value)
    extra = {"expected_pi": e_pi, "expected_kappa": e_kappa, "marginal_gap": gap}
    members = {}
    if enc.groups is None:
        cats = enc.categories
        per_rater_cols = pd.MultiIndex.from_product([["proportion"], list(cats)])
        per_rater = pd.DataFrame(p[0], index=data.rater_labels, columns=per_rater_cols)
        per_rater = per_rater[active[0]]
        per_rater[("distance", "")] = distance[0][active[0]]
        per_rater[("contribution", "")] = contribution[0][active[0]]
        members = {
            "variances": pd.Series(variances[0], index=cats, name="variance"),
            "per_category": pd.Series(per_category[0], index=cats, name="bias"),
            "per_rater": per_rater,
        }
    return Components("bias", value, a_o, e_pi, extra=extra, members=members)
