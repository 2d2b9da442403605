"""Checks of the layout arguments of ``df.agree(...)`` that need no data: ``categories=`` and
``raters=`` are ordered lists, and no category is missing.

Part of the encoding layer (:mod:`pdagree.encoding`); the pandas and the Dask engines both
call :func:`check_layout_arguments` through :func:`pdagree.encoding._encode.layout_of`.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

import pandas as pd

from ._labels import _plain

__all__ = ["as_list", "check_layout_arguments"]


def _missing(value: Any) -> bool:
    """Whether ``value`` is a missing value (None, NaN, pd.NA, NaT); tuples are labels."""
    if value is None or value is pd.NA:
        return True
    try:
        return bool(pd.api.types.is_scalar(value) and pd.isna(value))
    except (TypeError, ValueError):
        return False


def check_layout_arguments(
    raters: Sequence[Hashable] | None, categories: Sequence[Hashable] | None
) -> None:
    """Refuse ``categories`` and ``raters`` that cannot say what they mean.

    - ``categories`` as a string, or as an unordered collection (a set, a frozenset, dict
      keys or a mapping): the order of the categories is part of their meaning (ordinal and
      weighted coefficients read it), and a set has none (its order changes with
      ``PYTHONHASHSEED``).
    - a missing value (None, NaN, pd.NA) among ``categories``: a missing label is not an
      annotation, so such a category could never be used, yet it would count (Bennett's S).
    - ``raters`` as a string: it would be read as one column per character.
    """
    if categories is not None:
        if isinstance(categories, (str, bytes)):
            raise TypeError(
                f"`categories` must be a list of categories; got the string {categories!r}. "
                f"Wrap it in a list: categories=[{categories!r}]."
            )
        if isinstance(categories, (AbstractSet, Mapping)):
            kind = type(categories).__name__
            raise TypeError(
                f"`categories` must be an ordered list; got a {kind}, whose order is arbitrary "
                "(it changes with PYTHONHASHSEED) while ordinal and weighted coefficients read "
                f"the categories' order. Pass a list, e.g. categories=sorted(...), or the "
                "categories in their order."
            )
        missing = [c for c in categories if _missing(c)]
        if missing:
            raise ValueError(
                "`categories` must not hold a missing value; got "
                f"{_plain(missing[0])!r}. A missing label is not an annotation, so it cannot "
                "be a category: drop it from "
                "`categories` (and replace missing labels by a label of their own, e.g. "
                "df.fillna('none'), if 'no answer' is a category)."
            )
    if raters is not None and isinstance(raters, (str, bytes)):
        raise TypeError(
            f"`raters` must be a list of column names; got the string {raters!r}, which would "
            f"be read as one column per character. Wrap it in a list: raters=[{raters!r}]."
        )


def as_list(
    by: Hashable | Sequence[Hashable] | None, columns: pd.Index | None = None
) -> list[Hashable]:
    """``by`` as a list of column names: a list (or a tuple) lists several, except that a
    tuple which is a column of MultiIndex ``columns`` names that one column."""
    if by is None:
        return []
    if isinstance(by, tuple) and isinstance(columns, pd.MultiIndex) and by in columns:
        return [by]
    if isinstance(by, (list, tuple)):
        return list(by)
    return [by]
