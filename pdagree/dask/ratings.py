""":class:`DaskRatings`: :class:`pdagree.Ratings` on the count tensors of a Dask frame.

Every coefficient of the registry is the method :class:`~pdagree.Ratings` has, unchanged: it
runs its definition on :class:`~pdagree.dask._data.CountData`. A definition that needs more
than count tensors (the rater-pair tables of Light's kappa, a contingency table) raises
:class:`~pdagree.dask._data.AnnotationsNeeded`, as does any request for uncertainty
(``confidence_level=``, ``r.standard_error()``: Gwet's variances need per-item terms of the
raters, the bootstrap resamples items) and every method of :class:`~pdagree.Ratings` that is
neither a coefficient nor a breakdown of the count tensors (those added later included).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..definitions import REGISTRY
from ..evaluate import INFERENCE_DEFAULTS
from ..ratings import Ratings
from ..report import report as _report
from ..results import Coefficient
from ._data import AnnotationsNeeded, CountData, NoAnnotations, needs_annotations

__all__ = ["COUNT_METHODS", "DaskRatings"]

#: Methods of :class:`~pdagree.Ratings` besides the coefficients that read only count
#: tensors (the others raise :class:`AnnotationsNeeded` on a Dask frame).
COUNT_METHODS = ("counts", "frequencies", "per_category", "items", "spa_items", "report")


class DaskRatings(Ratings):
    """Ratings reduced from a Dask frame to count tensors: ``ddf.agree(...)``.

    The coefficients and breakdowns of :class:`pdagree.Ratings` that are functions of the
    count tensors, with the same results as on the computed frame; see
    :mod:`pdagree.dask`.
    """

    __slots__ = ()

    def __init__(self, data: CountData) -> None:
        object.__setattr__(self, "_data", data)

    def __reduce__(self) -> tuple[Any, ...]:
        return (DaskRatings, (self._data,))

    def __repr__(self) -> str:
        return "Dask" + super().__repr__()

    def report(
        self,
        confidence_level: float | None = None,
        *,
        method: str = "analytic",
        n_resamples: int = 2000,
        rng: Any = None,
        coefficients: Sequence[str] | None = None,
        weights: Any = None,
        level: Any = None,
    ) -> pd.DataFrame:
        """:meth:`pdagree.Ratings.report` of the coefficients that count tensors give (by
        default every one of the report's that applies and needs no more)."""
        if confidence_level is not None:
            raise needs_annotations("uncertainty (`confidence_level`)")
        if coefficients is None:
            coefficients = [
                d.name
                for d in REGISTRY.values()
                if d.in_report and d.applies_to(self._data) and self._counts_suffice(d.name)
            ]
        return _report(
            self._data,
            None,
            method=method,
            n_resamples=n_resamples,
            rng=rng,
            coefficients=coefficients,
            weights=weights,
            level=level,
        )

    def _counts_suffice(self, name: str) -> bool:
        """Whether coefficient ``name`` computes from the count tensors alone."""
        from ..definitions import compute

        try:
            with np.errstate(all="ignore"):
                compute(REGISTRY[name], self._data, {})
        except AnnotationsNeeded:
            return False
        except ValueError:  # refused for these data: let report() say so
            return True
        return True


_NO_RATERS = ("no raters", "needs raters")


def _coefficient(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    """``Ratings.<name>`` on count tensors: no uncertainty, none asked for later either."""

    @functools.wraps(method)
    def on_counts(self: DaskRatings, *args: Any, **kwargs: Any) -> Any:
        asked = [k for k in kwargs if k in INFERENCE_DEFAULTS]
        if kwargs.get("confidence_level") is not None or any(
            k != "confidence_level" for k in asked
        ):
            raise needs_annotations(f"uncertainty of `{name}()` ({', '.join(asked)})")
        try:
            result = method(self, *args, **kwargs)
        except ValueError as exc:
            # The guards of definitions that read each annotation's rater (none here).
            if str(exc) in _NO_RATERS:
                raise needs_annotations(f"`{name}()`") from None
            raise
        if isinstance(result, Coefficient) and "_source" in result.__dict__:
            _, key, arguments = result.__dict__["_source"]
            what = f"uncertainty of `{name}()`"
            result.__dict__["_source"] = (NoAnnotations(what), key, arguments)
        return result

    return on_counts


def _refused(name: str) -> Callable[..., Any]:
    def refuse(self: DaskRatings, *args: Any, **kwargs: Any) -> Any:
        raise needs_annotations(f"`{name}()`")

    refuse.__name__ = name
    refuse.__doc__ = f"Not available on a Dask frame: ``{name}()`` needs the annotations."
    return refuse


def _install() -> None:
    """Wrap the registry's coefficients; refuse the methods that need annotations."""
    for name in dir(Ratings):
        if name.startswith("_") or name in COUNT_METHODS:
            continue
        attribute = getattr(Ratings, name)
        if not callable(attribute) or isinstance(attribute, (property, type)):
            continue
        if name in REGISTRY:
            setattr(DaskRatings, name, _coefficient(name, attribute))
        elif name not in ("from_frame",):
            setattr(DaskRatings, name, _refused(name))


_install()
