"""Tests of the ``pdagree`` command line (:mod:`pdagree.cli`)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import pdagree
from pdagree import datasets
from pdagree.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``main(argv)``: the exit status, stdout and stderr."""
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# pandas 2's default float parser is not exact; pandas 3's is (and deprecates the option).
EXACT = {"float_precision": "round_trip"} if int(pd.__version__.split(".")[0]) < 3 else {}


def read_csv_output(out: str) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(out), index_col="coefficient", **EXACT)


def row(table: str, name: str) -> list[str]:
    """The cells of the row of the printed table whose first cell is ``name``."""
    for line in table.splitlines():
        cells = line.split()
        if cells and cells[0] == name:
            return cells[1:]
    raise AssertionError(f"no row {name!r} in\n{table}")


@pytest.fixture
def fleiss() -> pd.DataFrame:
    return datasets.load("fleiss1971")


@pytest.fixture
def expected(fleiss: pd.DataFrame) -> pd.DataFrame:
    return fleiss.agree.report()


def assert_same_report(out: str, expected: pd.DataFrame) -> None:
    got = read_csv_output(out)
    assert list(got.index) == list(expected.index)
    assert list(got.columns) == list(expected.columns)
    np.testing.assert_array_equal(got.to_numpy(dtype=float), expected.to_numpy(dtype=float))


# --------------------------------------------------------------------------- --example


def test_example_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "report", "--example", "fleiss1971")
    assert status == 0
    assert err == ""
    header, *table = out.splitlines()
    assert header.startswith("fleiss1971 (wide): 30 items, 6 raters, 5 categories (")
    assert row("\n".join(table), "fleiss")[:3] == ["0.4302", "0.5556", "0.2199"]
    assert table[0].split() == [
        "value",
        "observed",
        "expected",
        "n_items",
        "n_raters",
        "n_categories",
    ]


def test_example_csv_is_full_precision(
    capsys: pytest.CaptureFixture[str], expected: pd.DataFrame
) -> None:
    status, out, _ = run(capsys, "report", "--example", "fleiss1971", "--format", "csv")
    assert status == 0
    assert out.splitlines()[0] == (
        "coefficient,value,observed,expected,n_items,n_raters,n_categories"
    )
    assert_same_report(out, expected)


def test_example_json_is_full_precision(
    capsys: pytest.CaptureFixture[str], expected: pd.DataFrame
) -> None:
    status, out, _ = run(capsys, "report", "--example", "fleiss1971", "--format", "json")
    assert status == 0
    records = json.loads(out)
    assert [r["coefficient"] for r in records] == list(expected.index)
    fleiss = records[list(expected.index).index("fleiss")]
    assert fleiss["value"] == float(expected.loc["fleiss", "value"])
    assert fleiss["n_items"] == 30
    assert set(fleiss) == {"coefficient", *expected.columns}


def test_long_example_needs_no_columns(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "report", "--example", "crowd_sparse", "--format", "csv")
    assert status == 0
    frame = datasets.load("crowd_sparse")
    want = frame.agree(item="item", rater="annotator", label="label").report()
    assert_same_report(out, want)


def test_example_by(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "report", "--example", "crowd_sparse", "--by", "batch")
    assert status == 0
    header, table = out.split("\n", 1)
    assert header.startswith("crowd_sparse (long, by batch): 500 items, 40 raters")
    assert header.endswith(", 3 groups")
    assert table.splitlines()[1].split() == ["batch", "coefficient"]


def test_unknown_example_lists_the_names(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "report", "--example", "fleiss")
    assert status == 2
    assert out == ""
    assert err.startswith("pdagree: error: unknown example 'fleiss'; choose one of ")
    for name in datasets.names():
        assert name in err
    assert "Traceback" not in err


# --------------------------------------------------------------------------- files


def test_wide_csv(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    fleiss: pd.DataFrame,
    expected: pd.DataFrame,
) -> None:
    path = tmp_path / "diagnoses.csv"
    fleiss.to_csv(path)
    status, out, _ = run(capsys, "report", str(path), "--format", "csv")
    assert status == 0
    assert_same_report(out, expected)
    status, out, _ = run(capsys, "report", str(path))
    assert out.splitlines()[0].startswith(f"{path} (wide): 30 items, 6 raters, 5 categories")


