"""Sparse Probability of Agreement: `Ratings.spa`, `Ratings.spa_items`, `spa_variance`.

Reference: Nørregaard & Derczynski (2023), Sparse Probability of Agreement, with the
corrections of its printed formulas documented in docs/coefficients/spa.md. Every closed form is
checked against exact enumeration of all label sequences in ``fractions.Fraction``, and
against the paper's appendix sums (eq. 41 and 50) as corrected there.
"""

from __future__ import annotations

import functools
import itertools
import math
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import pdagree
from pdagree import UndefinedStatisticWarning, spa_variance
from pdagree._kernels import spa as kernel
from pdagree.spa import WEIGHTINGS

N_ONLY = ("flat", "annotations", "annotations_m1", "edges", "inv_var")

# --------------------------------------------------------------------------- exact references


@functools.cache
def brute_moments(n: int, weights: tuple[int, ...]) -> tuple[Fraction, Fraction]:
    """E[P] and Var[P] for ``n`` labels i.i.d. with P(k) = weights[k] / sum(weights).

    Enumerates all C^n label sequences; integer arithmetic, exact.
    """
    c = len(weights)
    seqs = np.indices((c,) * n, dtype=np.int64).reshape(n, -1).T
    counts = (seqs[:, :, None] == np.arange(c)).sum(axis=1)
    agreeing = (counts * (counts - 1)).sum(axis=1)  # sum_k n_k (n_k - 1), an integer
    prob = np.prod(np.asarray(weights, dtype=np.int64)[seqs], axis=1)  # times sum(w)^n
    scale = sum(weights) ** n
    pairs = n * (n - 1)
    mean = Fraction(int((prob * agreeing).sum()), scale * pairs)
    second = Fraction(int((prob * agreeing**2).sum()), scale * pairs * pairs)
    return mean, second - mean * mean


def closed_form(n: int, p: list[Fraction]) -> Fraction:
    """The spec's closed form, in exact arithmetic."""
    theta = sum(x * x for x in p)
    zeta1 = sum(x**3 for x in p) - theta * theta
    zeta2 = theta * (1 - theta)
    return Fraction(2, n * (n - 1)) * (2 * (n - 2) * zeta1 + zeta2)


def paper_eq41(n: int, c: int, *, printed: bool = False) -> Fraction:
    """Appendix eq. 41 (uniform labels): the O(n^2) sums over category counts.

    ``printed=True`` puts ``2^[n0 = n1]`` inside K_csp as main-text eq. 20/21 print it
    (erratum 1 of the spec); the default is the appendix's ``2^[n0 != n1]``.
    """
    pairs_half = Fraction(n * (n - 1), 2)

    def k_csp(n0: int, n1: int) -> int:
        return math.comb(n, n0) * math.comb(n - n0, n1) * c * (c - 1) * (c - 2) ** (n - n0 - n1)

    def k_sps(nc: int) -> int:
        return math.comb(n, nc) * c * (c - 1) ** (n - nc)

    cross = sum(
        2 ** ((n0 == n1) if printed else (n0 != n1))
        * k_csp(n0, n1)
        * n0
        * n1
        * (n0 - 1)
        * (n1 - 1)
        for n0 in range(n + 1)
        for n1 in range(min(n0, n - n0) + 1)
    )
    self_pairs = sum(k_sps(nc) * nc**2 * (nc - 1) ** 2 for nc in range(n + 1))
    expected = Fraction(1, c)
    return (cross + self_pairs) / (4 * pairs_half**2 * c**n) - expected**2


def paper_eq50(n: int, p: list[Fraction]) -> Fraction:
    """Appendix eq. 50 (labels from p), with its 1/N^2 factor and E[P] = sum_k p_k^2."""
    pairs_half = Fraction(n * (n - 1), 2)
    cross = Fraction(0)
    for a, b in itertools.permutations(range(len(p)), 2):
        rest = 1 - p[a] - p[b]
        for na in range(n + 1):
            for nb in range(n - na + 1):
                prob = (
                    math.comb(n, na)
                    * math.comb(n - na, nb)
                    * p[a] ** na
                    * p[b] ** nb
                    * rest ** (n - na - nb)
                )
                cross += prob * na * nb * (na - 1) * (nb - 1)
    self_pairs = Fraction(0)
    for x in p:
        for nc in range(n + 1):
            prob = math.comb(n, nc) * x**nc * (1 - x) ** (n - nc)
            self_pairs += prob * nc**2 * (nc - 1) ** 2
    theta = sum(x * x for x in p)
    return (cross + self_pairs) / (4 * pairs_half**2) - theta**2


def exact_spa(
    items: list[list[str]], weight: str, p: dict[str, Fraction] | None = None
) -> Fraction:
    """SPA in exact arithmetic from lists of labels per item (a test-only reference)."""
    cats = sorted({x for labels in items for x in labels} | set(p or {}))
    num = den = Fraction(0)
    for labels in items:
        n = len(labels)
        if n < 2:
            continue
        agree = Fraction(sum(labels.count(c) * (labels.count(c) - 1) for c in cats), n * (n - 1))
        if weight == "flat":
            k = Fraction(1)
        elif weight == "annotations":
            k = Fraction(n)
        elif weight == "annotations_m1":
            k = Fraction(n - 1)
        elif weight == "edges":
            k = Fraction(n * (n - 1), 2)
        elif weight == "inv_var":
            k = 1 / closed_form(n, [Fraction(1, len(cats))] * len(cats))
        else:
            assert p is not None
            k = 1 / closed_form(n, list(p.values()))
        num += k * agree
        den += k
    return num / den


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


