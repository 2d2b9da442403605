"""Continuous scores read as numbers (#28): the numeric measures on the numeric path equal the
category path's to 1e-12 on wide and long frames, with gaps and ``by=``; the categories are
encoded only when a method needs them; the user's frame is never read again."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pdagree
from pdagree import Ratings
from pdagree.encoding._encode import encode


def _category_path(ratings: Ratings) -> Ratings:
    """The same ratings through the category encoding (what every analysis read before)."""
    return Ratings(ratings._data.enc)


def _assert_same(a: object, b: object) -> None:
    if isinstance(a, pd.DataFrame):
        assert isinstance(b, pd.DataFrame)
        pd.testing.assert_frame_equal(a, b, rtol=1e-12, atol=1e-13)
    elif isinstance(a, pd.Series):
        pd.testing.assert_series_equal(a, b, rtol=1e-12, atol=1e-13)
    else:
        x, y = float(a), float(b)  # type: ignore[arg-type]
        assert (math.isnan(x) and math.isnan(y)) or x == pytest.approx(y, rel=1e-12, abs=1e-13)


def _calls(ratings: Ratings, grouped: bool) -> dict[str, object]:
    out: dict[str, object] = {
        "icc_table": ratings.icc_table(confidence_level=0.9),
        "icc_table_omit": ratings.icc_table(confidence_level=0.9, missing="omit"),
        "icc": ratings.icc("C,k", missing="omit", confidence_level=0.9),
        "kendall_w": ratings.kendall_w(),
        "cronbach_alpha": ratings.cronbach_alpha(missing="pairwise", confidence_level=0.9),
    }
    fit = ratings.consensus_scores()
    out["scores"] = fit.scores
    out["raters"] = fit.raters
    out["components"] = fit.variance_components
    if not grouped:
        out["kendall_chi2"] = out["kendall_w"].chi2  # type: ignore[attr-defined]
    return out


frames = st.integers(0, 10_000).flatmap(
    lambda seed: st.tuples(
        st.just(seed), st.integers(3, 12), st.integers(2, 5), st.sampled_from([0.0, 0.15])
    )
)


def _wide(seed: int, n: int, k: int, holes: float, groups: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n * groups, 1)) * 2 + rng.normal(size=(n * groups, k)) + 0.123
    frame = pd.DataFrame(x, columns=[f"r{j}" for j in range(k)])
    if holes:
        mask = rng.random(frame.shape) < holes
        mask[:, :2] = False  # every item keeps two ratings
        frame = frame.mask(mask)
    frame["g"] = np.repeat([f"g{i}" for i in range(groups)], n)
    frame.index = pd.Index(rng.permutation(len(frame)) * 3, name="doc")
    return frame


@settings(max_examples=25, deadline=None)
@given(frames, st.booleans())
def test_numeric_path_equals_the_category_path(
    case: tuple[int, int, int, float], grouped: bool
) -> None:
    seed, n, k, holes = case
    frame = _wide(seed, n, k, holes, 3 if grouped else 1)
    raters = [f"r{j}" for j in range(k)]
    by = "g" if grouped else None
    long = (
        frame.reset_index()
        .melt(["doc", "g"], raters, var_name="who", value_name="score")
        .dropna()
        .sample(frac=1.0, random_state=seed)
    )
    for ratings in (
        frame.agree(raters=raters, by=by),
        long.agree(item="doc", rater="who", label="score", by=by),
    ):
        assert ratings._state.numeric is not None and ratings._state.data is None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", pdagree.PdagreeWarning)
            numeric = _calls(ratings, grouped)
            assert ratings._state.data is None  # no category encoding was needed
            category = _calls(_category_path(ratings), grouped)
        for name, value in numeric.items():
            _assert_same(value, category[name])


def test_frames_the_numeric_path_leaves_to_the_category_path() -> None:
    whole = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [2.0, 2.0, 3.0]})  # whole numbers
    ints = pd.DataFrame({"a": [1, 2, 3], "b": [2, 2, 3]})
    text = pd.DataFrame({"a": ["x", "y", "x"], "b": ["x", "x", "y"]})
    declared = pd.DataFrame({"a": [1.5, 2.5], "b": [2.5, 1.5]})
    for frame in (whole, ints, text):
        assert frame.agree()._state.numeric is None
    assert declared.agree(categories=[1.5, 2.5])._state.numeric is None
    assert declared.agree()._state.numeric is not None


def test_categories_are_encoded_when_first_needed_from_a_copy() -> None:
    frame = pd.DataFrame({"a": [1.5, 2.5, 3.5, 2.5], "b": [1.5, 3.5, 3.5, 2.5]})
    ratings = frame.agree()
    frame.loc[0, "a"] = 99.5  # the user's frame changes after agree(): the ratings do not
    assert ratings.n_categories == 3 and list(ratings.categories) == [1.5, 2.5, 3.5]
    assert ratings._state.data is not None
    assert float(ratings.fleiss()) == pytest.approx(
        float(
            pd.DataFrame({"a": [1.5, 2.5, 3.5, 2.5], "b": [1.5, 3.5, 3.5, 2.5]})
            .agree(categories=[1.5, 2.5, 3.5])
            .fleiss()
        )
    )


def test_errors_are_the_category_paths() -> None:
    frame = pd.DataFrame({"a": [1.5, 2.5], "b": [2.5, 1.5]}, index=[1, 1])
    with pytest.raises(ValueError, match="one row each"):
        frame.agree()
    with pytest.raises(ValueError, match="one row each"):
        encode(frame)
    long = pd.DataFrame({"i": [1, 1, 2], "r": ["x", "x", "y"], "s": [1.5, 2.5, 3.5]})
    with pytest.raises(ValueError) as numeric_error:
        long.agree(item="i", rater="r", label="s")
    with pytest.raises(ValueError) as category_error:
        encode(long, item="i", rater="r", label="s")
    assert str(numeric_error.value) == str(category_error.value)
    one = pd.DataFrame({"i": [1, 2], "r": ["x", "x"], "s": [1.5, 2.5]})
    with pytest.raises(ValueError, match="at least two raters"):
        one.agree(item="i", rater="r", label="s")
    inf = pd.DataFrame({"a": [1.5, np.inf, 2.5], "b": [1.5, 2.5, 2.5]})
    with pytest.raises(ValueError, match="needs finite ratings"):
        inf.agree.icc_table()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 30), st.integers(2, 6), st.booleans())
def test_kendall_one_group_matrix_equals_the_sort_of_keys(
    seed: int, n: int, m: int, correct: bool
) -> None:
    from pdagree.kendall._sums import _by_groups, _one_group
    from pdagree.scores import Scores, complete_items

    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(rng.integers(0, 4, size=(n, m)).astype(float))  # many ties
    frame = frame.mask(rng.random(frame.shape) < 0.1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        data = Ratings(encode(frame)) if frame.notna().sum().ge(1).sum() >= 2 else None
        if data is None:
            return
        scores = Scores.of(data._data, "kendall_w", finite=False)
        keep, _, _ = complete_items(scores, "omit")
        kept = scores.kept(keep)
        for a, b in zip(
            _one_group(kept, keep, correct), _by_groups(kept, keep, correct), strict=True
        ):
            np.testing.assert_allclose(a, b, rtol=1e-12, equal_nan=True)
