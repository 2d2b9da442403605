"""Numeric ratings: the intraclass correlation in its six standard forms, and Kendall's W.

``df.agree.icc(form)`` (:meth:`pdagree.Ratings.icc`) gives one form as a float with its F
test and interval, ``icc_table()`` all six with the mean squares, and ``kendall_w()`` the
concordance of the raters' rankings. The sums of squares come from moment sums per item and
per rater (:mod:`pdagree.icc._anova`), every ``by=`` group in the same pass.
"""

from __future__ import annotations

from ._fit import icc, icc_table, kendall_w
from ._forms import ALIASES, FORMS, form_name
from ._result import ICC, KendallW

__all__ = ["ALIASES", "FORMS", "ICC", "KendallW", "form_name", "icc", "icc_table", "kendall_w"]
