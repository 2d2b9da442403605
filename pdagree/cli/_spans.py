"""``pdagree spans``: agreement on span annotations (entities, segments) of a file or a
labelling tool's export: the pairwise F1 of every pair of annotators
(:meth:`pdagree.SpanRatings.pairwise_f1`), or per label."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from ..io import FORMATS, read_table
from ..spans import SpanRatings
from ._output import add_output, write_frame
from ._read import UsageError

__all__ = ["add_spans", "run_spans"]


def add_spans(commands: Any) -> None:
    """The ``spans`` subcommand, on the subparsers ``commands``."""
    parser = commands.add_parser(
        "spans",
        help="pairwise F1 of span annotations (entities, segments)",
        description=(
            "Agreement on the spans in PATH: one row per span (item, rater, start, end, label "
            "columns; a Label Studio or Prodigy export of text spans reads as such), and the "
            "pairwise F1 of every pair of annotators over the documents both annotated."
        ),
    )
    parser.add_argument(
        "path", metavar="PATH", help="a CSV, TSV, Parquet or Excel file, or an export"
    )
    columns = parser.add_argument_group("columns")
    for name in ("item", "rater", "start", "end", "label"):
        columns.add_argument(f"--{name}", metavar="COL", default=name, help=f"({name})")
    columns.add_argument("--no-label", action="store_true", help="unlabelled segmentation")
    columns.add_argument("--by", metavar="COL", action="append", help="one table per group")
    reading = parser.add_argument_group("reading files")
    reading.add_argument("--from", dest="input_format", choices=FORMATS, metavar="FORMAT")
    reading.add_argument("--from-name", metavar="NAME", help="label-studio: the control tag")
    reading.add_argument("--view", metavar="VIEW", help="prodigy: the interface")
    reading.add_argument("--sep", metavar="SEP", help="field separator of a text file")
    measure = parser.add_argument_group("measure")
    measure.add_argument(
        "--match",
        choices=("exact", "overlap"),
        default="exact",
        help="exact: the same offsets and label (default); overlap: the same label and a "
        "shared character, matched greedily by the largest overlap",
    )
    measure.add_argument(
        "--per-label", action="store_true", help="one row per label instead of per pair"
    )
    add_output(parser)


def run_spans(args: argparse.Namespace, out: TextIO) -> None:
    """Run ``pdagree spans``."""
    frame = read_table(
        args.path,
        format=args.input_format,
        sep=args.sep,
        from_name=args.from_name,
        view=args.view,
    )
    label = None if args.no_label else args.label
    if label is not None and label not in frame.columns and label == "label":
        label = None  # no label column: unlabelled segments
    by = [col for value in args.by or [] for col in value.split(",") if col]
    if any(getattr(args, name) not in frame.columns for name in ("item", "rater", "start", "end")):
        missing = [
            f"--{name} {getattr(args, name)!r}"
            for name in ("item", "rater", "start", "end")
            if getattr(args, name) not in frame.columns
        ]
        raise UsageError(
            f"{', '.join(missing)}: no such column; the file's columns are "
            f"{', '.join(map(str, frame.columns))}."
        )
    spans = SpanRatings.from_frame(
        frame,
        item=args.item,
        rater=args.rater,
        start=args.start,
        end=args.end,
        label=label,
        by=by or None,
    )
    table = spans.per_label(args.match) if args.per_label else spans.pairwise_f1(args.match)
    mean = spans.f1(args.match)
    summary = f"{mean:.4f}" if isinstance(mean, float) else "per group"
    write_frame(
        table, f"{args.path}: {spans!r}; mean pairwise F1 ({args.match}) {summary}", args, out
    )
