"""Reading a tally file without trusting it (the format: :mod:`._store`).

The archive comment seals a file against accidental damage (a flipped byte, a truncated copy:
:mod:`._store`), not against a deliberate edit: the seal is a checksum anyone can compute
again. So what is read is checked before it is counted, and anything that is not what
:func:`~pdagree.counting._store.write_counts` writes is refused with one ``ValueError``,
"not a readable pdagree tally", naming the file and what is wrong:

- only the known members are read, an unknown one is refused unread; each member's ``.npy``
  header is read first (from the archive member, not the whole member), and its dtype, shape
  and size must be those the header's counters allow and the archive declares, so no array
  is allocated before its size is known to be the size on the disk (a deflated member may
  inflate to at most 1,100 times its compressed size: more than deflate can give);
- the JSON header must have its fields and only those, of their types; keys and labels are
  numbers, text, booleans or tuples of these, nested at most :data:`MAX_DEPTH` deep;
- the count arrays: keys ``int64``, sorted, distinct, within the registries; counts finite
  whole numbers of at least 1; registries without a repeated key; the counters (annotations,
  per label, per group, per item and rater pair) equal to what the arrays add up to; the
  labels readable by the label rules (:func:`._rules.check_labels`).

What passes is internally consistent: every method gives the result of the pandas path on
*some* annotations. Whether those are the annotations that were counted, a file cannot say.
"""

from __future__ import annotations

import itertools
import json
import os
import zipfile
import zlib
from collections.abc import Hashable
from typing import Any

import numpy as np
import pandas as pd

from .._typing import FloatArray, IntArray
from ..encoding import DtypeCategories, LayoutSpec
from ._rules import check_labels
from ._runs import ITEMS, LIMIT, KeyCounts, unpack
from ._store import FORMAT, VERSION, seal
from .state import Counts

__all__ = ["MAX_DEPTH", "read_counts"]

#: Tuples in keys and labels nest at most this deep.
MAX_DEPTH = 16
#: The largest JSON header read (bytes).
MAX_HEADER = 1 << 30
#: A deflated member declaring more than this many times its compressed size is refused:
#: deflate gives at most about 1,032.
MAX_RATIO = 1100
_REGISTRIES = ("items", "groups", "raters", "labels")
_HEADER = {
    "format", "version", "spec", "n_batches", "n_rows", "n_annotations", "n_missing_by",
    "missing_by", "ordered", "registries",
}  # fmt: skip
_SPEC = {"layout", "by", "item", "rater", "label", "raters", "categories", "check_duplicates"}
_INT64 = np.dtype("<i8")
_FLOAT64 = np.dtype("<f8")
_BYTES = np.dtype("u1")


class Unreadable(Exception):
    """What is wrong with a file (becomes the reader's ``ValueError``)."""


class OtherVersion(ValueError):
    """A tally file of another format version."""


def _damaged(path: Any, why: str) -> ValueError:
    return ValueError(
        f"{os.fspath(path)!r} is not a readable pdagree tally ({why}); it may be damaged, "
        "edited or written by something else. Save the tally again."
    )


def read_counts(path: str | os.PathLike[str]) -> Counts:
    """The counts :func:`~pdagree.counting._store.write_counts` wrote to ``path``, checked
    (see the module); a ``ValueError`` for anything else."""
    with open(path, "rb") as handle:  # FileNotFoundError as it is
        try:
            with zipfile.ZipFile(handle) as archive:
                return _read(archive, path)
        except OtherVersion:
            raise
        except Unreadable as exc:
            raise _damaged(path, str(exc)) from None
        except (
            zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, zlib.error,
            ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError,
            NotImplementedError, RuntimeError,
        ) as exc:  # fmt: skip
            raise _damaged(path, f"{type(exc).__name__}: {exc}") from None


# --------------------------------------------------------------------------- members


