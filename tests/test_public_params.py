"""Every public method refuses a bad value of the parameters they share, with one message.

The parameters (issue #27): ``confidence_level``, ``rng``, ``n_resamples``, ``weights``,
``level``, ``ties`` and ``method``. Each public method of :class:`pdagree.Ratings` (the
accessor's ``df.agree`` forwards to them) and of a :class:`pdagree.Coefficient` that takes one
of them is called with each bad value, and must raise before computing anything with
``"`<param>` must be <what>; got <value>."``; the numpy-scalar forms of good values are
accepted everywhere. As scikit-learn's ``test_public_functions.py``, the list of methods is
read from the classes, so that a new method is covered without touching this file.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pandas as pd
import pytest

import pdagree
from pdagree._validation import InvalidParameterError, check_fraction, check_seed
from pdagree.evaluate import INFERENCE_DEFAULTS

SHARED = ("confidence_level", "rng", "n_resamples", "weights", "level", "ties", "method")

BAD: dict[str, list[Any]] = {
    "confidence_level": [1.5, 0, 1, -0.1, True, np.bool_(True), "0.9", np.float64(np.nan)],
    "rng": ["seed", -1, np.int64(-1), 2.5, True, np.random.RandomState(0)],
    "n_resamples": [0, -3, 2.5, True, "100", 10**12],
    "weights": ["bogus"],
    "level": ["bogus"],
    "ties": ["bogus", "last"],
    "method": ["bogus"],
}

#: ``pairwise(method=...)`` is the deprecated name of ``coefficient=``, tested on its own
#: below; the ``method`` of every other method is the inference method (or, for
#: ``consensus``, the model).
SKIP = {("pairwise", "method")}

#: The positional arguments of the methods that need some (the two raters of the frame).
ARGS: dict[str, tuple[Any, ...]] = {"bland_altman": ("a", "b"), "contingency": ("a", "b")}


def _frame() -> pd.DataFrame:
    """Two raters, numeric labels: every method applies (cohen, icc, kendall_w, ...)."""
    a = [1, 2, 3, 1, 2, 3, 4, 4, 2, 1, 3, 4]
    b = [1, 2, 3, 2, 2, 3, 4, 3, 2, 1, 4, 4]
    return pd.DataFrame({"a": a, "b": b}, index=pd.RangeIndex(12, name="item"))


def _parameters(function: Callable[..., Any]) -> set[str]:
    """The shared parameters ``function`` takes, with the inference options of a coefficient
    method (``**options: Unpack[InferenceOptions]``)."""
    names = set()
    for parameter in inspect.signature(function).parameters.values():
        if parameter.kind is parameter.VAR_KEYWORD:
            if "InferenceOptions" in str(parameter.annotation):
                names.update(INFERENCE_DEFAULTS)
        else:
            names.add(parameter.name)
    return names & set(SHARED)


def _public(obj: Any) -> Iterator[tuple[str, Callable[..., Any]]]:
    for name in sorted(dir(type(obj))):
        if name.startswith("_") or isinstance(inspect.getattr_static(type(obj), name), property):
            continue
        member = getattr(obj, name)
        if callable(member) and not inspect.isclass(member):
            yield name, member


def _cases() -> Iterator[Any]:
    ratings = _frame().agree()
    coefficient = ratings.fleiss()
    targets = [("Ratings", ratings), ("Coefficient", coefficient)]
    for owner, obj in targets:
        for name, _ in _public(obj):
            for parameter in sorted(_parameters(getattr(type(obj), name))):
                if (name, parameter) in SKIP:
                    continue
                for bad in BAD[parameter]:
                    yield pytest.param(
                        owner, name, parameter, bad, id=f"{owner}.{name}-{parameter}-{bad!r}"
                    )


def _target(owner: str) -> Any:
    ratings = _frame().agree()
    return ratings if owner == "Ratings" else ratings.fleiss()


def _plain(value: Any) -> Any:
    return value.item() if isinstance(value, (np.number, np.bool_)) else value


def test_the_walk_covers_the_methods_of_the_issue() -> None:
    covered = {(owner, name, parameter) for owner, name, parameter, _ in _triples()}
    for name in ("fleiss", "cohen", "alpha", "spa", "light", "bias", "multilabel"):
        assert ("Ratings", name, "rng") in covered
        assert ("Ratings", name, "confidence_level") in covered
    for triple in [
        ("Ratings", "report", "confidence_level"),
        ("Ratings", "report", "n_resamples"),
        ("Ratings", "icc", "confidence_level"),
        ("Ratings", "icc_table", "confidence_level"),
        ("Ratings", "per_category", "rng"),
        ("Ratings", "consensus", "ties"),
        ("Ratings", "consensus", "rng"),
        ("Ratings", "consensus", "method"),
        ("Ratings", "alpha", "level"),
        ("Ratings", "pairwise", "weights"),
        ("Coefficient", "confidence_interval", "rng"),
        ("Coefficient", "standard_error", "n_resamples"),
    ]:
        assert triple in covered


def _triples() -> Iterator[tuple[str, str, str, Any]]:
    for case in _cases():
        yield case.values  # type: ignore[misc]


@pytest.mark.parametrize(("owner", "name", "parameter", "bad"), list(_cases()))
def test_bad_values_are_refused_with_one_message(
    owner: str, name: str, parameter: str, bad: Any
) -> None:
    method = getattr(_target(owner), name)
    extra: dict[str, Any] = {}
    if parameter in ("n_resamples", "rng") and "method" in _parameters(method):
        extra = {"method": "bootstrap"} if name != "consensus" else {"method": "majority"}
    if name == "report" and parameter == "n_resamples":
        extra = {}
    shown = re.escape(repr(_plain(bad)))
    match = rf"^`{parameter}` must be .+; got {shown}\."
    with pytest.raises((ValueError, TypeError), match=match):
        method(*ARGS.get(name, ()), **extra, **{parameter: bad})


@pytest.mark.parametrize(
    "level", [np.float16(0.9), np.float32(0.9), np.float64(0.9), np.longdouble(0.9), 0.9]
)
def test_numpy_scalar_confidence_levels_are_accepted_everywhere(level: Any) -> None:
    ratings = _frame().agree()
    expected = ratings.fleiss(confidence_level=0.9)
    kappa = ratings.fleiss(confidence_level=level)
    assert kappa.low == pytest.approx(expected.low, abs=1e-3)
    assert ratings.fleiss().confidence_interval(level).low == pytest.approx(expected.low, abs=1e-3)
    # icc_table() took only a Python float (np.float32(0.9) was refused), icc() did not check
    assert np.isfinite(ratings.icc_table(confidence_level=level).loc["A,1", "low"])
    icc = ratings.icc(confidence_level=level)
    assert np.isfinite(icc.confidence_interval(level).low)
    assert ratings.report(confidence_level=level).loc["fleiss", "low"] == pytest.approx(
        expected.low, abs=1e-3
    )
    table = ratings.per_category(confidence_level=level, n_resamples=np.int64(20), rng=0)
    assert "low" in table.columns


@pytest.mark.parametrize(
    "rng",
    [None, 0, 7, np.int64(7), np.uint32(7), np.random.SeedSequence(7), np.random.default_rng(7)],
)
def test_every_seed_form_is_accepted(rng: Any) -> None:
    ratings = _frame().agree()
    options = {"method": "bootstrap", "n_resamples": np.int64(30), "rng": rng}
    assert np.isfinite(ratings.fleiss(confidence_level=0.9, **options).low)
    assert np.isfinite(ratings.fleiss().standard_error(**options))
    assert len(ratings.consensus("majority", rng=rng).labels) == 12
    ratings.per_category(confidence_level=0.9, n_resamples=30, rng=rng)


def test_a_seed_gives_the_same_draw_in_every_form() -> None:
    ratings = _frame().agree()
    options = {"confidence_level": 0.9, "method": "bootstrap", "n_resamples": 50}
    lows = {
        ratings.fleiss(**options, rng=seed).low
        for seed in (5, np.int64(5), np.random.SeedSequence(5))
    }
    assert len(lows) == 1


def test_the_checks_name_the_parameter_given() -> None:
    with pytest.raises(InvalidParameterError, match=r"^`N` must be a number strictly"):
        check_fraction(2.0, "N")
    with pytest.raises(InvalidParameterError, match=r"^`seed` must be None, an integer"):
        check_seed("x", "seed")
    assert check_seed(np.int64(3)) == 3 and type(check_seed(np.int64(3))) is int


def test_pairwise_takes_coefficient_and_method_is_deprecated() -> None:
    ratings = _frame().agree()
    expected = ratings.pairwise(coefficient="scott")
    pd.testing.assert_frame_equal(ratings.pairwise("scott"), expected)
    with pytest.warns(FutureWarning, match=r"pairwise\(coefficient='scott'\)"):
        deprecated = ratings.pairwise(method="scott")
    pd.testing.assert_frame_equal(deprecated, expected)
    with pytest.raises(ValueError, match=r"^`coefficient` must be one of 'cohen', "):
        ratings.pairwise(coefficient="fleiss")  # type: ignore[arg-type]


def test_report_method_analytic_is_deprecated_as_auto() -> None:
    ratings = _frame().agree()
    with pytest.warns(FutureWarning, match=r"method='auto'"):
        deprecated = ratings.report(confidence_level=0.9, method="analytic")
    pd.testing.assert_frame_equal(deprecated, ratings.report(confidence_level=0.9))
    with pytest.raises(ValueError, match=r"^`method` must be one of 'auto', 'bootstrap'; got"):
        ratings.report(confidence_level=0.9, method="jackknife")


def test_confidence_level_is_keyword_only_where_the_design_does_not_show_it_positional() -> None:
    # README shows report(0.95); the command line calls icc_table(level) and
    # per_category(level) (it passes confidence_level= before these become keyword-only).
    shown_positional: set[str] = set()  # every Ratings method: keyword only (#27)
    for name, method in _public(_frame().agree()):
        parameters = inspect.signature(method).parameters
        if "confidence_level" in parameters and name not in shown_positional:
            assert parameters["confidence_level"].kind is inspect.Parameter.KEYWORD_ONLY, name


def test_the_accessor_refuses_as_the_ratings_do() -> None:
    with pytest.raises(ValueError, match=r"^`rng` must be None, an integer at least 0, "):
        _frame().agree.fleiss(confidence_level=0.9, rng="seed")
    with pytest.raises(ValueError, match=r"^`confidence_level` must be a number strictly "):
        _frame().agree.icc_table(confidence_level=True)
    assert pdagree.Ratings is type(_frame().agree())


@pytest.mark.parametrize("bad", ["seed", -1, 2.5, True, np.random.RandomState(0)])
def test_the_generators_refuse_a_bad_seed_alike(bad: Any) -> None:
    shown = re.escape(repr(_plain(bad)))
    for name, make in [
        ("seed", lambda: pdagree.datasets.make_crowd_sparse(n_items=4, seed=bad)),
        ("seed", lambda: pdagree.datasets.make_emails(n_items=4, seed=bad)),
        (
            "rng",
            lambda: pdagree.irt.simulate(_parameters_of_two_judges(), 5, rng=bad),
        ),
    ]:
        with pytest.raises(
            ValueError, match=rf"^`{name}` must be None, an integer .+; got {shown}\."
        ):
            make()


def test_the_generators_take_every_seed_form() -> None:
    frames = [
        pdagree.datasets.make_crowd_sparse(n_items=4, seed=seed)
        for seed in (3, np.int64(3), np.random.SeedSequence(3))
    ]
    assert frames[0].equals(frames[1]) and frames[0].equals(frames[2])
    drawn = pdagree.irt.simulate(_parameters_of_two_judges(), 5, rng=np.random.default_rng(1))
    assert drawn.shape[0] == 5


def _parameters_of_two_judges() -> pd.DataFrame:
    columns = {
        "discrimination": [1.0, 1.5],
        "extremity_1": [-1.0, -0.5],
        "extremity_2": [0.5, 1.0],
    }
    return pd.DataFrame(columns, index=["j", "k"])
