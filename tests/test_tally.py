"""``pdagree.Tally``: batches added in any order, split anywhere and merged in any tree give
the pandas path's results on the concatenated frame (issue #20, points 1-3).

The reference is always ``pd.concat(batches).agree(...)`` with the same arguments, compared to
1e-12 (coefficients, their analytic standard errors, intervals and p-values, the breakdowns of
counts); the files are checked for round trips and refused when foreign, damaged or of
another version.
"""

from __future__ import annotations

import itertools
import warnings
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pdagree
from pdagree import Tally
from pdagree.tensors.count_data import AnnotationsNeeded

#: Coefficients whose values read counts alone, and those whose analytic variance does too.
COUNT_COEFFICIENTS = ["observed", "bennett", "fleiss", "conger", "gwet", "alpha", "spa", "bias"]
ANALYTIC = ["observed", "bennett", "fleiss", "gwet", "alpha"]
BREAKDOWNS = ["counts", "frequencies", "per_category"]


def same(got: Any, want: Any) -> None:
    if isinstance(want, pd.DataFrame):
        pd.testing.assert_frame_equal(got, want, rtol=1e-12, atol=1e-12)
    elif isinstance(want, (pd.Series, dict)):
        assert type(got) is type(want)
    else:
        assert type(got) is type(want)
        np.testing.assert_allclose(float(got), float(want), rtol=1e-12, atol=1e-12)
        for key in ("observed", "expected", "n_items", "n_raters", "n_categories"):
            np.testing.assert_allclose(getattr(got, key), getattr(want, key), rtol=1e-12)
        assert got.name == want.name and got.categories == want.categories


def frame(seed: int, n: int = 400, labels: Any = None, n_items: int = 60) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    labels = [1, 2, 3, None] if labels is None else labels
    out = pd.DataFrame(
        {
            "item": rng.integers(0, n_items, n),
            "rater": rng.choice([f"r{i}" for i in range(5)], n),
            "label": rng.choice(np.array(labels, dtype=object), n),
            "g": rng.choice(["x", "y", "z"], n, p=[0.6, 0.3, 0.1]),
        }
    )
    return out.drop_duplicates(["item", "rater"]).reset_index(drop=True)


def batches(df: pd.DataFrame, cuts: list[int], order: list[int]) -> list[pd.DataFrame]:
    bounds = [0, *sorted(min(c, len(df)) for c in cuts), len(df)]
    parts = [df.iloc[a:b] for a, b in itertools.pairwise(bounds)]
    return [parts[i % len(parts)] for i in order] if order else parts


def check_all(tally: Tally, want: pdagree.Ratings, by: str | None) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # undefined statistics warn on both sides alike
        _check_all(tally, want, by)


def _check_all(tally: Tally, want: pdagree.Ratings, by: str | None) -> None:
    for name in COUNT_COEFFICIENTS:
        same(getattr(tally, name)(), getattr(want, name)())
    for name in ANALYTIC:
        got = getattr(tally, name)(confidence_level=0.9)
        ref = getattr(want, name)(confidence_level=0.9)
        if by is None:
            for member in ("se", "low", "high"):
                np.testing.assert_allclose(getattr(got, member), getattr(ref, member), atol=1e-12)
            np.testing.assert_allclose(got.p_value(), ref.p_value(), atol=1e-12)
        else:
            same(got, ref)
    for name in BREAKDOWNS:
        same(getattr(tally, name)(), getattr(want, name)())