def _member(
    archive: zipfile.ZipFile, info: zipfile.ZipInfo, kinds: str, most: int
) -> np.ndarray[Any, Any]:
    """One ``.npy`` member, a 1-d array of a dtype of kind among ``kinds`` and at most
    ``most`` values, checked from its header before its values are read."""
    name = info.filename
    if info.flag_bits & 0x1:
        raise Unreadable(f"member {name!r} is marked encrypted")
    if info.compress_type == zipfile.ZIP_STORED:
        if info.file_size != info.compress_size:
            raise Unreadable(
                f"member {name!r} declares {info.file_size:,} bytes, stores {info.compress_size:,}"
            )
    elif info.compress_type == zipfile.ZIP_DEFLATED:
        if info.file_size > MAX_RATIO * info.compress_size + 4096:
            raise Unreadable(f"member {name!r} declares {info.file_size:,} bytes in "
                             f"{info.compress_size:,} compressed")  # fmt: skip
    else:
        raise Unreadable(f"member {name!r} is compressed by method {info.compress_type}")
    with archive.open(info) as handle:
        version = np.lib.format.read_magic(handle)
        if version == (1, 0):
            shape, _, dtype = np.lib.format.read_array_header_1_0(handle)
        elif version == (2, 0):
            shape, _, dtype = np.lib.format.read_array_header_2_0(handle)
        else:
            raise Unreadable(f"member {name!r} is an .npy file of version {version}")
        start = handle.tell()
        if dtype.hasobject or dtype.kind not in kinds or len(shape) != 1 or dtype.shape:
            raise Unreadable(f"member {name!r} holds {dtype} values of shape {shape}")
        n = int(shape[0])
        if n > most:
            raise Unreadable(f"member {name!r} holds {n:,} values, at most {most:,} expected")
        if start + n * dtype.itemsize != info.file_size:
            raise Unreadable(
                f"member {name!r} declares {n:,} values of {dtype.itemsize} bytes and holds "
                f"{info.file_size - start:,} bytes"
            )
        raw = handle.read(n * dtype.itemsize + 1)  # to the end: zipfile checks the CRC-32
    if len(raw) != n * dtype.itemsize:
        raise Unreadable(f"member {name!r} is cut short")
    return np.frombuffer(raw, dtype=dtype).astype(dtype.newbyteorder("="), copy=False)


def _header(archive: zipfile.ZipFile) -> dict[str, Any]:
    try:
        info = archive.getinfo("header.npy")
    except KeyError:
        raise Unreadable("no header") from None
    blob = _member(archive, info, "u", MAX_HEADER)
    if blob.dtype != _BYTES:
        raise Unreadable("the header is not bytes")
    try:
        header = json.loads(blob.tobytes().decode("utf-8"))
    except (ValueError, RecursionError) as exc:
        raise Unreadable(f"the header is not JSON: {type(exc).__name__}") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise Unreadable("not a tally file")
    if header.get("version") != VERSION:
        raise OtherVersion(
            f"{{path}} is a tally of format version {header.get('version')!r}; this pdagree "
            f"reads version {VERSION}. Read it with the pdagree that wrote it and rebuild the "
            "tally from the annotations."
        )
    if set(header) != _HEADER:
        raise Unreadable(f"the header has the fields {sorted(map(str, header))}, not "
                         f"{sorted(_HEADER)}")  # fmt: skip
    return header


# --------------------------------------------------------------------------- JSON values


def _value(value: Any, depth: int = 0) -> Hashable:
    """A key, label or argument from JSON: a number, text, boolean, None or a tuple."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, dict) and set(value) == {"tuple"} and isinstance(value["tuple"], list):
        if depth >= MAX_DEPTH:
            raise Unreadable(f"a tuple nested more than {MAX_DEPTH} deep")
        return tuple(_value(v, depth + 1) for v in value["tuple"])
    raise Unreadable(f"{_short(value)} where a key or label is expected")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise Unreadable(f"{what} is {_short(value)}, not a list")
    return value


def _count(header: dict[str, Any], name: str) -> int:
    value = header[name]
    if type(value) is not int or not 0 <= value < 1 << 53:
        raise Unreadable(f"{name} is {_short(value)}, not a count")
    return value


def _spec(entry: Any) -> LayoutSpec:
    if not isinstance(entry, dict) or not set(entry) <= _SPEC:
        raise Unreadable(f"the arguments are {_short(entry)}")
    arguments: dict[str, Any] = {}
    for key, value in entry.items():
        if key in ("by", "raters", "categories") and value is not None:
            arguments[key] = [_value(v) for v in _list(value, f"`{key}`")]
        else:
            arguments[key] = _value(value)
    try:
        return LayoutSpec.of(**arguments).for_batches()
    except (TypeError, ValueError) as exc:
        raise Unreadable(f"its arguments are refused: {exc}") from None


# --------------------------------------------------------------------------- registries


def _levels(entry: Any, name: str, n_levels: int) -> tuple[list[Hashable], list[dict[str, Any]]]:
    if not isinstance(entry, dict) or set(entry) != {"names", "levels"}:
        raise Unreadable(f"registry {name!r} is {_short(entry)}")
    names = [_value(n) for n in _list(entry["names"], f"{name} names")]
    levels = _list(entry["levels"], f"{name} levels")
    if len(names) != n_levels or len(levels) != n_levels:
        raise Unreadable(f"registry {name!r} has {len(levels)} levels, not {n_levels}")
    for level in levels:
        kind = level.get("kind") if isinstance(level, dict) else None
        keys = {"kind", "dtype", "values"} if kind == "json" else {"kind", "dtype"}
        if kind not in ("array", "text", "json") or set(level) != keys:
            raise Unreadable(f"registry {name!r} has a level {_short(level)}")
        if not isinstance(level["dtype"], str):
            raise Unreadable(f"registry {name!r} has a dtype {_short(level['dtype'])}")
    return names, levels


def _members_of(levels: list[dict[str, Any]], name: str) -> dict[str, str]:
    """The members a registry's levels are stored in, with the dtype kinds allowed."""
    out: dict[str, str] = {}
    for j, level in enumerate(levels):
        if level["kind"] == "array":
            out[f"{name}.{j}"] = "biufM"
        elif level["kind"] == "text":
            out[f"{name}.{j}.bytes"] = "u"
            out[f"{name}.{j}.offsets"] = "i"
    return out


