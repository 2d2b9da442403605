"""The report page, ``Ratings.to_html`` (#30): every number on it equals the method that
computes it (the page read back with html.parser), its sections, ``by=``, numeric ratings,
gold labels, escaping, nothing loaded from elsewhere, and ``pdagree report --format html``."""

from __future__ import annotations

import math
import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import pdagree
from pdagree import datasets
from pdagree.cli import main
from pdagree.interpretation import interpret
from tests.html_page import Page, read

SECTIONS = [
    "The data",
    "Coefficients",
    "Per category",
    "Pairwise agreement",
    "Per annotator",
    "Most disputed items",
    "Consensus",
]


def _key(label: object) -> str:
    return " / ".join(map(str, label)) if isinstance(label, tuple) else str(label)


def _same(cell: tuple[str | None, str], value: object, where: object) -> None:
    full, text = cell
    x = float(value)  # type: ignore[arg-type]
    if math.isnan(x):
        assert full == "nan" and text == "–", where
        return
    assert full is not None and float(full) == x, (where, full, x)
    if text not in ("∞", "−∞"):
        assert abs(float(text) - x) <= max(5e-5, 5e-4 * abs(x)), (where, text, x)


def check_table(page: Page, name: str, frame: pd.DataFrame, group: str = "") -> int:
    """Every number of table ``name`` equals the cell of ``frame`` at its row and column,
    and every number of ``frame`` is on the page; returns how many were compared."""
    cells = page.table(name, group)
    assert cells, f"no table {name!r} in group {group!r}"
    expected = {
        (_key(r), str(c)): frame.loc[r, c]  # type: ignore[index]
        for r in frame.index
        for c in frame.columns
    }
    numbers = {k: v for k, v in cells.items() if v[0] is not None}
    for key, cell in numbers.items():
        assert key in expected, f"{name}: {key} is on the page but not in the method's result"
        _same(cell, expected[key], (name, key))
    shown_columns = {c for _, c in cells}
    for key, value in expected.items():
        numeric = isinstance(value, (int, float, np.number)) and not isinstance(value, bool)
        if numeric and key[1] in shown_columns:
            assert key in numbers, f"{name}: {key} = {value} is missing from the page"
    return len(numbers)


@pytest.fixture(scope="module")
def fleiss() -> pdagree.Ratings:
    return datasets.load("fleiss1971").agree()


@pytest.fixture(scope="module")
def fleiss_page(fleiss: pdagree.Ratings) -> Page:
    gold = fleiss.consensus("majority", rng=1).labels
    return read(fleiss.to_html(title="Diagnoses", gold=gold))


def test_sections_in_order(fleiss_page: Page) -> None:
    assert fleiss_page.h1 == fleiss_page.title == "Diagnoses"
    assert fleiss_page.headings == [*SECTIONS, "Agreement with the gold labels"]


def test_coefficients_equal_report(fleiss: pdagree.Ratings, fleiss_page: Page) -> None:
    report = fleiss.report(confidence_level=0.95)
    assert check_table(fleiss_page, "report", report) >= 7 * 8
    bias = report.attrs["annotator_bias"]
    assert check_table(fleiss_page, "bias", bias) >= 8
    cells = fleiss_page.table("report")
    for name, value in report["value"].items():
        landis = cells[(name, "Landis & Koch (1977)")][1]
        kripp = cells[(name, "Krippendorff (2004)")][1]
        if name == "observed":  # not chance-corrected
            assert landis == kripp == "n/a"
        else:
            assert landis == interpret(value, "landis-koch")
            assert kripp == interpret(value, "krippendorff")
    assert cells[("fleiss", "Landis & Koch (1977)")][1] == "moderate"
    bars = fleiss_page.chart("report")
    assert {k[0] for k in bars} == set(report.index)
    for (row, _), full in bars.items():
        assert float(full) == report.loc[row, "value"]


def test_breakdowns_equal_methods(fleiss: pdagree.Ratings, fleiss_page: Page) -> None:
    assert check_table(fleiss_page, "per_category", fleiss.per_category()) == 15
    assert check_table(fleiss_page, "per_rater", fleiss.per_rater()) == 6 * 7
    fit = fleiss.consensus(rng=0)
    assert check_table(fleiss_page, "quality", fit.quality) == 12
    assert check_table(fleiss_page, "proportions", fleiss.frequencies()["proportion"]) == 30
    pairwise = fleiss.pairwise("cohen")
    cells = fleiss_page.chart("pairwise")
    assert len(cells) == 36
    for (a, b), full in cells.items():
        assert float(full) == pairwise.loc[a, b]
    gold = fleiss.consensus("majority", rng=1).labels
    with pytest.warns(pdagree.UndefinedStatisticWarning, match="macro averages skip"):
        against = fleiss.against(gold, average="macro")
    assert check_table(fleiss_page, "against", against) >= 6 * 15


