"""Fault finding (#26) for the labelling tools' readers: random and malformed Label Studio
exports and Prodigy datasets, as Python objects and as files (a byte-order mark, bytes that are
not UTF-8, truncated JSON, nesting thousands of levels deep, blank lines).

Each read either gives the documented long frame (``item``, ``rater``, ``label``, every
label a plain value: text, a finite number or a boolean; a ``rank`` column only with several
choices) or raises the reader's ValueError, whose message names the task (Label Studio) or the
record or line (Prodigy) and the field, or the file and what is wrong with it; never a
KeyError, TypeError, AttributeError or RecursionError, and no warning but pdagree's. The
records given are never modified.
"""

from __future__ import annotations

import copy
import json
import math
import os
import re
import warnings
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pdagree
from pdagree.io import read_label_studio, read_prodigy

# CI runs a fixed set of examples; `PDAGREE_FAULT_EXAMPLES=2000 pytest tests/test_fault_readers.py`
# searches harder with fresh random examples.
_HARD = int(os.environ.get("PDAGREE_FAULT_EXAMPLES", "0"))
SETTINGS = settings(
    max_examples=_HARD or 120,
    deadline=None,
    derandomize=not _HARD,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# Any JSON value (Python's json reads NaN and Infinity too), small.
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)
IDS = st.one_of(st.integers(0, 6), st.sampled_from(["t1", "t2", "t3"]))
LABELS = st.one_of(st.sampled_from(["pos", "neg", "neu"]), st.integers(1, 3))
STAMP = st.one_of(
    st.none(), st.sampled_from(["2026-11-20T10:00:00Z", "2026-11-21"]), st.floats(0, 99)
)

# --------------------------------------------------------------------------- Label Studio

USERS = st.one_of(
    st.integers(1, 4),
    st.sampled_from(["u1", "u2"]),
    st.fixed_dictionaries(
        {"id": st.integers(1, 4)}, optional={"email": st.sampled_from(["a@x", "b@x"])}
    ),
    st.fixed_dictionaries({"email": st.sampled_from(["a@x", "b@x", "c@x"])}),
)


def ls_result(kind: str, control: str, answer: Any) -> dict[str, Any]:
    key = {"choices": "choices", "rating": "rating", "number": "number", "labels": "labels"}[kind]
    return {"from_name": control, "to_name": "text", "type": kind, "value": {key: answer}}


RESULTS = st.one_of(
    st.builds(
        ls_result,
        st.just("choices"),
        st.just("sentiment"),
        st.lists(LABELS, min_size=1, max_size=3),
    ),
    st.builds(ls_result, st.just("rating"), st.just("stars"), st.integers(1, 5)),
    st.builds(ls_result, st.just("number"), st.just("score"), st.floats(-10, 10)),
    st.builds(ls_result, st.just("labels"), st.just("ner"), st.lists(st.just("PER"), max_size=1)),
)
ANNOTATIONS = st.fixed_dictionaries(
    {"completed_by": USERS, "result": st.lists(RESULTS, max_size=3)},
    optional={
        "id": IDS,
        "was_cancelled": st.booleans(),
        "created_at": STAMP,
        "updated_at": STAMP,
        "lead_time": st.floats(0, 100),
        "ground_truth": st.booleans(),
    },
)
TASKS = st.fixed_dictionaries(
    {"id": IDS, "annotations": st.lists(ANNOTATIONS, max_size=4)},
    optional={
        "data": JSON,
        "predictions": st.lists(
            st.fixed_dictionaries({"result": st.lists(RESULTS, max_size=1)}), max_size=1
        ),
    },
)
EXPORTS = st.lists(TASKS, max_size=5)

# --------------------------------------------------------------------------- Prodigy

RECORDS = st.fixed_dictionaries(
    {"_input_hash": IDS, "answer": st.sampled_from(["accept", "reject", "ignore"])},
    optional={
        "_annotator_id": st.one_of(
            st.none(), st.sampled_from(["ds-a", "ds-b"]), st.integers(1, 3)
        ),
        "_session_id": st.sampled_from(["ds-a", "ds-b", "ds-c"]),
        "label": st.one_of(st.sampled_from(["SPORTS", "POLITICS"]), st.integers(0, 2)),
        "accept": st.lists(LABELS, max_size=3),
        "options": st.lists(
            st.fixed_dictionaries({"id": LABELS, "text": st.text(max_size=3)}), max_size=3
        ),
        "_view_id": st.sampled_from(["classification", "choice", "ner"]),
        "_task_hash": st.integers(-(2**31), 2**31),
        "_timestamp": st.integers(0, 2**40),
        "text": st.text(max_size=8),
    },
)
DATASETS = st.lists(RECORDS, max_size=8)

