"""``Tally`` files that cannot lie (#26, points 5, 12 and 13).

The seal of a tally file is a checksum anyone can compute again, so these tests edit a saved
file's arrays or header and seal it again exactly as ``Tally.save`` does: each such file is
refused with the reader's "not a readable pdagree tally" error, never loaded into a tally
that gives another number or fails later, and never read into memory its size does not
justify. ``Tally.save`` replaces a file in one step: a save that fails leaves the old file.
"""

from __future__ import annotations

import io
import json
import os
import tracemalloc
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import pdagree
from pdagree import Tally
from pdagree.counting._store import seal

UNREADABLE = "is not a readable pdagree tally"
ARGS = {"item": "item", "rater": "rater", "label": "label"}


def saved(tmp_path: Path, **kwargs: Any) -> tuple[Path, Tally, pd.DataFrame]:
    # Three raters, four items: Fleiss' kappa 1/3 (A_o = 2/3, A_e = 1/2).
    df = pd.DataFrame(
        {
            "item": [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4],
            "rater": ["a", "b", "c"] * 4,
            "label": ["x", "x", "y", "y", "y", "x", "x", "x", "x", "y", "y", "y"],
        }
    )
    tally = Tally(**ARGS, **kwargs).add(df.iloc[:6]).add(df.iloc[6:])
    path = tmp_path / "tally.npz"
    tally.save(path)
    return path, tally, df


def members(path: Path) -> tuple[dict[str, np.ndarray[Any, Any]], dict[str, Any]]:
    with np.load(path, allow_pickle=False) as data:
        arrays = {name: data[name] for name in data.files}
    header = json.loads(arrays.pop("header").tobytes())
    return arrays, header


def reseal(
    path: Path, arrays: dict[str, Any], header: dict[str, Any] | bytes, **extra: Any
) -> Path:
    """Write ``arrays`` and ``header`` as Tally.save does, sealed: a deliberate edit."""
    blob = header if isinstance(header, bytes) else json.dumps(header).encode()
    out = path.with_name("edited.npz")
    with open(out, "wb") as handle:
        np.savez(handle, header=np.frombuffer(blob, dtype=np.uint8), **arrays, **extra)
    with zipfile.ZipFile(out, "a") as archive:
        archive.comment = seal(archive)
    return out


def refused(path: Path, why: str = "") -> None:
    with pytest.raises(ValueError, match=UNREADABLE) as got:
        Tally.load(path)
    assert repr(os.fspath(path)) in str(got.value)
    assert why in str(got.value)


def test_the_untouched_file_loads_and_gives_a_third(tmp_path: Path) -> None:
    path, _, df = saved(tmp_path)
    loaded = Tally.load(path)
    want = df.agree(**ARGS).fleiss()
    assert float(loaded.fleiss()) == pytest.approx(1 / 3) == pytest.approx(float(want))
    arrays, header = members(path)  # written again unchanged, sealed: still a tally
    assert float(Tally.load(reseal(path, arrays, header)).fleiss()) == pytest.approx(1 / 3)


# ------------------------------------------------------------------ point 5: what is read


def _edit_counts(arrays: dict[str, Any], header: dict[str, Any], how: str) -> None:
    nik = arrays["nik.counts"].copy()
    if how == "negative":
        nik[0] = -nik[0]
    elif how == "fractional":
        nik[0] = nik[0] + 0.5
    elif how == "zero":
        nik[0] = 0.0
    elif how == "infinite":
        nik[0] = np.inf
    elif how == "nan":
        nik[0] = np.nan
    arrays["nik.counts"] = nik


@pytest.mark.parametrize("how", ["negative", "fractional", "zero", "infinite", "nan"])
def test_counts_that_are_not_whole_positive_numbers_are_refused(tmp_path: Path, how: str) -> None:
    path, _, _ = saved(tmp_path)
    arrays, header = members(path)
    _edit_counts(arrays, header, how)
    refused(reseal(path, arrays, header), "not whole numbers of at least 1")


def test_keys_repeated_unsorted_out_of_range_or_float_are_refused(tmp_path: Path) -> None:
    path, _, _ = saved(tmp_path)
    arrays, header = members(path)
    keys = arrays["nik.keys"]
    cases = {
        "repeated": np.r_[keys[:1], keys[:-1]],
        "unsorted": keys[::-1].copy(),
        "negative": np.r_[-1, keys[1:]],
    }
    for edited in cases.values():
        refused(reseal(path, {**arrays, "nik.keys": edited}, header), "not sorted and distinct")
    beyond = keys.copy()
    beyond[-1] = (10 << 32) | 0  # item 10 of 4
    refused(reseal(path, {**arrays, "nik.keys": beyond}, header), "outside the registries")
    label = keys.copy()
    label[-1] = (int(keys[-1]) >> 32 << 32) | 7  # label 7 of 2
    refused(reseal(path, {**arrays, "nik.keys": label}, header), "outside the registries")
    refused(reseal(path, {**arrays, "nik.keys": keys.astype(np.float64)}, header), "float64")
    nck = arrays["nck.keys"].copy()
    nck[-1] += 5 << 21  # rater 5 of 3
    refused(reseal(path, {**arrays, "nck.keys": nck}, header), "outside the registries")
    pairs = arrays["pairs.keys"].copy()
    pairs[-1] = (3 << 32) | 9
    refused(reseal(path, {**arrays, "pairs.keys": pairs}, header), "outside the registries")


