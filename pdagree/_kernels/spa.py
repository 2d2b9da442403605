"""Kernels of Sparse Probability of Agreement (Nørregaard & Derczynski).

Symbols: ``n_ik`` labels of item ``i`` in category ``k``; ``n_i = sum_k n_ik``; the item
agreement ``P_i = sum_k n_ik (n_ik - 1) / (n_i (n_i - 1))`` (agreeing pairs of the item's
labels over all its pairs), defined for ``n_i >= 2``; item weights ``k_i``; and

    SPA = sum_i k_i P_i / sum_i k_i        over the items with n_i >= 2.

For ``n`` labels drawn i.i.d. from a category distribution ``p``, ``P_i`` is a degree-2
U-statistic with kernel ``[x_a = x_b]``; with ``theta = sum_k p_k^2``,
``zeta1 = sum_k p_k^3 - theta^2`` and ``zeta2 = theta (1 - theta)``,

    Var_p[P_i | n] = 2 / (n (n - 1)) * (2 (n - 2) zeta1 + zeta2).

For ``p`` uniform over ``C`` categories ``zeta1 = 0`` and ``zeta2 = (C - 1) / C^2``, so
inverse-variance weights are proportional to the number of pairs ``n (n - 1) / 2``.

Kernels never validate, warn or touch pandas.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from ._typing import FloatArray, IntArray

__all__ = [
    "SCHEMES",
    "Scheme",
    "agreement_variance",
    "class_moments",
    "pooled_distribution",
    "scheme_weights",
    "spa_components",
    "spa_item_agreement",
    "uniform_moments",
]

Scheme = Literal["flat", "annotations", "annotations_m1", "edges", "inv_var", "inv_var_class"]
SCHEMES: tuple[Scheme, ...] = (
    "flat",
    "annotations",
    "annotations_m1",
    "edges",
    "inv_var",
    "inv_var_class",
)


def spa_item_agreement(nik: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Per item: the number of labels ``n_i`` and the agreement ``P_i`` (nan if ``n_i < 2``).

    Works on ``(..., K)`` arrays in O(items · K) time and memory.

    >>> import numpy as np
    >>> n, p = spa_item_agreement(np.array([[2.0, 1.0], [1.0, 0.0], [3.0, 0.0]]))
    >>> n, p
    (array([3., 1., 3.]), array([0.33333333,        nan, 1.        ]))
    """
    n = nik.sum(axis=-1)
    agreeing = (nik * (nik - 1.0)).sum(axis=-1)
    counts = n >= 2
    with np.errstate(invalid="ignore", divide="ignore"):
        agreement = np.where(counts, agreeing / np.where(counts, n * (n - 1.0), 1.0), np.nan)
    return n, agreement


