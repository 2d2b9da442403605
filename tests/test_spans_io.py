"""Span exports of the labelling tools (#29), written as the tools document them: Label Studio's
``labels`` results over a text ("Label Studio JSON format of annotated tasks",
https://labelstud.io/guide/task_format.html; the Labels tag, https://labelstud.io/tags/labels)
and Prodigy's ``ner_manual`` answers (https://prodi.gy/docs/api-interfaces#ner_manual: ``text``,
``spans`` with ``start``, ``end``, ``label``), read into frames and measured, and the
``pdagree spans`` command."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import pdagree
from pdagree.cli import main


def _ls_span(start: int, end: int, labels: list[str], text: str) -> dict[str, Any]:
    return {
        "from_name": "label",
        "to_name": "text",
        "type": "labels",
        "value": {"start": start, "end": end, "text": text[start:end], "labels": labels},
    }


TEXT = "Alice met Bob in Paris"
LABEL_STUDIO = [
    {
        "id": 1,
        "data": {"text": TEXT},
        "annotations": [
            {"id": 11, "completed_by": 7, "result": [
                _ls_span(0, 5, ["PER"], TEXT), _ls_span(17, 22, ["LOC"], TEXT)]},
            {"id": 12, "completed_by": {"id": 8, "email": "b@x.org"}, "result": [
                _ls_span(0, 5, ["PER"], TEXT), _ls_span(10, 13, ["PER", "NAME"], TEXT)]},
        ],
    },
    {
        "id": 2,
        "data": {"text": "Nothing here"},
        "annotations": [
            {"id": 21, "completed_by": 7, "result": []},
            {"id": 22, "completed_by": 8, "result": []},
            {"id": 23, "completed_by": 9, "was_cancelled": True, "result": []},
        ],
    },
]  # fmt: skip


def test_label_studio_spans() -> None:
    with pytest.warns(pdagree.PdagreeWarning, match="1 skipped"):
        frame = pdagree.io.read_label_studio(LABEL_STUDIO)
    spans = frame.dropna(subset=["start"])
    assert spans[["item", "rater", "start", "end", "label", "text"]].values.tolist() == [
        [1, 7, 0, 5, "PER", "Alice"],
        [1, 7, 17, 22, "LOC", "Paris"],
        [1, 8, 0, 5, "PER", "Alice"],
        [1, 8, 10, 13, "PER", "Bob"],
        [1, 8, 10, 13, "NAME", "Bob"],
    ]
    empty = frame[frame["start"].isna()]
    assert empty[["item", "rater"]].values.tolist() == [[2, 7], [2, 8]]
    ratings = frame.agree.spans(
        item="item", rater="rater", start="start", end="end", label="label"
    )
    table = ratings.pairwise_f1()
    assert table[["n_a", "n_b", "n_matched"]].values.tolist() == [[2, 3, 1]]
    assert table["f1"].iloc[0] == pytest.approx(2 * 1 / 5)


def test_label_studio_choices_unchanged_and_regions_refused() -> None:
    choices = [{"id": 1, "annotations": [{"completed_by": 1, "result": [
        {"from_name": "s", "type": "choices", "value": {"choices": ["pos"]}}]}]}]  # fmt: skip
    frame = pdagree.io.read_label_studio(choices)
    assert "start" not in frame.columns
    box = {"x": 1, "y": 2, "width": 3, "height": 4, "rectanglelabels": ["car"]}
    boxes = [{"id": 1, "annotations": [{"completed_by": 1, "result": [
        {"from_name": "b", "type": "rectanglelabels", "value": box}]}]}]  # fmt: skip
    with pytest.raises(ValueError, match="is a 'rectanglelabels' region"):
        pdagree.io.read_label_studio(boxes)


def _prodigy(
    annotator: str, text: str, spans: list[tuple[int, int, str]], answer: str = "accept"
) -> dict[str, Any]:
    return {
        "text": text,
        "_input_hash": hash(text) % 1000,
        "_task_hash": 5,
        "_view_id": "ner_manual",
        "_annotator_id": annotator,
        "answer": answer,
        "spans": [{"start": s, "end": e, "label": lab} for s, e, lab in spans],
    }


def test_prodigy_ner_manual(tmp_path: Path) -> None:
    records = [
        _prodigy("ann-1", TEXT, [(0, 5, "PER"), (17, 22, "LOC")]),
        _prodigy("ann-2", TEXT, [(0, 5, "PER"), (17, 22, "GPE")]),
        _prodigy("ann-1", "Nothing here", []),
        _prodigy("ann-2", "Nothing here", []),
        _prodigy("ann-3", "Nothing here", [], answer="ignore"),
    ]
    path = tmp_path / "ner.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records), encoding="utf-8")
    with pytest.warns(pdagree.PdagreeWarning, match="1 ignored"):
        frame = pdagree.io.read_prodigy(path)
    assert frame["text"].dropna().tolist() == ["Alice", "Paris", "Alice", "Paris"]
    assert int(frame["start"].isna().sum()) == 2
    spans = frame.agree.spans(item="item", rater="rater", start="start", end="end", label="label")
    assert spans.f1() == pytest.approx(0.5)
    per_label = spans.per_label()
    assert per_label.loc["PER", "f1"] == 1.0 and per_label.loc["LOC", "f1"] == 0.0


def test_cli_spans(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "export.json"
    path.write_text(json.dumps(LABEL_STUDIO), encoding="utf-8")
    assert main(["spans", str(path), "--match", "overlap", "--format", "csv"]) == 0
    table = pd.read_csv(io.StringIO(capsys.readouterr().out))
    assert table[["n_a", "n_b", "n_matched"]].values.tolist() == [[2, 3, 1]]
    csv = tmp_path / "spans.csv"
    pd.DataFrame(
        {"doc": [1, 1, 1], "who": ["a", "b", "b"], "s": [0, 0, 4], "e": [3, 3, 6]}
    ).to_csv(csv, index=False)
    argv = ["spans", str(csv), "--item", "doc", "--rater", "who", "--start", "s", "--end", "e"]
    assert main([*argv, "--format", "csv"]) == 0
    table = pd.read_csv(io.StringIO(capsys.readouterr().out))
    assert np.isclose(table["f1"].iloc[0], 2 / 3)
    assert main(["spans", str(csv)]) == 2
    assert "--item 'item'" in capsys.readouterr().err
