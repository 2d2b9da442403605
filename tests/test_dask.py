"""The Dask engine gives the pandas path's results on the same data (issue #13, point 4).

Every comparison runs on a ``distributed.LocalCluster`` bound to 127.0.0.1 (threads in this
process, one module-wide cluster) and compares ``ddf.agree(...)`` with
``ddf.compute().agree(...)`` to 1e-12: items straddling partitions (rows shuffled), ``by=``
groups with categories of their own, categories unknown up front (plain text labels and
Categoricals whose categories Dask does not know), wide frames, and the errors.
"""

from __future__ import annotations

import subprocess
import sys
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd
import pytest

dask = pytest.importorskip("dask")
dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")

import pdagree  # noqa: E402
import pdagree.dask  # noqa: E402
from pdagree.count_ratings import ROW_METHODS  # noqa: E402
from pdagree.dask import AnnotationsNeeded  # noqa: E402
from pdagree.definitions import REGISTRY  # noqa: E402

COUNT_COEFFICIENTS = ["observed", "bennett", "fleiss", "conger", "gwet", "alpha", "spa", "bias"]


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the cluster's own start-up notices
        cluster = distributed.LocalCluster(
            n_workers=1,
            threads_per_worker=2,
            processes=False,
            host="127.0.0.1",
            protocol="tcp",
            dashboard_address=None,
        )
        client = distributed.Client(cluster)
    try:
        yield client
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            client.close()
            cluster.close()


def _frame(seed: int = 0, n: int = 3000, labels: Any = None) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    labels = ["neg", "neu", "pos", None] if labels is None else labels
    frame = pd.DataFrame(
        {
            "item": rng.integers(0, 400, n),
            "rater": rng.choice([f"r{i}" for i in range(6)], n),
            "label": rng.choice(np.array(labels, dtype=object), n),
            "g": rng.choice(["x", "y", "z"], n, p=[0.6, 0.3, 0.1]),
        }
    )
    frame = frame.drop_duplicates(["item", "rater"])
    return frame.sample(frac=1.0, random_state=seed).reset_index(drop=True)  # items straddle


def same(got: Any, want: Any) -> None:
    if isinstance(want, pd.DataFrame):
        pd.testing.assert_frame_equal(got, want, rtol=1e-12, atol=1e-12)
    else:
        assert type(got) is type(want)
        np.testing.assert_allclose(float(got), float(want), rtol=1e-12, atol=1e-12)
        for key in ("observed", "expected", "n_items", "n_raters", "n_categories"):
            np.testing.assert_allclose(getattr(got, key), getattr(want, key), rtol=1e-12)
        assert got.name == want.name and got.categories == want.categories


def _counted(ratings: pdagree.Ratings) -> list[str]:
    """The report's coefficients but Light's kappa (rater-pair tables) and the bias (a
    section of its own, ``attrs["annotator_bias"]``)."""
    data = ratings._data
    return [
        d.name
        for d in REGISTRY.values()
        if d.in_report and d.applies_to(data) and d.name not in ("light", "bias")
    ]


def both(ddf: Any, keep_items: bool = True, **kwargs: Any) -> tuple[Any, Any]:
    return ddf.agree(**kwargs, keep_items=keep_items), ddf.compute().agree(**kwargs)


#: What the default reduction (each group's distinct rows of counts with their
#: multiplicities, issue #20 point 5) gives; the rest needs `keep_items=True`.
ROW_COEFFICIENTS = [n for n in COUNT_COEFFICIENTS if n in ROW_METHODS]
ITEM_ONLY = ["spa", "counts", "per_category", "items", "spa_items"]


