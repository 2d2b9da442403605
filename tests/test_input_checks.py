"""Issue 17: arguments and labels that used to give a silent number on wrong input."""

from __future__ import annotations

import re
import tracemalloc
import warnings

import numpy as np
import pandas as pd
import pytest

import pdagree


@pytest.fixture
def ordinal_frame() -> pd.DataFrame:
    return pd.DataFrame({"a": [1, 2, 3, 1, 2, 3], "b": [1, 3, 3, 2, 2, 1]})


# --------------------------------------------------------------------- point 7: arguments


@pytest.mark.parametrize("cats", [{1, 2, 3}, frozenset({1, 2, 3}), {1: "x", 2: "y", 3: "z"}])
def test_categories_as_an_unordered_collection_is_refused(ordinal_frame, cats):
    # A set's order follows PYTHONHASHSEED, and weighted coefficients read the order.
    kind = type(cats).__name__
    with pytest.raises(TypeError, match=rf"`categories` must be an ordered list; got a {kind}"):
        ordinal_frame.agree(categories=cats)


def test_categories_as_dict_keys_is_refused(ordinal_frame):
    with pytest.raises(TypeError, match="got a dict_keys, whose order is arbitrary"):
        ordinal_frame.agree(categories={1: 0, 2: 0, 3: 0}.keys())


@pytest.mark.parametrize("gap", [None, np.nan, pd.NA, float("nan")])
def test_a_missing_value_among_categories_is_refused(gap):
    # Bennett's S was 0.625 instead of 0.5: the missing value counted as a fourth category.
    df = pd.DataFrame({"a": ["x", "y", "x", "y"], "b": ["x", "y", "y", "x"]})
    with pytest.raises(ValueError, match=r"`categories` must not hold a missing value; got "):
        df.agree(categories=["x", "y", gap]).bennett()


def test_categories_with_tuples_and_numbers_are_still_accepted():
    df = pd.DataFrame({"a": [1, 2, 1, 2], "b": [1, 2, 2, 1]})
    assert df.agree(categories=[1, 2, 3]).n_categories == 3


def test_raters_as_a_string_is_refused():
    df = pd.DataFrame({"a": [1, 2, 1], "b": [1, 2, 2], "ab": [1, 1, 1]})
    with pytest.raises(
        TypeError,
        match=re.escape(
            "`raters` must be a list of column names; got the string 'ab', which would be read "
            "as one column per character. Wrap it in a list: raters=['ab']."
        ),
    ):
        df.agree(raters="ab")
    assert df.agree(raters=["a", "b"]).n_raters == 2


def test_the_dask_engine_refuses_the_same_arguments(ordinal_frame):
    dd = pytest.importorskip("dask.dataframe")
    import pdagree.dask  # noqa: F401

    ddf = dd.from_pandas(ordinal_frame, npartitions=1)
    with pytest.raises(TypeError, match="`categories` must be an ordered list; got a set"):
        ddf.agree(categories={1, 2, 3}).fleiss()
    with pytest.raises(TypeError, match="`raters` must be a list of column names"):
        ddf.agree(raters="ab").fleiss()


# --------------------------------------------------------------------- point 3: one shared item


def _one_shared_item() -> pd.DataFrame:
    # a and b share four items; c shares one item with a (and one with b).
    return pd.DataFrame(
        {
            "a": ["x", "y", "x", "y", "x", None],
            "b": ["x", "y", "y", "y", None, "x"],
            "c": [None, None, None, None, "y", "y"],
        }
    )


def test_pairwise_kappa_of_a_pair_sharing_one_item_is_nan_with_a_warning():
    ratings = _one_shared_item().agree()
    with pytest.warns(
        pdagree.UndefinedStatisticWarning,
        match=r"2 rater pair\(s\) share a single item \(e\.g\. 'a' and 'c'\); their "
        r"chance-corrected agreement needs at least 2 items both rated and is nan",
    ):
        table = ratings.pairwise()
    assert np.isnan(table.loc["a", "c"]) and np.isnan(table.loc["c", "b"])
    # four shared items: A_o = 3/4, A_e = .6 x .4 + .4 x .6 from each rater's marginals
    assert table.loc["a", "b"] == pytest.approx((0.75 - 0.48) / 0.52, rel=1e-12)
    with pytest.warns(pdagree.UndefinedStatisticWarning, match="share a single item"):
        assert np.isnan(ratings.pairwise("scott").loc["a", "c"])  # was -1.0
    # observed agreement and the counts keep their values, without a warning
    assert ratings.pairwise("observed").loc["a", "c"] == 0.0
    assert ratings.pairwise("n_items").loc["a", "c"] == 1


