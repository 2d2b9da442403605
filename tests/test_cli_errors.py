"""Issue 17, point 17: every failure of the command line is one line ``pdagree: error: ...``
with exit status 2, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pdagree import cli
from pdagree.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def one_error_line(err: str) -> str:
    lines = [line for line in err.splitlines() if not line.startswith("pdagree: warning:")]
    assert len(lines) == 1, err
    assert lines[0].startswith("pdagree: error: "), err
    assert "Traceback" not in err
    return lines[0]


@pytest.fixture
def ratings_csv(tmp_path: Path) -> Path:
    path = tmp_path / "ratings.csv"
    pd.DataFrame({"a": ["x", "y", "x", "y"], "b": ["x", "y", "y", "y"]}).to_csv(
        path, index_label="item"
    )
    return path


def test_a_separator_that_is_not_a_regular_expression(capsys, ratings_csv) -> None:
    # was a re.error traceback
    status, _, err = run(capsys, "report", str(ratings_csv), "--sep", "((")
    assert status == 2
    line = one_error_line(err)
    assert line.startswith("pdagree: error: `--sep` '((' is not a valid separator")


def test_standard_output_closed(ratings_csv) -> None:
    # was an AttributeError traceback ('NoneType' object has no attribute 'write')
    done = subprocess.run(
        ["bash", "-c", f"'{sys.executable}' -m pdagree report '{ratings_csv}' >&-"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert one_error_line(done.stderr) == (
        "pdagree: error: standard output is closed; redirect it to a file or `-o`."
    )


def test_out_of_memory_is_one_line(capsys, ratings_csv, monkeypatch) -> None:
    def exhausted(*args: object, **kwargs: object) -> None:
        raise MemoryError

    monkeypatch.setitem(cli.COMMANDS, "report", cli.COMMANDS["report"]._replace(run=exhausted))
    status, _, err = run(capsys, "report", str(ratings_csv))
    assert status == 2
    assert one_error_line(err).startswith("pdagree: error: out of memory")


def test_an_unexpected_failure_is_one_line(capsys, ratings_csv, monkeypatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise IndexError("index 3 is out of bounds\nfor axis 0")

    monkeypatch.setitem(cli.COMMANDS, "report", cli.COMMANDS["report"]._replace(run=broken))
    status, _, err = run(capsys, "report", str(ratings_csv))
    assert status == 2
    assert one_error_line(err).startswith(
        "pdagree: error: internal error (IndexError: index 3 is out of bounds for axis 0)"
    )


@pytest.mark.parametrize("seed", ["-1", "4294967296", "x"])
def test_a_bad_seed_names_the_option(capsys, ratings_csv, seed) -> None:
    status, _, err = run(capsys, "report", str(ratings_csv), "--seed", seed)
    assert status == 2
    assert f"argument --seed: must be a whole number from 0 to 4294967295; got {seed!r}" in err


def test_binary_input_says_it_is_not_text(capsys, tmp_path) -> None:
    path = tmp_path / "ratings.csv"
    path.write_bytes(b"a,b\n\x00\x01\x02,\xff\xfe\n" * 10)
    status, _, err = run(capsys, "report", str(path))
    assert status == 2
    assert one_error_line(err) == (
        f"pdagree: error: cannot read {str(path)!r}: it holds binary data, not text. Give a "
        "CSV or TSV file (or a Parquet file with the extension .parquet)."
    )


def test_a_repeated_column_name_in_the_header_is_an_error(capsys, tmp_path) -> None:
    # pandas renamed the second 'a' to 'a.1' and read it as a third rater
    path = tmp_path / "ratings.csv"
    path.write_text("item,a,b,a\n1,x,x,y\n2,y,y,y\n3,x,y,x\n")
    status, _, err = run(capsys, "report", str(path))
    assert status == 2
    assert one_error_line(err) == (
        f"pdagree: error: the header of {str(path)!r} repeats the column name 'a'; give each "
        "column its own name (pandas would rename the second one and read it as another "
        "column)."
    )


def test_a_huge_label_is_not_echoed_whole(capsys, tmp_path) -> None:
    huge = "z" * 5_000_000
    path = tmp_path / "ratings.csv"
    frame = pd.DataFrame({"a": ["x", huge, "x", "y"], "b": ["x", huge, "y", "y"]})
    frame.to_csv(path, index_label="item")
    status, out, err = run(capsys, "report", str(path))
    assert status == 0, err
    header = out.splitlines()[0]
    assert len(header) < 300 and "zzz..." in header
    assert all(len(line) < 2000 for line in err.splitlines())


def test_a_huge_label_in_an_error_is_cut(capsys, tmp_path) -> None:
    huge = "q" * 1_000_000
    path = tmp_path / "ratings.csv"
    frame = pd.DataFrame({"a": ["x", "y", "x"], "b": ["x", "y", "y"]})
    frame.to_csv(path, index_label="item")
    status, _, err = run(capsys, "report", str(path), "--categories", f"x,y,{huge},{huge}")
    assert status == 2
    assert len(one_error_line(err)) <= len("pdagree: error: ") + 1000


def test_numbers_survive_the_header_check(capsys, tmp_path) -> None:
    path = tmp_path / "ratings.csv"
    pd.DataFrame(np.arange(12).reshape(4, 3) % 3, columns=["1", "2", "3"]).to_csv(
        path, index_label="item"
    )
    status, _, err = run(capsys, "report", str(path), "--format", "csv")
    assert status == 0, err
