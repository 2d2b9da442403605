"""Issue 17, point 14: rater-pair quantities over the pairs that share items (sparse), or a
clear refusal before anything large is allocated."""

from __future__ import annotations

import re
import tracemalloc
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pdagree
from pdagree import cli


def crowd(n_raters: int, per_rater: int = 4, seed: int = 0, n_labels: int = 4) -> pd.DataFrame:
    """A sparse crowd: each rater labels ``per_rater`` items among ``n_raters / 2``."""
    rng = np.random.default_rng(seed)
    n = n_raters * per_rater
    frame = pd.DataFrame(
        {
            "item": rng.integers(0, max(n_raters // 2, 2), n),
            "rater": np.repeat(np.arange(n_raters), per_rater),
            "label": rng.choice(list("abcdefgh"[:n_labels]), n),
        }
    )
    return frame.drop_duplicates(["item", "rater"])


def peak_mib(call: Callable[[], Any]) -> tuple[Any, float]:
    tracemalloc.start()
    try:
        result = call()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak / 2**20


def quiet(call: Callable[[], Any]) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pdagree.PdagreeWarning)
        return call()


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    n_raters=st.integers(2, 9),
    per_rater=st.integers(1, 6),
    n_labels=st.integers(1, 4),
    seed=st.integers(0, 2**16),
    groups=st.integers(1, 3),
)
def test_light_equals_the_mean_of_the_pairwise_table(n_raters, per_rater, n_labels, seed, groups):
    long = crowd(n_raters, per_rater, seed, n_labels)
    long["g"] = long["item"] % groups
    ratings = long.agree(item="item", rater="rater", label="label", by="g")
    light = quiet(ratings.light)
    table = quiet(ratings.pairwise)
    for key in light.index:
        block = table.loc[key].to_numpy()
        upper = block[np.triu_indices(len(block), k=1)]
        values = upper[~np.isnan(upper)]
        expected = values.mean() if len(values) else np.nan
        assert light.loc[key, "value"] == pytest.approx(expected, rel=1e-12, nan_ok=True)
        assert light.loc[key, "n_pairs"] == len(values)


def test_light_on_a_sparse_crowd_of_20000_raters_stays_small():
    # The old code built (R, R, K) tables: 20,000 raters x 4 categories asked for 12 GiB.
    ratings = crowd(20_000).agree(item="item", rater="rater", label="label")
    light, peak = peak_mib(ratings.light)
    assert light.n_pairs > 50  # pairs sharing two or more items
    assert peak < 128
    report, peak = peak_mib(lambda: quiet(ratings.report))
    assert "light" in report.index
    assert peak < 256


def test_pairwise_on_many_raters_is_refused_before_allocating():
    ratings = crowd(20_000).agree(item="item", rater="rater", label="label")
    message = re.escape(
        "this analysis needs a table of every pair of the 20,000 raters (20,000 x 20,000 x 4 "
        "categories, 23.8 GiB), which is too large. light() averages the pairs that share "
        "items without it"
    )

    def refused() -> None:
        with pytest.raises(ValueError, match=message):
            ratings.pairwise()

    _, peak = peak_mib(refused)
    assert peak < 64


def test_weights_on_thousands_of_categories_are_refused_before_building_them():
    # 5,000 categories: the weights (and their temporaries, 880 MB) were built, then refused.
    rng = np.random.default_rng(1)
    wide = pd.DataFrame({"a": rng.integers(0, 5000, 60_000), "b": rng.integers(0, 5000, 60_000)})
    ratings = wide.agree()

    def weighted() -> None:
        with pytest.raises(ValueError, match=r"needs the dense table of 60000 items x 5000"):
            ratings.fleiss(weights="linear")

    _, peak = peak_mib(weighted)
    assert peak < 16


def test_the_command_line_reports_on_many_raters(tmp_path, capsys):
    path = tmp_path / "crowd.csv"
    crowd(6_000).to_csv(path, index=False)
    status = cli.main(
        ["report", str(path), "--item", "item", "--rater", "rater", "--label", "label"]
    )
    out, err = capsys.readouterr()
    assert status == 0, err
    assert "light" in out and "Traceback" not in err


def test_multilabel_on_many_raters_is_refused_before_allocating():
    ratings = crowd(20_000).agree(item="item", rater="rater", label="label")

    def refused() -> None:
        with pytest.raises(
            ValueError, match=r"^`multilabel\(\)` keeps sums for every pair of the 20,000 raters"
        ):
            ratings.multilabel()

    _, peak = peak_mib(refused)
    assert peak < 64