def test_light_leaves_out_pairs_sharing_one_item():
    ratings = _one_shared_item().agree()
    light = ratings.light()
    assert light.n_pairs == 1
    assert float(light) == pytest.approx((0.75 - 0.48) / 0.52, rel=1e-12)  # a-b alone


# --------------------------------------------------------------------- point 8: weights


def test_custom_weights_outside_zero_one_are_refused(ordinal_frame):
    # fleiss was -3.69 with A_o = 1.33 from these weights
    w = np.array([[1.0, 2.0, 0.0], [2.0, 1.0, 0.5], [0.0, 0.5, 1.0]])
    with pytest.raises(
        ValueError,
        match=re.escape(
            "`weights` must be agreement weights in [0, 1] (1 for full agreement, 0 for none); "
            "got w[1, 2] = 2.0."
        ),
    ):
        ordinal_frame.agree.fleiss(weights=w)
    with pytest.raises(ValueError, match=r"got w\[1, 3\] = -0\.5"):
        ordinal_frame.agree.cohen(weights=np.array([[1, 0, -0.5], [0, 1, 0], [-0.5, 0, 1]]))


@pytest.mark.parametrize("scheme", ["linear", "quadratic", "radical", "ratio"])
def test_named_weights_on_infinite_labels_are_refused(scheme):
    df = pd.DataFrame({"a": [1.0, 2.0, np.inf, 1.0], "b": [1.0, 2.0, np.inf, 2.0]})
    with pytest.raises(
        ValueError,
        match=re.escape(
            f"`weights={scheme!r}` needs finite category values; got inf. Drop those ratings "
            "or use weights='ordinal'."
        ),
    ):
        df.agree.fleiss(weights=scheme)
    assert np.isfinite(df.agree.fleiss(weights="ordinal"))


# --------------------------------------------------------------------- point 16: bounds


def test_irt_quadrature_is_bounded_before_allocating():
    ratings = pd.DataFrame({"a": [1, 2, 3, 2] * 5, "b": [1, 3, 3, 2] * 5}).agree()
    with pytest.raises(
        ValueError, match=r"^`quadrature` must be an integer from 3 to 201; got 1000000\. "
    ):
        ratings.irt(quadrature=10**6)


def test_n_resamples_is_bounded():
    kappa = pdagree.datasets.load("fleiss1971").agree.fleiss()
    with pytest.raises(
        ValueError,
        match=r"^`n_resamples` must be an integer from 1 to 1,000,000; got 1000000000000\. ",
    ):
        kappa.confidence_interval(method="bootstrap", n_resamples=10**12)
    with pytest.raises(
        ValueError, match=r"^`n_resamples` must be an integer from 1 to 1,000,000; got 10000000\."
    ):
        kappa.standard_error(method="bootstrap", n_resamples=10**7)


# --------------------------------------------------------------------- point 2: NA markers


@pytest.mark.parametrize("marker", ["", "  ", "N/A", "NA", "n/a", "null", "NULL", "nan", "None"])
def test_missing_value_markers_read_as_labels_are_announced(marker):
    # cohen was 0.077 instead of 1.0 on this frame: the marker counted as a category.
    df = pd.DataFrame(
        {"a": ["x", "y", marker, "x", "y", "x"], "b": ["x", "y", "x", marker, "y", "x"]}
    )
    with pytest.warns(
        pdagree.LayoutWarning,
        match=re.escape(f"the labels [{marker!r}] look like missing values but are counted"),
    ):
        ratings = df.agree()
    assert marker in list(ratings.categories)  # the value is left alone
    # declared categories are the user's: no warning
    assert df.agree(categories=["x", "y", marker]).n_categories == 3


