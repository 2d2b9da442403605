"""Tests of :func:`pdagree.io.read_table` (the checked file reader the command line uses) and of
the command line's table of subcommands (#27: one reader in ``pdagree.io``, library messages
that name Python arguments, one way to add a subcommand)."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path
from typing import TextIO

import pandas as pd
import pytest

import pdagree
from pdagree import cli
from pdagree.cli import main

CSV = "item,a,b\n1,x,y\n2,x,x\n3,NA,y\n"


@pytest.fixture
def csv_file(tmp_path: Path) -> Path:
    path = tmp_path / "ratings.csv"
    path.write_text(CSV, encoding="utf-8")
    return path


def test_csv_equals_pandas(csv_file: Path) -> None:
    pd.testing.assert_frame_equal(pdagree.io.read_table(csv_file), pd.read_csv(csv_file))
    pd.testing.assert_frame_equal(pdagree.io.read_table(str(csv_file)), pd.read_csv(csv_file))


def test_text_stream_and_options() -> None:
    frame = pdagree.io.read_table(io.StringIO(CSV), na_values=["x"], keep_default_na=False)
    expected = pd.read_csv(io.StringIO(CSV), na_values=["", "x"], keep_default_na=False)
    pd.testing.assert_frame_equal(frame, expected)
    assert frame.loc[2, "a"] == "NA"  # kept as a label without pandas' markers


def test_tsv_by_extension_and_by_format(tmp_path: Path) -> None:
    path = tmp_path / "ratings.tab"
    path.write_text(CSV.replace(",", "\t"), encoding="utf-8")
    expected = pd.read_csv(io.StringIO(CSV))
    pd.testing.assert_frame_equal(pdagree.io.read_table(path), expected)
    other = tmp_path / "ratings.dat"
    other.write_text(CSV.replace(",", "\t"), encoding="utf-8")
    pd.testing.assert_frame_equal(pdagree.io.read_table(other, format="tsv"), expected)


def test_parquet_keeps_its_index(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    frame = pd.DataFrame({"a": ["x", "y"], "b": ["x", "x"]}, index=pd.Index([7, 8], name="doc"))
    path = tmp_path / "ratings.parquet"
    frame.to_parquet(path)
    pd.testing.assert_frame_equal(pdagree.io.read_table(path), frame)


def test_tool_export_is_its_readers_frame(tmp_path: Path) -> None:
    tasks = [
        {
            "id": 1,
            "annotations": [
                {
                    "completed_by": rater,
                    "result": [{"from_name": "s", "type": "choices", "value": {"choices": [c]}}],
                }
                for rater, c in ((7, "pos"), (8, "neg"))
            ],
        }
    ]
    path = tmp_path / "export.json"
    path.write_text(json.dumps(tasks), encoding="utf-8")
    pd.testing.assert_frame_equal(pdagree.io.read_table(path), pdagree.io.read_label_studio(path))


@pytest.mark.parametrize(
    ("content", "options", "argument"),
    [
        ('[{"id": 1}]', {}, "format='label-studio'"),
        ('{"text": "a"}\n', {}, "format='prodigy'"),
        ("item;a;b\n1;x;y\n", {}, "sep=';'"),
        (CSV, {"sep": "(("}, "`sep`"),
        (CSV, {"format": "yaml"}, "`format`"),
    ],
)
def test_messages_name_python_arguments(
    tmp_path: Path, content: str, options: dict[str, str], argument: str
) -> None:
    path = tmp_path / "ratings.csv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError) as caught:
        pdagree.io.read_table(path, **options)
    message = str(caught.value)
    assert argument in message
    assert "--" not in message


def test_options_that_do_not_apply_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "export.jsonl"
    path.write_text('{"text": "a", "answer": "accept"}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"`sep`, `na_values` and `keep_default_na` apply"):
        pdagree.io.read_table(path, sep=";")
    with pytest.raises(ValueError, match="not as parquet"):
        pdagree.io.read_table(io.StringIO(CSV), format="parquet")


@pytest.mark.parametrize(
    ("content", "argv", "flag"),
    [
        ('[{"id": 1}]', [], "pass --from label-studio"),
        ("item;a;b\n1;x;y\n", [], "Pass --sep ';'"),
        (CSV, ["--sep", "(("], "`--sep` '((' is not a valid separator"),
    ],
)
def test_the_command_line_shows_its_flags(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, argv: list[str], flag: str
) -> None:
    path = tmp_path / "ratings.csv"
    path.write_text(content, encoding="utf-8")
    assert main(["report", str(path), *argv]) == 2
    err = capsys.readouterr().err
    assert flag in err
    assert "sep=" not in err and "format=" not in err


def test_flags_maps_every_spelling() -> None:
    from pdagree.cli._read import flags

    assert flags("pass `item=`, `rater=`, `label=`") == "pass --item, --rater, --label"
    assert flags("pass layout='contingency'") == "pass --layout contingency"
    assert flags("`by` does not apply") == "`--by` does not apply"
    assert flags("`n_resamples` must be") == "`--resamples` must be"
    assert flags("declare `categories=[...]` in your order") == (
        "declare `--categories A,B,...` in your order"
    )
    assert flags("an id column (df.set_index('doc') or read_csv(..., index_col='doc'))") == (
        "an id column (--index-col 'doc')"
    )
    assert flags("a plain message") == "a plain message"


# --------------------------------------------------------------------------- subcommands


def test_every_subcommand_is_a_table_entry() -> None:
    parser = cli._parser()
    subparsers = next(
        action for action in parser._actions if isinstance(action, argparse._SubParsersAction)
    )
    assert list(subparsers.choices) == list(cli.COMMANDS)
    assert {"report", "consensus", "datasets", "pairwise", "icc"} <= set(cli.COMMANDS)


def test_a_new_entry_is_a_new_subcommand(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def add(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
        commands.add_parser("hello", help="say hello").add_argument("--name", default="you")

    def run(args: argparse.Namespace, out: TextIO) -> None:
        out.write(f"hello {args.name}\n")

    monkeypatch.setitem(cli.COMMANDS, "hello", cli.Command(add, run))
    assert main(["hello", "--name", "pdagree"]) == 0
    assert capsys.readouterr().out == "hello pdagree\n"


def test_pairwise_coefficient_flag(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["pairwise", "--example", "fleiss1971", "--format", "csv"]
    assert main([*argv, "--coefficient", "scott"]) == 0
    scott = capsys.readouterr().out
    assert main([*argv, "--method", "scott"]) == 0  # the former name
    assert capsys.readouterr().out == scott
    assert main(argv) == 0
    assert capsys.readouterr().out != scott  # cohen by default