@pytest.mark.parametrize("keep_items", [True, False])
def test_items_straddle_partitions(client: Any, keep_items: bool) -> None:
    frame = _frame()
    ddf = dd.from_pandas(frame, npartitions=5, sort=False)
    # The same item's ratings are in several partitions.
    parts = [set(p["item"]) for p in (ddf.get_partition(i).compute() for i in range(5))]
    assert set.intersection(*parts[:2])
    got, want = both(ddf, keep_items, item="item", rater="rater", label="label")
    assert repr(got) == "Dask" + repr(want)
    for name in COUNT_COEFFICIENTS if keep_items else ROW_COEFFICIENTS:
        same(getattr(got, name)(), getattr(want, name)())
    same(got.frequencies(), want.frequencies())
    bias = got.report().attrs["annotator_bias"]  # a section of its own, as on pandas
    same(bias, want.report().attrs["annotator_bias"])
    if keep_items:
        for name in ("counts", "per_category", "items", "spa_items"):
            same(getattr(got, name)(), getattr(want, name)())
        same(got.report(), want.report(coefficients=_counted(want)))
    else:
        rows = [n for n in _counted(want) if n in ROW_METHODS]
        same(got.report(), want.report(coefficients=rows))
        for name in ITEM_ONLY:
            with pytest.raises(AnnotationsNeeded, match="keep_items=True"):
                getattr(got, name)()
        with pytest.raises(AnnotationsNeeded, match="keep_items=True"):
            got.alpha("ordinal")
        with pytest.raises(AnnotationsNeeded, match="keep_items=True"):
            got.fleiss().p_value(method="large-sample")


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_alpha_levels_and_weights(client: Any, level: str) -> None:
    frame = _frame(1, labels=[1, 2, 3, 5, None])
    frame["label"] = frame["label"].astype(float)
    ddf = dd.from_pandas(frame, npartitions=4, sort=False)
    rows, _ = both(ddf, False, item="item", rater="rater", label="label")
    got, want = both(ddf, item="item", rater="rater", label="label")
    same(got.alpha(level), want.alpha(level))
    for name in ("fleiss", "conger", "gwet", "observed", "bennett"):
        same(getattr(rows, name)(weights="quadratic"), getattr(want, name)(weights="quadratic"))
    same(rows.alpha(weights="linear"), want.alpha(weights="linear"))
    for name in ("fleiss", "conger", "gwet", "observed", "bennett"):
        same(getattr(got, name)(weights="quadratic"), getattr(want, name)(weights="quadratic"))
    same(got.alpha(weights="linear"), want.alpha(weights="linear"))


def test_group_column(client: Any) -> None:
    frame = _frame(2)
    frame.loc[frame["g"] == "z", "label"] = "neg"  # a group with a category set of its own
    frame.loc[frame.index[:7], "g"] = None  # left out with a warning, as pandas does
    ddf = dd.from_pandas(frame, npartitions=4, sort=False)
    with pytest.warns(pdagree.PdagreeWarning, match="`by` is missing on 7 of") as seen:
        got = ddf.agree(item="item", rater="rater", label="label", by="g")
    want_frame = ddf.compute()
    with pytest.warns(pdagree.PdagreeWarning) as expected:
        want = want_frame.agree(item="item", rater="rater", label="label", by="g")
    assert str(seen[0].message) == str(expected[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pdagree.UndefinedStatisticWarning)
        for name in ROW_COEFFICIENTS:
            same(getattr(got, name)(), getattr(want, name)())
        rows = [n for n in _counted(want) if n in ROW_METHODS]
        same(got.report(), want.report(coefficients=rows))
    same(got.frequencies(), want.frequencies())


def test_categories_known_and_unknown_up_front(client: Any) -> None:
    frame = _frame(3)
    ddf = dd.from_pandas(frame, npartitions=3, sort=False)
    declared = ["pos", "neu", "neg", "unused"]
    got, want = both(ddf, item="item", rater="rater", label="label", categories=declared)
    assert list(got.categories) == declared
    same(got.bennett(), want.bennett())
    same(got.fleiss(), want.fleiss())
    ordered = pd.CategoricalDtype(["neg", "neu", "pos"], ordered=True)
    known = dd.from_pandas(frame.astype({"label": ordered}), npartitions=3, sort=False)
    got, want = both(known, item="item", rater="rater", label="label")
    same(got.alpha("ordinal"), want.alpha("ordinal"))
    unknown = ddf.astype({"label": "category"})  # Dask does not know these categories
    assert not unknown["label"].cat.known
    got, want = both(unknown, item="item", rater="rater", label="label")
    assert list(got.categories) == list(want.categories)
    same(got.gwet(), want.gwet())


def test_wide_frame(client: Any) -> None:
    frame = _frame(4)
    wide = frame.pivot(index="item", columns="rater", values="label")
    wide["g"] = np.where(wide.index % 3 == 0, "a", "b")
    ddf = dd.from_pandas(wide, npartitions=4)
    got, want = ddf.agree(by="g", keep_items=True), ddf.compute().agree(by="g")
    rows = ddf.agree(by="g")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pdagree.UndefinedStatisticWarning)
        for name in COUNT_COEFFICIENTS:
            same(getattr(got, name)(), getattr(want, name)())
        for name in ROW_COEFFICIENTS:
            same(getattr(rows, name)(), getattr(want, name)())
    same(got.frequencies(), want.frequencies())
    plain = dd.from_pandas(wide.drop(columns="g"), npartitions=3)
    same(plain.agree.fleiss(), wide.drop(columns="g").agree.fleiss())


