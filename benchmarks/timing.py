"""Round-robin timing with value cross-checks.

A *case* is a set of entries that compute the same thing (or the thing and its baseline) on
the same data. :func:`measure` first calls every entry once, untimed for the report, and
checks its value against the reference (pdagree's value, or the floor's) with ``np.isclose``
at 1e-9 relative: a contender that disagrees stops the run with :class:`Mismatch` before any
time is reported. Then it runs ``repeats`` rounds; each round calls every entry once, in turn
(the starting entry rotates from round to round so that no entry always runs first or right
after the same neighbour), and records the wall-clock time of each call (``perf_counter``).
The garbage collector runs before each call, outside the timed region.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["RTOL", "Entry", "Mismatch", "Row", "agree", "measure"]

RTOL = 1e-9
"""Relative tolerance of the value cross-checks."""


class Mismatch(AssertionError):
    """A contender's value disagrees with the reference: its times would be meaningless."""


@dataclass(frozen=True)
class Entry:
    """One timed call: ``call()`` returns the value to check (a float or an array).

    ``check`` overrides the default comparison with the reference: it gets the value and
    raises :class:`Mismatch` itself.
    """

    name: str
    call: Callable[[], Any]
    check: Callable[[Any], None] | None = None


@dataclass
class Row:
    """One line of a results table: a contender's times in one case, or why it was skipped."""

    scenario: str
    case: str
    contender: str
    what: str
    times: list[float] = field(default_factory=list)
    value: float | None = None
    baseline: str | None = None
    ratio: float | None = None
    ratio_floor: float | None = None
    note: str = ""
    n_annotations: int | None = None
    missing: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def median(self) -> float | None:
        return statistics.median(self.times) if self.times else None

    @property
    def min(self) -> float | None:
        return min(self.times) if self.times else None


def agree(value: Any, reference: Any) -> bool:
    """Whether ``value`` equals ``reference`` to 1e-9 relative (NaN equals NaN)."""
    a = np.asarray(value, dtype=np.float64)
    b = np.asarray(reference, dtype=np.float64)
    return a.shape == b.shape and bool(np.allclose(a, b, rtol=RTOL, atol=0.0, equal_nan=True))


def _describe(value: Any) -> str:
    a = np.asarray(value, dtype=np.float64)
    return repr(float(a)) if a.ndim == 0 else f"array of {a.size} values"


def _timed(call: Callable[[], Any]) -> tuple[float, Any]:
    gc.collect()
    start = time.perf_counter()
    value = call()
    return time.perf_counter() - start, value


def measure(
    case: str,
    entries: Sequence[Entry],
    repeats: int,
    reference: Any = None,
) -> tuple[dict[str, list[float]], dict[str, Any], dict[str, float]]:
    """Cross-check, then time ``entries`` round-robin ``repeats`` times.

    ``reference`` is the value every entry must give (default: the first entry's value).
    Returns the times per entry, the checked values and each entry's first (check) call time.
    """
    values: dict[str, Any] = {}
    first: dict[str, float] = {}
    for entry in entries:
        first[entry.name], values[entry.name] = _timed(entry.call)
    if reference is None:
        reference = values[entries[0].name]
    for entry in entries:
        value = values[entry.name]
        if entry.check is not None:
            entry.check(value)
        elif not agree(value, reference):
            a = np.asarray(value, dtype=np.float64)
            b = np.asarray(reference, dtype=np.float64)
            gap = float(np.nanmax(np.abs(a - b) / np.abs(b))) if a.shape == b.shape else np.nan
            raise Mismatch(
                f"{case}: {entry.name} gives {_describe(value)}, the reference "
                f"{_describe(reference)} (relative difference {gap:.3g} > {RTOL:g}); "
                "no time is reported for a contender that computes something else."
            )
    times: dict[str, list[float]] = {entry.name: [] for entry in entries}
    for round_ in range(repeats):
        shift = round_ % len(entries)
        for entry in [*entries[shift:], *entries[:shift]]:
            elapsed, _ = _timed(entry.call)
            times[entry.name].append(elapsed)
    return times, values, first
