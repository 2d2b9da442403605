"""Frames in the wrong layout and ambiguous column names (issue 8, points 4 and 8).

A frame read in the wrong layout used to give a number: a long CSV read as wide gave kappa
-0.04 over hundreds of "categories", a wide CSV read without ``index_col`` counted its id
column as a rater. Now a repeated index is an error and id-like rater columns give a
:class:`~pdagree._warnings.LayoutWarning` naming the column.
"""

from __future__ import annotations

import io
import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import pdagree
from pdagree import datasets
from pdagree._warnings import LayoutWarning, PdagreeWarning
from pdagree.cli import main


def ratings_frame(n_items: int = 40, n_raters: int = 3, seed: int = 0) -> pd.DataFrame:
    """A wide frame of text labels from three categories, items named d000, d001, ..."""
    rng = np.random.default_rng(seed)
    truth = rng.choice(["neg", "neu", "pos"], size=n_items)
    cells = np.where(
        rng.random((n_items, n_raters)) < 0.8,
        truth[:, None],
        rng.choice(["neg", "neu", "pos"], size=(n_items, n_raters)),
    )
    index = pd.Index([f"d{i:03d}" for i in range(n_items)], name="doc")
    return pd.DataFrame(cells, index=index, columns=[f"coder{j}" for j in range(n_raters)])


def as_long(wide: pd.DataFrame) -> pd.DataFrame:
    return wide.reset_index().melt(id_vars="doc", var_name="coder", value_name="tag")


def round_trip(frame: pd.DataFrame, **to_csv: object) -> pd.DataFrame:
    """``frame`` written as CSV and read back with ``read_csv``'s defaults."""
    return pd.read_csv(io.StringIO(frame.to_csv(**to_csv)))  # type: ignore[arg-type]


def layout_warnings(fn: object) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()  # type: ignore[operator]
    return [str(w.message) for w in caught if issubclass(w.category, LayoutWarning)]


# --------------------------------------------------------------------------- id columns


def test_wide_csv_read_without_index_col_warns_about_the_id_column() -> None:
    wide = round_trip(ratings_frame())  # the "doc" column is now a rater
    message = (
        "rater column 'doc' holds a different label in 40 of its 40 rated rows, as an id "
        "column does, and each label counts as a category. If it names the items, make it the "
        "index (df.set_index('doc') or read_csv(..., index_col='doc')); if it "
        "holds ratings on a fine scale, give them as floats."
    )
    with pytest.warns(LayoutWarning, match=re.escape(message)) as record:
        wide.agree.fleiss()
    assert len(record) == 1
    assert record[0].filename == __file__  # points at the user's line
    # The remedy silences it and gives the number of the frame read properly.
    fixed = wide.set_index("doc")
    assert float(fixed.agree.fleiss()) == pytest.approx(float(ratings_frame().agree.fleiss()))


def test_integer_id_column_warns() -> None:
    wide = ratings_frame().replace({"neg": 1, "neu": 2, "pos": 3}).astype(int)
    wide = wide.reset_index(drop=True).rename_axis("id").reset_index()
    assert wide["id"].dtype.kind == "i"
    assert layout_warnings(wide.agree) == [
        "rater column 'id' holds a different label in 40 of its 40 rated rows, as an id column "
        "does, and each label counts as a category. If it names the items, make it the index "
        "(df.set_index('id') or read_csv(..., index_col='id')); if it holds "
        "ratings on a fine scale, give them as floats."
    ]


def test_integer_id_column_beside_text_labels_is_named_in_the_error() -> None:
    # Text labels and an id column of numbers cannot be sorted together: the error says why.
    wide = round_trip(ratings_frame().reset_index(drop=True).rename_axis("id"))
    assert wide["id"].dtype.kind == "i"
    with pytest.raises(
        TypeError,
        match=re.escape(
            "labels of different types ['int', 'str'] cannot be put in order; pass "
            "`categories=[...]` to declare the categories and their order. Rater column 'id' "
            "holds a different label in nearly every row, as an id column does. If it names "
            "the items, make it the index (df.set_index('id') or read_csv(..., index_col='id'))."
        ),
    ):
        wide.agree.fleiss()


def test_layout_warning_is_a_pdagree_warning() -> None:
    assert issubclass(LayoutWarning, PdagreeWarning)
    assert issubclass(LayoutWarning, UserWarning)


# ------------------------------------------------------------------- long frames as wide