def test_data_section(fleiss: pdagree.Ratings, fleiss_page: Page) -> None:
    cells = fleiss_page.table("data")
    annotations = int(fleiss.counts().to_numpy().sum())
    _same(cells[("items", "value")], fleiss.n_items, "items")
    _same(cells[("raters", "value")], fleiss.n_raters, "raters")
    _same(cells[("annotations", "value")], annotations, "annotations")
    _same(cells[("missing share", "value")], 1 - annotations / (30 * 6), "missing")
    _same(cells[("labels", "value")], 5, "labels")
    assert cells[("layout", "value")][1] == "wide"
    assert cells[("label values", "value")][1] == ", ".join(fleiss.categories)


def test_disputed_items(fleiss: pdagree.Ratings, fleiss_page: Page) -> None:
    items = fleiss.items()
    order = np.lexsort((-items["entropy"].to_numpy(), items["agreement"].to_numpy()))
    chosen = items.iloc[order[:20]]
    check_table(fleiss_page, "disputed", chosen)
    cells = fleiss_page.table("disputed")
    rows = list(dict.fromkeys(r for r, _ in cells))
    assert rows == [str(i) for i in chosen.index]
    counts, labels = fleiss.counts(), fleiss.consensus(rng=0).labels
    for item in chosen.index:
        given = re.findall(r"(.+?) ×(\d+)(?:, |$)", cells[(str(item), "labels")][1])
        assert {k: int(n) for k, n in given} == {
            str(k): int(n) for k, n in counts.loc[item].items() if n
        }
        assert cells[(str(item), "consensus")][1] == labels[item]
    assert max(chosen["agreement"]) <= min(items["agreement"].drop(chosen.index))


def test_consensus_section(fleiss: pdagree.Ratings, fleiss_page: Page) -> None:
    fit = fleiss.consensus(rng=0)
    summary = pd.DataFrame(
        {"n_iterations": [fit.n_iterations], "log_likelihood": [fit.log_likelihood]},
        index=[fit.method],
    )
    check_table(fleiss_page, "fit", summary)
    shares = fit.labels.value_counts().rename("items").to_frame()
    shares["share"] = shares["items"] / fleiss.n_items
    shares["prior"] = fit.priors
    assert check_table(fleiss_page, "consensus_labels", shares) == 15
    means = fit.to_frame()[["probability", "margin"]].mean().to_frame("mean").T
    check_table(fleiss_page, "consensus_probability", means)


def test_by_groups_and_numeric_ratings() -> None:
    frame = datasets.load("qgstec_simulated")
    ratings = frame.agree(by="criterion")
    page = read(ratings.to_html())
    report = ratings.report(confidence_level=0.95)
    check_table(page, "groups", report["value"].unstack()[report.index.levels[1]])
    icc, scores = ratings.icc_table(), ratings.consensus_scores()
    per_rater, items = ratings.per_rater(), ratings.items()
    groups = list(ratings.groups)
    assert page.headings[:2] == ["Groups", f"Group: {groups[0]}"]
    assert page.headings.count("ICC and score consensus") == len(groups) == 4
    for group in groups:
        check_table(page, "report", report.xs(group), group)
        check_table(page, "per_rater", per_rater.xs(group), group)
        check_table(page, "icc", icc.xs(group), group)
        check_table(page, "severity", scores.raters.xs(group), group)
        components = scores.variance_components.loc[[group]].T.set_axis(["variance"], axis=1)
        check_table(page, "variance_components", components, group)
        worst = items.xs(group)["agreement"].min()
        shown = page.table("disputed", group)
        assert min(float(v[0]) for (_, c), v in shown.items() if c == "agreement") == worst


def test_scores_read_as_numbers() -> None:
    rng = np.random.default_rng(3)
    truth = rng.normal(size=40)
    wide = pd.DataFrame({f"r{k}": truth + rng.normal(scale=0.5, size=40) for k in range(3)})
    ratings = wide.agree()
    page = read(ratings.to_html())
    assert "ICC and score consensus" in page.headings
    check_table(page, "icc", ratings.icc_table())
    check_table(page, "severity", ratings.consensus_scores().raters)


def test_text_labels_have_no_numeric_section(fleiss_page: Page) -> None:
    assert "ICC and score consensus" not in fleiss_page.headings


