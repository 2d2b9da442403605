"""The checks of the parameters every public method shares, with one message format.

Each check takes the value and the parameter's name and returns the value in its plain Python
form, or raises with ``"`<param>` must be <what>; got <value>."`` (the value plain: ``0``, not
``np.int64(0)``), followed where useful by the remedy:

- :func:`check_fraction`: a real number in an open interval, e.g. ``confidence_level`` in
  (0, 1); any numpy real scalar is accepted, a bool never;
- :func:`check_integer`: a whole number in a closed interval (``n_resamples``);
- :func:`check_seed`: ``rng``, a seed of :func:`numpy.random.default_rng` (None, an integer at
  least 0, a :class:`numpy.random.SeedSequence`) or a :class:`numpy.random.Generator`;
- :func:`check_option`: one of a fixed set of strings (``ties``, ``method``, ...).

The module imports numpy only, so that every layer may use it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NoReturn

import numpy as np

__all__ = [
    "InvalidParameterError",
    "check_fraction",
    "check_integer",
    "check_option",
    "check_seed",
    "plain",
]


class InvalidParameterError(ValueError, TypeError):
    """A public parameter of the wrong type or outside its range: both a ValueError and a
    TypeError, so that either ``except`` catches it."""


def plain(value: Any) -> Any:
    """``value`` as the user would write it: numpy scalars become Python numbers."""
    if isinstance(value, (np.number, np.bool_)):  # not datetimes: .item() gives an int
        return value.item()
    return value


def _is_real(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
        value, (bool, np.bool_)
    )


def _is_integer(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _refuse(name: str, what: str, value: Any, remedy: str = "") -> NoReturn:
    message = f"`{name}` must be {what}; got {plain(value)!r}."
    raise InvalidParameterError(f"{message} {remedy}" if remedy else message)


def check_fraction(
    value: Any,
    name: str = "confidence_level",
    *,
    low: float = 0.0,
    high: float = 1.0,
    example: str = "0.95",
) -> float:
    """``value`` as a float strictly between ``low`` and ``high``: a Python or numpy real
    number, not a bool."""
    what = f"a number strictly between {low:g} and {high:g}, e.g. {example}"
    if not _is_real(value):
        _refuse(name, what, value)
    number = float(value)
    if not low < number < high:
        _refuse(name, what, value)
    return number


def check_integer(
    value: Any, name: str, *, low: int = 1, high: int | None = None, remedy: str = ""
) -> int:
    """``value`` as an int in ``[low, high]``: a Python or numpy integer, not a bool;
    ``remedy`` follows the message of a value above ``high``."""
    bounds = f"at least {low:,}" if high is None else f"from {low:,} to {high:,}"
    what = f"an integer {bounds}"
    if not _is_integer(value):
        _refuse(name, what, value)
    if value < low:
        _refuse(name, what, value)
    if high is not None and value > high:
        _refuse(name, what, value, remedy)
    return int(value)


SEED = "None, an integer at least 0, a numpy.random.SeedSequence or a numpy.random.Generator"


def check_seed(value: Any, name: str = "rng") -> Any:
    """``value`` if :func:`numpy.random.default_rng` takes it as a seed or generator (None,
    an integer at least 0, a SeedSequence, a Generator); numpy integers become ints."""
    if value is None or isinstance(value, (np.random.Generator, np.random.SeedSequence)):
        return value
    if not _is_integer(value):
        _refuse(name, SEED, value)
    if value < 0:
        _refuse(name, SEED, value)
    return int(value)


def check_option(value: Any, name: str, options: Sequence[str], remedy: str = "") -> str:
    """``value`` if it is one of the strings ``options``."""
    if not (isinstance(value, str) and value in options):
        _refuse(name, "one of " + ", ".join(map(repr, options)), value, remedy)
    return str(value)
