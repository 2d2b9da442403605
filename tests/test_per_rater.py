"""per_rater(): each annotator's labels, agreement, leave-one-out coefficient and kappa
against the others' majority; the vectorised nominal alpha equals the coefficient recomputed
without each annotator, and every other registry coefficient is that recomputation."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import pdagree
from pdagree import UndefinedStatisticWarning


def incomplete(seed: int, n: int = 80, raters: int = 5, k: int = 4, missing: float = 0.3):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n)
    values = np.where(
        rng.random((n, raters)) < 0.7, truth[:, None], rng.integers(0, k, (n, raters))
    )
    frame = pd.DataFrame(values.astype(float), columns=[f"r{j}" for j in range(raters)])
    return frame.mask(rng.random((n, raters)) < missing)


def dropped(frame: pd.DataFrame, rater: str, name: str, **options: object) -> float:
    """The coefficient recomputed on the frame without the rater's column, categories kept."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ratings = frame.drop(columns=rater).agree(categories=[0.0, 1.0, 2.0, 3.0])
        return float(getattr(ratings, name)(**options))


@pytest.mark.parametrize("seed", range(6))
def test_nominal_alpha_without_each_annotator_equals_alpha_on_the_rest(seed: int) -> None:
    frame = incomplete(seed)
    per = frame.agree.per_rater()
    full = float(frame.agree.alpha())
    assert per.attrs["full"] == pytest.approx(full, abs=1e-12)
    for rater in frame.columns:
        want = dropped(frame, rater, "alpha")
        assert per.loc[rater, "without"] == pytest.approx(want, abs=1e-12)
        assert per.loc[rater, "delta"] == pytest.approx(full - want, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(st.one_of(st.none(), st.integers(0, 2)), min_size=4, max_size=4),
        min_size=2,
        max_size=12,
    )
)
def test_nominal_fast_path_equals_the_recomputation_on_any_data(rows: list) -> None:
    frame = pd.DataFrame(rows, columns=list("abcd"), dtype=float)
    assume(int(frame.notna().any().sum()) >= 2)  # what the accessor accepts
    ratings = frame.agree(categories=[0.0, 1.0, 2.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fast = ratings.per_rater()
        slow = ratings.per_rater("alpha", level=np.ones((3, 3)) - np.eye(3))  # same metric
    np.testing.assert_allclose(fast["without"], slow["without"], atol=1e-12)


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("fleiss", {}),
        ("gwet", {"weights": "quadratic"}),
        ("conger", {}),
        ("light", {}),
        ("bennett", {}),
        ("observed", {}),
        ("alpha", {"level": "ordinal"}),
    ],
)
def test_every_coefficient_without_each_annotator(name: str, options: dict) -> None:
    frame = incomplete(7, missing=0.0 if name in ("conger", "light") else 0.3)
    ratings = frame.agree(categories=[0.0, 1.0, 2.0, 3.0])
    per = ratings.per_rater(name, **options)
    full = float(getattr(ratings, name)(**options))
    for rater in frame.columns:
        want = dropped(frame, rater, name, **options)
        assert per.loc[rater, "without"] == pytest.approx(want, abs=1e-12), rater
        assert per.loc[rater, "delta"] == pytest.approx(full - want, abs=1e-12)


def test_observed_and_vs_rest_by_hand() -> None:
    frame = incomplete(3, n=60)
    per = frame.agree.per_rater()
    for rater in frame.columns:
        own = frame[rater]
        rest = frame.drop(columns=rater)
        shares, mine, majority = [], [], []
        for i in frame.index[own.notna()]:
            others = rest.loc[i].dropna()
            if len(others):
                shares.append((others == own[i]).mean())
                counts = others.value_counts()
                if (counts == counts.max()).sum() == 1:
                    mine.append(own[i])
                    majority.append(counts.idxmax())
        assert per.loc[rater, "n_items"] == own.notna().sum() == per.loc[rater, "n_ratings"]
        assert per.loc[rater, "observed"] == pytest.approx(np.mean(shares), abs=1e-12)
        assert per.loc[rater, "n_vs_rest"] == len(mine)
        table = pd.crosstab(pd.Series(mine), pd.Series(majority)).reindex(
            index=[0.0, 1.0, 2.0, 3.0], columns=[0.0, 1.0, 2.0, 3.0], fill_value=0
        )
        t = table.to_numpy() / table.to_numpy().sum()
        p_o, p_e = np.trace(t), (t.sum(axis=0) * t.sum(axis=1)).sum()
        assert per.loc[rater, "vs_rest"] == pytest.approx((p_o - p_e) / (1 - p_e), abs=1e-12)