def test_errors_match_the_pandas_path(client: Any) -> None:
    frame = _frame(5)
    twice = pd.concat([frame, frame.iloc[[0, 1]].assign(label="pos")], ignore_index=True)
    ddf = dd.from_pandas(twice, npartitions=3, sort=False)
    with pytest.raises(ValueError) as want:
        ddf.compute().agree(item="item", rater="rater", label="label")
    with pytest.raises(ValueError) as got:
        ddf.agree(item="item", rater="rater", label="label")
    assert str(got.value) == str(want.value)
    assert "(item, rater) pairs have more than one label" in str(got.value)
    missing = dd.from_pandas(frame.assign(rater=frame["rater"].where(frame.index > 2)), 2)
    with pytest.raises(ValueError, match="`rater` column 'rater' has 3 missing values"):
        missing.agree(item="item", rater="rater", label="label")
    with pytest.raises(TypeError, match="a long frame needs `item`, `rater` and `label`"):
        ddf.agree(item="item", label="label")
    with pytest.raises(TypeError, match="counts table is already reduced"):
        ddf.agree(layout="counts")
    odd = frame.assign(label="neg")
    odd.loc[odd.index[:2], "label"] = "odd"
    with pytest.raises(ValueError, match="2 ratings use labels missing from `categories`"):
        dd.from_pandas(odd, 2).agree(
            item="item", rater="rater", label="label", categories=["neg", "neu"]
        )


def test_what_needs_annotations_says_so(client: Any) -> None:
    ddf = dd.from_pandas(_frame(6), npartitions=3, sort=False)
    ratings = ddf.agree(item="item", rater="rater", label="label")
    for call in (
        lambda: ratings.light(),
        lambda: ratings.pairwise(),
        lambda: ratings.contingency("r0", "r1"),
        lambda: ratings.fleiss(confidence_level=0.95, method="bootstrap"),
        lambda: ratings.fleiss().standard_error(method="bootstrap"),
        lambda: ratings.fleiss().confidence_interval(method="bootstrap"),
        lambda: ratings.report(confidence_level=0.95, method="bootstrap"),
        lambda: ratings.conger(confidence_level=0.95),
        lambda: ratings.multilabel(),
        lambda: ratings.irt(),
        lambda: ratings.against("r0"),
    ):
        with pytest.raises(AnnotationsNeeded, match=r"ddf.compute\(\).agree"):
            call()
    assert "light" not in ratings.report().index
    with pytest.raises(TypeError, match=r"`rank` .* is not read on a Dask frame"):
        ddf.agree(item="item", rater="rater", label="label", rank="label")
    cells = pd.DataFrame({"a": [("x", "y"), "x"], "b": ["x", "y"]})
    with dask.config.set({"dataframe.convert-string": False}):  # keep the tuples
        tuples = dd.from_pandas(cells, npartitions=1)
    with pytest.raises(TypeError, match="a primary and a secondary label"):
        tuples.agree()
    with pytest.raises(TypeError, match="contingency table is already reduced"):
        ddf.agree(layout="contingency")


#: The coefficients whose Gwet variance reads the counts alone (issue #20, point 5).
ANALYTIC_ON_COUNTS = ("observed", "bennett", "fleiss", "gwet", "alpha")


@pytest.mark.parametrize("keep_items", [False, True])
@pytest.mark.parametrize("by", [None, "g"])
def test_analytic_uncertainty_equals_the_pandas_path(
    client: Any, by: str | None, keep_items: bool
) -> None:
    frame = _frame(8, labels=[1.0, 2.0, 5.0, np.nan])
    ddf = dd.from_pandas(frame, npartitions=4, sort=False)
    got = ddf.agree(item="item", rater="rater", label="label", by=by, keep_items=keep_items)
    want = ddf.compute().agree(item="item", rater="rater", label="label", by=by)
    alpha_options = {"level": "interval"} if keep_items else {"weights": "linear"}
    for name in ANALYTIC_ON_COUNTS:
        for options in ({}, {"weights": "quadratic"} if name != "alpha" else alpha_options):
            if options and name == "observed":
                continue
            mine = getattr(got, name)(confidence_level=0.9, **options)
            theirs = getattr(want, name)(confidence_level=0.9, **options)
            if by is None:
                for member in ("value", "se", "low", "high", "n_items"):
                    assert getattr(mine, member) == pytest.approx(
                        getattr(theirs, member), abs=1e-10
                    )
                assert mine.p_value() == pytest.approx(theirs.p_value(), abs=1e-10)
                assert mine.standard_error() == pytest.approx(theirs.standard_error(), abs=1e-10)
            else:
                pd.testing.assert_frame_equal(mine, theirs, rtol=0, atol=1e-10)
    names = list(ANALYTIC_ON_COUNTS)
    same(
        got.report(confidence_level=0.95, coefficients=names),
        want.report(confidence_level=0.95, coefficients=names),
    )
    rows = want.report(confidence_level=0.95, coefficients=names).index.get_level_values(-1)
    assert set(got.report(confidence_level=0.95).index.get_level_values(-1)) == set(rows)