def test_missing_value_markers_in_a_long_frame_are_announced():
    long = pd.DataFrame(
        {"item": [1, 1, 2, 2], "coder": ["p", "q", "p", "q"], "tag": ["x", "N/A", "y", "y"]}
    )
    with pytest.warns(pdagree.LayoutWarning, match=r"the labels \['N/A'\] look like missing"):
        long.agree(item="item", rater="coder", label="tag")


def test_labels_that_differ_only_by_unicode_normalisation_are_announced():
    nfc, nfd = "caf\u00e9", "cafe\u0301"
    df = pd.DataFrame({"a": [nfc, "tea", nfc, "tea"], "b": [nfd, "tea", nfd, "tea"]})
    with pytest.warns(
        pdagree.LayoutWarning,
        match=r"1 label\(s\) differ from another only by their Unicode normalisation, e\.g\. "
        r".*'0x301'.*Normalise the labels first",
    ):
        ratings = df.agree()
    assert ratings.n_categories == 3


def test_ordinary_text_labels_are_not_announced():
    df = pd.DataFrame({"a": ["Nan", "naan", "x"], "b": ["Nan", "naan", "x"]})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ratings = df.agree()  # 'Nan' (a name) is not one of read_csv's markers
    assert [str(w.message) for w in caught] == []
    assert list(ratings.categories) == ["Nan", "naan", "x"] and ratings.n_items == 3


# --------------------------------------------------------------------- point 1: extra columns


def _rated(seed: int = 0, n: int = 300) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 6, n)
    noisy = lambda: np.clip(truth + rng.integers(-1, 2, n), 1, 5)  # noqa: E731
    return pd.DataFrame({"r1": noisy(), "r2": noisy(), "r3": noisy()})


def test_a_float_metadata_column_beside_rating_columns_is_announced():
    df = _rated().assign(seconds_spent=np.random.default_rng(1).gamma(3.0, 10.0, 300))
    with pytest.warns(
        pdagree.LayoutWarning,
        match=r"rater column\(s\) \['seconds_spent'\] share almost no label with the other "
        r"rater columns \(e\.g\. 'seconds_spent': 0 of 300 ratings\)",
    ):
        df.agree.fleiss()
    df.agree(raters=["r1", "r2", "r3"]).fleiss()  # no warning once raters= says which


def test_a_long_frames_columns_passed_as_wide_are_announced():
    rng = np.random.default_rng(2)
    long = pd.DataFrame(
        {"coder": rng.choice(["ann", "bob", "cy"], 300), "tag": rng.choice(["x", "y"], 300)}
    )
    with pytest.warns(
        pdagree.LayoutWarning,
        match=r"the rater columns \['coder', 'tag'\] share almost no label with each other",
    ):
        long[["coder", "tag"]].agree.fleiss()


def test_continuous_ratings_and_ordinary_ratings_are_not_announced():
    rng = np.random.default_rng(3)
    truth = rng.normal(size=300)
    continuous = pd.DataFrame({f"r{j}": truth + rng.normal(0, 0.1, 300) for j in range(3)})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ordinary = float(_rated().agree.fleiss())
        interval = float(continuous.agree.alpha(level="interval"))
    assert [str(w.message) for w in caught] == []
    assert 0 < ordinary < 1 and 0.9 < interval <= 1


# --------------------------------------------------------------------- point 6: id-like labels


def test_a_long_frames_id_like_label_column_is_announced():
    long = pd.DataFrame(
        {
            "item": np.repeat(np.arange(30), 2),
            "coder": ["p", "q"] * 30,
            "uid": [f"u{i}" for i in range(60)],
        }
    )
    with pytest.warns(
        pdagree.LayoutWarning, match=r"`label` column 'uid' holds 60 distinct labels in 60 "
    ):
        long.agree(item="item", rater="coder", label="uid")


# --------------------------------------------------------------------- point 6: continuous


def _continuous_frame() -> pd.DataFrame:
    rng = np.random.default_rng(4)
    truth = rng.normal(size=100)
    return pd.DataFrame({f"r{j}": truth + rng.normal(0, 0.2, 100) for j in range(3)})


