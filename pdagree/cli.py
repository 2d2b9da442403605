"""The ``pdagree`` command: an agreement report for a CSV, TSV or Parquet file.

``pdagree report PATH`` reads a file of ratings in any of pdagree's four layouts and prints
every coefficient that applies (:meth:`pdagree.Ratings.report`); ``pdagree report --example
NAME`` does the same for a bundled data set, and ``pdagree datasets`` lists those.

Examples
--------
>>> from pdagree.cli import main
>>> main(["report", "--example", "fleiss1971", "--format", "csv"])  # doctest: +ELLIPSIS
coefficient,value,observed,expected,n_items,n_raters,n_categories
observed,0.5555555555555...
0

Errors print ``pdagree: error: <message>`` on stderr and return 2; warnings (an undefined
coefficient, for example) print ``pdagree: warning: <message>``. ``PATH`` ``-`` reads standard
input. A reader that stops early (``pdagree report ... | head -1``) ends the output quietly,
with status 0, as Unix tools do.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import textwrap
import warnings
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO, cast

import pandas as pd

from . import datasets
from ._cli_read import STDIN as _STDIN
from ._cli_read import UsageError as _UsageError
from ._cli_read import read as _read
from ._encode import Layout
from ._version import __version__
from .definitions import REGISTRY
from .ratings import Ratings

__all__ = ["main"]

_PROG = "pdagree"
_FORMATS = ("table", "csv", "json")
_LAYOUTS = ("wide", "long", "counts", "contingency")
# Bundled data sets in the long layout, and their (item, rater, label) columns.
_LONG_EXAMPLES = {"crowd_sparse": ("item", "annotator", "label")}


# --------------------------------------------------------------------------- arguments


def _split(value: str) -> list[str]:
    """``"a,b,,c"`` -> ``["a", "b", "c"]`` (surrounding spaces kept: they may be labels)."""
    return [part for part in value.split(",") if part != ""]


class _Parser(argparse.ArgumentParser):
    """argparse, with a usage error on one line like every other failure:
    ``pdagree: error: <message> (see `pdagree report --help`)``, status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{_PROG}: error: {message} (see `{self.prog} --help`)\n")


