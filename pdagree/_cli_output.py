"""How every ``pdagree`` subcommand writes its table: ``--format`` and ``--output``.

``table`` (aligned, rounded to 4 decimals, under a header line that describes the data), ``csv``
and ``tsv`` (full precision), ``json`` (records, missing values as ``null``, for pipelines) and
``markdown`` (a pipe table, rounded to 4 decimals, for reports and issues); to standard output
or to ``-o FILE``.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any, TextIO

import pandas as pd

__all__ = ["FORMATS", "MAX_MESSAGE", "add_output", "header", "short", "write_frame"]

FORMATS = ("table", "csv", "tsv", "json", "markdown")


def add_output(parser: argparse.ArgumentParser, default: str = "table") -> None:
    """``--format`` and ``-o/--output`` on ``parser``."""
    output = parser.add_argument_group("output")
    output.add_argument(
        "--format",
        choices=FORMATS,
        default=default,
        help=f"table (aligned, 4 decimals), csv, tsv, json (records) or markdown (default: "
        f"{default})",
    )
    output.add_argument(
        "-o", "--output", metavar="FILE", help="write to FILE instead of standard output"
    )


def _json_value(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    if hasattr(value, "item"):  # numpy scalars
        return _json_value(value.item())
    return value


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return "" if math.isnan(value) else f"{value:.4g}" if abs(value) >= 1e4 else f"{value:.4f}"
    return str(value).replace("|", "\\|").replace("\n", " ")


def _markdown(frame: pd.DataFrame) -> str:
    flat = frame.reset_index()
    header = [str(c) for c in flat.columns]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in flat.itertuples(index=False):  # one line per row of the result table
        lines.append("| " + " | ".join(_cell(v) for v in row) + " |")
    return "\n".join(lines) + "\n"


def _sections(frame: pd.DataFrame, fmt: str) -> str:
    """The sections a table carries beside its rows (the report's annotator bias), in the
    human formats (table, markdown); the machine formats hold the table alone."""
    bias = frame.attrs.get("annotator_bias")
    if bias is None or fmt not in ("table", "markdown"):
        return ""
    title = "annotator bias (Artstein & Poesio 2005): B = expected_pi - expected_kappa"
    if fmt == "markdown":
        return f"\n**{title}**\n\n" + _markdown(bias)
    return f"\n{title}\n" + bias.round(4).to_string() + "\n"


def _text(frame: pd.DataFrame, header: str, fmt: str) -> str:
    if fmt == "csv":
        return frame.to_csv()
    if fmt == "tsv":
        return frame.to_csv(sep="\t")
    if fmt == "json":
        records = [
            {str(key): _json_value(val) for key, val in row.items()}
            for row in frame.reset_index().to_dict(orient="records")
        ]
        return json.dumps(records, indent=2, allow_nan=False, default=str) + "\n"
    if fmt == "markdown":
        return _markdown(frame)
    return header + "\n" + frame.round(4).to_string() + "\n"


def write_frame(frame: pd.DataFrame, header: str, args: argparse.Namespace, out: TextIO) -> None:
    """``frame`` in ``args.format``, to ``args.output`` or ``out``."""
    text = _text(frame, header, args.format) + _sections(frame, args.format)
    target = getattr(args, "output", None)
    if target is None:
        out.write(text)
        return
    with open(target, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)


def header(name: str, ratings: Any) -> str:
    """The line above a table: the source, its layout and what it holds."""
    layout: str = ratings.layout
    if ratings.groups is not None:
        layout += f", by {', '.join(map(str, ratings.groups.names))}"
    parts = [f"{ratings.n_items} items"]
    if ratings.raters is not None:
        parts.append(f"{ratings.n_raters} raters")
    cats = ratings.categories
    shown = ", ".join(short(c) for c in cats[:6]) + (", ..." if len(cats) > 6 else "")
    parts.append(f"{ratings.n_categories} categories ({shown})")
    if ratings.raters is None:
        most = int(ratings.counts().sum(axis=1).max())
        parts.append(f"up to {most} ratings per item")
    if ratings.groups is not None:
        parts.append(f"{len(ratings.groups)} groups")
    return f"{name} ({layout}): {', '.join(parts)}"


#: Longest label, and longest message, echoed whole; longer ones are cut with "...".
MAX_LABEL = 40
MAX_MESSAGE = 1000


def short(value: object, limit: int = MAX_LABEL) -> str:
    """``str(value)`` on one line, at most ``limit`` characters."""
    text = " ".join(str(value).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