def test_every_user_string_is_escaped() -> None:
    evil = '<script>alert("x")</script>'
    wide = pd.DataFrame(
        {
            evil: ["<b>a</b>", "<b>a</b>", "b&c", "b&c", "<b>a</b>"],
            'it\'s "two"': ["<b>a</b>", "b&c", "b&c", "b&c", "<b>a</b>"],
        },
        index=pd.Index(["<i>1</i>", "2", "3", "4", "5"], name="<u>item</u>"),
    )
    text = wide.agree().to_html(title=evil)
    assert "<script" not in text and "<b>a" not in text and "<i>" not in text
    page = read(text)
    assert page.title == page.h1 == evil
    assert not [tag for tag, _ in page.tags if tag in ("script", "i", "u", "iframe")]
    assert page.table("data")[("label values", "value")][1] == "<b>a</b>, b&c"
    rows = {r for r, _ in page.table("per_rater")}
    assert rows == {evil, 'it\'s "two"'}


def test_nothing_is_loaded_from_elsewhere(fleiss_page: Page) -> None:
    for tag, attrs in fleiss_page.tags:
        assert tag not in ("script", "link", "img", "iframe", "object", "embed"), tag
        for name in ("src", "href", "srcset", "action"):
            value = attrs.get(name)
            assert value is None or value.startswith("#"), (tag, name, value)
    style = "".join(fleiss_page.texts["style"])
    assert "url(" not in style and "@import" not in style and "@font-face" not in style
    policy = [a["content"] for t, a in fleiss_page.tags if a.get("http-equiv")]
    assert policy == ["default-src 'none'; style-src 'unsafe-inline'; img-src data:"]


def test_path_accessor_and_return(fleiss: pdagree.Ratings, tmp_path: Path) -> None:
    frame = datasets.load("fleiss1971")
    text = fleiss.to_html()
    assert frame.agree.to_html() == text
    assert fleiss.to_html(tmp_path / "page.html") is None
    assert (tmp_path / "page.html").read_text(encoding="utf-8") == text
    assert fleiss.to_html(str(tmp_path / "other.html")) is None
    assert (tmp_path / "other.html").read_text(encoding="utf-8") == text
    assert read(text).title == "Agreement report"


