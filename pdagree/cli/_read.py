"""How the ``pdagree`` command reads a file of ratings: its reading options handed to
:func:`pdagree.io.read_table` (which does the checking), and the library's messages, which
name Python arguments, shown with the command's flags instead (:func:`flags`).
"""

from __future__ import annotations

import argparse
import re
import sys

import pandas as pd

from ..io import FORMATS, TOOLS, format_of, read_table

__all__ = ["FORMATS", "STDIN", "TOOLS", "UsageError", "flags", "input_format", "read"]

STDIN = "-"


class UsageError(ValueError):
    """A bad combination of command-line options."""


def input_format(source: str, args: argparse.Namespace) -> str:
    """``--from``, else the format the file's extension says (CSV when it says nothing)."""
    chosen: str | None = getattr(args, "input_format", None)
    if chosen is not None:
        return chosen
    return "csv" if source == STDIN else format_of(source)


def read(source: str, args: argparse.Namespace) -> tuple[pd.DataFrame, bool]:
    """The file (``-``: standard input, as text) as a frame, and whether the file itself
    stored an item index (a Parquet file's index)."""
    kind = input_format(source, args)
    if source == STDIN:
        if kind not in ("csv", "tsv"):
            raise UsageError(f"standard input is read as CSV or TSV text, not as {kind}.")
        if sys.stdin is None:
            raise ValueError("cannot read standard input: it is closed.")
    frame = read_table(
        sys.stdin if source == STDIN else source,
        format=kind,
        sep=args.sep,
        na_values=args.na,
        keep_default_na=not args.no_default_na,
        from_name=getattr(args, "from_name", None),
        view=getattr(args, "view", None),
    )
    if kind != "parquet":
        return frame, False
    index = frame.index
    default = isinstance(index, pd.RangeIndex) and index.name is None and index.start == 0
    return frame, not default


#: The library's spelling of an argument (as its messages write it) and the command's flag.
_FLAGS: tuple[tuple[str, str], ...] = (
    (r"`sep` ", "`--sep` "),
    (r"`sep`", "`--sep`"),
    (r"\bsep=('[^']*')", r"--sep \1"),
    (r"`na_values`", "`--na`"),
    (r"`keep_default_na`", "`--no-default-na`"),
    (r"\bformat='([a-z-]+)'", r"--from \1"),
    (r"`format`", "`--from`"),
    (r"`categories=\[\.\.\.\]`", "`--categories A,B,...`"),
    (r"\(df\.set_index\(([^)]*)\) or read_csv\(\.\.\., index_col=[^)]*\)\)", r"(--index-col \1)"),
    (r"`item=`, `rater=`, `label=`", "--item, --rater, --label"),
    (r"`(item|rater|label|raters|categories|by|layout)=?`", r"`--\1`"),
    (r"\blayout='(wide|long|counts|contingency)'", r"--layout \1"),
    (r"`confidence_level`", "`--confidence-level`"),
    (r"`n_resamples`", "`--resamples`"),
    (r"`rng`", "`--seed`"),
)


def flags(message: str) -> str:
    """A library message as the command line shows it: each Python argument it names as the
    flag that sets it (``sep=';'`` -> ``--sep ';'``, ``format='prodigy'`` -> ``--from
    prodigy``)."""
    for pattern, flag in _FLAGS:
        message = re.sub(pattern, flag, message)
    return message
