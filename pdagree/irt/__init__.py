"""Annotator bias through item response theory: the graded response model with the judges as
IRT items and the rated items as the "persons" (Amidei, Piwek & Willis 2020).

``df.agree.irt()`` (:meth:`pdagree.Ratings.irt`) fits it and returns a
:class:`GradedResponseFit`; :func:`simulate` draws ratings from the model. The likelihood
(:mod:`pdagree.irt._model`) is pure numpy; scipy's optimiser is imported when a model is fitted
and matplotlib when one is drawn.
"""

from __future__ import annotations

from ._fit import ConvergenceWarning, fit
from ._result import GradedResponseFit, LRTest
from ._simulate import simulate

__all__ = ["ConvergenceWarning", "GradedResponseFit", "LRTest", "fit", "simulate"]