def _seed(token: str) -> int:
    """``--seed``: a whole number from 0 to 2**32 - 1 (what NumPy's generators accept)."""
    try:
        value = int(token)
    except ValueError:
        value = -1
    if not 0 <= value < 2**32:
        raise argparse.ArgumentTypeError(
            f"must be a whole number from 0 to {2**32 - 1}; got {token!r}"
        )
    return value


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=_PROG,
        description="Inter-annotator agreement for files of annotations.",
        epilog="Run `pdagree report --help` for the options of a report.",
    )
    parser.add_argument("--version", action="version", version=f"{_PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    report = commands.add_parser(
        "report",
        help="every agreement coefficient that applies to a file or a bundled example",
        description=(
            "Print every agreement coefficient that applies to the ratings in PATH (CSV; TSV "
            "by extension .tsv/.tab or with --sep; Parquet by extension .parquet/.pq) or to "
            "a bundled example. Layouts: wide (default: one row per item, one column per "
            "rater; the first column is the item index), long (--item, --rater, --label: one "
            "row per annotation), counts (--layout counts: one row per item, one column per "
            "category holding how many raters chose it) or contingency (--layout contingency: "
            "two raters' K x K table, rows the first rater's categories, columns the second's, "
            "cells the numbers of items). In text files, empty cells and "
            "pandas.read_csv's missing-value markers (NA, N/A, NaN, null, NULL, None, #N/A, "
            "<NA>, ...) are missing, as in R exports; see --na and --no-default-na."
        ),
    )
    source = report.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "path",
        nargs="?",
        metavar="PATH",
        help="a CSV, TSV or Parquet file; - reads CSV (or --sep) from standard input",
    )
    source.add_argument(
        "--example", metavar="NAME", help="a bundled data set (see `pdagree datasets`)"
    )
    layout = report.add_argument_group("layout")
    layout.add_argument("--item", metavar="COL", help="long layout: the item column")
    layout.add_argument("--rater", metavar="COL", help="long layout: the rater column")
    layout.add_argument("--label", metavar="COL", help="long layout: the label column")
    layout.add_argument(
        "--layout",
        choices=_LAYOUTS,
        help="wide (default), long (implied by --item/--rater/--label), counts or contingency",
    )
    layout.add_argument(
        "--by",
        metavar="COL",
        action="append",
        help="one report per group of this column (repeat, or separate by commas, for several)",
    )
    layout.add_argument(
        "--raters", metavar="COL,COL...", help="wide layout: the rater columns to use"
    )
    layout.add_argument(
        "--categories",
        metavar="A,B,...",
        help="the categories in order, including unused ones (they change Bennett's S); "
        "numbers when every label in the data is a number",
    )
    reading = report.add_argument_group("reading files")
    reading.add_argument(
        "--index-col",
        metavar="COL",
        help="wide, counts and contingency layouts: the item column (contingency: the first "
        "rater's categories; default: the first column)",
    )
    reading.add_argument(
        "--no-index",
        action="store_true",
        help="wide, counts and contingency layouts: the file has no item column (items are "
        "the rows)",
    )
    reading.add_argument(
        "--sep",
        metavar="SEP",
        help=r"field separator of a text file (default: by extension; '\t' is a tab)",
    )
    reading.add_argument(
        "--na",
        metavar="VALUE",
        action="append",
        default=[],
        help="a text-file value that means 'not annotated', besides an empty cell and "
        "read_csv's markers (repeatable)",
    )
    reading.add_argument(
        "--no-default-na",
        action="store_true",
        help="keep read_csv's missing-value markers (NA, N/A, null, None, ...) as labels: only "
        "empty cells and --na values are missing",
    )
    chosen = report.add_argument_group("coefficients")
    chosen.add_argument(
        "--coefficients",
        metavar="NAMES",
        help="comma-separated coefficients to report, e.g. fleiss,alpha,spa (default: every "
        f"one that applies); any of {', '.join(REGISTRY)}",
    )
    chosen.add_argument(
        "--weights",
        metavar="SCHEME",
        help="agreement weights for the coefficients that take them: linear, quadratic, "
        "ordinal, radical, ratio, circular, bipolar (on the category values)",
    )
    chosen.add_argument(
        "--level",
        metavar="LEVEL",
        help="Krippendorff's metric for alpha: nominal (default), ordinal, interval, ratio",
    )
    uncertainty = report.add_argument_group("uncertainty")
    uncertainty.add_argument(
        "--confidence-level",
        metavar="LEVEL",
        type=float,
        help="add standard errors, confidence intervals and p-values at this level, e.g. 0.95",
    )
    uncertainty.add_argument(
        "--ci-method",
        choices=("analytic", "bootstrap"),
        default="analytic",
        help="analytic (Gwet's variance, as R irrCAC; the default) or bootstrap over items",
    )
    uncertainty.add_argument(
        "--resamples", metavar="N", type=int, default=2000, help="bootstrap resamples (2000)"
    )
    uncertainty.add_argument("--seed", metavar="N", type=_seed, help="bootstrap random seed")
    report.add_argument(
        "--format",
        choices=_FORMATS,
        default="table",
        help="table (default: aligned, rounded to 4 decimals), csv or json (full precision)",
    )

    listing = commands.add_parser(
        "datasets",
        help="list the bundled data sets",
        description="List the bundled data sets, or describe one of them.",
    )
    listing.add_argument("name", nargs="?", metavar="NAME", help="describe this data set in full")
    return parser


# --------------------------------------------------------------------------- reading


def _set_index(frame: pd.DataFrame, args: argparse.Namespace, stored_index: bool) -> pd.DataFrame:
    """Wide, counts and contingency layouts: make the item column (a contingency table's
    first rater's categories) the index."""
    if args.index_col is not None and args.no_index:
        raise _UsageError("give `--index-col` or `--no-index`, not both.")
    if args.no_index:
        return frame
    if args.index_col is not None:
        if args.index_col not in frame.columns:
            raise ValueError(
                f"`--index-col` names column {args.index_col!r}, which is not in the file; "
                f"available columns: {list(frame.columns)[:10]!r}."
            )
        return frame.set_index(args.index_col)
    if stored_index or frame.shape[1] == 0:
        return frame
    return frame.set_index(frame.columns[0])


# --------------------------------------------------------------------------- options


def _by(args: argparse.Namespace) -> list[str]:
    return [col for value in args.by or [] for col in _split(value)]


def _number(token: str) -> int | float:
    try:
        return int(token)
    except ValueError:
        return float(token)


def _is_number_column(series: pd.Series) -> bool:
    dtype = series.dtype
    return pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)