def test_a_registry_that_repeats_a_label_is_refused(tmp_path: Path) -> None:
    # labels "x" and "y" both read as "x": Fleiss' kappa would be 1.0 on the old reader
    path, _, _ = saved(tmp_path)
    arrays, header = members(path)
    assert arrays["labels.0.bytes"].tobytes() == b"xy"
    arrays["labels.0.bytes"] = np.frombuffer(b"xx", dtype=np.uint8)
    refused(reseal(path, arrays, header), "registry 'labels' repeats a key")
    arrays, header = members(path)
    arrays["raters.0.bytes"] = np.frombuffer(b"aab", dtype=np.uint8)
    refused(reseal(path, arrays, header), "registry 'raters' repeats a key")


def test_counters_that_disagree_with_the_arrays_are_refused(tmp_path: Path) -> None:
    path, _, _ = saved(tmp_path)
    arrays, header = members(path)
    refused(reseal(path, arrays, {**header, "n_annotations": 13}), "counts 13 annotations")
    # the raters' counts moved from one label to the other: the totals still agree
    nck = arrays["nck.counts"].copy()
    nck[0] += 1
    nck[1] -= 1
    nik = arrays["nik.counts"].copy()
    edited = {**arrays, "nck.counts": nck, "nik.counts": nik}
    refused(reseal(path, edited, header), "differ between the arrays")
    # one count doubled in both tensors and the header: the (item, rater) pairs say no
    nik[0] += 1
    nck2 = arrays["nck.counts"].copy()
    nck2[
        int(np.argmax(arrays["nck.keys"] & 0x1FFFFF == (arrays["nik.keys"][0] & 0xFFFFFFFF)))
    ] += 1
    edited = {**arrays, "nik.counts": nik, "nck.counts": nck2}
    refused(reseal(path, edited, {**header, "n_annotations": 13}), "pairs do not match")


def test_groups_that_are_not_the_items_groups_are_refused(tmp_path: Path) -> None:
    df = pd.DataFrame(
        {"item": [1, 1, 2, 2], "rater": ["a", "b"] * 2, "label": ["x", "y", "x", "x"],
         "g": ["u", "u", "v", "v"]}
    )  # fmt: skip
    path = tmp_path / "tally.npz"
    Tally(**ARGS, by="g").add(df).save(path)
    arrays, header = members(path)
    arrays["groups.0.bytes"] = np.frombuffer(b"uw", dtype=np.uint8)
    refused(reseal(path, arrays, header), "groups are not those of the items")
    arrays, header = members(path)
    nck = arrays["nck.keys"].copy()  # group u's ratings moved to group v
    keys = np.sort(np.r_[nck[nck >> 42 == 1], nck[nck >> 42 == 0] + (1 << 42)])
    if len(np.unique(keys)) == len(keys):
        refused(reseal(path, {**arrays, "nck.keys": keys}, header))


def test_labels_that_break_the_label_rules_are_refused(tmp_path: Path) -> None:
    # "1" and 1 in one registry (text and JSON kinds): the pandas path refuses such labels
    path, _, _ = saved(tmp_path)
    arrays, header = members(path)
    del arrays["labels.0.bytes"], arrays["labels.0.offsets"]
    header["registries"]["labels"]["levels"][0] = {
        "kind": "json", "dtype": "object", "values": ["1", 1]
    }  # fmt: skip
    refused(reseal(path, arrays, header), "label rules")


# ------------------------------------------------------------------ point 13: bounded reading


def _npy(shape: tuple[int, ...], dtype: str, payload: bytes) -> bytes:
    out = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        out, {"descr": dtype, "fortran_order": False, "shape": shape}
    )
    return out.getvalue() + payload


def _rezip(path: Path, replace: dict[str, bytes], deflate: set[str] | None = None) -> Path:
    """The file with members replaced or added (raw bytes), sealed again."""
    out = path.with_name("crafted.npz")
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            if info.filename not in replace:
                dst.writestr(info.filename, src.read(info.filename))
        for name, raw in replace.items():
            method = zipfile.ZIP_DEFLATED if deflate and name in deflate else zipfile.ZIP_STORED
            dst.writestr(name, raw, compress_type=method)
    with zipfile.ZipFile(out, "a") as archive:
        archive.comment = seal(archive)
    return out


