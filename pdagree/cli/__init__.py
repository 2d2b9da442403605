"""The ``pdagree`` command: agreement for files of annotations.

``pdagree report PATH`` reads a file of ratings in any of pdagree's four layouts and prints
every coefficient that applies (:meth:`pdagree.Ratings.report`); ``pdagree report --example
NAME`` does the same for a bundled data set, and ``pdagree datasets`` lists those.
``pdagree per-category``, ``pairwise``, ``per-rater``, ``items``, ``against`` and ``icc``
write the table of the analysis of their name (:mod:`pdagree.cli._analyses`); ``pdagree
consensus PATH`` writes one consensus label per item as CSV (:mod:`pdagree.cli._consensus`);
the options that describe the data (:mod:`pdagree.cli._options`) and the output formats
(:mod:`pdagree.cli._output`) are shared.

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
import os
import sys
import textwrap
import warnings
from collections.abc import Sequence
from typing import NoReturn, TextIO

from .. import datasets
from .._version import __version__
from ..definitions import REGISTRY
from ._analyses import ANALYSES, add_analyses, run_analysis
from ._consensus import add_consensus, run_consensus
from ._options import add_data_options, add_source, load, seed
from ._output import MAX_MESSAGE, add_output, check_output, header, short, write_frame
from ._read import UsageError as _UsageError

__all__ = ["main"]

_PROG = "pdagree"


# --------------------------------------------------------------------------- arguments


class _Parser(argparse.ArgumentParser):
    """argparse, with a usage error on one line like every other failure:
    ``pdagree: error: <message> (see `pdagree report --help`)``, status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{_PROG}: error: {message} (see `{self.prog} --help`)\n")


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
    add_source(report)
    add_data_options(report)
    chosen = report.add_argument_group("coefficients")
    chosen.add_argument(
        "--coefficients",
        metavar="NAMES",
        help="comma-separated coefficients to report, each with its own option after a colon, "
        "e.g. 'alpha:ordinal,gwet:quadratic,fleiss' (default: every one that applies); any of "
        f"{', '.join(REGISTRY)}",
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
        choices=("auto", "analytic", "bootstrap"),
        default="auto",
        help="auto (the default: Gwet's variance, as R irrCAC, where one exists, else the item "
        "bootstrap; analytic is its former name) or bootstrap over items for every row",
    )
    uncertainty.add_argument(
        "--resamples", metavar="N", type=int, default=2000, help="bootstrap resamples (2000)"
    )
    uncertainty.add_argument("--seed", metavar="N", type=seed, help="bootstrap random seed")
    numeric = report.add_argument_group("numeric ratings")
    numeric.add_argument(
        "--icc",
        action="store_true",
        help="print the intraclass correlation table instead (six forms, F tests, intervals at "
        "--confidence-level, default 0.95)",
    )
    numeric.add_argument(
        "--icc-missing",
        choices=("auto", "omit"),
        default="auto",
        help="with --icc: refuse (auto) or drop (omit) items some rater did not rate",
    )
    add_output(report)

    add_analyses(commands)
    add_consensus(commands)

    listing = commands.add_parser(
        "datasets",
        help="list the bundled data sets",
        description="List the bundled data sets, or describe one of them.",
    )
    listing.add_argument("name", nargs="?", metavar="NAME", help="describe this data set in full")
    return parser


# --------------------------------------------------------------------------- reading


# --------------------------------------------------------------------------- options


# --------------------------------------------------------------------------- output


# --------------------------------------------------------------------------- commands


def _report(args: argparse.Namespace, out: TextIO) -> None:
    name, ratings = load(args)
    if args.icc:
        if args.coefficients is not None or args.weights is not None or args.level is not None:
            raise _UsageError(
                "`--icc` prints the ICC table; it takes no --coefficients, --weights or --level."
            )
        level = 0.95 if args.confidence_level is None else args.confidence_level
        icc = ratings.icc_table(level, missing=args.icc_missing)
        write_frame(icc, header(name, ratings), args, out)
        return
    table = ratings.report(
        args.confidence_level,
        method=args.ci_method,
        n_resamples=args.resamples,
        rng=args.seed,
        coefficients=args.coefficients,
        weights=args.weights,
        level=args.level,
    )
    write_frame(table, header(name, ratings), args, out)


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
            check_output(args)
            if args.command == "report":
                _report(args, out)
            elif args.command in ANALYSES:
                run_analysis(args, out)
            elif args.command == "consensus":
                run_consensus(args, out)
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
        _print_error(f"{_PROG}: error: {short(error, MAX_MESSAGE)}")
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
        text = short(warning.message, MAX_MESSAGE)
        if text not in seen:
            seen.add(text)
            _print_error(f"{_PROG}: warning: {text}")