def _categories(
    value: str | None, frame: pd.DataFrame, label_columns: Sequence[Hashable], numbers: bool
) -> list[Any] | None:
    """``--categories``: strings, or numbers when every label column holds numbers (or, for a
    contingency table, ``numbers``: its row labels are numbers)."""
    if value is None:
        return None
    tokens = _split(value)
    if not tokens:
        raise _UsageError(f"`--categories` must list at least one category; got {value!r}.")
    present = [col for col in label_columns if col in frame.columns]
    number_labels = numbers or (
        bool(present) and all(_is_number_column(frame[col]) for col in present)
    )
    if not number_labels:
        return tokens
    try:
        return [_number(token) for token in tokens]
    except ValueError:
        bad = []
        for token in tokens:
            try:
                _number(token)
            except ValueError:
                bad.append(token)
        raise ValueError(
            f"`--categories` must be numbers, because every label in the data is a number; "
            f"got {bad!r}."
        ) from None


def _ratings(frame: pd.DataFrame, args: argparse.Namespace, stored_index: bool | None) -> Ratings:
    """Describe the frame's layout from the options and encode it.

    ``stored_index`` says whether a file stored its own item index; ``None`` for an example.
    """
    long_columns = {"item": args.item, "rater": args.rater, "label": args.label}
    given = {key: col for key, col in long_columns.items() if col is not None}
    if args.example in _LONG_EXAMPLES and not given and args.layout in (None, "long"):
        given = dict(zip(long_columns, _LONG_EXAMPLES[args.example], strict=True))
    layout = args.layout or ("long" if given else "wide")
    if layout == "long":
        if len(given) != 3:
            missing = [f"--{key}" for key in long_columns if key not in given]
            raise _UsageError(
                f"a long layout needs --item, --rater and --label; missing {', '.join(missing)}."
            )
        if args.raters is not None:
            raise _UsageError("`--raters` selects the columns of a wide layout, not a long one.")
        if args.index_col is not None or args.no_index:
            raise _UsageError(
                "`--index-col` and `--no-index` apply to wide, counts and contingency layouts; a "
                "long layout names its item column with --item."
            )
    elif given:
        names = ", ".join(f"--{key}" for key in given)
        raise _UsageError(
            f"{names} describe a long layout; they do not apply to --layout {layout}."
        )
    elif stored_index is not None:
        frame = _set_index(frame, args, stored_index)
    elif args.index_col is not None or args.no_index:
        raise _UsageError("`--index-col` and `--no-index` apply to files, not to --example.")

    by = _by(args)
    raters = _split(args.raters) if args.raters is not None else None
    if layout == "long":
        label_columns: list[Hashable] = [given["label"]]
    elif layout == "wide":
        label_columns = (
            list(raters) if raters is not None else [col for col in frame.columns if col not in by]
        )
    else:  # counts and contingency: the categories are column names (and row labels)
        label_columns = []
    numbers = layout == "contingency" and _is_number_column(frame.index.to_series())
    categories = _categories(args.categories, frame, label_columns, numbers)
    return Ratings.from_frame(
        frame,
        item=given.get("item"),
        rater=given.get("rater"),
        label=given.get("label"),
        raters=raters,
        categories=categories,
        by=by or None,
        layout=cast(Layout, layout),
    )


# --------------------------------------------------------------------------- output


def _header(name: str, ratings: Ratings) -> str:
    layout: str = ratings.layout
    if ratings.groups is not None:
        layout += f", by {', '.join(map(str, ratings.groups.names))}"
    parts = [f"{ratings.n_items} items"]
    if ratings.raters is not None:
        parts.append(f"{ratings.n_raters} raters")
    cats = ratings.categories
    shown = ", ".join(_short(c) for c in cats[:6]) + (", ..." if len(cats) > 6 else "")
    parts.append(f"{ratings.n_categories} categories ({shown})")
    if ratings.raters is None:
        most = int(ratings.counts().sum(axis=1).max())
        parts.append(f"up to {most} ratings per item")
    if ratings.groups is not None:
        parts.append(f"{len(ratings.groups)} groups")
    return f"{name} ({layout}): {', '.join(parts)}"


#: Longest label, and longest message, echoed whole; longer ones are cut with "...".
_MAX_LABEL = 40
_MAX_MESSAGE = 1000


