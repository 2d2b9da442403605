"""What a coefficient keeps of the ratings it was computed on, for its inference.

A :class:`~pdagree.Coefficient` computed by a :class:`~pdagree.Ratings` method holds a
:class:`Source`: the encoded ratings, the registry name and the arguments, from which
:func:`pdagree.inference.summarise` computes any interval. A pickle (and
``Coefficient.remove_data()``) keeps a :class:`Source` without the ratings but with a
:class:`KeptVariance`: the value, standard error and ``n`` of the analytic and jackknife
variances (a few floats, whatever the size of the data), from which the ``value ± t(n - 1) · SE``
intervals and tests come out the same, number for number.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from . import inference
from ._typing import FloatArray
from ._warnings import warn
from .definitions import get
from .tensors import RatingData

__all__ = [
    "Deferred",
    "KeptVariance",
    "Source",
    "counted",
    "keep_variance",
    "settle",
    "summarise_kept",
    "unsettled",
]


class KeptVariance(NamedTuple):
    """What the ``value ± t(n - 1) · SE`` summaries of one coefficient need once its data
    is gone: the method ``"auto"`` resolves to, the items with a rating (for the warning of
    an undefined SE) and, per method (``"analytic"``, ``"jackknife"``) that applies, the
    value, the standard error and ``n`` without finite-population correction (a few
    floats)."""

    auto: str
    rated: FloatArray
    parts: dict[str, tuple[FloatArray, FloatArray, FloatArray]]


def keep_variance(data: RatingData, name: str, kwargs: dict[str, Any]) -> KeptVariance:
    """The :class:`KeptVariance` of coefficient ``name`` of ``data`` (one group)."""
    definition = get(name)
    parts: dict[str, tuple[FloatArray, FloatArray, FloatArray]] = {}
    for method, variance in (
        ("analytic", definition.variance),
        ("jackknife", definition.jackknife),
    ):
        if variance is None:
            continue
        try:
            parts[method] = inference.analytic(
                data, definition, kwargs, np.inf, method == "jackknife"
            )
        except ValueError:  # a variance these data cannot give: asked again, it needs them
            continue
    auto = inference.resolve_method("auto", definition, data, kwargs)
    return KeptVariance(auto, data.rated_per_group, parts)


def summarise_kept(
    kept: KeptVariance,
    method_name: str,
    *,
    confidence_level: float,
    method: str,
    population: float,
    alternative: str = "greater",
    test_only: bool = False,
) -> dict[str, FloatArray] | None:
    """:func:`summarise` from a :class:`KeptVariance` (no data): the same numbers where
    the method is ``"analytic"`` or ``"jackknife"`` with no finite-population correction;
    None where the data would be needed."""
    level = inference.check_confidence_level(confidence_level)
    inference.check_method(method, method_name, test_only)
    population = inference.check_population(population)
    chosen = kept.auto if method == "auto" else method
    if chosen not in kept.parts or np.isfinite(population):
        return None
    value, se, n = kept.parts[chosen]
    low, high, z, p = inference.t_summary(value, se, n, level, alternative)
    bad = np.isnan(se) & np.isfinite(value)
    if bad.any():
        why = (
            "fewer than two items were rated, so there is no spread to estimate"
            if (bad & (kept.rated < 2)).any()
            else "its variance is undefined"
        )
        warn(
            f"the {chosen} standard error of `{method_name}` is undefined: {why}; se, low, "
            "high and p_value are nan."
        )
    return {
        "se": se,
        "low": low,
        "high": high,
        "z": z,
        "se_h0": np.full(se.shape, np.nan),
        "p_value": p,
        "ci_method": np.full(se.shape, chosen, dtype=object),
    }


class Deferred:
    """A result's categories computed when first asked: ``make()`` gives them as an Index
    (a result read as numbers, whose categories are a sort of every distinct value)."""

    __slots__ = ("_index", "_make")

    def __init__(self, make: Callable[[], pd.Index]) -> None:
        self._make = make
        self._index: pd.Index | None = None

    def members(self) -> dict[str, Any]:
        """``n_categories`` and ``categories``, as a result holds them."""
        if self._index is None:
            self._index = self._make()
        return {"n_categories": len(self._index), "categories": tuple(self._index.tolist())}


def counted(n_categories: int | Deferred, categories: Any) -> dict[str, Any]:
    """A result's ``n_categories`` and ``categories`` members, or ``_deferred`` standing in
    for both until first asked (:func:`settle`) where ``n_categories`` is a Deferred."""
    if isinstance(n_categories, Deferred):
        return {"_deferred": n_categories}
    return {"n_categories": int(n_categories), "categories": tuple(categories)}


def settle(members: dict[str, Any]) -> dict[str, Any]:
    """``members`` (a result's ``__dict__``) with deferred categories computed, in place."""
    deferred = members.pop("_deferred", None)
    if deferred is not None:
        members.update(deferred.members())
    return members


def unsettled(members: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``members`` whose deferred categories stay deferred in a new result."""
    out = dict(members)
    deferred = out.pop("_deferred", None)
    if deferred is not None:
        out.update(n_categories=deferred, categories=deferred)
    return out


class Source:
    """The inputs of a coefficient's inference: the ratings ``data`` (None once removed;
    ``load()`` gives them on first use where they were not built yet), the registry
    ``name``, its ``arguments``, and ``kept``, the :class:`KeptVariance` that stands in for
    the data once they are removed.

    Internal to :class:`~pdagree.Coefficient`; never changed after construction (a source
    without data is a new one; loading the data changes no number).
    """

    __slots__ = ("_data", "_load", "arguments", "kept", "name")

    def __init__(
        self,
        data: RatingData | None,
        name: str,
        arguments: dict[str, Any],
        kept: KeptVariance | None = None,
        *,
        load: Callable[[], RatingData] | None = None,
    ) -> None:
        self._data = data
        self._load = load
        self.name = name
        self.arguments = dict(arguments)
        self.kept = kept

    @property
    def data(self) -> RatingData | None:
        """The ratings (loaded on first use), or None once removed."""
        if self._data is None and self._load is not None:
            self._data = self._load()
            self._load = None
        return self._data

    def without_data(self) -> Source:
        """This source with the data replaced by their :class:`KeptVariance`."""
        if self.data is None:
            return self
        kept = keep_variance(self.data, self.name, self.arguments)
        return Source(None, self.name, self.arguments, kept)

    def __reduce__(self) -> tuple[Any, ...]:
        light = self.without_data()
        return (Source, (None, light.name, light.arguments, light.kept))

    def summarise(
        self,
        *,
        confidence_level: float,
        method: str,
        n_resamples: int,
        rng: Any,
        population: float,
        alternative: str,
        interval: str,
        test_only: bool,
    ) -> dict[str, FloatArray]:
        """:func:`pdagree.inference.summarise` on the data, or from :attr:`kept` where they
        are gone; a ``ValueError`` naming the remedy where the method needs them."""
        if self.data is not None:
            return inference.summarise(
                self.data,
                self.name,
                self.arguments,
                confidence_level=confidence_level,
                method=method,
                n_resamples=n_resamples,
                rng=rng,
                population=population,
                alternative=alternative,
                interval=interval,
                test_only=test_only,
            )
        kept = self.kept
        out = None
        if kept is not None:
            out = summarise_kept(
                kept,
                self.name,
                confidence_level=confidence_level,
                method=method,
                population=population,
                alternative=alternative,
                test_only=test_only,
            )
        if out is not None:
            return out
        usable = [] if kept is None else [f"method={m!r}" for m in kept.parts]
        instead = f"; {' or '.join(usable)} without `N` needs none" if usable else ""
        chosen = method if kept is None or method != "auto" else kept.auto
        parts = {} if kept is None else kept.parts
        finite = chosen in parts and np.isfinite(population)
        what = f"`N={population!r}`" if finite else f"method={chosen!r}"
        raise ValueError(
            f"{what} needs the ratings `{self.name}` was computed on, and this result no "
            "longer holds them (it was unpickled, or made by `remove_data()`); compute the "
            f"coefficient again from the ratings (e.g. `df.agree.{self.name}()`){instead}."
        )
