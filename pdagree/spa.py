"""The Sparse Probability of Agreement's public helpers: the names of its item weightings and
the closed-form variance behind the inverse-variance weights.

The coefficient itself is :meth:`pdagree.Ratings.spa`; its definition is
:mod:`pdagree.definitions.spa`.
"""

from __future__ import annotations

from .definitions.spa import WEIGHTINGS, spa_variance

__all__ = ["WEIGHTINGS", "spa_variance"]
