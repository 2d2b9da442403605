"""The fast encoding paths give exactly what the plain pandas and NumPy calls give.

`encoding._factorize` and `encoding._labels.encode_label_column` skip passes over the
annotations (issue #13); each is checked here against the call it replaces, on the values
where the two could differ (missing values, -0.0, infinities, integers beyond 2**53, mixed
types, Categoricals, declared categories).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdagree.encoding._factorize import (
    compact_keys,
    distinct_keys,
    duplicated_keys,
    factorize_sorted,
)
from pdagree.encoding._labels import dtype_categories, encode_label_column, encode_labels


def _same_index(got: pd.Index, expected: pd.Index) -> None:
    assert got.dtype == expected.dtype
    assert got.equals(expected)
    assert [type(v) for v in got] == [type(v) for v in expected]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(-(2**40), 2**40), min_size=1, max_size=60),
    st.sampled_from(["int64", "int32", "uint32", "int8"]),
    st.booleans(),
)
def test_factorize_sorted_integers(values: list[int], dtype: str, small: bool) -> None:
    values = [v % 50 for v in values] if small else values
    series = pd.Series(values)
    try:
        series = series.astype(dtype)
    except (OverflowError, ValueError):
        return
    if not (series.astype("int64") == pd.Series(values)).all():
        return  # wrapped around in a narrow dtype
    codes, uniques = factorize_sorted(series)
    want_codes, want_uniques = pd.factorize(series, sort=True)
    np.testing.assert_array_equal(codes, want_codes)
    _same_index(uniques, pd.Index(want_uniques))


@pytest.mark.parametrize("missing", [False, True])
@pytest.mark.parametrize("dtype", ["Int64", "UInt16", "int64[pyarrow]", "int32[pyarrow]"])
def test_factorize_sorted_nullable_integers(dtype: str, missing: bool) -> None:
    # Item ids as read_csv(dtype_backend=...) gives them: the dense path when none is missing.
    pytest.importorskip("pyarrow")
    series = pd.Series([30, 10, None if missing else 20, 30, 10], dtype=dtype)
    codes, uniques = factorize_sorted(series)
    want_codes, want_uniques = pd.factorize(series, sort=True)
    np.testing.assert_array_equal(codes, want_codes)
    _same_index(uniques, pd.Index(want_uniques))


# "str" is PyArrow-backed here; pandas without PyArrow gives the Python-backed one, which
# factorize_sorted hashes from the object array behind it.
PYTHON_TEXT = pd.StringDtype("python", na_value=np.nan)


@pytest.mark.parametrize(
    "values",
    [
        ["b", "a", None, "b", "c"],
        ["x"],
        [None, None],
        [3.5, np.nan, -1.0, 3.5],
        [2, "a", 1, "b"],
        [True, False, True],
        pd.Categorical(["z", "y", "z"], categories=["z", "y", "x"]),
    ],
)
@pytest.mark.parametrize("dtype", [None, "str", "string", PYTHON_TEXT, object])
def test_factorize_sorted_other_values(values: list[object], dtype: object) -> None:
    try:
        series = pd.Series(values, dtype=dtype)
    except (TypeError, ValueError):
        return
    try:
        want_codes, want_uniques = pd.factorize(series, sort=True)
    except TypeError:
        with pytest.raises(TypeError):
            factorize_sorted(series)
        return
    codes, uniques = factorize_sorted(series)
    np.testing.assert_array_equal(codes, want_codes)
    _same_index(uniques, pd.Index(want_uniques))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 6), st.integers(0, 9)), min_size=1, max_size=80),
    st.booleans(),
)
def test_key_helpers_equal_numpy(rows: list[tuple[int, int]], wide: bool) -> None:
    prefix = np.array([r[0] for r in rows], dtype=np.int64)
    last_raw = np.array([r[1] for r in rows], dtype=np.int64)
    last, _ = pd.factorize(last_raw, sort=True)  # every code present, as the encoder has it
    last = last.astype(np.int64)
    n_last = int(last.max()) + 1
    n_prefix = 7 if not wide else 2**40  # a huge range: the sparse paths
    size = n_prefix * n_last
    key = prefix * n_last + last
    keys, inverse = compact_keys(prefix, last, n_last, size)
    want_keys, want_inverse = np.unique(key, return_inverse=True)
    np.testing.assert_array_equal(keys, want_keys)
    np.testing.assert_array_equal(inverse, want_inverse.ravel())
    np.testing.assert_array_equal(distinct_keys(key, size), want_keys)
    uniq, counts = np.unique(key, return_counts=True)
    np.testing.assert_array_equal(duplicated_keys(key, size), uniq[counts > 1])


def test_compact_keys_nested_items() -> None:
    # Items nested in groups over a range too large to count densely.
    group = np.array([5, 5, 2, 9, 2, 5], dtype=np.int64) * 10**12
    item = np.array([3, 3, 0, 1, 2, 4], dtype=np.int64)
    keys, inverse = compact_keys(group, item, 5, 10**13 * 5)
    want_keys, want_inverse = np.unique(group * 5 + item, return_inverse=True)
    np.testing.assert_array_equal(keys, want_keys)
    np.testing.assert_array_equal(inverse, want_inverse.ravel())


try:  # PyArrow comes with the dask extra; the arrow-backed columns need it
    import pyarrow as pa
except ImportError:  # pragma: no cover - the dev extra installs it
    pa = None

ARROW_COLUMNS = (
    {}
    if pa is None
    else {
        "arrow text": pd.Series(["b", None, "a", "b"], dtype=pd.ArrowDtype(pa.string())),
        "arrow large text": pd.Series(["b", "a"], dtype=pd.ArrowDtype(pa.large_string())),
        "arrow integers": pd.Series([3, None, 1, 3], dtype=pd.ArrowDtype(pa.int64())),
        "arrow floats": pd.Series([0.5, None, 2.0], dtype=pd.ArrowDtype(pa.float64())),
        "arrow booleans": pd.Series([True, None, False], dtype=pd.ArrowDtype(pa.bool_())),
    }
)

LABEL_COLUMNS = {
    **ARROW_COLUMNS,
    "nullable integers, none missing": pd.Series([5, 1, 5], dtype="Int64"),
    "nullable unsigned": pd.Series([2, None, 1], dtype="UInt8"),
    "text": pd.Series(["neg", "pos", None, "neu", "pos"], dtype="str"),
    "text, python storage": pd.Series(["b", pd.NA, "a", "b"], dtype="string"),
    "text, python storage, NaN": pd.Series(["b", np.nan, "a", "b"], dtype=PYTHON_TEXT),
    "text, python storage, all missing": pd.Series([None, None], dtype=PYTHON_TEXT),
    "object, every kind of missing": pd.Series(
        ["b", None, np.nan, pd.NA, pd.NaT, float("nan"), "a"], dtype=object
    ),
    "object, mixed": pd.Series([1, "a", 2.0, None, 1.0, True], dtype=object),
    "object, all missing": pd.Series([None, np.nan], dtype=object),
    "floats, all missing": pd.Series([np.nan, np.nan]),
    "object text": pd.Series(["b", None, "a", "b"], dtype=object),
    "floats": pd.Series([2.5, np.nan, 1.0, 2.5, np.inf, -3.0]),
    "zero first": pd.Series([0.0, -0.0, 1.0, np.nan]),
    "negative zero first": pd.Series([-0.0, 2.0, 0.0]),
    "integers": pd.Series([3, 1, 2, 3, 10]),
    "big integers": pd.Series([2**53, 2**53 + 1, 5], dtype="int64"),
    "unsigned": pd.Series([3, 1, 3], dtype="uint8"),
    "float32": pd.Series([0.1, 0.2, 0.1], dtype="float32"),
    "booleans": pd.Series([True, False, True]),
    "nullable integers": pd.Series([1, None, 3], dtype="Int64"),
    "text numbers": pd.Series(["10", "2", "1", None], dtype="str"),
    "categorical": pd.Series(pd.Categorical(["b", "a", None, "b"], categories=["b", "a", "c"])),
    "ordered categorical": pd.Series(
        pd.Categorical(["lo", "hi", "lo"], categories=["lo", "mid", "hi"], ordered=True)
    ),
    "numeric categorical": pd.Series(pd.Categorical([3, 1, 2, 1])),
}


@pytest.mark.parametrize("name", list(LABEL_COLUMNS))
@pytest.mark.parametrize("declared", [None, "all"])
def test_encode_label_column_equals_the_object_path(name: str, declared: str | None) -> None:
    labels = LABEL_COLUMNS[name]
    before = labels.copy()
    want_keep = labels.notna().to_numpy()
    categories = None
    if declared == "all":
        categories = list(pd.unique(labels[want_keep]))[::-1]
    from_dtype = dtype_categories([labels])
    if not want_keep.any():  # nothing to encode: the caller says so
        keep, codes, cats, _ = encode_label_column(labels, categories, from_dtype, "x")
        assert not keep.any() and len(codes) == 0 and len(cats) == 0
        return
    try:
        want = encode_labels(labels.to_numpy(dtype=object)[want_keep], categories, from_dtype, "x")
    except (TypeError, ValueError) as exc:
        with pytest.raises(type(exc), match=str(exc)[:40].replace("[", r"\[")):
            encode_label_column(labels, categories, from_dtype, "x")
        return
    keep, codes, cats, ordered = encode_label_column(labels, categories, from_dtype, "x")
    pd.testing.assert_series_equal(labels, before)  # the user's column is not modified
    np.testing.assert_array_equal(keep, want_keep)
    np.testing.assert_array_equal(codes, want[0])
    _same_index(cats, want[1])
    assert [np.signbit(v) for v in cats if isinstance(v, float)] == [
        np.signbit(v) for v in want[1] if isinstance(v, float)
    ]
    assert ordered == want[2]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.none(),
            st.floats(allow_nan=False, width=64),
            st.sampled_from([0.0, -0.0, 1.0, 2.5]),
        ),
        min_size=1,
        max_size=30,
    )
)
def test_encode_label_column_floats(values: list[float | None]) -> None:
    labels = pd.Series(values, dtype="float64")
    want_keep = labels.notna().to_numpy()
    if not want_keep.any():
        return
    want = encode_labels(labels.to_numpy(dtype=object)[want_keep], None, None, "x")
    keep, codes, cats, ordered = encode_label_column(labels, None, None, "x")
    np.testing.assert_array_equal(keep, want_keep)
    np.testing.assert_array_equal(codes, want[0])
    _same_index(cats, want[1])
    assert [np.signbit(v) for v in cats] == [np.signbit(v) for v in want[1]]
    assert ordered == want[2]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6), st.booleans())
def test_category_set_split_equals_subset(seed: int, n_categories: int, weighted: bool) -> None:
    # The one-sort split of by= groups by their set of categories gives, set by set, what
    # RatingData.subset gives, in the order of np.unique(mask, axis=0).
    from pdagree.category_sets import _patterns, _subsets
    from pdagree.encoding._encode import Encoded
    from pdagree.tensors import RatingData

    rng = np.random.default_rng(seed)
    n_groups, n_items = 7, 30
    group = rng.integers(0, n_groups, n_items)
    item = rng.integers(0, n_items, 120)
    code = rng.integers(0, n_categories, 120)
    enc = Encoded(
        layout="long",
        items=pd.Index(range(n_items)),
        raters=pd.Index(["a", "b", "c"]),
        categories=pd.Index(list("pqrstu")[:n_categories]),
        item=item,
        rater=rng.integers(0, 3, 120),
        code=code,
        weight=rng.integers(1, 3, 120).astype(float) if weighted else np.ones(120),
        group=group,
        groups=pd.Index([f"g{g}" for g in range(n_groups)]),
        by=("g",),
        secondary=np.where(rng.random(120) < 0.3, rng.integers(0, n_categories, 120), -1),
    )
    data = RatingData(enc)
    mask = np.zeros((n_groups, n_categories), dtype=bool)
    mask[group[item], code] = True
    want_patterns, want_inverse = np.unique(mask, axis=0, return_inverse=True)
    patterns, inverse = _patterns(mask)
    np.testing.assert_array_equal(patterns, want_patterns)
    np.testing.assert_array_equal(inverse, want_inverse.ravel())
    parts = list(_subsets(data, patterns, inverse))
    assert len(parts) == len(patterns)
    for p, (groups, items, sub) in enumerate(parts):
        want_groups = np.flatnonzero(inverse == p)
        np.testing.assert_array_equal(groups, want_groups)
        want_sub, want_items = data.subset(want_groups, patterns[p])
        np.testing.assert_array_equal(items, want_items)
        a, b = sub.enc, want_sub.enc
        for field in ("item", "rater", "code", "weight", "group", "secondary"):
            np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
        for field in ("items", "raters", "categories", "groups"):
            assert getattr(a, field).equals(getattr(b, field))
        assert (a.declared, a.ordered, a.by, a.layout) == (b.declared, b.ordered, b.by, b.layout)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(63, 400), st.integers(1, 40))
def test_category_sets_of_many_categories_equal_np_unique(
    seed: int, n_categories: int, n_groups: int
) -> None:
    # Beyond 62 categories the rows' bits are packed into bytes (np.unique(axis=0) took over
    # a second at 10^5 categories): the same patterns, order and groups.
    from pdagree.category_sets import _patterns

    rng = np.random.default_rng(seed)
    shared = rng.random((int(rng.integers(1, 5)), n_categories)) < rng.random()
    mask = shared[rng.integers(0, len(shared), n_groups)]
    mask[rng.random(mask.shape) < 0.01] ^= True  # near-equal rows
    want_patterns, want_inverse = np.unique(mask, axis=0, return_inverse=True)
    patterns, inverse = _patterns(mask)
    np.testing.assert_array_equal(patterns, want_patterns)
    np.testing.assert_array_equal(inverse, want_inverse.ravel())


@pytest.mark.parametrize("name", ["observed", "fleiss", "scott", "cohen", "conger", "alpha"])
@pytest.mark.parametrize("seed", range(3))
def test_unused_categories_ignored_exactly(name: str, seed: int) -> None:
    # Definitions that declare they ignore unused categories give, computed on all
    # categories at once, exactly what the split per set of categories gives.
    import pdagree  # noqa: F401  (the accessor)
    from pdagree.category_sets import merge_components, per_category_set
    from pdagree.definitions import get

    rng = np.random.default_rng(seed)
    n_raters = 2 if name in ("scott", "cohen") else 4
    rows = []
    for group in range(12):
        labels = list("abcde")[: rng.integers(1, 6)]
        for item in range(rng.integers(1, 5)):
            for rater in range(n_raters):
                if rng.random() < 0.85:
                    rows.append((group, f"{group}-{item}", rater, rng.choice(labels)))
    frame = pd.DataFrame(rows, columns=["g", "item", "rater", "label"])
    data = frame.agree(item="item", rater="rater", label="label", by="g")._data
    assert data.category_mask is not None
    definition = get(name)
    assert definition.ignores_unused_categories is not None
    assert definition.ignores_unused_categories({"weights": None})
    with np.errstate(all="ignore"):
        whole = definition.compute(data)
        split = per_category_set(
            data, {}, lambda sub, o: definition.compute(sub, **o), merge_components
        )
    for field in ("value", "observed", "expected"):
        np.testing.assert_allclose(
            getattr(whole, field), getattr(split, field), rtol=1e-14, atol=1e-15
        )


# ----------------------------------------------------------------- wide frames, column-wise

WIDE_TEXT = ["str", PYTHON_TEXT, "string", "string[pyarrow]", object]


def _general_wide(frame: pd.DataFrame, declared: list[object] | None) -> tuple[object, ...]:
    """What the general path of a wide frame gives: the object array, its present cells in
    row-major order, encode_labels of them."""
    arr = frame.to_numpy(dtype=object)
    item, rater = np.nonzero(~pd.isna(arr))
    code, cats, ordered = encode_labels(arr[item, rater], declared, None, "a rating cell")
    return item, rater, code, cats, ordered


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.lists(
            st.one_of(st.none(), st.sampled_from(["b", "a", "10", "2", "02", "1", "", "é"])),
            min_size=3,
            max_size=3,
        ),
        min_size=1,
        max_size=12,
    ),
    st.sampled_from(WIDE_TEXT),
    st.sampled_from(["none", "all", "some"]),
)
def test_wide_text_codes_equal_the_general_path(
    rows: list[list[str | None]], dtype: object, declare: str
) -> None:
    from pdagree.encoding._wide import wide_codes

    frame = pd.DataFrame(rows, columns=["r1", "r2", "r3"]).astype(dtype)
    present = [v for row in rows for v in row if v is not None]
    declared = {
        "none": None,
        "all": sorted(set(present), reverse=True),
        "some": sorted(set(present), reverse=True)[1:],  # a label missing: the same error
    }[declare]
    try:
        want = _general_wide(frame, declared)
    except (TypeError, ValueError) as exc:
        with pytest.raises(type(exc), match=re.escape(str(exc))):
            wide_codes(frame, declared)
        return
    got = wide_codes(frame, declared)
    if not present:
        assert got is None  # no rating: the general path reports it
        return
    assert got is not None
    np.testing.assert_array_equal(got.item, want[0])
    np.testing.assert_array_equal(got.rater, want[1])
    np.testing.assert_array_equal(got.code, want[2])
    _same_index(got.categories, want[3])
    assert got.ordered == want[4]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.lists(
            st.one_of(st.none(), st.sampled_from([0.0, -0.0, 1.0, 2.5, 10.0, -3.0])),
            min_size=2,
            max_size=2,
        ),
        min_size=1,
        max_size=12,
    ),
    st.sampled_from(["float64", "float32", "int64", "int8", "uint16"]),
)
def test_wide_number_codes_equal_the_general_path(
    rows: list[list[float | None]], dtype: str
) -> None:
    from pdagree.encoding._wide import wide_codes

    frame = pd.DataFrame(rows, columns=["r1", "r2"], dtype="float64")
    integers = dtype[0] in "iu"  # integer columns hold no missing value
    frame = (frame.fillna(1.0).abs() if integers else frame).astype(dtype)
    if not frame.notna().any().any():
        return
    want = _general_wide(frame, None)
    got = wide_codes(frame, None)
    assert got is not None
    np.testing.assert_array_equal(got.item, want[0])
    np.testing.assert_array_equal(got.rater, want[1])
    np.testing.assert_array_equal(got.code, want[2])
    _same_index(got.categories, want[3])
    assert [np.signbit(v) for v in got.categories] == [np.signbit(v) for v in want[3]]
    assert got.ordered == want[4]


@pytest.mark.parametrize(
    "frame",
    [
        pd.DataFrame({"a": ["x", "y"], "b": [("x", "y"), "y"]}),  # object: ranked cells
        pd.DataFrame({"a": ["x", "y"], "b": ["x", 2]}),  # object: text and a number
        pd.DataFrame({"a": [1, 2], "b": [1.0, 2.0]}),  # mixed numbers: 1 and 1.0
        pd.DataFrame({"a": [True, False], "b": [True, True]}),  # booleans are labels
        pd.DataFrame({"a": pd.Categorical(["x"]), "b": pd.Categorical(["y"])}),
    ],
)
def test_wide_codes_leave_other_frames_to_the_general_path(frame: pd.DataFrame) -> None:
    from pdagree.encoding._wide import wide_codes

    assert wide_codes(frame, None) is None