def _short(value: object, limit: int = _MAX_LABEL) -> str:
    """``str(value)`` on one line, at most ``limit`` characters."""
    text = " ".join(str(value).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _json_value(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    if hasattr(value, "item"):  # numpy scalars
        return _json_value(value.item())
    return value


def _write(report: pd.DataFrame, header: str, fmt: str, out: TextIO) -> None:
    if fmt == "csv":
        report.to_csv(out)
    elif fmt == "json":
        records = [
            {str(key): _json_value(val) for key, val in row.items()}
            for row in report.reset_index().to_dict(orient="records")
        ]
        out.write(json.dumps(records, indent=2, allow_nan=False, default=str) + "\n")
    else:
        out.write(header + "\n")
        out.write(report.round(4).to_string() + "\n")


# --------------------------------------------------------------------------- commands


def _report(args: argparse.Namespace, out: TextIO) -> None:
    if args.example is not None:
        if args.example not in datasets.names():
            raise ValueError(
                f"unknown example {args.example!r}; choose one of "
                f"{', '.join(datasets.names())} (see `pdagree datasets`)."
            )
        if args.sep is not None or args.na or args.no_default_na:
            raise _UsageError(
                "`--sep`, `--na` and `--no-default-na` apply to files, not to --example."
            )
        name = args.example
        ratings = _ratings(datasets.load(name), args, stored_index=None)
    else:
        frame, stored_index = _read(args.path, args)
        name = "<stdin>" if args.path == _STDIN else str(Path(args.path))
        ratings = _ratings(frame, args, stored_index=stored_index)
    table = ratings.report(
        args.confidence_level,
        method=args.ci_method,
        n_resamples=args.resamples,
        rng=args.seed,
        coefficients=args.coefficients,
        weights=args.weights,
        level=args.level,
    )
    _write(table, _header(name, ratings), args.format, out)


def _summary(description: str, width: int) -> str:
    """The first sentence of a description's first line, shortened to ``width`` characters."""
    line = description.splitlines()[0] if description else ""
    end = line.find(". ")
    if end >= 0:
        line = line[: end + 1]
    return textwrap.shorten(line, width=max(width, 20), placeholder=" ...")


def _datasets(args: argparse.Namespace, out: TextIO) -> None:
    if args.name is not None:
        if args.name not in datasets.names():
            raise ValueError(
                f"unknown data set {args.name!r}; choose one of {', '.join(datasets.names())}."
            )
        out.write(textwrap.fill(datasets.describe(args.name), width=88) + "\n")
        return
    names = datasets.names()
    width = max(map(len, names))
    for name in names:
        summary = _summary(datasets.describe(name), 99 - width - 2)
        out.write(f"{name:<{width}}  {summary}\n")


def main(argv: list[str] | None = None) -> int:
    """Run the ``pdagree`` command line; return the exit status.

    Parameters
    ----------
    argv : list of str, optional
        The arguments after the program name (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        0 on success, 2 on a usage, data or file error (after printing
        ``pdagree: error: <message>`` on stderr). A reader that closes the output early
        (``| head -1``) is not an error: the rest of the output is dropped and the status is 0.
    """
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error argparse printed
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    error: str | None = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = sys.stdout
            if out is None:  # started with standard output closed (`>&-`)
                raise ValueError("standard output is closed; redirect it to a file or `-o`.")
            if args.command == "report":
                _report(args, out)
            else:
                _datasets(args, out)
            out.flush()
        except BrokenPipeError:
            _drop_output()
            return 0
        except (ValueError, TypeError, OSError, ImportError) as exc:
            error = _message(exc)
        except MemoryError:
            error = (
                "out of memory: the data need more memory than this machine has. Ask for "
                "fewer coefficients (--coefficients), group the data (--by), or use the Dask "
                "engine (pdagree.dask)."
            )
        except Exception as exc:  # a bug: still one line, never a traceback
            error = (
                f"internal error ({type(exc).__name__}: {exc}); please report it with the "
                "command and a sample of the data."
            )
    _report_warnings(caught)
    if error is not None:
        _print_error(f"{_PROG}: error: {_short(error, _MAX_MESSAGE)}")
        return 2
    return 0


def _print_error(line: str) -> None:
    """Print ``line`` on standard error, if there is one."""
    if sys.stderr is not None:
        print(line, file=sys.stderr)


def _drop_output() -> None:
    """The reader of standard output has gone (``| head -1``): send the rest, including what
    Python flushes at exit, to /dev/null instead of raising BrokenPipeError again (the recipe
    of the Python docs, "Note on SIGPIPE")."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no file descriptor (captured output): nothing to flush
        pass


def _message(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.filename is not None and exc.strerror:
        return f"cannot read {str(exc.filename)!r}: {exc.strerror}"
    return str(exc)


def _report_warnings(caught: Sequence[warnings.WarningMessage]) -> None:
    seen: set[str] = set()
    for warning in caught:
        text = _short(warning.message, _MAX_MESSAGE)
        if text not in seen:
            seen.add(text)
            _print_error(f"{_PROG}: warning: {text}")
