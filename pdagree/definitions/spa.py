"""Sparse Probability of Agreement (Nørregaard & Derczynski): the definition and its checks.

The arithmetic is in :mod:`pdagree._kernels.spa`; this module checks the user's
``weights=`` and ``p=``, aligns per-item weights and category distributions on labels, and
returns the kernel's components. :func:`spa`'s and :func:`spa_items`' docstrings are the
documentation of :meth:`pdagree.Ratings.spa` and :meth:`pdagree.Ratings.spa_items`;
:func:`spa_variance` is public as ``pdagree.spa_variance``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._kernels import spa as K
from .._typing import FloatArray
from ..encoding import fmt, plain
from ..tensors.data import RatingData
from .base import Components

__all__ = [
    "WEIGHTINGS",
    "item_weights",
    "per_item_weights",
    "spa",
    "spa_items",
    "spa_variance",
]

#: The default weighting: the paper's recommendation, ``k = n - 1``.
DEFAULT_WEIGHTING = "annotations_m1"

#: What ``weights=`` takes: a scheme name, or one weight per item.
SpaWeights = str | Sequence[float] | np.ndarray[Any, Any] | pd.Series

#: The weighting schemes of :meth:`pdagree.Ratings.spa`, by name.
WEIGHTINGS: tuple[str, ...] = K.SCHEMES

# How far the probabilities in ``p`` may sum from 1 (rounding in the user's arithmetic).
_SUM_TOLERANCE = 1e-8


# --------------------------------------------------------------------------- validation


def _probabilities(p: object) -> tuple[FloatArray, pd.Index | None]:
    """``p`` as a float vector (and its labels when it has them), checked."""
    labels: pd.Index | None
    if isinstance(p, Mapping):
        p = pd.Series(dict(p), dtype=object)
    if isinstance(p, pd.DataFrame):
        raise TypeError(
            "`p` must be one probability per category (a Series indexed by category); got a "
            "DataFrame. Select one column, e.g. `frame['share']`."
        )
    if isinstance(p, pd.Series):
        labels = pd.Index(p.index)
        if labels.has_duplicates:
            raise ValueError(
                f"`p` must give each category once; categories "
                f"{fmt(list(labels[labels.duplicated()]))} appear more than once. Aggregate the "
                "duplicates first."
            )
        raw: Any = p.to_numpy(dtype=object, na_value=np.nan)
    else:
        labels = None
        raw = p
    try:
        values = np.asarray(raw, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(
            f"`p` must hold probabilities (numbers); got {p!r}. Pass a Series of numbers "
            "indexed by category, e.g. `labels.value_counts(normalize=True)`."
        ) from None
    if values.ndim != 1 or values.size == 0:
        raise ValueError(
            f"`p` must be a non-empty 1-d set of probabilities, one per category; got shape "
            f"{values.shape}."
        )
    if not np.isfinite(values).all():
        where = np.flatnonzero(~np.isfinite(values))
        bad = list(labels[where]) if labels is not None else where.tolist()
        raise ValueError(
            f"`p` must hold finite probabilities; got {fmt(values[where].tolist())} for "
            f"{'categories' if labels is not None else 'positions'} {fmt(bad)}. Give every "
            "category a probability (0 is allowed)."
        )
    if (values < 0).any():
        where = np.flatnonzero(values < 0)
        bad = list(labels[where]) if labels is not None else where.tolist()
        raise ValueError(
            f"`p` must not be negative; got {fmt(values[where].tolist())} for "
            f"{'categories' if labels is not None else 'positions'} {fmt(bad)}. Use "
            "proportions between 0 and 1."
        )
    total = float(values.sum())
    if abs(total - 1.0) > _SUM_TOLERANCE:
        raise ValueError(
            f"`p` must sum to 1; its probabilities sum to {total!r}. Normalise it, e.g. "
            "`p / p.sum()`."
        )
    return values / total, labels


def _observed_categories(data: RatingData) -> pd.Index:
    used = data.nik.sum(axis=0) > 0
    observed: pd.Index = data.enc.categories[used]
    return observed


def _user_distribution(data: RatingData, p: object) -> tuple[FloatArray, pd.Index]:
    """A user's ``p`` over categories: the probability vector and its category labels."""
    if not isinstance(p, (pd.Series, Mapping)):
        raise TypeError(
            "`p` must be a Series of probabilities indexed by category (or a dict), e.g. "
            f"`labels.value_counts(normalize=True)`; got {type(p).__name__}."
        )
    values, labels = _probabilities(p)
    if labels is None:  # pragma: no cover - a Series or Mapping always has labels
        raise TypeError("`p` needs category labels.")
    observed = _observed_categories(data)
    missing = observed[~observed.isin(labels)]
    if len(missing):
        raise ValueError(
            f"`p` has no probability for the observed categories {fmt(list(missing))}; its "
            f"categories are {fmt(list(labels))}. Give every category in the data a "
            "probability (0 is allowed)."
        )
    return values, labels


