"""The command line's input and output as a Unix tool (issue 8, point 12): a closed pipe,
standard input, read_csv's missing-value markers, and a TSV file saved as .csv."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pdagree import datasets
from pdagree.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def read_report(out: str) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(out), index_col="coefficient")


@pytest.fixture
def fleiss() -> pd.DataFrame:
    return datasets.load("fleiss1971")


# --------------------------------------------------------------------------- closed pipe


@pytest.mark.skipif(shutil.which("head") is None or sys.platform == "win32", reason="needs head")
def test_output_into_head_exits_quietly(tmp_path: Path) -> None:
    # A report much longer than a pipe's buffer (64 KiB), read by `head -1`.
    rng = np.random.default_rng(0)
    n = 1500
    big = pd.DataFrame(
        {
            "g": np.repeat(np.arange(n), 4),
            "a": rng.choice(["x", "y", "z"], 4 * n),
            "b": rng.choice(["x", "y", "z"], 4 * n),
        },
        index=pd.RangeIndex(4 * n, name="item"),
    )
    path = tmp_path / "big.csv"
    big.to_csv(path)
    command = (
        f"'{sys.executable}' -m pdagree report '{path}' --by g --format csv | head -1; "
        'echo "status ${PIPESTATUS[0]}" >&2'
    )
    done = subprocess.run(
        ["bash", "-c", command], capture_output=True, text=True, check=False, timeout=300
    )
    assert done.stdout == "g,coefficient,value,observed,expected,n_items,n_raters,n_categories\n"
    errors = [line for line in done.stderr.splitlines() if "warning:" not in line]
    assert errors == ["status 0"], done.stderr


def test_closed_output_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    class Closed(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(sys, "stdout", Closed())
    assert main(["report", "--example", "fleiss1971"]) == 0
    assert main(["datasets"]) == 0


# --------------------------------------------------------------------------- standard input


def test_dash_reads_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, fleiss: pd.DataFrame
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(fleiss.to_csv()))
    status, out, err = run(capsys, "report", "-", "--format", "csv")
    assert (status, err) == (0, "")
    got = read_report(out)
    want = fleiss.agree.report()
    np.testing.assert_array_equal(got.to_numpy(dtype=float), want.to_numpy(dtype=float))


def test_dash_reads_standard_input_with_sep_and_long_layout(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, fleiss: pd.DataFrame
) -> None:
    long = fleiss.reset_index().melt(id_vars="patient", var_name="coder", value_name="dx")
    monkeypatch.setattr(sys, "stdin", io.StringIO(long.to_csv(sep="\t", index=False)))
    argv = ["report", "-", "--sep", "\\t", "--item", "patient", "--rater", "coder", "--label"]
    status, out, _ = run(capsys, *argv, "dx")
    assert status == 0
    assert out.startswith("<stdin> (long): 30 items, 6 raters, 5 categories")


def test_dash_in_a_subprocess(fleiss: pd.DataFrame) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pdagree", "report", "-"],
        input=fleiss.to_csv(),
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("<stdin> (wide): 30 items, 6 raters, 5 categories")


def test_empty_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    status, out, err = run(capsys, "report", "-")
    assert (status, out) == (2, "")
    assert err == "pdagree: error: cannot read standard input: No columns to parse from file\n"


# --------------------------------------------------------------------------- missing values


@pytest.mark.parametrize("marker", ["NA", "N/A", "null", "NULL", "NaN", "#N/A", "<NA>", "nan"])
def test_read_csv_markers_are_missing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, marker: str
) -> None:
    # As R's write.csv writes a missing value.
    path = tmp_path / "r_export.csv"
    path.write_text(f"item,a,b\n1,x,{marker}\n2,x,x\n3,y,y\n4,{marker},y\n")
    status, out, _ = run(capsys, "report", str(path), "--format", "csv")
    assert status == 0
    got = read_report(out)
    assert got.loc["observed", "n_items"] == 2
    assert got.loc["observed", "n_categories"] == 2
    status, out, _ = run(capsys, "report", str(path), "--no-default-na", "--format", "csv")
    got = read_report(out)
    assert got.loc["observed", "n_items"] == 4
    assert got.loc["observed", "n_categories"] == 3  # the marker is a label


def test_no_default_na_is_for_text_files(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "report", "--example", "fleiss1971", "--no-default-na")
    assert status == 2
    assert err == (
        "pdagree: error: `--sep`, `--na` and `--no-default-na` apply to files, not to --example.\n"
    )


def test_help_documents_the_markers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "--no-default-na" in out
    assert "read_csv's missing-value markers (NA, N/A, NaN, null, NULL, None" in out
    assert "- reads CSV (or --sep) from standard input" in out


# ------------------------------------------------------------------------ wrong separator


def test_tsv_saved_as_csv_gets_a_hint(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fleiss: pd.DataFrame
) -> None:
    path = tmp_path / "ratings.csv"
    fleiss.to_csv(path, sep="\t")
    status, out, err = run(capsys, "report", str(path))
    assert (status, out) == (2, "")
    assert err == (
        f"pdagree: error: {str(path)!r} parsed into one column, "
        "'patient\\trater1\\trater2\\trater3\\trater4\\trater5\\trater6': its fields look "
        "separated by '\\t', not ','. Pass --sep '\\t'.\n"
    )
    status, out, _ = run(capsys, "report", str(path), "--sep", "\\t", "--format", "csv")
    assert status == 0


def test_semicolon_csv_gets_a_hint(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fleiss: pd.DataFrame
) -> None:
    path = tmp_path / "ratings.csv"
    fleiss.to_csv(path, sep=";")
    status, _, err = run(capsys, "report", str(path))
    assert status == 2
    assert err.endswith("its fields look separated by ';', not ','. Pass --sep ';'.\n")


# ------------------------------------------------------------------ output by extension


def test_the_output_file_extension_names_the_format(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # `-o report.csv` wrote the aligned text table under a .csv name (and `-o x.parquet` a
    # text file named .parquet); without --format the extension now names the format.
    expected = read_report(run(capsys, "report", "--example", "fleiss1971", "--format", "csv")[1])
    for suffix, read in {
        ".csv": lambda p: pd.read_csv(p, index_col="coefficient"),
        ".tsv": lambda p: pd.read_csv(p, sep="\t", index_col="coefficient"),
        ".json": lambda p: pd.read_json(p).set_index("coefficient"),
    }.items():
        path = tmp_path / f"report{suffix}"
        assert run(capsys, "report", "--example", "fleiss1971", "-o", str(path))[0] == 0
        pd.testing.assert_frame_equal(read(path), expected, check_dtype=False)
    for suffix, start in {
        ".md": "| coefficient |",
        ".html": "<!DOCTYPE html>",
        ".txt": "fleiss",
    }.items():
        path = tmp_path / f"report{suffix}"
        assert run(capsys, "report", "--example", "fleiss1971", "-o", str(path))[0] == 0
        assert path.read_text(encoding="utf-8").startswith(start), suffix
    # an explicit --format wins over the extension
    path = tmp_path / "table.csv"
    run(capsys, "report", "--example", "fleiss1971", "--format", "table", "-o", str(path))
    assert path.read_text(encoding="utf-8").startswith("fleiss1971 (wide)")


@pytest.mark.parametrize("name", ["report.parquet", "report.xlsx", "labels.html"])
def test_an_output_the_command_line_cannot_write_is_refused_first(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    command = "consensus" if name.startswith("labels") else "report"
    path = tmp_path / name
    status, out, err = run(capsys, command, "--example", "fleiss1971", "-o", str(path))
    assert status == 2 and out == "" and not path.exists()
    assert "--format" in err and (name.rsplit(".", 1)[1] in err)
    if command == "consensus":
        assert "`pdagree consensus` does not write" in err
    else:
        assert f"cannot write {str(path)!r}" in err


def test_the_output_extension_as_a_process(tmp_path: Path) -> None:
    path = tmp_path / "labels.json"
    done = subprocess.run(
        [sys.executable, "-m", "pdagree", "consensus", "--example", "fleiss1971", "-o", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    labels = pd.read_json(path)
    assert len(labels) == 30 and {"label", "probability", "margin"} <= set(labels.columns)


def test_dash_as_the_output_is_standard_output(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `-` reads standard input; `-o -` wrote a file named "-".
    monkeypatch.chdir(tmp_path)
    status, out, _ = run(capsys, "report", "--example", "fleiss1971", "--format", "csv", "-o", "-")
    assert status == 0 and not (tmp_path / "-").exists()
    # Fleiss (1971), the diagnoses of 30 patients by 6 psychiatrists: kappa = 0.430
    assert read_report(out).loc["fleiss", "value"] == pytest.approx(0.4302, abs=1e-4)
