"""The command line at its edges (#26): spreadsheet formulas in CSV/TSV output, a JSON export
named ``.csv``, infinite values in JSON, Markdown headers, ``-o`` into a missing folder,
``--seed``, the default for majority ties, and the readers' fixes end to end. Each point runs
the command as a process at least once (``python -m pdagree``)."""

from __future__ import annotations

import csv
import io
import json
import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import pdagree
from pdagree.cli import main
from pdagree.cli._options import gold_rater


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def process(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pdagree", *argv],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def error_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if not line.startswith("pdagree: warning:")]
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]


# --------------------------------------------------------------------------- formulas

RISKY = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[+-]?inf|nan", re.IGNORECASE)
EVIL = '=HYPERLINK("http://example.org/x","click")'


def cells(text: str, sep: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(text), delimiter=sep) for cell in row]


def assert_no_formula(text: str, sep: str) -> None:
    for cell in cells(text, sep):
        assert not cell.startswith(RISKY) or NUMBER.fullmatch(cell), (cell, text)


@pytest.fixture
def crowd(tmp_path: Path) -> Path:
    # Labels and rater names that a spreadsheet would run as formulas; answers chosen so that
    # agreement is below chance (negative coefficients, which must stay numbers).
    labels = [EVIL, "+cmd|' /C calc'!A0", "@SUM(1+1)"]
    raters = ["=r1", "@r2", "-r3"]
    rows = [
        (f"+item{i}", raters[j], labels[(i + j) % 3] if i % 4 else labels[0], f"=b{i % 2}")
        for i in range(12)
        for j in range(3)
    ]
    path = tmp_path / "crowd.csv"
    pd.DataFrame(rows, columns=["doc", "coder", "tag", "batch"]).to_csv(path, index=False)
    return path


COMMANDS = [
    ["report", "--by", "batch"],
    ["per-category"],
    ["pairwise"],
    ["per-rater"],
    ["items"],
    ["against", "--gold", "@r2"],
    ["consensus", "--method", "majority", "--seed", "0"],
]


@pytest.mark.parametrize("fmt", ["csv", "tsv"])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_no_cell_of_any_subcommand_starts_a_formula(
    capsys: pytest.CaptureFixture[str], crowd: Path, command: list[str], fmt: str
) -> None:
    argv = [command[0], str(crowd), "--item", "doc", "--rater", "coder", "--label", "tag"]
    status, out, err = run(capsys, *argv, *command[1:], "--format", fmt)
    assert status == 0, err
    sep = "," if fmt == "csv" else "\t"
    assert_no_formula(out, sep)
    # The same table as JSON (unchanged): the same cells, bar the leading ', and no cell lost.
    status, as_json, err = run(capsys, *argv, *command[1:], "--format", "json")
    records = json.loads(as_json)
    rows = list(csv.reader(io.StringIO(out), delimiter=sep))
    assert len(rows) == len(records) + 1
    names = ["'" + k if k.startswith(RISKY) else k for k in records[0]]
    assert rows[0] == (["", *names[1:]] if names[0] == "index" else names)  # an unnamed index
    for row, record in zip(rows[1:], records, strict=True):
        for cell, value in zip(row, record.values(), strict=True):
            if isinstance(value, str):
                assert cell == ("'" + value if value.startswith(RISKY) else value)
            elif value is None:
                assert cell == ""
            elif not isinstance(value, list):
                assert float(cell) == pytest.approx(value, rel=1e-12)


