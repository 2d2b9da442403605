"""One subcommand per analysis, ``--format`` and ``--output`` for every one, and
per-coefficient options in one report (issue #21, point 3)."""

from __future__ import annotations

import io
import json
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


@pytest.fixture
def scores(tmp_path: Path) -> Path:
    # Three LLM judges scoring 60 answers 1-10, one missing score.
    rng = np.random.default_rng(3)
    truth = rng.integers(1, 11, 60)
    frame = pd.DataFrame(
        {j: np.clip(truth + rng.integers(-2, 3, 60), 1, 10) for j in ["j1", "j2", "j3"]}
    ).astype(float)
    frame.iloc[4, 2] = np.nan
    frame.index.name = "answer"
    path = tmp_path / "scores.csv"
    frame.to_csv(path)
    return path


def test_each_analysis_is_its_method(scores: Path, capsys: pytest.CaptureFixture[str]) -> None:
    frame = pd.read_csv(scores, index_col="answer")
    ratings = frame.agree()
    expected = {
        "per-category": (ratings.per_category(), []),
        "pairwise": (ratings.pairwise("scott", weights="quadratic"),
                     ["--method", "scott", "--weights", "quadratic"]),
        "per-rater": (ratings.per_rater("fleiss"), ["--coefficient", "fleiss"]),
        "items": (ratings.items(), []),
        "against": (ratings.against("j1", average="macro"),
                    ["--gold", "j1", "--average", "macro"]),
    }  # fmt: skip
    for command, (want, options) in expected.items():
        status, out, err = run(capsys, command, str(scores), *options, "--format", "csv")
        assert status == 0, (command, err)
        got = pd.read_csv(io.StringIO(out), index_col=0)
        np.testing.assert_allclose(
            got.select_dtypes("number").to_numpy(dtype=float),
            want.reset_index(drop=want.index.nlevels == 1)
            .select_dtypes("number")
            .to_numpy(dtype=float)[:, -got.select_dtypes("number").shape[1] :],
            rtol=1e-12,
            err_msg=command,
        )
    long = scores.parent / "long.csv"
    frame.reset_index().melt(id_vars="answer", var_name="judge", value_name="score").to_csv(
        long, index=False
    )
    status, out, err = run(capsys, "icc", str(long), "--item", "answer", "--rater", "judge",
                           "--label", "score", "--format", "json")  # fmt: skip
    assert status == 0, err
    records = json.loads(out)
    want_icc = frame.reset_index().melt(id_vars="answer", var_name="judge", value_name="score")
    table = want_icc.agree(item="answer", rater="judge", label="score").icc_table()
    assert [r["value"] for r in records] == pytest.approx(table["value"].tolist(), abs=1e-12)


@pytest.mark.parametrize("fmt", ["table", "csv", "tsv", "json", "markdown"])
def test_every_format_to_a_file(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / f"out.{fmt}"
    for command in ("report", "per-category", "pairwise", "consensus"):
        status, out, err = run(capsys, command, "--example", "fleiss1971", "--format", fmt,
                               "--output", str(target))  # fmt: skip
        assert status == 0, err
        assert out == ""
        text = target.read_text()
        if fmt == "json":
            assert isinstance(json.loads(text), list)
        elif fmt == "markdown":
            assert text.splitlines()[1].startswith("|---|")
        elif fmt == "tsv":
            assert "\t" in text.splitlines()[0]
        elif fmt == "table":
            assert text.startswith("fleiss1971 (wide)")
        else:
            assert "," in text.splitlines()[0]


def test_per_coefficient_options_in_one_report(capsys: pytest.CaptureFixture[str]) -> None:
    frame = datasets.load("fleiss1971")
    scale = "Depression,Personality Disorder,Schizophrenia,Neurosis,Other"
    status, out, err = run(capsys, "report", "--example", "fleiss1971", "--categories", scale,
                           "--coefficients", "alpha:ordinal,gwet:quadratic,fleiss,alpha",
                           "--format", "csv")  # fmt: skip
    assert status == 0, err
    got = pd.read_csv(io.StringIO(out), index_col="coefficient")["value"]
    ratings = frame.agree(categories=scale.split(","))
    assert got.index.tolist() == ["alpha[ordinal]", "gwet[quadratic]", "fleiss", "alpha[nominal]"]
    assert got["alpha[ordinal]"] == pytest.approx(float(ratings.alpha("ordinal")), abs=1e-12)
    assert got["gwet[quadratic]"] == pytest.approx(
        float(ratings.gwet(weights="quadratic")), abs=1e-12
    )
    status, _, err = run(capsys, "report", "--example", "fleiss1971", "--coefficients",
                         "bias:quadratic")  # fmt: skip
    assert status == 2 and "`bias` takes no option" in err


def test_against_names_an_unknown_gold_rater(
    scores: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(capsys, "against", str(scores), "--gold", "nobody")
    assert status == 2 and "`--gold` names rater 'nobody'" in err
    status, _, err = run(capsys, "against", str(scores))
    assert status == 2 and "--gold" in err


def test_the_report_prints_the_annotator_bias_as_its_own_section(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "report", "--example", "fleiss1971")
    assert status == 0
    table, section = out.split("\n\nannotator bias (Artstein & Poesio 2005)")
    assert "\nbias " not in table and "expected_pi" in section and "0.0162" in section
    status, out, _ = run(capsys, "report", "--example", "fleiss1971", "--format", "csv")
    assert "bias" not in out  # the machine formats hold the coefficient table alone
