"""``pdagree per-category``, ``pairwise``, ``per-rater``, ``items``, ``against`` and ``icc``:
one subcommand per analysis, each a thin wrapper on the :class:`~pdagree.Ratings` method of
the same name, reading the data as ``pdagree report`` does (:mod:`pdagree.cli._options`) and
writing the method's table in ``--format`` to standard output or ``-o FILE``
(:mod:`pdagree.cli._output`).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, TextIO

import pandas as pd

from ..ratings import Ratings
from ._gate import DEFAULT_COLUMN, add_gate, check_gate
from ._options import add_data_options, add_gold, add_source, gold_labels, load
from ._output import add_output, header, write_frame
from ._read import UsageError

__all__ = ["ANALYSES", "add_analysis", "run_analysis"]


def _per_category(ratings: Ratings, args: argparse.Namespace) -> pd.DataFrame:
    return ratings.per_category(confidence_level=args.confidence_level)


def _pairwise(ratings: Ratings, args: argparse.Namespace) -> pd.DataFrame:
    return ratings.pairwise(args.coefficient, weights=args.weights)


def _per_rater(ratings: Ratings, args: argparse.Namespace) -> pd.DataFrame:
    return ratings.per_rater(args.coefficient)


def _items(ratings: Ratings, args: argparse.Namespace) -> pd.DataFrame:
    return ratings.items()


def _against(ratings: Ratings, args: argparse.Namespace) -> pd.DataFrame:
    gold = gold_labels(ratings, args)
    if gold is None:
        raise UsageError(
            "give the reference as `--gold RATER` or `--gold-file FILE`, one of them."
        )
    return ratings.against(gold, average=args.average)


def _icc(ratings: Ratings, args: argparse.Namespace) -> pd.DataFrame:
    if args.scores is not None:
        return ratings.consensus_scores(args.scores).scores
    return ratings.icc_table(
        confidence_level=args.confidence_level, missing=args.missing, test=args.test
    )


def _frame(result: Any) -> pd.DataFrame:
    """A table of a result: a ``by=`` result is one already; a single value is one row."""
    return result if isinstance(result, pd.DataFrame) else result.to_frame()


def _cronbach(ratings: Ratings, args: argparse.Namespace) -> pd.DataFrame:
    level = args.confidence_level
    return _frame(ratings.cronbach_alpha(confidence_level=level, missing=args.missing))


def _concordance(ratings: Ratings, args: argparse.Namespace) -> pd.DataFrame:
    return _frame(ratings.concordance(confidence_level=args.confidence_level))


_PAIR_COEFFICIENTS = ("cohen", "scott", "observed", "n_items")


def _pairwise_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--coefficient",
        choices=_PAIR_COEFFICIENTS,
        default="cohen",
        help="the two-rater coefficient (default cohen), or n_items: the items both rated",
    )
    parser.add_argument(
        "--method",
        dest="coefficient",
        choices=_PAIR_COEFFICIENTS,
        help="the former name of --coefficient (as Ratings.pairwise's `coefficient`)",
    )
    parser.add_argument(
        "--weights",
        metavar="SCHEME",
        help="agreement weights (linear, quadratic, ...) for weighted pairwise kappa",
    )


def _per_rater_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--coefficient",
        default="alpha",
        metavar="NAME",
        help="the coefficient each annotator's part is measured on (default alpha)",
    )
    add_gate(parser, "per-rater")


def _per_category_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--confidence-level",
        metavar="LEVEL",
        type=float,
        help="add each kappa's standard error, interval and test at this level, e.g. 0.95",
    )
    add_gate(parser, "per-category")


def _against_options(parser: argparse.ArgumentParser) -> None:
    add_gold(parser)
    parser.add_argument(
        "--average",
        choices=("macro", "micro"),
        help="average precision, recall and F over the categories (default: one row per "
        "rater and category)",
    )


def _icc_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--confidence-level", metavar="LEVEL", type=float, default=0.95, help="(0.95)"
    )
    parser.add_argument(
        "--missing",
        choices=("auto", "omit"),
        default="auto",
        help="incomplete items: estimated (auto, REML) or dropped (omit)",
    )
    parser.add_argument(
        "--test",
        choices=("F", "mcgraw_wong"),
        default="F",
        help="Shrout & Fleiss's F tests (default) or McGraw & Wong's",
    )
    parser.add_argument(
        "--scores",
        nargs="?",
        const="mixed",
        choices=("mixed", "mean", "median"),
        help="write each item's consensus score instead (Ratings.consensus_scores): adjusted "
        "for the raters' severity (mixed, the default), or the plain mean or median",
    )


def _level_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--confidence-level", metavar="LEVEL", type=float, default=0.95, help="(0.95)"
    )


def _cronbach_options(parser: argparse.ArgumentParser) -> None:
    _level_option(parser)
    parser.add_argument(
        "--missing",
        choices=("omit", "pairwise"),
        default="omit",
        help="items some rater did not rate: dropped (omit, the default) or each covariance "
        "over the items its two raters rated (pairwise)",
    )


#: subcommand -> (method it wraps, help, its own options)
ANALYSES: dict[str, tuple[Callable[..., pd.DataFrame], str, Callable[..., None] | None]] = {
    "per-category": (
        _per_category,
        "kappa and specific agreement per category",
        _per_category_options,
    ),
    "pairwise": (_pairwise, "a two-rater coefficient for every pair of raters", _pairwise_options),
    "per-rater": (_per_rater, "each annotator's part of the agreement", _per_rater_options),
    "items": (_items, "each item's agreement, ratings and label entropy", None),
    "against": (
        _against,
        "each rater against a reference (--gold RATER or --gold-file FILE)",
        _against_options,
    ),
    "icc": (_icc, "the intraclass correlation in its six forms", _icc_options),
    "cronbach": (_cronbach, "Cronbach's alpha, the raters as a scale's items", _cronbach_options),
    "concordance": (_concordance, "Lin's concordance correlation of two raters", _level_option),
}


def add_analysis(commands: Any, name: str) -> None:
    """The subcommand of analysis ``name``, on the subparsers ``commands``."""
    method, summary, options = ANALYSES[name]
    wrapped = f"Ratings.{method.__name__.lstrip('_')}"
    parser = commands.add_parser(
        name,
        help=summary,
        description=(
            f"{summary[0].upper()}{summary[1:]} (pdagree.{wrapped}), for the ratings in "
            "PATH (read as `pdagree report` reads it) or a bundled example."
        ),
    )
    add_source(parser)
    add_data_options(parser)
    if options is not None:
        options(parser.add_argument_group(name))
    add_output(parser)


def run_analysis(args: argparse.Namespace, out: TextIO) -> None:
    """Run the analysis subcommand ``args.command``."""
    method, _, _ = ANALYSES[args.command]
    name, ratings = load(args)
    table = method(ratings, args)
    write_frame(table, header(name, ratings), args, out)
    if args.command in DEFAULT_COLUMN:
        check_gate(table, args, args.command)