@pytest.mark.parametrize("by", [None, "g"])
def test_batches_in_any_order_equal_the_concatenated_frame(by: str | None) -> None:
    df = frame(0).sample(frac=1.0, random_state=1)  # items straddle the batches
    parts = batches(df, [50, 51, 51, 180, 300], [])  # an empty batch among them
    tally = Tally(item="item", rater="rater", label="label", by=by)
    for part in parts[::-1]:
        tally.add(part)
    want = pd.concat(parts).agree(item="item", rater="rater", label="label", by=by)
    check_all(tally, want, by)
    assert tally.n_batches == len(parts)
    assert tally.n_annotations == int(df["label"].notna().sum())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    cuts=st.lists(st.integers(0, 200), max_size=6),
    tree=st.lists(st.integers(0, 100), max_size=6),
    by=st.sampled_from([None, "g"]),
)
def test_random_batches_merged_in_random_trees(
    seed: int, cuts: list[int], tree: list[int], by: str | None
) -> None:
    # Later batches bring labels the earlier ones did not have: the categories grow.
    df = frame(seed, n=200, labels=[1, 2, 3, 4, 7, None], n_items=30)
    df = df.sort_values("label", key=lambda s: s.fillna(0)).reset_index(drop=True)
    parts = batches(df, cuts, [])
    tallies = [
        Tally.from_frame(p, item="item", rater="rater", label="label", by=by) for p in parts
    ]
    for pick in tree:  # merge two tallies chosen by the draw until one is left
        if len(tallies) < 2:
            break
        i = pick % (len(tallies) - 1)
        tallies[i : i + 2] = [tallies[i] + tallies[i + 1]]
    tally = tallies[0]
    for other in tallies[1:]:
        tally = other + tally
    want = df.agree(item="item", rater="rater", label="label", by=by)
    check_all(tally, want, by)


def test_a_wide_frame_in_batches() -> None:
    rng = np.random.default_rng(3)
    wide = pd.DataFrame(rng.choice(np.array(["a", "b", "c", None], dtype=object), (40, 4)))
    wide.columns = ["w", "x", "y", "z"]
    wide["g"] = rng.choice(["p", "q"], 40)
    for by in (None, "g"):
        tally = Tally(by=by)
        for part in (wide.iloc[:10], wide.iloc[10:11], wide.iloc[11:]):
            tally.add(part)
        want = wide.agree(by=by) if by else wide.drop(columns="g").agree()
        if by is None:
            tally = Tally.from_frame(wide.drop(columns="g"))
        for name in ("fleiss", "alpha", "gwet", "bias"):
            same(getattr(tally, name)(), getattr(want, name)())


def test_a_pair_seen_in_two_batches_is_refused_unless_unchecked() -> None:
    df = frame(4).dropna(subset=["label"])
    first, second = df.iloc[:100], df.iloc[[0]].assign(label=9)
    tally = Tally.from_frame(first, item="item", rater="rater", label="label")
    before = tally.fleiss()
    pair = (int(df["item"].iloc[0]), df["rater"].iloc[0])
    with pytest.raises(ValueError) as got:
        tally.add(second)
    # #26: a pair seen in an earlier batch is named as counted already, not "more than one
    # label" (the batch may carry the same label, as a batch added twice does)
    assert str(got.value) == (
        f"1 (item, rater) pairs were counted already, e.g. [{pair!r}]: the tally holds an "
        "annotation of each from an earlier batch (or from both tallies added), as a batch "
        "added twice gives. Leave those annotations out of the batch (or rebuild the tally "
        "without the repeated batch); with `check_duplicates=False` a repeated pair is "
        "counted as a new annotation."
    )
    with pytest.raises(ValueError, match=r"5 \(item, rater\) pairs were counted already"):
        tally.add(first.iloc[:5])  # the same batch again
    same(tally.fleiss(), before)  # the refused batch left the tally as it was
    assert tally.n_batches == 1
    loose = Tally.from_frame(first, item="item", rater="rater", label="label",
                             check_duplicates=False)  # fmt: skip
    loose.add(second)  # counted twice, as documented
    assert loose.n_annotations == tally.n_annotations + 1
    with pytest.raises(ValueError, match="more than one label"):
        loose.add(pd.concat([second, second.assign(label=8)]))  # within a batch: checked


def test_a_declared_scale_refuses_a_new_label_naming_it() -> None:
    tally = Tally(item="item", rater="rater", label="label", categories=[1, 2, 3])
    tally.add(frame(5, labels=[1, 2, 3]))
    with pytest.raises(ValueError, match=r"labels missing from `categories`, e\.g\. \[7\]"):
        tally.add(frame(6, labels=[1, 7]).assign(item=lambda d: d["item"] + 1000))
    assert tally.n_batches == 1


