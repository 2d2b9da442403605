"""``pdagree datasets``: the bundled data sets, listed or described."""

from __future__ import annotations

import argparse
import textwrap
from typing import Any, TextIO

from .. import datasets

__all__ = ["add_datasets", "run_datasets"]


def add_datasets(commands: Any) -> None:
    """The ``datasets`` subcommand, on the subparsers ``commands``."""
    listing = commands.add_parser(
        "datasets",
        help="list the bundled data sets",
        description="List the bundled data sets, or describe one of them.",
    )
    listing.add_argument("name", nargs="?", metavar="NAME", help="describe this data set in full")


def _summary(description: str, width: int) -> str:
    """The first sentence of a description's first line, shortened to ``width`` characters."""
    line = description.splitlines()[0] if description else ""
    end = line.find(". ")
    if end >= 0:
        line = line[: end + 1]
    return textwrap.shorten(line, width=max(width, 20), placeholder=" ...")


def run_datasets(args: argparse.Namespace, out: TextIO) -> None:
    """Run ``pdagree datasets``."""
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