@pytest.mark.parametrize("method", ["fleiss", "observed", "gwet", "alpha"])
def test_nominal_coefficients_on_continuous_floats_are_announced(method):
    # fleiss gave -0.0034 on these ratings with no word: every value its own category.
    df = _continuous_frame()
    with pytest.warns(
        pdagree.PdagreeWarning,
        match=rf"`{method}` treat each of the 300 distinct values of these continuous ratings "
        r"as a category of its own.*use alpha\(level='interval'\)",
    ):
        getattr(df.agree, method)()


def test_continuous_floats_under_a_metric_are_not_announced():
    df = _continuous_frame()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        values = [float(df.agree.alpha(level="interval"))]
        values += [float(df.agree.alpha(level="ratio"))] if (df > 0).all().all() else []
        values += [float(df.agree.fleiss(weights="quadratic"))]
    assert [str(w.message) for w in caught] == []
    assert all(0.5 < v <= 1 for v in values), values


def test_report_on_continuous_floats_warns_once():
    with pytest.warns(pdagree.PdagreeWarning) as record:
        _continuous_frame().agree.report()
    continuous = [w for w in record if "continuous ratings" in str(w.message)]
    assert len(continuous) == 1 and "`fleiss`" in str(continuous[0].message)


# --------------------------------------------------------------------- point 10: layout


def test_a_long_frame_read_as_wide_leads_with_the_likely_cause():
    long = pd.DataFrame(
        {"doc": [1, 1, 2, 2, 3, 3], "coder": ["p", "q"] * 3, "tag": ["x", "y", "x", "x", "y", "y"]}
    )
    with pytest.raises(
        TypeError,
        match=re.escape(
            "the rater columns hold different kinds of labels ('doc' holds numbers; 'coder', "
            "'tag' hold text): a long frame read as wide, or a column that is not ratings, "
            "looks like this. If the frame has one row per annotation, pass `item=`, `rater=`, "
            "`label=`"
        ),
    ):
        long.agree.fleiss()
    assert long.agree(item="doc", rater="coder", label="tag").n_items == 3


# --------------------------------------------------------------------- point 12: MultiIndex


def test_a_tuple_names_one_column_of_multiindex_columns():
    wide = pd.DataFrame(
        {
            ("A", "r1"): ["x", "y", "x", "y"],
            ("A", "r2"): ["x", "y", "y", "y"],
            ("B", "r3"): ["g", "g", "h", "h"],
        }
    )
    grouped = wide.agree(by=("B", "r3")).observed()
    assert list(grouped.index) == ["g", "h"]
    assert grouped["value"].tolist() == [1.0, 0.5]
    # a list still lists several columns
    with pytest.raises(
        ValueError,
        match=re.escape(
            "`by` names 'B', a label of the frame's MultiIndex columns that spans 1 column(s); "
            "name one column by its full tuple, e.g. ('B', 'r3')."
        ),
    ):
        wide.agree(by=["B", "r3"])


# --------------------------------------------------------------------- point 5: numeric order


def test_ordinal_readings_refuse_numbers_declared_out_of_numeric_order(ordinal_frame):
    # gwet ordinal 0.149 vs 0.811 on the same data: ordinal followed [3, 1, 2], linear the values
    ratings = ordinal_frame.agree(categories=[3, 1, 2])
    message = (
        r"reads the categories' declared order, and the categories are numbers declared out "
        r"of numeric order \(\[3, 1, 2\]\)"
    )
    with pytest.raises(ValueError, match=r"^`weights='ordinal'` " + message):
        ratings.gwet(weights="ordinal")
    with pytest.raises(ValueError, match=r"^`level='ordinal'` " + message):
        ratings.alpha(level="ordinal")
    # value-based readings follow the values, whatever the declared order
    assert float(ratings.gwet(weights="linear")) == pytest.approx(
        float(ordinal_frame.agree(categories=[1, 2, 3]).gwet(weights="linear")), rel=1e-12
    )
    ordered = pd.CategoricalDtype([3, 1, 2], ordered=True)
    with pytest.raises(ValueError, match=r"^`weights='ordinal'` " + message):
        ordinal_frame.astype(ordered).agree.gwet(weights="ordinal")