def test_what_counts_cannot_give_says_so() -> None:
    tally = Tally.from_frame(frame(7), item="item", rater="rater", label="label")
    for call in (
        lambda: tally.light(),
        lambda: tally.pairwise(),
        lambda: tally.conger(confidence_level=0.95),
        lambda: tally.fleiss(confidence_level=0.95, method="bootstrap"),
        lambda: tally.fleiss().confidence_interval(method="bootstrap"),
        lambda: tally.irt(),
    ):
        with pytest.raises(AnnotationsNeeded, match=r"pd.concat\(batches\).agree"):
            call()
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        tally.nonsense  # noqa: B018
    with pytest.raises(ValueError, match="nothing is counted yet"):
        Tally(item="item", rater="rater", label="label").fleiss()
    with pytest.raises(ValueError, match="tallies of different arguments"):
        _ = tally + Tally.from_frame(frame(7), item="item", rater="rater", label="label", by="g")
    with pytest.raises(TypeError, match="a batch is a pandas DataFrame"):
        tally.add([1, 2])
    with pytest.raises(TypeError, match="counts table is counted already"):
        Tally(layout="counts")


def test_repr_and_arguments() -> None:
    tally = Tally(item="item", rater="rater", label="label", by="g")
    tally.add(frame(8).iloc[:50]).add(frame(8).iloc[50:120])
    text = repr(tally)
    assert text.startswith("Tally(") and "2 batches" in text and "groups" in text
    assert tally.arguments["by"] == ["g"] and tally.arguments["item"] == "item"
    html = tally._repr_html_()
    assert "<caption>Tally</caption>" in html and ">2<" in html and "by=[&#x27;g&#x27;]" in html


# --------------------------------------------------------------------------- files


@pytest.mark.parametrize("by", [None, "g"])
def test_save_and_load_round_trip(tmp_path: Path, by: str | None) -> None:
    df = frame(9, labels=["neg", "pos", "neu", None])
    df["g"] = np.where(df.index % 2 == 0, "x", "y")
    df["item"] = "doc-" + df["item"].astype(str)  # text keys
    tally = Tally(item="item", rater="rater", label="label", by=by)
    tally.add(df.iloc[:100]).add(df.iloc[100:])
    path = tmp_path / "tally.npz"
    tally.save(path)
    loaded = Tally.load(path)
    assert repr(loaded) == repr(tally)
    for name in ("fleiss", "alpha", "bias", "counts"):
        same(getattr(loaded, name)(), getattr(tally, name)())
    loaded.add(df.iloc[:0])
    with pytest.raises(ValueError, match="pairs were counted already"):
        loaded.add(df.iloc[:5])  # the pairs were saved too


def test_numbers_categoricals_and_tuples_survive_the_file(tmp_path: Path) -> None:
    df = frame(10)
    df["label"] = pd.Categorical(df["label"], categories=[3, 2, 1], ordered=True)
    df["item"] = list(zip(df["item"], df["item"] % 3, strict=True))  # tuple keys
    tally = Tally.from_frame(df, item="item", rater="rater", label="label")
    tally.save(tmp_path / "t.npz")
    loaded = Tally.load(tmp_path / "t.npz")
    same(loaded.alpha(level="ordinal"), df.agree(item="item", rater="rater", label="label")
         .alpha(level="ordinal"))  # fmt: skip


