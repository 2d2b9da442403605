"""The :class:`KendallW` float: Kendall's W with its chi-square test."""

from __future__ import annotations

from ..results import Statistic

__all__ = ["KendallW"]


class KendallW(Statistic):
    """Kendall's W: a ``float`` with its chi-square test.

    Attributes
    ----------
    chi2, df : float
        ``m (n - 1) W`` and ``n - 1``; :meth:`p_value` is ``P(chi2' > chi2)``.
    n_items, n_raters : int
        The ranked items and the raters who rank them all.
    n_dropped : int
        Items dropped because some rater did not rate them.
    """

    chi2: float
    df: float
    n_dropped: int

    def p_value(self) -> float:
        """The chi-square test's p-value (Kendall & Babington Smith 1939).

        Returns
        -------
        float
            ``P(chi2' > chi2)`` for ``chi2'`` chi-square with ``df`` degrees of freedom.
        """
        from scipy import stats

        return float(stats.chi2.sf(self.chi2, self.df))

    def __repr__(self) -> str:
        return (
            f"<kendall_w {float(self):.4f}: chi2={self.chi2:.4g}, df={self.df:g}, "
            f"n_items={self.n_items}, n_raters={self.n_raters}>"
        )
