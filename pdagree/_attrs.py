"""Frames and series kept in a result's ``attrs``.

pandas keeps ``attrs`` through an operation that combines objects only where all their
``attrs`` are equal, and tests that with ``==`` on the ``attrs`` dicts: ``concat``,
``merge``, and ``astype`` (which puts the converted columns together). A DataFrame or Series
in ``attrs`` makes that ``==`` elementwise, and the comparison raises "The truth value of a
DataFrame is ambiguous" (pandas 2.1 to 3.1), so ``report().astype(str)`` or a ``merge`` of
two reports failed. The classes here are a DataFrame and a Series in every other respect;
two of them compare as wholes (:meth:`~pandas.DataFrame.equals`, nan equal to nan), which
is what that test asks, and so the results combine and keep ``attrs`` that are equal. A
comparison with anything else (a number, a plain frame) stays elementwise.
"""

from __future__ import annotations

from typing import Any, cast

import pandas as pd

__all__ = ["AttrsFrame", "AttrsSeries"]


class _EqualAsWholes:
    """``==`` and ``!=`` against another object of the same class: one bool, from
    ``equals``; against anything else, pandas' elementwise comparison."""

    def __eq__(self, other: object) -> Any:
        if isinstance(other, type(self)):
            return cast(Any, self).equals(other)
        return super().__eq__(other)

    def __ne__(self, other: object) -> Any:
        if isinstance(other, type(self)):
            return not cast(Any, self).equals(other)
        return super().__ne__(other)


class AttrsFrame(_EqualAsWholes, pd.DataFrame):
    """A DataFrame for ``attrs``: equal to another :class:`AttrsFrame` as a whole."""

    @property
    def _constructor(self) -> type[AttrsFrame]:  # copies (and pandas' deep copies) stay one
        return AttrsFrame


class AttrsSeries(_EqualAsWholes, pd.Series):
    """A Series for ``attrs``: equal to another :class:`AttrsSeries` as a whole."""

    @property
    def _constructor(self) -> type[AttrsSeries]:
        return AttrsSeries

    @property
    def _constructor_expanddim(self) -> type[pd.DataFrame]:
        return pd.DataFrame