def test_ordinal_readings_accept_numbers_declared_in_either_direction(ordinal_frame):
    up = ordinal_frame.agree(categories=[1, 2, 3])
    down = ordinal_frame.agree(categories=[3, 2, 1])
    assert float(down.gwet(weights="ordinal")) == pytest.approx(
        float(up.gwet(weights="ordinal")), rel=1e-12
    )
    assert float(down.alpha(level="ordinal")) == pytest.approx(
        float(up.alpha(level="ordinal")), rel=1e-12
    )


# --------------------------------------------------------------------- point 11: magnitudes


@pytest.mark.parametrize("scale", [1e200, 1e-200, 1e300, 1e-300])
def test_interval_alpha_and_value_weights_are_scale_invariant(scale):
    # interval alpha raised OverflowError near 1e200 and gave nan near 1e-200
    rng = np.random.default_rng(5)
    truth = rng.normal(size=40)
    df = pd.DataFrame({f"r{j}": np.round(truth + rng.normal(0, 0.3, 40), 1) for j in range(3)})
    scaled = df * scale
    for call in (
        lambda d: d.agree.alpha(level="interval"),
        lambda d: d.agree.fleiss(weights="quadratic"),
        lambda d: d.agree.gwet(weights="linear"),
        lambda d: d.agree.conger(weights="radical"),
    ):
        assert float(call(scaled)) == pytest.approx(float(call(df)), rel=1e-12)
    a, b = df.agree.alpha(level="interval"), scaled.agree.alpha(level="interval")
    assert b.confidence_interval() == pytest.approx(a.confidence_interval(), rel=1e-9)
    assert (b.observed, b.expected) == pytest.approx((a.observed, a.expected), rel=1e-12)


def test_ratio_alpha_on_tiny_and_huge_values():
    rng = np.random.default_rng(6)
    df = pd.DataFrame({f"r{j}": np.round(rng.uniform(1, 9, 30), 1) for j in range(3)})
    base = float(df.agree.alpha(level="ratio"))
    for scale in (1e200, 1e-200):
        assert float((df * scale).agree.alpha(level="ratio")) == pytest.approx(base, rel=1e-12)


def test_spa_custom_weights_near_the_largest_float():
    # uniform weights of 1e307 gave nan instead of the flat SPA
    long = pdagree.datasets.load("crowd_sparse")
    ratings = long.agree(item="item", rater="annotator", label="label")
    n = ratings.n_items
    flat = ratings.spa(weights="flat")
    huge = ratings.spa(weights=np.full(n, 1e307))
    assert float(huge) == pytest.approx(float(flat), rel=1e-12)
    ones = ratings.spa(weights=np.arange(1.0, n + 1.0))
    big = ratings.spa(weights=np.arange(1.0, n + 1.0) * 1e305)
    assert float(big) == pytest.approx(float(ones), rel=1e-12)


# --------------------------------------------------------------------- point 9: bootstrap rule


def test_undefined_replicates_follow_one_rule_with_and_without_by():
    # 30 items, a rare category: some resamples have every rating in one category. The
    # ungrouped bootstrap gave se nan, the same data as one by= group 0.385.
    df = pd.DataFrame({"a": ["x"] * 28 + ["y", "y"], "b": ["x"] * 28 + ["y", "x"]})
    match = r"bootstrap replicates of `cohen`.* are undefined .*use the defined ones"
    with pytest.warns(pdagree.PdagreeWarning, match=match):
        alone = df.agree.cohen(confidence_level=0.95, method="bootstrap", n_resamples=4000, rng=1)
    with pytest.warns(pdagree.PdagreeWarning, match=match):
        grouped = (
            df.assign(g=1)
            .agree(by="g")
            .cohen(confidence_level=0.95, method="bootstrap", n_resamples=4000, rng=1)
        )
    assert np.isfinite(alone.se) and np.isfinite(grouped.loc[1, "se"])
    # different streams of resamples: equal within Monte Carlo error
    assert alone.se == pytest.approx(grouped.loc[1, "se"], rel=0.05)
    assert alone.low == pytest.approx(grouped.loc[1, "low"], abs=0.05)
    assert alone.high == pytest.approx(grouped.loc[1, "high"], abs=0.05)
    with pytest.warns(pdagree.PdagreeWarning):
        bca = df.agree.cohen(
            confidence_level=0.95, method="bootstrap", n_resamples=500, rng=1, interval="BCa"
        )
    assert np.isnan(bca.low) and np.isnan(bca.high)


