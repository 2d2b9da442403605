"""How the ``pdagree`` command reads a file of ratings: CSV or TSV text (standard input for
``-``), Parquet, Excel, or a labelling tool's export (Label Studio JSON, Prodigy JSONL, read by
:mod:`pdagree.io` into a long frame), with the checks that make a bad file one clear error
instead of a traceback or a silent rename: a separator that is not one, binary data, a header
that repeats a column name (pandas would rename it ``a.1``).
"""

from __future__ import annotations

import argparse
import importlib
import io
import re
import sys
from collections.abc import Hashable
from pathlib import Path
from typing import Any, TextIO

import pandas as pd

__all__ = ["FORMATS", "STDIN", "TOOLS", "UsageError", "input_format", "read"]

STDIN = "-"
#: The input formats of ``--from``; the tools' exports read as long frames (item, rater, label).
FORMATS = ("csv", "tsv", "parquet", "excel", "label-studio", "prodigy")
TOOLS = ("label-studio", "prodigy")
_BY_EXTENSION = {
    ".csv": "csv", ".txt": "csv", ".tsv": "tsv", ".tab": "tsv", ".parquet": "parquet",
    ".pq": "parquet", ".xlsx": "excel", ".xlsm": "excel", ".xls": "excel",
    ".json": "label-studio", ".jsonl": "prodigy",
}  # fmt: skip
_PARQUET = {".parquet", ".pq"}
_TSV = {".tsv", ".tab"}
_COMPRESSION = {".gz", ".bz2", ".zip", ".xz", ".zst", ".tar"}
#: Bytes read from the start of a file to tell text from binary data.
_SNIFF = 8192


class UsageError(ValueError):
    """A bad combination of command-line options."""


def _text_format(path: Path) -> str:
    """The file's extension, ignoring a compression suffix such as ``.gz``."""
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] in _COMPRESSION:
        suffixes.pop()
    return suffixes[-1] if suffixes else ""


def _require_pyarrow() -> None:
    try:
        importlib.import_module("pyarrow")
    except ImportError:
        raise ImportError(
            "reading Parquet files needs pyarrow, which is not installed; run "
            '`pip install pyarrow` (or `pip install "pdagree[dev]"`).'
        ) from None


def input_format(source: str, args: argparse.Namespace) -> str:
    """``--from``, else the format the file's extension says (CSV when it says nothing)."""
    chosen: str | None = getattr(args, "input_format", None)
    if chosen is not None:
        return chosen
    if source == STDIN:
        return "csv"
    return _BY_EXTENSION.get(_text_format(Path(source)), "csv")


def _tool_export(path: Path, kind: str, args: argparse.Namespace) -> pd.DataFrame:
    """A labelling tool's export as a long frame (:mod:`pdagree.io`)."""
    from .. import io as tool_io

    if args.sep is not None or args.na or args.no_default_na:
        raise UsageError(
            f"`--sep`, `--na` and `--no-default-na` apply to text files, not to a {kind} export."
        )
    if kind == "label-studio":
        return tool_io.read_label_studio(path, from_name=getattr(args, "from_name", None))
    return tool_io.read_prodigy(path, view=getattr(args, "view", None))


def read(source: str, args: argparse.Namespace) -> tuple[pd.DataFrame, bool]:
    """The file (``-``: standard input, as text) as a frame, and whether the file itself
    stored an item index."""
    kind = input_format(source, args)
    if source == STDIN and kind not in ("csv", "tsv"):
        raise UsageError(f"standard input is read as CSV or TSV text, not as {kind}.")
    if source == STDIN:
        if sys.stdin is None:
            raise ValueError("cannot read standard input: it is closed.")
        text = sys.stdin.read()
        if "\x00" in text[:_SNIFF]:
            raise ValueError(_BINARY.format(name="standard input"))
        _refuse_json(text[:_SNIFF].encode("utf-8", "replace"), "standard input", kind)
        return _read_text(io.StringIO(text), "standard input", "", args), False
    path = Path(source)
    if not path.exists():
        raise FileNotFoundError(f"no such file: {str(path)!r}")
    if path.is_dir():
        raise IsADirectoryError(f"{str(path)!r} is a directory, not a file of ratings")
    extension = _text_format(path)
    if kind in TOOLS:
        return _tool_export(path, kind, args), False
    if kind == "excel":
        return _excel(path, args), False
    if kind == "parquet":
        extension = ".parquet"
    elif kind == "tsv":
        extension = ".tsv"
    compressed = bool(path.suffixes) and path.suffixes[-1].lower() in _COMPRESSION
    if extension not in _PARQUET and not compressed:
        with path.open("rb") as handle:
            start = handle.read(_SNIFF)
        if b"\x00" in start:
            raise ValueError(_BINARY.format(name=repr(str(path))))
        _refuse_json(start, repr(str(path)), kind)
    if extension in _PARQUET:
        if args.sep is not None or args.na or args.no_default_na:
            raise UsageError(
                "`--sep`, `--na` and `--no-default-na` apply to text files, not to Parquet."
            )
        _require_pyarrow()
        try:
            frame = pd.read_parquet(path)
        except (ValueError, OSError) as exc:
            raise ValueError(f"cannot read {str(path)!r} as Parquet: {exc}") from None
        index = frame.index
        default = isinstance(index, pd.RangeIndex) and index.name is None and index.start == 0
        return frame, not default
    return _read_text(path, repr(str(path)), extension, args), False


