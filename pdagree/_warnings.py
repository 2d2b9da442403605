"""Warning categories and a helper that points warnings at the caller's line."""

from __future__ import annotations

import contextvars
import inspect
import os
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = [
    "ConvergenceWarning",
    "LayoutWarning",
    "PdagreeWarning",
    "UndefinedStatisticWarning",
    "listed",
    "recorded",
    "warn",
]

_T = TypeVar("_T")

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


class PdagreeWarning(UserWarning):
    """Base class of every warning pdagree emits."""


class UndefinedStatisticWarning(PdagreeWarning, RuntimeWarning):
    """A statistic is undefined on the data given (for example A_e = 1); its value is nan."""


class LayoutWarning(PdagreeWarning):
    """The frame looks like it is in another layout than the one it is read as.

    A rater column of a wide frame that holds an id (a different label in nearly every row), or
    nearly as many categories as ratings (the item or rater column of a long frame read as
    wide), gives a number that means nothing. The thresholds are in
    :func:`pdagree.encoding._layout_checks.check_rater_columns`.
    """


class ConvergenceWarning(PdagreeWarning):
    """A model's fit (the graded response model, a consensus model's EM) did not converge;
    its estimates are not to be trusted as they stand."""


def _stack_level() -> int:
    """The stacklevel that points at the first frame outside the pdagree package."""
    frame = inspect.currentframe()
    level = 0
    try:
        while frame is not None:
            filename = os.path.abspath(frame.f_code.co_filename)
            if not filename.startswith(_PACKAGE_DIR + os.sep):
                break
            frame = frame.f_back
            level += 1
    finally:
        del frame
    return max(level, 1)


@dataclass(frozen=True, eq=False)
class _Record:
    """Where the warnings of a call are kept (:func:`recorded`, :func:`listed`): their
    messages, whether they are also raised, and the enclosing record."""

    messages: list[str]
    silent: bool
    outer: _Record | None


_RECORD: contextvars.ContextVar[_Record | None] = contextvars.ContextVar(
    "pdagree_warning_record", default=None
)
"""The record of the call under way in this context (thread, task): a context variable,
not the process's warning filters, so that calls in other threads are not affected."""


def warn(message: str, category: type[Warning] = UndefinedStatisticWarning) -> None:
    """Emit ``message`` so that it points at the user's line, not at pdagree's internals;
    inside :func:`recorded` it is kept too, and inside :func:`listed` kept there and not
    raised: it goes no further out than the innermost :func:`listed` call, as a warning
    caught there would."""
    record = _RECORD.get()
    while record is not None:
        record.messages.append(message)
        if record.silent:
            return
        record = record.outer
    warnings.warn(message, category, stacklevel=_stack_level())


def _kept(
    function: Callable[..., _T], args: tuple[Any, ...], silent: bool
) -> tuple[_T, tuple[str, ...]]:
    record = _Record([], silent, _RECORD.get())
    token = _RECORD.set(record)
    try:
        result = function(*args)
    finally:
        _RECORD.reset(token)
    return result, tuple(record.messages)


def recorded(function: Callable[..., _T], *args: Any) -> tuple[_T, tuple[str, ...]]:
    """``function(*args)`` and the messages of the pdagree warnings it raised, each raised
    as usual (its category, pointing at the user's line), so that the caller keeps a copy.
    Kept in this context only: the process's warning filters and ``showwarning`` are not
    touched, so reads in other threads keep their own warnings."""
    return _kept(function, args, silent=False)


def listed(function: Callable[..., _T], *args: Any) -> tuple[_T, tuple[str, ...]]:
    """As :func:`recorded`, the warnings kept and not raised (the page lists them)."""
    return _kept(function, args, silent=True)
