"""A file of ratings as a frame, checked: CSV or TSV text (or a text stream), Parquet, Excel,
or a labelling tool's export (:func:`~pdagree.io.read_label_studio`,
:func:`~pdagree.io.read_prodigy`), with the checks that make a bad file one clear error
instead of a traceback or a silent rename: a separator that is not one, binary data, JSON read
as text, a header that repeats a column name (pandas would rename it ``a.1``).

The ``pdagree`` command reads every file through :func:`read_table`; its messages name the
Python arguments (``sep``, ``na_values``, ``keep_default_na``, ``format``), which the command
line shows as its flags.
"""

from __future__ import annotations

import importlib
import io
import os
import re
import sys
from collections.abc import Hashable, Iterable
from pathlib import Path
from typing import Any, TextIO

import pandas as pd

from ._label_studio import read_label_studio
from ._prodigy import read_prodigy

__all__ = ["FORMATS", "TOOLS", "format_of", "read_table"]

#: The formats :func:`read_table` reads; the tools' exports read as long frames.
FORMATS = ("csv", "tsv", "parquet", "excel", "label-studio", "prodigy")
#: The labelling tools' exports among :data:`FORMATS`.
TOOLS = ("label-studio", "prodigy")
_BY_EXTENSION = {
    ".csv": "csv", ".txt": "csv", ".tsv": "tsv", ".tab": "tsv", ".parquet": "parquet",
    ".pq": "parquet", ".xlsx": "excel", ".xlsm": "excel", ".xls": "excel",
    ".json": "label-studio", ".jsonl": "prodigy",
}  # fmt: skip
_COMPRESSION = {".gz", ".bz2", ".zip", ".xz", ".zst", ".tar"}
#: Bytes read from the start of a file to tell text from binary data.
_SNIFF = 8192
_TEXT_ONLY = "`sep`, `na_values` and `keep_default_na`"


def _extension(path: Path) -> str:
    """The file's extension, ignoring a compression suffix such as ``.gz``."""
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] in _COMPRESSION:
        suffixes.pop()
    return suffixes[-1] if suffixes else ""


def format_of(source: str | os.PathLike[str] | TextIO) -> str:
    """The format a file's extension says (CSV when it says nothing, and for a text stream)."""
    if not isinstance(source, (str, os.PathLike)):
        return "csv"
    return _BY_EXTENSION.get(_extension(Path(source)), "csv")


