"""Result frames whose ``attrs`` hold a frame or a series (the report's annotator bias,
``icc_table(by=)``'s mean squares, ``per_rater(by=)``'s full values) combine as pandas
frames do: pandas compares the ``attrs`` of what it combines with ``==``, which raised
"The truth value of a DataFrame is ambiguous" for ``astype``, ``merge`` and ``concat``."""

from __future__ import annotations

import pickle
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import pdagree


def _scores() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.integers(1, 6, size=(20, 3)), columns=list("abc"))
    return frame.assign(g=[0] * 10 + [1] * 10)


def _results() -> dict[str, tuple[pd.DataFrame, str]]:
    fleiss = pdagree.datasets.load("fleiss1971")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pdagree.PdagreeWarning)
        return {
            "report": (fleiss.agree.report(), "annotator_bias"),
            "report by": (_scores().agree(by="g").report(), "annotator_bias"),
            "icc_table by": (_scores().agree(by="g").icc_table(), "mean_squares"),
            "per_rater by": (_scores().agree(by="g").per_rater(), "full"),
        }


@pytest.mark.parametrize("name", list(_results()))
def test_results_with_frames_in_attrs_combine_and_keep_them(name: str) -> None:
    table, key = _results()[name]
    kept = table.attrs[key]
    combined = {
        "astype": table.astype(str),
        "merge": table.reset_index().merge(table.reset_index()),
        "concat": pd.concat([table, table.copy()]),
        "pickle": pickle.loads(pickle.dumps(table)),
    }
    for how, out in combined.items():
        assert set(out.attrs) == set(table.attrs), how
        pd.testing.assert_frame_equal(pd.DataFrame(out.attrs[key]), pd.DataFrame(kept))


def test_the_section_is_a_frame_that_compares_elementwise_with_values() -> None:
    table, key = _results()["report"]
    section = table.attrs[key]
    assert isinstance(section, pd.DataFrame)
    assert (section["value"] > 0).tolist() == [True]
    equal = section[["n_items", "n_raters"]] == 30
    assert isinstance(equal, pd.DataFrame) and equal.to_numpy().tolist() == [[True, False]]
    assert section == section.copy()  # as a whole, against another such section
    other = pdagree.datasets.load("fleiss1971").iloc[:20].agree.report()
    assert section != other.attrs[key]
    assert pd.concat([table, other]).attrs == {}  # unequal attrs are dropped, as pandas does


def test_a_report_goes_to_parquet_without_its_section(tmp_path: Path) -> None:
    # Parquet keeps attrs as JSON, which a frame is not: the documented way is to take the
    # section out first.
    pytest.importorskip("pyarrow")
    table, key = _results()["report"]
    with pytest.raises(TypeError, match="JSON serializable"), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # pyarrow's: it drops the attrs
        table.to_parquet(tmp_path / "with.parquet")
    section = table.attrs.pop(key)
    table.to_parquet(tmp_path / "report.parquet")
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "report.parquet"), table)
    assert isinstance(section, pd.DataFrame)