def _level(level: dict[str, Any], name: str, arrays: dict[str, Any], most: int) -> pd.Index:
    kind = level["kind"]
    values: Any
    if kind == "array":
        values = arrays[name]
        if level["dtype"] != str(values.dtype):
            raise Unreadable(f"member {name!r} holds {values.dtype}, the header says "
                             f"{level['dtype']}")  # fmt: skip
        return pd.Index(values, tupleize_cols=False)
    if kind == "text":
        raw, cuts = arrays[f"{name}.bytes"], arrays[f"{name}.offsets"]
        if raw.dtype != _BYTES or cuts.dtype != _INT64 or len(cuts) == 0 or len(cuts) > most + 1:
            raise Unreadable(f"the text of {name!r} is not bytes cut at int64 offsets")
        if cuts[0] != 0 or cuts[-1] != len(raw) or (np.diff(cuts) < 0).any():
            raise Unreadable(f"the offsets of {name!r} do not cut its bytes")
        data = raw.tobytes()
        try:
            values = [data[a:b].decode("utf-8") for a, b in itertools.pairwise(cuts.tolist())]
        except UnicodeDecodeError:
            raise Unreadable(f"the text of {name!r} is not UTF-8") from None
    else:
        values = [_value(v) for v in _list(level["values"], f"{name} values")]
    if len(values) > most:
        raise Unreadable(f"{name!r} holds {len(values):,} keys, at most {most:,} expected")
    try:
        return pd.Index(values, dtype=level["dtype"], tupleize_cols=False)
    except Exception:  # any dtype pandas cannot build: the plain index
        return pd.Index(values, dtype=object, tupleize_cols=False)


def _index(
    names: list[Hashable], levels: list[dict[str, Any]], name: str, arrays: dict[str, Any],
    most: int,
) -> pd.Index:  # fmt: skip
    parts = [_level(e, f"{name}.{j}", arrays, most) for j, e in enumerate(levels)]
    if len({len(p) for p in parts}) > 1:
        raise Unreadable(f"the levels of {name!r} differ in length")
    if len(parts) == 1:
        index = parts[0].rename(names[0])
    else:
        index = pd.MultiIndex.from_arrays(parts, names=names)
    if index.has_duplicates:
        raise Unreadable(f"registry {name!r} repeats a key")
    return index


# --------------------------------------------------------------------------- reading


