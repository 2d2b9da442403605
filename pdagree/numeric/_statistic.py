"""The float the numeric measures return: the value, what it was computed on, an interval.

A :class:`Statistic` is a ``float`` (usable wherever a number is expected, as every pdagree
coefficient is) whose members are fixed at construction: setting one raises
``AttributeError``, and a pickle holds the members, never the ratings.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import pandas as pd

__all__ = ["Statistic"]


class Statistic(float):
    """A measure's value as a ``float``, with the members listed in :attr:`_members`."""

    _members: ClassVar[tuple[str, ...]] = ("name", "n_items", "n_raters")
    name: str
    n_items: int
    n_raters: int

    def __new__(cls, value: float, **members: Any) -> Statistic:
        self = super().__new__(cls, value)
        missing = set(cls._members) - set(members)
        if missing:
            raise TypeError(f"{cls.__name__} needs {sorted(missing)}")
        for key, member in members.items():
            object.__setattr__(self, key, member)
        return self

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; {key!r} cannot be set")

    def __delattr__(self, key: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; {key!r} cannot be deleted")

    def __reduce__(self) -> tuple[Any, ...]:
        members = {key: getattr(self, key) for key in self._members}
        return (_rebuild, (type(self), float(self), members))

    @property
    def value(self) -> float:
        """The value as a plain ``float``."""
        return float(self)

    def to_frame(self) -> pd.DataFrame:
        """One labelled row: the value and the members, indexed by the name."""
        row: dict[str, Any] = {"value": float(self)}
        for key in self._members:
            member = getattr(self, key)
            if key != "name" and member is not None:  # an interval only where one was asked
                row[key] = member
        return pd.DataFrame([row], index=pd.Index([self.name], name="coefficient"))

    def __repr__(self) -> str:
        shown = "nan" if math.isnan(self) else f"{float(self):.4f}"
        return f"<{self.name} {shown}: n_items={self.n_items}, n_raters={self.n_raters}>"


def _rebuild(cls: type[Statistic], value: float, members: dict[str, Any]) -> Statistic:
    return cls(value, **members)