def test_wide_csv_index_col(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    wide = pd.DataFrame(
        {"ann1": ["a", "a", "b", "b"], "item": [1, 2, 3, 4], "ann2": ["a", "b", "b", "b"]}
    )
    path = tmp_path / "wide.csv"
    wide.to_csv(path, index=False)
    status, out, _ = run(capsys, "report", str(path), "--index-col", "item", "--format", "csv")
    assert status == 0
    assert_same_report(out, wide.set_index("item").agree.report())
    # Without --index-col the first column (ann1) is the index and `item` a rater.
    status, _, err = run(capsys, "report", str(path))
    assert status == 2
    # The likely cause first, naming the columns (issue 17), then what went wrong.
    assert err.startswith(
        "pdagree: error: the rater columns hold different kinds of labels ('item' holds "
        "numbers; 'ann2' holds text): a long frame read as wide, or a column that is not "
        "ratings, looks like this."
    )
    assert "labels of different types ['int', 'str']" in err


def test_wide_csv_no_index(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    wide = pd.DataFrame({"ann1": ["a", "a", "b", "b"], "ann2": ["a", "b", "b", "b"]})
    path = tmp_path / "wide.csv"
    wide.to_csv(path, index=False)
    status, out, _ = run(capsys, "report", str(path), "--no-index", "--format", "csv")
    assert status == 0
    got = read_csv_output(out)
    assert got.loc["cohen", "value"] == pytest.approx(0.5)
    assert got.loc["cohen", "n_items"] == 4


def test_wide_csv_raters(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "diagnoses.csv"
    datasets.load("fleiss1971").to_csv(path)
    status, out, _ = run(
        capsys, "report", str(path), "--raters", "rater1,rater2", "--format", "csv"
    )
    assert status == 0
    want = datasets.load("fleiss1971").agree(raters=["rater1", "rater2"]).report()
    assert "cohen" in want.index
    assert_same_report(out, want)


def test_long_csv(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    fleiss: pd.DataFrame,
    expected: pd.DataFrame,
) -> None:
    long = fleiss.reset_index().melt(id_vars="patient", var_name="coder", value_name="diagnosis")
    path = tmp_path / "long.csv"
    long.to_csv(path, index=False)
    argv = ["report", str(path), "--item", "patient", "--rater", "coder", "--label", "diagnosis"]
    status, out, _ = run(capsys, *argv, "--format", "csv")
    assert status == 0
    assert_same_report(out, expected)
    status, out, _ = run(capsys, *argv)
    assert out.startswith(f"{path} (long): 30 items, 6 raters, 5 categories")


def test_counts_csv(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fleiss: pd.DataFrame
) -> None:
    path = tmp_path / "counts.csv"
    fleiss.agree.counts().to_csv(path)
    status, out, _ = run(capsys, "report", str(path), "--layout", "counts")
    assert status == 0
    header, table = out.split("\n", 1)
    assert header == (
        f"{path} (counts): 30 items, 5 categories (Depression, Neurosis, Other, "
        "Personality Disorder, Schizophrenia), up to 6 ratings per item"
    )
    assert row(table, "fleiss")[0] == "0.4302"
    assert "conger" not in table  # needs rater identity
    status, out, _ = run(capsys, "report", str(path), "--layout", "counts", "--format", "csv")
    counts = pd.read_csv(path, index_col=0)
    assert_same_report(out, counts.agree(layout="counts").report())


def test_tsv_by_extension_and_sep(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    fleiss: pd.DataFrame,
    expected: pd.DataFrame,
) -> None:
    for name in ("ratings.tsv", "ratings.tab"):
        path = tmp_path / name
        fleiss.to_csv(path, sep="\t")
        status, out, _ = run(capsys, "report", str(path), "--format", "csv")
        assert status == 0
        assert_same_report(out, expected)
    path = tmp_path / "ratings.txt"
    fleiss.to_csv(path, sep=";")
    status, out, _ = run(capsys, "report", str(path), "--sep", ";", "--format", "csv")
    assert status == 0
    assert_same_report(out, expected)
    fleiss.to_csv(path, sep="\t")
    status, out, _ = run(capsys, "report", str(path), "--sep", "\\t", "--format", "csv")
    assert status == 0
    assert_same_report(out, expected)


def test_compressed_csv(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    fleiss: pd.DataFrame,
    expected: pd.DataFrame,
) -> None:
    path = tmp_path / "ratings.tsv.gz"
    fleiss.to_csv(path, sep="\t")
    status, out, _ = run(capsys, "report", str(path), "--format", "csv")
    assert status == 0
    assert_same_report(out, expected)


def test_parquet(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    fleiss: pd.DataFrame,
    expected: pd.DataFrame,
) -> None:
    pytest.importorskip("pyarrow")
    with_index = tmp_path / "ratings.parquet"
    fleiss.to_parquet(with_index)
    status, out, _ = run(capsys, "report", str(with_index), "--format", "csv")
    assert status == 0
    assert_same_report(out, expected)
    # Written without its index: the first column is the item, as in a CSV file.
    without_index = tmp_path / "ratings.pq"
    fleiss.reset_index().to_parquet(without_index, index=False)
    status, out, _ = run(capsys, "report", str(without_index), "--format", "csv")
    assert status == 0
    assert_same_report(out, expected)


def test_parquet_without_pyarrow(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "ratings.parquet"
    path.write_bytes(b"PAR1")
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # makes `import pyarrow` fail
    status, out, err = run(capsys, "report", str(path))
    assert status == 2
    assert out == ""
    assert "needs pyarrow" in err
    assert "pip install pyarrow" in err


def test_not_parquet(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    path = tmp_path / "ratings.parquet"
    path.write_text("patient,a,b\n1,x,y\n")
    status, _, err = run(capsys, "report", str(path))
    assert status == 2
    assert err.startswith(f"pdagree: error: cannot read {str(path)!r} as Parquet: ")


# --------------------------------------------------------------------------- options


def test_by_long_csv(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    crowd = datasets.load("crowd_sparse")
    path = tmp_path / "crowd.csv"
    crowd.to_csv(path, index=False)
    argv = ["report", str(path), "--item", "item", "--rater", "annotator", "--label", "label"]
    status, out, _ = run(capsys, *argv, "--by", "batch", "--format", "csv")
    assert status == 0
    got = pd.read_csv(io.StringIO(out), index_col=["batch", "coefficient"], **EXACT)
    want = crowd.agree(item="item", rater="annotator", label="label", by="batch").report()
    assert list(got.index) == list(want.index)
    np.testing.assert_array_equal(got.to_numpy(dtype=float), want.to_numpy(dtype=float))


def test_by_several_columns(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    crowd = datasets.load("crowd_sparse").assign(half=lambda f: f["item"] % 2)
    path = tmp_path / "crowd.csv"
    crowd.to_csv(path, index=False)
    argv = ["report", str(path), "--item", "item", "--rater", "annotator", "--label", "label"]
    want = crowd.agree(
        item="item", rater="annotator", label="label", by=["batch", "half"]
    ).report()
    for by in (["--by", "batch", "--by", "half"], ["--by", "batch,half"]):
        status, out, _ = run(capsys, *argv, *by, "--format", "json")
        assert status == 0
        records = json.loads(out)
        assert [(r["batch"], r["half"], r["coefficient"]) for r in records] == list(want.index)
        assert [r["value"] for r in records] == list(want["value"])


def test_by_wide_csv(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    wide = datasets.load("fleiss1971").assign(ward=[1, 2] * 15)
    path = tmp_path / "wards.csv"
    wide.to_csv(path)
    status, out, _ = run(capsys, "report", str(path), "--by", "ward", "--format", "csv")
    assert status == 0
    got = pd.read_csv(io.StringIO(out), index_col=["ward", "coefficient"], **EXACT)
    want = wide.agree(by="ward").report()
    np.testing.assert_array_equal(got.to_numpy(dtype=float), want.to_numpy(dtype=float))


def test_categories_strings(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["report", "--example", "fort2011_balanced", "--format", "csv"]
    status, out, _ = run(capsys, *argv)
    assert read_csv_output(out).loc["bennett", "value"] == pytest.approx(0.6)
    status, out, _ = run(capsys, *argv, "--categories", "Yes,No,C,D")
    assert status == 0
    got = read_csv_output(out)
    assert got.loc["bennett", "value"] == pytest.approx(0.7333333333333333)
    assert got.loc["bennett", "n_categories"] == 4
    assert got.loc["cohen", "value"] == pytest.approx(0.6)


def test_categories_numbers(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    wide = pd.DataFrame(
        {"a": [1, 1, 2, 2, 1], "b": [1, 2, 2, 2, np.nan], "c": [1, 1, 2, 2, 2]},
        index=pd.Index(list("vwxyz"), name="item"),
    )
    path = tmp_path / "scores.csv"
    wide.to_csv(path)
    status, out, _ = run(capsys, "report", str(path), "--categories", "1,2,3", "--format", "csv")
    assert status == 0
    got = read_csv_output(out)
    want = wide.agree(categories=[1, 2, 3]).report()
    assert got.loc["bennett", "n_categories"] == 3
    np.testing.assert_array_equal(got.to_numpy(dtype=float), want.to_numpy(dtype=float))
    status, _, err = run(capsys, "report", str(path), "--categories", "1,two")
    assert status == 2
    assert err == (
        "pdagree: error: `--categories` must be numbers, because every label in the data is a "
        "number; got ['two'].\n"
    )


def test_categories_missing_a_label(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "report", "--example", "fort2011_balanced", "--categories", "Yes")
    assert status == 2
    assert err.startswith("pdagree: error: ")
    assert "missing from `--categories`" in err


def test_na_markers_are_missing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # Issue 8, point 12: read_csv's markers (NA, N/A, null, ...) are missing, as in R exports;
    # --no-default-na keeps them as labels (the old default: only empty cells were missing).
    path = tmp_path / "labels.csv"
    path.write_text("item,a,b\n1,NA,NA\n2,x,x\n3,x,\n4,NA,x\n")
    status, out, _ = run(capsys, "report", str(path), "--format", "csv")
    assert status == 0
    got = read_csv_output(out)
    assert got.loc["observed", "n_items"] == 1  # only item 2 has two ratings
    assert got.loc["observed", "n_categories"] == 1
    status, out, _ = run(capsys, "report", str(path), "--no-default-na", "--format", "csv")
    assert status == 0
    got = read_csv_output(out)
    assert got.loc["observed", "n_items"] == 3  # "NA" is a label
    argv = ["report", str(path), "--no-default-na", "--na", "NA", "--format", "csv"]
    status, out, _ = run(capsys, *argv)
    assert status == 0
    assert read_csv_output(out).loc["observed", "n_items"] == 1


def test_undefined_coefficient_warns(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "same.csv"
    path.write_text("item,a,b\n1,x,x\n2,x,x\n")
    status, out, err = run(capsys, "report", str(path), "--format", "json")
    assert status == 0
    records = {r["coefficient"]: r for r in json.loads(out)}
    assert records["fleiss"]["value"] is None  # nan
    assert records["observed"]["value"] == 1.0
    assert "pdagree: warning: `fleiss` is undefined" in err


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["report", "{missing}"], "no such file: '{missing}'"),
        (["report", "{dir}"], "'{dir}' is a directory, not a file of ratings"),
        (
            ["report", "{long}", "--item", "doc", "--rater", "coder", "--label", "tag"],
            "`--item` names column 'doc', which is not in the frame; available columns: "
            "['patient', 'coder', 'diagnosis'].",
        ),
        (
            ["report", "{long}", "--item", "patient", "--rater", "coder"],
            "a long layout needs --item, --rater and --label; missing --label.",
        ),
        (
            ["report", "{long}", "--layout", "long"],
            "a long layout needs --item, --rater and --label; missing --item, --rater, --label.",
        ),
        (
            ["report", "{long}", "--item", "patient", "--layout", "counts"],
            "--item describe a long layout; they do not apply to --layout counts.",
        ),
        (
            ["report", "{long}", "--index-col", "nope"],
            "`--index-col` names column 'nope', which is not in the file; available columns: "
            "['patient', 'coder', 'diagnosis'].",
        ),
        (
            ["report", "{empty}"],
            "cannot read '{empty}': No columns to parse from file",
        ),
        (
            ["report", "{long}", "--raters", "coder,nope"],
            "`--raters` names column 'nope', which is not in the frame; available columns: "
            "['coder', 'diagnosis'].",
        ),
        (
            ["report", "--example", "fleiss1971", "--no-index"],
            "`--index-col` and `--no-index` apply to files, not to --example.",
        ),
        (["datasets", "nope"], "unknown data set 'nope'; choose one of "),
    ],
)
def test_errors(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    fleiss: pd.DataFrame,
    argv: list[str],
    message: str,
) -> None:
    long = fleiss.reset_index().melt(id_vars="patient", var_name="coder", value_name="diagnosis")
    long.to_csv(tmp_path / "long.csv", index=False)
    (tmp_path / "empty.csv").write_text("")
    paths = {
        "missing": str(tmp_path / "missing.csv"),
        "dir": str(tmp_path),
        "long": str(tmp_path / "long.csv"),
        "empty": str(tmp_path / "empty.csv"),
    }
    status, out, err = run(capsys, *(arg.format(**paths) for arg in argv))
    assert status == 2
    assert out == ""
    assert err.startswith("pdagree: error: " + message.format(**paths))
    assert err.count("\n") == 1
    assert "Traceback" not in err


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    cases = [
        (["report"], "one of the arguments PATH --example is required"),
        (["report", "x.csv", "--example", "fleiss1971"], "not allowed with argument"),
        (["report", "--example", "fleiss1971", "--format", "xml"], "invalid choice: 'xml'"),
        ([], "the following arguments are required: COMMAND"),
    ]
    for argv, message in cases:
        status, out, err = run(capsys, *argv)
        assert (status, out) == (2, "")
        # one line, as every other failure (issue 17)
        assert err.startswith("pdagree: error: ") and err.count("\n") == 1, err
        assert message in err and "--help`)" in err


def test_help_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--version")
    assert (status, out) == (0, f"pdagree {pdagree.__version__}\n")
    status, out, _ = run(capsys, "report", "--help")
    assert status == 0
    assert out.startswith("usage: pdagree report")


def test_main_reads_sys_argv(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "argv", ["pdagree", "report", "--example", "fleiss1971"])
    assert main() == 0
    assert "fleiss1971 (wide)" in capsys.readouterr().out


# --------------------------------------------------------------------------- datasets


def test_datasets_lists_every_name(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "datasets")
    assert status == 0
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == datasets.names()
    fleiss = lines[datasets.names().index("fleiss1971")]
    assert "Psychiatric diagnoses of 30 patients" in fleiss
    assert max(map(len, lines)) <= 99


def test_datasets_describes_one(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "datasets", "fleiss1971")
    assert status == 0
    assert " ".join(out.split()) == " ".join(datasets.describe("fleiss1971").split())


# --------------------------------------------------------------------------- python -m


def test_python_dash_m() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pdagree", "report", "--example", "fleiss1971"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.startswith("fleiss1971 (wide): 30 items, 6 raters")
    assert row(done.stdout, "fleiss")[0] == "0.4302"


def test_python_dash_m_error() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pdagree", "report", "--example", "nope"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("pdagree: error: unknown example 'nope'")


def test_confidence_level_adds_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "--example", "fleiss1971", "--confidence-level", "0.95"]) == 0
    out = capsys.readouterr().out
    header = out.splitlines()[1].split()
    assert header[-5:] == ["se", "low", "high", "p_value", "ci_method"]
    fleiss = next(line for line in out.splitlines() if line.startswith("fleiss "))
    # The analytic interval of Ratings.report(confidence_level=0.95), rounded to 4 decimals.
    assert fleiss.split()[-5:-2] == ["0.0542", "0.3194", "0.5411"]
    # p < 0.00005: pandas prints a column that rounds to zero throughout as "0.0" (every
    # p-value of this report is analytic or jackknife now, none a bootstrap 1 / 2001).
    assert float(fleiss.split()[-2]) == 0.0
    assert fleiss.split()[-1] == "analytic"


def test_bootstrap_report_is_seeded(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["report", "--example", "artstein_poesio2005", "--confidence-level", "0.9"]
    argv += ["--ci-method", "bootstrap", "--resamples", "200", "--seed", "4", "--format", "csv"]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert main(argv) == 0
    assert capsys.readouterr().out == first
    assert "bootstrap" in first


def test_confidence_level_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "--example", "fleiss1971", "--confidence-level", "95"]) == 2
    err = capsys.readouterr().err
    assert "`--confidence-level` must be a number strictly between 0 and 1" in err