def test_formulas_are_prefixed_and_numbers_kept(crowd: Path) -> None:
    done = process(
        "consensus", str(crowd), "--item", "doc", "--rater", "coder", "--label", "tag",
        "--method", "majority", "--seed", "0",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    labels = pd.read_csv(io.StringIO(done.stdout), index_col="doc")["label"]
    assert "'" + EVIL in set(labels)
    assert not any(label.startswith(RISKY) for label in labels)
    report = process(
        "report", str(crowd), "--item", "doc", "--rater", "coder", "--label", "tag",
        "--format", "csv",
    )  # fmt: skip
    table = pd.read_csv(io.StringIO(report.stdout), index_col="coefficient")
    assert table["value"].dtype == np.float64 and (table["value"] < 0).any()
    frame = pd.read_csv(crowd)
    fleiss = frame.agree(item="doc", rater="coder", label="tag").fleiss()
    assert table.loc["fleiss", "value"] == pytest.approx(float(fleiss), rel=1e-12)
    # JSON is for programs: unchanged.
    as_json = process(
        "consensus", str(crowd), "--item", "doc", "--rater", "coder", "--label", "tag",
        "--method", "majority", "--seed", "0", "--format", "json",
    )  # fmt: skip
    assert EVIL in {row["label"] for row in json.loads(as_json.stdout)}


def test_text_that_is_a_plain_number_and_index_names(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Text labels "-1", "+1" are numbers to a spreadsheet, not formulas: left alone; a rater
    # and a group named like formulas are prefixed, in the index and the header.
    path = tmp_path / "wide.csv"
    pd.DataFrame(
        {"=g": ["-x"] * 4, "=a": ["-1", "+1", "-1", "n"], "b": ["-1", "+1", "n", "n"]},
        index=pd.Index(["i1", "i2", "i3", "i4"], name="-item"),
    ).to_csv(path)
    status, out, err = run(
        capsys, "items", str(path), "--by", "=g", "--no-default-na", "--format", "csv"
    )
    assert status == 0, err
    assert out.splitlines()[0].startswith("'=g,'-item,")
    assert out.splitlines()[1].startswith("'-x,i1,")
    status, out, err = run(capsys, "per-category", str(path), "--raters==a,b", "--format", "tsv")
    assert status == 0, err
    categories = [line.split("\t")[0] for line in out.splitlines()[1:]]
    assert categories == ["+1", "-1", "n"]


# --------------------------------------------------------------------------- JSON named .csv


def label_studio_export() -> list[dict[str, object]]:
    def annotation(user: object, label: str) -> dict[str, object]:
        value = {"choices": [label]}
        result = {"from_name": "s", "to_name": "t", "type": "choices", "value": value}
        return {"id": 1, "completed_by": user, "result": [result]}

    return [
        {"id": 1, "annotations": [annotation(3, "pos"), annotation(4, "pos")]},
        {"id": 2, "annotations": [annotation({"id": 3, "email": "a@x"}, "neg"),
                                  annotation({"id": 4, "email": "b@x"}, "neg")]},
        {"id": 3, "annotations": [annotation(3, "pos"), annotation({"id": 4}, "neg")]},
    ]  # fmt: skip


def test_a_json_export_named_csv_is_told_apart(tmp_path: Path) -> None:
    export = tmp_path / "export.csv"
    export.write_bytes(b"\xef\xbb\xbf \n\t" + json.dumps(label_studio_export(), indent=1).encode())
    done = process("report", str(export))
    assert done.returncode == 2
    assert error_line(done.stderr) == (
        f"pdagree: error: cannot read {str(export)!r} as CSV: it holds JSON (a JSON list, as in "
        "a Label Studio export); pass --from label-studio."
    )
    done = process("report", str(export), "--from", "label-studio", "--coefficients", "observed")
    assert done.returncode == 0, done.stderr


def test_prodigy_lines_named_tsv_and_csv_that_only_look_like_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines = tmp_path / "news.tsv"
    lines.write_text('{"_input_hash": 1, "answer": "accept", "_session_id": "a"}\n')
    status, _, err = run(capsys, "report", str(lines))
    assert status == 2
    assert error_line(err).endswith(
        "as TSV: it holds JSON (a JSON object per line, as in Prodigy's JSONL); pass --from "
        "prodigy."
    )
    text = tmp_path / "brackets.csv"
    text.write_text("[item],{a},b\n1,x,x\n2,y,x\n3,y,y\n")
    status, _, err = run(capsys, "report", str(text), "--coefficients", "observed")
    assert status == 0, err


# --------------------------------------------------------------------------- messages and output


def test_json_output_writes_an_infinite_f_as_null(tmp_path: Path) -> None:
    path = tmp_path / "perfect.csv"
    path.write_text("item,a,b,c\n1,1,1,1\n2,2,2,2\n3,3,3,3\n4,5,5,5\n")
    done = process("icc", str(path), "--format", "json")
    assert done.returncode == 0, done.stderr
    records = json.loads(done.stdout)
    assert {record["F"] for record in records} == {None}
    assert all(record["value"] == 1.0 for record in records)


def test_json_output_of_infinities_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    from pdagree.cli._output import write_frame

    frame = pd.DataFrame({"F": [math.inf, -math.inf, math.nan, 2.0]}, index=list("abcd"))
    args = type("Args", (), {"format": "json", "output": None})()
    out = io.StringIO()
    write_frame(frame, "", args, out)  # type: ignore[arg-type]
    assert [row["F"] for row in json.loads(out.getvalue())] == [None, None, None, 2.0]


def test_markdown_escapes_the_header_as_the_body(tmp_path: Path) -> None:
    path = tmp_path / "wide.csv"
    path.write_text("item,a|b,c\n1,x,x\n2,y,x\n3,y,y\n4,x,x\n")
    done = process("pairwise", str(path), "--format", "markdown")
    assert done.returncode == 0, done.stderr
    header = done.stdout.splitlines()[0]
    assert header == "| index | a\\|b | c |"
    widths = {line.replace("\\|", "").count("|") for line in done.stdout.splitlines()}
    assert widths == {4}


def test_output_into_a_missing_folder_cannot_be_written(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "out.csv"
    done = process("report", "--example", "fleiss1971", "-o", str(target))
    assert done.returncode == 2
    assert error_line(done.stderr) == (
        f"pdagree: error: cannot write {str(target)!r}: the folder {str(target.parent)!r} does "
        "not exist; create it or give another `-o`."
    )


def test_output_onto_a_folder_cannot_be_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, _, err = run(capsys, "report", "--example", "fleiss1971", "-o", str(tmp_path))
    assert status == 2
    assert error_line(err).startswith(f"pdagree: error: cannot write {str(tmp_path)!r}: ")


@pytest.mark.parametrize("seed", ["-1", "4294967296", "1.5"])
def test_consensus_seed_is_checked_by_argparse(seed: str) -> None:
    done = process("consensus", "--example", "fleiss1971", "--method", "majority", "--seed", seed)
    assert done.returncode == 2
    assert (
        f"argument --seed: must be a whole number from 0 to 4294967295; got {seed!r}"
        in error_line(done.stderr)
    )


# --------------------------------------------------------------------------- majority ties


@pytest.fixture
def tied(tmp_path: Path) -> Path:
    # Two annotators who disagree on most items: majority vote is a tie on each of those.
    rng = np.random.default_rng(11)
    rows = [(i, r, int(rng.integers(0, 4))) for i in range(200) for r in ("a", "b")]
    path = tmp_path / "tied.csv"
    pd.DataFrame(rows, columns=["doc", "coder", "tag"]).to_csv(path, index=False)
    return path


def test_consensus_ties_default_to_a_seeded_draw_as_in_python(tied: Path) -> None:
    args = ["consensus", str(tied), "--item", "doc", "--rater", "coder", "--label", "tag"]
    done = process(*args, "--method", "majority", "--seed", "5")
    assert done.returncode == 0, done.stderr
    got = pd.read_csv(io.StringIO(done.stdout), index_col="doc")["label"]
    frame = pd.read_csv(tied)
    ratings = frame.agree(item="doc", rater="coder", label="tag")
    python = ratings.consensus("majority", rng=5).labels
    assert got.tolist() == python.tolist()
    first = ratings.consensus("majority", ties="first").labels
    assert (got.to_numpy() != first.to_numpy()).sum() > 20  # the draw is not the first category
    again = process(*args, "--method", "majority", "--seed", "5", "--ties", "random")
    assert again.stdout == done.stdout


def test_consensus_help_states_the_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["consensus", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "a random draw among the tied categories (default" in text


# --------------------------------------------------------------------------- plain values


def test_gold_rater_is_a_plain_value(tmp_path: Path) -> None:
    frame = pd.DataFrame({"i": [1, 1, 2, 2], "r": [0, 1, 0, 1], "l": ["x", "x", "y", "x"]})
    ratings = frame.agree(item="i", rater="r", label="l")
    gold = gold_rater(ratings, "0")
    assert type(gold) is int and repr(gold) == "0"


# --------------------------------------------------------------------------- the readers


def test_readers_end_to_end(tmp_path: Path) -> None:
    # Label Studio: ids and user objects name the same two people.
    export = tmp_path / "export.json"
    export.write_text(json.dumps(label_studio_export()))
    done = process("report", str(export), "--coefficients", "observed", "--format", "json")
    assert done.returncode == 0, done.stderr
    [row] = json.loads(done.stdout)
    assert row["n_raters"] == 2 and row["value"] == pytest.approx(2 / 3)
    # Prodigy: two questions per input, a null _annotator_id, a byte-order mark.
    records = [
        {"_input_hash": h, "label": q, "answer": a, "_annotator_id": None, "_session_id": who,
         "_view_id": "classification"}
        for h, q, a, who in [(1, "SPORTS", "accept", "x"), (1, "POLITICS", "reject", "x"),
                             (1, "SPORTS", "accept", "y"), (1, "POLITICS", "reject", "y"),
                             (2, "SPORTS", "reject", "x"), (2, "SPORTS", "reject", "y")]
    ]  # fmt: skip
    lines = tmp_path / "news.jsonl"
    lines.write_bytes(b"\xef\xbb\xbf" + "\n".join(map(json.dumps, records)).encode())
    done = process("report", str(lines), "--by", "task_label", "--coefficients", "observed",
                   "--format", "csv")  # fmt: skip
    assert done.returncode == 0, done.stderr
    table = pd.read_csv(io.StringIO(done.stdout), index_col="task_label")
    assert table["value"].to_dict() == {"POLITICS": 1.0, "SPORTS": 1.0}
    # Prodigy: "none of these" is an answer the consensus can pick.
    choices = [
        {"_input_hash": h, "answer": "accept", "accept": acc, "_session_id": who,
         "_view_id": "choice"}
        for h, acc, who in [(1, [], "x"), (1, [], "y"), (1, ["A"], "z"), (2, ["A"], "x"),
                            (2, ["A"], "y")]
    ]  # fmt: skip
    lines.write_text("\n".join(map(json.dumps, choices)))
    done = process("consensus", str(lines), "--method", "majority", "--seed", "0")
    assert done.returncode == 0, done.stderr
    labels = pd.read_csv(io.StringIO(done.stdout), index_col="item")["label"]
    assert labels.to_dict() == {1: "(none)", 2: "A"}


def test_reader_errors_end_to_end(tmp_path: Path) -> None:
    export = tmp_path / "export.json"
    latin = json.dumps(label_studio_export()).replace("pos", "p\xf6s").encode("latin-1")
    export.write_bytes(latin)
    done = process("report", str(export))
    assert done.returncode == 2
    assert error_line(done.stderr).startswith(
        f"pdagree: error: cannot read {str(export)!r}: it is not UTF-8 text ("
    )
    tasks = label_studio_export()
    tasks[2]["annotations"][1]["result"] = None  # type: ignore[index]
    export.write_text(json.dumps(tasks))
    done = process("report", str(export))
    assert error_line(done.stderr) == (
        "pdagree: error: malformed Label Studio export: task 2 (id 3), annotation 1's "
        "'result' is null, not a list."
    )
    export.write_text("[" * 50_000 + "]" * 50_000)
    done = process("report", str(export))
    assert error_line(done.stderr).startswith(
        f"pdagree: error: {str(export)!r} is nested more deeply than Python's json module"
    )


def test_excel_header_that_repeats_a_name(tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    sheet = book.active
    rows = [["item", "a", "b", "a"], [1, "x", "x", "y"], [2, "y", "y", "y"], [3, "x", "y", "x"]]
    for row in rows:
        sheet.append(row)
    path = tmp_path / "ratings.xlsx"
    book.save(path)
    done = process("report", str(path))
    assert done.returncode == 2
    assert error_line(done.stderr) == (
        f"pdagree: error: the header of {str(path)!r} repeats the column name 'a'; give each "
        "column its own name (pandas would rename the second one and read it as another "
        "column)."
    )
    sheet.cell(row=1, column=4, value="c")
    book.save(path)
    done = process("report", str(path), "--coefficients", "fleiss")
    assert done.returncode == 0, done.stderr
    assert pdagree.__name__ == "pdagree"