def test_foreign_damaged_and_other_version_files_are_refused(tmp_path: Path) -> None:
    tally = Tally.from_frame(frame(11), item="item", rater="rater", label="label")
    path = tmp_path / "t.npz"
    tally.save(path)
    # another version: rewrite the header
    with np.load(path) as data:
        members = {k: data[k] for k in data.files}
    import json

    header = json.loads(members["header"].tobytes())
    header["version"] = 99
    members["header"] = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
    np.savez(tmp_path / "v99.npz", **members)
    with pytest.raises(ValueError, match="format version 99; this pdagree reads version 1"):
        Tally.load(tmp_path / "v99.npz")
    # changed arrays: the checksum says so
    header["version"] = 1
    members["header"] = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
    members["nik.counts"] = members["nik.counts"] * 2
    np.savez(tmp_path / "changed.npz", **members)
    with pytest.raises(ValueError, match="do not match the checksum"):
        Tally.load(tmp_path / "changed.npz")
    # a truncated file, a foreign archive, a file that is not an archive
    raw = path.read_bytes()
    (tmp_path / "cut.npz").write_bytes(raw[: len(raw) // 2])
    np.savez(tmp_path / "foreign.npz", x=np.arange(3))
    (tmp_path / "text.npz").write_text("hello")
    for name in ("cut.npz", "foreign.npz", "text.npz"):
        with pytest.raises(ValueError, match="not a readable pdagree tally"):
            Tally.load(tmp_path / name)
    with pytest.raises(FileNotFoundError):
        Tally.load(tmp_path / "absent.npz")
    assert zipfile.is_zipfile(path)  # a plain .npz: numpy reads it without pdagree


def test_objects_without_a_safe_form_are_refused_when_saving(tmp_path: Path) -> None:
    df = frame(12)
    df["item"] = [frozenset([i]) for i in df["item"]]
    tally = Tally.from_frame(df, item="item", rater="rater", label="label")
    with pytest.raises(TypeError, match=r"saved without pickle.*frozenset"):
        tally.save(tmp_path / "t.npz")


# ------------------------------------------------------------------ rows of counts


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    shards=st.integers(1, 5),
    by=st.sampled_from([None, "g"]),
    layout=st.sampled_from(["long", "wide"]),
)
def test_rows_of_counts_with_multiplicities_equal_the_items(
    seed: int, shards: int, by: str | None, layout: str
) -> None:
    # What the Dask client keeps by default (issue #20, point 5): each group's distinct rows
    # of counts and how many items have them, added shard by shard.
    from pdagree.count_ratings import ROW_METHODS, CountRatings
    from pdagree.counting import Counts, Spec
    from pdagree.counting.profiles import Profiles
    from pdagree.tensors.count_data import count_data, profile_data

    df = frame(seed, n=300, labels=[1, 2, 3, 9, None], n_items=80)
    if layout == "long":
        arguments: dict[str, Any] = {"item": "item", "rater": "rater", "label": "label", "by": by}
    else:
        df = df.pivot(index="item", columns="rater", values="label")
        df.columns.name = None
        raters = list(df.columns)
        df["g"] = np.where(df.index % 3 == 0, "x", "y")
        arguments = {"by": by, "raters": raters}
    spec = Spec.of(**arguments)
    counts = Counts.of_frame(df, spec, one_frame=True)
    profiles = Profiles(spec)
    for shard in counts.shards(shards):
        profiles.absorb(Profiles.of(shard.without_pairs()))
    rows, items = CountRatings(profile_data(profiles)), CountRatings(count_data(counts))
    assert rows._data.n_items == items._data.n_items
    assert len(rows._data.enc.items) <= len(items._data.enc.items)
    for name in sorted(ROW_METHODS - {"report", "frequencies", "cohen", "scott"}):
        for options in ({}, {"weights": "quadratic"}):
            if name == "bias" and options:
                continue
            check_all_close(getattr(rows, name), getattr(items, name), options, by)
    same(rows.frequencies(), items.frequencies())


def check_all_close(mine: Any, theirs: Any, options: dict[str, Any], by: str | None) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        level = {} if mine.__name__ in ("bias", "conger") else {"confidence_level": 0.9}
        got, want = mine(**options, **level), theirs(**options, **level)
    if by is None:
        np.testing.assert_allclose(float(got), float(want), rtol=1e-12, atol=1e-12)
        for member in ("se", "n_items", "observed", "expected"):
            if hasattr(want, member):
                np.testing.assert_allclose(getattr(got, member), getattr(want, member),
                                           rtol=1e-10, atol=1e-12)  # fmt: skip
    else:
        pd.testing.assert_frame_equal(got, want, rtol=1e-10, atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), top=st.sampled_from([3, 50, 10**9]), width=st.integers(1, 6))
