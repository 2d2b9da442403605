"""Results as tables: the ``by=`` form of a result (one row per group) and the two-column
HTML table that notebooks show for a :class:`~pdagree.Ratings` or a
:class:`~pdagree.Tally`."""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

import pandas as pd

__all__ = ["html_table", "result_frame"]


def html_table(title: str, rows: Mapping[str, Any]) -> str:
    """A two-column HTML table (name, value) under ``title``, every text escaped: how
    notebooks show a :class:`~pdagree.Ratings`."""
    body = "".join(
        f"<tr><th style='text-align:left'>{html.escape(str(k))}</th>"
        f"<td style='text-align:left'>{html.escape(str(v))}</td></tr>"
        for k, v in rows.items()
    )
    return f"<table><caption>{html.escape(title)}</caption>{body}</table>"


def result_frame(
    groups: pd.Index,
    columns: Mapping[str, Any],
    name: str,
) -> pd.DataFrame:
    """The ``by=`` form of a result: one row per group, one column per member."""
    frame = pd.DataFrame({"name": name, **columns}, index=groups)
    frame.attrs["coefficient"] = name
    return frame