def read_table(
    source: str | os.PathLike[str] | TextIO,
    *,
    format: str | None = None,
    sep: str | None = None,
    na_values: Iterable[str] | None = None,
    keep_default_na: bool = True,
    from_name: str | None = None,
    view: str | None = None,
) -> pd.DataFrame:
    """Read a file of ratings (or a labelling tool's export) into a frame, checked.

    Parameters
    ----------
    source : str, path or text stream
        The file; a text stream (``sys.stdin``, ``io.StringIO``) is read as CSV or TSV text.
    format : {"csv", "tsv", "parquet", "excel", "label-studio", "prodigy"}, optional
        The file's format; default: by extension (``.tsv``/``.tab`` TSV, ``.parquet``/``.pq``
        Parquet, ``.xlsx``/``.xlsm``/``.xls`` Excel, ``.json`` a Label Studio export, ``.jsonl``
        Prodigy's), else CSV. A compression suffix (``.gz``, ...) is looked through.
    sep : str, optional
        The field separator of a text file (``"\\t"`` written as two characters is a tab);
        default: by format. Longer than one character, it is a regular expression.
    na_values : iterable of str, optional
        Values of a text file or workbook that mean "not annotated", besides an empty cell and
        (with ``keep_default_na``) pandas' markers (``NA``, ``N/A``, ``null``, ...).
    keep_default_na : bool, default True
        Whether pandas' missing-value markers are missing; ``False`` keeps them as labels.
    from_name, view : str, optional
        Passed to :func:`read_label_studio` and :func:`read_prodigy` (the control tag, the
        interface to read when an export holds several).

    Returns
    -------
    pandas.DataFrame
        The file as pandas reads it (a Parquet file's stored index kept); a tool's export as
        the long frame its reader returns (``item``, ``rater``, ``label``, ...).

    Raises
    ------
    ValueError
        A file that cannot be what ``format`` says (binary data read as text, JSON read as
        CSV, a header that repeats a column name, a one-column parse whose header holds
        another separator, text that is not UTF-8), or options that do not apply to it.
    FileNotFoundError, IsADirectoryError
        ``source`` is not a file.

    Examples
    --------
    >>> import io
    >>> import pdagree
    >>> pdagree.io.read_table(io.StringIO("item;a;b\\n1;x;y\\n"), sep=";")
       item  a  b
    0     1  x  y
    """
    kind = format_of(source) if format is None else format
    if kind not in FORMATS:
        raise ValueError(f"`format` must be one of {', '.join(FORMATS)}; got {kind!r}.")
    na = _na_values(na_values)
    text_options = sep is not None or bool(na) or not keep_default_na
    if not isinstance(source, (str, os.PathLike)):
        name = "standard input" if source is sys.stdin else "the text stream"
        if kind not in ("csv", "tsv"):
            raise ValueError(f"{name} is read as CSV or TSV text, not as {kind}.")
        text = source.read()
        if "\x00" in text[:_SNIFF]:
            raise ValueError(_BINARY.format(name=name))
        _refuse_json(text[:_SNIFF].encode("utf-8", "replace"), name, kind)
        return _read_text(io.StringIO(text), name, kind, sep, na, keep_default_na)
    path = Path(source)
    if not path.exists():
        raise FileNotFoundError(f"no such file: {str(path)!r}")
    if path.is_dir():
        raise IsADirectoryError(f"{str(path)!r} is a directory, not a file of ratings")
    name = repr(str(path))
    if kind in TOOLS:
        if text_options:
            raise ValueError(f"{_TEXT_ONLY} apply to text files, not to a {kind} export.")
        if kind == "label-studio":
            return read_label_studio(path, from_name=from_name)
        return read_prodigy(path, view=view)
    if kind == "excel":
        if sep is not None:
            raise ValueError("`sep` applies to text files, not to Excel workbooks.")
        return _excel(path, na, keep_default_na)
    if kind == "parquet":
        if text_options:
            raise ValueError(f"{_TEXT_ONLY} apply to text files, not to Parquet.")
        return _parquet(path)
    compressed = bool(path.suffixes) and path.suffixes[-1].lower() in _COMPRESSION
    if not compressed:
        with path.open("rb") as handle:
            start = handle.read(_SNIFF)
        if b"\x00" in start:
            raise ValueError(_BINARY.format(name=name))
        _refuse_json(start, name, kind)
    return _read_text(path, name, kind, sep, na, keep_default_na)


def _na_values(values: Iterable[str] | None) -> list[str]:
    if values is None:
        return []
    if isinstance(values, str):
        return [values]
    return list(values)


def _parquet(path: Path) -> pd.DataFrame:
    try:
        importlib.import_module("pyarrow")
    except ImportError:
        raise ImportError(
            "reading Parquet files needs pyarrow, which is not installed; run "
            '`pip install pyarrow` (or `pip install "pdagree[dev]"`).'
        ) from None
    try:
        return pd.read_parquet(path)
    except (ValueError, OSError) as exc:
        raise ValueError(f"cannot read {str(path)!r} as Parquet: {exc}") from None


def _excel(path: Path, na: list[str], keep_default_na: bool) -> pd.DataFrame:
    """The first sheet of an Excel workbook (pandas' reader, through openpyxl)."""
    try:
        importlib.import_module("openpyxl")
    except ImportError:
        raise ImportError(
            'reading Excel workbooks needs openpyxl: pip install "pdagree[excel]".'
        ) from None
    na_options: dict[str, Any] = {"na_values": ["", *na]}
    if not keep_default_na:
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
    source: Path | io.StringIO,
    name: str,
    kind: str,
    given_sep: str | None,
    na: list[str],
    keep_default_na: bool,
) -> pd.DataFrame:
    """A CSV or TSV file; ``name`` says where it came from in messages."""
    if given_sep is not None:
        sep = given_sep.replace("\\t", "\t")
    else:
        sep = "\t" if kind == "tsv" else ","
    na_options: dict[str, Any] = {"na_values": ["", *na]}
    if not keep_default_na:
        na_options["keep_default_na"] = False
    if len(sep) > 1 and sep != "\\s+":  # pandas reads a longer separator as a regex
        try:
            re.compile(sep)
        except re.error as exc:
            raise ValueError(
                f"`sep` {given_sep!r} is not a valid separator: a separator longer than one "
                f"character is a regular expression, and this one is not ({exc}). Pass one "
                "character, e.g. sep=';', or escape it (sep='\\(\\(')."
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
    if given_sep is None and frame.shape[1] == 1:
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
        f"cannot read {name} as {kind.upper()}: it holds JSON ({what}); pass format={tool!r}."
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
                f"{shown}, not {sep!r}. Pass sep={shown}."
            )
