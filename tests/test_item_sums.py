"""The item bootstrap through per-item sums (pdagree.definitions.item_sums, pdagree.resampling).

Every registered coefficient offers item sums (or is listed in ``RECOMPUTED``): a per-item
matrix ``S`` and ``finish(T)``. Two checks per coefficient and option:

- summing ``S`` over each ``by=`` group's items and finishing gives what the definition
  computes (random ratings with missing values, degenerate groups, unused categories, all
  three layouts);
- the bootstrap through item sums gives, replicate for replicate, the values of the
  recomputing bootstrap (the implementation before item sums, kept as the fallback) with
  the same seed: the resamples are the same draws, so the two agree up to rounding, which
  is stronger than agreeing in distribution.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

import pdagree
from pdagree import resampling
from pdagree.definitions import REGISTRY
from pdagree.definitions import item_sums as item_sums_module
from pdagree.tensors import RatingData

#: Coefficients that recompute every resample (none: every one has item sums).
RECOMPUTED: frozenset[str] = frozenset()

CATEGORIES = [1.0, 2.0, 3.0, 4.0, 5.0]


def ratings_frame(seed: int, n_raters: int = 4, n_items: int = 24) -> pd.DataFrame:
    """Three sites of raters who mostly agree, a quarter of the cells missing, and two
    degenerate sites: one where everybody gives the same label, one of single ratings."""
    rng = np.random.default_rng(seed)
    parts = []
    for site, size in (("north", n_items), ("south", n_items // 2), ("east", n_items + 7)):
        truth = rng.integers(1, 6, size=size)
        noise = rng.integers(1, 6, size=(size, n_raters))
        labels = np.where(rng.random((size, n_raters)) < 0.6, truth[:, None], noise)
        labels = labels.astype(np.float64)
        labels[rng.random((size, n_raters)) < 0.25] = np.nan
        part = pd.DataFrame(labels, columns=[f"r{j}" for j in range(n_raters)])
        part["site"] = site
        parts.append(part)
    same = pd.DataFrame(np.full((5, n_raters), 2.0), columns=[f"r{j}" for j in range(n_raters)])
    single = pd.DataFrame(np.nan, index=range(4), columns=[f"r{j}" for j in range(n_raters)])
    single["r0"] = [1.0, 3.0, 3.0, 4.0]
    parts += [same.assign(site="same"), single.assign(site="single")]
    return pd.concat(parts, ignore_index=True)


def encodings(seed: int, n_raters: int) -> Iterator[tuple[str, RatingData]]:
    """The same ratings as wide and long frames (with ``by=``), a counts table, one group
    alone, and with a declared category nobody used."""
    wide = ratings_frame(seed, n_raters)
    raters = [c for c in wide.columns if c != "site"]
    yield "wide", wide.agree(by="site", categories=CATEGORIES)._data
    yield "one group", wide.drop(columns="site").agree(categories=CATEGORIES)._data
    yield "unused", wide.agree(by="site", categories=[*CATEGORIES, 6.0])._data
    long = wide.rename_axis("item").reset_index().melt(["item", "site"], var_name="coder")
    long = long.dropna(subset=["value"])
    yield "long", long.agree(item="item", rater="coder", label="value", by="site")._data
    counts = pd.DataFrame({str(c): (wide[raters] == c).sum(axis=1) for c in CATEGORIES})
    counts["site"] = wide["site"]
    yield "counts", counts.agree(layout="counts", by="site")._data


def option_sets(name: str) -> list[dict[str, Any]]:
    """The options to try for coefficient ``name``, read from its registry entry.

    ``"matrix"`` (a (K, K) matrix of weights or distances), ``"custom"`` (one SPA weight per
    item) and ``p`` are made concrete for each data set by :func:`concrete`."""
    definition = REGISTRY[name]
    sets: list[dict[str, Any]] = [{}]
    if definition.weights:
        sets += [{"weights": "linear"}, {"weights": "quadratic"}, {"weights": "matrix"}]
    if definition.levels:
        sets += [
            {"level": "ordinal"},
            {"level": "interval"},
            {"level": "ratio"},
            {"level": "matrix"},
            {"level": lambda c, d: np.abs(c - d) ** 0.7},
        ]
    if name == "spa":
        sets = [{"weights": scheme} for scheme in pdagree.spa.WEIGHTINGS]
        sets += [{"weights": "inv_var_class", "p": "given"}, {"weights": "custom"}]
    return sets


def concrete(options: dict[str, Any], data: RatingData, seed: int) -> dict[str, Any]:
    out = dict(options)
    k = data.enc.n_categories
    codes = np.arange(k)
    gap = np.abs(codes[:, None] - codes[None, :]).astype(np.float64)
    weights = out.get("weights")
    if isinstance(weights, str) and weights == "matrix":
        out["weights"] = 1.0 - (gap / (k - 1)) ** 0.5
    if isinstance(weights, str) and weights == "custom":
        out["weights"] = np.random.default_rng(seed).random(data.enc.n_items) + 0.2
    if isinstance(out.get("level"), str) and out["level"] == "matrix":
        out["level"] = gap**1.5
    if "p" in out:
        probs = [0.3, 0.3, 0.2, 0.1, 0.1] + [0.0] * (k - 5)
        out["p"] = dict(zip(data.enc.categories, probs, strict=True))
    return out


def cases() -> Iterator[Any]:
    for name in REGISTRY:
        for i, options in enumerate(option_sets(name)):
            yield pytest.param(name, options, id=f"{name}-{i}")


def group_sums(matrix: Any, data: RatingData) -> np.ndarray:
    """``T``: the rows of ``S`` summed over each group's items."""
    enc = data.enc
    onehot = sp.csr_matrix(
        (np.ones(enc.n_items), (enc.group, np.arange(enc.n_items))),
        shape=(enc.n_groups, enc.n_items),
    )
    t = onehot @ matrix
    return t.toarray() if sp.issparse(t) else np.asarray(t)