def _scheme(weights: str) -> K.Scheme:
    if weights not in K.SCHEMES:
        choices = ", ".join(repr(s) for s in K.SCHEMES)
        raise ValueError(
            f"`weights` must be one of {choices}, or per-item weights (an array in item "
            f"order or a Series indexed by item); got {weights!r}."
        )
    return weights


def _align_series(data: RatingData, weights: pd.Series) -> FloatArray:
    """Per-item weights from a Series indexed by item label (nan where an item is absent)."""
    if weights.index.has_duplicates:
        dup = weights.index[weights.index.duplicated()].unique()
        raise ValueError(
            f"`weights` must give each item one weight; items {fmt(list(dup))} appear more "
            "than once in its index. Drop or aggregate the duplicates."
        )
    full = data.item_index()
    items = data.enc.items
    levels = weights.index.nlevels
    if levels == full.nlevels:
        target = full
    elif levels == items.nlevels:
        target = items
    elif levels < full.nlevels:
        # e.g. weights indexed by item alone while items are (group..., item)
        leading: Any = list(range(full.nlevels - levels))
        target = full.droplevel(leading)
    else:
        raise ValueError(
            f"`weights` has a {levels}-level index but items are identified by "
            f"{full.nlevels} level(s) {list(full.names)}; index the weights by item."
        )
    aligned = weights.reindex(target)
    try:
        return aligned.to_numpy(dtype=np.float64, na_value=np.nan)
    except (TypeError, ValueError):
        raise TypeError(
            f"`weights` must hold numbers; got values of dtype {weights.dtype}. Pass "
            "numeric weights, one per item."
        ) from None


