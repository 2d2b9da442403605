"""The command line's data options, shared by every subcommand: the layout of the file
(wide, long, counts, contingency; ``--by``, ``--raters``, ``--categories``) and how it is read
(``--index-col``, ``--sep``, ``--na``), and the :class:`~pdagree.Ratings` they describe."""

from __future__ import annotations

import argparse
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any, cast

import numpy as np
import pandas as pd

from .. import datasets
from ..encoding import Layout
from ..io import read_table
from ..ratings import Ratings
from ._read import FORMATS, STDIN, TOOLS, input_format, read
from ._read import UsageError as _UsageError

__all__ = [
    "LAYOUTS", "add_data_options", "add_gold", "add_source", "gold_labels", "gold_rater", "load",
    "ratings", "seed",
]  # fmt: skip

LAYOUTS = ("wide", "long", "counts", "contingency")
# Bundled data sets in the long layout, and their (item, rater, label) columns.
_LONG_EXAMPLES = {"crowd_sparse": ("item", "annotator", "label")}


def seed(token: str) -> int:
    """``--seed``: a whole number from 0 to 2**32 - 1 (what NumPy's generators accept);
    anything else is argparse's error naming ``--seed``."""
    try:
        value = int(token)
    except ValueError:
        value = -1
    if not 0 <= value < 2**32:
        raise argparse.ArgumentTypeError(
            f"must be a whole number from 0 to {2**32 - 1}; got {token!r}"
        )
    return value


def _split(value: str) -> list[str]:
    """``"a,b,,c"`` -> ``["a", "b", "c"]`` (surrounding spaces kept: they may be labels)."""
    return [part for part in value.split(",") if part != ""]


def add_source(parser: argparse.ArgumentParser) -> None:
    """``PATH`` or ``--example NAME``, one of them."""
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "path",
        nargs="?",
        metavar="PATH",
        help="a CSV, TSV or Parquet file; - reads CSV (or --sep) from standard input",
    )
    source.add_argument(
        "--example", metavar="NAME", help="a bundled data set (see `pdagree datasets`)"
    )


def add_data_options(parser: argparse.ArgumentParser) -> None:
    """The layout and file-reading options, on ``parser``."""
    layout = parser.add_argument_group("layout")
    layout.add_argument("--item", metavar="COL", help="long layout: the item column")
    layout.add_argument("--rater", metavar="COL", help="long layout: the rater column")
    layout.add_argument("--label", metavar="COL", help="long layout: the label column")
    layout.add_argument(
        "--layout",
        choices=LAYOUTS,
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
    reading = parser.add_argument_group("reading files")
    reading.add_argument(
        "--from",
        dest="input_format",
        choices=FORMATS,
        metavar="FORMAT",
        help="the input format: csv, tsv, parquet, excel, label-studio (a JSON export), prodigy "
        "(db-out JSONL); default: by extension (.json: label-studio, .jsonl: prodigy, "
        ".xlsx: excel), else csv",
    )
    reading.add_argument(
        "--from-name",
        metavar="NAME",
        help="label-studio: the control tag to read when the export answers several",
    )
    reading.add_argument(
        "--view", metavar="VIEW", help="prodigy: the interface (_view_id) to read when several"
    )
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
                f"available columns: {frame.columns[:10].tolist()!r}."
            )
        return frame.set_index(args.index_col)
    if stored_index or frame.shape[1] == 0:
        return frame
    return frame.set_index(frame.columns[0])


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


def ratings(frame: pd.DataFrame, args: argparse.Namespace, stored_index: bool | None) -> Ratings:
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
        rank=getattr(args, "rank_column", None),
    )


def load(args: argparse.Namespace) -> tuple[str, Ratings]:
    """The ratings the options describe, and the name of their source."""
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
        return args.example, ratings(datasets.load(args.example), args, stored_index=None)
    frame, stored_index = read(args.path, args)
    name = "<stdin>" if args.path == STDIN else str(Path(args.path))
    if input_format(args.path, args) in TOOLS:  # a long frame: item, rater, label (rank)
        if args.layout not in (None, "long"):
            raise _UsageError(f"a labelling tool's export is a long layout, not {args.layout}.")
        for key in ("item", "rater", "label"):
            if getattr(args, key) is None:
                setattr(args, key, key)
        if "rank" in frame.columns:
            args.rank_column = "rank"
    return name, ratings(frame, args, stored_index=stored_index)


def gold_rater(ratings: Ratings, token: str) -> Any:
    """``--gold``: the rater it names, matched as text or as the number it reads as."""
    raters = ratings.raters
    if raters is None:  # pragma: no cover - a counts table is refused before
        raise _UsageError("`--gold` needs raters.")
    named = np.flatnonzero(raters.astype(str) == token)
    if len(named):
        rater = raters[named[0]]
        return rater.item() if isinstance(rater, np.generic) else rater  # 0, not np.int64(0)
    shown = ", ".join(map(str, list(raters)[:10]))
    raise ValueError(f"`--gold` names rater {token!r}, which is not in the data; raters: {shown}.")


def add_gold(parser: Any) -> None:
    """``--gold RATER`` or ``--gold-file FILE`` (with ``--gold-item``, ``--gold-label``): the
    reference labels, on ``parser`` (a parser or a group of one)."""
    parser.add_argument("--gold", metavar="COL", help="the rater (column) holding the reference")
    parser.add_argument(
        "--gold-file",
        metavar="FILE",
        help="a file of reference labels instead (CSV, TSV, Parquet or Excel), one row per item",
    )
    parser.add_argument(
        "--gold-item", metavar="COL", default="item", help="--gold-file's item column (item)"
    )
    parser.add_argument(
        "--gold-label", metavar="COL", default="label", help="--gold-file's label column (label)"
    )


def gold_labels(ratings: Ratings, args: argparse.Namespace) -> Any:
    """The reference labels of ``--gold`` or ``--gold-file`` (``None`` when neither is
    given; both are refused)."""
    if args.gold is None and args.gold_file is None:
        return None
    if args.gold is not None and args.gold_file is not None:
        raise _UsageError(
            "give the reference as `--gold RATER` or `--gold-file FILE`, one of them."
        )
    if args.gold_file is None:
        return gold_rater(ratings, args.gold)
    gold = read_table(args.gold_file)
    columns = {args.gold_item: "item", args.gold_label: "label"}
    missing = [col for col in columns if col not in gold.columns]
    if missing:
        raise ValueError(
            f"`--gold-file` {args.gold_file!r} has no column {missing[0]!r}; its columns: "
            f"{', '.join(map(str, gold.columns))}. Name them with --gold-item and --gold-label."
        )
    return gold[list(columns)].rename(columns=columns)
