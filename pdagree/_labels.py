"""Labels as text for display: the row labels of tables, charts and the report page."""

from __future__ import annotations

from collections.abc import Hashable

__all__ = ["label_of", "shared_start"]


def label_of(key: Hashable) -> str:
    """A row label: tuples (MultiIndex rows, several ``by=`` keys) joined with " / "."""
    if isinstance(key, tuple):
        return " / ".join(str(part) for part in key)
    return str(key)


def shared_start(strings: list[str]) -> str:
    """The longest start every string shares (the first and last in sorted order bound it)."""
    first, last = min(strings), max(strings)
    n = 0
    while n < min(len(first), len(last)) and first[n] == last[n]:  # over characters
        n += 1
    return first[:n]
