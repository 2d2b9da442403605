"""Results that do not carry the data (#27): immutable, small pickles, intervals kept.

A coefficient holds the encoded ratings while it lives (its bootstrap needs them); a pickle
and ``remove_data()`` leave them out and keep the few numbers of the analytic and jackknife
variances, so those intervals come out the same after a round trip.
"""

from __future__ import annotations

import gc
import inspect
import math
import pickle
import weakref

import numpy as np
import pandas as pd
import pytest

import pdagree
from pdagree import Coefficient, Statistic, datasets
from pdagree.icc import ICC
from pdagree.kendall import KendallW

LIMIT = 64 * 1024


def _frame(n_items: int) -> pd.DataFrame:
    rng = np.random.default_rng(7)
    truth = rng.integers(0, 4, n_items)
    noisy = np.where(
        rng.random((n_items, 4)) < 0.3, rng.integers(0, 4, (n_items, 4)), truth[:, None]
    )
    return pd.DataFrame(noisy, columns=["a", "b", "c", "d"])


@pytest.fixture(scope="module")
def sizes() -> dict[str, tuple[int, int]]:
    """Pickled sizes per coefficient at 200,000 x 4 and 2,000 x 4."""
    out: dict[str, list[int]] = {}
    for n_items in (200_000, 2_000):
        ratings = _frame(n_items).agree()
        for name in ("fleiss", "alpha", "gwet", "light", "bias", "conger"):
            out.setdefault(name, []).append(len(pickle.dumps(getattr(ratings, name)())))
        out.setdefault("icc", []).append(len(pickle.dumps(ratings.icc())))
        out.setdefault("kendall_w", []).append(len(pickle.dumps(ratings.kendall_w())))
    return {k: (v[0], v[1]) for k, v in out.items()}


@pytest.mark.parametrize(
    "name", ["fleiss", "alpha", "gwet", "light", "bias", "conger", "icc", "kendall_w"]
)
def test_pickle_size_does_not_grow_with_the_data(
    sizes: dict[str, tuple[int, int]], name: str
) -> None:
    big, small = sizes[name]
    assert big < LIMIT
    # The same size whatever the number of items (only the digits of `n_items` differ).
    assert abs(big - small) <= 16


ROUND_TRIP = [
    ("fleiss", {}),
    ("alpha", {}),
    ("alpha", {"level": "interval"}),
    ("gwet", {"weights": "quadratic"}),
    ("conger", {}),
    ("light", {}),
    ("bias", {}),
    ("observed", {}),
]


@pytest.mark.parametrize(("name", "arguments"), ROUND_TRIP)
def test_round_trip_keeps_value_members_and_analytic_inference(
    name: str, arguments: dict[str, object]
) -> None:
    ratings = _frame(300).agree()
    result = getattr(ratings, name)(**arguments)
    again = pickle.loads(pickle.dumps(result))
    assert type(again) is type(result)
    assert again.value == result.value
    for member in ("name", "observed", "expected", "n_items", "n_raters", "n_categories"):
        assert getattr(again, member) == getattr(result, member)
    assert again.categories == result.categories
    pd.testing.assert_frame_equal(again.to_frame(), result.to_frame())
    assert again.__dict__["_source"].data is None
    # Analytic (or jackknife) inference: the same numbers, bit for bit.
    for level in (0.9, 0.95):
        assert again.confidence_interval(level) == result.confidence_interval(level)
    assert again.standard_error() == result.standard_error()
    for alternative in ("greater", "two-sided", "less"):
        assert again.p_value(alternative=alternative) == result.p_value(alternative=alternative)
    # Exactly equal, nan where the original has nan (se_h0 of the t test).
    np.testing.assert_equal(tuple(again.z_test()), tuple(result.z_test()))


def test_round_trip_of_a_result_with_its_interval() -> None:
    result = datasets.load("fleiss1971").agree.fleiss(confidence_level=0.9)
    again = pickle.loads(pickle.dumps(result))
    for member in ("se", "low", "high", "z", "ci_method"):
        assert getattr(again, member) == getattr(result, member)
    pd.testing.assert_frame_equal(again.to_frame(), result.to_frame())


def test_contingency_table_round_trip() -> None:
    table = pd.DataFrame([[20, 5], [10, 15]], index=["y", "n"], columns=["y", "n"])
    result = table.agree(layout="contingency").cohen()
    again = pickle.loads(pickle.dumps(result))
    assert again.confidence_interval() == result.confidence_interval()


def test_methods_that_need_the_data_say_so_after_unpickling() -> None:
    result = datasets.load("fleiss1971").agree.fleiss()
    again = pickle.loads(pickle.dumps(result))
    with pytest.raises(
        ValueError,
        match=r"method='bootstrap' needs the ratings `fleiss`.*"
        r"compute the coefficient again.*method='analytic' without `N`",
    ):
        again.confidence_interval(method="bootstrap", rng=0)
    with pytest.raises(ValueError, match=r"method='large-sample' needs the ratings"):
        again.z_test("large-sample")
    with pytest.raises(ValueError, match=r"`N=100` needs the ratings"):
        again.standard_error(N=100)
    # The live result still has them.
    assert math.isfinite(result.standard_error(N=100))


def test_undefined_standard_error_warns_after_unpickling_too() -> None:
    one = pd.DataFrame({"a": ["x", "y"], "b": ["x", "x"]}).iloc[:1]
    result = one.agree.observed()
    again = pickle.loads(pickle.dumps(result))
    for r in (result, again):
        with pytest.warns(pdagree.PdagreeWarning, match="fewer than two items were rated"):
            assert math.isnan(r.standard_error())