def _custom_weights(data: RatingData, weights: object) -> FloatArray:
    n_items = data.enc.n_items
    if isinstance(weights, pd.DataFrame):
        raise TypeError(
            "`weights` must be a scheme name or one weight per item; got a DataFrame. "
            "Select one column, e.g. `frame['weight']`."
        )
    if isinstance(weights, pd.Series):
        k = _align_series(data, weights)
    else:
        try:
            k = np.asarray(weights, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(
                f"`weights` must be a scheme name ({', '.join(repr(s) for s in K.SCHEMES)}) "
                f"or numeric per-item weights; got {type(weights).__name__}."
            ) from None
        if k.ndim != 1 or len(k) != n_items:
            raise ValueError(
                f"`weights` must give one weight per item: {n_items} in the order of the "
                "frame's rows (the rows of `spa_items()` for a long frame); got shape "
                f"{k.shape}. Or pass a Series indexed by item."
            )
    n = data.nik.sum(axis=1)
    counts = n >= 2
    index = data.item_index()
    missing = counts & np.isnan(k)
    if missing.any():
        raise ValueError(
            f"`weights` has no weight for {int(missing.sum())} items with two or more labels, "
            f"e.g. {fmt(list(index[missing]))}; give every such item a finite weight (items "
            "with fewer than two labels may be left out)."
        )
    bad = counts & (~np.isfinite(k) | (k < 0))
    if bad.any():
        raise ValueError(
            f"`weights` must be finite and non-negative on items with two or more labels; got "
            f"{fmt(k[bad].tolist())} for items {fmt(list(index[bad]))}. Use weights >= 0."
        )
    kept = np.where(counts, k, 0.0)
    # SPA is a weighted mean: scale invariant. Weights in units of the power of two above
    # the largest (an exact division), so that sums of weights near 1e307 do not overflow.
    top = float(kept.max()) if kept.size else 0.0
    return kept / np.ldexp(1.0, int(np.frexp(top)[1])) if top > 0 else kept


def item_weights(
    data: RatingData, weights: object, p: object
) -> tuple[FloatArray, str, FloatArray | None, pd.Index | None]:
    """Weight per item, the weighting's name, and for ``inv_var_class`` the ``p`` used."""
    if weights is None:
        weights = DEFAULT_WEIGHTING
    if isinstance(weights, str):
        scheme = _scheme(weights)
    elif isinstance(weights, bytes):
        raise TypeError(
            f"`weights` must be a scheme name (a str) or one weight per item; got {weights!r}."
        )
    else:
        if isinstance(weights, Mapping):
            weights = pd.Series(dict(weights), dtype=object)
        if p is not None:
            raise TypeError(
                "`p` applies only to weights='inv_var_class'; got per-item `weights`. Drop `p`."
            )
        return _custom_weights(data, weights), "custom", None, None
    if p is not None and scheme != "inv_var_class":
        raise TypeError(
            f"`p` applies only to weights='inv_var_class'; got weights={scheme!r}. Drop `p` "
            "or use weights='inv_var_class'."
        )
    enc = data.enc
    nik = data.nik
    n = nik.sum(axis=1)
    dist: FloatArray | None = None
    labels: pd.Index | None = None
    if scheme == "inv_var":
        zeta1, zeta2 = K.uniform_moments(enc.n_categories)
        k = K.scheme_weights(n, scheme, np.asarray(zeta1), np.asarray(zeta2))
    elif scheme == "inv_var_class":
        if p is None:
            dist = K.pooled_distribution(nik, enc.group, enc.n_groups)
            labels = enc.categories
        else:
            values, labels = _user_distribution(data, p)
            dist = np.broadcast_to(values, (enc.n_groups, len(values)))
        z1, z2 = K.class_moments(dist)
        k = K.scheme_weights(n, scheme, z1[enc.group], z2[enc.group])
    else:
        zero = np.zeros(1)
        k = K.scheme_weights(n, scheme, zero, zero)
    return k, scheme, dist, labels


# --------------------------------------------------------------------------- results


def spa(data: RatingData, weights: SpaWeights = "annotations_m1", *, p: Any = None) -> Components:
    """Sparse Probability of Agreement (SPA): agreement when not every rater rated every item.

    ``SPA = sum_i k_i P_i / sum_i k_i`` over the items with ``n_i >= 2`` labels, where
    ``P_i = sum_k n_ik (n_ik - 1) / (n_i (n_i - 1))`` is the share of agreeing pairs among
    item ``i``'s labels and ``k_i`` its weight. If labels are missing at random, SPA is an
    unbiased estimate of the agreement the complete data would have had, for every
    weighting that depends on ``n_i`` only; the weighting changes its variance. Rater
    identity is not used, so all three layouts work. The per-item ``P_i``, ``n_i`` and
    weights are in :meth:`spa_items`.

    Parameters
    ----------
    weights : str, array-like or Series, default "annotations_m1"
        ``"annotations_m1"`` (``k = n - 1``, the paper's recommendation and the default:
        the SPA spec's weighting with the best balance of variance and robustness),
        ``"flat"`` (``k = 1``: with complete data this is :meth:`observed`, Fleiss'
        ``P̄``), ``"annotations"`` (``k = n``: one minus Krippendorff's nominal observed
        disagreement ``D_o``), ``"edges"`` (``k = n (n - 1) / 2``, the number of label pairs),
        ``"inv_var"`` (``1 / Var[P_i | n]`` for labels uniform over the categories; it
        gives the same SPA as ``"edges"``) or ``"inv_var_class"`` (``1 / Var[P_i | n]``
        for labels drawn from the category distribution ``p``); see
        :func:`pdagree.spa_variance`. Or one weight per item: an array in the order of
        the frame's rows (for a long frame, the rows of :meth:`spa_items`), or a Series
        indexed by item. Weights of items with fewer than two labels are ignored.
    p : Series or dict, optional
        ``"inv_var_class"`` only: the probability of each category (indexed by category,
        summing to 1, covering every observed category). Default: the pooled
        distribution of all labels, single-label items included (per group with
        ``by=``). Estimating ``p`` from the same data makes SPA very slightly biased; a
        fixed ``p`` keeps it unbiased.

    Returns
    -------
    Coefficient or DataFrame
        SPA as a float, with ``observed`` equal to it and ``expected`` 0 (SPA is not
        chance-corrected), ``weighting`` (the scheme's name or ``"custom"``),
        ``n_items`` (items with two or more labels), ``n_ignored`` (items with fewer),
        ``sum_weights`` and, for ``"inv_var_class"``, ``p`` (the distribution used). With
        ``by=``, one row per group.

    Raises
    ------
    ValueError
        An unknown scheme; per-item weights of the wrong length, missing, negative or
        infinite on an item with two or more labels; a ``p`` that does not sum to 1, has
        negative entries or leaves out an observed category.
    TypeError
        ``p`` with a scheme other than ``"inv_var_class"``, or arguments of the wrong type.

    Warns
    -----
    UndefinedStatisticWarning
        When no item has two labels (or their weights sum to 0); the value is nan.

    Notes
    -----
    For ``n`` labels drawn independently from ``p``, ``P_i`` is a U-statistic with
    ``E[P_i] = theta = sum_k p_k^2`` and ``Var[P_i | n] = 2 / (n (n - 1)) (2 (n - 2)
    zeta1 + zeta2)``, ``zeta1 = sum_k p_k^3 - theta^2``, ``zeta2 = theta (1 - theta)``.
    If ``p`` puts all its mass on one category every variance is 0 and the weights are
    equal.

    References
    ----------
    Nørregaard, J. & Derczynski, L. (2023). Sparse Probability of Agreement.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdagree
    >>> long = pd.DataFrame({
    ...     "item": [1, 1, 1, 2, 2, 3],
    ...     "coder": ["a", "b", "c", "a", "c", "b"],
    ...     "tag": ["x", "x", "y", "y", "y", "x"],
    ... })
    >>> r = long.agree(item="item", rater="coder", label="tag")
    >>> r.spa()  # weights="annotations_m1": (2 * 1/3 + 1 * 1) / 3
    <spa 0.5556: A_o=0.5556, A_e=0.0000, n_items=2, n_raters=3>
    >>> s = r.spa("flat")
    >>> round(float(s), 4), s.weighting, s.n_items, s.n_ignored
    (0.6667, 'flat', 2, 1)
    >>> r.spa_items("edges")
          n_labels  agreement  weight
    item
    1            3   0.333333     3.0
    2            2   1.000000     1.0
    3            1        NaN     0.0
    """
    k, weighting, dist, labels = item_weights(data, weights, p)
    enc = data.enc
    value, sum_weights, n_counting, n_ignored = K.spa_components(
        data.nik, k, enc.group, enc.n_groups
    )
    members: dict[str, Any] = {
        "weighting": weighting,
        "n_ignored": int(n_ignored[0]),
        "sum_weights": float(sum_weights[0]),
    }
    if dist is not None and labels is not None and enc.groups is None:
        members["p"] = pd.Series(dist[0], index=labels, name="p")
    columns = {
        "n_ignored": n_ignored.astype(np.int64),
        "sum_weights": sum_weights,
        "weighting": weighting,
    }
    return Components(
        "spa",
        value,
        value,
        np.zeros_like(value),
        n_items=n_counting,
        members=members,
        columns=columns,
    )


def spa_items(
    data: RatingData, weights: SpaWeights = "annotations_m1", p: Any = None
) -> pd.DataFrame:
    """Per item, what :meth:`spa` averages: ``n_labels``, ``agreement`` and ``weight``.

    ``agreement`` is ``P_i`` (nan for items with fewer than two labels) and ``weight`` the
    item's weight under ``weights`` and ``p`` (as in :meth:`spa`; 0 for items that do not
    count), so ``(agreement * weight).sum() / weight.sum()`` is SPA. Indexed like
    :meth:`items`.

    Parameters
    ----------
    weights, p
        As for :meth:`spa`.

    Returns
    -------
    DataFrame
        One row per item (with ``by=``: group keys, then item):

        ===============  ====================================================
        column           holds
        ===============  ====================================================
        ``n_labels``     the item's labels (integers)
        ``agreement``    ``P_i``, nan below two labels
        ``weight``       the item's weight in SPA (0 when it does not count)
        ===============  ====================================================

    Examples
    --------
    >>> import pandas as pd
    >>> import pdagree
    >>> wide = pd.DataFrame({"a": ["x", "y", "x"], "b": ["x", "y", None],
    ...                      "c": ["y", "y", None]})
    >>> wide.agree.spa_items("annotations")
       n_labels  agreement  weight
    0         3   0.333333     3.0
    1         3   1.000000     3.0
    2         1        NaN     0.0
    """
    k, _, _, _ = item_weights(data, weights, p)
    n, agreement = K.spa_item_agreement(data.nik)
    return pd.DataFrame(
        {
            "n_labels": n.astype(np.int64),
            "agreement": agreement,
            "weight": np.where(n >= 2, k, 0.0),
        },
        index=data.item_index(),
    )


def per_item_weights(data: RatingData, options: dict[str, Any]) -> dict[str, FloatArray]:
    """Per-item ``weights=`` aligned to the items, which follow their items into bootstrap
    replicates (nothing for a named scheme)."""
    weights = options.get("weights")
    if weights is None or isinstance(weights, str):
        return {}
    return {"weights": _custom_weights(data, weights)}


# --------------------------------------------------------------------------- spa_variance


def _category_count(categories: object) -> int:
    if isinstance(categories, (bool, np.bool_)):
        raise TypeError(f"`categories` must be a number of categories; got {plain(categories)!r}.")
    if isinstance(categories, (int, np.integer)):
        c = int(categories)
    elif isinstance(categories, (str, bytes)):
        raise TypeError(
            f"`categories` must be a number of categories or a list of them; got the string "
            f"{plain(categories)!r}. Pass categories={len(categories)} or a list."
        )
    elif isinstance(categories, (Sequence, pd.Index, np.ndarray)):
        listed = pd.Index(list(categories))
        if listed.has_duplicates:
            raise ValueError(
                f"`categories` must not repeat a category; got "
                f"{fmt(list(listed[listed.duplicated()].unique()))} twice. List each once."
            )
        c = len(listed)
    else:
        raise TypeError(
            f"`categories` must be a number of categories (an int) or a list of them; got "
            f"{type(categories).__name__}."
        )
    if c < 1:
        raise ValueError(
            f"`categories` must be at least 1; got {plain(c)!r}. Pass the number of categories "
            "labels can take."
        )
    return c


def spa_variance(
    n: Any,
    *,
    categories: int | Sequence[Hashable] | None = None,
    p: Any = None,
) -> Any:
    """The variance of an item's agreement ``P_i`` given its number of labels ``n``.

    The closed form behind the ``inv_var`` and ``inv_var_class`` weights of
    :meth:`pdagree.Ratings.spa` (whose weights are ``1 / spa_variance(n_i, ...)``), for
    labels drawn independently from a category distribution: uniform over ``categories``,
    or ``p``. Vectorised over ``n``, so the weighting curves are one call away.

    Parameters
    ----------
    n : int or array-like of int
        Numbers of labels. Values below 2 give nan (an item needs two labels to have an
        agreement).
    categories : int or list, optional
        The number of categories ``C`` (or the categories themselves), for labels uniform
        over them.
    p : array-like, Series or dict, optional
        The category probabilities, non-negative and summing to 1.

    Returns
    -------
    float, numpy.ndarray or pandas.Series
        ``Var[P_i | n]``, the same shape as ``n`` (a Series keeps its index).

    Raises
    ------
    TypeError
        If neither or both of `categories` and `p` are given, or an argument has the
        wrong type.
    ValueError
        If `n` holds a number that is not whole, `categories` is below 1, or `p` has
        negative or non-finite entries or does not sum to 1.

    Notes
    -----
    ``P_i`` is a U-statistic of degree 2 with kernel ``[x_a = x_b]``. With
    ``theta = sum_k p_k^2`` (which is also ``E[P_i]``), ``zeta1 = sum_k p_k^3 - theta^2``
    and ``zeta2 = theta (1 - theta)``::

        Var[P_i | n] = 2 / (n (n - 1)) * (2 (n - 2) zeta1 + zeta2)

    For ``p`` uniform over ``C`` categories ``zeta1 = 0``, so
    ``Var = 2 (C - 1) / (C^2 n (n - 1))``: inverse-variance weights are then proportional
    to the number of label pairs, the ``edges`` weights, for every ``C``. This corrects
    the paper's printed variance sums (eq. 20-22), which are wrong for ``n >= 4``.

    References
    ----------
    Nørregaard, J. & Derczynski, L. (2023). Sparse Probability of Agreement, section 5 and
    appendices A and B.

    Examples
    --------
    >>> import numpy as np
    >>> import pdagree
    >>> pdagree.spa_variance(np.arange(1, 6), categories=2)
    array([       nan, 0.25      , 0.08333333, 0.04166667, 0.025     ])
    >>> pdagree.spa_variance(3, p=[0.5, 0.3, 0.2])
    0.0889
    """
    if (categories is None) == (p is None):
        raise TypeError(
            "pass exactly one of `categories` (labels uniform over C categories) and `p` "
            f"(category probabilities); got {'both' if p is not None else 'neither'}."
        )
    if p is not None:
        values, _ = _probabilities(p)
        zeta1, zeta2 = K.class_moments(values)
    else:
        zeta1, zeta2 = (np.asarray(z) for z in K.uniform_moments(_category_count(categories)))
    index = n.index if isinstance(n, pd.Series) else None
    try:
        raw = n.to_numpy(dtype=np.float64, na_value=np.nan) if index is not None else n
        counts = np.asarray(raw, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(
            f"`n` must be a number of labels or an array of them; got {plain(n)!r}."
        ) from None
    finite = counts[np.isfinite(counts)]
    if (finite != np.round(finite)).any():
        bad = np.unique(finite[finite != np.round(finite)])
        raise ValueError(
            f"`n` must hold whole numbers of labels; got {fmt(bad.tolist())}. Round or drop them."
        )
    var = K.agreement_variance(counts, np.asarray(zeta1), np.asarray(zeta2))
    if index is not None:
        return pd.Series(var, index=index, name="variance")
    if var.ndim == 0:
        return float(var)
    return var