# --------------------------------------------------------------------- point 15: interval CI


@pytest.mark.parametrize("seed", range(6))
def test_interval_alpha_variance_from_moments_equals_the_weight_matrix_form(seed):
    from pdagree._kernels import variance as V
    from pdagree.definitions import alpha as A

    rng = np.random.default_rng(seed)
    n, r = 40, 4
    values = np.round(rng.normal(size=(n, 1)) + rng.normal(0, 0.5, (n, r)), 1) + 100.0
    values[rng.random((n, r)) < 0.3] = np.nan
    wide = pd.DataFrame(values, columns=list("abcd")).assign(g=rng.integers(0, 3, n))
    data = wide.agree(by="g")._data
    w = A._alpha_weights(data, "interval")  # the (K, K) form, on these few distinct values
    dense, _ = V.weighted_alpha_variance(data.nik, w, data.enc.group, data.enc.n_groups)
    moments, _ = A.alpha_variance(data, {"level": "interval"}, None, np.inf)
    np.testing.assert_allclose(moments, dense, rtol=1e-10, atol=1e-15)


def test_interval_alpha_interval_on_many_distinct_values_is_analytic():
    # above 2,000 distinct values it fell back, silently, to 2,000 recomputing resamples
    rng = np.random.default_rng(7)
    truth = rng.normal(size=5_000)
    wide = pd.DataFrame({f"r{j}": truth + rng.normal(0, 0.3, 5_000) for j in range(3)})
    alpha = wide.agree.alpha(level="interval", confidence_level=0.95)
    assert alpha.ci_method == "analytic"
    assert alpha.n_categories > 2_000 and 0 < alpha.se < 0.05
    assert alpha.low < float(alpha) < alpha.high


def test_interval_alpha_bootstrap_on_many_distinct_values_goes_through_item_sums():
    from pdagree import resampling
    from pdagree.definitions import REGISTRY

    rng = np.random.default_rng(8)
    truth = rng.normal(size=1_500)
    wide = pd.DataFrame({f"r{j}": truth + rng.normal(0, 0.3, 1_500) for j in range(3)})
    wide.iloc[::7, 0] = np.nan
    data = wide.agree()._data
    assert data.sparse  # more distinct values than a dense table takes
    definition, call = REGISTRY["alpha"], {"level": "interval"}
    reps = resampling.Replicates(data, definition, call)
    assert reps.sums is not None
    summed = resampling.bootstrap_values(data, definition, call, 100, rng=3)
    recomputed = resampling.bootstrap_values(data, definition, call, 100, 3, item_sums=False)
    np.testing.assert_allclose(summed, recomputed, rtol=1e-10, atol=1e-12)


# --------------------------------------------------------------------- point 13


def test_a_contingency_table_counting_billions_is_computed_from_its_cells():
    # 2 x 10^9 items raised MemoryError; 2 x 10^8 were killed by the system. The table's
    # proportions are those of the table divided by 1,000, so the values are the same and
    # the standard errors sqrt(1000) times smaller (the table variance is proportional to
    # 1 / n); tests/test_table_data.py checks every coefficient and interval.
    table = pd.DataFrame(
        [[7e8, 1e8, 0.0], [1e8, 6e8, 1e8], [0.0, 1e8, 3e8]],
        index=pd.Index(list("abc"), name="r1"),
        columns=pd.Index(list("abc"), name="r2"),
    )
    small = (table / 1e3).agree(layout="contingency").cohen(confidence_level=0.95)  # imports
    tracemalloc.start()
    try:
        big = table.agree(layout="contingency").cohen(confidence_level=0.95)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2**20
    assert big.n_items == 2_000_000_000
    assert float(big) == pytest.approx(float(small), abs=1e-15)
    assert big.se == pytest.approx(small.se / np.sqrt(1e3), rel=1e-9)
    # What reads the items one by one is refused before allocating, naming the limit.
    with pytest.raises(
        ValueError,
        match=r"^this analysis reads the contingency table as one item per count, and the "
        r"table counts 2,000,000,000 items: above 5,000,000 that would need about 316\.6 GiB",
    ):
        table.agree(layout="contingency").items()


