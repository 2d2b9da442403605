"""Numeric ratings: the intraclass correlation in its six standard forms.

``df.agree.icc(form)`` (:meth:`pdagree.Ratings.icc`) gives one form as a float with its F
test and interval, ``icc_table()`` all six with the mean squares (Kendall's W, on the same
numeric ratings, is :mod:`pdagree.kendall`). The sums of squares come from moment sums per item and
per rater (:mod:`pdagree.icc._anova`), every ``by=`` group in the same pass.

At the edges (each case tested in ``tests/test_icc.py`` and ``tests/test_fault_icc.py``):

- **Items that do not vary** (every item rated alike, e.g. ``[[6, 4, 8, 9, 1]] * 2``):
  ``MS_rows`` is 0, so the forms that divide by it (``C,1``, ``C,k``, ``1,k``) and the
  two-way F tests (0/0) are nan with an :class:`~pdagree.UndefinedStatisticWarning`; ``1,1``
  is its floor ``-1 / (k - 1)`` and the agreement forms 0. A sum of squares below four ulps
  per rating of the total sum of squares is rounding and is taken as 0, so float ratings
  whose item means are inexact give the same as integers, not ``1.0`` or ``-8e30``.
- **No variation at all**, fewer than two items, or fewer than two raters in a group: nan
  with the warning.
- **Perfect agreement**: every form is 1, ``F`` is ``inf`` (p-value 0) and every interval
  is ``[1, 1]``. Raters who differ by a constant: the consistency forms and their
  intervals are 1, the agreement forms below 1 with finite bounds.
- **Incomplete designs that do not identify the two-way model** (REML): with no item rated
  by two raters no form is identified; with no rater rating two items the raters' variance
  cannot be told from the residual and the two-way forms (``A,1``, ``C,1``, ``A,k``,
  ``C,k``) are nan. The warning names the design (and, with ``by=``, the groups; the other
  groups are computed as if alone).
- **Offsets and magnitudes**: each group's ratings are divided by a power of two (exact),
  centred on their mean in two passes and their deviations scaled by a power of two again
  (:mod:`pdagree.scores`). Every value, ``F``, degree of freedom, p-value and interval
  is the same, to rounding, for ratings plus any offset that they carry exactly (1e15 on
  integers, epoch milliseconds) and for ratings times any scale (1e154, 1e-200, ...;
  bit for bit for a power of two); the REML forms of an incomplete layout to the fit's
  tolerance (about 1e-9; on a tiny group whose likelihood is flat to its rounding, less).
  The mean squares in ``attrs["mean_squares"]`` and on the result are in the ratings' own
  units, so beyond about 1e154 or below 1e-154 they overflow to ``inf`` or underflow to 0
  while the ICC stays exact.
- **Infinite ratings** are refused by ``icc`` and ``icc_table`` (``ValueError`` naming them;
  replace them with nan to mark them as not rated). ``kendall_w`` ranks them as the largest
  or smallest values.
- **Groups with raters of their own**: memory grows with the ratings, not with groups x
  raters (raters are numbered within their group).
- ``A,k``'s lower bound is ``A,1``'s stepped up by Spearman-Brown (as psych); when ``A,1``'s
  lower bound is at or below ``-1 / (k - 1)``, where that step has no image, it is ``-inf``.
"""

from __future__ import annotations

from ._fit import icc, icc_table
from ._forms import ALIASES, FORMS, form_name
from ._reml import reml_groups
from ._result import ICC

__all__ = ["ALIASES", "FORMS", "ICC", "form_name", "icc", "icc_table", "reml_groups"]