def test_a_member_declaring_a_huge_shape_is_refused_before_allocating(tmp_path: Path) -> None:
    # 10^12 int64 values declared, 16 bytes stored: numpy would ask for 7.3 TiB
    path, _, _ = saved(tmp_path)
    crafted = _rezip(path, {"nik.keys.npy": _npy((10**12,), "<i8", bytes(16))})
    assert crafted.stat().st_size < 8192
    refused(crafted, "member 'nik.keys.npy' holds 1,000,000,000,000 values")
    refused(_rezip(path, {"nik.keys.npy": _npy((3,), "<i8", bytes(16))}), "holds 16 bytes")
    refused(_rezip(path, {"nik.keys.npy": _npy((2, 2), "<i8", bytes(32))}), "of shape (2, 2)")
    refused(_rezip(path, {"nik.keys.npy": _npy((2,), "|O", bytes(16))}), "holds object")


def test_an_extra_deflated_member_is_refused_unread(tmp_path: Path) -> None:
    # 64 MiB of zeros deflate to 64 KiB: the old reader inflated them before any check
    path, _, _ = saved(tmp_path)
    bomb = _npy((1 << 23,), "<f8", bytes(8 << 23))
    crafted = _rezip(path, {"junk.npy": bomb}, deflate={"junk.npy"})
    assert crafted.stat().st_size < 1 << 20
    tracemalloc.start()
    try:
        refused(crafted, "unknown members ['junk']")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20


def test_a_member_whose_size_disagrees_with_the_archive_is_refused(tmp_path: Path) -> None:
    path, _, _ = saved(tmp_path)
    raw = bytearray(path.read_bytes())
    # the central directory entry of nik.counts.npy: declare 1 GiB uncompressed
    name = b"nik.counts.npy"
    at = raw.find(b"PK\x01\x02")
    while raw[at + 46 : at + 46 + len(name)] != name:
        at = raw.find(b"PK\x01\x02", at + 4)
    raw[at + 24 : at + 28] = (1 << 30).to_bytes(4, "little")
    edited = tmp_path / "sizes.npz"
    edited.write_bytes(bytes(raw))
    with zipfile.ZipFile(edited, "a") as archive:
        archive.comment = seal(archive)
    refused(edited, "declares 1,073,741,824 bytes")


@pytest.mark.parametrize(
    ("edit", "why"),
    [
        (lambda h: h.pop("spec"), "the header has the fields"),
        (lambda h: h.update(extra=1), "the header has the fields"),
        (lambda h: h["spec"].update(colour="red"), "the arguments are"),
        (lambda h: h["spec"].update(layout="counts"), "its arguments are refused"),
        (lambda h: h["spec"].update(item=[1, 2]), "where a key or label is expected"),
        (lambda h: h.update(n_batches="2"), "n_batches is '2', not a count"),
        (lambda h: h.update(n_rows=-1), "n_rows is -1, not a count"),
        (lambda h: h.update(n_rows=True), "n_rows is True, not a count"),
        (lambda h: h.update(registries=[]), "the registries are []"),
        (lambda h: h["registries"].pop("labels"), "the registries are"),
        (lambda h: h["registries"]["labels"].update(levels=[{"kind": "pickle"}]), "a level"),
        (lambda h: h.update(missing_by={"g": 1}), "missing_by is"),
        (lambda h: h.update(ordered="yes"), "ordered is 'yes'"),
    ],
)
def test_a_malformed_header_gets_the_readers_error(tmp_path: Path, edit: Any, why: str) -> None:
    path, _, _ = saved(tmp_path)
    arrays, header = members(path)
    edit(header)
    refused(reseal(path, arrays, header), why)


def test_a_deeply_nested_or_undecodable_header_gets_the_readers_error(tmp_path: Path) -> None:
    path, _, _ = saved(tmp_path)
    arrays, header = members(path)
    deep = json.dumps(header).replace('"item": "item"', '"item": ' + "[" * 100_000 + "]" * 100_000)
    refused(reseal(path, arrays, deep.encode()), "the header is not JSON: RecursionError")
    nested: Any = "x"
    for _ in range(200):  # within JSON's depth, beyond the key's
        nested = {"tuple": [nested]}
    header["spec"]["item"] = nested
    refused(reseal(path, arrays, header), "a tuple nested more than 16 deep")
    refused(reseal(path, arrays, b"\xff\xfe{}"), "the header is not JSON")
    refused(reseal(path, arrays, b"[1, 2]"), "not a tally file")


# ------------------------------------------------------------------ point 12: atomic save


def test_a_failed_save_leaves_the_previous_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, tally, df = saved(tmp_path)
    before = path.read_bytes()
    bigger = Tally.from_frame(df.assign(item=df["item"] + 10), **ARGS) + tally

    def fails_midway(handle: Any, **arrays: Any) -> None:
        handle.write(b"PK\x03\x04 half an archive")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(np, "savez", fails_midway)
    with pytest.raises(OSError, match="No space left"):
        bigger.save(path)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert float(Tally.load(path).fleiss()) == pytest.approx(1 / 3)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tally.npz"]  # no temporary left
    bigger.save(path)  # and a save that succeeds replaces it
    assert Tally.load(path).n_annotations == 24


def test_save_keeps_the_usual_permissions_and_writes_into_the_folder(tmp_path: Path) -> None:
    path, _, _ = saved(tmp_path)
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask
    assert pdagree.Tally.load(os.fspath(path)).n_batches == 2
