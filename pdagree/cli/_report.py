"""``pdagree report``: every coefficient that applies (:meth:`pdagree.Ratings.report`), or
with ``--icc`` the intraclass correlation table."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from ..definitions import REGISTRY
from ._gate import add_gate, check_gate
from ._options import add_data_options, add_gold, add_source, gold_labels, load, seed
from ._output import add_output, header, write_frame, write_text
from ._read import UsageError as _UsageError

__all__ = ["add_report", "run_report"]


def add_report(commands: Any) -> None:
    """The ``report`` subcommand, on the subparsers ``commands``."""
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
    add_gate(report.add_argument_group("quality gate"), "report")
    add_gold(report.add_argument_group("report page: reference labels (with --format html)"))
    add_output(report, page=True)


def run_report(args: argparse.Namespace, out: TextIO) -> None:
    """Run ``pdagree report``."""
    name, ratings = load(args)
    if args.format == "html":
        _page(name, ratings, args, out)
        return
    if args.gold is not None or args.gold_file is not None:
        raise _UsageError(
            "`--gold` and `--gold-file` add the reference labels to the report page: pass "
            "`--format html` (or run `pdagree against`)."
        )
    if args.icc:
        if args.coefficients is not None or args.weights is not None or args.level is not None:
            raise _UsageError(
                "`--icc` prints the ICC table; it takes no --coefficients, --weights or --level."
            )
        if args.fail_under is not None:
            raise _UsageError("`--fail-under` reads the coefficients' report, not `--icc`.")
        level = 0.95 if args.confidence_level is None else args.confidence_level
        icc = ratings.icc_table(confidence_level=level, missing=args.icc_missing)
        write_frame(icc, header(name, ratings), args, out)
        return
    table = ratings.report(
        confidence_level=args.confidence_level,
        method=args.ci_method,
        n_resamples=args.resamples,
        rng=args.seed,
        coefficients=args.coefficients,
        weights=args.weights,
        level=args.level,
    )
    write_frame(table, header(name, ratings), args, out)
    check_gate(table, args, "report")


def _page(name: str, ratings: Any, args: argparse.Namespace, out: TextIO) -> None:
    """``--format html``: the report page (:meth:`pdagree.Ratings.to_html`, with the reference
    labels of ``--gold`` or ``--gold-file``); the gate reads the report of every coefficient,
    at ``--confidence-level`` when given."""
    chosen = {"--icc": args.icc, "--coefficients": args.coefficients, "--weights": args.weights}
    chosen["--level"] = args.level
    given = [flag for flag, value in chosen.items() if value not in (None, False)]
    if given:
        raise _UsageError(
            f"`--format html` writes the whole report page; it takes no {', '.join(given)}."
        )
    gold = gold_labels(ratings, args)
    write_text(ratings.to_html(title=f"Agreement: {name}", gold=gold), args, out)
    if args.fail_under is not None or args.fail_under_lower:
        table = ratings.report(
            confidence_level=args.confidence_level,
            method=args.ci_method,
            n_resamples=args.resamples,
            rng=args.seed,
        )
        check_gate(table, args, "report")
