"""Krippendorff's alpha (every level and custom metrics) and Gwet's weighted alpha.

:func:`alpha`'s docstring is the documentation of :meth:`pdagree.Ratings.alpha`. Its analytic
standard error (Gwet's, through the agreement weights ``w = 1 - delta2 / max delta2``) is
here too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from .._kernels import agreement as K
from .._kernels import alpha as KA
from .._kernels import alpha_sums as KS
from .._kernels import table as KT
from .._kernels import variance as V
from .._typing import FloatArray
from ..encoding import annotation_sets, distance_level
from ..encoding.levels import magnitude, metric_for
from ..tensors.data import RatingData, Weights
from .base import Components
from .kappa import two_rater_tables

__all__ = [
    "alpha", "alpha_analytic_applies", "alpha_variance", "disagreement_components",
    "with_distance",
]  # fmt: skip

# Above this many categories the (K, K) weight matrix of the analytic variance is not built.
_MAX_ANALYTIC_ALPHA_CATEGORIES = 2000

Level = str | np.ndarray[Any, Any] | pd.DataFrame | Callable[[FloatArray, FloatArray], FloatArray]


def alpha(data: RatingData, level: Level = "nominal", *, weights: Weights = None) -> Components:
    """Krippendorff's alpha for nominal, ordinal, interval or ratio data, or a custom metric.

    ``alpha = 1 - D_o / D_e``: one minus the ratio of observed to expected disagreement
    among the *pairable* values, those of items with two or more ratings (items with fewer
    do not count, so missing ratings are allowed). Works on wide, long and counts frames.

    Parameters
    ----------
    level : {"nominal", "ordinal", "interval", "ratio"}, (K, K) array, DataFrame or callable
        The metric ``delta2_ck``, the squared difference between values ``c`` and ``k``.
        ``"nominal"`` (the default) for unordered labels; ``"ordinal"`` for ordered ones
        (the category order: an ordered Categorical's, ``categories=[...]`` or the labels'
        values when they are numbers; undeclared text labels are an error);
        ``"interval"`` and ``"ratio"`` for numeric labels (``"ratio"``: non-negative
        values with an absolute zero). A (K, K) matrix gives ``delta2`` over the
        categories in order (a DataFrame is aligned on its labels): symmetric, non-negative,
        0 on the diagonal. A callable ``delta2(c, k)`` takes two float arrays of the same
        shape (category values; positions ``0..K-1`` when labels are not numeric) and
        returns ``delta2`` elementwise.
    weights : str, (K, K) array or DataFrame, optional
        Gwet's weighted alpha instead: agreement weights as for :meth:`fleiss` (Gwet's
        eight schemes on category values, or a matrix). Equals Krippendorff's alpha with
        ``delta2 = 1 - w``. Not together with a ``level`` other than ``"nominal"``. The
        result is named ``"alpha[weights=<scheme>]"`` and its ``observed`` and
        ``expected`` are Gwet's ``A_o`` and ``A_e``.
    distance : {"masi", "jaccard"}, optional
        Set-valued labels (a multi-select): ``delta2`` is a distance between the sets of
        labels two annotations hold, Passonneau's MASI or Jaccard's, and the result is named
        ``"alpha[masi]"`` or ``"alpha[jaccard]"``. A cell holds a set or frozenset (a list or
        tuple too in a long frame; in a wide frame a tuple or list is a primary and a
        secondary label, which count as a set of two); the order within a cell and repeated
        labels do not matter, and a missing cell is no annotation. Not together with
        ``level`` or ``weights``.

    Returns
    -------
    Coefficient or DataFrame
        alpha as a float, named ``"alpha[<level>]"`` (``"alpha[custom]"`` for a matrix or
        callable), with ``observed = 1 - D_o / max_delta2`` and ``expected = 1 - D_e /
        max_delta2`` on the agreement scale, ``max_delta2`` being the largest distance
        between two categories present among the pairable values (1 for nominal data), so
        that ``(observed - expected) / (1 - expected)`` is alpha at every level;
        ``D_o`` and ``D_e`` (also as ``observed_disagreement`` and
        ``expected_disagreement``) on the metric's own scale, ``max_delta2``, ``n_items``
        (pairable items) and ``n_values`` (pairable values ``n``). With ``by=``, one row
        per group.

    Raises
    ------
    ValueError
        An unknown level name; ``"interval"`` or ``"ratio"`` on labels that are not
        numbers, or ``"ratio"`` on negative values; a matrix of the wrong shape, not
        symmetric, with a non-zero diagonal, negative or non-finite entries; a callable
        that is not 0 on equal values or not symmetric. An unknown ``distance``, or
        ``distance`` on labels none of which is a set.
    TypeError
        ``level`` of another type; ``distance`` with ``level`` or ``weights``.

    Warns
    -----
    UndefinedStatisticWarning
        When no item has two ratings, or ``D_e = 0`` (every pairable value is the same,
        which the warning reports as ``A_e = 1``); the value is nan.

    Notes
    -----
    With ``n_uc`` the ratings of item ``u`` in category ``c``, ``m_u = sum_c n_uc >= 2``,
    coincidences ``o_ck = sum_u (number of c-k pairs in u) / (m_u - 1)`` and marginals
    ``n_c = sum_k o_ck``, ``n = sum_c n_c`` (Krippendorff 2011):

    ``D_o = (1 / n) sum_ck o_ck delta2_ck`` and
    ``D_e = 1 / (n (n - 1)) sum_ck n_c n_k delta2_ck``, with

    - nominal: ``delta2_ck = [c != k]``;
    - ordinal: ``delta2_ck = (sum_{g=c..k} n_g - (n_c + n_k) / 2)^2``, rank sums over the
      pooled frequencies ``n_g`` of the pairable values in category order;
    - interval: ``(c - k)^2``; ratio: ``((c - k) / (c + k))^2``.

    Set distances (Passonneau 2006), with ``I = |A & B|`` and ``U = |A | B|``: Jaccard's
    ``delta2 = 1 - I / U`` and MASI's ``1 - (I / U) M``, where the monotonicity ``M`` is 1
    for equal sets, 2/3 when one set holds the other, 1/3 when they overlap otherwise and 0
    when they are disjoint. Each distinct set is a category, and the distances between them
    come from the 0/1 membership matrix ``X`` (sets x labels) as ``I = X X'`` (beyond 1,024
    distinct sets, pair by pair from bit-packed rows): time grows with the square of the
    distinct sets per group, memory with the sets, hardly with the annotations. An empty
    set is an annotation ("none of the labels"): two empty sets are at distance 0 (they are
    equal; nltk's ``masi_distance`` and ``jaccard_distance`` divide 0 by 0 there), an empty
    and a non-empty set at 1. Elements that read as numbers are compared as numbers
    (``'1'`` is ``1``). :meth:`multilabel` (Rosenberg & Binkowski) is the other reading of
    several labels: a primary and a secondary label, weighted ``p`` and ``1 - p``, rather
    than an unordered set.

    Krippendorff's ordinal metric is not Gwet's ``weights="ordinal"``: Gwet's weights
    depend only on how many categories lie between ``c`` and ``k``, while Krippendorff's
    distances depend on how many *values* were observed between them, so a rarely used
    category in between barely separates its neighbours, and unused categories do not
    count at all. Ordinal alpha equals interval alpha on the mid-ranks
    ``M_c = sum_{g<=c} n_g - n_c / 2``.

    Nominal, ordinal and interval alpha take O(E log E) time and O(E) memory for ``E``
    annotations, with no (K, K) matrix: hundreds of thousands of distinct numeric values
    are fine. On continuous scores (float ratings read as numbers, no ``by=``), interval
    alpha is computed from per-item and total moment sums of the values, in O(E) time, with
    no sort of the distinct values: ``D_o = (1 / n) sum_u 2 m_u / (m_u - 1) sum_{i in u}
    (x_i - xbar_u)^2`` and ``D_e = 2 / (n - 1) sum_i (x_i - xbar)^2`` over the pairable
    values. Ratio and custom metrics have no closed form; they sum ``delta2`` exactly
    over every pair of distinct values within each item and each group, in bounded
    chunks: memory stays O(E), time grows with the square of the distinct values per
    group. The default level is nominal (the ``krippendorff`` package defaults to
    interval, which is wrong for labels).

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Departmental
    Papers (ASC) 43, University of Pennsylvania.

    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
    pragmatic annotation. Proceedings of LREC 2006, Genoa.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> import pdagree
    >>> nan = np.nan
    >>> df = pd.DataFrame({  # Krippendorff (2011): 4 observers, 12 units, 1..5
    ...     "A": [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    ...     "B": [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    ...     "C": [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    ...     "D": [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
    ... })
    >>> a = df.agree.alpha()
    >>> a.name, round(float(a), 3), a.n_items, a.n_values
    ('alpha[nominal]', 0.743, 11, 40.0)
    >>> [round(float(df.agree.alpha(level)), 3) for level in ("ordinal", "interval", "ratio")]
    [0.815, 0.849, 0.797]

    Sets of labels, one row per annotation (MASI: {a} against {a, b} is 1 - (1/2)(2/3)):

    >>> tags = pd.DataFrame({
    ...     "doc": [1, 1, 2, 2, 3, 3],
    ...     "coder": ["x", "y"] * 3,
    ...     "tags": [{"a"}, {"a", "b"}, {"b"}, {"b"}, {"c"}, ["c", "a"]],
    ... })
    >>> masi = tags.agree(item="doc", rater="coder", label="tags").alpha(distance="masi")
    >>> masi.name, round(float(masi), 4)
    ('alpha[masi]', 0.4545)
    """

    enc = data.enc
    if weights is not None:
        if not (isinstance(level, str) and level == "nominal"):
            raise TypeError(
                "`alpha()` takes `level=` (Krippendorff's metrics) or `weights=` (Gwet's "
                f"weighted alpha), not both; got level={level!r} and weights={weights!r}."
            )
        w, wlabel = data.weights(weights)
        if data.table is not None:
            a_o, a_e, _, n2 = KT.weighted_alpha_components(data.table, w)
        else:
            a_o, a_e, _, n2 = K.weighted_alpha_components(
                data.nik, w, enc.group, enc.n_groups, data.item_weight
            )
        return Components(
            f"alpha[weights={wlabel}]", K.chance_corrected(a_o, a_e), a_o, a_e, n_items=n2
        )
    metric, label = metric_for(level, enc.categories, enc.values, ordered=enc.ordered)
    parts, unit = _components(data, metric)
    return disagreement_components(parts, unit, label)


def disagreement_components(parts: KA.AlphaComponents, unit: float, label: str) -> Components:
    """Alpha and its members from the kernel's ``D_o`` and ``D_e`` per group, in distances
    of ``unit`` (what :func:`alpha` returns for metric ``label``)."""
    d_o, d_e = parts.observed_disagreement, parts.expected_disagreement
    # The agreement scale: distances over their largest value among the categories present,
    # so that alpha = (A_o - A_e) / (1 - A_e) with A_o = 1 - D_o / max and A_e = 1 - D_e / max.
    scale = np.where(parts.max_delta2 > 0, parts.max_delta2, 1.0)
    with np.errstate(over="ignore"):  # distances of values near 1e200 do not fit a float
        members = {name: x * unit for name, x in (("D_o", d_o), ("D_e", d_e))}
        max_delta2 = parts.max_delta2 * unit
    return Components(
        f"alpha[{label}]",
        KA.alpha_from_disagreement(d_o, d_e),
        1.0 - d_o / scale,
        1.0 - d_e / scale,
        n_items=parts.n_items,
        extra={
            "observed_disagreement": members["D_o"],
            "expected_disagreement": members["D_e"],
            "n_values": parts.n_values,
            **members,
            "max_delta2": max_delta2,
        },
    )


def with_distance(data: Any, level: Any, distance: Any, weights: Any) -> tuple[Any, Any]:
    """The data and the level that ``alpha(level, distance=..., weights=...)`` computes
    with: with ``distance``, a :class:`~pdagree.encoding.SetDistance` level, and each
    annotation's labels as one set (equal sets one category; a primary and a secondary label
    a set of two); else ``data`` and ``level`` as given."""
    chosen = distance_level(level, distance, weights)
    if chosen is level or not isinstance(data, RatingData):
        return data, chosen
    enc = data.enc
    sets = annotation_sets(enc.code, enc.secondary, enc.categories)
    if sets is None:  # single labels: the level refuses them, naming a few
        return data, chosen
    code, categories = sets
    read = replace(
        enc, code=code, categories=categories, secondary=None, declared=False, ordered=False
    )
    return RatingData(read), chosen


def _components(data: RatingData, metric: KA.Metric) -> tuple[KA.AlphaComponents, float]:
    """The alpha kernel for ``metric``: moment sums where they suffice (nominal on the
    dense count table, interval on the values), else the general pairable-value counts; and
    the unit of its distances (interval: :func:`~pdagree.encoding.levels.metric_for` divides the
    values by their largest magnitude, so values near 1e200 or 1e-200 neither overflow nor
    underflow when squared, and the distances are in that unit squared)."""
    enc = data.enc
    if data.table is not None:  # a contingency table: from its coincidences
        values = enc.values
        size = magnitude(values) if isinstance(metric, KA.Interval) and values is not None else 1.0
        return KT.alpha_components(data.table, metric), size * size
    if isinstance(metric, KA.Nominal) and not data.sparse:
        return KS.nominal_alpha_components(
            data.nik, enc.group, enc.n_groups, data.item_weight
        ), 1.0
    if isinstance(metric, KA.Interval):  # values in units of their largest magnitude
        x = metric.values[enc.code]
        parts = KS.interval_alpha_components(enc.item, x, enc.weight, enc.group, enc.n_groups)
        size = magnitude(enc.values) if enc.values is not None else 1.0
        return parts, size * size
    parts = KA.alpha_components(
        enc.item, enc.code, enc.weight, enc.group, enc.n_groups, enc.n_categories, metric
    )
    return parts, 1.0


def alpha_variance(
    data: RatingData, options: dict[str, Any], parts: Components, population: float
) -> tuple[FloatArray, FloatArray]:
    """Gwet's variance of alpha, through its agreement-weight form ``w = 1 - delta2 / max``.

    On a contingency table, R irrCAC's ``krippen2.table``: the two-rater table variance of
    Scott's pi with the same weights (:func:`~pdagree.definitions.kappa.table_variance`),
    which divides by ``n`` and is not the raw-ratings variance of alpha."""
    enc = data.enc
    if options.get("weights") is None and enc.layout != "contingency":
        metric, _ = metric_for(
            options.get("level", "nominal"), enc.categories, enc.values, ordered=enc.ordered
        )
        if isinstance(metric, KA.Interval):  # moment sums: no (K, K) weights
            x = metric.values
            top = float((x.max() - x.min()) ** 2) if len(x) else 0.0
            var, _ = V.interval_alpha_variance(
                enc.item, x[enc.code], enc.weight, enc.group, enc.n_groups, top or 1.0, population
            )
            return var, data.rated_per_group
    if options.get("weights") is not None:
        w, _ = data.weights(options["weights"])
    else:
        w = _alpha_weights(data, options.get("level", "nominal"))
    if enc.layout == "contingency":
        return V.table_variance(two_rater_tables(data), w, "scott", population)
    var, _ = V.weighted_alpha_variance(
        data.nik, w, enc.group, enc.n_groups, population, data.item_weight
    )
    return var, data.rated_per_group


def alpha_analytic_applies(data: RatingData, options: dict[str, Any]) -> bool:
    """Whether Gwet's variance exists: not for ordinal alpha (its distances depend on the
    observed frequencies), nor for more than 2,000 categories without weights, except for
    interval alpha, whose variance comes from moment sums."""
    if options.get("weights") is not None:
        return True
    enc = data.enc
    level = options.get("level", "nominal")
    metric, _ = metric_for(level, enc.categories, enc.values, ordered=enc.ordered)
    if isinstance(metric, KA.Interval):  # from moment sums, whatever the distinct values
        return True
    return not isinstance(metric, KA.Ordinal) and (
        data.enc.n_categories <= _MAX_ANALYTIC_ALPHA_CATEGORIES
    )


def _alpha_weights(data: RatingData, level: Any) -> FloatArray:
    """``w = 1 - delta2 / max(delta2)`` over the categories, for a fixed metric."""
    enc = data.enc
    k = enc.n_categories
    metric, label = metric_for(level, enc.categories, enc.values, ordered=enc.ordered)
    if isinstance(metric, KA.Ordinal) or k > _MAX_ANALYTIC_ALPHA_CATEGORIES:
        why = (
            "ordinal distances depend on the observed frequencies"
            if isinstance(metric, KA.Ordinal)
            else f"it has {k} distinct values (more than {_MAX_ANALYTIC_ALPHA_CATEGORIES})"
        )
        raise ValueError(
            f"no analytic variance is available for `alpha[{label}]` here: {why}; use "
            "method='bootstrap'."
        )
    if isinstance(metric, KA.Nominal):
        return np.eye(k)
    codes = np.arange(k, dtype=np.int64)
    if isinstance(metric, KA.Interval):
        delta2 = (metric.values[:, None] - metric.values[None, :]) ** 2
    else:
        a, b = np.repeat(codes, k), np.tile(codes, k)
        delta2 = np.asarray(metric.delta2(a, b), dtype=np.float64).reshape(k, k)
    top = delta2.max()
    return np.eye(k) if top <= 0 else 1.0 - delta2 / top
