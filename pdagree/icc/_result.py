"""An intraclass correlation as a float, with its F test and interval."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._validation import check_fraction
from .._warnings import UndefinedStatisticWarning, warn
from ..inference import ConfidenceInterval
from ..results import Statistic
from ._anova import MeanSquares
from ._forms import interval, test
from ._incomplete import incomplete_forms

__all__ = ["ICC"]


class ICC(Statistic):
    """One intraclass correlation: a ``float`` with the two-way layout behind it.

    Attributes
    ----------
    form, shrout_fleiss : str
        McGraw & Wong's name (``"A,1"``) and Shrout & Fleiss's (``"ICC2"``).
    F, df1, df2, p_value_F : float
        Shrout & Fleiss's F test of ``ICC = 0``.
    ms_rows, ms_columns, ms_error, ms_within : float
        The mean squares.
    missing : str
        ``"complete"`` (every item rated by every rater), or ``"omit"`` (incomplete items
        dropped: ``n_dropped`` of them).

    ``n_items`` and ``n_raters`` are the targets and judges of the layout. Its interval and
    test come from the F distribution (:meth:`confidence_interval`, :meth:`p_value`): an
    ICC has no standard error or z test here. A pickle keeps what they need (the mean
    squares), except on an incomplete layout, whose interval needs the ratings.
    """

    form: str
    shrout_fleiss: str
    F: float
    df1: float
    df2: float
    p_value_F: float
    ms_rows: float
    ms_columns: float
    ms_error: float
    ms_within: float
    missing: str
    n_dropped: int

    def _ms(self) -> MeanSquares:
        """The layout's mean squares in its unit (see :class:`MeanSquares`)."""
        ms: MeanSquares = self.__dict__["_mean_squares"]
        return ms

    def _state(self) -> dict[str, Any]:
        # An incomplete layout's ratings (for its REML interval) stay out of a pickle.
        return {**self.__dict__, "_incomplete": None}

    def confidence_interval(
        self, confidence_level: float = 0.95, method: str = "auto"
    ) -> ConfidenceInterval:
        """The ``confidence_level`` interval from the F distribution (Shrout & Fleiss 1979;
        McGraw & Wong 1996), as psych and pingouin compute it.

        Parameters
        ----------
        confidence_level : float
            Between 0 and 1.
        method : {"auto", "F"}
            Both the F distribution's interval.

        Returns
        -------
        ConfidenceInterval
            ``(low, high)``.

        Raises
        ------
        ValueError
            A ``method`` other than ``"auto"`` or ``"F"``, ``confidence_level`` outside
            (0, 1), or an ICC of an incomplete layout read back from a pickle.
        """
        _check_method(method)
        confidence_level = check_fraction(confidence_level, "confidence_level")
        if self.__dict__["_incomplete_layout"]:  # an incomplete layout: its own estimates
            one = self.__dict__["_incomplete"]
            if one is None:
                raise ValueError(
                    f"the interval of ICC({self.form}) on an incomplete layout needs the "
                    "ratings, which an unpickled result no longer holds; compute it again "
                    "with `icc()` on the ratings."
                )
            parts = incomplete_forms(one, confidence_level)[self.form]
            low, high = parts["low"], parts["high"]
            if np.isnan(low):
                warn(
                    f"no interval for ICC({self.form}) on an incomplete layout (REML "
                    "variance components); `missing='omit'` gives the complete items' F "
                    "interval.",
                    UndefinedStatisticWarning,
                )
            return ConfidenceInterval(float(low), float(high))
        low_a, high_a = interval(self._ms(), self.form, confidence_level)
        if math.isnan(self):
            return ConfidenceInterval(math.nan, math.nan)
        return ConfidenceInterval(float(low_a[0]), float(high_a[0]))

    def p_value(self, method: str = "auto", *, rho0: float = 0.0) -> float:
        """The one-sided p-value of the F test of ``ICC = rho0`` (``rho0 = 0``: Shrout &
        Fleiss's test; otherwise McGraw & Wong's).

        Parameters
        ----------
        method : {"auto", "F"}
            Both the F test.
        rho0 : float
            The ICC under H0.

        Returns
        -------
        float
        """
        _check_method(method)
        if self.__dict__["_incomplete_layout"]:
            if rho0 != 0.0 or np.isnan(self.p_value_F):
                warn(
                    f"no test of ICC({self.form}) = {rho0} on an incomplete layout here.",
                    UndefinedStatisticWarning,
                )
                return math.nan
            return float(self.p_value_F)
        return float(test(self._ms(), self.form, rho0, rho0 != 0.0)["p_value"][0])

    def __repr__(self) -> str:
        return (
            f"<ICC({self.form}) {float(self):.4f} [{self.shrout_fleiss}]: F={self.F:.4g} "
            f"({self.df1:g}, {self.df2:.4g}), n_items={self.n_items}, n_raters={self.n_raters}>"
        )


def _check_method(method: str) -> None:
    if method not in ("auto", "F"):
        raise ValueError(
            f"an ICC's interval and test come from the F distribution: `method` must be "
            f"'auto' or 'F'; got {method!r}."
        )
