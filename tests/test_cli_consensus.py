"""``pdagree consensus``: the Python API's ``Consensus.to_frame()`` as CSV, for pipelines."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import pdagree
from pdagree.cli import main


@pytest.fixture
def long_file(tmp_path: Path) -> Path:
    rng = np.random.default_rng(4)
    truth = rng.integers(0, 3, 60)
    rows = [
        (f"item{i}", f"coder{j}", int(truth[i] if rng.random() < 0.75 else rng.integers(0, 3)))
        for i in range(60)
        for j in range(4)
        if rng.random() < 0.8
    ]
    path = tmp_path / "annotations.csv"
    pd.DataFrame(rows, columns=["doc", "coder", "tag"]).to_csv(path, index=False)
    return path


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize(
    "method",
    ["majority", "dawid_skene", "one_coin", "glad", "mace", "wawa", "zero_based_skill", "mmsr"],
)
def test_one_row_per_item_equal_to_the_python_api(
    long_file: Path, method: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(
        [
            "consensus",
            str(long_file),
            "--item",
            "doc",
            "--rater",
            "coder",
            "--label",
            "tag",
            "--method",
            method,
            "--seed",
            "7",
        ],
        capsys,
    )
    assert status == 0, err
    got = pd.read_csv(io.StringIO(out), index_col="doc")
    frame = pd.read_csv(long_file)
    # The same default for ties as Python's (a random draw, #26), the same labels for a seed.
    want = frame.agree(item="doc", rater="coder", label="tag").consensus(method, rng=7).to_frame()
    assert list(got.columns) == ["label", "probability", "margin", "n_ratings"]
    assert got.index.tolist() == want.index.tolist()
    assert got["label"].tolist() == want["label"].tolist()
    np.testing.assert_allclose(got["probability"], want["probability"], rtol=1e-12)
    assert got["n_ratings"].tolist() == want["n_ratings"].tolist()


def test_output_file_gold_rater_and_examples(
    long_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "labels.csv"
    args = ["consensus", str(long_file), "--item", "doc", "--rater", "coder", "--label", "tag"]
    status, out, _ = run([*args, "--gold", "coder0", "-o", str(target)], capsys)
    assert status == 0 and out == ""
    labels = pd.read_csv(target, index_col="doc")
    frame = pd.read_csv(long_file)
    expert = frame[frame["coder"] == "coder0"].set_index("doc")["tag"]
    assert (labels.loc[expert.index, "label"] == expert).all()
    assert (labels.loc[expert.index, "probability"] == 1.0).all()
    status, out, _ = run(["consensus", "--example", "fleiss1971", "--method", "majority"], capsys)
    assert status == 0 and out.splitlines()[0] == "patient,label,probability,margin,n_ratings"
    assert len(out.splitlines()) == 31
    assert isinstance(pdagree.consensus.METHODS, tuple)


def test_clear_errors(long_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["consensus", str(long_file), "--item", "doc", "--rater", "coder", "--label", "tag"]
    status, _, err = run([*args, "--gold", "coder9"], capsys)
    assert status == 2 and "`--gold` names rater 'coder9', which is not in the data" in err
    status, _, err = run([*args, "--method", "vote"], capsys)
    assert status == 2 and "invalid choice: 'vote'" in err
    status, _, err = run(["consensus", str(long_file), "--layout", "counts"], capsys)
    assert status == 2 and "error:" in err


def test_tol_is_the_api_tol(long_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    frame = pd.read_csv(long_file)
    argv = ["consensus", str(long_file), "--item", "doc", "--rater", "coder", "--label", "tag"]
    status, out, _ = run([*argv, "--tol", "1e-10", "--ties", "first"], capsys)
    assert status == 0
    fit = frame.agree(item="doc", rater="coder", label="tag").consensus(tol=1e-10, ties="first")
    table = pd.read_csv(io.StringIO(out), index_col=0)
    assert table["label"].tolist() == fit.to_frame()["label"].tolist()
    status, _, err = run([*argv, "--tol", "-1"], capsys)
    assert status == 2 and "`tol`" in err


def test_kos_on_binary_labels_has_no_probabilities(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = np.random.default_rng(9)
    truth = rng.integers(0, 2, 80)
    rows = [
        (f"item{i}", f"coder{j}", int(truth[i] if rng.random() < 0.8 else 1 - truth[i]))
        for i in range(80)
        for j in range(4)
    ]
    path = tmp_path / "binary.csv"
    pd.DataFrame(rows, columns=["doc", "coder", "tag"]).to_csv(path, index=False)
    args = ["consensus", str(path), "--item", "doc", "--rater", "coder", "--label", "tag"]
    status, out, err = run([*args, "--method", "kos", "--ties", "first"], capsys)
    assert status == 0, err
    got = pd.read_csv(io.StringIO(out), index_col="doc")
    frame = pd.read_csv(path).agree(item="doc", rater="coder", label="tag")
    want = frame.consensus("kos", ties="first").labels
    assert got["label"].tolist() == want.tolist()
    assert got["probability"].isna().all()