# --------------------------------------------------------------------------- malformations


def mutate(data: st.DataObject, root: Any) -> Any:
    """``root`` with one value somewhere in it replaced by any JSON value, or one key or list
    entry removed; a walk from the root that stops at a random depth."""
    if not data.draw(st.booleans(), label="descend"):
        return data.draw(JSON, label="new root")
    root = copy.deepcopy(root)
    parent = root
    while True:
        if isinstance(parent, dict) and parent:
            key: Any = data.draw(st.sampled_from(sorted(parent)), label="key")
        elif isinstance(parent, list) and parent:
            key = data.draw(st.integers(0, len(parent) - 1), label="index")
        else:
            return root
        child = parent[key]
        if isinstance(child, (dict, list)) and child and data.draw(st.booleans(), label="deeper"):
            parent = child
            continue
        if data.draw(st.booleans(), label="delete"):
            del parent[key]
        else:
            parent[key] = data.draw(JSON, label="value")
        return root


def corrupt(data: st.DataObject, text: str) -> bytes:
    """The file's bytes: as written, or with a byte-order mark, a byte that is not UTF-8,
    cut short, or wrapped in thousands of brackets."""
    raw = text.encode("utf-8")
    how = data.draw(
        st.sampled_from(["plain", "bom", "latin", "cut", "deep", "blank"]), label="file"
    )
    at = data.draw(st.integers(0, len(raw)), label="at")
    if how == "bom":
        return b"\xef\xbb\xbf" + raw
    if how == "latin":
        return raw[:at] + b"\xe9\xff" + raw[at:]
    if how == "cut":
        return raw[:at]
    if how == "deep":
        depth = data.draw(st.sampled_from([5, 3_000, 100_000]), label="depth")
        return b"[" * depth + raw + b"]" * depth
    if how == "blank":
        return b"\n \n" + raw.replace(b"\n", b"\n\n") + b"\n\t\n"
    return raw


# --------------------------------------------------------------------------- checks

LS_ERROR = re.compile(
    r"^malformed Label Studio export: (expected a list of tasks|task \d+.*("
    r"'[a-z_]+'|choices|rating|number|choice \d+|not an object))"
    r"|^cannot read '[^']*': it is not UTF-8 text \(.* at byte \d+\)"
    r"|^'[^']*' (is not JSON \(|is nested more deeply than Python's json)"
    r"|^the data hold answers of \d+ controls, .*; pass `from_name=`"
    r"|^`from_name` .* answers nothing"
)
PRODIGY_ERROR = re.compile(
    r"^malformed Prodigy data: record \d+\b.*"
    r"('_?[a-z_]+'|answer|accepted option \d+|not an object)"
    r"|^cannot read line \d+ of '[^']*': it is not UTF-8 text"
    r"|^line \d+ of '[^']*' (is not JSON \(|is nested more deeply than Python's json)"
    r"|^the data hold answers of \d+ interfaces, .*; pass `view=`"
    r"|^`view` .* answers nothing"
)