def _read(archive: zipfile.ZipFile, path: Any) -> Counts:
    infos = archive.infolist()
    names = [info.filename for info in infos]
    if len(set(names)) != len(names):
        raise Unreadable("a member is stored twice")
    try:
        header = _header(archive)
    except OtherVersion as exc:
        raise OtherVersion(str(exc).replace("{path}", repr(os.fspath(path)))) from None
    if archive.comment != seal(archive):
        raise Unreadable("its arrays do not match the checksum written with them")
    spec = _spec(header["spec"])
    n = {key: _count(header, key) for key in
         ("n_batches", "n_rows", "n_annotations", "n_missing_by")}  # fmt: skip
    ordered = header["ordered"]
    if ordered is not None and not isinstance(ordered, bool):
        raise Unreadable(f"ordered is {_short(ordered)}")
    registries = header["registries"]
    wanted = [*_REGISTRIES, *(["dtype"] if ordered is not None else [])]
    if not isinstance(registries, dict) or sorted(registries) != sorted(wanted):
        raise Unreadable(f"the registries are {_short(registries)}")
    by = len(spec.by)
    depth = {"items": by + 1, "groups": max(by, 1), "raters": 1, "labels": 1, "dtype": 1}
    annotations, rows = n["n_annotations"], n["n_rows"]
    most = {
        "items": min(ITEMS - 1, rows), "groups": min(LIMIT - 1, rows) if by else 0,
        "raters": LIMIT - 1, "labels": min(LIMIT - 1, annotations), "dtype": LIMIT - 1,
    }  # fmt: skip
    parsed = {name: _levels(registries[name], name, depth[name]) for name in wanted}
    kinds = {"nik.keys": "i", "nik.counts": "f", "nck.keys": "i", "nck.counts": "f"}
    if spec.check_duplicates:
        kinds["pairs.keys"] = "i"
    for name, (_, levels) in parsed.items():
        kinds.update(_members_of(levels, name))
    stored = {name.removesuffix(".npy"): info for name, info in zip(names, infos, strict=True)}
    stored.pop("header")
    unknown = sorted(set(stored) - set(kinds))
    if unknown or any(not name.endswith(".npy") for name in names):
        raise Unreadable(f"unknown members {unknown[:5] or names[:5]}")
    missing = sorted(set(kinds) - set(stored))
    if missing:
        raise Unreadable(f"members {missing[:5]} are missing")
    arrays: dict[str, Any] = {}
    for name, kind in kinds.items():
        registry = name.split(".")[0]
        if name.endswith(".bytes"):
            bound = 1 << 62  # text: as long as the member the archive declares
        elif registry in most:
            bound = most[registry] + name.endswith(".offsets")
        else:
            bound = annotations
        arrays[name] = _member(archive, stored[name], kind, bound)
    counts = Counts(spec)
    for name in _REGISTRIES:
        index = _index(*parsed[name], name, arrays, most[name])
        registry = getattr(counts, name)
        if name != "labels" and (spec.layout == "long" or name == "groups"):
            index = index.set_names(registry.names)  # the columns the pandas path reads
        elif name == "items" and spec.by:
            index = index.set_names([*spec.by, index.names[-1]])
        registry.runs = [index] if len(index) else []
    if ordered is not None:
        categories = _index(*parsed["dtype"], "dtype", arrays, most["dtype"])
        counts.from_dtype = DtypeCategories(categories, ordered=ordered)
    counts.nik = KeyCounts([_cells(arrays, "nik")])
    counts.nck = KeyCounts([_cells(arrays, "nck")])
    if counts.pairs is not None:
        keys = _keys(arrays["pairs.keys"], "pairs")
        counts.pairs = KeyCounts([(keys, np.ones(len(keys)))])
    counts.n_batches, counts.n_rows = n["n_batches"], rows
    counts.n_annotations, counts.n_missing_by = annotations, n["n_missing_by"]
    counts.missing_by = _missing_by(header["missing_by"], spec, n["n_missing_by"])
    _check_state(counts)
    try:
        check_labels(counts)
    except (TypeError, ValueError) as exc:
        raise Unreadable(f"its labels break the label rules: {exc}") from None
    return counts


def _keys(keys: IntArray, name: str) -> IntArray:
    if keys.dtype != _INT64:
        raise Unreadable(f"the keys of {name!r} are {keys.dtype}, not int64")
    if len(keys) and (keys[0] < 0 or (np.diff(keys) <= 0).any()):
        raise Unreadable(f"the keys of {name!r} are not sorted and distinct")
    return keys


def _cells(arrays: dict[str, Any], name: str) -> tuple[IntArray, FloatArray]:
    keys, counts = _keys(arrays[f"{name}.keys"], name), arrays[f"{name}.counts"]
    if counts.dtype != _FLOAT64 or len(counts) != len(keys):
        raise Unreadable(f"the counts of {name!r} are not one float64 per key")
    if not (np.isfinite(counts).all() and (counts >= 1).all() and (counts % 1 == 0).all()):
        raise Unreadable(f"the counts of {name!r} are not whole numbers of at least 1")
    return keys, counts


