""":class:`CountRatings`: :class:`pdagree.Ratings` on count tensors (a tally, a Dask frame).

Every coefficient of the registry is the method :class:`~pdagree.Ratings` has, unchanged: it
runs its definition on :class:`~pdagree.tensors.count_data.CountData`. Gwet's analytic
standard errors, intervals and p-values come with it wherever they read the counts alone (the
Fleiss-type coefficients, Krippendorff's alpha); what needs more (the rater-pair tables of
Light's kappa, Conger's and Cohen's per-item variances, the item bootstrap) raises
:class:`~pdagree.tensors.count_data.AnnotationsNeeded`, as does every method of
:class:`~pdagree.Ratings` that is neither a coefficient nor a breakdown of the count tensors
(those added later included).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .category_sets import compute
from .definitions import REGISTRY
from .inference import resolve_method
from .ratings import Ratings
from .report import report as _report
from .tensors import RatingData
from .tensors.count_data import AnnotationsNeeded, CountData, needs_annotations, needs_items

__all__ = ["COUNT_METHODS", "CountRatings"]

#: Methods of :class:`~pdagree.Ratings` besides the coefficients that read only count
#: tensors (the others raise :class:`AnnotationsNeeded` on counts).
COUNT_METHODS = ("counts", "frequencies", "per_category", "items", "spa_items", "report")

#: What distinct rows of counts with their multiplicities give (a Dask frame's default,
#: :func:`pdagree.tensors.count_data.profile_data`): the coefficients whose definitions
#: and analytic variances sum over items with the multiplicities (checked against the items
#: in tests/test_dask.py); alpha at the nominal level or with ``weights=``. The rest reads
#: the items one by one and says so (``keep_items=True``).
ROW_METHODS = frozenset(
    {"observed", "bennett", "fleiss", "scott", "gwet", "cohen", "conger", "alpha", "bias",
     "frequencies", "report"}
)  # fmt: skip


#: What the items (``keep_items=True``) give and rows of counts do not.
ITEM_METHODS = frozenset({"spa", "counts", "per_category", "items", "spa_items"})


def _check_rows(data: RatingData, name: str, kwargs: dict[str, Any]) -> None:
    """Refuse on distinct rows of counts what reads the items one by one (anything not
    listed in :data:`ROW_METHODS` is refused, so that nothing reads the rows as items)."""
    if not (isinstance(data, CountData) and data.profiles):
        return
    level = kwargs.get("level", "nominal")
    if name in ITEM_METHODS:
        raise needs_items(f"`{name}()`")
    if name not in ROW_METHODS:
        raise needs_annotations(f"`{name}()`")
    if name == "alpha" and not (isinstance(level, str) and level == "nominal"):
        raise needs_items(f"`alpha(level={level!r})`")


class CountRatings(Ratings):
    """Ratings kept as count tensors: the coefficients and breakdowns of
    :class:`pdagree.Ratings` that are functions of them, with the same results as on the
    frames they count."""

    __slots__ = ()

    def __init__(self, data: CountData) -> None:
        self._hold(data)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self._data,))

    def report(
        self,
        confidence_level: float | None = None,
        *,
        method: str = "auto",
        n_resamples: int = 2000,
        rng: Any = None,
        coefficients: Sequence[str] | None = None,
        weights: Any = None,
        level: Any = None,
    ) -> pd.DataFrame:
        """:meth:`pdagree.Ratings.report` of the coefficients that count tensors give (by
        default every one of the report's that applies and needs no more; with
        ``confidence_level``, those with an analytic variance on counts)."""
        if confidence_level is not None and method == "bootstrap":
            raise needs_annotations("the item bootstrap (`method='bootstrap'`)")
        named = coefficients.split(",") if isinstance(coefficients, str) else coefficients
        for entry in named or ():
            name, _, option = str(entry).strip().partition(":")
            _check_rows(self._data, name, {"level": option} if name == "alpha" and option else {})
        uncertainty = confidence_level is not None
        return _report(
            self._data,
            confidence_level,
            method=method,
            n_resamples=n_resamples,
            rng=rng,
            coefficients=coefficients,
            weights=weights,
            level=level,
            available=lambda name: self._counts_suffice(name, uncertainty),
        )

    def _counts_suffice(self, name: str, uncertainty: bool = False) -> bool:
        """Whether coefficient ``name`` (and, with ``uncertainty``, its analytic variance)
        computes from the count tensors alone."""
        definition = REGISTRY[name]
        try:
            _check_rows(self._data, name, {})
            with np.errstate(all="ignore"):
                parts = compute(definition, self._data, {})
                if uncertainty:
                    variance = definition.variance
                    analytic = resolve_method("auto", definition, self._data, {}) == "analytic"
                    if variance is None or not analytic:
                        return False
                    variance(self._data, {}, parts, np.inf)
        except AnnotationsNeeded:
            return False
        except ValueError as exc:  # refused for these data: let report() say so
            return str(exc) not in _NO_RATERS
        return True


_NO_RATERS = ("no raters", "needs raters")


def _on_counts(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    """``Ratings.<name>`` (a coefficient, or a breakdown of counts) on count tensors:
    refused on rows of counts unless listed (:func:`_check_rows`, which reads its arguments
    whether given by position or by name), and what needs rater identity per item says so."""

    signature = inspect.signature(method)

    @functools.wraps(method)
    def on_counts(self: CountRatings, *args: Any, **kwargs: Any) -> Any:
        bound = signature.bind_partial(self, *args, **kwargs).arguments
        _check_rows(self._data, name, {**bound, **bound.get("options", {})})
        try:
            return method(self, *args, **kwargs)
        except ValueError as exc:
            # The guards of definitions that read each annotation's rater (none here).
            if str(exc) in _NO_RATERS:
                raise needs_annotations(f"`{name}()` with its options") from None
            raise

    return on_counts


def _refused(name: str) -> Callable[..., Any]:
    def refuse(self: CountRatings, *args: Any, **kwargs: Any) -> Any:
        raise needs_annotations(f"`{name}()`")

    refuse.__name__ = name
    refuse.__doc__ = f"Not available on counts: ``{name}()`` needs the annotations."
    return refuse


def _install() -> None:
    """Wrap the registry's coefficients; refuse the methods that need annotations."""
    for name in dir(Ratings):
        if name in COUNT_METHODS and name != "report":
            setattr(CountRatings, name, _on_counts(name, getattr(Ratings, name)))
        if name.startswith("_") or name in COUNT_METHODS:
            continue
        attribute = getattr(Ratings, name)
        if not callable(attribute) or isinstance(attribute, (property, type)):
            continue
        if name in REGISTRY:
            setattr(CountRatings, name, _on_counts(name, attribute))
        elif name not in ("from_frame",):
            setattr(CountRatings, name, _refused(name))


_install()