# --------------------------------------------------------------------- README: names table


def test_cohen_on_gapped_data_uses_each_raters_marginals_unlike_scikit_learn():
    metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(9)
    a = rng.choice(["x", "y", "z"], 80)
    b = np.where(rng.random(80) < 0.7, a, rng.choice(["x", "y", "z"], 80)).astype(object)
    wide = pd.DataFrame({"a": a.astype(object), "b": b})
    wide.loc[wide.index[:12], "b"] = None  # b skipped 12 items that a rated
    both = wide.dropna()
    sklearn = metrics.cohen_kappa_score(both["a"], both["b"])
    assert float(both.agree.cohen()) == pytest.approx(sklearn, rel=1e-12)
    gapped = float(wide.agree.cohen())
    assert abs(gapped - sklearn) > 1e-4  # a's marginals include the 12 items b skipped


# ------------------------------------------------ #26: case and whitespace variants of labels


def _crowd(seed: int = 26) -> pd.DataFrame:
    """A crowd sentiment export as it comes: 200 tweets, 5 of 25 workers each, and a few
    workers whose tool wrote the labels capitalised or with a trailing space."""
    rng = np.random.default_rng(seed)
    labels = np.array(["positive", "negative", "neutral", "irrelevant"])
    truth = rng.integers(0, 4, 200)
    rows = []
    for item in range(200):
        for worker in rng.choice(25, 5, replace=False):
            code = truth[item] if rng.random() < 0.7 else rng.integers(0, 4)
            label = str(labels[code])
            if worker % 5 == 0:
                label = label.capitalize()
            elif worker % 7 == 0:
                label += " "
            rows.append((f"tweet{item:03d}", f"w{worker:02d}", label))
    return pd.DataFrame(rows, columns=["tweet", "worker", "sentiment"])


def _recorded(call):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        result = call()
    return result, [w for w in seen if "case or surrounding whitespace" in str(w.message)]


def test_labels_that_differ_by_case_or_whitespace_are_announced_and_left_alone():
    crowd = _crowd()
    before = crowd.copy()
    shape = {"item": "tweet", "rater": "worker", "label": "sentiment"}
    with pytest.warns(
        pdagree.LayoutWarning,
        match=re.escape(
            "the labels ['Irrelevant', 'irrelevant', 'irrelevant '], ['Negative', 'negative', "
            "'negative '], ['Neutral', 'neutral', 'neutral '], ['Positive', 'positive', "
            "'positive '] differ only by case or surrounding whitespace, and count as 12 "
            "different categories instead of 4. If they mean the same category, make them "
            "equal before calling agree (e.g. df[col].str.strip().str.lower() on each label "
            "column); if they are different categories, declare them with `categories=[...]` "
            "to silence this warning."
        ),
    ):
        ratings = crowd.agree(**shape)
    assert ratings.n_categories == 12  # the values are left alone
    pd.testing.assert_frame_equal(crowd, before)
    # the remedy the warning gives removes it, and the agreement it hid
    clean = crowd.assign(sentiment=crowd["sentiment"].str.strip().str.lower())
    assert clean.agree(**shape).n_categories == 4
    assert float(clean.agree(**shape).fleiss()) > float(ratings.fleiss()) + 0.05
    # declared categories are the user's: no warning
    declared = sorted(crowd["sentiment"].unique())
    assert crowd.agree(**shape, categories=declared).n_categories == 12