def test_import_pdagree_does_not_import_dask() -> None:
    code = "import sys, pdagree; print(any(m.split('.')[0] == 'dask' for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "False", out.stderr


def test_a_wide_rows_repeated_across_partitions_is_refused_as_in_one_frame(client: Any) -> None:
    wide = pd.DataFrame({"a": list("xyxy"), "b": list("xyyy")}, index=[1, 2, 3, 1])
    with pytest.raises(ValueError) as want:
        wide.agree()
    with pytest.raises(ValueError) as got:
        dd.from_pandas(wide, npartitions=2, sort=False).agree().fleiss()
    assert str(got.value) == str(want.value)
    # Within a `by` group only: the same index in two groups is two items.
    grouped = wide.assign(g=["p", "p", "q", "q"])
    same(
        dd.from_pandas(grouped, npartitions=2, sort=False).agree(by="g").fleiss(),
        dd.from_pandas(grouped, npartitions=2, sort=False).compute().agree(by="g").fleiss(),
    )


@pytest.mark.parametrize("split_out", [1, 3, 7])
def test_pairs_repeated_in_and_across_partitions_are_reported_together(
    client: Any, split_out: int
) -> None:
    frame = _frame(9)
    twice = pd.concat([frame, frame.iloc[:7].assign(label="pos")], ignore_index=True)
    twice = twice.sample(frac=1.0, random_state=2).reset_index(drop=True)
    with pytest.raises(ValueError) as want:
        twice.agree(item="item", rater="rater", label="label")
    ddf = dd.from_pandas(twice, npartitions=5, sort=False)
    with pytest.raises(ValueError) as got:
        ddf.agree(item="item", rater="rater", label="label", split_out=split_out)
    assert str(got.value) == str(want.value)
    for name in ("fleiss", "alpha"):
        same(
            getattr(dd.from_pandas(frame, npartitions=5).agree(
                item="item", rater="rater", label="label", split_out=split_out), name)(),
            getattr(frame.agree(item="item", rater="rater", label="label"), name)(),
        )  # fmt: skip


def test_many_distinct_labels_keep_the_items(client: Any) -> None:
    # Above 64 distinct labels rows of counts are not formed: the items come back instead.
    frame = _frame(10, labels=list(np.round(np.linspace(0.0, 9.9, 100), 1)))
    frame["label"] = frame["label"].astype(float)
    ddf = dd.from_pandas(frame, npartitions=3, sort=False)
    got, want = both(ddf, False, item="item", rater="rater", label="label")
    same(got.alpha("interval"), want.alpha("interval"))
    same(got.fleiss(), want.fleiss())


def _straddling(seed: int, n_items: int = 600, n_raters: int = 6) -> pd.DataFrame:
    """Every item rated by most raters, the rows in one random order (as exports come in
    annotation order): an item's ratings are spread over the partitions."""
    rng = np.random.default_rng(seed)
    cells = np.flatnonzero(rng.random(n_items * n_raters) < 0.8)
    item, rater = cells // n_raters, cells % n_raters
    truth = rng.integers(0, 3, n_items)
    label = np.where(rng.random(cells.size) < 0.7, truth[item], rng.integers(0, 3, cells.size))
    frame = pd.DataFrame(
        {
            "item": [f"doc{i}" for i in item],
            "rater": [f"r{r}" for r in rater],
            "label": np.array(["neg", "neu", "pos"], dtype=object)[label],
            "g": np.where(item % 4 == 0, "a", "b"),
        }
    )
    return frame.sample(frac=1.0, random_state=seed).reset_index(drop=True)