def pooled_distribution(nik: FloatArray, group: IntArray, n_groups: int) -> FloatArray:
    """The pooled label distribution ``p_gk = sum_i n_ik / sum_i n_i`` per group, (G, K).

    Every label counts, single-label items included. Groups without labels get nan.

    >>> import numpy as np
    >>> nik = np.array([[2.0, 1.0], [1.0, 0.0], [0.0, 4.0]])
    >>> pooled_distribution(nik, np.array([0, 0, 1]), 2)
    array([[0.75, 0.25],
           [0.  , 1.  ]])
    """
    k = nik.shape[-1]
    key = (group[:, None] * k + np.arange(k)).ravel()
    totals = np.bincount(key, weights=nik.ravel(), minlength=n_groups * k).reshape(n_groups, k)
    n = totals.sum(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        out: FloatArray = totals / n
    return out


def class_moments(p: FloatArray) -> tuple[FloatArray, FloatArray]:
    """``zeta1 = sum_k p_k^3 - theta^2`` and ``zeta2 = theta (1 - theta)`` over the last axis.

    ``theta = sum_k p_k^2``. Computed in the cancellation-free forms
    ``zeta1 = sum_k p_k (p_k - theta)^2`` and ``1 - theta = sum_k p_k (1 - p_k)`` (both use
    ``sum_k p_k = 1``), so neither is negative and a one-hot ``p`` gives exactly 0.

    >>> import numpy as np
    >>> class_moments(np.array([[0.5, 0.5], [1.0, 0.0]]))
    (array([0., 0.]), array([0.25, 0.  ]))
    """
    theta = (p * p).sum(axis=-1)
    zeta1 = (p * (p - theta[..., None]) ** 2).sum(axis=-1)
    zeta2 = theta * (p * (1.0 - p)).sum(axis=-1)
    return zeta1, zeta2


def uniform_moments(n_categories: int) -> tuple[float, float]:
    """``zeta1`` and ``zeta2`` of the uniform distribution over ``C`` categories.

    >>> uniform_moments(4)
    (0.0, 0.1875)
    """
    c = float(n_categories)
    return 0.0, (c - 1.0) / (c * c)


def agreement_variance(n: FloatArray, zeta1: FloatArray, zeta2: FloatArray) -> FloatArray:
    """``Var[P_i | n] = 2 / (n (n - 1)) (2 (n - 2) zeta1 + zeta2)``; nan where ``n < 2``.

    ``n``, ``zeta1`` and ``zeta2`` broadcast against each other.

    >>> import numpy as np
    >>> agreement_variance(np.array([1.0, 2.0, 3.0]), np.array(0.0), np.array(0.25))
    array([       nan, 0.25      , 0.08333333])
    """
    n = np.asarray(n, dtype=np.float64)
    ok = n >= 2
    safe = np.where(ok, n, 2.0)
    var = 2.0 / (safe * (safe - 1.0)) * (2.0 * (safe - 2.0) * zeta1 + zeta2)
    return np.where(ok, var, np.nan)


def scheme_weights(
    n: FloatArray, scheme: Scheme, zeta1: FloatArray, zeta2: FloatArray
) -> FloatArray:
    """Item weights ``k(n)`` of a weighting scheme; 0 where ``n < 2``.

    ``flat``: 1; ``annotations``: ``n``; ``annotations_m1``: ``n - 1``; ``edges``:
    ``n (n - 1) / 2``; ``inv_var`` and ``inv_var_class``: ``1 / Var[P_i | n]`` from
    :func:`agreement_variance` with the moments given (per item, or broadcasting). Where
    ``zeta2 = 0`` (every label falls in one category) every variance is 0 and the weights
    are equal (1).

    >>> import numpy as np
    >>> n = np.array([1.0, 2.0, 3.0, 4.0])
    >>> zero = np.zeros(4)
    >>> scheme_weights(n, "edges", zero, zero)
    array([0., 1., 3., 6.])
    >>> scheme_weights(n, "inv_var", zero, np.full(4, 0.25))
    array([ 0.,  4., 12., 24.])
    """
    n = np.asarray(n, dtype=np.float64)
    counts = n >= 2
    if scheme == "flat":
        k = np.ones_like(n)
    elif scheme == "annotations":
        k = n.copy()
    elif scheme == "annotations_m1":
        k = n - 1.0
    elif scheme == "edges":
        k = n * (n - 1.0) / 2.0
    else:
        zeta1, zeta2 = np.broadcast_arrays(zeta1, zeta2)
        degenerate = np.broadcast_to(zeta2 <= 0.0, n.shape)
        var = agreement_variance(n, zeta1, zeta2)
        usable = counts & ~degenerate
        k = np.where(usable, 1.0 / np.where(usable, var, 1.0), 1.0)
    return np.where(counts, k, 0.0)


def spa_components(
    nik: FloatArray, item_weight: FloatArray, group: IntArray, n_groups: int
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """SPA per group from item counts and item weights, in one pass over the items.

    Parameters
    ----------
    nik
        Item x category label counts, shape (n_items, K).
    item_weight
        Weight ``k_i`` per item, shape (n_items,); ignored (taken as 0) where ``n_i < 2``.
    group
        Group code per item, shape (n_items,), in ``range(n_groups)``. A bootstrap
        replicate is a group of its own: repeat the drawn items' rows with the replicate
        as their group.
    n_groups
        Number of groups G.

    Returns
    -------
    value
        ``SPA_g = sum_i k_i P_i / sum_i k_i`` over the group's items with ``n_i >= 2``,
        shape (G,); nan where that sum of weights is 0.
    sum_weights
        ``sum_i k_i`` over those items, (G,).
    n_counting
        Items with ``n_i >= 2``, (G,).
    n_ignored
        Items with ``n_i < 2``, (G,).

    Examples
    --------
    >>> import numpy as np
    >>> nik = np.array([[2.0, 1.0], [1.0, 0.0], [2.0, 0.0], [1.0, 1.0]])
    >>> value, total, n_counting, n_ignored = spa_components(
    ...     nik, np.array([2.0, 5.0, 1.0, 1.0]), np.array([0, 0, 0, 1]), 2)
    >>> value, total, n_counting, n_ignored
    (array([0.55555556, 0.        ]), array([3., 1.]), array([2., 1.]), array([1., 0.]))
    """
    n, agreement = spa_item_agreement(nik)
    counts = n >= 2
    weight = np.where(counts, item_weight, 0.0)
    weighted = np.where(counts, weight * np.where(counts, agreement, 0.0), 0.0)
    sum_weights = np.bincount(group, weights=weight, minlength=n_groups).astype(np.float64)
    total = np.bincount(group, weights=weighted, minlength=n_groups).astype(np.float64)
    n_counting = np.bincount(group, weights=counts, minlength=n_groups).astype(np.float64)
    n_ignored = np.bincount(group, weights=~counts, minlength=n_groups).astype(np.float64)
    defined = sum_weights > 0
    value = np.where(defined, total / np.where(defined, sum_weights, 1.0), np.nan)
    return value, sum_weights, n_counting, n_ignored
