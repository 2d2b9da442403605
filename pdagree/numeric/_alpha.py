"""Krippendorff's interval alpha of ratings read as numbers, without their categories.

For the interval metric ``delta2_ck = (c - k)^2`` alpha needs no table of categories
(Krippendorff 2011's definitions, with ``m_u`` the ratings of item ``u``, pairable when
``m_u >= 2``, ``n = sum_u m_u`` over the pairable items, ``xbar_u`` the mean of item ``u`` and
``xbar`` that of every pairable value): since ``sum_{i,j in u} (x_i - x_j)^2 = 2 m_u
sum_{i in u} (x_i - xbar_u)^2``,

- ``D_o = (1 / n) sum_u 2 m_u / (m_u - 1) sum_{i in u} (x_i - xbar_u)^2``, the within-item
  spread, and
- ``D_e = 1 / (n (n - 1)) sum_{i,j} (x_i - x_j)^2 = 2 / (n - 1) sum_i (x_i - xbar)^2``,
  the total spread of the pairable values,

per-item and total moment sums of the values (:func:`pdagree._kernels.alpha_sums.
interval_alpha_components`, the kernel the category path runs on the same values). So a
frame of continuous scores read as numbers (:mod:`pdagree.encoding._numeric`) gives
``alpha(level="interval")`` without the sort of its distinct values; the result's
``categories`` and ``n_categories``, and its inference, encode the ratings as categories when
first asked, and equal the category path's member for member.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from .._kernels import alpha_sums as KS
from ..definitions.alpha import disagreement_components
from ..encoding.levels import magnitude
from ..result_source import Deferred, Source
from ..results import Coefficient
from ..tensors import RatingData
from ..tensors.numeric import NumericData

__all__ = ["interval_alpha"]


def interval_alpha(
    scores: NumericData | None,
    arguments: dict[str, Any],
    options: Mapping[str, Any],
    load: Callable[[], RatingData],
) -> Coefficient | None:
    """``alpha(**arguments, **options)`` of ``scores`` as the category path gives it
    (``load()``: the ratings encoded as categories, for ``categories`` and the inference) if
    it is interval alpha without inference ``options``; else, or where the category path must
    answer, None: no ratings read as numbers, ``by=`` groups (their frame counts each group's
    distinct values), values that are not finite (its error) or an undefined value (its
    warning)."""
    level = arguments.get("level")
    interval = isinstance(level, str) and level == "interval"
    if scores is None or not interval or options or arguments.get("weights") is not None:
        return None
    enc = scores.enc
    x = enc.x
    ends = np.array([x.min(), x.max()]) if len(x) else x  # no nan: the ratings read
    if enc.groups is not None or not np.isfinite(ends).all():
        return None
    size = magnitude(ends)  # the unit of the category path's distances (a power of two)
    parts = KS.interval_alpha_one_group(enc.item, x / size, enc.n_items)
    alpha = disagreement_components(parts, size * size, "interval")
    value = float(alpha.value[0])
    if np.isnan(value):
        return None
    deferred = Deferred(lambda: load().enc.categories)
    n_raters = int(np.count_nonzero(np.bincount(enc.rater, minlength=enc.n_raters)))
    return Coefficient(
        value,
        name=alpha.name,
        observed=float(alpha.observed[0]),
        expected=float(alpha.expected[0]),
        n_items=int(parts.n_items[0]),
        n_raters=n_raters,
        n_categories=deferred,
        categories=deferred,
        **{k: v[0].item() for k, v in alpha.extra.items()},
        _source=Source(None, "alpha", arguments, load=load),
    )
