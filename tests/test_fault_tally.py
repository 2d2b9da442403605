"""Fault finding on ``pdagree.Tally`` (#26): add, merge, save and load on random batches.

Random batches (long or wide, labels of mixed kinds, numbers written as text, missing labels
and ``by`` keys, repeated pairs, Categoricals) are added one by one; every ``add`` either
counts the batch or raises ``ValueError``/``TypeError`` leaving the tally exactly as it was,
and the tally's results equal the pandas path's on the batches it counted. Tallies of a
split of the batches add up to the same results; a saved tally loads back equal; a file with
flipped bytes, cut short, or with arrays or header edited and sealed again as ``save`` seals
is either refused with the reader's error or read into a tally whose methods return or raise
``ValueError``/``TypeError``: no other exception type ever.

CI runs a fixed set of examples; ``PDAGREE_FAULT_EXAMPLES=500 pytest tests/test_fault_tally.py``
searches harder with fresh random examples.
"""

from __future__ import annotations

import json
import os
import warnings
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdagree import Tally
from pdagree.counting._store import seal

_HARD = int(os.environ.get("PDAGREE_FAULT_EXAMPLES", "0"))
SETTINGS = settings(
    max_examples=_HARD or 40,
    deadline=None,
    derandomize=not _HARD,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

LABELS = [
    ["a", "b", "c"],
    [1, 2, 3],
    [1, 2, "2"],
    ["a", 1],
    [True, False],
    [1.5, 2.5, 1],
    ["x", "x ", "X"],
]
METHODS = ["fleiss", "bennett", "gwet", "alpha", "observed", "conger", "bias"]
UNREADABLE = "is not a readable pdagree tally"


@st.composite
def batch(draw: st.DrawFn, layout: str, by: bool) -> pd.DataFrame:
    n_items = draw(st.integers(1, 6))
    raters = ["r0", "r1", "r2", "r3"]
    pool = draw(st.sampled_from(LABELS))
    offset = draw(st.integers(0, 8))
    items = [f"i{offset + j}" if draw(st.booleans()) else offset + j for j in range(n_items)]
    if layout == "wide":
        cells = {
            r: [draw(st.sampled_from([*pool, None])) for _ in range(n_items)] for r in raters[:3]
        }
        out = pd.DataFrame(cells, index=pd.Index(items, name="item"))
        if by:
            out["g"] = [draw(st.sampled_from(["u", "v", None])) for _ in range(n_items)]
        return out
    rows = draw(
        st.lists(
            st.tuples(
                st.sampled_from(items), st.sampled_from(raters), st.sampled_from([*pool, None])
            ),
            min_size=1,
            max_size=12,
            unique_by=lambda t: (t[0], t[1]),
        )
    )
    if draw(st.integers(0, 9)) == 0:  # a pair twice: the batch is refused
        rows.append(rows[0])
    out = pd.DataFrame(rows, columns=["item", "rater", "label"])
    if by:
        group = {i: draw(st.sampled_from(["u", "v", None])) for i in items}
        out["g"] = out["item"].map(group)
    if draw(st.booleans()) and pool in (["a", "b", "c"], [1, 2, 3]):
        out["label"] = pd.Categorical(out["label"], categories=pool, ordered=draw(st.booleans()))
    return out


@st.composite
def scenario(draw: st.DrawFn) -> tuple[dict[str, Any], list[pd.DataFrame]]:
    layout = draw(st.sampled_from(["long", "wide"]))
    by = draw(st.booleans())
    arguments: dict[str, Any] = {"by": "g" if by else None}
    if layout == "long":
        arguments.update(item="item", rater="rater", label="label")
    else:
        arguments["raters"] = ["r0", "r1", "r2"]
    if draw(st.booleans()):
        arguments["check_duplicates"] = False
    return arguments, draw(st.lists(batch(layout, by), min_size=1, max_size=5))


def state(tally: Tally) -> tuple[Any, ...]:
    counts = tally._counts
    arrays = [a.tolist() for name in ("nik", "nck") for a in getattr(counts, name).merged()]
    pairs = None if counts.pairs is None else counts.pairs.merged()[0].tolist()
    registries = [
        getattr(counts, n).index().tolist() for n in ("items", "groups", "raters", "labels")
    ]
    dtype = counts.from_dtype
    return (
        arrays, pairs, registries, counts.n_batches, counts.n_rows, counts.n_annotations,
        counts.n_missing_by, dict(counts.missing_by),
        None if dtype is None else (dtype.categories.tolist(), dtype.ordered),
    )  # fmt: skip


def outcome(call: Any) -> Any:
    """What a call gives: its value (floats, frames) or the type of ValueError/TypeError."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = call()
    except (ValueError, TypeError) as exc:
        return type(exc)
    if isinstance(got, pd.DataFrame):
        return got["value"].to_numpy(dtype=float)
    return np.asarray([float(got)])


def same_outcome(got: Any, want: Any) -> bool:
    if isinstance(got, type) or isinstance(want, type):
        return isinstance(got, type) and isinstance(want, type)
    return bool(got.shape == want.shape and np.allclose(got, want, equal_nan=True, atol=1e-9))


def added(arguments: dict[str, Any], batches: list[pd.DataFrame]) -> tuple[Tally, list[int]]:
    """A tally of ``batches`` and which of them it counted."""
    tally, kept = Tally(**arguments), []
    for j, b in enumerate(batches):
        before = state(tally)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tally.add(b)
        except (ValueError, TypeError):
            assert state(tally) == before  # refused: the tally as it was
            continue
        kept.append(j)
    return tally, kept


def categorical(batches: list[pd.DataFrame]) -> bool:
    return any(isinstance(d, pd.CategoricalDtype) for b in batches for d in b.dtypes)


@SETTINGS
@given(case=scenario())
def test_adding_equals_the_pandas_path_or_refuses_the_batch(
    case: tuple[dict[str, Any], list[pd.DataFrame]],
) -> None:
    arguments, batches = case
    tally, kept = added(arguments, batches)
    for name in METHODS:
        got = outcome(lambda: getattr(tally, name)())  # noqa: B023
        assert got is not None
    if not kept or categorical(batches) or arguments.get("check_duplicates") is False:
        return  # concat of Categoricals changes their dtype; unchecked pairs count twice
    frame = pd.concat([batches[j] for j in kept])
    keys = {k: v for k, v in arguments.items() if k != "check_duplicates"}
    for name in METHODS:
        got = outcome(lambda: getattr(tally, name)())  # noqa: B023
        want = outcome(lambda: getattr(frame.agree(**keys), name)())  # noqa: B023
        if isinstance(want, type) and not isinstance(got, type):
            continue  # the pandas path refuses some frames whole (e.g. one rater in a batch)
        assert same_outcome(got, want), (name, got, want)


@SETTINGS
@given(case=scenario(), cut=st.integers(0, 5))
def test_tallies_of_a_split_add_up(
    case: tuple[dict[str, Any], list[pd.DataFrame]], cut: int
) -> None:
    arguments, batches = case
    tally, kept = added(arguments, batches)
    chosen = [batches[j] for j in kept]
    first, kept_first = added(arguments, chosen[:cut])
    second, kept_second = added(arguments, chosen[cut:])
    if len(kept_first) + len(kept_second) < len(chosen):
        # an unordered Categorical's categories order the labels counted after it, as in a
        # wide frame with a Categorical column ('a' then 1): without it, in the other part,
        # labels of two kinds cannot be ordered and that part refuses the batch
        assert categorical(chosen)
        return
    try:
        merged = first + second
    except (ValueError, TypeError):
        assert arguments.get("check_duplicates") is not False or categorical(chosen)
        return
    for name in ("fleiss", "alpha", "bennett"):
        got = outcome(lambda: getattr(merged, name)())  # noqa: B023
        want = outcome(lambda: getattr(tally, name)())  # noqa: B023
        assert same_outcome(got, want), (name, got, want)


def edit(arrays: dict[str, np.ndarray[Any, Any]], header: dict[str, Any], data: Any) -> None:
    """One random edit of a file's arrays or header."""
    name = data.draw(st.sampled_from(sorted(arrays)))
    values = arrays[name].copy()
    how = data.draw(st.sampled_from(["scale", "shift", "swap", "drop", "repeat", "cast",
                                     "counter", "registry"]))  # fmt: skip
    if how == "scale" and len(values) and values.dtype.kind == "f":
        values = values * data.draw(st.sampled_from([-1, 0, 2, 0.5, np.nan]))
    elif how == "shift" and len(values) and values.dtype.kind in "iu":
        # the shifted value wraps within the member's dtype (uint8 bytes, int64 keys...), as
        # an edit of the file's bytes would: a value the dtype cannot hold is no edit
        at = data.draw(st.integers(0, len(values) - 1))
        bounds = np.iinfo(values.dtype)
        shifted = int(values[at]) + data.draw(st.integers(-3, 1 << 33)) - bounds.min
        values[at] = shifted % (bounds.max - bounds.min + 1) + bounds.min
    elif how == "swap" and len(values) > 1:
        values = values[::-1].copy()
    elif how == "drop" and len(values):
        values = values[1:]
    elif how == "repeat" and len(values):
        values = np.r_[values[:1], values]
    elif how == "cast":
        values = values.astype(np.float64)
    elif how == "counter":
        key = data.draw(st.sampled_from(["n_batches", "n_rows", "n_annotations",
                                         "n_missing_by"]))  # fmt: skip
        header[key] = header[key] + data.draw(st.sampled_from([-1, 1, 10**12]))
    elif how == "registry":
        level = header["registries"]["labels"]["levels"][0]
        level.update(kind="json", dtype="object", values=[1, "1", 1.0][: data.draw(st.integers(
            0, 3))])  # fmt: skip
    arrays[name] = values


def reseal(path: Path, arrays: dict[str, Any], header: dict[str, Any]) -> Path:
    out = path.with_name("edited.npz")
    blob = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
    with open(out, "wb") as handle:
        np.savez(handle, header=blob, **arrays)
    with zipfile.ZipFile(out, "a") as archive:
        archive.comment = seal(archive)
    return out


def loaded_or_refused(path: Path) -> Tally | None:
    try:
        return Tally.load(path)
    except ValueError as exc:
        assert UNREADABLE in str(exc) or "format version" in str(exc), str(exc)
        return None


@SETTINGS
@given(case=scenario(), compress=st.booleans(), data=st.data())
def test_saved_files_load_back_and_damaged_ones_are_refused(
    tmp_path_factory: pytest.TempPathFactory,
    case: tuple[dict[str, Any], list[pd.DataFrame]],
    compress: bool,
    data: Any,
) -> None:
    arguments, batches = case
    tally, _ = added(arguments, batches)
    folder = tmp_path_factory.mktemp("files")
    path = folder / "t.npz"
    try:
        tally.save(path, compress=compress)
    except TypeError:
        return  # keys without a safe form (refused when saving, as documented)
    loaded = Tally.load(path)
    assert state(loaded) == state(tally)
    want = {name: outcome(lambda: getattr(tally, name)()) for name in METHODS[:4]}  # noqa: B023
    raw = bytearray(path.read_bytes())
    # flipped bytes: refused, or (metadata nobody reads) the same tally
    for _ in range(3):
        at = data.draw(st.integers(0, len(raw) - 1))
        flipped = raw.copy()
        flipped[at] ^= data.draw(st.integers(1, 255))
        (folder / "flipped.npz").write_bytes(bytes(flipped))
        got = loaded_or_refused(folder / "flipped.npz")
        if got is not None:
            assert state(got) == state(tally)
    # cut short: refused
    cut = data.draw(st.integers(0, len(raw) - 1))
    (folder / "cut.npz").write_bytes(bytes(raw[:cut]))
    assert loaded_or_refused(folder / "cut.npz") is None
    # arrays or header edited and sealed again: refused, or methods that return or raise
    # ValueError/TypeError
    with np.load(path, allow_pickle=False) as stored:
        arrays = {name: stored[name] for name in stored.files}
    header = json.loads(arrays.pop("header").tobytes())
    edit(arrays, header, data)
    got = loaded_or_refused(reseal(path, arrays, header))
    if got is not None:
        for name in METHODS:
            outcome(lambda: getattr(got, name)())  # noqa: B023
    for name, value in want.items():
        assert same_outcome(outcome(lambda: getattr(loaded, name)()), value)  # noqa: B023