def test_case_variants_are_announced_once_per_call_at_the_users_line():
    crowd = _crowd()
    shape = {"item": "tweet", "rater": "worker", "label": "sentiment"}
    wide = crowd.pivot(index="tweet", columns="worker", values="sentiment")
    calls = {
        "fleiss": lambda: crowd.agree(**shape).fleiss(),
        "wide": lambda: wide.agree.fleiss(),
        "by": lambda: crowd.assign(g=crowd.index % 2).agree(**shape, by="g").alpha(),
        "report": lambda: wide.agree.report(),
        "per_rater": lambda: wide.agree.per_rater("fleiss"),
        "pairwise": lambda: wide[["w00", "w01", "w03"]].agree.pairwise("observed"),
        "consensus": lambda: crowd.agree(**shape).consensus(method="majority", ties="first"),
        "bootstrap": lambda: wide.agree.fleiss().confidence_interval(
            method="bootstrap", n_resamples=20, rng=0
        ),
    }
    for name, call in calls.items():
        _, seen = _recorded(call)
        if name == "bootstrap":  # the warning came with wide.agree.fleiss(), once
            assert len(seen) == 1, name
        else:
            assert len(seen) == 1, (name, [str(w.message)[:40] for w in seen])
        assert seen[0].filename == __file__, name


def test_case_variants_name_only_what_the_unicode_warning_does_not():
    nfc, nfd = "caf\u00e9", "cafe\u0301"
    df = pd.DataFrame(
        {"a": [nfc, "tea", "Caf\u00e9", "tea", " NA"], "b": [nfd, "tea", nfc, "Tea", "NA"]}
    )
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        df.agree()
    messages = sorted(str(w.message) for w in seen)
    assert len(messages) == 3, messages
    assert "Unicode normalisation" in messages[0]
    assert messages[1].startswith(  # one label per Unicode form, the first in order
        f"the labels [' NA', 'NA'], ['Caf\u00e9', {nfd!r}], ['Tea', 'tea'] differ only by "
        "case or surrounding whitespace, and count as 6 different categories instead of 3."
    )
    assert messages[2].startswith("the labels ['NA'] look like missing values")


def test_labels_that_only_look_alike_are_not_announced():
    # 'Nan' and 'naan' differ by more than case; numbers and declared labels are the user's
    df = pd.DataFrame({"a": ["Nan", "naan", "x", "xy"], "b": ["Nan", "naan", "x", "x y"]})
    cased = pd.DataFrame({"a": ["US", "us", "US"], "b": ["US", "us", "us"]})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        n_categories = [
            df.agree().n_categories,
            pd.DataFrame({"a": [1, 2, 1], "b": [1, 2, 2]}).agree().n_categories,
            cased.agree(categories=["US", "us"]).n_categories,
        ]
    assert [str(w.message) for w in caught] == []
    assert n_categories == [5, 2, 2]  # every label its own category, none merged


def test_a_tally_and_dask_announce_case_variants_as_the_pandas_path_does():
    crowd = _crowd()
    shape = {"item": "tweet", "rater": "worker", "label": "sentiment"}
    with pytest.warns(pdagree.LayoutWarning) as expected:
        value = float(crowd.agree(**shape).fleiss())
    tally = pdagree.Tally(**shape)
    tally.add(crowd.iloc[:500])
    tally.add(crowd.iloc[500:])
    with pytest.warns(pdagree.LayoutWarning) as seen:
        assert float(tally.fleiss()) == pytest.approx(value, abs=1e-12)
    assert [str(w.message) for w in seen] == [str(w.message) for w in expected]
    dd = pytest.importorskip("dask.dataframe")
    pytest.importorskip("pdagree.dask")
    lazy = dd.from_pandas(crowd, npartitions=3)
    with pytest.warns(pdagree.LayoutWarning) as seen:
        assert float(lazy.agree(**shape).fleiss()) == pytest.approx(value, abs=1e-12)
    assert [str(w.message) for w in seen] == [str(w.message) for w in expected]
    declared = sorted(crowd["sentiment"].unique())
    declared_tally = pdagree.Tally(**shape, categories=declared)
    declared_tally.add(crowd)
    declared_tally.fleiss()  # declared categories are the user's: no warning
