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
import functools
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, NoReturn, TextIO

from .._version import __version__
from ._analyses import ANALYSES, add_analysis, run_analysis
from ._consensus import add_consensus, run_consensus
from ._datasets import add_datasets, run_datasets
from ._gate import GateFailed
from ._output import MAX_MESSAGE, check_output, short
from ._read import flags
from ._report import add_report, run_report
from ._spans import add_spans, run_spans

__all__ = ["COMMANDS", "Command", "main"]

_PROG = "pdagree"


# --------------------------------------------------------------------------- arguments


class _Parser(argparse.ArgumentParser):
    """argparse, with a usage error on one line like every other failure:
    ``pdagree: error: <message> (see `pdagree report --help`)``, status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{_PROG}: error: {message} (see `{self.prog} --help`)\n")


class Command(NamedTuple):
    """A subcommand: what adds its parser to the subparsers, and what runs it."""

    add: Callable[[Any], None]
    run: Callable[[argparse.Namespace, TextIO], None]


#: Every subcommand, in the order ``pdagree --help`` lists them: adding one is an entry here.
COMMANDS: dict[str, Command] = {
    "report": Command(add_report, run_report),
    **{
        name: Command(functools.partial(add_analysis, name=name), run_analysis)
        for name in ANALYSES
    },
    "consensus": Command(add_consensus, run_consensus),
    "spans": Command(add_spans, run_spans),
    "datasets": Command(add_datasets, run_datasets),
}


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=_PROG,
        description="Inter-annotator agreement for files of annotations.",
        epilog="Run `pdagree report --help` for the options of a report.",
    )
    parser.add_argument("--version", action="version", version=f"{_PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS.values():
        command.add(commands)
    return parser


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
            try:
                COMMANDS[args.command].run(args, out)
            finally:
                out.flush()
        except GateFailed as below:  # the table is written; the values are not good enough
            _report_warnings(caught)
            for line in below.lines:
                _print_error(f"{_PROG}: {line}")
            return 1
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
    return flags(str(exc))


def _report_warnings(caught: Sequence[warnings.WarningMessage]) -> None:
    seen: set[str] = set()
    for warning in caught:
        text = short(flags(str(warning.message)), MAX_MESSAGE)
        if text not in seen:
            seen.add(text)
            _print_error(f"{_PROG}: warning: {text}")
