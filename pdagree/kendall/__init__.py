"""Kendall's coefficient of concordance W of the raters' rankings of the items.

``df.agree.kendall_w()`` (:meth:`pdagree.Ratings.kendall_w`): ranks from one sort of (group,
rater, value) keys (:mod:`pdagree.kendall._sums`), every ``by=`` group in the same pass, on
the numeric ratings that the ICC reads too (:mod:`pdagree.scores`); the result is a
:class:`KendallW` float with its chi-square test (:mod:`pdagree.kendall._result`).
"""

from __future__ import annotations

from ._fit import kendall_w
from ._result import KendallW

__all__ = ["KendallW", "kendall_w"]
