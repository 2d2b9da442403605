"""Numeric scores beyond the ICC: Cronbach's alpha, Lin's concordance, Bland & Altman's limits.

``df.agree.cronbach_alpha()`` (:mod:`._cronbach`), ``concordance()`` (:mod:`._concordance`)
and ``bland_altman(a, b)`` (:mod:`._bland_altman`) read the ratings as numbers
(:mod:`pdagree.scores`) and reduce them to moment sums per group, rater and pair of raters
with ``np.bincount`` (:mod:`._sums`), every ``by=`` group in the same pass; the results are
immutable floats (:class:`pdagree.Statistic`) or, for the limits of agreement, a frozen
record that :func:`pdagree.plotting.bland_altman` draws. ``alpha(level="interval")`` of
continuous scores comes from moment sums of the values too (:mod:`._alpha`), without their
category encoding.
"""

from __future__ import annotations

from ._alpha import interval_alpha
from ._bland_altman import BlandAltman, bland_altman
from ._concordance import Concordance, concordance, pairwise_concordance
from ._consensus_scores import ScoreConsensus, consensus_scores
from ._cronbach import CronbachAlpha, cronbach_alpha

__all__ = [
    "BlandAltman",
    "Concordance",
    "CronbachAlpha",
    "ScoreConsensus",
    "bland_altman",
    "concordance",
    "consensus_scores",
    "cronbach_alpha",
    "interval_alpha",
    "pairwise_concordance",
]