def test_long_csv_read_as_wide_warns_about_the_item_column() -> None:
    long = round_trip(as_long(ratings_frame()), index=False)
    with pytest.warns(LayoutWarning) as record:
        long.agree.fleiss()
    assert [str(w.message) for w in record] == [
        "rater column 'doc' holds 40 distinct labels in 120 rated rows, nearly as many "
        "categories as ratings, as the item or rater column of a long frame does. If the frame "
        "has one row per annotation, pass `item=`, `rater=`, `label=`; if it holds ratings "
        "on a fine scale, give them as floats."
    ]
    # Read as what it is, it gives the number of the wide frame, without a warning.
    got = long.agree(item="doc", rater="coder", label="tag").fleiss()
    assert float(got) == pytest.approx(float(ratings_frame().agree.fleiss()), rel=1e-12)


def test_long_frame_with_five_ratings_per_item_read_as_wide_warns() -> None:
    long = as_long(ratings_frame(n_raters=5)).reset_index(drop=True)
    assert layout_warnings(long.agree)[0].startswith(
        "rater column 'doc' holds 40 distinct labels in 200 rated rows"
    )


def test_long_frame_indexed_by_item_is_an_error() -> None:
    # `pdagree report long.csv` makes the first column, the item, the index.
    long = as_long(ratings_frame()).set_index("doc")
    with pytest.raises(
        ValueError,
        match=re.escape(
            "the index of a wide frame names the items, one row each; 40 items have more than "
            "one row, e.g. ['d000', 'd001', 'd002', 'd003', 'd004', ...]. A frame of one row "
            "per annotation is a long frame: pass `item=`, `rater=`, `label=`; else drop or "
            "aggregate the repeated rows."
        ),
    ):
        long.agree.fleiss()


def test_repeated_index_within_a_by_group_is_an_error() -> None:
    wide = pd.DataFrame(
        {"a": ["x", "y", "x", "y"], "b": ["x", "y", "y", "y"], "g": [1, 2, 1, 1]},
        index=pd.Index([1, 1, 2, 2], name="doc"),
    )
    # Item 1 once in each group is fine (items are analysed within their group) ...
    assert wide.iloc[:3].agree(by="g").n_items == 3
    # ... item 2 twice in group 1 is not.
    with pytest.raises(ValueError, match=r"1 items have more than one row within a `by` group"):
        wide.agree(by="g")
    with pytest.raises(ValueError, match=r"1 items have more than one row, e\.g\. \[2\]"):
        wide.drop(columns="g").iloc[[0, 2, 3]].agree()