def test_warnings_while_reading_are_listed_and_still_raised() -> None:
    n = 60
    wide = pd.DataFrame(
        {"id": [f"u{k}" for k in range(n)], "a": ["x", "y"] * (n // 2), "b": ["x"] * n}
    )
    with pytest.warns(pdagree.LayoutWarning) as caught:
        ratings = wide.agree()
    assert caught[0].filename == __file__  # still points at the user's line
    page = read(ratings.to_html())
    listed = "".join(page.texts["p"])
    assert str(caught[0].message) in listed


def test_warnings_while_computing_are_listed_not_raised() -> None:
    wide = pd.DataFrame({"a": ["x"] * 6, "b": ["x"] * 6, "c": ["x"] * 5 + ["y"]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        text = wide.agree().to_html()
    page = read(text)
    assert page.table("report")[("fleiss", "value")][1] != ""
    assert "Warnings" in "".join(page.texts["h3"])


def test_counts_layout_says_what_does_not_apply() -> None:
    counts = datasets.load("fleiss1971").agree().counts()
    page = read(counts.agree(layout="counts").to_html())
    assert "Coefficients" in page.headings
    notes = " ".join(page.texts["p"])
    assert "Not available for these data" in notes
    assert not page.chart("pairwise")


def test_many_raters_and_long_labels_stay_readable() -> None:
    rng = np.random.default_rng(0)
    labels = [f"a rather long category name number {k:02d} (see the guide)" for k in range(50)]
    raters = [f"annotator.number{k:02d}@example.com" for k in range(25)]
    wide = pd.DataFrame(rng.choice(labels, size=(120, 25)), columns=pd.Index(raters)).mask(
        rng.random((120, 25)) < 0.3
    )
    text = wide.agree().to_html()
    page = read(text)
    assert len(page.chart("pairwise")) == 25 * 25
    svg_texts = [t.strip() for t in page.texts["text"] if t.strip()]
    assert svg_texts and max(map(len, svg_texts)) <= 24
    assert len({r for r, _ in page.table("per_rater")}) == 25
    heads = [a.get("title") for t, a in page.tags if t == "th" and a.get("scope") == "col"]
    assert set(labels) <= set(heads)  # the whole label stays in the tooltip


def test_cli_writes_the_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "--example", "fleiss1971", "--format", "html"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("<!DOCTYPE html>")
    expected = datasets.load("fleiss1971").agree().to_html(title="Agreement: fleiss1971")
    assert out == expected
    target = tmp_path / "report.html"
    status = main(["report", "--example", "fleiss1971", "--format", "html", "-o", str(target)])
    assert status == 0 and target.read_text(encoding="utf-8") == expected
    assert capsys.readouterr().out == ""


def test_cli_gate_still_applies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "report.html"
    args = ["report", "--example", "fleiss1971", "--format", "html", "-o", str(target)]
    assert main([*args, "--fail-under", "alpha=0.8"]) == 1
    assert target.exists()
    assert "pdagree: alpha[nominal] 0.4334 < 0.8" in capsys.readouterr().err
    assert main([*args, "--fail-under", "alpha=0.4"]) == 0
    lower = ["--fail-under", "alpha=0.4", "--fail-under-lower", "--confidence-level", "0.95"]
    assert main([*args, *lower]) == 1
    assert "alpha[nominal] lower bound 0.3226 < 0.4" in capsys.readouterr().err


def test_cli_html_refuses_table_options(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["report", "--example", "fleiss1971", "--format", "html"]
    assert main([*args, "--icc", "--level", "ordinal"]) == 2
    err = capsys.readouterr().err
    assert "`--format html` writes the whole report page; it takes no --icc, --level." in err
    assert main(["per-rater", "--example", "fleiss1971", "--format", "html"]) == 2


def test_many_groups_get_a_summary_row_each_and_at_most_max_groups_sections(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import pdagree.page

    monkeypatch.setattr(pdagree.page, "MAX_GROUPS", 3)
    rng = np.random.default_rng(1)
    n = 5 * 8
    frame = pd.DataFrame(
        {"batch": np.repeat(np.arange(5), 8), **{r: rng.choice(["x", "y"], n) for r in "abc"}}
    )
    ratings = frame.agree(by="batch")
    page = read(ratings.to_html(consensus="majority"))
    assert len({row for row, _ in page.table("groups")}) == 5
    report = ratings.report(confidence_level=0.95)
    check_table(page, "groups", report["value"].unstack()[report.index.levels[1]])
    groups = [h for h in page.headings if h.startswith("Group: ")]
    assert groups == ["Group: 0", "Group: 1", "Group: 2"]
    assert "5 groups by batch; the first 3 have a section each." in page.texts["p"]


def test_cli_page_with_gold_labels(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ratings = datasets.load("fleiss1971").agree()
    gold = ratings.consensus("majority", rng=1).labels
    with pytest.warns(pdagree.UndefinedStatisticWarning, match="macro averages skip"):
        expected = ratings.against(gold, average="macro")
    file = tmp_path / "gold.csv"
    gold.rename_axis("item").rename("label").reset_index().to_csv(file, index=False)
    args = ["report", "--example", "fleiss1971", "--format", "html"]
    assert main([*args, "--gold-file", str(file)]) == 0
    check_table(read(capsys.readouterr().out), "against", expected)
    assert main([*args, "--gold", "rater3"]) == 0
    with pytest.warns(pdagree.UndefinedStatisticWarning, match="macro averages skip"):
        by_rater = ratings.against("rater3", average="macro")  # the others against rater3
    check_table(read(capsys.readouterr().out), "against", by_rater)
    assert main(["report", "--example", "fleiss1971", "--gold", "rater3"]) == 2
    assert "pass `--format html`" in capsys.readouterr().err


def test_continuous_scores_by_model_leave_out_the_tables_by_value() -> None:
    # LLM judges' scores by model: 3 models x 300 items x 4 judges, 3,600 distinct values.
    # Tables and charts by value (frequencies, per category, counts, consensus labels) made
    # pages of hundreds of MB (506 MB at 10 x 2,000 x 5) and a per-rater K x K table of
    # 83.8 GiB; they are left out with a note, the rest equals the methods.
    rng = np.random.default_rng(5)
    x = rng.normal(size=(3, 300, 1)) + rng.normal(scale=0.5, size=(3, 300, 4))
    long = pd.DataFrame(
        {
            "model": np.repeat(["m0", "m1", "m2"], 1200),
            "item": np.tile(np.repeat(np.arange(300), 4), 3),
            "judge": np.tile(["a", "b", "c", "d"], 900),
            "score": x.ravel(),
        }
    )
    ratings = long.agree(item="item", rater="judge", label="score", by="model")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pdagree.PdagreeWarning)  # nominal on continuous
        html = ratings.to_html()
        report = ratings.report(confidence_level=0.95, rng=0)  # the page's bootstrap seed
    assert len(html) < 1_000_000
    page = read(html)
    assert "continuous scores (3,600 distinct values)" in html
    assert "pairwise Lin&#x27;s concordance" in html or "pairwise Lin's concordance" in html
    concordance, icc = ratings.pairwise("concordance"), ratings.icc_table()
    for group in ("m0", "m1", "m2"):
        check_table(page, "report", report.xs(group), group)
        check_table(page, "icc", icc.xs(group), group)
        mine = concordance.xs(group)
        cells = page.chart("pairwise", group)
        assert len(cells) == 16
        for (a, b), full in cells.items():
            assert float(full) == mine.loc[a, b]