def test_vs_rest_equals_scikit_learn() -> None:
    metrics = pytest.importorskip("sklearn.metrics")
    frame = incomplete(11, n=100, raters=3, missing=0.0)
    per = frame.agree.per_rater()
    # With three complete raters the other two's plurality exists where they agree.
    for rater in frame.columns:
        rest = frame.drop(columns=rater)
        same = rest.iloc[:, 0] == rest.iloc[:, 1]
        want = metrics.cohen_kappa_score(frame.loc[same, rater], rest.loc[same].iloc[:, 0])
        assert per.loc[rater, "vs_rest"] == pytest.approx(want, abs=1e-12)


def test_by_groups_equal_a_loop_and_the_user_frame_is_unchanged() -> None:
    frame = incomplete(5, n=90)
    frame["task"] = np.where(np.arange(90) % 3 == 0, "a", "b")
    before = frame.copy()
    for name in ("alpha", "fleiss"):
        grouped = frame.agree(by="task").per_rater(name)
        for task in ("a", "b"):
            alone = frame[frame["task"] == task].drop(columns="task").agree().per_rater(name)
            np.testing.assert_allclose(
                grouped.loc[task].to_numpy(dtype=float), alone.to_numpy(dtype=float), atol=1e-12
            )
        assert list(grouped.attrs["full"].index) == ["a", "b"]
    pd.testing.assert_frame_equal(frame, before)


def test_long_frames_name_the_annotators() -> None:
    frame = incomplete(2)
    long = frame.reset_index().melt(id_vars="index", var_name="coder", value_name="tag").dropna()
    per = long.agree(item="index", rater="coder", label="tag").per_rater()
    assert per.index.name == "coder" and list(per.index) == list(frame.columns)
    np.testing.assert_allclose(per.to_numpy(dtype=float), frame.agree.per_rater().to_numpy(float))


def test_undefined_without_an_annotator_warns_and_bad_input_is_refused() -> None:
    two = pd.DataFrame({"a": list("xyxy"), "b": list("xyyy")})
    with pytest.warns(UndefinedStatisticWarning, match=r"without annotator\(s\) \['a', 'b'\]"):
        per = two.agree.per_rater("cohen")
    assert per["without"].isna().all() and per["n_items"].tolist() == [4, 4]
    with pytest.raises(ValueError, match="unknown coefficient 'kappa'"):
        two.agree.per_rater("kappa")
    with pytest.raises(TypeError, match="confidence_level"):
        two.agree.per_rater("fleiss", confidence_level=0.95)
    counts = pd.DataFrame({"x": [2, 1], "y": [0, 1]})
    with pytest.raises(ValueError, match="needs to know which rater"):
        counts.agree(layout="counts").per_rater()


def test_an_annotator_who_lowers_agreement_has_a_negative_delta() -> None:
    rng = np.random.default_rng(0)
    truth = rng.integers(0, 3, 200)
    frame = pd.DataFrame({f"good{j}": truth for j in range(3)})
    frame["noise"] = rng.integers(0, 3, 200)
    per = frame.agree.per_rater()
    assert per.loc["noise", "delta"] < 0 < per.loc["good0", "delta"]
    assert per["delta"].idxmin() == "noise"
    assert per.loc["noise", "vs_rest"] == pytest.approx(0.0, abs=0.12)
    assert isinstance(pdagree.Ratings.per_rater.__doc__, str)


def test_options_the_coefficient_does_not_take_name_per_rater() -> None:
    # #26: the TypeError came from fleiss() deep inside, naming neither per_rater nor why.
    df = pd.DataFrame({"a": list("xyxyx"), "b": list("xyyyx"), "c": list("xxyyx")})
    with pytest.raises(
        TypeError,
        match=re.escape(
            "per_rater('fleiss') does not take `confidence_level`: it passes its keyword "
            "arguments to fleiss(). Drop `confidence_level` (per_rater computes no intervals "
            "or tests; for an interval of fleiss on all the data, call "
            "fleiss(confidence_level=...) itself)."
        ),
    ):
        df.agree.per_rater("fleiss", confidence_level=0.9)
    with pytest.raises(
        TypeError,
        match=re.escape(
            "per_rater('fleiss') does not take `level`: it passes its keyword arguments to "
            "fleiss(). Drop `level` (fleiss() takes `weights`)."
        ),
    ):
        df.agree.per_rater("fleiss", level="ordinal")
    with pytest.raises(TypeError, match=re.escape("Drop `weights` (light() takes no option).")):
        df.agree.per_rater("light", weights="linear")


def test_the_inference_options_per_rater_refuses_are_the_coefficients() -> None:
    from pdagree.evaluate import INFERENCE_DEFAULTS
    from pdagree.per_rater import _INFERENCE_OPTIONS

    assert set(_INFERENCE_OPTIONS) == set(INFERENCE_DEFAULTS)
