"""``pdagree consensus``: one consensus label per item, for pipelines.

Reads a file as ``pdagree report`` does (every layout that records raters) and writes one row
per item, :meth:`pdagree.consensus.Consensus.to_frame` (``label``, ``probability``,
``margin``, ``n_ratings``), as CSV (or ``--format``) to standard output or to ``--output``.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

import pandas as pd

from ..consensus import MAX_ITERATIONS, METHODS, TIES, TOL
from ._options import add_data_options, add_source, gold_rater, load, seed
from ._output import add_output, header, write_frame

__all__ = ["add_consensus", "run_consensus"]


def add_consensus(commands: Any) -> None:
    """The ``consensus`` subcommand, on the subparsers ``commands``."""
    parser = commands.add_parser(
        "consensus",
        help="one consensus label per item, with its probability (CSV)",
        description=(
            "Fit a consensus model to the ratings in PATH (read as `pdagree report` reads "
            "it; usually a long file: --item, --rater, --label) and write one row per item: "
            "its label, the label's probability, the margin over the second most probable "
            "label and the number of ratings, as CSV. Exact ties are broken at random, as "
            "Ratings.consensus breaks them; --seed makes the draw reproducible."
        ),
    )
    add_source(parser)
    add_data_options(parser)
    model = parser.add_argument_group("model")
    model.add_argument(
        "--method",
        choices=METHODS,
        default="dawid_skene",
        help="majority, dawid_skene (default), one_coin, glad, mace, wawa, zero_based_skill, "
        "kos (binary labels) or mmsr",
    )
    model.add_argument(
        "--gold",
        metavar="RATER",
        help="the rater whose labels are known to be right (an expert's): their items keep "
        "that label, and they are not a vote",
    )
    model.add_argument(
        "--ties",
        choices=TIES,
        default="random",
        help="an exact tie: a random draw among the tied categories (default, as in Python's "
        "Ratings.consensus; reproducible with --seed), the first category in order, or no "
        "label",
    )
    model.add_argument(
        "--seed",
        metavar="N",
        type=seed,
        help="seed of --ties random (0 to 2**32 - 1): the same seed gives the labels "
        "Ratings.consensus(rng=N) gives",
    )
    model.add_argument(
        "--max-iterations",
        metavar="N",
        type=int,
        default=MAX_ITERATIONS,
        help=f"EM iterations at most ({MAX_ITERATIONS})",
    )
    model.add_argument(
        "--tol",
        metavar="X",
        type=float,
        default=TOL,
        help=f"EM stops when no posterior or parameter moves by more ({TOL:g})",
    )
    add_output(parser, default="csv")


def run_consensus(args: argparse.Namespace, out: TextIO) -> None:
    name, ratings = load(args)
    gold = None if args.gold is None else gold_rater(ratings, args.gold)
    fit = ratings.consensus(
        args.method,
        gold=gold,
        ties=args.ties,
        rng=args.seed,
        max_iterations=args.max_iterations,
        tol=args.tol,
    )
    table: pd.DataFrame = fit.to_frame()
    write_frame(table, header(name, ratings), args, out)
