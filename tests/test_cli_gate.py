"""The quality gate (``--fail-under``) and reference labels from a file (``--gold-file``),
run as a process as a pipeline runs them, and ``Ratings.against`` with a frame of reference
labels (#30)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import pdagree
from pdagree.cli import main

FLEISS = pdagree.datasets.load("fleiss1971")


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pdagree", *argv], capture_output=True, text=True, check=False
    )


def test_report_gate_as_a_process() -> None:
    report = FLEISS.agree.report()
    alpha, fleiss = report.loc["alpha[nominal]", "value"], report.loc["fleiss", "value"]
    done = run("report", "--example", "fleiss1971", "--fail-under", "alpha=0.667,fleiss=0.3")
    assert done.returncode == 1
    assert done.stderr.splitlines() == [f"pdagree: alpha[nominal] {alpha:.4g} < 0.667"]
    assert "fleiss" in done.stdout  # the report is written as usual
    passed = run("report", "--example", "fleiss1971", "--fail-under", f"alpha={alpha - 0.01}")
    assert (passed.returncode, passed.stderr) == (0, "")
    assert fleiss > 0.3


def test_report_gate_on_the_lower_bound() -> None:
    low = FLEISS.agree.fleiss(confidence_level=0.95).to_frame().loc["fleiss", "low"]
    argv = ["report", "--example", "fleiss1971", "--confidence-level", "0.95"]
    done = run(*argv, "--fail-under", "fleiss=0.4", "--fail-under-lower")
    assert done.returncode == 1
    assert done.stderr.strip() == f"pdagree: fleiss lower bound {low:.4g} < 0.4"
    assert run(*argv, "--fail-under", "fleiss=0.4").returncode == 0  # the value is 0.43


def test_per_category_and_per_rater_gates_name_the_rows(
    capsys: pytest.CaptureFixture[str],
) -> None:
    kappas = FLEISS.agree.per_category()["kappa"]
    assert main(["per-category", "--example", "fleiss1971", "--fail-under", "0.3"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [f"pdagree: kappa of {c} {k:.4g} < 0.3" for c, k in kappas.items() if k < 0.3]
    vs_rest = FLEISS.agree.per_rater()["vs_rest"]
    assert main(["per-rater", "--example", "fleiss1971", "--fail-under", "vs_rest=0.3"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [f"pdagree: vs_rest of {r} {v:.4g} < 0.3" for r, v in vs_rest.items() if v < 0.3]
    assert main(["per-rater", "--example", "fleiss1971", "--fail-under", "0.0"]) == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--fail-under", "kappa=0.3"], "names 'kappa', which is not in the report"),
        (["--fail-under", "alpha=high"], "thresholds must be numbers; got 'high'"),
        (["--fail-under", "0.6"], "needs name=threshold pairs"),
        (["--fail-under", "fleiss=0.3", "--fail-under-lower"], "pass `--confidence-level`"),
        (["--fail-under-lower"], "`--fail-under-lower` needs `--fail-under`"),
    ],
)
def test_gate_usage_errors(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(["report", "--example", "fleiss1971", *argv]) == 2
    assert message in capsys.readouterr().err


def test_gate_by_group_names_the_group(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    frame = FLEISS.assign(ward=["a", "b"] * 15)
    path = tmp_path / "wards.csv"
    frame.to_csv(path, index_label="patient")
    table = frame.agree(by="ward").report()
    assert main(["report", str(path), "--by", "ward", "--fail-under", "fleiss=0.9"]) == 1
    err = capsys.readouterr().err.splitlines()
    values = table.xs("fleiss", level="coefficient")["value"]
    assert err == [f"pdagree: {g} / fleiss {v:.4g} < 0.9" for g, v in values.items()]


# --------------------------------------------------------------------------- gold labels


def _gold() -> pd.Series:
    return FLEISS["rater1"].rename("answer")


@pytest.mark.filterwarnings("ignore::pdagree.UndefinedStatisticWarning")
def test_against_a_frame_of_reference_labels() -> None:
    ratings = FLEISS.drop(columns="rater1").agree()
    expected = ratings.against(_gold(), average="macro")
    frame = _gold().rename_axis("item").reset_index().rename(columns={"answer": "label"})
    pd.testing.assert_frame_equal(ratings.against(frame, average="macro"), expected)
    one_column = _gold().to_frame()
    pd.testing.assert_frame_equal(ratings.against(one_column, average="macro"), expected)
    with pytest.raises(ValueError, match="needs an `item` and a `label` column"):
        ratings.against(frame.rename(columns={"item": "doc"}).assign(x=1))


@pytest.mark.filterwarnings("ignore::pdagree.UndefinedStatisticWarning")
def test_cli_gold_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ratings_path = tmp_path / "ratings.csv"
    FLEISS.drop(columns="rater1").to_csv(ratings_path, index_label="patient")
    gold_path = tmp_path / "gold.csv"
    _gold().rename_axis("patient").reset_index().to_csv(gold_path, index=False)
    argv = ["against", str(ratings_path), "--gold-file", str(gold_path), "--format", "csv"]
    assert (
        main([*argv, "--gold-item", "patient", "--gold-label", "answer", "--average", "micro"])
        == 0
    )
    import io

    table = pd.read_csv(io.StringIO(capsys.readouterr().out), index_col=0)
    expected = FLEISS.drop(columns="rater1").agree().against(_gold(), average="micro")
    assert table["f1"].to_numpy() == pytest.approx(expected["f1"].to_numpy())
    assert main(argv) == 2
    assert "has no column 'item'" in capsys.readouterr().err
