"""The :class:`KendallW` float: Kendall's W with its chi-square test."""

from __future__ import annotations

import math
from typing import Any

from .._warnings import UndefinedStatisticWarning, warn
from ..results import Coefficient

__all__ = ["KendallW"]


class KendallW(Coefficient):
    """Kendall's W: a ``float`` with its chi-square test.

    Attributes
    ----------
    chi2, df : float
        ``m (n - 1) W`` and ``n - 1``; :meth:`p_value` is ``P(chi2' > chi2)``.
    n_items, n_raters : int
        The ranked items and the raters who rank them all.
    """

    chi2: float
    df: float

    def p_value(self, *_: Any, **__: Any) -> float:
        """The chi-square test's p-value (Kendall & Babington Smith 1939).

        The arguments of :meth:`pdagree.Coefficient.p_value` are accepted and ignored.

        Returns
        -------
        float
            The p-value of ``chi2`` on ``df`` degrees of freedom.
        """
        from scipy import stats

        return float(stats.chi2.sf(self.chi2, self.df))

    def confidence_interval(self, *_: Any, **__: Any) -> Any:
        """Not defined here for Kendall's W, which has a chi-square test.

        The arguments of :meth:`pdagree.Coefficient.confidence_interval` are accepted and
        ignored.

        Raises
        ------
        ValueError
            Always; use :meth:`p_value`.
        """
        raise ValueError("Kendall's W has a chi-square test (`p_value()`), no interval here.")

    def standard_error(self, *_: Any, **__: Any) -> float:
        """Not defined here for Kendall's W, which has a chi-square test.

        The arguments of :meth:`pdagree.Coefficient.standard_error` are accepted and ignored.

        Returns
        -------
        float
            nan, with an :class:`~pdagree.UndefinedStatisticWarning`.
        """
        warn("Kendall's W has no standard error here; see `p_value()`.", UndefinedStatisticWarning)
        return math.nan

    def __repr__(self) -> str:
        return (
            f"<kendall_w {float(self):.4f}: chi2={self.chi2:.4g}, df={self.df:g}, "
            f"n_items={self.n_items}, n_raters={self.n_raters}>"
        )