def test_remove_data_releases_the_ratings() -> None:
    ratings = _frame(2_000).agree()
    code = weakref.ref(ratings._data.enc.code)
    kappa = ratings.fleiss()
    interval = kappa.confidence_interval()
    light = kappa.remove_data()
    del ratings, kappa
    gc.collect()
    assert code() is None  # nothing holds the data any more
    assert light.confidence_interval() == interval


def test_a_live_result_holds_the_data_for_the_bootstrap() -> None:
    ratings = _frame(200).agree()
    code = weakref.ref(ratings._data.enc.code)
    kappa = ratings.fleiss()
    del ratings
    gc.collect()
    assert code() is not None
    low, high = kappa.confidence_interval(method="bootstrap", n_resamples=50, rng=1)
    assert low < kappa < high


# ------------------------------------------------------------------------------ immutable


def test_results_are_immutable() -> None:
    ratings = _frame(100).agree()
    for result in (ratings.fleiss(confidence_level=0.95), ratings.icc(), ratings.kendall_w()):
        state = dict(result.__dict__)
        with pytest.raises(AttributeError, match="immutable"):
            result.value_x = 1  # type: ignore[attr-defined]
        with pytest.raises(AttributeError, match="immutable"):
            result.name = "other"  # type: ignore[misc]
        with pytest.raises(AttributeError, match="immutable"):
            del result.n_items
        if isinstance(result, Coefficient):
            result.confidence_interval()
            result.remove_data()
        else:
            result.p_value()
        assert result.__dict__ == state
        assert pickle.loads(pickle.dumps(result)).__dict__.keys() == state.keys()


def test_copies_are_the_object_itself() -> None:
    import copy

    kappa = datasets.load("fleiss1971").agree.fleiss()
    assert copy.copy(kappa) is kappa
    assert copy.deepcopy(kappa) is kappa


# ------------------------------------------------------------------- the shared base


def test_icc_and_kendall_are_siblings_of_coefficient() -> None:
    ratings = _frame(100).agree()
    icc, w, kappa = ratings.icc(), ratings.kendall_w(), ratings.fleiss()
    for result in (icc, w, kappa):
        assert isinstance(result, Statistic)
        assert isinstance(result, float)
    assert not isinstance(icc, Coefficient)
    assert not isinstance(w, Coefficient)
    for missing in ("standard_error", "z_test", "observed", "expected", "remove_data"):
        assert not hasattr(icc, missing)
    for missing in ("standard_error", "z_test", "confidence_interval", "observed"):
        assert not hasattr(w, missing)


@pytest.mark.parametrize(
    "method",
    [ICC.confidence_interval, ICC.p_value, KendallW.p_value, Coefficient.confidence_interval],
)
def test_signatures_are_real(method: object) -> None:
    kinds = {p.kind for p in inspect.signature(method).parameters.values()}  # type: ignore[arg-type]
    assert inspect.Parameter.VAR_POSITIONAL not in kinds
    assert inspect.Parameter.VAR_KEYWORD not in kinds


def test_icc_refuses_arguments_it_used_to_swallow() -> None:
    icc = _frame(100).agree.icc()
    with pytest.raises(TypeError):
        icc.confidence_interval(0.95, "auto", 2000)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        icc.confidence_interval(rng=0)  # type: ignore[call-arg]


def test_return_annotations() -> None:
    assert inspect.signature(pdagree.Ratings.icc).return_annotation == "ICC | pd.DataFrame"
    assert (
        inspect.signature(pdagree.Ratings.kendall_w).return_annotation == "KendallW | pd.DataFrame"
    )


def test_icc_round_trip_keeps_its_f_interval_and_test() -> None:
    icc = _frame(300).agree.icc("C,k")
    again = pickle.loads(pickle.dumps(icc))
    assert again.value == icc.value
    assert again.confidence_interval(0.9) == icc.confidence_interval(0.9)
    assert again.p_value(rho0=0.2) == icc.p_value(rho0=0.2)
    assert repr(again) == repr(icc)
    pd.testing.assert_frame_equal(again.to_frame(), icc.to_frame())


def test_incomplete_icc_says_its_interval_needs_the_ratings_after_unpickling() -> None:
    frame = _frame(60).astype(float)
    frame.iloc[::7, 1] = np.nan
    icc = frame.agree.icc("1,1")
    assert icc.__dict__["_incomplete_layout"]
    again = pickle.loads(pickle.dumps(icc))
    with pytest.raises(ValueError, match="incomplete layout needs the ratings"):
        again.confidence_interval()
    assert icc.confidence_interval() == icc.confidence_interval()


def test_kendall_round_trip() -> None:
    w = _frame(300).agree.kendall_w()
    again = pickle.loads(pickle.dumps(w))
    assert again.value == w.value
    assert again.p_value() == w.p_value()
    assert again.chi2 == w.chi2
    assert repr(again) == repr(w)


def test_statistic_to_frame_and_repr() -> None:
    w = _frame(100).agree.kendall_w()
    frame = w.to_frame()
    assert list(frame.index) == ["kendall_w"]
    assert list(frame.columns)[:4] == ["value", "n_items", "n_raters", "n_categories"]
    assert "observed" not in frame.columns
    plain = Statistic(0.25, name="demo", n_items=3, n_raters=2, n_categories=2, categories=(0, 1))
    assert repr(plain) == "<demo 0.2500: n_items=3, n_raters=2>"
