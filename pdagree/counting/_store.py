"""A tally's counts in a file: ``.npz`` arrays and a JSON header, never pickle.

Format ``pdagree.Tally`` version 1, one ``.npz`` archive (``numpy.savez``, or
``numpy.savez_compressed`` with ``compress=True``) read with ``allow_pickle=False``:

- ``header``: UTF-8 JSON as ``uint8``: ``format``, ``version``, the tally's arguments, its
  counters and the kinds of the key arrays below;
- ``nik.keys``, ``nik.counts``, ``nck.keys``, ``nck.counts``, ``pairs.keys``: the count
  runs (:mod:`._runs`), merged;
- per registry (``items``, ``groups``, ``raters``, ``labels``, and ``dtype`` for the labels'
  Categorical categories) and level ``j``: ``<name>.<j>``, the keys as a NumPy array of
  numbers, or as UTF-8 bytes (``<name>.<j>.bytes``) cut at ``<name>.<j>.offsets`` when they
  are text; keys that mix kinds (numbers and text) are kept in the header as JSON.

The archive's comment seals it: ``pdagree.Tally sha256:`` and the digest of every member's
name, size and CRC-32. zipfile checks each member's bytes against its CRC-32 when it reads
them, so a damaged member, and a file whose arrays were changed and written again, are refused
without hashing the arrays a second time.

Keys, column names and labels must be numbers, booleans, text, dates, or tuples of these;
anything else is refused when saving, naming it.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import zipfile
from typing import Any

import numpy as np
import pandas as pd

from ..encoding._labels import DtypeCategories
from ._runs import KeyCounts, Registry
from .spec import Spec
from .state import Counts

__all__ = ["FORMAT", "VERSION", "read_counts", "write_counts"]

FORMAT = "pdagree.Tally"
VERSION = 1


# --------------------------------------------------------------------------- JSON values


def _to_json(value: Any, what: str) -> Any:
    if isinstance(value, tuple):
        return {"tuple": [_to_json(v, what) for v in value]}
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(
        f"a tally is saved without pickle, so {what} must be numbers, text, booleans or "
        f"tuples of these; got {value!r} ({type(value).__name__})."
    )


def _from_json(value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {"tuple"}:
        return tuple(_from_json(v) for v in value["tuple"])
    if isinstance(value, list):
        return [_from_json(v) for v in value]
    return value


# --------------------------------------------------------------------------- key arrays


def _put_level(
    values: pd.Index, name: str, arrays: dict[str, np.ndarray[Any, Any]], what: str
) -> dict[str, Any]:
    """Store one level of keys in ``arrays``; return its description for the header."""
    dtype = str(values.dtype)
    kind = values.dtype.kind
    if kind in "biufM" and not isinstance(values.dtype, pd.api.extensions.ExtensionDtype):
        arrays[name] = np.asarray(values)
        return {"kind": "array", "dtype": dtype}
    items = values.tolist()
    if all(isinstance(v, str) for v in items):
        encoded = [v.encode("utf-8") for v in items]
        lengths = np.fromiter((len(b) for b in encoded), dtype=np.int64, count=len(encoded))
        arrays[f"{name}.bytes"] = np.frombuffer(b"".join(encoded), dtype=np.uint8)
        arrays[f"{name}.offsets"] = np.concatenate([[0], np.cumsum(lengths)])
        return {"kind": "text", "dtype": dtype}
    return {"kind": "json", "dtype": dtype, "values": [_to_json(v, what) for v in items]}


def _get_level(entry: dict[str, Any], name: str, data: Any) -> pd.Index:
    kind = entry["kind"]
    if kind == "array":
        values: Any = data[name]
    elif kind == "text":
        raw = data[f"{name}.bytes"].tobytes()
        cuts = data[f"{name}.offsets"]
        values = [raw[a:b].decode("utf-8") for a, b in itertools.pairwise(cuts)]
    else:
        values = [_from_json(v) for v in entry["values"]]
    try:
        return pd.Index(values, dtype=entry["dtype"], tupleize_cols=False)
    except (TypeError, ValueError):
        return pd.Index(values, tupleize_cols=False)


def _put_index(
    index: pd.Index, name: str, arrays: dict[str, np.ndarray[Any, Any]], what: str
) -> dict[str, Any]:
    if isinstance(index, pd.MultiIndex):
        levels = [index.get_level_values(j) for j in range(index.nlevels)]
    else:
        levels = [index]
    names = [_to_json(n, "column names") for n in index.names]
    described = [_put_level(v, f"{name}.{j}", arrays, what) for j, v in enumerate(levels)]
    return {"names": names, "levels": described}


def _get_index(entry: dict[str, Any], name: str, data: Any) -> pd.Index:
    levels = [_get_level(e, f"{name}.{j}", data) for j, e in enumerate(entry["levels"])]
    names = [_from_json(n) for n in entry["names"]]
    if len(levels) == 1:
        return levels[0].rename(names[0])
    return pd.MultiIndex.from_arrays(levels, names=names)


# --------------------------------------------------------------------------- files


def _seal(archive: zipfile.ZipFile) -> bytes:
    """The archive comment that seals its members: a digest of their names, sizes and
    CRC-32s (the CRCs zipfile checks the bytes against on every read)."""
    h = hashlib.sha256()
    for info in sorted(archive.infolist(), key=lambda member: member.filename):
        h.update(f"{info.filename}|{info.file_size}|{info.CRC}\n".encode())
    return f"{FORMAT} sha256:{h.hexdigest()}".encode()


def write_counts(counts: Counts, path: str | os.PathLike[str], compress: bool = False) -> None:
    """Write ``counts`` to ``path`` (see the module for the format)."""
    arrays: dict[str, np.ndarray[Any, Any]] = {}
    registries: dict[str, Any] = {}
    for name, what in (
        ("items", "items"), ("groups", "`by` keys"), ("raters", "raters"), ("labels", "labels"),
    ):  # fmt: skip
        registry: Registry = getattr(counts, name)
        registries[name] = _put_index(registry.index(), name, arrays, what)
    dtype = counts.from_dtype
    if dtype is not None:
        registries["dtype"] = _put_index(dtype.categories, "dtype", arrays, "categories")
    for name in ("nik", "nck"):
        keys, values = getattr(counts, name).merged()
        arrays[f"{name}.keys"], arrays[f"{name}.counts"] = keys, values
    if counts.pairs is not None:
        arrays["pairs.keys"] = counts.pairs.merged()[0]
    spec: dict[str, Any] = {}
    for key, value in counts.spec.arguments().items():
        if isinstance(value, list):
            spec[key] = [_to_json(v, f"`{key}`") for v in value]
        else:
            spec[key] = _to_json(value, f"`{key}`")
    header = {
        "format": FORMAT,
        "version": VERSION,
        "spec": spec,
        "n_batches": counts.n_batches,
        "n_rows": counts.n_rows,
        "n_annotations": counts.n_annotations,
        "n_missing_by": counts.n_missing_by,
        "missing_by": [[_to_json(c, "`by`"), n] for c, n in counts.missing_by.items()],
        "ordered": None if dtype is None else dtype.ordered,
        "registries": registries,
    }
    blob = np.frombuffer(json.dumps(header).encode("utf-8"), dtype=np.uint8)
    with open(path, "wb") as handle:
        save = np.savez_compressed if compress else np.savez
        save(handle, header=blob, **arrays)  # type: ignore[arg-type]
    with zipfile.ZipFile(path, "a") as archive:  # the comment only: the members stay
        archive.comment = _seal(archive)


def _damaged(path: Any, why: str) -> ValueError:
    return ValueError(
        f"{os.fspath(path)!r} is not a readable pdagree tally ({why}); it may be damaged or "
        "written by something else. Save the tally again."
    )


def read_counts(path: str | os.PathLike[str]) -> Counts:
    """The counts :func:`write_counts` wrote to ``path``."""
    with open(path, "rb") as handle:  # FileNotFoundError as it is
        try:
            with zipfile.ZipFile(handle) as archive:
                sealed = archive.comment == _seal(archive)
            handle.seek(0)
            with np.load(handle, allow_pickle=False) as data:  # each member's CRC-32 checked
                members = {name: data[name] for name in data.files}
        except (zipfile.BadZipFile, EOFError, OSError, ValueError, KeyError) as exc:
            raise _damaged(path, f"{type(exc).__name__}: {exc}") from None
    try:
        header = json.loads(members.pop("header").tobytes().decode("utf-8"))
    except (KeyError, ValueError) as exc:
        raise _damaged(path, "no header") from exc
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise _damaged(path, "not a tally file")
    if header.get("version") != VERSION:
        raise ValueError(
            f"{os.fspath(path)!r} is a tally of format version {header.get('version')!r}; "
            f"this pdagree reads version {VERSION}. Read it with the pdagree that wrote it and "
            "rebuild the tally from the annotations."
        )
    if not sealed:
        raise _damaged(path, "its arrays do not match the checksum written with them")
    arguments: dict[str, Any] = {k: _from_json(v) for k, v in header["spec"].items()}
    counts = Counts(Spec.of(**arguments))
    registries = header["registries"]
    for name in ("items", "groups", "raters", "labels"):
        index = _get_index(registries[name], name, members)
        registry: Registry = getattr(counts, name)
        registry.runs = [index] if len(index) else []
    if header["ordered"] is not None:
        categories = _get_index(registries["dtype"], "dtype", members)
        counts.from_dtype = DtypeCategories(categories, ordered=bool(header["ordered"]))
    counts.nik = KeyCounts([(members["nik.keys"], members["nik.counts"])])
    counts.nck = KeyCounts([(members["nck.keys"], members["nck.counts"])])
    if counts.pairs is not None:
        counts.pairs = KeyCounts([(members["pairs.keys"], np.ones(len(members["pairs.keys"])))])
    counts.n_batches = int(header["n_batches"])
    counts.n_rows = int(header["n_rows"])
    counts.n_annotations = int(header["n_annotations"])
    counts.n_missing_by = int(header["n_missing_by"])
    counts.missing_by = {_from_json(c): int(n) for c, n in header["missing_by"]}
    return counts