def _excel(path: Path, args: argparse.Namespace) -> pd.DataFrame:
    """The first sheet of an Excel workbook (pandas' reader, through openpyxl)."""
    if args.sep is not None:
        raise UsageError("`--sep` applies to text files, not to Excel workbooks.")
    try:
        importlib.import_module("openpyxl")
    except ImportError:
        raise ImportError(
            'reading Excel workbooks needs openpyxl: pip install "pdagree[excel]".'
        ) from None
    na_options: dict[str, Any] = {"na_values": ["", *args.na]}
    if args.no_default_na:
        na_options["keep_default_na"] = False
    try:
        # The header as written (pandas renames a repeated name `a` to `a.1`), then the sheet.
        raw = pd.read_excel(path, header=None, nrows=1)
        frame = pd.read_excel(path, **na_options)
    except (ValueError, OSError, KeyError) as exc:
        raise ValueError(f"cannot read {str(path)!r} as an Excel workbook: {exc}") from None
    names = raw.iloc[0].dropna().tolist() if len(raw) else []
    _check_header([str(name) for name in names], repr(str(path)))
    return frame


def _read_text(
    source: Path | TextIO, name: str, extension: str, args: argparse.Namespace
) -> pd.DataFrame:
    """A CSV or TSV file; ``name`` says where it came from in messages."""
    if args.sep is not None:
        sep = args.sep.replace("\\t", "\t")
    else:
        sep = "\t" if extension in _TSV else ","
    na_options: dict[str, Any] = {"na_values": ["", *args.na]}
    if args.no_default_na:
        na_options["keep_default_na"] = False
    if len(sep) > 1 and sep != "\\s+":  # pandas reads a longer separator as a regex
        try:
            re.compile(sep)
        except re.error as exc:
            raise ValueError(
                f"`--sep` {args.sep!r} is not a valid separator: a separator longer than one "
                f"character is a regular expression, and this one is not ({exc}). Pass one "
                "character, e.g. --sep ';', or escape it (--sep '\\(\\(')."
            ) from None
    try:
        header = pd.read_csv(source, sep=sep, header=None, nrows=1, dtype=str)
        if isinstance(source, io.StringIO):
            source.seek(0)
        frame = pd.read_csv(source, sep=sep, **na_options)
    except UnicodeDecodeError as exc:
        raise ValueError(f"cannot read {name}: it is not UTF-8 text ({exc.reason}).") from None
    except (ValueError, OSError, re.error) as exc:  # pandas' parser errors are ValueErrors
        raise ValueError(f"cannot read {name}: {exc}") from None
    _check_header(header.iloc[0].tolist() if len(header) else [], name)
    if args.sep is None and frame.shape[1] == 1:
        _hint_separator(frame.columns[0], name, sep)
    return frame


_SPACE = b" \t\r\n"


def _refuse_json(start: bytes, name: str, kind: str) -> None:
    """A JSON document or JSON lines read as CSV or TSV text (a tool's export saved as
    ``.csv``): pandas would parse it for minutes into nonsense. JSON is told by its first
    bytes after a byte-order mark and white space: ``[`` then ``{`` or ``]`` (a list of
    objects: Label Studio's export), or ``{`` then ``"`` or ``}`` (an object per line:
    Prodigy's)."""
    head = start.removeprefix(b"\xef\xbb\xbf").lstrip(_SPACE)
    rest = head[1:].lstrip(_SPACE)
    if head.startswith(b"[") and (rest[:1] in (b"{", b"]") or not rest):
        what, tool = "a JSON list, as in a Label Studio export", "label-studio"
    elif head.startswith(b"{") and (rest[:1] in (b'"', b"}") or not rest):
        what, tool = "a JSON object per line, as in Prodigy's JSONL", "prodigy"
    else:
        return
    raise ValueError(
        f"cannot read {name} as {kind.upper()}: it holds JSON ({what}); pass --from {tool}."
    )


_BINARY = (
    "cannot read {name}: it holds binary data, not text. Give a CSV or TSV file (or a "
    "Parquet file with the extension .parquet)."
)


def _check_header(names: list[Any], name: str) -> None:
    """A header that repeats a column name is an error: pandas would rename the second
    ``a`` to ``a.1`` and read it as another rater."""
    seen: set[Any] = set()
    for column in names:
        if isinstance(column, str) and column in seen:
            raise ValueError(
                f"the header of {name} repeats the column name {column!r}; give each column "
                "its own name (pandas would rename the second one and read it as another "
                "column)."
            )
        seen.add(column)


def _hint_separator(header: Hashable, name: str, sep: str) -> None:
    """A text file that parsed into one column whose header holds another separator: say so."""
    text = str(header)
    for other, shown in (("\t", "'\\t'"), (";", "';'"), ("|", "'|'")):
        if other != sep and other in text:
            raise ValueError(
                f"{name} parsed into one column, {text!r}: its fields look separated by "
                f"{shown}, not {sep!r}. Pass --sep {shown}."
            )
