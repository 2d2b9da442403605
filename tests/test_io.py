"""``pdagree.io``: Label Studio and Prodigy exports read into long frames (issue #21, point 1).

The fixtures are written by hand from the tools' documented formats: Label Studio's "Label
Studio JSON format of annotated tasks" (https://labelstud.io/guide/task_format.html; result
values of the Choices, Rating and Number tags, https://labelstud.io/tags/choices,
https://labelstud.io/tags/rating, https://labelstud.io/tags/number), and Prodigy's
"Annotation interfaces" (https://prodi.gy/docs/api-interfaces: binary ``answer`` with a
``label``, choice tasks with ``options`` and ``accept``) and "Task routing"
(https://prodi.gy/docs/task-routing: ``_annotator_id``, ``_session_id``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import pdagree
from pdagree.io import read_label_studio, read_prodigy


def ls_result(kind: str, value: Any, control: str = "sentiment") -> dict[str, Any]:
    key = {"choices": "choices", "rating": "rating", "number": "number"}[kind]
    return {"id": "r1", "from_name": control, "to_name": "text", "type": kind,
            "value": {key: value}}  # fmt: skip


def ls_annotation(user: Any, *results: dict[str, Any], cancelled: bool = False) -> dict[str, Any]:
    return {
        "id": 100 + (user if isinstance(user, int) else 0),
        "completed_by": user,
        "result": list(results),
        "was_cancelled": cancelled,
        "ground_truth": False,
        "created_at": "2026-11-20T10:00:00.000000Z",
        "updated_at": "2026-11-20T10:01:00.000000Z",
        "lead_time": 12.5,
    }


def ls_task(task_id: int, *annotations: dict[str, Any]) -> dict[str, Any]:
    return {"id": task_id, "data": {"text": f"text {task_id}"}, "annotations": list(annotations),
            "predictions": [{"result": [ls_result("choices", ["neg"])]}]}  # fmt: skip


LABELS = {1: ["pos", "pos", "neg"], 2: ["neg", "neg", "neg"], 3: ["pos", "neu", "neu"]}


def ls_export() -> list[dict[str, Any]]:
    return [
        ls_task(t, *(ls_annotation(u, ls_result("choices", [lab])) for u, lab in
                     zip([7, 8, {"id": 9, "email": "c@x.org"}], labels, strict=True)))
        for t, labels in LABELS.items()
    ]  # fmt: skip


def expected_frame() -> pd.DataFrame:
    rows = [(t, u, lab) for t, labels in LABELS.items()
            for u, lab in zip([7, 8, 9], labels, strict=True)]  # fmt: skip
    return pd.DataFrame(rows, columns=["item", "rater", "label"])


def test_label_studio_choices_read_as_a_long_frame(tmp_path: Path) -> None:
    path = tmp_path / "export.json"
    path.write_text(json.dumps(ls_export()))
    frame = read_label_studio(path)
    assert list(frame.columns[:3]) == ["item", "rater", "label"]
    assert "rank" not in frame.columns  # one choice per answer
    pd.testing.assert_frame_equal(frame[["item", "rater", "label"]], expected_frame(),
                                  check_dtype=False)  # fmt: skip
    assert set(frame["from_name"]) == {"sentiment"} and frame["lead_time"].eq(12.5).all()
    assert frame["rater_email"].fillna("").tolist() == ["", "", "c@x.org"] * 3
    got = frame.agree(item="item", rater="rater", label="label").fleiss()
    want = expected_frame().agree(item="item", rater="rater", label="label").fleiss()
    assert float(got) == float(want)
    assert read_label_studio(ls_export()).equals(frame)  # the list itself reads the same


def test_label_studio_ratings_numbers_and_several_choices() -> None:
    tasks = [
        ls_task(1, ls_annotation(1, ls_result("rating", 4, "stars")),
                ls_annotation(2, ls_result("rating", 5, "stars"))),
        ls_task(2, ls_annotation(1, ls_result("rating", 2, "stars")),
                ls_annotation(2, ls_result("rating", 2, "stars"))),
    ]  # fmt: skip
    frame = read_label_studio(tasks)
    assert frame["label"].tolist() == [4, 5, 2, 2]
    numbers = [ls_task(1, ls_annotation(1, ls_result("number", 0.5, "score")))]
    assert read_label_studio(numbers)["label"].tolist() == [0.5]
    multi = [ls_task(1, ls_annotation(1, ls_result("choices", ["a", "b"]))),
             ls_task(2, ls_annotation(1, ls_result("choices", ["b"])))]  # fmt: skip
    ranked = read_label_studio(multi)
    assert ranked["rank"].tolist() == [1, 2, 1] and ranked["label"].tolist() == ["a", "b", "b"]


def test_label_studio_several_controls_need_from_name() -> None:
    tasks = [ls_task(1, ls_annotation(1, ls_result("choices", ["pos"]),
                                      ls_result("rating", 3, "stars")))]  # fmt: skip
    with pytest.raises(
        ValueError, match=r"2 controls, \['sentiment', 'stars'\]; pass `from_name=`"
    ):
        read_label_studio(tasks)
    assert read_label_studio(tasks, from_name="stars")["label"].tolist() == [3]
    with pytest.raises(ValueError, match="`from_name` 'nope' answers nothing"):
        read_label_studio(tasks, from_name="nope")


def test_label_studio_cancelled_annotations_are_left_out_and_counted() -> None:
    tasks = ls_export()
    tasks[0]["annotations"].append(ls_annotation(10, cancelled=True))
    tasks[1]["annotations"].append(ls_annotation(11, cancelled=True))
    with pytest.warns(pdagree.PdagreeWarning, match="2 skipped or cancelled annotations"):
        frame = read_label_studio(tasks)
    assert len(frame) == 9


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t[0].pop("annotations"), r"task 0 \(id 1\) has no 'annotations' field"),
        (lambda t: t[1].pop("id"), "task 1 has no 'id' field"),
        (lambda t: t[0]["annotations"][1].pop("result"),
         r"task 0 \(id 1\), annotation 1 has no 'result' field"),
        (lambda t: t[2]["annotations"][0].update(completed_by=None),
         r"task 2 \(id 3\), annotation 0 has no 'completed_by' user"),
        (lambda t: t[0]["annotations"][0]["result"][0]["value"].update(choices="pos"),
         r"result 0's choices are not a list"),
    ],
)  # fmt: skip
def test_label_studio_malformed_exports_name_the_task_and_field(change: Any, message: str) -> None:
    tasks = ls_export()
    change(tasks)
    with pytest.raises(ValueError, match=message):
        read_label_studio(tasks)
    with pytest.raises(ValueError, match="expected a list of tasks"):
        read_label_studio({"tasks": tasks})


# --------------------------------------------------------------------------- Prodigy


def binary(input_hash: int, who: str, answer: str, label: str = "SPORTS") -> dict[str, Any]:
    return {"text": f"text {input_hash}", "label": label, "_input_hash": input_hash,
            "_task_hash": input_hash * 10, "answer": answer, "_view_id": "classification",
            "_annotator_id": f"news-{who}", "_session_id": f"news-{who}",
            "_timestamp": 1700000000}  # fmt: skip


def choice(input_hash: int, who: str, accept: list[str], answer: str = "accept") -> dict[str, Any]:
    return {"text": f"text {input_hash}", "options": [{"id": i, "text": i} for i in "ABC"],
            "accept": accept, "_input_hash": input_hash, "_task_hash": input_hash * 10,
            "answer": answer, "_view_id": "choice", "_session_id": f"news-{who}"}  # fmt: skip


def write_jsonl(path: Path, records: list[Any]) -> Path:
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    return path


def test_prodigy_binary_answers(tmp_path: Path) -> None:
    records = [binary(1, "alice", "accept"), binary(1, "bob", "accept"),
               binary(2, "alice", "reject"), binary(2, "bob", "accept"),
               binary(3, "alice", "ignore"), binary(3, "bob", "reject")]  # fmt: skip
    path = write_jsonl(tmp_path / "news.jsonl", records)
    with pytest.warns(pdagree.PdagreeWarning, match="left out: 1 ignored"):
        frame = read_prodigy(path)
    assert frame[["input_hash", "rater", "label"]].values.tolist() == [
        [1, "news-alice", "accept"], [1, "news-bob", "accept"],
        [2, "news-alice", "reject"], [2, "news-bob", "accept"], [3, "news-bob", "reject"],
    ]  # fmt: skip
    assert frame["item"].tolist() == [(h, "SPORTS") for h in frame["input_hash"]]
    assert set(frame["task_label"]) == {"SPORTS"} and "rank" not in frame.columns
    observed = frame.agree(item="item", rater="rater", label="label").observed()
    assert float(observed) == 0.5  # item 1 agrees, item 2 does not, item 3 has one answer


def test_prodigy_choice_answers_with_session_ids() -> None:
    records = [
        choice(1, "a", ["A"]), choice(1, "b", ["A", "C"]), choice(2, "a", ["B"]),
        choice(2, "b", [], answer="reject"), choice(3, "a", ["C"], answer="ignore"),
    ]  # fmt: skip
    with pytest.warns(pdagree.PdagreeWarning, match="1 ignored, 1 rejected|1 rejected, 1 ignored"):
        frame = read_prodigy(records)
    assert frame["label"].tolist() == ["A", "A", "C", "B"]
    assert frame["rank"].tolist() == [1, 1, 2, 1]
    assert frame["rater"].tolist() == ["news-a", "news-b", "news-b", "news-a"]


def test_prodigy_several_interfaces_need_view_and_bad_lines_are_named(tmp_path: Path) -> None:
    records = [binary(1, "a", "accept"), choice(1, "a", ["A"])]
    with pytest.raises(ValueError, match=r"2 interfaces, \['classification', 'choice'\]"):
        read_prodigy(records)
    assert read_prodigy(records, view="choice")["label"].tolist() == ["A"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(binary(1, "a", "accept")) + "\n{not json\n")
    with pytest.raises(ValueError, match=r"line 2 of .* is not JSON"):
        read_prodigy(bad)
    no_hash = binary(1, "a", "accept")
    del no_hash["_input_hash"]
    with pytest.raises(ValueError, match="record 1 has no '_input_hash' field"):
        read_prodigy([no_hash])
    nobody = binary(1, "a", "accept")
    del nobody["_annotator_id"], nobody["_session_id"]
    with pytest.raises(ValueError, match="neither '_annotator_id' nor '_session_id'"):
        read_prodigy([nobody])
    with pytest.raises(ValueError, match="answer is 'maybe'"):
        read_prodigy([{**binary(1, "a", "accept"), "answer": "maybe"}])


# --------------------------------------------------------------------------- the command


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    from pdagree.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_reads_tool_exports_by_extension_and_by_from(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    export = tmp_path / "export.json"
    export.write_text(json.dumps(ls_export()))
    want = expected_frame().agree(item="item", rater="rater", label="label").fleiss()
    code, out, err = cli(capsys, "report", str(export), "--coefficients", "fleiss")
    assert code == 0, err
    assert f"{float(want):.4f}"[:5] in out
    renamed = tmp_path / "export.txt"
    renamed.write_text(export.read_text())
    code, out, _ = cli(capsys, "report", str(renamed), "--from", "label-studio",
                       "--coefficients", "fleiss")  # fmt: skip
    assert code == 0 and f"{float(want):.4f}"[:5] in out
    records = [binary(1, "alice", "accept"), binary(1, "bob", "accept"),
               binary(2, "alice", "reject"), binary(2, "bob", "accept")]  # fmt: skip
    lines = write_jsonl(tmp_path / "news.jsonl", records)
    code, out, err = cli(capsys, "report", str(lines), "--coefficients", "observed")
    assert code == 0, err
    assert "0.5" in out
    several = tmp_path / "several.json"
    several.write_text(json.dumps([ls_task(1, ls_annotation(
        1, ls_result("choices", ["pos"]), ls_result("rating", 3, "stars")))]))  # fmt: skip
    code, _, err = cli(capsys, "report", str(several))
    assert code == 2 and "--from-name" in err


def test_the_command_reads_excel(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("openpyxl")
    frame = pdagree.datasets.load("fleiss1971")
    path = tmp_path / "ratings.xlsx"
    frame.to_excel(path)
    code, out, err = cli(capsys, "report", str(path), "--coefficients", "fleiss")
    assert code == 0, err
    assert "0.43" in out


# --------------------------------------------------------------------------- #26


def test_prodigy_several_questions_per_input_are_several_items() -> None:
    # textcat.teach --label SPORTS,POLITICS: each input is asked two questions (same
    # _input_hash, another label and _task_hash). alice accepts SPORTS and rejects POLITICS
    # on input 1, and bob gives the same two answers: they agree on both questions.
    records = [
        binary(1, "alice", "accept", "SPORTS"),
        binary(1, "alice", "reject", "POLITICS"),
        binary(1, "bob", "accept", "SPORTS"),
        binary(1, "bob", "reject", "POLITICS"),
        binary(2, "alice", "reject", "SPORTS"),
        binary(2, "bob", "reject", "SPORTS"),
        binary(2, "carol", "accept", "POLITICS"),
        binary(2, "dave", "accept", "POLITICS"),
    ]
    frame = read_prodigy(records)
    assert frame["item"].nunique() == 4
    ratings = frame.agree(item="item", rater="rater", label="label")
    assert float(ratings.observed()) == 1.0
    per_question = frame.agree(item="item", rater="rater", label="label", by="task_label")
    observed = per_question.observed()
    assert observed.index.tolist() == ["POLITICS", "SPORTS"]
    assert observed["value"].tolist() == [1.0, 1.0] and observed["n_items"].tolist() == [2, 2]


def test_label_studio_user_ids_and_user_objects_are_one_rater() -> None:
    # The same two people, by id in task 1 and by user object in task 2 (and by an object
    # with an e-mail only in task 3, by the e-mail itself in task 4).
    tasks = [
        ls_task(1, ls_annotation(3, ls_result("choices", ["pos"])),
                ls_annotation(4, ls_result("choices", ["neg"]))),
        ls_task(2, ls_annotation({"id": 3, "email": "a@x.org"}, ls_result("choices", ["pos"])),
                ls_annotation({"id": 4, "email": "b@x.org"}, ls_result("choices", ["pos"]))),
        ls_task(3, ls_annotation({"email": "a@x.org"}, ls_result("choices", ["neg"])),
                ls_annotation(4, ls_result("choices", ["neg"]))),
        ls_task(4, ls_annotation(3, ls_result("choices", ["neg"])),
                ls_annotation("b@x.org", ls_result("choices", ["neg"]))),
    ]  # fmt: skip
    frame = read_label_studio(tasks)
    assert frame["rater"].tolist() == [3, 4] * 4
    assert frame["rater_email"].tolist() == ["a@x.org", "b@x.org"] * 4
    assert frame.agree(item="item", rater="rater", label="label").n_raters == 2


def test_prodigy_accepting_no_option_is_an_answer() -> None:
    records = [choice(1, "a", []), choice(1, "b", []), choice(2, "a", ["A"]),
               choice(2, "b", []), choice(3, "a", ["B"]), choice(3, "b", ["B"])]  # fmt: skip
    frame = read_prodigy(records)  # no warning: nothing is left out
    assert frame["label"].tolist() == ["(none)", "(none)", "A", "(none)", "B", "B"]
    items = frame.agree(item="item", rater="rater", label="label").items()
    assert items["agreement"].tolist() == [1.0, 0.0, 1.0]
    assert read_prodigy(records, none_label="NONE")["label"].iloc[0] == "NONE"
    with pytest.raises(ValueError, match="`none_label` 'A' is also the id of an accepted"):
        read_prodigy(records, none_label="A")
    numbered = [{**r, "accept": [{"A": 1, "B": 2}[c] for c in r["accept"]]} for r in records]
    with pytest.warns(pdagree.PdagreeWarning, match=r"left out: 3 accepting none .*none_label="):
        kept = read_prodigy(numbered)
    assert kept["label"].tolist() == [1, 2, 2]
    assert read_prodigy(numbered, none_label=0)["label"].tolist() == [0, 0, 1, 0, 2, 2]


def test_json_readers_read_a_byte_order_mark(tmp_path: Path) -> None:
    export = tmp_path / "export.json"
    export.write_bytes(b"\xef\xbb\xbf" + json.dumps(ls_export()).encode())
    assert read_label_studio(export).equals(read_label_studio(ls_export()))
    lines = tmp_path / "news.jsonl"
    records = [binary(1, "alice", "accept"), binary(1, "bob", "reject")]
    lines.write_bytes(b"\xef\xbb\xbf" + "\n".join(map(json.dumps, records)).encode())
    assert read_prodigy(lines).equals(read_prodigy(records))


def test_json_readers_name_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    export = tmp_path / "export.json"
    export.write_bytes(json.dumps(ls_export()).replace("pos", "p\u00f6s").encode("latin-1"))
    with pytest.raises(ValueError, match=r"cannot read '.*export.json': it is not UTF-8 text \("
                       r"invalid .* at byte \d+\); save the export as UTF-8"):  # fmt: skip
        read_label_studio(export)
    lines = tmp_path / "news.jsonl"
    lines.write_bytes(json.dumps(binary(1, "a", "accept")).encode() + b'\n{"x": "\xe9"}\n')
    with pytest.raises(ValueError, match=r"cannot read line 2 of '.*news.jsonl': it is not UTF-8"):
        read_prodigy(lines)


def test_json_nested_too_deeply_is_a_clear_error(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ValueError, match=r"deep.json' is nested more deeply than Python's json"):
        read_label_studio(deep)
    lines = tmp_path / "deep.jsonl"
    lines.write_text('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    with pytest.raises(ValueError, match=r"line 1 of .*deep.jsonl' is nested more deeply"):
        read_prodigy(lines)


def test_label_studio_null_result_names_the_task() -> None:
    tasks = ls_export()
    tasks[1]["annotations"][2]["result"] = None
    with pytest.raises(ValueError, match=r"malformed Label Studio export: task 1 \(id 2\), "
                       r"annotation 2's 'result' is null, not a list\."):  # fmt: skip
        read_label_studio(tasks)


def test_prodigy_null_annotator_id_falls_back_to_the_session() -> None:
    records = [{**binary(1, who, "accept"), "_annotator_id": None} for who in ("a", "b")]
    assert read_prodigy(records)["rater"].tolist() == ["news-a", "news-b"]


def test_json_readers_name_numbers_python_will_not_read(tmp_path: Path) -> None:
    export = tmp_path / "export.json"
    export.write_text('[{"id": ' + "9" * 5000 + ', "annotations": []}]')
    with pytest.raises(ValueError, match=r"export.json' is not JSON \(Exceeds the limit"):
        read_label_studio(export)
    huge = [{"id": True, "annotations": []}, {"id": 10**5000, "annotations": [None]}]
    with pytest.raises(ValueError, match=r"task 0's 'id' is True, not text or a finite number"):
        read_label_studio(huge)
    with pytest.raises(ValueError, match=r"task 0 \(id an integer of 16610 bits\), annotation 0"):
        read_label_studio(huge[1:])
