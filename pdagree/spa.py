"""The Sparse Probability of Agreement's public helpers: the names of its item weightings, the
closed-form variance behind the inverse-variance weights, and the weight an item gets under
each weighting (:func:`scheme_weights`).

The coefficient itself is :meth:`pdagree.Ratings.spa`; its definition is
:mod:`pdagree.definitions.spa`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .definitions.spa import WEIGHTINGS, spa_variance

__all__ = ["WEIGHTINGS", "scheme_weights", "spa_variance"]


def scheme_weights(
    n: Any,
    scheme: str,
    *,
    categories: int = 2,
    p: Any = None,
) -> np.ndarray[Any, Any]:
    """An item's weight ``k(n)`` under one of SPA's weightings, for ``n >= 2`` labels.

    ``flat`` 1, ``annotations`` ``n``, ``annotations_m1`` ``n - 1``, ``edges``
    ``n (n - 1) / 2``, ``inv_var`` ``1 / Var[P_i | n]`` for labels uniform over
    ``categories``, ``inv_var_class`` the same for labels drawn from ``p``
    (:func:`pdagree.spa_variance`); as :meth:`pdagree.Ratings.spa` weighs items.
    """
    counts = np.asarray(n, dtype=np.float64)
    if scheme == "flat":
        return np.ones_like(counts)
    if scheme == "annotations":
        return counts
    if scheme == "annotations_m1":
        return counts - 1.0
    if scheme == "edges":
        return counts * (counts - 1.0) / 2.0
    if scheme == "inv_var":
        return 1.0 / np.asarray(spa_variance(counts, categories=categories))
    if scheme == "inv_var_class":
        if p is None:
            raise TypeError("`p` is needed for the 'inv_var_class' weights.")
        return 1.0 / np.asarray(spa_variance(counts, p=p))
    raise ValueError(
        f"`scheme` must be one of {', '.join(map(repr, WEIGHTINGS))}; got {scheme!r}."
    )