def applicable(name: str, seed: int = 0) -> Iterator[tuple[str, RatingData]]:
    definition = REGISTRY[name]
    n_raters = 2 if definition.two_raters else 4
    for label, data in encodings(seed, n_raters):
        if definition.applies_to(data):
            yield label, data


# --------------------------------------------------------------------------- the registry


def test_every_coefficient_has_item_sums_or_is_listed() -> None:
    # A new coefficient says whether the bootstrap can resample its item sums.
    without = {name for name, d in REGISTRY.items() if d.item_sums is None}
    assert without == RECOMPUTED


# --------------------------------------------------------------------------- sums equal compute


@pytest.fixture(params=["dense", "sparse"])
def layout_of_sums(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Per-item matrices as built (dense at this width), or all sparse."""
    if request.param == "sparse":
        monkeypatch.setattr(item_sums_module, "DENSE_COLUMNS", 0)
    return str(request.param)


@pytest.mark.parametrize(("name", "options"), list(cases()))
def test_finish_of_group_sums_is_the_coefficient(
    name: str, options: dict[str, Any], layout_of_sums: str
) -> None:
    definition = REGISTRY[name]
    if definition.item_sums is None:
        pytest.skip("recomputed")
    tried = 0
    for label, data in applicable(name):
        if data.enc.layout == "counts" and callable(options.get("level")):
            continue  # category values are the counts table's column labels (strings)
        call = concrete(options, data, seed=tried)
        if data.enc.values is None and options.get("level") in ("interval", "ratio"):
            continue
        sums = definition.item_sums(data, call)
        assert sums is not None, (name, label)
        assert sp.issparse(sums.matrix) == (layout_of_sums == "sparse")
        got = sums.finish(group_sums(sums.matrix, data))
        expected = definition.compute(data, **call).value
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12, err_msg=label)
        if label != "one group" and name not in ("spa", "observed", "bennett"):
            assert np.isnan(expected).any()  # the degenerate groups are checked too
        tried += 1
    assert tried >= 2


# --------------------------------------------------------------------------- same replicates


def bootstrap_cases() -> Iterator[Any]:
    for name in REGISTRY:
        sets = option_sets(name)
        picked = [sets[0]] + ([sets[2]] if len(sets) > 2 else [])
        if name == "alpha":
            picked += [{"level": "ordinal"}, {"level": "interval"}, {"level": "ratio"}]
        if name == "spa":
            picked = [{"weights": "annotations_m1"}, {"weights": "inv_var_class"}]
            picked += [{"weights": "custom"}]
        for i, options in enumerate(picked):
            yield pytest.param(name, options, id=f"{name}-{i}")


@pytest.mark.parametrize(("name", "options"), list(bootstrap_cases()))
def test_grouped_bootstrap_equals_recomputation(
    name: str, options: dict[str, Any], layout_of_sums: str
) -> None:
    definition = REGISTRY[name]
    n_raters = 2 if definition.two_raters else 4
    data = ratings_frame(3, n_raters).agree(by="site", categories=CATEGORIES)._data
    call = concrete(options, data, seed=1)
    summed = resampling.bootstrap_values(data, definition, call, 150, rng=11)
    recomputed = resampling.bootstrap_values(data, definition, call, 150, 11, item_sums=False)
    assert summed.shape == (150, 5)
    np.testing.assert_allclose(summed, recomputed, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("interval", ["percentile", "BCa"])
@pytest.mark.parametrize(("name", "options"), list(bootstrap_cases()))
def test_scipy_bootstrap_equals_recomputation(
    name: str, options: dict[str, Any], interval: str
) -> None:
    definition = REGISTRY[name]
    n_raters = 2 if definition.two_raters else 4
    wide = ratings_frame(4, n_raters).query("site == 'north' or site == 'east'")
    data = wide.drop(columns="site").agree(categories=CATEGORIES)._data
    call = concrete(options, data, seed=2)
    kw: dict[str, Any] = {"confidence_level": 0.9, "n_resamples": 120, "rng": 5}
    *summed, summed_reps = resampling.scipy_bootstrap(
        data, definition, call, interval=interval, **kw
    )
    *recomputed, recomputed_reps = resampling.scipy_bootstrap(
        data, definition, call, interval=interval, item_sums=False, **kw
    )
    assert np.isfinite(summed).all()
    if interval == "percentile":
        np.testing.assert_allclose(summed, recomputed, rtol=1e-9)
        np.testing.assert_allclose(summed_reps, recomputed_reps, rtol=1e-9)
    else:
        # BCa's bias correction counts the replicates below the estimate: replicates that
        # tie with it (observed agreement on few items) fall either side by rounding.
        assert summed[0] == pytest.approx(recomputed[0], rel=1e-9)
        width = recomputed[2] - recomputed[1]
        np.testing.assert_allclose(summed[1:], recomputed[1:], rtol=0, atol=0.02 * width)


# --------------------------------------------------------------------------- sparse and fallback


def test_sparse_rater_columns_give_the_same_replicates(monkeypatch: pytest.MonkeyPatch) -> None:
    # Above DENSE_COLUMNS the (rater, category) one-hot columns are a sparse matrix.
    data = ratings_frame(5).agree(by="site", categories=CATEGORIES)._data
    for name in ("conger", "bias", "light"):
        definition = REGISTRY[name]
        dense = resampling.bootstrap_values(data, definition, {}, 80, rng=2)
        monkeypatch.setattr(item_sums_module, "DENSE_COLUMNS", 4)
        sums = definition.item_sums(data, {})  # type: ignore[misc]
        assert sums is not None and sp.issparse(sums.matrix)
        sparse = resampling.bootstrap_values(data, definition, {}, 80, rng=2)
        monkeypatch.undo()
        np.testing.assert_allclose(sparse, dense, rtol=1e-12, atol=1e-14)


def test_too_wide_item_sums_fall_back_to_recomputation(monkeypatch: pytest.MonkeyPatch) -> None:
    # Data too wide for item sums (here: more columns than MAX_COLUMNS) are recomputed.
    monkeypatch.setattr(item_sums_module, "MAX_COLUMNS", 3)
    data = ratings_frame(6).agree(by="site", categories=CATEGORIES)._data
    for name, options in (("fleiss", {}), ("alpha", {"level": "ordinal"}), ("conger", {})):
        definition = REGISTRY[name]
        assert definition.item_sums(data, options) is None  # type: ignore[misc]
        reps = resampling.Replicates(data, definition, options)
        assert reps.sums is None
        values = resampling.bootstrap_values(data, definition, options, 40, rng=1)
        again = resampling.bootstrap_values(data, definition, options, 40, 1, item_sums=False)
        np.testing.assert_array_equal(values, again)


def test_many_groups_give_the_same_replicates(monkeypatch: pytest.MonkeyPatch) -> None:
    # Above _LOOP_GROUPS groups, one product with a block-diagonal S sums every group.
    data = ratings_frame(8).agree(by="site", categories=CATEGORIES)._data
    cases = (("fleiss", {}), ("conger", {}), ("alpha", {"level": "ordinal"}))
    for dense_columns in (item_sums_module.DENSE_COLUMNS, 0):  # then every S is sparse
        for name, options in cases:
            definition = REGISTRY[name]
            looped = resampling.bootstrap_values(data, definition, options, 50, rng=6)
            monkeypatch.setattr(item_sums_module, "DENSE_COLUMNS", dense_columns)
            monkeypatch.setattr(resampling, "_LOOP_GROUPS", 1)
            blocks = resampling.bootstrap_values(data, definition, options, 50, rng=6)
            monkeypatch.undo()
            np.testing.assert_allclose(blocks, looped, rtol=1e-12, atol=1e-14)


def test_chunks_do_not_change_the_replicates(monkeypatch: pytest.MonkeyPatch) -> None:
    # The draws are the same whatever the chunk size, so are the replicates.
    data = ratings_frame(7).agree(by="site", categories=CATEGORIES)._data
    definition = REGISTRY["fleiss"]
    whole = resampling.bootstrap_values(data, definition, {}, 60, rng=4)
    monkeypatch.setattr(resampling, "_CHUNK_FLOATS", 200)
    assert resampling.Replicates(data, definition, {}).rows_per_chunk(90, 5) == 2
    chunked = resampling.bootstrap_values(data, definition, {}, 60, rng=4)
    np.testing.assert_allclose(chunked, whole, rtol=1e-13)


def test_ordinal_alpha_interval_without_pairable_values() -> None:
    # Found by tests/test_fault_finding.py: no item with two ratings made the ordinal item
    # sums raise numpy's "operands could not be broadcast" instead of giving nan.
    wide = pd.DataFrame({"r0": [None, None, 1], "r1": [None, 1, None]})
    with pytest.warns(pdagree.UndefinedStatisticWarning):
        alpha = wide.agree.alpha("ordinal")
    low, high = alpha.confidence_interval()  # nan, as the value (which warned)
    assert np.isnan(low) and np.isnan(high)
