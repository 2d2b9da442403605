"""Batch equals loop for every kernel.

Kernels take a group code per item (the flat group-offset layout that serves ``by=``, the
bootstrap and the Dask reduction) or leading batch axes. For each one, calling it once on
all groups must equal calling it on each group alone and stacking the answers. The registry
at the end fails when a kernel is added without such a test.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from test_jackknife import test_jackknife_by_groups_equals_a_loop

# The jackknife kernels' batch-equals-loop test runs through the definitions, with groups that
# have raters of their own (tests/test_jackknife.py); it is named here for the registry below.
__all__ = ["test_jackknife_by_groups_equals_a_loop"]

import pdagree._kernels
from pdagree._kernels import (
    _segment,
    agreement,
    alpha,
    alpha_sums,
    key_counts,
    spa,
    sparse,
    table,
    variance,
)  # fmt: skip
from pdagree.encoding import _counts

IntArray = np.ndarray[Any, np.dtype[np.int64]]
FloatArray = np.ndarray[Any, np.dtype[np.float64]]

N_CATEGORIES = 4
SEEDS = range(4)


def close(a: Any, b: Any) -> None:
    np.testing.assert_allclose(
        np.asarray(a), np.asarray(b), rtol=1e-12, atol=1e-12, equal_nan=True
    )


@dataclass
class Data:
    """Annotations of items that belong to groups, with the count tensors of all groups."""

    group: IntArray  # per item
    item: IntArray  # per annotation
    rater: IntArray
    code: IntArray
    n_items: int
    n_raters: int
    n_groups: int

    @property
    def nik(self) -> FloatArray:
        weight = np.ones(len(self.item))
        return _counts.item_counts(self.item, self.code, weight, self.n_items, N_CATEGORIES)

    @property
    def nck(self) -> FloatArray:
        return _counts.rater_counts(
            self.group,
            self.item,
            self.rater,
            self.code,
            self.n_groups,
            self.n_raters,
            N_CATEGORIES,
        )

    @property
    def confusions(self) -> FloatArray:
        return _counts.pair_confusions(
            self.group,
            self.item,
            self.rater,
            self.code,
            self.n_items,
            self.n_groups,
            self.n_raters,
            N_CATEGORIES,
        )

    @property
    def n_rated(self) -> FloatArray:
        rated = (self.nik.sum(axis=-1) >= 1).astype(np.float64)
        return np.bincount(self.group, weights=rated, minlength=self.n_groups)

    def alone(self, g: int) -> Data:
        """Group ``g`` as data of its own (one group, items renumbered)."""
        items = np.flatnonzero(self.group == g)
        renumber = np.full(self.n_items, -1)
        renumber[items] = np.arange(len(items))
        keep = self.group[self.item] == g
        return Data(
            group=np.zeros(len(items), dtype=np.int64),
            item=renumber[self.item[keep]],
            rater=self.rater[keep],
            code=self.code[keep],
            n_items=len(items),
            n_raters=self.n_raters,
            n_groups=1,
        )

    def items_of(self, g: int) -> IntArray:
        return np.flatnonzero(self.group == g)


def make(seed: int, n_items: int = 40, n_raters: int = 5, n_groups: int = 4) -> Data:
    """Random incomplete ratings; groups in no particular order, some nearly empty."""
    rng = np.random.default_rng(seed)
    group = rng.integers(0, n_groups, size=n_items)
    group[:n_groups] = np.arange(n_groups)  # every group has an item
    group[-1] = n_groups - 1
    present = rng.random((n_items, n_raters)) < rng.uniform(0.3, 0.9, size=n_raters)
    # The last group: a single item rated by one rater (nothing pairable).
    only = np.flatnonzero(group == n_groups - 1)
    group[only[1:]] = 0
    present[only[0]] = False
    present[only[0], 0] = True
    item, rater = np.nonzero(present)
    # Skewed labels so that categories differ in prevalence.
    code = rng.choice(N_CATEGORIES, size=len(item), p=[0.5, 0.3, 0.15, 0.05])
    return Data(
        group=group.astype(np.int64),
        item=item.astype(np.int64),
        rater=rater.astype(np.int64),
        code=code.astype(np.int64),
        n_items=n_items,
        n_raters=n_raters,
        n_groups=n_groups,
    )


def identity() -> FloatArray:
    return np.eye(N_CATEGORIES)


def quadratic() -> FloatArray:
    k = np.arange(N_CATEGORIES, dtype=np.float64)
    return 1.0 - (k[:, None] - k[None, :]) ** 2 / (N_CATEGORIES - 1) ** 2


def asymmetric() -> FloatArray:
    rng = np.random.default_rng(99)
    w = rng.uniform(0, 1, size=(N_CATEGORIES, N_CATEGORIES))
    np.fill_diagonal(w, 1.0)
    return w


WEIGHTS = {"identity": identity, "quadratic": quadratic, "asymmetric": asymmetric}


@pytest.fixture(params=SEEDS)
def data(request: pytest.FixtureRequest) -> Data:
    return make(request.param)


@pytest.fixture(params=list(WEIGHTS))
def weights(request: pytest.FixtureRequest) -> FloatArray:
    return WEIGHTS[request.param]()


# ------------------------------------------------------------------------------- counts


def test_item_counts_rows(data: Data) -> None:
    nik = data.nik
    for g in range(data.n_groups):
        close(nik[data.items_of(g)], data.alone(g).nik)


def test_rater_counts(data: Data) -> None:
    nck = data.nck
    for g in range(data.n_groups):
        close(nck[g], data.alone(g).nck[0])


def test_pair_confusions(data: Data) -> None:
    confusions = data.confusions
    for g in range(data.n_groups):
        close(confusions[g], data.alone(g).confusions[0])


def test_pair_confusions_by_hand(data: Data) -> None:
    # Entry [g, a, b, k, l]: items of g that a put in k and b in l.
    dense = np.full((data.n_items, data.n_raters), -1)
    dense[data.item, data.rater] = data.code
    expected = np.zeros_like(data.confusions)
    for i in range(data.n_items):
        for a in range(data.n_raters):
            for b in range(data.n_raters):
                if dense[i, a] >= 0 and dense[i, b] >= 0:
                    expected[data.group[i], a, b, dense[i, a], dense[i, b]] += 1
    close(data.confusions, expected)


def test_segment_sum(data: Data) -> None:
    nik = data.nik
    out = _segment.segment_sum(nik, data.group, data.n_groups)
    for g in range(data.n_groups):
        close(out[g], nik[data.items_of(g)].sum(axis=0))
    # Trailing axes of any shape.
    x = np.arange(data.n_items * 6, dtype=np.float64).reshape(data.n_items, 2, 3)
    out3 = _segment.segment_sum(x, data.group, data.n_groups)
    for g in range(data.n_groups):
        close(out3[g], x[data.items_of(g)].sum(axis=0))
    # One group (no by=) takes a column sum; many columns take the combined-key bincount.
    one = np.zeros(data.n_items, dtype=np.int64)
    close(_segment.segment_sum(x, one, 1), x.sum(axis=0)[None])
    close(_segment.segment_sum(np.zeros((0, 3)), one[:0], 1), np.zeros((1, 3)))
    wide = np.arange(data.n_items * 20, dtype=np.float64).reshape(data.n_items, 20)
    out_wide = _segment.segment_sum(wide, data.group, data.n_groups)
    for g in range(data.n_groups):
        close(out_wide[g], wide[data.items_of(g)].sum(axis=0))


def test_multiplicities_equal_repeated_items(data: Data, weights: FloatArray) -> None:
    # A row of counts with multiplicity m gives what m copies of the item give (issue #20:
    # the Dask client keeps each group's distinct rows of counts with their multiplicities).
    rng = np.random.default_rng(data.n_items)
    nik, group, n = data.nik, data.group, data.n_groups
    m = rng.integers(1, 4, data.n_items).astype(np.float64)
    rep = np.repeat(np.arange(data.n_items), m.astype(np.int64))
    x, g = nik[rep], group[rep]
    close(_segment.times(m, nik)[rep[:0]], nik[:0])
    close(_segment.times(None, nik), nik)
    close(_segment.segment_sum(_segment.times(m, nik), group, n), _segment.segment_sum(x, g, n))
    pairs = [
        (agreement.observed_components(nik, weights, group, n, m),
         agreement.observed_components(x, weights, g, n)),
        (agreement.fleiss_expected(nik, weights, group, n, m),
         agreement.fleiss_expected(x, weights, g, n)),
        (agreement.gwet_expected(nik, weights, group, n, m),
         agreement.gwet_expected(x, weights, g, n)),
        (agreement.weighted_alpha_components(nik, weights, group, n, m),
         agreement.weighted_alpha_components(x, weights, g, n)),
        (variance.weighted_alpha_variance(nik, weights, group, n, np.inf, m),
         variance.weighted_alpha_variance(x, weights, g, n)),
    ]  # fmt: skip
    value, expected = agreement.chance_corrected(*pairs[0][1]), pairs[1][1][0]
    item = variance.fleiss_item_expected(nik, weights, pairs[1][1][1], group)
    pairs.append(
        (variance.linearised_variance(nik, weights, group, n, value, expected, item, 50.0, m),
         variance.linearised_variance(x, weights, g, n, value, expected, item[rep], 50.0))
    )  # fmt: skip
    nominal = alpha_sums.nominal_alpha_components(nik, group, n, m)
    want = alpha_sums.nominal_alpha_components(x, g, n)
    pairs.append(((nominal.observed_disagreement, nominal.n_items),
                  (want.observed_disagreement, want.n_items)))  # fmt: skip
    item_, code, count = sparse.category_entries(
        np.repeat(np.arange(data.n_items), 3), np.tile([0, 1, 1], data.n_items),
        np.ones(3 * data.n_items), 2,
    )  # fmt: skip
    e_rep = np.repeat(np.arange(data.n_items), 3 * m.astype(np.int64))
    r_item, r_code, r_count = sparse.category_entries(
        np.repeat(np.arange(len(rep)), 3), np.tile([0, 1, 1], len(rep)), np.ones(3 * len(rep)), 2
    )
    assert len(e_rep) == 3 * len(rep)
    pairs.append((sparse.identity_observed(item_, count, group, n, m),
                  sparse.identity_observed(r_item, r_count, g, n)))  # fmt: skip
    got = sparse.pooled_proportions(item_, code, count, group, n, 2, m)
    ref = sparse.pooled_proportions(r_item, r_code, r_count, g, n, 2)
    pairs.append((got, ref))
    for mine, theirs in pairs:
        for a, b in zip(mine, theirs, strict=True):
            close(np.asarray(a), np.asarray(b))


# ------------------------------------------------------------------- agreement kernels


def test_chance_corrected_elementwise() -> None:
    observed = np.array([[0.7, 1.0, 0.2], [0.5, np.nan, 0.9]])
    expected = np.array([[0.545, 1.0, 0.4], [0.5, 0.3, 1.0 - 1e-15]])
    batch = agreement.chance_corrected(observed, expected)
    for idx in np.ndindex(observed.shape):
        close(batch[idx], agreement.chance_corrected(observed[idx], expected[idx]))
    close(batch[0, 0], (0.7 - 0.545) / (1 - 0.545))
    assert np.isnan(batch[0, 1])  # A_e = 1
    assert np.isnan(batch[1, 2])  # A_e = 1 up to rounding


def test_item_agreement_leading_axes(data: Data, weights: FloatArray) -> None:
    rng = np.random.default_rng(0)
    nik = rng.integers(0, 4, size=(3, 7, N_CATEGORIES)).astype(np.float64)
    r, a = agreement.item_agreement(nik, weights)
    for g in range(3):
        r_g, a_g = agreement.item_agreement(nik[g], weights)
        close(r[g], r_g)
        close(a[g], a_g)
        for i in range(7):
            close(a[g, i], agreement.item_agreement(nik[g, i], weights)[1])


def test_observed_components(data: Data, weights: FloatArray) -> None:
    observed, n = agreement.observed_components(data.nik, weights, data.group, data.n_groups)
    for g in range(data.n_groups):
        alone = data.alone(g)
        o_g, n_g = agreement.observed_components(alone.nik, weights, alone.group, 1)
        close(observed[g], o_g[0])
        close(n[g], n_g[0])
    assert np.isnan(observed[-1])  # the group with one rating
    assert n[-1] == 0


@pytest.mark.parametrize("kernel", [agreement.fleiss_expected, agreement.gwet_expected])
def test_pooled_expected(data: Data, weights: FloatArray, kernel: Callable[..., Any]) -> None:
    expected, pi = kernel(data.nik, weights, data.group, data.n_groups)
    for g in range(data.n_groups):
        alone = data.alone(g)
        e_g, pi_g = kernel(alone.nik, weights, alone.group, 1)
        close(expected[g], e_g[0])
        close(pi[g], pi_g[0])
    # A_e from pi alone: batched over groups, as the kernel gives it.
    from_pi = (
        agreement.fleiss_from_pi if kernel is agreement.fleiss_expected else agreement.gwet_from_pi
    )
    close(from_pi(pi, weights), expected)
    for g in range(data.n_groups):
        close(from_pi(pi[g : g + 1], weights)[0], expected[g])


def test_rater_proportions(data: Data) -> None:
    p, active = agreement.rater_proportions(data.nck)
    for g in range(data.n_groups):
        p_g, active_g = agreement.rater_proportions(data.nck[g : g + 1])
        close(p[g], p_g[0])
        assert (active[g] == active_g[0]).all()


def test_conger_expected(data: Data, weights: FloatArray) -> None:
    expected, pbar, c = agreement.conger_expected(data.nck, weights)
    for g in range(data.n_groups):
        e_g, pbar_g, c_g = agreement.conger_expected(data.nck[g : g + 1], weights)
        close(expected[g], e_g[0])
        close(pbar[g], pbar_g[0])
        close(c[g], c_g[0])
    assert np.isnan(expected[-1])  # one active rater


@pytest.mark.parametrize("pooled", [False, True])
def test_pair_components(data: Data, weights: FloatArray, pooled: bool) -> None:
    observed, expected, n_common = agreement.pair_components(
        data.confusions, data.nck, weights, pooled
    )
    for g in range(data.n_groups):
        o_g, e_g, n_g = agreement.pair_components(
            data.confusions[g : g + 1], data.nck[g : g + 1], weights, pooled
        )
        close(observed[g], o_g[0])
        close(expected[g], e_g[0])
        close(n_common[g], n_g[0])


def margins(data: Data, weights: FloatArray) -> tuple[FloatArray, ...]:
    return _counts.pair_margins(
        data.group,
        data.item,
        data.rater,
        data.code,
        data.n_items,
        data.n_groups,
        data.n_raters,
        N_CATEGORIES,
        weights,
    )


def test_pair_margins_are_the_confusion_tables_margins(data: Data, weights: FloatArray) -> None:
    n_common, agree, rows, cols = margins(data, weights)
    tables = data.confusions
    close(n_common, tables.sum(axis=(-2, -1)))
    close(agree, np.einsum("gabkl,kl->gab", tables, weights))
    close(rows, tables.sum(axis=-1))
    close(cols, tables.sum(axis=-2))


@pytest.mark.parametrize("pooled", [False, True])
def test_pair_margin_components(data: Data, weights: FloatArray, pooled: bool) -> None:
    got = agreement.pair_margin_components(*margins(data, weights), data.nck, weights, pooled)
    close(got, agreement.pair_components(data.confusions, data.nck, weights, pooled))
    for g in range(data.n_groups):
        alone = data.alone(g)
        got_g = agreement.pair_margin_components(
            *margins(alone, weights), alone.nck, weights, pooled
        )
        for whole, part in zip(got, got_g, strict=True):
            close(whole[g], part[0])


def test_bennett_expected_has_no_data_axis() -> None:
    # Chance agreement of S depends on the categories only: nothing to batch.
    assert agreement.bennett_expected(identity()) == pytest.approx(1 / N_CATEGORIES)
    assert agreement.bennett_expected(quadratic()) == pytest.approx(quadratic().mean())


# -------------------------------------------------------------------- variance kernels


@pytest.mark.parametrize(
    ("pooled_kernel", "item_kernel"),
    [
        (agreement.fleiss_expected, variance.fleiss_item_expected),
        (agreement.gwet_expected, variance.gwet_item_expected),
    ],
)
def test_pooled_item_expected(
    data: Data,
    weights: FloatArray,
    pooled_kernel: Callable[..., Any],
    item_kernel: Callable[..., Any],
) -> None:
    _, pi = pooled_kernel(data.nik, weights, data.group, data.n_groups)
    out = item_kernel(data.nik, weights, pi, data.group)
    for g in range(data.n_groups):
        alone = data.alone(g)
        close(out[data.items_of(g)], item_kernel(alone.nik, weights, pi[g : g + 1], alone.group))


def test_conger_item_expected(data: Data, weights: FloatArray) -> None:
    out = variance.conger_item_expected(
        data.nck,
        weights,
        data.n_rated,
        data.group,
        data.item,
        data.rater,
        data.code,
        data.n_items,
    )
    for g in range(data.n_groups):
        alone = data.alone(g)
        out_g = variance.conger_item_expected(
            alone.nck,
            weights,
            alone.n_rated,
            alone.group,
            alone.item,
            alone.rater,
            alone.code,
            alone.n_items,
        )
        close(out[data.items_of(g)], out_g)


@pytest.mark.parametrize("population", [np.inf, 100.0])
@pytest.mark.parametrize("with_item_expected", [False, True])
def test_linearised_variance(
    data: Data, weights: FloatArray, population: float, with_item_expected: bool
) -> None:
    observed, _ = agreement.observed_components(data.nik, weights, data.group, data.n_groups)
    expected, pi = agreement.fleiss_expected(data.nik, weights, data.group, data.n_groups)
    value = agreement.chance_corrected(observed, expected)
    item_expected = (
        variance.fleiss_item_expected(data.nik, weights, pi, data.group)
        if with_item_expected
        else None
    )
    var, n = variance.linearised_variance(
        data.nik, weights, data.group, data.n_groups, value, expected, item_expected, population
    )
    for g in range(data.n_groups):
        alone = data.alone(g)
        var_g, n_g = variance.linearised_variance(
            alone.nik,
            weights,
            alone.group,
            1,
            value[g : g + 1],
            expected[g : g + 1],
            None if item_expected is None else item_expected[data.items_of(g)],
            population,
        )
        close(var[g], var_g[0])
        close(n[g], n_g[0])


@pytest.mark.parametrize("population", [np.inf, 500.0])
@pytest.mark.parametrize("kind", variance.TABLE_KINDS)
def test_table_variance(weights: FloatArray, kind: str, population: float) -> None:
    # Two raters' contingency tables, one per group, with an empty row and column in one.
    rng = np.random.default_rng(3)
    tables = rng.integers(0, 9, size=(3, N_CATEGORIES, N_CATEGORIES)).astype(np.float64)
    tables[1, 2, :] = 0.0
    tables[1, :, 2] = 0.0
    var, n = variance.table_variance(tables, weights, kind, population)
    assert var.shape == n.shape == (3,)
    for g in range(3):
        var_g, n_g = variance.table_variance(tables[g : g + 1], weights, kind, population)
        close(var[g], var_g[0])
        close(n[g], n_g[0])


def test_fleiss_null_variance(data: Data) -> None:
    parts = variance.fleiss_null_variance(data.nik, data.group, data.n_groups)
    for g in range(data.n_groups):
        alone = data.alone(g)
        parts_g = variance.fleiss_null_variance(alone.nik, alone.group, 1)
        for got, expected in zip(parts, parts_g, strict=True):
            close(got[g], expected[0])
    # From the category counts: batched equals one group at a time.
    nik = data.nik
    counts = np.stack([nik[data.group == g].sum(axis=0) for g in range(data.n_groups)])
    n = np.array([(nik[data.group == g].sum(axis=1) > 0).sum() for g in range(data.n_groups)])
    ratings = counts.sum(axis=1)
    batch = variance.fleiss_null_from_counts(counts, n.astype(float), ratings)
    close(batch, parts[0])
    for g in range(data.n_groups):
        one = variance.fleiss_null_from_counts(
            counts[g : g + 1], n[g : g + 1] * 1.0, ratings[g : g + 1]
        )
        close(batch[g], one[0])


@pytest.mark.parametrize("population", [np.inf, 100.0])
def test_weighted_alpha(data: Data, weights: FloatArray, population: float) -> None:
    sym = (weights + weights.T) / 2.0  # alpha's weights are symmetric
    parts = agreement.weighted_alpha_components(data.nik, sym, data.group, data.n_groups)
    var, n = variance.weighted_alpha_variance(data.nik, sym, data.group, data.n_groups, population)
    for g in range(data.n_groups):
        alone = data.alone(g)
        parts_g = agreement.weighted_alpha_components(alone.nik, sym, alone.group, 1)
        for got, expected in zip(parts, parts_g, strict=True):
            close(got[g], expected[0])
        var_g, n_g = variance.weighted_alpha_variance(alone.nik, sym, alone.group, 1, population)
        close(var[g], var_g[0])
        close(n[g], n_g[0])
    # The sums the variance reuses: the components first, then per item and per group.
    sums = agreement.weighted_alpha_sums(data.nik, sym, data.group, data.n_groups)
    for got, expected in zip(sums[:4], parts, strict=True):
        np.testing.assert_array_equal(got, expected)
    for g in range(data.n_groups):
        alone = data.alone(g)
        sums_g = agreement.weighted_alpha_sums(alone.nik, sym, alone.group, 1)
        items = data.group == g
        for at in (4, 5, 6):
            close(sums[at][items], sums_g[at])
        for at in (0, 1, 2, 3, 7, 8):
            close(sums[at][g], sums_g[at][0])


# ------------------------------------------------------------------------- SPA kernels


def test_spa_item_agreement_leading_axes() -> None:
    rng = np.random.default_rng(1)
    nik = rng.integers(0, 4, size=(3, 7, N_CATEGORIES)).astype(np.float64)
    n, p = spa.spa_item_agreement(nik)
    for g in range(3):
        n_g, p_g = spa.spa_item_agreement(nik[g])
        close(n[g], n_g)
        close(p[g], p_g)


def test_pooled_distribution(data: Data) -> None:
    out = spa.pooled_distribution(data.nik, data.group, data.n_groups)
    for g in range(data.n_groups):
        alone = data.alone(g)
        close(out[g], spa.pooled_distribution(alone.nik, alone.group, 1)[0])


def test_class_moments_leading_axes() -> None:
    rng = np.random.default_rng(2)
    p = rng.dirichlet(np.ones(N_CATEGORIES), size=(3, 5))
    zeta1, zeta2 = spa.class_moments(p)
    for idx in np.ndindex(3, 5):
        z1, z2 = spa.class_moments(p[idx])
        close(zeta1[idx], z1)
        close(zeta2[idx], z2)


def test_uniform_moments_has_no_data_axis() -> None:
    uniform = np.full(N_CATEGORIES, 1 / N_CATEGORIES)
    close(spa.uniform_moments(N_CATEGORIES), spa.class_moments(uniform))


def test_agreement_variance_elementwise() -> None:
    n = np.array([[1.0, 2.0, 3.0], [4.0, 7.0, 0.0]])
    zeta1 = np.array([[0.0, 0.01, 0.02], [0.03, 0.0, 0.01]])
    zeta2 = np.array([[0.25, 0.2, 0.1], [0.24, 0.0, 0.2]])
    out = spa.agreement_variance(n, zeta1, zeta2)
    for idx in np.ndindex(n.shape):
        close(out[idx], spa.agreement_variance(n[idx], zeta1[idx], zeta2[idx]))


@pytest.mark.parametrize("scheme", spa.SCHEMES)
def test_scheme_weights_elementwise(scheme: spa.Scheme) -> None:
    n = np.array([1.0, 2.0, 3.0, 5.0, 8.0, 2.0])
    zeta1 = np.array([0.0, 0.01, 0.02, 0.0, 0.03, 0.0])
    zeta2 = np.array([0.25, 0.2, 0.1, 0.0, 0.24, 0.2])
    out = spa.scheme_weights(n, scheme, zeta1, zeta2)
    for i in range(len(n)):
        close(out[i], spa.scheme_weights(n[i : i + 1], scheme, zeta1[i : i + 1], zeta2[i : i + 1]))


def test_spa_components(data: Data) -> None:
    rng = np.random.default_rng(3)
    item_weight = rng.uniform(0.5, 2.0, size=data.n_items)
    out = spa.spa_components(data.nik, item_weight, data.group, data.n_groups)
    for g in range(data.n_groups):
        alone = data.alone(g)
        out_g = spa.spa_components(alone.nik, item_weight[data.items_of(g)], alone.group, 1)
        for a, b in zip(out, out_g, strict=True):
            close(a[g], b[0])


# ----------------------------------------------------------------------- alpha kernels


def alpha_metrics() -> dict[str, alpha.Metric]:
    values = np.array([1.0, 2.0, 4.0, 8.0])[:N_CATEGORIES]
    return {
        "nominal": alpha.Nominal(),
        "ordinal": alpha.Ordinal(),
        "interval": alpha.Interval(values),
        "ratio": alpha.Pairwise(alpha.ratio_delta2(values)),
        "matrix": alpha.Pairwise(alpha.matrix_delta2(1.0 - quadratic())),
    }


@pytest.mark.parametrize("metric", list(alpha_metrics()))
@pytest.mark.parametrize("budget", [alpha.DEFAULT_BUDGET, 5])
def test_alpha_components(data: Data, metric: str, budget: int) -> None:
    m = alpha_metrics()[metric]
    weight = np.ones(len(data.item))
    out = alpha.alpha_components(
        data.item, data.code, weight, data.group, data.n_groups, N_CATEGORIES, m, budget
    )
    for g in range(data.n_groups):
        alone = data.alone(g)
        out_g = alpha.alpha_components(
            alone.item,
            alone.code,
            np.ones(len(alone.item)),
            alone.group,
            1,
            N_CATEGORIES,
            m,
            budget,
        )
        for a, b in zip(out, out_g, strict=True):
            close(a[g], b[0])


@pytest.mark.parametrize("metric", list(alpha_metrics()))
@pytest.mark.parametrize("budget", [alpha.DEFAULT_BUDGET, 5])
def test_item_disagreement(data: Data, metric: str, budget: int) -> None:
    # Each item's term, computed with every group at once, is its term within its group
    # alone; the terms of a group sum to its numerator of D_o (D_o times n).
    m = alpha_metrics()[metric]
    weight = np.ones(len(data.item))
    pv = alpha.pairable_values(
        data.item, data.code, weight, data.group, data.n_groups, N_CATEGORIES
    )
    out = alpha.item_disagreement(pv, m, budget)
    parts = alpha.alpha_components(
        data.item, data.code, weight, data.group, data.n_groups, N_CATEGORIES, m, budget
    )
    for g in range(data.n_groups):
        alone = data.alone(g)
        pv_g = alpha.pairable_values(
            alone.item, alone.code, np.ones(len(alone.item)), alone.group, 1, N_CATEGORIES
        )
        close(out[data.items_of(g)], alpha.item_disagreement(pv_g, m, budget))
        if parts.n_values[g] > 0:
            total = parts.observed_disagreement[g] * parts.n_values[g]
            close(out[data.items_of(g)].sum(), total)


def test_alpha_components_long_segments() -> None:
    # More distinct values per item and per group than the pairwise sums pair row by row.
    rng = np.random.default_rng(5)
    n_categories = 700
    values = np.arange(1.0, n_categories + 1.0)
    item = np.r_[np.zeros(600), np.repeat(np.arange(1, 41), 3)].astype(np.int64)
    code = np.r_[rng.permutation(n_categories)[:600], rng.integers(0, n_categories, 120)]
    group = np.r_[0, rng.integers(0, 2, 40)].astype(np.int64)
    weight = np.ones(len(item))
    m = alpha.Pairwise(alpha.ratio_delta2(values))
    out = alpha.alpha_components(item, code, weight, group, 2, n_categories, m, budget=4096)
    for g in range(2):
        items = np.flatnonzero(group == g)
        renumber = np.full(len(group), -1)
        renumber[items] = np.arange(len(items))
        keep = group[item] == g
        out_g = alpha.alpha_components(
            renumber[item[keep]],
            code[keep],
            weight[keep],
            np.zeros(len(items), dtype=np.int64),
            1,
            n_categories,
            m,
            budget=4096,
        )
        for a, b in zip(out, out_g, strict=True):
            close(a[g], b[0])


def test_pairable_values_and_midranks(data: Data) -> None:
    weight = np.ones(len(data.item))
    pv = alpha.pairable_values(
        data.item, data.code, weight, data.group, data.n_groups, N_CATEGORIES
    )
    ranks = alpha.midranks(pv)
    for g in range(data.n_groups):
        alone = data.alone(g)
        pv_g = alpha.pairable_values(
            alone.item, alone.code, np.ones(len(alone.item)), alone.group, 1, N_CATEGORIES
        )
        close(pv.n_items[g], pv_g.n_items[0])
        close(pv.n_values[g], pv_g.n_values[0])
        rows = pv.value_group == g
        close(pv.value_code[rows], pv_g.value_code)
        # Mid-ranks are cumulative value frequencies within the group.
        close(ranks[rows], alpha.midranks(pv_g))
        entries = data.group[pv.item] == g
        close(pv.code[entries], pv_g.code)
        close(pv.total[data.items_of(g)], pv_g.total)
        close(pv.pairable[data.items_of(g)], pv_g.pairable)


def test_alpha_from_disagreement_elementwise() -> None:
    observed = np.array([[0.25, 0.0, 0.3], [np.nan, 0.1, 0.2]])
    expected = np.array([[1.0, 0.0, 0.6], [0.5, np.nan, 0.4]])
    out = alpha.alpha_from_disagreement(observed, expected)
    for idx in np.ndindex(observed.shape):
        close(out[idx], alpha.alpha_from_disagreement(observed[idx], expected[idx]))


@pytest.mark.parametrize(
    "factory",
    [
        lambda: alpha.ratio_delta2(np.array([0.0, 1.0, 2.0, 5.0])),
        lambda: alpha.matrix_delta2(1.0 - quadratic()),
    ],
)
def test_delta2_elementwise(factory: Callable[[], alpha.Delta2]) -> None:
    delta2 = factory()
    a = np.arange(N_CATEGORIES)[:, None]
    b = np.arange(N_CATEGORIES)[None, :]
    table = delta2(a, b)
    for i in range(N_CATEGORIES):
        for j in range(N_CATEGORIES):
            close(table[i, j], delta2(np.array([i]), np.array([j]))[0])
    close(np.diag(table), np.zeros(N_CATEGORIES))


# ----------------------------------------------------------------------------- registry

# Every public kernel and the test above that checks it batch against loop (or why it has
# no batch axis).
COVERED: dict[str, str] = {
    "quantiles.nan_quantiles": "test_nan_quantiles_batch_equals_numpy_column_by_column",
    "jackknife.bias_leave_one_out": "test_jackknife_by_groups_equals_a_loop",
    "jackknife.light_leave_one_out": "test_jackknife_by_groups_equals_a_loop",
    "jackknife.jackknife_variance": "test_jackknife_by_groups_equals_a_loop",
    "leave_one_out.annotator_parts": "test_leave_one_out_batch_equals_loop",
    "rows.row_max": "test_row_reductions_equal_numpy_s",
    "rows.row_sum": "test_row_reductions_equal_numpy_s",
    "rows.first_true": "test_row_reductions_equal_numpy_s",
    "rows.row_all": "test_row_reductions_equal_numpy_s",
    "leave_one_out.others_plurality": "test_leave_one_out_batch_equals_loop",
    "_segment.segment_sum": "test_segment_sum",
    "_segment.times": "test_multiplicities_equal_repeated_items",
    "_typing.as_float": "test_as_float_keeps_shape",
    "sparse.category_entries": "test_sparse_kernels_equal_dense",
    "agreement.pairable_mean": "test_observed_components",
    "sparse.identity_item_agreement": "test_sparse_kernels_equal_dense",
    "sparse.identity_observed": "test_sparse_kernels_equal_dense",
    "sparse.pooled_proportions": "test_sparse_kernels_equal_dense",
    "sparse.identity_conger_expected": "test_sparse_kernels_equal_dense",
    "agreement.chance_corrected": "test_chance_corrected_elementwise",
    "agreement.item_agreement": "test_item_agreement_leading_axes",
    "agreement.observed_components": "test_observed_components",
    "agreement.fleiss_expected": "test_pooled_expected",
    "agreement.gwet_expected": "test_pooled_expected",
    "agreement.rater_proportions": "test_rater_proportions",
    "agreement.conger_expected": "test_conger_expected",
    "agreement.pair_components": "test_pair_components",
    "agreement.pair_margin_components": "test_pair_margin_components",
    "agreement.bennett_expected": "test_bennett_expected_has_no_data_axis",
    "variance.fleiss_item_expected": "test_pooled_item_expected",
    "variance.gwet_item_expected": "test_pooled_item_expected",
    "variance.conger_item_expected": "test_conger_item_expected",
    "variance.linearised_variance": "test_linearised_variance",
    "variance.table_variance": "test_table_variance",
    "variance.fleiss_null_variance": "test_fleiss_null_variance",
    "agreement.weighted_alpha_components": "test_weighted_alpha",
    "agreement.weighted_alpha_sums": "test_weighted_alpha",
    "variance.weighted_alpha_variance": "test_weighted_alpha",
    "spa.spa_item_agreement": "test_spa_item_agreement_leading_axes",
    "spa.pooled_distribution": "test_pooled_distribution",
    "spa.class_moments": "test_class_moments_leading_axes",
    "spa.uniform_moments": "test_uniform_moments_has_no_data_axis",
    "spa.agreement_variance": "test_agreement_variance_elementwise",
    "spa.scheme_weights": "test_scheme_weights_elementwise",
    "spa.spa_components": "test_spa_components",
    "alpha.alpha_components": "test_alpha_components",
    "key_counts.entry_counts": "test_key_counts_of_groups_equal_a_loop_of_unique",
    "key_counts.distinct_keys": "test_key_counts_of_groups_equal_a_loop_of_unique",
    "alpha.item_disagreement": "test_item_disagreement",
    "alpha.pairable_values": "test_pairable_values_and_midranks",
    "alpha.midranks": "test_pairable_values_and_midranks",
    "alpha.alpha_from_disagreement": "test_alpha_from_disagreement_elementwise",
    "alpha.ratio_delta2": "test_delta2_elementwise",
    "alpha.matrix_delta2": "test_delta2_elementwise",
    "alpha_sums.nominal_alpha_components": "test_alpha_sums_equal_alpha_components",
    "alpha_sums.interval_alpha_components": "test_alpha_sums_equal_alpha_components",
    "alpha_sums.interval_alpha_one_group": "test_alpha_sums_equal_alpha_components",
    **{
        f"multilabel.{name}": "test_multilabel_kernels"
        for name in (
            "annotation_pairs",
            "evaluate",
            "item_kappa",
            "one_vs_rest",
            "pair_agreement",
            "pair_components",
            "pair_mean",
            "pair_sums",
        )
    },
    "gold.one_vs_rest_counts": "test_gold_counts_batch_equals_loop",
    "gold.scores": "test_gold_scores_elementwise",
    "gold.nan_mean": "test_gold_scores_elementwise",
    "agreement.fleiss_from_pi": "test_pooled_expected",
    "agreement.gwet_from_pi": "test_pooled_expected",
    "variance.fleiss_null_from_counts": "test_fleiss_null_variance",
    **{
        f"table.{name}": "test_table_kernels_equal_the_item_kernels"
        for name in (
            "alpha_components",
            "cell_agreement",
            "margins",
            "multinomial_tables",
            "observed",
            "pooled",
            "rater_counts",
            "weighted_alpha_components",
        )
    },
}


@pytest.mark.parametrize("weighted", [False, True])
def test_alpha_sums_equal_alpha_components(data: Data, weighted: bool) -> None:
    # The moment-sum kernels give the general kernel's components, batch and alone.
    from pdagree._kernels import alpha_sums

    rng = np.random.default_rng(3)
    weight = rng.integers(1, 4, len(data.item)).astype(float) if weighted else None
    values = np.array([0.5, 2.0, -1.0, 7.25, 3.0])[:N_CATEGORIES]

    def both(item: IntArray, code: IntArray, w: FloatArray, group: IntArray, n_groups: int):
        nik = _counts.item_counts(item, code, w, len(group), N_CATEGORIES)
        pairs = [
            (
                alpha_sums.nominal_alpha_components(nik, group, n_groups),
                alpha.alpha_components(
                    item, code, w, group, n_groups, N_CATEGORIES, alpha.Nominal()
                ),
            ),
            (
                alpha_sums.interval_alpha_components(item, values[code], w, group, n_groups),
                alpha.alpha_components(
                    item, code, w, group, n_groups, N_CATEGORIES, alpha.Interval(values)
                ),
            ),
        ]
        for got, want in pairs:
            for a, b in zip(got, want, strict=True):
                close(a, b)
        return [got for got, _ in pairs]

    w_all = np.ones(len(data.item)) if weight is None else weight
    batch = both(data.item, data.code, w_all, data.group, data.n_groups)
    for g in range(data.n_groups):  # batch equals loop
        alone = data.alone(g)
        keep = data.group[data.item] == g
        w_g = np.ones(len(alone.item)) if weight is None else weight[keep]
        alone_parts = both(alone.item, alone.code, w_g, alone.group, 1)
        for out, out_g in zip(batch, alone_parts, strict=True):
            for a, b in zip(out, out_g, strict=True):
                close(a[g], b[0])
        if weight is None:  # one group, one weight per annotation: the interval sums alone
            one = alpha_sums.interval_alpha_one_group(
                alone.item, values[alone.code], len(alone.group)
            )
            for a, b in zip(one, batch[1], strict=True):
                close(a[0], b[g])


def test_sparse_kernels_equal_dense(data: Data) -> None:
    # The sparse kernels give the dense kernels' identity-weight components, batch and alone.
    from pdagree._kernels import sparse

    weight = np.ones(len(data.item))
    e_item, e_code, e_count = sparse.category_entries(data.item, data.code, weight, N_CATEGORIES)
    dense = np.zeros((data.n_items, N_CATEGORIES))
    dense[e_item, e_code] = e_count
    close(dense, data.nik)
    eye = np.eye(N_CATEGORIES)
    close(
        sparse.identity_item_agreement(e_item, e_count, data.n_items),
        agreement.item_agreement(data.nik, eye),
    )
    observed = sparse.identity_observed(e_item, e_count, data.group, data.n_groups)
    close(observed, agreement.observed_components(data.nik, eye, data.group, data.n_groups))
    g, k, pi = sparse.pooled_proportions(
        e_item, e_code, e_count, data.group, data.n_groups, N_CATEGORIES
    )
    _, pi_dense = agreement.fleiss_expected(data.nik, eye, data.group, data.n_groups)
    table = np.zeros_like(pi_dense)
    table[g, k] = pi
    close(table[pi_dense.sum(axis=1) > 0], np.nan_to_num(pi_dense)[pi_dense.sum(axis=1) > 0])
    a_e, c = sparse.identity_conger_expected(data.nck)
    a_e_dense, _, c_dense = agreement.conger_expected(data.nck, eye)
    close(a_e, a_e_dense)
    close(c, c_dense)
    for group in range(data.n_groups):  # batch equals loop
        alone = data.alone(group)
        ea, _, ec = sparse.category_entries(
            alone.item, alone.code, np.ones(len(alone.item)), N_CATEGORIES
        )
        close(sparse.identity_observed(ea, ec, alone.group, 1)[0][0], observed[0][group])
        close(sparse.identity_conger_expected(alone.nck)[0][0], a_e[group])


def _multilabel_run(data: Data, secondary: IntArray, ps: FloatArray) -> dict[str, Any]:
    """Every multi-label kernel on ``data``, as dense per-group arrays."""
    from pdagree._kernels import multilabel as ml

    r, g, k = data.n_raters, data.n_groups, N_CATEGORIES
    sums = ml.pair_sums(data.group, data.item, data.rater, data.code, secondary, g, r, k)
    observed, expected = ml.pair_components(sums, ps, k)
    shape = (len(ps), g, r * r)
    kappa = agreement.chance_corrected(observed, expected)
    means = ml.pair_mean(kappa.reshape(shape), observed.reshape(shape), expected.reshape(shape))
    pair, label, o_rest, e_rest = ml.one_vs_rest(sums, ps, k)
    rest = np.full((2, len(ps), g * r * r, k), np.nan)
    rest[0][:, pair, label], rest[1][:, pair, label] = o_rest, e_rest
    u, v = ml.annotation_pairs(data.item, data.rater)
    coefficients = ml.pair_agreement(u, v, data.code, secondary)
    agree = ml.evaluate(coefficients, ps)
    pair_uv = (data.group[data.item[u]] * r + data.rater[u]) * r + data.rater[v]
    item_kappa = ml.item_kappa(coefficients, ps, expected, pair_uv, data.item[u], data.n_items)
    # It is the mean of chance_corrected over each item's pairs that have a kappa.
    per_pair = agreement.chance_corrected(agree, expected[:, pair_uv])
    for x in range(0, data.n_items, 7):
        values = per_pair[:, data.item[u] == x]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # items without a pair: nan
            close(item_kappa[:, x], np.nanmean(values, axis=1) if values.size else np.nan)
    return {
        "observed": observed.reshape(shape),
        "expected": expected.reshape(shape),
        "means": np.stack(means[:3]),
        "n_pairs": means[3],
        "rest": rest.reshape(2, len(ps), g, r * r, k),
        "item_kappa": item_kappa,
    }


def test_multilabel_kernels(data: Data) -> None:
    # Rosenberg & Binkowski's kernels: a batch of p equals one p at a time, every group
    # equals that group alone, and the sparse keying equals the dense one.
    from pdagree._kernels import multilabel as ml

    rng = np.random.default_rng(len(data.item))
    shift = rng.integers(1, N_CATEGORIES, size=len(data.code))
    has = rng.random(len(data.code)) < 0.4
    secondary = np.where(has, (data.code + shift) % N_CATEGORIES, -1).astype(np.int64)
    ps = np.array([0.5, 0.8, 1.0])
    batch = _multilabel_run(data, secondary, ps)
    for i, p in enumerate(ps):  # batch over p equals loop
        one = _multilabel_run(data, secondary, p[None])
        for key in ("observed", "expected", "item_kappa", "n_pairs"):
            close(batch[key][i], one[key][0])
        for key in ("means", "rest"):
            close(batch[key][:, i], one[key][:, 0])
    for group in range(data.n_groups):  # batch over groups equals loop
        alone = data.alone(group)
        keep = data.group[data.item] == group
        one = _multilabel_run(alone, secondary[keep], ps)
        for key in ("observed", "expected"):
            close(batch[key][:, group], one[key][:, 0])
        close(batch["means"][:, :, group], one["means"][:, :, 0])
        close(batch["n_pairs"][:, group], one["n_pairs"][:, 0])
        close(batch["rest"][:, :, group], one["rest"][:, :, 0])
        close(batch["item_kappa"][:, data.items_of(group)], one["item_kappa"])
    # Keyed sparsely (many keys) or densely: the same sums.
    args = (data.group, data.item, data.rater, data.code, secondary, data.n_groups)
    dense = ml.pair_sums(*args, data.n_raters, N_CATEGORIES)
    limit, ml.DENSE_KEYS = ml.DENSE_KEYS, 0
    try:
        sparse = ml.pair_sums(*args, data.n_raters, N_CATEGORIES)
    finally:
        ml.DENSE_KEYS = limit
    assert len(sparse.key) < len(dense.key)
    for field in ("agree", "first", "second"):
        close(getattr(dense, field)[:, sparse.key], getattr(sparse, field))
    present = np.zeros(len(dense.key), dtype=bool)
    present[sparse.key] = True
    close(dense.first[:, ~present], 0.0)
    # Annotation pairs: every two annotations of one item, lower rater first.
    u, v = ml.annotation_pairs(data.item, data.rater)
    want = sorted(
        (a, b)
        for a in range(len(data.item))
        for b in range(len(data.item))
        if data.item[a] == data.item[b] and data.rater[a] < data.rater[b]
    )
    assert sorted(zip(u.tolist(), v.tolist(), strict=True)) == want
    # Polynomials in p, evaluated.
    close(ml.evaluate(np.array([[1.0], [2.0], [3.0]]), ps), (1 + 2 * ps + 3 * ps**2)[:, None])


@pytest.mark.parametrize("seed", SEEDS)
def test_leave_one_out_batch_equals_loop(seed: int) -> None:
    """Per (group, rater) key, every group at once equals each group alone; alpha without a
    rater equals alpha recounted on the other raters' annotations; the others' plurality of
    each cell is the brute-force one."""
    from pdagree._kernels import leave_one_out as lo

    data = make(seed)
    r = data.n_raters
    key = data.group[data.item] * r + data.rater
    key_group = np.arange(data.n_groups * r) // r
    every = lo.annotator_parts(
        data.nik, data.item, key, data.code, data.group, key_group, data.n_groups
    )
    lone = np.zeros(r, np.int64)
    for g in range(data.n_groups):
        one = data.alone(g)
        keys = g * r + np.arange(r)
        alone = lo.annotator_parts(one.nik, one.item, one.rater, one.code, one.group, lone, 1)
        close(every.alpha[g], alone.alpha[0])
        for field in ("without", "observed", "vs_rest", "n_vs_rest"):
            close(getattr(every, field)[keys], getattr(alone, field))
        for j in range(r):
            keep = one.rater != j
            rest = Data(
                one.group, one.item[keep], one.rater[keep], one.code[keep], one.n_items, r, 1
            )
            recount = lo.annotator_parts(
                rest.nik, rest.item, rest.rater, rest.code, rest.group, lone, 1
            )
            close(alone.without[j], recount.alpha[0])
    nik = data.nik
    plurality = lo.others_plurality(nik).reshape(nik.shape)
    for i in range(data.n_items):
        for label in range(N_CATEGORIES):
            others = nik[i].copy()
            others[label] -= 1
            best = np.flatnonzero(others == others.max())
            want = best[0] if others.max() > 0 and len(best) == 1 else -1
            if nik[i, label] >= 1:  # cells that hold a value
                assert plurality[i, label] == want, (i, label)


@pytest.mark.parametrize("seed", SEEDS)
def test_row_reductions_equal_numpy_s(seed: int) -> None:
    from pdagree._kernels import rows

    rng = np.random.default_rng(seed)
    for k in (1, 2, 5):
        a = rng.integers(0, 4, (50, k)).astype(np.float64)
        np.testing.assert_array_equal(rows.row_max(a), a.max(axis=1))
        close(rows.row_sum(a), a.sum(axis=1))
        mask = a == a.max(axis=1, keepdims=True)
        mask[::7] = False  # rows with no True: 0, as argmax
        np.testing.assert_array_equal(rows.first_true(mask), mask.argmax(axis=1))
        np.testing.assert_array_equal(rows.row_all(a > 0), (a > 0).all(axis=1))
        np.testing.assert_array_equal(rows.row_all(a[:, :0] > 0), np.ones(len(a), dtype=bool))
        # A batch of rows is each row alone.
        for i in (0, 13, 49):
            assert rows.row_max(a[i : i + 1])[0] == a[i].max()


def test_as_float_keeps_shape() -> None:
    from pdagree._kernels._typing import as_float

    batch = np.arange(12, dtype=np.int64).reshape(2, 3, 2)
    out = as_float(batch)
    assert out.dtype == np.float64 and out.shape == batch.shape
    for g in range(2):
        np.testing.assert_array_equal(out[g], as_float(batch[g]))


@pytest.mark.parametrize("seed", range(6))
def test_key_counts_of_groups_equal_a_loop_of_unique(seed: int) -> None:
    # Keys of several groups laid end to end (group * width + key), dense and sparse ranges:
    # the distinct keys, their summed weights and each key's row equal np.unique group by
    # group.
    rng = np.random.default_rng(seed)
    n_groups, width = int(rng.integers(1, 6)), int(rng.choice([3, 40, 5000]))
    sizes = rng.integers(0, 60, n_groups)
    group = np.repeat(np.arange(n_groups), sizes)
    key = group * width + rng.integers(0, width, len(group))
    weight = rng.random(len(key))
    entries, counts = key_counts.entry_counts(key, weight, n_groups * width)
    distinct, rows = key_counts.distinct_keys(key, n_groups * width)
    want_entries, want_counts, want_rows = [], [], np.empty(len(key), dtype=np.int64)
    for g in range(n_groups):
        mine = np.flatnonzero(group == g)
        keys, inverse = np.unique(key[mine], return_inverse=True)
        want_rows[mine] = inverse.ravel() + sum(len(e) for e in want_entries)
        want_entries.append(keys)
        want_counts.append(np.bincount(inverse.ravel(), weights=weight[mine]))
    assert entries.tolist() == np.concatenate([[], *want_entries]).astype(int).tolist()
    np.testing.assert_allclose(counts, np.concatenate([[], *want_counts]), rtol=1e-12)
    assert distinct.tolist() == entries.tolist()
    assert rows.tolist() == want_rows.tolist()


def public_kernels() -> list[str]:
    names = []
    for info in pkgutil.iter_modules(pdagree._kernels.__path__):
        module = importlib.import_module(f"pdagree._kernels.{info.name}")
        for name in getattr(module, "__all__", []):
            if inspect.isfunction(getattr(module, name)):
                names.append(f"{info.name}.{name}")
    return names


def test_every_kernel_has_a_batch_test() -> None:
    missing = sorted(set(public_kernels()) - set(COVERED))
    assert not missing, f"kernels without a batch-equals-loop test: {missing}"


def test_registry_names_real_tests() -> None:
    here = globals()
    for kernel, test in COVERED.items():
        assert test in here, f"{kernel}: no test named {test}"
    assert set(COVERED) <= set(public_kernels())


# --------------------------------------------------------------------------- gold (against)


@pytest.mark.parametrize("seed", SEEDS)
def test_gold_counts_batch_equals_loop(seed: int) -> None:
    from pdagree._kernels import gold

    rng = np.random.default_rng(seed)
    n_keys, n = 5, 80
    key = rng.integers(0, n_keys, n)
    code = rng.integers(0, N_CATEGORIES, n)
    reference = np.where(rng.random(n) < 0.6, code, rng.integers(0, N_CATEGORIES, n))
    batch = gold.one_vs_rest_counts(key, code, reference, n_keys, N_CATEGORIES)
    for k in range(n_keys):
        mine = key == k
        alone = gold.one_vs_rest_counts(
            np.zeros(int(mine.sum()), dtype=np.int64),
            code[mine],
            reference[mine],
            1,
            N_CATEGORIES,
        )
        for name in ("tp", "pred", "true", "n", "fp", "fn", "tn"):
            close(getattr(batch, name)[k], getattr(alone, name)[0])


@pytest.mark.parametrize("seed", SEEDS)
def test_gold_scores_elementwise(seed: int) -> None:
    from pdagree._kernels import gold

    rng = np.random.default_rng(seed)
    shape = (3, 2, N_CATEGORIES)
    n = rng.integers(0, 6, shape[:2])[..., None] * np.ones(shape)
    true = np.floor(rng.random(shape) * (n + 1))
    pred = np.floor(rng.random(shape) * (n + 1))
    tp = np.minimum(np.floor(rng.random(shape) * (np.minimum(true, pred) + 1)), true)
    tp = np.maximum(tp, true + pred - n)  # TN >= 0
    counts = gold.OneVsRest(tp, pred, true, n)
    batch = gold.scores(counts, beta=0.5)
    keep = rng.random(shape) < 0.8
    for index in np.ndindex(*shape[:2]):
        alone = gold.scores(gold.OneVsRest(tp[index], pred[index], true[index], n[index]), 0.5)
        for name, value in batch.items():
            close(value[index], alone[name])
        close(gold.nan_mean(batch["f1"], keep)[index], gold.nan_mean(alone["f1"], keep[index]))


def _two_rater_items(tables: FloatArray) -> Data:
    """The (G, K, K) tables as items: one per count, rated by rater 0 and rater 1."""
    n_groups, k, _ = tables.shape
    cell = np.repeat(np.arange(tables.size), tables.astype(np.int64).ravel())
    group, first, second = cell // (k * k), cell // k % k, cell % k
    n = len(cell)
    return Data(
        group=group.astype(np.int64),
        item=np.repeat(np.arange(n, dtype=np.int64), 2),
        rater=np.tile(np.array([0, 1], dtype=np.int64), n),
        code=np.column_stack([first, second]).ravel().astype(np.int64),
        n_items=n,
        n_raters=2,
        n_groups=n_groups,
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_table_kernels_equal_the_item_kernels(seed: int, weights: FloatArray) -> None:
    rng = np.random.default_rng(seed)
    tables = rng.integers(0, 4, size=(5, N_CATEGORIES, N_CATEGORIES)).astype(np.float64)
    tables[1] = 0.0  # a group without items
    tables[2, 0, 0] += 6.0  # one that agrees a lot
    items = _two_rater_items(tables)
    sym = (weights + weights.T) / 2.0
    _, rows, cols = table.margins(tables)
    close(table.rater_counts(tables), items.nck)
    close(np.stack([rows, cols], axis=1), items.nck)
    for w in (None, weights):
        got = table.observed(tables, w)
        want = agreement.observed_components(
            items.nik, np.eye(N_CATEGORIES) if w is None else w, items.group, items.n_groups
        )
        close(got[0], want[0])
        close(got[1], want[1])
    _, pi = agreement.fleiss_expected(items.nik, weights, items.group, items.n_groups)
    close(table.pooled(tables), pi)
    got_alpha = table.weighted_alpha_components(tables, sym)
    want_alpha = agreement.weighted_alpha_components(items.nik, sym, items.group, items.n_groups)
    for a, b in zip(got_alpha, want_alpha, strict=True):
        close(a, b)
    values = np.array([1.0, 2.0, 4.0, 8.0])
    metrics = {
        "nominal": alpha.Nominal(),
        "ordinal": alpha.Ordinal(),
        "interval": alpha.Interval(values),
        "ratio": alpha.Pairwise(alpha.ratio_delta2(values), values),
        "matrix": alpha.Pairwise(alpha.matrix_delta2(1.0 - sym)),
    }
    for metric in metrics.values():
        got_d = table.alpha_components(tables, metric)
        want_d = alpha.alpha_components(
            items.item,
            items.code,
            np.ones(len(items.item)),
            items.group,
            items.n_groups,
            N_CATEGORIES,
            metric,
        )
        for a, b in zip(got_d, want_d, strict=True):
            close(a, b)
    # Batched over tables equals one table at a time.
    for g in range(len(tables)):
        one = tables[g : g + 1]
        close(table.margins(one)[1], rows[g : g + 1])
        close(table.observed(one, weights)[0], table.observed(tables, weights)[0][g : g + 1])
        close(table.pooled(one), table.pooled(tables)[g : g + 1])
        for metric in metrics.values():
            for a, b in zip(
                table.alpha_components(one, metric),
                table.alpha_components(tables, metric),
                strict=True,
            ):
                close(a, b[g : g + 1])
        for a, b in zip(table.weighted_alpha_components(one, sym), got_alpha, strict=True):
            close(a, b[g : g + 1])
    # An item of cell (k, l) agrees w_kl for symmetric weights with a unit diagonal.
    close(table.cell_agreement(sym, N_CATEGORIES), sym)
    close(table.cell_agreement(None, N_CATEGORIES), np.eye(N_CATEGORIES))
    # Resampled tables keep the total, and the cells' shares on average.
    count = tables[0].ravel()
    drawn = table.multinomial_tables(count, 4000, np.random.default_rng(seed))
    assert drawn.shape == (4000, count.size)
    assert (drawn.sum(axis=1) == count.sum()).all()
    assert (drawn[:, count == 0] == 0).all()
    np.testing.assert_allclose(drawn.mean(axis=0), count, atol=0.25)


# --------------------------------------------------------------------------- quantiles


@pytest.mark.parametrize("seed", SEEDS)
def test_nan_quantiles_batch_equals_numpy_column_by_column(seed: int) -> None:
    # The bootstrap's percentile intervals of every by= group at once: each column equals
    # np.nanquantile of that column alone, to the last bit (NumPy's linear method), nan for
    # a column with no value; ties, one value, infinities and columns of nan included.
    from pdagree._kernels.quantiles import nan_quantiles

    rng = np.random.default_rng(seed)
    for _ in range(20):
        shape = (int(rng.integers(1, 30)), int(rng.integers(1, 7)), int(rng.integers(1, 4)))
        x = rng.normal(size=shape)
        if rng.random() < 0.5:
            x = np.round(x, 1)  # ties
        x[rng.random(shape) < rng.random()] = np.nan
        x[:, 0, 0] = np.nan  # a column with no value
        if shape[0] > 1:
            x[0, -1, -1] = np.inf
        q = np.r_[rng.random(3), 0.0, 1.0, 0.025, 0.975]
        batch = nan_quantiles(x, q)
        assert batch.shape == (len(q), *shape[1:])
        for j in range(shape[1]):
            for k in range(shape[2]):
                column = x[:, j, k]
                if np.isnan(column).all():
                    assert np.isnan(batch[:, j, k]).all()
                    continue
                with np.errstate(invalid="ignore"):  # NumPy's inf - inf on the column
                    want = np.nanquantile(column, q)
                np.testing.assert_array_equal(batch[:, j, k], want)