def test_distinct_rows_packed_and_compared_agree(seed: int, top: int, width: int) -> None:
    from pdagree.counting.profiles import distinct_rows

    rng = np.random.default_rng(seed)
    group = rng.integers(0, 3, 200)
    rows = rng.integers(0, top, (200, width)).astype(np.float64)
    rows[::7] = rows[3]  # repeats across groups
    weight = rng.integers(1, 5, 200).astype(np.float64)
    g, r, w = distinct_rows(group, rows, weight)
    want: dict[tuple[float, ...], float] = {}
    for gi, ri, wi in zip(group, rows, weight, strict=True):
        key = (float(gi), *ri.tolist())
        want[key] = want.get(key, 0.0) + wi
    got = {(float(gi), *ri.tolist()): wi for gi, ri, wi in zip(g, r, w, strict=True)}
    assert got == want


def test_a_flipped_byte_inside_an_array_is_refused(tmp_path: Path) -> None:
    # Each member's CRC-32, which zipfile checks on reading, catches damage the archive's
    # structure does not show; the sealed comment catches arrays written again.
    tally = Tally.from_frame(frame(13), item="item", rater="rater", label="label")
    path = tmp_path / "t.npz"
    tally.save(path)
    raw = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo("nik.counts.npy")
    at = info.header_offset + 30 + len(info.filename) + len(info.extra) + info.file_size // 2
    raw[at] ^= 0xFF
    (tmp_path / "flipped.npz").write_bytes(bytes(raw))
    with pytest.raises(ValueError, match="not a readable pdagree tally"):
        Tally.load(tmp_path / "flipped.npz")


@pytest.mark.parametrize("by", [None, "g"])
def test_labels_equal_as_values_across_batches_are_one_category(
    tmp_path: Path, by: str | None
) -> None:
    # 1 then True, 0 then False: pandas' object factorizing (and so the concatenated frame)
    # takes them as one label; an int64 registry looked True up as new and then held 1 twice.
    first = pd.DataFrame({"item": ["i0", "i1", "i2"], "rater": ["r0", "r1", "r0"],
                          "label": [1, 1, 0], "g": "u"})  # fmt: skip
    second = pd.DataFrame({"item": ["i0", "i1", "i2"], "rater": ["r1", "r0", "r1"],
                           "label": [True, False, False], "g": "u"})  # fmt: skip
    arguments = {"item": "item", "rater": "rater", "label": "label", "by": by}
    tally = Tally(**arguments)
    tally.add(first)
    tally.add(second)
    want = pd.concat([first, second]).agree(**arguments)

    def value(result: Any) -> np.ndarray[Any, Any]:
        frame = isinstance(result, pd.DataFrame)
        return np.asarray(result["value"] if frame else float(result), dtype=float)

    assert np.allclose(value(tally.fleiss()), value(want.fleiss()))
    tally.save(tmp_path / "t.npz")
    assert np.allclose(value(Tally.load(tmp_path / "t.npz").alpha()), value(want.alpha()))


@pytest.mark.parametrize("also_local", [False, True])
def test_a_member_flagged_encrypted_is_refused(tmp_path: Path, also_local: bool) -> None:
    # Bit 0 of a member's flags in the central directory marks it encrypted: zipfile then
    # raises RuntimeError ("password required"), which must become the reader's error too.
    # (zipfile reads that bit from the central directory only; the local header's copy,
    # flipped alone, changes nothing that is read.)
    tally = Tally.from_frame(frame(13), item="item", rater="rater", label="label")
    path = tmp_path / "t.npz"
    tally.save(path, compress=False)
    raw = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo("nik.counts.npy")
    name = info.filename.encode()
    at = raw.index(b"PK\x01\x02")
    while raw[at + 46 : at + 46 + len(name)] != name:
        at = raw.index(b"PK\x01\x02", at + 4)
    raw[at + 8] |= 0x1  # the central directory entry's flags
    if also_local:
        raw[info.header_offset + 6] |= 0x1  # the local header's flags
    (tmp_path / "flagged.npz").write_bytes(bytes(raw))
    with pytest.raises(ValueError, match="not a readable pdagree tally"):
        Tally.load(tmp_path / "flagged.npz")