def test_cli_long_file_without_item_is_an_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "long.csv"
    as_long(ratings_frame()).to_csv(path, index=False)
    assert main(["report", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "pdagree: error: the index of a wide frame names the items, one row each; 40 items"
    )
    assert "a long frame: pass --item, --rater, --label; else" in err


def test_cli_wide_file_with_no_index_warns(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "wide.csv"
    ratings_frame().to_csv(path)
    assert main(["report", str(path), "--no-index", "--format", "csv"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("pdagree: warning: rater column 'doc' holds a different label in 40")


# ------------------------------------------------------------------------- no false alarms


@pytest.mark.parametrize("name", datasets.names())
def test_bundled_datasets_do_not_warn(name: str) -> None:
    df = datasets.load(name)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if name == "crowd_sparse":
            ratings = df.agree(item="item", rater="annotator", label="label")
            wide = df.pivot(index="item", columns="annotator", values="label")
            assert wide.agree().n_raters == 40  # 40 sparse rater columns: no warning
        elif name == "emails_multilabel":  # long, with primary and secondary labels
            ratings = df.agree(item="email", rater="annotator", label="label", rank="rank")
            ratings.multilabel()
        elif name == "qgstec_simulated":  # one block of rows per criterion
            ratings = df.agree(by="criterion")
        else:
            ratings = df.agree()
        report = ratings.report()
    assert [str(w.message) for w in caught] == []
    assert len(report) > 0


def test_continuous_ratings_are_exempt() -> None:
    rng = np.random.default_rng(1)
    truth = rng.normal(size=50)
    wide = pd.DataFrame({f"r{j}": truth + rng.normal(scale=0.3, size=50) for j in range(3)})
    assert float(wide.agree.alpha("interval")) > 0.5
    text = wide.round(3).map(str)  # numbers stored as text, not whole
    assert float(text.agree.alpha("interval")) > 0.5


def test_fine_integer_scale_shared_by_raters_is_not_flagged() -> None:
    # Ratings on a 0..100 scale: many distinct values, but the raters share them.
    rng = np.random.default_rng(2)
    truth = rng.integers(0, 101, size=60)
    wide = pd.DataFrame(
        {f"r{j}": np.clip(truth + rng.integers(-2, 3, size=60), 0, 100) for j in range(3)}
    )
    assert float(wide.agree.alpha("interval")) > 0.9


def test_small_frames_are_not_judged() -> None:
    wide = ratings_frame(n_items=15)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = float(round_trip(wide).agree.fleiss())  # 15 ids: too few rows to tell
    assert [str(w.message) for w in caught] == []
    assert np.isfinite(value)


def test_frame_is_unchanged() -> None:
    wide = round_trip(ratings_frame())
    before = wide.copy()
    with pytest.warns(LayoutWarning):
        wide.agree()
    pd.testing.assert_frame_equal(wide, before)


# ------------------------------------------------------- ambiguous column names (point 8)


@pytest.fixture
def long() -> pd.DataFrame:
    return pd.DataFrame(
        {"doc": [1, 1, 2, 2, 3, 3], "coder": ["p", "q"] * 3, "tag": ["x", "y", "x", "x", "y", "y"]}
    )


@pytest.mark.parametrize(
    ("param", "column"), [("item", "doc"), ("rater", "coder"), ("label", "tag")]
)
def test_by_naming_a_layout_column(long: pd.DataFrame, param: str, column: str) -> None:
    with pytest.raises(
        ValueError,
        match=re.escape(
            f"`by` and `{param}` both name column {column!r}; a column is either the {param} "
            "or a grouping key. Group by another column."
        ),
    ):
        long.assign(g=1).agree(item="doc", rater="coder", label="tag", by=["g", column])


def test_two_layout_parameters_naming_one_column(long: pd.DataFrame) -> None:
    with pytest.raises(
        ValueError,
        match=re.escape("`rater` and `label` both name column 'tag'; each needs its own column."),
    ):
        long.agree(item="doc", rater="tag", label="tag")


@pytest.mark.parametrize(
    ("param", "column"), [("item", "doc"), ("rater", "coder"), ("label", "tag")]
)
def test_repeated_column_names_in_a_long_frame(
    long: pd.DataFrame, param: str, column: str
) -> None:
    doubled = pd.concat([long, long[[column]]], axis=1)
    with pytest.raises(
        ValueError,
        match=re.escape(
            f"`{param}` names column {column!r}, which the frame has 2 times; give each column "
            "its own name (`df.loc[:, ~df.columns.duplicated()]` keeps the first)."
        ),
    ):
        doubled.agree(item="doc", rater="coder", label="tag")


def test_repeated_by_column(long: pd.DataFrame) -> None:
    doubled = long.assign(g=1, h=2).rename(columns={"h": "g"})
    with pytest.raises(ValueError, match=r"`by` names column 'g', which the frame has 2 times"):
        doubled.agree(item="doc", rater="coder", label="tag", by="g")
    wide = pd.DataFrame({"a": ["x", "y"], "b": ["x", "x"], "g": [1, 2], "h": [1, 2]})
    with pytest.raises(ValueError, match=r"`by` names column 'g', which the frame has 2 times"):
        wide.rename(columns={"h": "g"}).agree(by="g")


def test_repeated_rater_column_selected_by_raters() -> None:
    wide = pd.DataFrame({"a": ["x", "y"], "b": ["x", "x"], "c": ["y", "y"]})
    wide = wide.rename(columns={"c": "a"})
    with pytest.raises(
        ValueError, match=r"`raters` names column 'a', which the frame has 2 times"
    ):
        wide.agree(raters=["a", "b"])
    with pytest.raises(ValueError, match=r"rater columns must be unique; \['a'\] appear more"):
        wide.agree()


def test_repeated_counts_columns() -> None:
    counts = pd.DataFrame([[1, 1, 0], [2, 0, 0]], columns=["x", "y", "x"])
    with pytest.raises(
        ValueError,
        match=re.escape(
            "counts columns must be unique, one per category; ['x'] appear more than once. "
            "Add up the repeated columns."
        ),
    ):
        counts.agree(layout="counts")


def test_pdagree_namespace_unchanged() -> None:
    # LayoutWarning is importable from pdagree._warnings; exporting it from pdagree is a
    # separate one-line change to pdagree/__init__.py.
    assert pdagree.PdagreeWarning is PdagreeWarning
