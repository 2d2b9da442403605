"""How every ``pdagree`` subcommand writes its table: ``--format`` and ``--output``.

``table`` (aligned, rounded to 4 decimals, under a header line that describes the data), ``csv``
and ``tsv`` (full precision), ``json`` (records, missing and infinite values as ``null``, for
pipelines) and ``markdown`` (a pipe table, rounded to 4 decimals, for reports and issues); to
standard output or to ``-o FILE``. Without ``--format``, the file's extension names the format
(``-o labels.csv`` writes CSV), and a file the command line reads but cannot write (Parquet,
Excel) is refused before any work, rather than a text table written under that name.

CSV and TSV files are opened in spreadsheets, which run a cell that starts with ``=``, ``+``,
``-`` or ``@`` (or a tab or carriage return) as a formula: a crowd label such as
``=HYPERLINK(...)`` would run on the reader's machine. Such text cells (values, index values
and column names) are written with a leading ``'``, as OWASP's "CSV Injection" page
recommends; numbers, and text that is a plain number such as ``-1``, are written as they are.
"""

from __future__ import annotations

import argparse
import json
import math
import re
from pathlib import Path
from typing import Any, TextIO

import pandas as pd

__all__ = [
    "FORMATS", "MAX_MESSAGE", "add_output", "check_output", "header", "neutralised", "short",
    "write_frame", "write_text",
]  # fmt: skip

FORMATS = ("table", "csv", "tsv", "json", "markdown")


#: The format ``-o FILE``'s extension names, where ``--format`` is not given.
SUFFIXES = {
    ".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".json": "json", ".md": "markdown",
    ".markdown": "markdown", ".html": "html", ".htm": "html",
}  # fmt: skip
#: Files the command line reads but does not write (binary formats).
_READ_ONLY = (".parquet", ".pq", ".xlsx", ".xls", ".feather", ".arrow")


def add_output(
    parser: argparse.ArgumentParser, default: str = "table", *, page: bool = False
) -> None:
    """``--format`` and ``-o/--output`` on ``parser`` (with ``page``, ``--format html`` too).
    Without ``--format``, ``-o FILE``'s extension names the format (:func:`check_output`)."""
    output = parser.add_argument_group("output")
    choices = FORMATS + (("html",) if page else ())
    html = ", html (one self-contained report page)" if page else ""
    output.add_argument(
        "--format",
        choices=choices,
        default=None,
        help=f"table (aligned, 4 decimals), csv, tsv, json (records), markdown{html} "
        f"(default: by -o's extension, .csv .tsv .json .md{' .html' if page else ''}; "
        f"else {default})",
    )
    output.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write to FILE instead of standard output ('-': standard output)",
    )
    parser.set_defaults(format_default=default, format_choices=choices)


def _format(args: argparse.Namespace) -> None:
    """``args.format`` from ``-o FILE``'s extension where ``--format`` was not given (else
    the command's default); a file the command line cannot write (Parquet, Excel) refused."""
    if not hasattr(args, "format_default") or args.format is not None:
        return
    target = getattr(args, "output", None)
    fmt = args.format_default
    if target is not None:
        suffix = Path(target).suffix.lower()
        named = ", ".join(args.format_choices)
        if suffix in _READ_ONLY:
            raise ValueError(
                f"cannot write {str(target)!r}: the command line writes text ({named}), not "
                f"{suffix[1:]}; give `-o` a .csv, .tsv or .json name, or pass `--format`."
            )
        fmt = SUFFIXES.get(suffix, fmt)
        if fmt not in args.format_choices:
            raise ValueError(
                f"`-o {target}` names {fmt} by its extension, which `pdagree {args.command}` "
                f"does not write ({named}); pass `--format`."
            )
    args.format = fmt


def _json_value(value: Any) -> Any:
    """A cell as JSON: nan and infinities (an F ratio of a perfect fit) as null, as
    JavaScript's JSON.stringify writes them; numpy scalars as Python values."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if hasattr(value, "item"):  # numpy scalars
        return _json_value(value.item())
    return value


def _escape(text: str) -> str:
    """Text in a Markdown table cell: ``|`` escaped, on one line."""
    return text.replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return "" if math.isnan(value) else f"{value:.4g}" if abs(value) >= 1e4 else f"{value:.4f}"
    return _escape(str(value))


def _markdown(frame: pd.DataFrame) -> str:
    flat = frame.reset_index()
    header = [_escape(str(c)) for c in flat.columns]
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


#: What a spreadsheet reads as the start of a formula, and a plain number (which it reads as
#: that number: ``-1`` is not a formula).
_FORMULA = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def _safe(value: Any) -> Any:
    """A text cell that a spreadsheet would run as a formula, with a leading ``'``."""
    if isinstance(value, str) and value.startswith(_FORMULA) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def _safe_index(index: pd.Index) -> pd.Index:
    if isinstance(index, pd.MultiIndex):
        levels = [_safe_index(index.get_level_values(k)) for k in range(index.nlevels)]
        return pd.MultiIndex.from_arrays(levels, names=[_safe(n) for n in index.names])
    name = _safe(index.name)
    if not _is_text(index.dtype):
        return index.rename(name)
    return pd.Index([_safe(v) for v in index], dtype=object, name=name, tupleize_cols=False)


def _is_text(dtype: Any) -> bool:
    return isinstance(dtype, pd.CategoricalDtype) or pd.api.types.is_string_dtype(dtype)


def neutralised(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with every text cell, index value and name that a spreadsheet would run as
    a formula prefixed with ``'`` (a new frame; numbers are left alone)."""
    columns = {
        k: frame.iloc[:, k].astype(object).map(_safe) if _is_text(frame.dtypes.iloc[k])
        else frame.iloc[:, k]
        for k in range(frame.shape[1])
    }  # fmt: skip
    safe = pd.DataFrame(columns, index=frame.index)
    safe.index = _safe_index(frame.index)
    safe.columns = _safe_index(frame.columns)
    return safe


def _text(frame: pd.DataFrame, header: str, fmt: str) -> str:
    if fmt == "csv":
        return neutralised(frame).to_csv()
    if fmt == "tsv":
        return neutralised(frame).to_csv(sep="\t")
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
    write_text(_text(frame, header, args.format) + _sections(frame, args.format), args, out)


def write_text(text: str, args: argparse.Namespace, out: TextIO) -> None:
    """``text`` to ``args.output`` or ``out``."""
    target = getattr(args, "output", None)
    if target is None:
        out.write(text)
        return
    try:
        with open(target, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
    except OSError as exc:
        raise ValueError(f"cannot write {str(target)!r}: {exc.strerror or exc}.") from None


def check_output(args: argparse.Namespace) -> None:
    """Settle the output (``-o -`` is standard output, as ``-`` reads standard input) and
    the format (:func:`_format`), and refuse ``-o FILE`` in a folder that does not exist,
    before any work is done."""
    if getattr(args, "output", None) == "-":
        args.output = None
    _format(args)
    target = getattr(args, "output", None)
    if target is None:
        return
    folder = Path(target).parent
    if not folder.is_dir():
        why = "is not a folder" if folder.exists() else "does not exist"
        raise ValueError(
            f"cannot write {str(target)!r}: the folder {str(folder)!r} {why}; create it or "
            "give another `-o`."
        )


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