@settings(max_examples=60, deadline=None)
@given(batches=st.lists(st.lists(st.integers(0, 40), max_size=25), max_size=12))
def test_runs_add_up_as_one_sort_would(batches: list[list[int]]) -> None:
    # The runs merged as a binary counter carries (counting/_runs.py) give every key once
    # with its total, as one np.unique of everything added would.
    from pdagree.counting._runs import KeyCounts

    runs = KeyCounts()
    for j, keys in enumerate(batches):
        runs.add(np.asarray(keys, dtype=np.int64), np.full(len(keys), j + 1.0))
        assert len(runs.runs) <= 1 + int(np.log2(max(len(runs), 1)) * 2) + 1
    everything = np.concatenate(
        [np.asarray(k, dtype=np.int64) for k in batches] + [np.zeros(0, np.int64)]
    )
    weights = np.concatenate(
        [np.full(len(k), j + 1.0) for j, k in enumerate(batches)] + [np.zeros(0)]
    )
    unique, inverse = np.unique(everything, return_inverse=True)
    keys, counts = runs.merged()
    np.testing.assert_array_equal(keys, unique)
    np.testing.assert_allclose(
        counts, np.bincount(inverse, weights=weights, minlength=len(unique))
    )
    assert runs.contains(unique).all() and not runs.contains(np.array([-1, 41])).any()


# ------------------------------------------------------------------ #26: refused batches


def state(tally: Tally) -> tuple[Any, ...]:
    """Everything a tally holds, comparable."""
    counts = tally._counts
    arrays = [a.tolist() for name in ("nik", "nck") for a in getattr(counts, name).merged()]
    pairs = None if counts.pairs is None else counts.pairs.merged()[0].tolist()
    registries = [getattr(counts, n).index().tolist() for n in ("items", "groups", "raters",
                                                                "labels")]  # fmt: skip
    dtype = counts.from_dtype
    return (
        arrays, pairs, registries, counts.n_batches, counts.n_rows, counts.n_annotations,
        counts.n_missing_by, dict(counts.missing_by),
        None if dtype is None else (dtype.categories.tolist(), dtype.ordered),
    )  # fmt: skip


LONG = {"item": "i", "rater": "r", "label": "l"}
TEXT = pd.DataFrame({"i": [1, 1, 2, 2], "r": ["a", "b"] * 2, "l": ["x", "y", "x", "x"]})


@pytest.mark.parametrize(
    ("first", "second", "arguments", "error", "message"),
    [
        (TEXT, TEXT.assign(i=[3, 3, 4, 4], l=[1, 1, 2, 2]), LONG, TypeError,
         r"labels of different types \['int', 'str'\] cannot be put in order"),
        (TEXT.assign(l=["1", "2", "1", "1"]), TEXT.assign(i=[3, 3, 4, 4], l=[1, 1, 2, 2]),
         LONG, ValueError, r"labels '1' and 1 are one number, 1.0, written 2 ways"),
        (TEXT.assign(l=pd.Categorical(TEXT["l"], categories=["x", "y"], ordered=True)),
         TEXT.assign(i=[3, 3, 4, 4], l=["z", "x", "x", "x"]), LONG, ValueError,
         r"labels \['z'\] are not among the categories \['x', 'y'\] of the ordered "
         r"Categorical"),
        (pd.DataFrame({"a": ["x", "y", "x"], "b": ["x", "x", "y"]}), TEXT, {}, TypeError,
         r"cannot be put in order.* The rater columns hold different kinds of labels \('i' "
         r"holds numbers; 'r', 'l' hold text\): a long frame read as wide"),
    ],
)  # fmt: skip
def test_a_batch_that_would_break_every_result_is_refused(
    tmp_path: Path, first: pd.DataFrame, second: pd.DataFrame, arguments: dict[str, Any],
    error: type[Exception], message: str,
) -> None:  # fmt: skip
    # #26: such a batch was counted, and every later method (and the saved file) failed
    tally = Tally(**arguments).add(first)
    before, value = state(tally), float(tally.fleiss())
    with pytest.raises(error, match=r"^the batch is refused and the tally left as it was: "):
        tally.add(second)
    with pytest.raises(error, match=message):
        tally.add(second)
    assert state(tally) == before
    assert float(tally.fleiss()) == value == float(first.agree(**arguments).fleiss())
    path = tmp_path / "t.npz"
    tally.save(path)
    assert state(Tally.load(path)) == before
    if not arguments:
        return  # a long frame is refused by a wide tally of its own too
    other = Tally(**arguments).add(second)  # alone, the batch is fine; added, it is not
    with pytest.raises(error, match=r"^the tally added is refused and the tally left as it"):
        _ = tally + other
    assert state(tally) == before