# --------------------------------------------------------------------------- variance


@pytest.mark.parametrize("c", [2, 3, 4, 5])
@pytest.mark.parametrize("n", range(2, 9))
def test_uniform_variance_matches_enumeration(n: int, c: int) -> None:
    mean, var = brute_moments(n, (1,) * c)
    assert mean == Fraction(1, c)  # E[P] = sum_k p_k^2
    assert closed_form(n, [Fraction(1, c)] * c) == var
    assert var == Fraction(2 * (c - 1), c * c * n * (n - 1))
    assert paper_eq41(n, c) == var
    assert math.isclose(spa_variance(n, categories=c), float(var), rel_tol=1e-14)


@pytest.mark.parametrize("weights", [(3, 2, 1), (1, 2, 3, 4), (1, 1, 0)])
@pytest.mark.parametrize("n", range(2, 9))
def test_class_variance_matches_enumeration(n: int, weights: tuple[int, ...]) -> None:
    p = [Fraction(w, sum(weights)) for w in weights]
    mean, var = brute_moments(n, weights)
    assert mean == sum(x * x for x in p)
    assert closed_form(n, p) == var
    assert paper_eq50(n, p) == var
    got = spa_variance(n, p=[float(x) for x in p])
    assert math.isclose(got, float(var), rel_tol=1e-14)


@pytest.mark.parametrize("n", [9, 12, 20])
def test_closed_form_matches_corrected_sums_beyond_enumeration(n: int) -> None:
    for c in (2, 3, 6):
        assert paper_eq41(n, c) == closed_form(n, [Fraction(1, c)] * c)
    p = [Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)]
    assert paper_eq50(n, p) == closed_form(n, p)


def test_printed_eq20_is_wrong() -> None:
    # Erratum 1: with 2^[n0 = n1] inside K_csp the variance is wrong from n = 4 on ...
    for c in (2, 3, 4, 5):
        assert paper_eq41(4, c, printed=True) != brute_moments(4, (1,) * c)[1]
        assert paper_eq41(3, c, printed=True) == brute_moments(3, (1,) * c)[1]
    # ... and even negative.
    assert paper_eq41(7, 2, printed=True) < 0


def test_spa_variance_vectorised() -> None:
    n = np.arange(-1, 12)
    got = spa_variance(n, categories=3)
    assert isinstance(got, np.ndarray) and got.shape == n.shape
    assert np.isnan(got[n < 2]).all()
    expected = [float(closed_form(int(k), [Fraction(1, 3)] * 3)) for k in n[n >= 2]]
    np.testing.assert_allclose(got[n >= 2], expected, rtol=1e-14)
    grid = spa_variance(np.array([[2, 3], [4, 1]]), p={"a": 0.25, "b": 0.75})
    assert grid.shape == (2, 2) and np.isnan(grid[1, 1])
    assert isinstance(spa_variance(1, categories=2), float)
    assert math.isnan(spa_variance(1, categories=2))
    series = spa_variance(pd.Series([2, 3], index=["x", "y"]), categories=["a", "b"])
    assert list(series.index) == ["x", "y"]
    assert series["x"] == pytest.approx(0.25, rel=1e-15)
    # one category: no variance at all
    assert spa_variance(5, categories=1) == 0.0


