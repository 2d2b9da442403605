"""Consensus labels and annotator quality: majority vote, Dawid & Skene's models and others.

``df.agree.consensus()`` (:meth:`pdagree.Ratings.consensus`) fits a model to the annotators'
labels and returns a :class:`Consensus`: one label per item, its probabilities, and each
annotator's estimated accuracy (and confusion matrix). Every ``by=`` group is fitted on its
own, in one vectorised pass over all groups (EM: :mod:`pdagree.consensus._em`; KOS and
M-MSR: ``._kos``, ``._mmsr``).
"""

from __future__ import annotations

from ._fit import MAX_ITERATIONS, METHODS, TOL, fit
from ._majority import TIES
from ._result import Consensus
from ._size import MAX_CONFUSION_CELLS, MAX_PAIRS

__all__ = [
    "MAX_CONFUSION_CELLS", "MAX_ITERATIONS", "MAX_PAIRS", "METHODS", "TIES", "TOL",
    "Consensus", "fit",
]  # fmt: skip