@pytest.mark.parametrize("fan_in", [2, 32])
@pytest.mark.parametrize("split_out", [1, 3])
@pytest.mark.parametrize("by", [None, "g"])
def test_straddling_items_in_many_partitions_equal_the_pandas_path(
    client: Any, monkeypatch: pytest.MonkeyPatch, fan_in: int, split_out: int, by: str | None
) -> None:
    # Shuffled rows in 40 partitions: each item's ratings lie in several of them, combined
    # in one step per shard or, with a small fan-in, in a tree of several levels (#26).
    monkeypatch.setattr(pdagree.dask._reduce, "FAN_IN", fan_in)
    frame = _straddling(11)
    ddf = dd.from_pandas(frame, npartitions=40, sort=False)
    spread = frame.assign(part=np.arange(len(frame)) * 40 // len(frame))
    assert spread.groupby("item")["part"].nunique().min() >= 2
    args = {"item": "item", "rater": "rater", "label": "label", "by": by, "split_out": split_out}
    want = ddf.compute().agree(item="item", rater="rater", label="label", by=by)
    for keep_items in (False, True):
        got = ddf.agree(**args, keep_items=keep_items)
        for name in ROW_COEFFICIENTS:
            same(getattr(got, name)(), getattr(want, name)())
        same(got.frequencies(), want.frequencies())
    same(got.spa(), want.spa())
    same(got.counts(), want.counts())


@pytest.mark.parametrize("fan_in", [2, 3, 32])
def test_pairs_repeated_in_partitions_combined_at_every_level_are_found(
    client: Any, monkeypatch: pytest.MonkeyPatch, fan_in: int
) -> None:
    # A pair labelled twice in the first and the last partition meets only at the root, one
    # in neighbouring partitions in the first combine, one within a partition at once.
    monkeypatch.setattr(pdagree.dask._reduce, "FAN_IN", fan_in)
    frame = _straddling(12)
    n_parts, size = 9, -(-len(frame) // 9)
    first, last = frame.iloc[0], frame.iloc[len(frame) - 1]
    extra = pd.DataFrame(
        [
            {**first.to_dict(), "label": "other"},  # partition 0 and partition 8
            {**frame.iloc[size].to_dict(), "label": "other"},  # partition 1 and partition 0
            {**last.to_dict(), "label": "other"},  # partition 8, twice within it
        ]
    )
    rows = [frame.iloc[:1], extra.iloc[1:2], frame.iloc[1:], extra.iloc[[2, 0]]]
    twice = pd.concat(rows, ignore_index=True)
    with pytest.raises(ValueError) as want:
        twice.agree(item="item", rater="rater", label="label")
    assert "3 (item, rater) pairs have more than one label" in str(want.value)
    ddf = dd.from_pandas(twice, npartitions=n_parts, sort=False)
    for split_out in (1, 2):
        with pytest.raises(ValueError) as got:
            ddf.agree(item="item", rater="rater", label="label", split_out=split_out).fleiss()
        assert str(got.value) == str(want.value)


def test_a_partition_sends_integer_codes_and_each_item_key_once(client: Any) -> None:
    # What crosses the network from a partition: integer arrays of 32 bits and the distinct
    # keys of its items, once each; no per-annotation text (#26).
    from dask.callbacks import Callback

    from pdagree.dask._pieces import Piece

    sent: list[Any] = []

    class Record(Callback):  # type: ignore[misc]
        def _posttask(self, key: Any, result: Any, *args: Any) -> None:
            if "partition_pieces" in str(key):
                sent.append(result)

    frame = _straddling(13)
    ddf = dd.from_pandas(frame, npartitions=4, sort=False)
    with dask.config.set(scheduler="sync"), Record():
        got = ddf.agree(item="item", rater="rater", label="label", split_out=3)
    same(got.fleiss(), ddf.compute().agree(item="item", rater="rater", label="label").fleiss())
    assert len(sent) == 4
    parts = {frozenset(p["item"]): p for p in (part.compute() for part in ddf.partitions)}
    for pieces in sent:  # in the order the tasks ran
        assert len(pieces) == 3 and all(isinstance(p, Piece) for p in pieces)
        keys = pd.Index([]).append([p.items for p in pieces])
        assert keys.is_unique
        rows = parts.pop(frozenset(keys))
        n_pairs = sum(len(p.pair_item) for p in pieces)
        assert n_pairs == len(rows) and sum(p.cell_count.sum() for p in pieces) == len(rows)
        for piece in pieces:
            for name in ("cell_item", "cell_label", "cell_count", "pair_item", "pair_rater"):
                codes = getattr(piece, name)
                assert codes.dtype == np.int32, name
            assert len(piece.raters) <= 6 and len(piece.labels) <= 3
