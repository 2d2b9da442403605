"""Reading the JSON that labelling tools write, with the checks both readers share: a UTF-8
byte-order mark is read (as ``read_csv`` reads it), bytes that are not UTF-8 and nesting
deeper than Python's ``json`` module follows are one clear error naming the file (and the
line), and each field kept in the frame is a plain value (text, a number, a boolean or null),
never a list or an object.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Hashable, Iterable, Iterator
from pathlib import Path
from typing import Any

__all__ = ["is_path", "json_lines", "load_json", "optional", "plain", "scalar", "shown"]

_PLAIN = frozenset({str, int, float, bool, type(None)})
#: The longest value echoed whole in a message; longer ones are cut with "...".
_SHOWN = 60
_DEEP = (
    "is nested more deeply than Python's json module follows (about a thousand levels; an "
    "export is fewer than ten deep)"
)


def is_path(source: Any) -> bool:
    """Whether ``source`` names a file (else it holds the records themselves)."""
    return isinstance(source, (str, os.PathLike))


def shown(value: Any) -> str:
    """A value for a message, at most a line long: ``'pos'``, ``3``, ``null``, ``a list``,
    ``an object`` (never the repr of a structure, which may be huge or deep)."""
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    if value is None:
        return "null"
    if isinstance(value, int) and value.bit_length() > 64:
        return f"an integer of {value.bit_length()} bits"
    text = repr(plain(value))
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def plain(value: Any) -> Any:
    """A numpy scalar as the Python value it holds (``0``, not ``np.int64(0)``)."""
    item = getattr(value, "item", None)
    return item() if callable(item) and not isinstance(value, (list, dict, str)) else value


def _decode(data: bytes, name: str, line: int | None) -> str:
    where = f"line {line} of {name}" if line is not None else name
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"cannot read {where}: it is not UTF-8 text ({exc.reason} at byte {exc.start}); "
            "save the export as UTF-8."
        ) from None


def _parse(text: str, where: str, hint: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:  # JSONDecodeError, or an integer of more than 4300 digits
        raise ValueError(f"{where} is not JSON ({exc}); {hint}") from None
    except RecursionError:
        raise ValueError(f"{where} {_DEEP}; {hint}") from None


def load_json(path: str | os.PathLike[str], hint: str) -> Any:
    """The JSON document in the file ``path``; ``hint`` says what the file should hold."""
    name = repr(str(path))
    data = Path(path).read_bytes()
    text = _decode(data, name, None).removeprefix("\ufeff")
    return _parse(text, name, hint)


def json_lines(source: Any, hint: str) -> Iterator[tuple[int, Any]]:
    """``(line number, record)`` for each non-blank line of a JSON-lines file, or for each
    record of an iterable (numbered from 1)."""
    if not is_path(source):
        records: Iterable[Any] = source
        yield from enumerate(records, start=1)
        return
    name = repr(str(source))
    with Path(source).open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            text = _decode(raw, name, number)
            if number == 1:
                text = text.removeprefix("\ufeff")
            if text.strip():
                yield number, _parse(text, f"line {number} of {name}", hint)


def scalar(value: Any, malformed: str, where: str, field: str, *, label: bool = False) -> Hashable:
    """``value`` when it is text or a finite number (an id), or also a boolean (``label``);
    else a ValueError: ``"<malformed>: <where>'s <field> is ..., not text or a number."``"""
    exact = type(value)
    if exact is str or exact is int or (exact is float and math.isfinite(value)):
        return value  # what json gives, checked without the general path below
    value = plain(value)
    if isinstance(value, bool):
        if label:
            return value
    elif isinstance(value, (str, int)) or (isinstance(value, float) and math.isfinite(value)):
        return value
    wanted = "text, a finite number or a boolean" if label else "text or a finite number"
    raise ValueError(f"{malformed}: {where}'s {field} is {shown(value)}, not {wanted}.")


def optional(value: Any, malformed: str, where: str, field: str) -> Hashable:
    """A field kept as given (a timestamp, an id): a plain value or null; a list or an
    object is a ValueError naming ``where`` and ``field``."""
    if type(value) in _PLAIN:
        return value
    value = plain(value)
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise ValueError(
        f"{malformed}: {where}'s {field} is {shown(value)}, not a plain value (text or a number)."
    )
