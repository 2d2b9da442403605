"""Warning categories and a helper that points warnings at the caller's line."""

from __future__ import annotations

import inspect
import os
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = [
    "ConvergenceWarning",
    "LayoutWarning",
    "PdagreeWarning",
    "UndefinedStatisticWarning",
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


def warn(message: str, category: type[Warning] = UndefinedStatisticWarning) -> None:
    """Emit ``message`` so that it points at the user's line, not at pdagree's internals."""
    warnings.warn(message, category, stacklevel=_stack_level())


def recorded(function: Callable[..., _T], *args: Any) -> tuple[_T, tuple[str, ...]]:
    """``function(*args)`` and the messages of the warnings it raised, each raised again as
    it was (its category, pointing at the user's line), so that the caller keeps a copy."""
    raised: list[warnings.WarningMessage] = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = function(*args)
            finally:
                raised = list(caught)
    finally:
        for w in raised:  # once each, after the function (a handful at most)
            warnings.warn(w.message, stacklevel=_stack_level())
    return result, tuple(str(w.message) for w in raised)
