"""The methods of ``df.agree``, ``Tally`` and ``ddf.agree`` exist on their classes (#27, §1).

Each face forwards the public methods and properties of the ratings object it builds
(``Ratings``, ``CountRatings``, ``DaskRatings``); the forwarding methods are real members of
the class, with the target's signature, docstring and annotations, so that ``hasattr``,
``help()``, IDEs and Sphinx see them, and calling one gives what the target gives.
"""

from __future__ import annotations

import inspect
import pydoc
import typing
from typing import Any

import numpy as np
import pandas as pd
import pytest

import pdagree
from pdagree.count_ratings import CountRatings
from pdagree.ratings import Ratings


def faces() -> list[tuple[type, type]]:
    """(face, the class it forwards to); the Dask accessor when Dask is installed."""
    out: list[tuple[type, type]] = [
        (pdagree.AgreeAccessor, Ratings),
        (pdagree.Tally, CountRatings),
    ]
    try:
        import pdagree.dask as pdask
    except ImportError:  # pragma: no cover - the extra is installed in CI
        return out
    return [*out, (pdask.DaskAgreeAccessor, pdask.DaskRatings)]


def expected(target: type) -> list[str]:
    """Every public member of ``target`` but its constructor ``from_frame``."""
    return [n for n in dir(target) if not n.startswith("_") and n != "from_frame"]


PAIRS = [(face, target, name) for face, target in faces() for name in expected(target)]
IDS = [f"{face.__name__}.{name}" for face, _, name in PAIRS]


@pytest.mark.parametrize(("face", "target", "name"), PAIRS, ids=IDS)
def test_the_method_is_on_the_class(face: type, target: type, name: str) -> None:
    assert hasattr(face, name)
    assert name in vars(face)  # not through a __getattr__ of some base either


@pytest.mark.parametrize(("face", "target", "name"), PAIRS, ids=IDS)
def test_the_method_looks_like_its_target(face: type, target: type, name: str) -> None:
    mine = inspect.getattr_static(face, name)
    theirs = inspect.getattr_static(target, name)
    if isinstance(theirs, property):
        assert isinstance(mine, property)
        assert mine.__doc__ == theirs.__doc__
        assert typing.get_type_hints(mine.fget) == typing.get_type_hints(theirs.fget)
        return
    assert inspect.isfunction(mine)
    signature = inspect.signature(theirs)
    first = next(iter(signature.parameters))
    assert first == "self"
    assert inspect.signature(mine) == signature
    # bound to an instance, the method shows the target's parameters after self (#27)
    without_self = signature.replace(parameters=list(signature.parameters.values())[1:])
    assert inspect.signature(mine.__get__(object())) == without_self
    assert mine.__doc__ == theirs.__doc__ and mine.__doc__
    assert mine.__name__ == name
    assert mine.__qualname__ == f"{face.__qualname__}.{name}"
    assert not hasattr(mine, "__wrapped__")
    annotations = dict(inspect.get_annotations(inspect.unwrap(theirs)))
    annotations.pop("self", None)
    assert mine.__annotations__ == annotations
    hints = typing.get_type_hints(theirs)  # the annotations resolve as the target's do
    hints.pop("self", None)
    assert typing.get_type_hints(mine) == hints


@pytest.mark.parametrize(("face", "target"), faces(), ids=lambda c: c.__name__)
def test_no_getattr_and_the_declared_list_is_complete(face: type, target: type) -> None:
    assert "__getattr__" not in vars(face) and "__dir__" not in vars(face)
    assert face.__mro__ == (face, object)  # the target is a base for type checkers only
    module = inspect.getmodule(face)
    assert sorted(module.FORWARDED) == expected(target)  # type: ignore[union-attr]


def test_help_shows_the_parameters() -> None:
    text = pydoc.render_doc(pdagree.AgreeAccessor, renderer=pydoc.plaintext)
    assert "fleiss(self, weights: 'Weights' = None, **options" in text
    assert "alpha(self, level: '_alpha.Level' = 'nominal', *, weights" in text
    assert "Fleiss' kappa" in text
    text = pydoc.render_doc(pdagree.Tally, renderer=pydoc.plaintext)
    assert "spa(self, weights: 'SpaWeights' = 'annotations_m1', *, p" in text
    assert "n_items" in text  # a forwarded property
    assert "weights" in pydoc.render_doc(pdagree.Tally.fleiss, renderer=pydoc.plaintext)


def wide() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "r1": [1, 2, 3, 3, 2, 1, 1],
            "r2": [1, 2, 3, 2, 2, 1, np.nan],
            "r3": [1, 3, 3, 3, 2, 2, 1],
        }
    )


CALLS: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
    ("fleiss", (), {}),
    ("alpha", ("ordinal",), {}),
    ("gwet", (), {"weights": "linear", "confidence_level": 0.9}),
    ("counts", (), {}),
    ("frequencies", (), {}),
    ("report", (), {}),
]


def same(got: Any, want: Any, uncertainty: bool = False) -> None:
    if isinstance(want, pd.DataFrame):
        pd.testing.assert_frame_equal(got, want)
    else:
        assert type(got) is type(want) and float(got) == float(want)
        assert got.name == want.name and repr(got) == repr(want)
        if uncertainty:
            assert got.standard_error() == want.standard_error()
            assert got.confidence_interval() == want.confidence_interval()


@pytest.mark.parametrize(("name", "args", "kwargs"), CALLS, ids=[c[0] for c in CALLS])
def test_the_accessor_gives_what_ratings_give(name: str, args: Any, kwargs: Any) -> None:
    df = wide()
    before = df.copy()
    got = getattr(df.agree, name)(*args, **kwargs)
    same(got, getattr(df.agree(), name)(*args, **kwargs), "confidence_level" in kwargs)
    pd.testing.assert_frame_equal(df, before)  # the user's frame is untouched
    assert df.agree.n_items == 7 and list(df.agree.categories) == [1, 2, 3]


@pytest.mark.parametrize(("name", "args", "kwargs"), CALLS, ids=[c[0] for c in CALLS])
def test_the_tally_gives_what_its_ratings_give(name: str, args: Any, kwargs: Any) -> None:
    tally = pdagree.Tally(raters=["r1", "r2", "r3"]).add(wide())
    got = getattr(tally, name)(*args, **kwargs)
    uncertainty = "confidence_level" in kwargs
    same(got, getattr(tally.ratings, name)(*args, **kwargs), uncertainty)
    assert tally.n_items == 7


def test_what_counts_do_not_give_is_still_refused() -> None:
    from pdagree.tensors.count_data import AnnotationsNeeded

    tally = pdagree.Tally(raters=["r1", "r2", "r3"]).add(wide())
    with pytest.raises(AnnotationsNeeded, match=r"`icc\(\)` needs each annotation"):
        tally.icc()
    with pytest.raises(AttributeError):
        tally.no_such_method  # noqa: B018
    assert not hasattr(wide().agree, "no_such_method")
    assert {"fleiss", "n_items", "add"} <= set(dir(tally))
    assert {"fleiss", "n_items"} <= set(dir(wide().agree))


def test_the_dask_accessor_gives_what_it_builds() -> None:
    dd = pytest.importorskip("dask.dataframe")
    import pdagree.dask  # noqa: F401

    ddf = dd.from_pandas(wide(), npartitions=2)
    for name, args, kwargs in CALLS:
        if name in ("fleiss", "frequencies"):
            same(getattr(ddf.agree, name)(*args, **kwargs), getattr(ddf.agree(), name)())
    assert ddf.agree.n_items == 7