def _missing_by(entry: Any, spec: LayoutSpec, n_missing: int) -> dict[Hashable, int]:
    out: dict[Hashable, int] = {}
    for pair in _list(entry, "missing_by"):
        if not (isinstance(pair, list) and len(pair) == 2 and type(pair[1]) is int):
            raise Unreadable(f"missing_by holds {_short(pair)}")
        out[_value(pair[0])] = pair[1]
    values = list(out.values())
    if list(out) != list(spec.by) or any(not 0 <= v <= n_missing for v in values):
        raise Unreadable("the rows left out per `by` column do not match the arguments")
    if spec.by and not max(values, default=0) <= n_missing <= sum(values):
        raise Unreadable("the rows left out per `by` column do not add up")
    return out


def _check_state(counts: Counts) -> None:
    """The arrays within the registries and the counters equal to what they add up to."""
    n_items, n_groups = len(counts.items), len(counts.groups)
    n_raters, n_labels = len(counts.raters), len(counts.labels)
    by = bool(counts.spec.by)
    nik_keys, nik = counts.nik.runs[0]
    item, label = unpack(nik_keys, 2)
    if len(item) and (item[-1] >= n_items or label.max() >= n_labels):
        raise Unreadable("an (item, label) key is outside the registries")
    nck_keys, nck = counts.nck.runs[0]
    group, rater, label_c = unpack(nck_keys, 3)
    if len(group) and (
        group.max() >= max(n_groups, 1) or rater.max() >= n_raters or label_c.max() >= n_labels
    ):
        raise Unreadable("a (group, rater, label) key is outside the registries")
    total = float(counts.n_annotations)
    if nik.sum() != total or nck.sum() != total:
        raise Unreadable(
            f"the header counts {counts.n_annotations:,} annotations, the arrays "
            f"{nik.sum():,.0f} and {nck.sum():,.0f}"
        )
    per_label = np.bincount(label, weights=nik, minlength=n_labels)
    if (per_label != np.bincount(label_c, weights=nck, minlength=n_labels)).any():
        raise Unreadable("the ratings per label differ between the arrays")
    if n_labels and (per_label == 0).any():
        raise Unreadable("a label is registered without a rating")
    if by:
        _check_groups(counts, item, nik, group, nck)
    if counts.pairs is not None:
        pairs = counts.pairs.runs[0][0]
        p_item, p_rater = unpack(pairs, 2)
        if len(pairs) and (p_item[-1] >= n_items or p_rater.max() >= n_raters):
            raise Unreadable("an (item, rater) pair is outside the registries")
        if (
            len(pairs) != counts.n_annotations
            or (np.bincount(p_item, minlength=n_items)
                != np.bincount(item, weights=nik, minlength=n_items)).any()
            or (np.bincount(p_rater, minlength=n_raters)
                != np.bincount(rater, weights=nck, minlength=n_raters)).any()
        ):  # fmt: skip
            raise Unreadable("the (item, rater) pairs do not match the counts")
    if counts.spec.layout == "long" and counts.n_annotations + counts.n_missing_by > counts.n_rows:
        raise Unreadable("more annotations than rows")
    if counts.n_rows and not counts.n_batches:
        raise Unreadable("rows counted in no batch")


def _check_groups(
    counts: Counts, item: IntArray, nik: FloatArray, group: IntArray, nck: FloatArray
) -> None:
    """With ``by=``: the groups are those of the items, and their ratings agree."""
    items, groups = counts.items.index(), counts.groups.index()
    n_by = len(counts.spec.by)
    frame = items.to_frame(index=False).iloc[:, :n_by]
    keys = pd.MultiIndex.from_frame(frame) if n_by > 1 else pd.Index(frame.iloc[:, 0])
    if n_by == 1 and isinstance(groups, pd.MultiIndex):
        raise Unreadable("the groups are not keys of one `by` column")
    of_item = np.asarray(
        (groups if n_by > 1 else pd.Index(groups)).get_indexer(keys), dtype=np.int64
    )
    if (of_item < 0).any() or len(np.unique(of_item)) != len(groups):
        raise Unreadable("the groups are not those of the items")
    per_group = np.bincount(of_item[item], weights=nik, minlength=len(groups))
    if (per_group != np.bincount(group, weights=nck, minlength=len(groups))).any():
        raise Unreadable("the ratings per group differ between the arrays")
