""":class:`DaskRatings`: :class:`pdagree.Ratings` on the count tensors of a Dask frame
(:class:`~pdagree.count_ratings.CountRatings`, as a :class:`pdagree.Tally` gives them)."""

from __future__ import annotations

from ..count_ratings import COUNT_METHODS, CountRatings

__all__ = ["COUNT_METHODS", "DaskRatings"]


class DaskRatings(CountRatings):
    """Ratings reduced from a Dask frame to count tensors: ``ddf.agree(...)``.

    The coefficients and breakdowns of :class:`pdagree.Ratings` that are functions of the
    count tensors, with the same results (analytic standard errors included) as on the
    computed frame; see :mod:`pdagree.dask`.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return "Dask" + super().__repr__()
