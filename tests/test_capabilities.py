"""The capability table (issue #27, section 1): every method of ``Ratings`` says once what it
reads, the sets of methods that counts give are derived from it, and what the data cannot give
is refused by a typed exception (a ``ValueError``)."""

from __future__ import annotations

import inspect

import numpy as np
import pandas as pd
import pytest

import pdagree
from pdagree import AnnotationsNeeded, ItemsNeeded, RatersNeeded
from pdagree.count_ratings import COUNT_METHODS, ITEM_METHODS, ROW_METHODS, CountRatings
from pdagree.definitions import REGISTRY
from pdagree.definitions.base import ANNOTATIONS, ITEMS, RATERS, ROWS
from pdagree.definitions.capabilities import (
    CAPABILITIES,
    FROM_COUNTS,
    FROM_FRAME,
    FROM_ROWS,
    METHODS,
    provided,
)
from pdagree.tensors.count_data import CountData


def _public_methods(cls: type) -> list[str]:
    return [
        n
        for n in dir(cls)
        if not n.startswith("_")
        and callable(getattr(cls, n))
        and not isinstance(inspect.getattr_static(cls, n), (property, classmethod))
    ]


def _long(seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    df = pd.DataFrame(
        {
            "item": rng.integers(0, 40, 200),
            "rater": rng.choice(["a", "b", "c", "d"], 200),
            "label": rng.choice([1, 2, 3], 200),
        }
    )
    return df.drop_duplicates(["item", "rater"]).reset_index(drop=True)


ARGUMENTS = {"item": "item", "rater": "rater", "label": "label"}


# ------------------------------------------------------------------- the one table


def test_every_registry_entry_and_ratings_method_is_in_the_table_once() -> None:
    methods = _public_methods(pdagree.Ratings)
    assert sorted(methods) == sorted(CAPABILITIES)
    assert not set(REGISTRY) & set(METHODS)  # each name in one list only
    for name, capability in CAPABILITIES.items():
        assert capability.reads, name
        assert capability.reads <= FROM_FRAME, name
        kind = "coefficient" if name in REGISTRY else "method"
        assert capability.kind == kind
        source = REGISTRY[name] if name in REGISTRY else METHODS[name]
        assert capability.reads == source.reads


def test_the_method_sets_are_derived_from_the_table() -> None:
    def given(held: frozenset[str]) -> set[str]:
        return {n for n, c in CAPABILITIES.items() if c.reads <= held}

    assert given(FROM_ROWS) == ROW_METHODS
    assert given(FROM_COUNTS) - given(FROM_ROWS) == ITEM_METHODS
    assert set(COUNT_METHODS) == given(FROM_COUNTS) - set(REGISTRY)
    # The sets as they were written out before the table (values unchanged).
    assert {
        "observed", "bennett", "fleiss", "scott", "gwet", "cohen", "conger", "alpha", "bias",
        "frequencies", "report",
    } == ROW_METHODS  # fmt: skip
    assert {"spa", "counts", "per_category", "items", "spa_items"} == ITEM_METHODS
    assert COUNT_METHODS == ("counts", "frequencies", "per_category", "items", "spa_items",
                             "report")  # fmt: skip
    from pdagree.dask.ratings import COUNT_METHODS as DASK_COUNT_METHODS

    assert DASK_COUNT_METHODS == COUNT_METHODS


def test_needs_raters_is_read_from_the_table() -> None:
    for name, definition in REGISTRY.items():
        assert definition.needs_raters == bool(definition.reads & {ANNOTATIONS, RATERS}), name
    assert {n for n, d in REGISTRY.items() if d.needs_raters} == {
        "cohen", "conger", "light", "bias", "multilabel",
    }  # fmt: skip


def test_what_the_data_hold() -> None:
    df = _long()
    assert provided(df.agree(**ARGUMENTS)._data) == FROM_FRAME
    counts = df.agree(**ARGUMENTS).counts()
    assert provided(counts.agree(layout="counts")._data) == {ITEMS, ROWS}
    tally = pdagree.Tally.from_frame(df, **ARGUMENTS)
    assert provided(tally.ratings._data) == FROM_COUNTS


@pytest.mark.parametrize("name", list(METHODS))
def test_every_table_of_definitions_shows_its_function_docstring(name: str) -> None:
    method = METHODS[name]
    assert method.name == name
    if method.compute is not None:
        assert getattr(pdagree.Ratings, name).__doc__ == method.compute.__doc__


#: The tables of the breakdowns and of the evaluation against a reference that need raters
#: (the models refuse a counts table in words of their own).
NEED_RATERS = [
    n
    for n, t in METHODS.items()
    if t.needs_raters and getattr(t.compute, "__module__", "").endswith(("breakdowns", "gold"))
]


@pytest.mark.parametrize("name", NEED_RATERS)
def test_tables_that_need_raters_refuse_counts(name: str) -> None:
    counts = pdagree.datasets.load("fort2011_trains").agree.counts()
    ratings = counts.agree(layout="counts")
    arguments = {"contingency": ("Annot1", "Annot2"), "against": ("Annot1",)}.get(name, ())
    with pytest.raises(RatersNeeded, match="needs to know which rater gave each rating"):
        getattr(ratings, name)(*arguments)


# ------------------------------------------------------------------- CountRatings


def test_every_count_ratings_method_is_declared_on_the_class() -> None:
    # None is inherited from Ratings unchecked: each is declared once, in CountRatings' body.
    for name in _public_methods(CountRatings):
        assert name in CountRatings.__dict__, name
        method = getattr(CountRatings, name)
        if name != "report":
            assert inspect.signature(method) == inspect.signature(getattr(pdagree.Ratings, name))
    assert sorted(_public_methods(CountRatings)) == sorted(CAPABILITIES)
    assert "from_frame" in CountRatings.__dict__


def test_every_count_ratings_method_works_or_raises_the_typed_exception() -> None:
    df = _long(1)
    df = df[df["rater"].isin(["a", "b"])]  # two raters: cohen() and scott() apply
    tally = pdagree.Tally.from_frame(df, **ARGUMENTS).ratings
    arguments = {"contingency": ("a", "b"), "against": ("a",)}
    for name in _public_methods(CountRatings):
        call = getattr(tally, name)
        if CAPABILITIES[name].reads <= FROM_COUNTS:
            call(*arguments.get(name, ()))
            continue
        with pytest.raises(AnnotationsNeeded, match=r"pd.concat\(batches\).agree") as caught:
            call(*arguments.get(name, ()))
        assert isinstance(caught.value, ValueError)


def test_a_refused_call_is_still_a_value_error() -> None:
    tally = pdagree.Tally.from_frame(_long(2), **ARGUMENTS)
    with pytest.raises(ValueError, match="needs each annotation's item and rater"):
        tally.light()
    assert issubclass(RatersNeeded, AnnotationsNeeded)
    assert issubclass(ItemsNeeded, AnnotationsNeeded)
    assert issubclass(AnnotationsNeeded, ValueError)
    from pdagree.dask._data import AnnotationsNeeded as FromDask
    from pdagree.tensors.count_data import AnnotationsNeeded as FromCounts

    assert FromDask is FromCounts is AnnotationsNeeded


def test_rows_of_counts_refuse_what_reads_the_items_with_items_needed() -> None:
    from pdagree.counting import Counts, Spec
    from pdagree.counting.profiles import Profiles
    from pdagree.tensors.count_data import profile_data

    spec = Spec.of(**ARGUMENTS)
    profiles = Profiles(spec)
    profiles.absorb(Profiles.of(Counts.of_frame(_long(3), spec, one_frame=True).without_pairs()))
    rows = CountRatings(profile_data(profiles))
    for name in sorted(ITEM_METHODS):
        with pytest.raises(ItemsNeeded, match="keep_items=True"):
            getattr(rows, name)()
    with pytest.raises(ItemsNeeded, match=r"`alpha\(level='ordinal'\)`.*keep_items=True"):
        rows.alpha("ordinal")
    with pytest.raises(AnnotationsNeeded) as caught:
        rows.light()
    assert not isinstance(caught.value, ItemsNeeded)
    float(rows.alpha(weights="linear"))  # rows give weighted nominal alpha


def test_a_variance_that_reads_each_rater_is_refused_by_type() -> None:
    # conger's variance guards each annotation's rater (RatersNeeded "needs raters"); on
    # counts that is the annotations' message, found by the exception's type.
    tally = pdagree.Tally.from_frame(_long(4), **ARGUMENTS)
    with pytest.raises(AnnotationsNeeded, match=r"`conger\(\)` with its options"):
        tally.conger(confidence_level=0.95)
    assert "conger" in tally.report().index
    assert "conger" not in tally.report(confidence_level=0.95).index


# ------------------------------------------------------------------- from_frame


def test_count_ratings_from_frame_gives_the_tally_of_the_frame() -> None:
    df = _long(5)
    ratings = CountRatings.from_frame(df, **ARGUMENTS)
    assert type(ratings) is CountRatings and type(ratings._data) is CountData
    want = df.agree(**ARGUMENTS)
    for name in ("fleiss", "gwet", "conger", "bias"):
        np.testing.assert_allclose(float(getattr(ratings, name)()), float(getattr(want, name)()),
                                   rtol=1e-12)  # fmt: skip
    pd.testing.assert_frame_equal(ratings.counts(), want.counts())
    assert ratings.n_items == want.n_items and list(ratings.raters) == list(want.raters)
    with pytest.raises(AnnotationsNeeded):
        ratings.light()
    with pytest.raises(TypeError, match="`rank`"):
        CountRatings.from_frame(df, **ARGUMENTS, rank="label")
    with pytest.raises(TypeError, match="counted already"):
        CountRatings.from_frame(want.counts(), layout="counts")


def test_the_guards_for_each_annotations_rater_raise_raters_needed() -> None:
    # The guards that matched by message before ("no raters", "needs raters"): same words,
    # now a type of their own.
    from pdagree.definitions import kappa

    data = pdagree.Tally.from_frame(_long(6), **ARGUMENTS).ratings._data
    with pytest.raises(RatersNeeded, match=r"^no raters$"):
        data._annotations()
    parts = kappa.conger(data)
    with pytest.raises(RatersNeeded, match=r"^needs raters$"):
        kappa.conger_variance(data, {}, parts, np.inf)
    counts = _long(6).agree(**ARGUMENTS).counts().agree(layout="counts")
    with pytest.raises(RatersNeeded, match="needs to know which rater gave each rating"):
        counts.cohen()
