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

import contextlib
import hashlib
import json
import os
import secrets
import zipfile
from typing import Any

import numpy as np
import pandas as pd

from ._runs import Registry
from .state import Counts

__all__ = ["FORMAT", "VERSION", "seal", "write_counts"]

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


# --------------------------------------------------------------------------- files


def seal(archive: zipfile.ZipFile) -> bytes:
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
    save = np.savez_compressed if compress else np.savez
    _replace_atomically(path, lambda handle: _write_archive(handle, save, blob, arrays))


def _write_archive(handle: Any, save: Any, blob: Any, arrays: dict[str, Any]) -> None:
    save(handle, header=blob, **arrays)
    handle.seek(0)
    with zipfile.ZipFile(handle, "a") as archive:  # the comment only: the members stay
        archive.comment = seal(archive)


def _replace_atomically(path: str | os.PathLike[str], write: Any) -> None:
    """Call ``write`` on a new file beside ``path``, flush it to the disk, then put it in
    ``path``'s place in one step (``os.replace``): ``path`` holds the old file or the new
    one, never a part of either; a failed write removes the new file and leaves the old."""
    target = os.fspath(path)
    folder, name = os.path.split(os.path.abspath(target))
    while True:
        temporary = os.path.join(folder, f".{name}.{secrets.token_hex(6)}.tmp")
        try:  # mode 0o666 less the umask, as open() gives a new file
            fd = os.open(temporary, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:  # pragma: no cover - 48 random bits taken
            continue
    try:
        with os.fdopen(fd, "w+b") as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _sync_folder(folder)


def _sync_folder(folder: str) -> None:
    """Flush the folder's entry of the replaced file (POSIX; a no-op where folders cannot
    be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - Windows
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - file systems without it
        pass
    finally:
        os.close(fd)