def read(call: Callable[[], pd.DataFrame], pattern: re.Pattern[str]) -> pd.DataFrame | None:
    """The frame the reader gives, or None after checking its error; its warnings are
    pdagree's."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            frame = call()
        except ValueError as exc:
            message = str(exc)
            assert pattern.search(message), message
            assert len(message) < 600 and "\n" not in message, message
            frame = None
    for warning in caught:
        assert issubclass(warning.category, pdagree.PdagreeWarning), str(warning.message)
    return frame


def plain_label(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, (str, int, bool))


def check_frame(frame: pd.DataFrame) -> None:
    assert list(frame.columns[:3]) == ["item", "rater", "label"]
    assert all(plain_label(v) for v in frame["label"]), frame["label"].tolist()
    assert all(isinstance(v, Hashable) and v is not None for v in frame["item"])
    assert frame["rater"].notna().all()
    if "rank" in frame.columns:
        assert str(frame["rank"].dtype) == "Int64" and (frame["rank"] >= 1).all()
        assert (frame["rank"] > 1).any()
    hash(tuple(frame["item"]))  # items and raters are keys
    hash(tuple(frame["rater"]))


def dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


# --------------------------------------------------------------------------- Label Studio tests


@SETTINGS
@given(export=EXPORTS, data=st.data())
def test_label_studio_objects(export: list[Any], data: st.DataObject) -> None:
    for _ in range(data.draw(st.integers(0, 3), label="mutations")):
        export = mutate(data, export)
    if isinstance(export, str):  # text is a path to read_label_studio
        export = [export]
    before = dump(export)
    from_name = data.draw(st.sampled_from([None, None, "sentiment", "stars"]), label="from_name")
    frame = read(lambda: read_label_studio(export, from_name=from_name), LS_ERROR)
    assert dump(export) == before  # the records are not modified
    if frame is not None:
        check_frame(frame)


@SETTINGS
@given(export=EXPORTS, data=st.data())
def test_label_studio_files(tmp_path_factory: Any, export: list[Any], data: st.DataObject) -> None:
    if data.draw(st.booleans(), label="mutate"):
        export = mutate(data, export)
    path: Path = tmp_path_factory.mktemp("ls") / "export.json"
    path.write_bytes(
        corrupt(data, json.dumps(export, indent=data.draw(st.sampled_from([None, 1]))))
    )
    frame = read(lambda: read_label_studio(path, from_name="sentiment"), LS_ERROR)
    if frame is not None:
        check_frame(frame)


@SETTINGS
@given(export=EXPORTS)
def test_label_studio_file_equals_its_objects(tmp_path_factory: Any, export: list[Any]) -> None:
    path: Path = tmp_path_factory.mktemp("ls") / "export.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(export).encode())
    from_file = read(lambda: read_label_studio(path, from_name="sentiment"), LS_ERROR)
    from_objects = read(lambda: read_label_studio(export, from_name="sentiment"), LS_ERROR)
    assert (from_file is None) == (from_objects is None)
    if from_file is not None and from_objects is not None:
        pd.testing.assert_frame_equal(from_file, from_objects)


# --------------------------------------------------------------------------- Prodigy tests


@SETTINGS
@given(records=DATASETS, data=st.data())
def test_prodigy_objects(records: list[Any], data: st.DataObject) -> None:
    for _ in range(data.draw(st.integers(0, 3), label="mutations")):
        records = mutate(data, records)
    if not isinstance(records, list):
        records = [records]
    before = dump(records)
    view = data.draw(st.sampled_from([None, None, "choice", "classification"]), label="view")
    none_label = data.draw(st.sampled_from(["(none)", 0, "pos"]), label="none_label")
    frame = read(
        lambda: read_prodigy(records, view=view, none_label=none_label),
        re.compile(
            PRODIGY_ERROR.pattern + r"|^`none_label` .* is also the id of an accepted option"
        ),
    )
    assert dump(records) == before
    if frame is not None:
        check_frame(frame)
        binary = frame["label"].isin(["accept", "reject"]) & frame["task_label"].notna()
        assert all(isinstance(v, tuple) for v in frame.loc[binary, "item"])


@SETTINGS
@given(records=DATASETS, data=st.data())
def test_prodigy_files(tmp_path_factory: Any, records: list[Any], data: st.DataObject) -> None:
    if data.draw(st.booleans(), label="mutate"):
        records = mutate(data, records)
        records = records if isinstance(records, list) else [records]
    lines = "\n".join(json.dumps(record) for record in records)
    if data.draw(st.booleans(), label="bad line") and records:
        lines += "\n" + data.draw(st.sampled_from(["{not json", "[" * 50_000, '{"a": 1'])) + "\n"
    path: Path = tmp_path_factory.mktemp("prodigy") / "data.jsonl"
    path.write_bytes(corrupt(data, lines))
    frame = read(lambda: read_prodigy(path, view="choice"), PRODIGY_ERROR)
    if frame is not None:
        check_frame(frame)
