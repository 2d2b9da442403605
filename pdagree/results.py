"""Result types: a float that remembers what produced it.

A :class:`Coefficient` is a :class:`float` (so ``if r < 0.6``, f-strings, sorting and
``groupby(...).apply(lambda g: g.agree.fleiss())`` giving a float Series all work) that also
carries the components it was computed from. ``by=`` calls return a DataFrame with one row per
group and one column per member.
"""

from __future__ import annotations

import html
import math
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import pandas as pd

__all__ = ["Coefficient"]

_CORE = ("name", "value", "observed", "expected", "n_items", "n_raters", "n_categories")


def _rebuild(cls: type[Coefficient], value: float, state: dict[str, Any]) -> Coefficient:
    return cls(value, **state)


class Coefficient(float):
    """An agreement coefficient: a float carrying its components.

    Members
    -------
    value : float
        The coefficient at full precision (the same as ``float(r)``).
    name : str
        What was computed, e.g. ``"fleiss"``.
    observed, expected : float
        ``A_o`` and ``A_e``, the coefficient being ``(A_o - A_e) / (1 - A_e)``.
    n_items : int
        Items that count (two or more ratings).
    n_raters : int
        Raters with at least one rating (for a counts table: the most ratings any item has).
    n_categories : int
        Declared categories.
    categories : tuple
        The categories, in order.

    Examples
    --------
    >>> r = Coefficient(0.5, name="demo", observed=0.75, expected=0.5, n_items=4,
    ...                 n_raters=2, n_categories=2, categories=("a", "b"))
    >>> r < 0.6, f"{r:.2f}", r.observed
    (True, '0.50', 0.75)
    """

    # ``float`` subclasses cannot declare non-empty ``__slots__``; attributes live in the
    # instance ``__dict__`` and are frozen by ``__setattr__``.

    def __new__(
        cls,
        value: float,
        *,
        name: str,
        observed: float,
        expected: float,
        n_items: int,
        n_raters: int,
        n_categories: int,
        categories: Sequence[Hashable],
        **extra: Any,
    ) -> Coefficient:
        self = super().__new__(cls, value)
        state = {
            "name": name,
            "observed": float(observed),
            "expected": float(expected),
            "n_items": int(n_items),
            "n_raters": int(n_raters),
            "n_categories": int(n_categories),
            "categories": tuple(categories),
            **extra,
        }
        self.__dict__.update(state)
        return self

    # Members are fixed at construction.
    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot set {key!r}.")

    def __delattr__(self, key: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot delete {key!r}.")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), float(self), dict(self.__dict__)))

    # Attributes the type checker should know about (set in ``__new__``).
    name: str
    observed: float
    expected: float
    n_items: int
    n_raters: int
    n_categories: int
    categories: tuple[Hashable, ...]

    @property
    def value(self) -> float:
        """The coefficient as a plain float, full precision."""
        return float(self)

    def _scalar_members(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "value": float(self)}
        for key in _CORE[2:]:
            out[key] = getattr(self, key)
        for key, val in self.__dict__.items():
            if key.startswith("_") or key in out or key == "categories":
                continue
            if isinstance(val, (int, float, str, bool)) or val is None:
                out[key] = val
        return out

    def to_frame(self) -> pd.DataFrame:
        """One labelled row, indexed by the coefficient's name, to concatenate with others.

        >>> Coefficient(0.5, name="demo", observed=0.75, expected=0.5, n_items=4, n_raters=2,
        ...             n_categories=2, categories=("a", "b")).to_frame()
              value  observed  expected  n_items  n_raters  n_categories
        demo    0.5      0.75       0.5        4         2             2
        """
        row = self._scalar_members()
        name = row.pop("name")
        return pd.DataFrame([row], index=pd.Index([name], name="coefficient"))

    def __str__(self) -> str:
        return float.__repr__(self)

    def __format__(self, spec: str) -> str:
        return float.__format__(float(self), spec)

    def __repr__(self) -> str:
        def fmt(x: float) -> str:
            return "nan" if math.isnan(x) else f"{x:.4f}"

        return (
            f"<{self.name} {fmt(float(self))}: A_o={fmt(self.observed)}, "
            f"A_e={fmt(self.expected)}, n_items={self.n_items}, n_raters={self.n_raters}>"
        )

    def _repr_html_(self) -> str:
        return f"<code>{html.escape(repr(self))}</code>"


def result_frame(
    groups: pd.Index,
    columns: Mapping[str, Any],
    name: str,
) -> pd.DataFrame:
    """The ``by=`` form of a result: one row per group, one column per member."""
    frame = pd.DataFrame({"name": name, **columns}, index=groups)
    frame.attrs["coefficient"] = name
    return frame