def test_inv_var_is_proportional_to_edges() -> None:
    # The spec's proof: Var_C[P | n] = 2 (C - 1) / (C^2 n (n - 1)), so 1/Var is prop. to edges.
    n = np.arange(2, 40, dtype=float)
    for c in range(2, 9):
        ratio = (n * (n - 1) / 2) * spa_variance(n, categories=c)
        np.testing.assert_allclose(ratio, ratio[0], rtol=1e-13)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({}, TypeError, r"exactly one of `categories` .* got neither"),
        ({"categories": 2, "p": [0.5, 0.5]}, TypeError, r"exactly one .* got both"),
        ({"categories": 0}, ValueError, r"`categories` must be at least 1; got 0"),
        ({"categories": True}, TypeError, r"`categories` must be a number .* got True"),
        ({"categories": "ab"}, TypeError, r"got the string 'ab'\. Pass categories=2"),
        ({"categories": ["a", "a"]}, ValueError, r"must not repeat a category; got \['a'\]"),
        ({"categories": 2.5}, TypeError, r"`categories` must be a number .* got float"),
        ({"p": [0.5, 0.6]}, ValueError, r"`p` must sum to 1; .* sum to 1\.1.*p / p\.sum\(\)"),
        ({"p": [1.5, -0.5]}, ValueError, r"`p` must not be negative; got \[-0\.5\]"),
        ({"p": [0.5, np.nan]}, ValueError, r"`p` must hold finite probabilities; got \[nan\]"),
        ({"p": []}, ValueError, r"`p` must be a non-empty 1-d"),
        ({"p": ["a", "b"]}, TypeError, r"`p` must hold probabilities \(numbers\)"),
    ],
)
def test_spa_variance_errors(kwargs: dict[str, object], error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        spa_variance(3, **kwargs)  # type: ignore[arg-type]


def test_spa_variance_rejects_fractional_n() -> None:
    with pytest.raises(ValueError, match=r"`n` must hold whole numbers of labels; got \[2\.5\]"):
        spa_variance([2, 2.5], categories=2)
    with pytest.raises(TypeError, match=r"`n` must be a number of labels"):
        spa_variance("three", categories=2)


# --------------------------------------------------------------------------- kernel


@pytest.mark.parametrize(
    ("weight", "expected"),
    [
        ("flat", [0, 0, 1, 1, 1, 1]),
        ("annotations", [0, 0, 2, 3, 4, 5]),
        ("annotations_m1", [0, 0, 1, 2, 3, 4]),
        ("edges", [0, 0, 1, 3, 6, 10]),
        # 1 / (2 (C - 1) / (C^2 n (n - 1))) with C = 2: 2 n (n - 1)
        ("inv_var", [0, 0, 4, 12, 24, 40]),
    ],
)
def test_scheme_weights_by_hand(weight: str, expected: list[float]) -> None:
    counts = pd.DataFrame({"x": [0, 1, 1, 2, 2, 3], "y": [0, 0, 1, 1, 2, 2]})
    items = counts.agree(layout="counts").spa_items(weight)
    assert items["n_labels"].tolist() == [0, 1, 2, 3, 4, 5]
    np.testing.assert_allclose(items["weight"], expected, rtol=1e-14)
    # inv_var_class with p = (1/4, 3/4): theta = 5/8, zeta1 = 7/16 - 25/64 = 3/64,
    # zeta2 = 15/64, Var = 2 / (n (n - 1)) (2 (n - 2) 3/64 + 15/64)
    p = pd.Series({"x": 0.25, "y": 0.75})
    n = np.arange(2, 6)
    var = 2 / (n * (n - 1)) * (2 * (n - 2) * 3 / 64 + 15 / 64)
    got = counts.agree(layout="counts").spa_items("inv_var_class", p=p)["weight"]
    np.testing.assert_allclose(got, [0, 0, *(1 / var)], rtol=1e-14)


def test_kernel_components_by_hand() -> None:
    nik = np.array([[2.0, 1.0], [1.0, 0.0], [2.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
    group = np.array([0, 0, 0, 1, 1])
    k = kernel.scheme_weights(nik.sum(axis=1), "edges", np.zeros(1), np.zeros(1))
    np.testing.assert_array_equal(k, [3.0, 0.0, 1.0, 1.0, 0.0])
    value, total, n_counting, n_ignored = kernel.spa_components(nik, k, group, 2)
    np.testing.assert_allclose(value, [(3 * (1 / 3) + 1) / 4, 0.0])
    np.testing.assert_array_equal(total, [4.0, 1.0])
    np.testing.assert_array_equal(n_counting, [2.0, 1.0])
    np.testing.assert_array_equal(n_ignored, [1.0, 1.0])
    # weights of items that do not count are ignored, whatever they are
    odd = np.array([3.0, np.inf, 1.0, 1.0, -7.0])
    np.testing.assert_array_equal(kernel.spa_components(nik, odd, group, 2)[0], value)
    # a group whose weights sum to 0 is undefined
    empty = kernel.spa_components(nik, np.zeros(5), group, 2)
    assert np.isnan(empty[0]).all()


def test_kernel_batch_equals_loop() -> None:
    rng = np.random.default_rng(7)
    nik = rng.integers(0, 4, size=(60, 3)).astype(float)
    group = rng.integers(0, 5, size=60)
    k = rng.random(60)
    value, total, n_counting, n_ignored = kernel.spa_components(nik, k, group, 5)
    for g in range(5):
        sel = group == g
        one = kernel.spa_components(nik[sel], k[sel], np.zeros(sel.sum(), dtype=np.int64), 1)
        np.testing.assert_allclose(
            [value[g], total[g], n_counting[g], n_ignored[g]], np.ravel(one)
        )


def test_degenerate_distribution_gives_equal_weights() -> None:
    n = np.array([1.0, 2.0, 5.0])
    z1, z2 = kernel.class_moments(np.array([0.0, 1.0, 0.0]))
    assert z1 == 0.0 and z2 == 0.0
    np.testing.assert_array_equal(kernel.scheme_weights(n, "inv_var_class", z1, z2), [0, 1, 1])


# --------------------------------------------------------------------------- unbiasedness

COMPLETE = [["x", "x", "y", "z"], ["x", "x", "x", "y"], ["y", "y", "y", "y"]]  # 3 items x 4 raters
FIXED_P = {"x": Fraction(1, 2), "y": Fraction(3, 10), "z": Fraction(1, 5)}


def _deletions(r: int) -> list[list[list[str]]]:
    cells = [(i, j) for i in range(3) for j in range(4)]
    out = []
    for deleted in itertools.combinations(cells, r):
        gone = set(deleted)
        out.append([[COMPLETE[i][j] for j in range(4) if (i, j) not in gone] for i in range(3)])
    return out


@pytest.mark.parametrize("r", [1, 2, 3])
@pytest.mark.parametrize("weight", [*N_ONLY, "inv_var_class"])
def test_unbiased_over_every_deletion_exact(r: int, weight: str) -> None:
    """E[SPA] over every set of r deleted cells (each counted once) is the complete P-bar."""
    complete = exact_spa(COMPLETE, "flat")
    assert complete == Fraction(5, 9)
    p = FIXED_P if weight == "inv_var_class" else None
    values = [exact_spa(items, weight, p) for items in _deletions(r)]
    assert len(values) == math.comb(12, r)
    assert sum(values) / len(values) == complete


def _deletion_frame(r: int) -> pd.DataFrame:
    rows = []
    for s, deleted in enumerate(itertools.combinations(range(12), r)):
        for cell in range(12):
            if cell not in deleted:
                i, j = divmod(cell, 4)
                rows.append((s, f"item{i}", f"rater{j}", COMPLETE[i][j]))
    return pd.DataFrame(rows, columns=["subset", "item", "rater", "label"])


@pytest.mark.parametrize("r", [1, 2, 3])
def test_unbiased_over_every_deletion_api(r: int) -> None:
    """The same through the public API: one `by=` call over all deletion patterns."""
    frame = _deletion_frame(r)
    ratings = frame.agree(item="item", rater="rater", label="label", by="subset")
    complete = pd.DataFrame(COMPLETE).agree.observed()
    assert close(float(complete), 5 / 9)
    patterns = _deletions(r)
    p = pd.Series({k: float(v) for k, v in FIXED_P.items()})
    for weight in [*N_ONLY, "inv_var_class"]:
        result = ratings.spa(weight, p=p) if weight == "inv_var_class" else ratings.spa(weight)
        assert len(result) == math.comb(12, r)
        assert abs(result["value"].mean() - 5 / 9) < 1e-13
        # and every single pattern agrees with the exact reference
        ref = [float(exact_spa(items, weight, FIXED_P)) for items in patterns]
        np.testing.assert_allclose(result["value"].to_numpy(), ref, rtol=1e-12)


def test_estimated_p_is_slightly_biased() -> None:
    """The docstring's caveat: `p` estimated from the same data breaks exact unbiasedness."""
    ratings = _deletion_frame(3).agree(item="item", rater="rater", label="label", by="subset")
    bias = ratings.spa("inv_var_class")["value"].mean() - 5 / 9
    assert 1e-6 < abs(bias) < 1e-2


# --------------------------------------------------------------------------- identities

LABELS = ["a", "b", "c"]


@st.composite
def sparse_wide(draw: st.DrawFn, min_items: int = 1) -> pd.DataFrame:
    n_items = draw(st.integers(min_items, 8))
    n_raters = draw(st.integers(2, 5))
    cell = st.sampled_from([*LABELS, None])
    rows = draw(
        st.lists(
            st.lists(cell, min_size=n_raters, max_size=n_raters),
            min_size=n_items,
            max_size=n_items,
        )
    )
    frame = pd.DataFrame(
        rows,
        columns=[f"r{j}" for j in range(n_raters)],
        index=pd.Index([f"i{k}" for k in range(n_items)], name="item"),
    )
    counts = frame.notna().sum(axis=1)
    assume((counts >= 2).any())
    return frame


def to_long(wide: pd.DataFrame) -> pd.DataFrame:
    long = wide.reset_index().melt(id_vars="item", var_name="coder", value_name="tag")
    return long.dropna(subset=["tag"])


def to_counts(wide: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({c: (wide == c).sum(axis=1) for c in LABELS}, index=wide.index)


def coincidence_observed_agreement(nik: np.ndarray) -> float:
    """1 - D_o of nominal alpha from the coincidence matrix (Krippendorff 2011)."""
    n_i = nik.sum(axis=1)
    pairable = n_i >= 2
    nik = nik[pairable]
    n_i = n_i[pairable]
    o = np.einsum("ik,il->kl", nik, nik / (n_i - 1.0)[:, None])
    o -= np.diag((nik / (n_i - 1.0)[:, None]).sum(axis=0))  # o_kk = sum n_ik(n_ik-1)/(n_i-1)
    total = n_i.sum()
    d_o = (o.sum() - np.trace(o)) / total
    return 1.0 - d_o


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(sparse_wide())
def test_flat_is_observed_agreement(wide: pd.DataFrame) -> None:
    ratings = wide.agree()
    assert close(float(ratings.spa("flat")), float(ratings.observed()))
    assert ratings.spa("flat").n_items == ratings.observed().n_items


def test_flat_is_fleiss_p_bar_on_complete_data() -> None:
    fleiss = pdagree.datasets.load("fleiss1971")
    ratings = fleiss.agree(layout="counts") if "Depression" in fleiss.columns else fleiss.agree()
    result = ratings.spa("flat")
    assert close(float(result), ratings.fleiss().observed)
    assert close(float(result), float(ratings.observed()))
    assert result.n_ignored == 0


@SETTINGS
@given(sparse_wide())
def test_annotations_is_one_minus_krippendorff_do(wide: pd.DataFrame) -> None:
    ratings = wide.agree()
    nik = ratings.counts().to_numpy(dtype=float)
    got = float(ratings.spa("annotations"))
    assert close(got, coincidence_observed_agreement(nik))
    krippendorff = pytest.importorskip("krippendorff")
    o = krippendorff.krippendorff._coincidences(nik.astype(np.int64))
    assert close(got, float(np.trace(o) / o.sum()))


@SETTINGS
@given(sparse_wide(), st.lists(st.sampled_from(["q", "r"]), max_size=2, unique=True))
def test_inv_var_equals_edges(wide: pd.DataFrame, unused: list[str]) -> None:
    ratings = wide.agree(categories=[*LABELS, *unused])
    edges = float(ratings.spa("edges"))
    assert close(float(ratings.spa("inv_var")), edges)
    uniform = pd.Series(1.0 / len(ratings.categories), index=ratings.categories)
    assert close(float(ratings.spa("inv_var_class", p=uniform)), edges)


@SETTINGS
@given(sparse_wide(), st.randoms(use_true_random=False))
def test_invariances(wide: pd.DataFrame, random: object) -> None:
    rows = list(wide.index)
    random.shuffle(rows)  # type: ignore[attr-defined]
    renamed = wide.replace({"a": "zz", "b": "aa", "c": "mm"})
    padded = wide.assign(nobody=pd.Series([None] * len(wide), index=wide.index, dtype=object))
    p = pd.Series({"a": 0.2, "b": 0.3, "c": 0.5})
    p_renamed = p.rename({"a": "zz", "b": "aa", "c": "mm"})
    for weight in WEIGHTINGS:
        base = wide.agree.spa(weight)
        for other in (
            wide.loc[rows].agree.spa(weight),
            renamed.agree.spa(weight),
            padded.agree.spa(weight),
        ):
            assert close(float(other), float(base))
            assert other.n_items == base.n_items and other.n_ignored == base.n_ignored
    assert close(
        float(wide.agree.spa("inv_var_class", p=p)),
        float(renamed.agree.spa("inv_var_class", p=p_renamed)),
    )


@SETTINGS
@given(sparse_wide())
def test_wide_long_counts_agree(wide: pd.DataFrame) -> None:
    long = to_long(wide)
    counts = to_counts(wide)
    for weight in WEIGHTINGS:
        a = wide.agree.spa(weight)
        b = long.agree(item="item", rater="coder", label="tag").spa(weight)
        c = counts.agree(layout="counts").spa(weight)
        assert close(float(a), float(b)) and close(float(a), float(c))
        assert a.n_items == b.n_items == c.n_items
        assert a.n_ignored == c.n_ignored  # a long frame has no rows for unlabelled items
        assert a.weighting == b.weighting == c.weighting == weight
    # per-item weights by label work on every layout
    w = pd.Series(np.arange(1.0, len(wide) + 1), index=wide.index)
    a = wide.agree.spa(w)
    b = long.agree(item="item", rater="coder", label="tag").spa(w)
    c = counts.agree(layout="counts").spa(w.to_numpy())
    assert close(float(a), float(b)) and close(float(a), float(c))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sparse_wide(min_items=2), st.data())
def test_by_equals_loop(wide: pd.DataFrame, data: st.DataObject) -> None:
    groups = data.draw(
        st.lists(st.sampled_from(["g1", "g2", "g3"]), min_size=len(wide), max_size=len(wide))
    )
    framed = wide.assign(grp=groups)
    weights = pd.Series(np.linspace(0.5, 3.0, len(wide)), index=wide.index)
    for layout in ("wide", "long", "counts"):
        if layout == "wide":
            whole = framed.agree(by="grp")
        elif layout == "long":
            whole = (
                to_long(wide)
                .assign(grp=lambda d: d["item"].map(dict(zip(wide.index, groups, strict=True))))
                .agree(item="item", rater="coder", label="tag", by="grp")
            )
        else:
            whole = to_counts(wide).assign(grp=groups).agree(layout="counts", by="grp")
        for weight in [*WEIGHTINGS, weights]:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UndefinedStatisticWarning)
                table = whole.spa(weight)
            for key in table.index:
                sub = framed[framed["grp"] == key].drop(columns="grp")
                if int(sub.notna().any().sum()) < 2:
                    # Alone, a one-rater frame is a ValueError; as a group, no item has two
                    # labels.
                    assert math.isnan(table.loc[key, "value"])
                    continue
                sub_w = weights[sub.index] if isinstance(weight, pd.Series) else weight
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", UndefinedStatisticWarning)
                    one = sub.agree().spa(sub_w)
                got = table.loc[key]
                if math.isnan(float(one)):
                    assert math.isnan(got["value"])
                else:
                    assert close(got["value"], float(one))
                assert got["n_items"] == one.n_items
                assert got["observed"] == got["value"] or math.isnan(got["value"])
                assert got["expected"] == 0.0


@SETTINGS
@given(sparse_wide())
def test_frame_unchanged(wide: pd.DataFrame) -> None:
    before = wide.copy()
    long = to_long(wide)
    long_before = long.copy()
    w = pd.Series(1.0, index=wide.index)
    p = pd.Series({"a": 0.2, "b": 0.3, "c": 0.5})
    p_before = p.copy()
    for weight in [*WEIGHTINGS, w]:
        wide.agree.spa(weight)
        wide.agree.spa_items(weight)
        long.agree(item="item", rater="coder", label="tag").spa(weight)
    wide.agree.spa("inv_var_class", p=p)
    pd.testing.assert_frame_equal(wide, before)
    pd.testing.assert_frame_equal(long, long_before)
    pd.testing.assert_series_equal(p, p_before)


@SETTINGS
@given(sparse_wide())
def test_spa_items_reproduces_spa(wide: pd.DataFrame) -> None:
    ratings = wide.agree()
    for weight in WEIGHTINGS:
        items = ratings.spa_items(weight)
        assert list(items.columns) == ["n_labels", "agreement", "weight"]
        assert items.index.equals(ratings.items().index)
        counts = items["n_labels"] >= 2
        assert (items.loc[~counts, "weight"] == 0).all()
        assert items.loc[~counts, "agreement"].isna().all()
        np.testing.assert_array_equal(items["n_labels"], ratings.items()["n_ratings"])
        value = (items["agreement"].fillna(0) * items["weight"]).sum() / items["weight"].sum()
        assert close(value, float(ratings.spa(weight)))
        # feeding the weights back gives the same SPA
        again = ratings.spa(items["weight"])
        assert close(float(again), float(ratings.spa(weight)))
        assert again.weighting == "custom"


# --------------------------------------------------------------------------- behaviour


@pytest.fixture
def crowd() -> pd.DataFrame:
    return pdagree.datasets.load("crowd_sparse")


def test_result_members(crowd: pd.DataFrame) -> None:
    ratings = crowd.agree(item="item", rater="annotator", label="label")
    items = ratings.spa_items("annotations_m1")
    result = ratings.spa("annotations_m1")
    assert result.name == "spa"
    assert result.weighting == "annotations_m1"
    assert result.value == result.observed and result.expected == 0.0
    assert result.n_items == int((items["n_labels"] >= 2).sum())
    assert result.n_ignored == int((items["n_labels"] < 2).sum()) > 0
    assert result.sum_weights == items["weight"].sum()
    assert result.n_categories == 3 and result.categories == ("neg", "neu", "pos")
    row = result.to_frame()
    assert row.loc["spa", "weighting"] == "annotations_m1"
    assert row.loc["spa", "n_ignored"] == result.n_ignored
    # The default is the paper's recommendation (issue 8, point 13).
    assert ratings.spa().weighting == "annotations_m1"
    assert ratings.spa(None).weighting == "annotations_m1"
    assert ratings.spa_items().equals(ratings.spa_items("annotations_m1"))
    assert float(ratings.spa()) == float(ratings.spa("annotations_m1"))


def test_inv_var_class_default_p_is_pooled_over_all_labels(crowd: pd.DataFrame) -> None:
    ratings = crowd.agree(item="item", rater="annotator", label="label")
    result = ratings.spa("inv_var_class")
    pooled = crowd["label"].value_counts(normalize=True).reindex(ratings.categories)
    np.testing.assert_allclose(result.p.to_numpy(), pooled.to_numpy(), rtol=1e-14)
    explicit = ratings.spa("inv_var_class", p=pooled)
    assert float(explicit) == float(result)
    assert ratings.spa("inv_var_class", p=pooled.to_dict()) == explicit
    # by=: pooled per group
    by = crowd.agree(item="item", rater="annotator", label="label", by="batch")
    table = by.spa("inv_var_class")
    for batch, sub in crowd.groupby("batch"):
        one = sub.agree(item="item", rater="annotator", label="label").spa("inv_var_class")
        assert close(table.loc[batch, "value"], float(one))
    assert (table["weighting"] == "inv_var_class").all()
    assert list(table.columns[-3:]) == ["n_ignored", "sum_weights", "weighting"]


def test_inv_var_class_weights_follow_spa_variance(crowd: pd.DataFrame) -> None:
    ratings = crowd.agree(item="item", rater="annotator", label="label")
    p = pd.Series({"neg": 0.6, "neu": 0.3, "pos": 0.1})
    items = ratings.spa_items("inv_var_class", p=p)
    counts = items["n_labels"] >= 2
    expected = 1.0 / spa_variance(items.loc[counts, "n_labels"].to_numpy(), p=p.to_numpy())
    np.testing.assert_allclose(items.loc[counts, "weight"], expected, rtol=1e-13)
    # p may name categories the data do not use
    wider = pd.Series({"neg": 0.5, "neu": 0.3, "pos": 0.1, "other": 0.1})
    assert np.isfinite(float(ratings.spa("inv_var_class", p=wider)))


def test_one_category_everywhere_gives_equal_weights() -> None:
    wide = pd.DataFrame({"a": ["x", "x", "x"], "b": ["x", "x", None], "c": ["x", None, None]})
    items = wide.agree.spa_items("inv_var_class")
    assert items["weight"].tolist() == [1.0, 1.0, 0.0]
    assert float(wide.agree.spa("inv_var_class")) == 1.0
    assert float(wide.agree(categories=["x"]).spa("inv_var")) == 1.0


def test_per_item_weights_alignment() -> None:
    wide = pd.DataFrame(
        {"a": ["x", "y", "x", "y"], "b": ["x", "y", None, "x"], "c": ["y", "y", None, None]},
        index=pd.Index(["d1", "d2", "d3", "d4"], name="doc"),
    )
    # P = 1/3, 1, -, 0
    by_array = wide.agree.spa([1.0, 2.0, 99.0, 1.0])
    assert close(float(by_array), (1 / 3 + 2) / 4)
    shuffled = pd.Series({"d4": 1.0, "d2": 2.0, "d1": 1.0})  # d3 has one label: may be absent
    assert close(float(wide.agree.spa(shuffled)), float(by_array))
    assert wide.agree.spa({"d1": 1.0, "d2": 2.0, "d4": 1.0}) == by_array
    # a weight on an item with fewer than two labels is ignored, even a negative one
    assert wide.agree.spa([1.0, 2.0, -5.0, 1.0]) == by_array
    assert wide.agree.spa(np.array([1.0, 2.0, np.nan, 1.0])) == by_array
    # zero weights are allowed
    assert float(wide.agree.spa([0.0, 1.0, 0.0, 0.0])) == 1.0


def test_per_item_weights_with_by(crowd: pd.DataFrame) -> None:
    ratings = crowd.agree(item="item", rater="annotator", label="label", by="batch")
    items = ratings.spa_items("annotations_m1")
    assert items.index.names == ["batch", "item"]
    expected = ratings.spa("annotations_m1")["value"]
    # indexed like spa_items(), or by item alone
    full = ratings.spa(items["weight"])
    by_item = ratings.spa(items["weight"].droplevel("batch"))
    as_array = ratings.spa(items["weight"].to_numpy())
    for table in (full, by_item, as_array):
        np.testing.assert_allclose(table["value"], expected, rtol=1e-14)
        assert (table["weighting"] == "custom").all()


def test_wide_by_items_index_round_trip() -> None:
    wide = pd.DataFrame(
        {"a": ["x", "y", "x", "y"], "b": ["x", "y", "y", "x"], "grp": [1, 1, 2, 2]},
        index=pd.Index(["d1", "d2", "d3", "d4"], name="doc"),
    )
    ratings = wide.agree(by="grp")
    items = ratings.spa_items("edges")
    assert items.index.names == ["grp", "doc"]
    table = ratings.spa(items["weight"])
    np.testing.assert_array_equal(table["value"], ratings.spa("edges")["value"])
    np.testing.assert_array_equal(
        ratings.spa(items["weight"].droplevel("grp"))["value"], table["value"]
    )


# --------------------------------------------------------------------------- undefined


def test_no_item_with_two_labels_is_nan_with_warning() -> None:
    wide = pd.DataFrame({"a": ["x", None, "y"], "b": [None, "y", None]})
    for weight in WEIGHTINGS:
        with pytest.warns(UndefinedStatisticWarning, match=r"`spa` is undefined: no item has two"):
            result = wide.agree.spa(weight)
        assert math.isnan(float(result)) and result.n_items == 0 and result.n_ignored == 3
    counts = pd.DataFrame({"x": [1, 0], "y": [0, 1]})
    with pytest.warns(UndefinedStatisticWarning, match=r"no item has two or more ratings"):
        assert math.isnan(float(counts.agree(layout="counts").spa("annotations_m1")))
    items = wide.agree.spa_items()
    assert (items["weight"] == 0).all()


def test_undefined_group_warns_and_others_do_not_change() -> None:
    wide = pd.DataFrame({"a": ["x", "x", "y"], "b": ["x", None, None], "grp": ["g1", "g2", "g2"]})
    with pytest.warns(UndefinedStatisticWarning, match=r"in 1 of 2 groups \(e\.g\. \['g2'\]\)"):
        table = wide.agree(by="grp").spa("edges")
    assert table.loc["g1", "value"] == 1.0 and math.isnan(table.loc["g2", "value"])
    assert table["n_ignored"].tolist() == [0, 2]


def test_zero_weights_everywhere_is_nan_with_warning() -> None:
    wide = pd.DataFrame({"a": ["x", "y"], "b": ["x", "x"]})
    with pytest.warns(UndefinedStatisticWarning, match=r"`spa` is undefined"):
        assert math.isnan(float(wide.agree.spa([0.0, 0.0])))


# --------------------------------------------------------------------------- bad input


@pytest.fixture
def small() -> pd.DataFrame:
    return pd.DataFrame(
        {"a": ["x", "y", "x"], "b": ["x", "y", None], "c": ["y", "z", None]},
        index=pd.Index(["d1", "d2", "d3"], name="doc"),
    )


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        (
            {"weights": "annotation"},
            ValueError,
            r"`weights` must be one of 'flat', 'annotations', 'annotations_m1', 'edges', "
            r"'inv_var', 'inv_var_class', or per-item weights .* got 'annotation'\.",
        ),
        (
            {"weights": [1.0, 2.0]},
            ValueError,
            r"`weights` must give one weight per item: 3 in the order of the frame's rows.*"
            r"got shape \(2,\)",
        ),
        ({"weights": [[1.0, 2.0, 3.0]]}, ValueError, r"one weight per item: 3 .* shape \(1, 3\)"),
        (
            {"weights": [1.0, -2.0, 5.0]},
            ValueError,
            r"`weights` must be finite and non-negative on items with two or more labels; got "
            r"\[-2\.0\] for items \['d2'\]\. Use weights >= 0\.",
        ),
        (
            {"weights": [np.inf, 1.0, 1.0]},
            ValueError,
            r"finite and non-negative .* got \[inf\] for items \['d1'\]",
        ),
        (
            {"weights": pd.Series({"d1": 1.0, "d3": 1.0})},
            ValueError,
            r"`weights` has no weight for 1 items with two or more labels, e.g. \['d2'\]; give "
            r"every such item a finite weight",
        ),
        (
            {"weights": pd.Series([1.0, 2.0], index=["d1", "d1"])},
            ValueError,
            r"`weights` must give each item one weight; items \['d1'\] appear more than once",
        ),
        (
            {"weights": pd.Series(["u", "v", "w"], index=["d1", "d2", "d3"])},
            TypeError,
            r"`weights` must hold numbers",
        ),
        ({"weights": ["u", "v", "w"]}, TypeError, r"`weights` must be a scheme name .* got list"),
        ({"weights": pd.DataFrame({"w": [1, 2, 3]})}, TypeError, r"got a DataFrame"),
        ({"weights": b"flat"}, TypeError, r"`weights` must be a scheme name \(a str\)"),
        (
            {"weights": pd.Series([1.0], index=pd.MultiIndex.from_tuples([(1, 2, 3)]))},
            ValueError,
            r"`weights` has a 3-level index but items are identified by 1 level",
        ),
        (
            {"weights": "edges", "p": pd.Series({"x": 1.0})},
            TypeError,
            r"`p` applies only to weights='inv_var_class'; got weights='edges'\. Drop `p` or",
        ),
        (
            {"weights": [1.0, 1.0, 1.0], "p": pd.Series({"x": 1.0})},
            TypeError,
            r"`p` applies only to weights='inv_var_class'; got per-item `weights`",
        ),
        (
            {"weights": "inv_var_class", "p": pd.Series({"x": 0.5, "y": 0.3, "z": 0.1})},
            ValueError,
            r"`p` must sum to 1; its probabilities sum to 0\.9.*Normalise it, e\.g\. "
            r"`p / p\.sum\(\)`",
        ),
        (
            {"weights": "inv_var_class", "p": pd.Series({"x": 1.2, "y": -0.3, "z": 0.1})},
            ValueError,
            r"`p` must not be negative; got \[-0\.3\] for categories \['y'\]",
        ),
        (
            {"weights": "inv_var_class", "p": pd.Series({"x": 0.5, "y": 0.5})},
            ValueError,
            r"`p` has no probability for the observed categories \['z'\]; its categories are "
            r"\['x', 'y'\]\. Give every category in the data a probability",
        ),
        (
            {"weights": "inv_var_class", "p": pd.Series({"x": 0.5, "y": np.nan, "z": 0.5})},
            ValueError,
            r"`p` must hold finite probabilities; got \[nan\] for categories \['y'\]",
        ),
        (
            {"weights": "inv_var_class", "p": pd.Series([0.5, 0.5], index=["x", "x"])},
            ValueError,
            r"`p` must give each category once; categories \['x'\] appear more than once",
        ),
        (
            {"weights": "inv_var_class", "p": np.array([0.2, 0.3, 0.5])},
            TypeError,
            r"`p` must be a Series of probabilities indexed by category .* got ndarray",
        ),
        (
            {"weights": "inv_var_class", "p": pd.DataFrame({"x": [1.0]})},
            TypeError,
            r"`p` must be a Series of probabilities indexed by category .* got DataFrame",
        ),
    ],
)
def test_bad_input(
    small: pd.DataFrame, kwargs: dict[str, object], error: type, match: str
) -> None:
    weights = kwargs.pop("weights")
    with pytest.raises(error, match=match):
        small.agree.spa(weights, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(error, match=match):
        small.agree.spa_items(weights, **kwargs)  # type: ignore[arg-type]


def test_weight_series_in_wrong_label_type_names_the_items(small: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match=r"no weight for 2 items .* e\.g\. \['d1', 'd2'\]"):
        small.agree.spa(pd.Series([1.0, 1.0, 1.0], index=[0, 1, 2]))


def test_bootstrap_carries_per_item_weights_with_their_items() -> None:
    # Per-item weights equal to a named scheme's weights give the same replicates, so the
    # same interval, as the scheme itself: each weight travels with its item.
    frame = pdagree.datasets.load("crowd_sparse")
    ratings = frame.agree(item="item", rater="annotator", label="label")
    weights = ratings.spa_items("edges")["weight"].to_numpy()
    custom = ratings.spa(weights).confidence_interval(method="bootstrap", n_resamples=200, rng=5)
    named = ratings.spa("edges").confidence_interval(method="bootstrap", n_resamples=200, rng=5)
    assert custom == named
