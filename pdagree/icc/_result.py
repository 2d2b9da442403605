"""An intraclass correlation as a float, with its F test and interval."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._warnings import UndefinedStatisticWarning, warn
from ..inference import ConfidenceInterval
from ..results import Coefficient
from ._anova import MeanSquares
from ._forms import interval, test
from ._incomplete import incomplete_forms

__all__ = ["ICC"]


class ICC(Coefficient):
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

    ``observed`` and ``expected`` are nan (an ICC is not ``(A_o - A_e) / (1 - A_e)``);
    ``n_items`` and ``n_raters`` are the targets and judges of the layout.
    """

    form: str
    shrout_fleiss: str
    F: float
    df1: float
    df2: float
    p_value_F: float

    def _ms(self) -> MeanSquares:
        """The layout's mean squares in its unit (see :class:`MeanSquares`)."""
        ms: MeanSquares = self.__dict__["_mean_squares"]
        return ms

    def confidence_interval(
        self, confidence_level: float = 0.95, method: str = "auto", *_: Any, **__: Any
    ) -> Any:
        """The ``confidence_level`` interval from the F distribution (Shrout & Fleiss 1979;
        McGraw & Wong 1996), as psych and pingouin compute it.

        Parameters
        ----------
        confidence_level : float
            The interval's coverage, in (0, 1); 0.95 by default.
        method : {"auto", "F"}
            Both the F distribution's interval. Other arguments of
            :meth:`pdagree.Coefficient.confidence_interval` are accepted and ignored.

        Returns
        -------
        ConfidenceInterval
            The named tuple ``(low, high)``.

        Raises
        ------
        ValueError
            Another ``method``, or ``confidence_level`` outside (0, 1).
        """
        _check_method(method)
        if not 0.0 < confidence_level < 1.0:
            raise ValueError(
                f"`confidence_level` must be between 0 and 1; got {confidence_level!r}."
            )
        one = self.__dict__.get("_incomplete")
        if one is not None:  # an incomplete layout: its own estimates
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

    def p_value(self, method: str = "auto", *, rho0: float = 0.0, **_: Any) -> float:
        """The one-sided p-value of the F test of ``ICC = rho0`` (``rho0 = 0``: Shrout &
        Fleiss's test; otherwise McGraw & Wong's).

        Parameters
        ----------
        method : {"auto", "F"}
            Both the F test. Other arguments of :meth:`pdagree.Coefficient.p_value` are
            accepted and ignored.
        rho0 : float
            The ICC under H0; 0 by default.

        Returns
        -------
        float
            The p-value; nan with an :class:`~pdagree.UndefinedStatisticWarning` for
            ``rho0`` other than 0 on an incomplete layout.

        Raises
        ------
        ValueError
            Another ``method``.
        """
        _check_method(method)
        if self.__dict__.get("_incomplete") is not None:
            if rho0 != 0.0 or np.isnan(self.p_value_F):
                warn(
                    f"no test of ICC({self.form}) = {rho0} on an incomplete layout here.",
                    UndefinedStatisticWarning,
                )
                return math.nan
            return float(self.p_value_F)
        return float(test(self._ms(), self.form, rho0, rho0 != 0.0)["p_value"][0])

    def standard_error(self, *_: Any, **__: Any) -> float:
        """Not defined for an ICC (its interval comes from the F distribution).

        The arguments of :meth:`pdagree.Coefficient.standard_error` are accepted and ignored.

        Returns
        -------
        float
            nan, with an :class:`~pdagree.UndefinedStatisticWarning`.
        """
        warn(
            "an ICC has no standard error in the methods pdagree follows; its interval comes "
            "from the F distribution: use `confidence_interval()`.",
            UndefinedStatisticWarning,
        )
        return math.nan

    def z_test(self, *_: Any, **__: Any) -> Any:
        """Not defined for an ICC: it is tested with the F distribution.

        The arguments of :meth:`pdagree.Coefficient.z_test` are accepted and ignored.

        Raises
        ------
        ValueError
            Always; use :meth:`p_value` or the ``F`` attribute.
        """
        raise ValueError("an ICC is tested with the F distribution: use `p_value()` or `.F`.")

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