def test_batches_that_keep_to_the_rules_still_add(tmp_path: Path) -> None:
    ordered = pd.CategoricalDtype(["x", "y", "z"], ordered=True)
    first = TEXT.assign(l=TEXT["l"].astype(ordered))
    second = TEXT.assign(i=[3, 3, 4, 4], l=["z", "x", "x", "x"])  # plain labels within the scale
    tally = Tally(**LONG).add(first).add(second)
    want = pd.concat([first, second.assign(l=second["l"].astype(ordered))]).agree(**LONG)
    same(tally.fleiss(), want.fleiss())
    numbers = (
        Tally(**LONG)
        .add(TEXT.assign(l=[1, 2, 1, 1]))
        .add(TEXT.assign(i=[3] * 4, r=list("abcd"), l=2.0))
    )
    assert numbers.ratings.counts().shape[1] == 2


def own_raters(n_groups: int, seed: int = 0) -> pd.DataFrame:
    """``n_groups`` groups of 2 items, each rated by 3 raters of the group's own."""
    rng = np.random.default_rng(seed)
    g = np.repeat(np.arange(n_groups), 6)
    return pd.DataFrame(
        {
            "g": g,
            "item": np.repeat(np.arange(2 * n_groups), 3),
            "rater": g * 3 + np.tile(np.arange(3), 2 * n_groups),
            "label": rng.integers(0, 3, len(g)),
        }
    )


def test_groups_with_raters_of_their_own_cost_their_pairs_not_groups_x_raters() -> None:
    # #26 point 16: fleiss(by=) built the dense groups x all raters x categories tensor
    # (2,000 groups: 2,000 x 6,000 x 3 float64, 275 MiB; 10^5 groups: 720 GB)
    import tracemalloc

    arguments = {"item": "item", "rater": "rater", "label": "label", "by": "g"}
    small = own_raters(60)
    tally = Tally(**arguments).add(small.iloc[:200]).add(small.iloc[200:])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # groups of one label: nan on both sides
        for name in ("fleiss", "gwet", "alpha", "bennett", "conger", "bias"):
            same(getattr(tally, name)(), getattr(small.agree(**arguments), name)())
        big = Tally(**arguments).add(own_raters(2000, seed=1))
        tracemalloc.start()
        try:
            got = big.fleiss()
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert peak < 32 << 20
    assert (got["n_raters"] == 3).all() and len(got) == 2000


def test_rater_tensors_of_groups_with_raters_of_their_own_are_built_on_their_slots(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # conger, bias, frequencies and report read the (group, rater, category) counts: over
    # every rater they were 6,000 x 18,000 x 3 (2.4 GiB, refused), so a tally's report(by=)
    # failed where the frame's works. On the raters of each group (3 slots): 432 KiB.
    import tracemalloc

    arguments = {"item": "item", "rater": "rater", "label": "label", "by": "g"}
    frame = own_raters(6000)
    huge = Tally(**arguments).add(frame.iloc[:15_000]).add(frame.iloc[15_000:])
    pandas_path = frame.agree(**arguments)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # groups of one label: nan on both sides
        tracemalloc.start()
        try:
            got = huge.conger()
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 32 << 20
        same(got, pandas_path.conger())
        for name in ("bias", "frequencies", "per_category"):
            same(getattr(huge, name)(), getattr(pandas_path, name)())
        # a tally's report has no Light's kappa (it reads rater pairs)
        same(huge.report(), pandas_path.report().drop(index="light", level="coefficient"))
    # Still refused, before allocating, when the slots' tensor is too large.
    monkeypatch.setattr("pdagree.tensors.count_data.MAX_RATER_CELLS", 6000 * 3 * 3 - 1)
    with pytest.raises(ValueError, match=r"6,000 groups x 3 raters x 3 categories"):
        Tally(**arguments).add(frame).conger()
