"""MACE's EM at scale (#26 point 16): its E-step sums one value per annotation, equal to
the (keys * K, K) table's; its SQUAREM steps are bounded per group (Varadhan & Roland's
package: a first bound of 1, multiplied by 4 each time a step reaches it), which takes
fewer EM steps to the same fixed point on many small groups."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from test_consensus import duck, long, simulate
from test_consensus_active import crowd

import pdagree
from pdagree import ConvergenceWarning
from pdagree.consensus import _em, _fit, _squarem, _votes
from pdagree.consensus._convergence import _group_max
from pdagree.consensus._mace import Mace


def small_groups(n_groups: int, seed: int = 0) -> pd.DataFrame:
    """Groups of three raters of their own, two items each, three labels (the shape of
    benchmarks/by_own_raters.py)."""
    rng = np.random.default_rng(seed)
    g = np.repeat(np.arange(n_groups), 6)
    item = g * 2 + np.tile(np.repeat([0, 1], 3), n_groups)
    rater = g * 3 + np.tile([0, 1, 2], 2 * n_groups)
    truth = rng.integers(0, 3, size=n_groups * 2)
    label = np.where(rng.random(len(g)) < 0.7, truth[item], rng.integers(0, 3, size=len(g)))
    return pd.DataFrame(
        {"group": g, "item": item, "rater": rater, "label": np.array(["a", "b", "c"])[label]}
    )


def _votes_of(ratings: pdagree.Ratings, gold: Any = None) -> _votes.Votes:
    return _votes.votes(ratings._data.rows, gold)


def test_the_one_value_e_step_equals_the_table_e_step() -> None:
    answers, _ = duck()
    df, truth = simulate(150, [0.9, 0.7, 0.5], seed=4, coverage=0.8)
    known = truth.iloc[:20]
    cases = [
        (answers.agree(item="question", rater="worker", label="answer"), None),
        (long(df), known),  # known labels: their items' posteriors are certain
        (crowd(30, seed=3).agree(item="item", rater="rater", label="label", by="task"), None),
        (long(small_groups(50), by="group"), None),  # groups with fewer categories
    ]
    model = Mace()
    rng = np.random.default_rng(0)
    for ratings, gold in cases:
        v = _votes_of(ratings, gold)
        start = model.start(v)
        # the start, and parameters far from it (theta near 0 and 1, uneven strategies)
        theta = rng.uniform(1e-6, 1 - 1e-6, v.n_keys)
        xi = rng.dirichlet(np.ones(v.n_categories), v.n_keys) * v.key_allowed
        xi /= xi.sum(axis=1, keepdims=True)
        for params in (start, {"theta": theta, "xi": xi}):
            post, log_likelihood = _em.e_step(v, model, params)
            table_post, table_log_likelihood = _em.posterior(v, *model.log_label(v, params))
            np.testing.assert_allclose(post, table_post, rtol=0, atol=1e-12)
            np.testing.assert_allclose(log_likelihood, table_log_likelihood, rtol=1e-12)
            assert np.all(post[~v.allowed[v.group]] == 0.0)  # not the group's: exactly 0
        if gold is not None:
            assert np.all(post[v.gold >= 0].max(axis=1) == 1.0)


def test_the_m_step_keeps_strategies_on_the_group_s_categories() -> None:
    ratings = long(small_groups(200, seed=2), by="group")
    v = _votes_of(ratings)
    assert not v.key_allowed.all()  # some groups use two labels of three
    params = Mace().start(v)
    post, _ = _em.e_step(v, Mace(), params)
    new = Mace().m_step(v, post, params)
    assert np.all(new["xi"][~v.key_allowed] == 0.0) and np.all(new["xi"][v.key_allowed] > 0)
    np.testing.assert_allclose(new["xi"].sum(axis=1), 1.0, rtol=1e-14)
    assert np.all((new["theta"] > 0) & (new["theta"] < 1))
    back = Mace().bound(v, Mace().free(v, new))  # the jump's way back from the free scale
    assert np.all(back["xi"][~v.key_allowed] == 0.0)
    np.testing.assert_allclose(back["xi"], new["xi"], rtol=1e-12, atol=0)
    np.testing.assert_allclose(back["theta"], new["theta"], rtol=1e-12)


def two_groups() -> _votes.Votes:
    """Two groups of one item rated by two annotators of their own (keys 0-1 and 2-3)."""
    return _votes.Votes(
        item=np.array([0, 0, 1, 1]),
        key=np.array([0, 1, 2, 3]),
        code=np.array([0, 1, 0, 1]),
        group=np.array([0, 1]),
        n_items=2,
        n_groups=2,
        n_categories=2,
        allowed=np.ones((2, 2), dtype=bool),
        gold=np.array([-1, -1]),
        gold_rater=-1,
        key_group=np.array([0, 0, 1, 1]),
    )


def test_step_lengths_are_bounded_per_group() -> None:
    v = two_groups()
    owner = {"a": "key"}
    # a linear map with rate 0.9: S3's step is -1 / (1 - 0.9) = -10 in both groups
    start = np.array([1.0, 2.0, 1.0, 2.0])
    cycle = [{"a": start}, {"a": 0.9 * start}, {"a": 0.81 * start}]
    free, alpha, capped = _squarem.extrapolate(v, owner, cycle, np.array([np.inf, 4.0]))
    np.testing.assert_allclose(alpha, [-10.0, -4.0])
    assert capped.tolist() == [False, True]
    np.testing.assert_allclose(free["a"][:2], 0.0, atol=1e-12)  # the fixed point
    np.testing.assert_allclose(free["a"][2:], (1 - 4 * 0.1) ** 2 * start[2:])
    # a first bound of 1 keeps the two EM steps
    free, alpha, capped = _squarem.extrapolate(v, owner, cycle, np.ones(2))
    assert alpha.tolist() == [-1.0, -1.0] and capped.all()
    np.testing.assert_array_equal(free["a"], cycle[2]["a"])
    assert _squarem.first_limit(Mace()) == 1.0
    assert _squarem.first_limit(_fit.MODELS["glad"]) == np.inf


class Unbounded:
    """MACE with SQUAREM's steps unbounded (as before the bound), one per group (as before
    the steps per annotator)."""

    def __init__(self) -> None:
        self.model = Mace()
        self.owner = self.model.owner

    def __getattr__(self, name: str) -> Any:
        if name in ("step_limit", "key_steps"):
            raise AttributeError(name)
        return getattr(self.model, name)


class GroupSteps(Unbounded):
    """MACE with SQUAREM's steps bounded, one per group (as before the steps per
    annotator)."""

    def __getattr__(self, name: str) -> Any:
        if name == "key_steps":
            raise AttributeError(name)
        return getattr(self.model, name)


def fit_with(ratings: pdagree.Ratings, model: Any, monkeypatch: Any, **options: Any) -> Any:
    with monkeypatch.context() as patch:
        patch.setitem(_fit.MODELS, "mace", model)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            return ratings.consensus("mace", ties="first", **options)


def same_fixed_point(ours: Any, theirs: Any) -> None:
    """Two fits at the same fixed point: posteriors, qualities and log-likelihoods."""
    np.testing.assert_allclose(
        ours.probabilities.to_numpy(), theirs.probabilities.to_numpy(), rtol=0, atol=1e-8
    )
    np.testing.assert_allclose(
        ours.quality.to_numpy(dtype=float), theirs.quality.to_numpy(dtype=float), atol=1e-8
    )
    np.testing.assert_allclose(ours.log_likelihood, theirs.log_likelihood, rtol=1e-12, atol=1e-10)


def test_bounded_steps_reach_the_same_fixed_point_in_fewer_em_steps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 2,000 groups of 3 raters x 2 items: 28.6 EM steps per group on average with unbounded
    # steps at the default tol, 23.4 bounded (10^4 groups); at tol=1e-13, 58.1 and 41.7.
    ratings = long(small_groups(2_000, seed=1), by="group")
    ours = ratings.consensus("mace", ties="first")
    before = fit_with(ratings, Unbounded(), monkeypatch)
    assert ours.converged.all() and before.converged.all()
    assert ours.n_iterations.mean() < 0.9 * before.n_iterations.mean()
    tight = {"tol": 1e-13, "max_iterations": 100_000}
    ours = fit_with(ratings, Mace(), monkeypatch, **tight)
    before = fit_with(ratings, Unbounded(), monkeypatch, **tight)
    assert ours.converged.all() and before.converged.all()
    assert ours.n_iterations.mean() < 0.8 * before.n_iterations.mean()
    same_fixed_point(ours, before)


def test_default_tol_stays_close_to_the_tight_fit_on_the_duck_data() -> None:
    # #26: within ~1e-5 of the tol=1e-13 fit (3.5e-6 with unbounded steps, 1.6e-6 bounded)
    answers, _ = duck()
    ratings = answers.agree(item="question", rater="worker", label="answer")
    fit = ratings.consensus("mace")
    tight = ratings.consensus("mace", tol=1e-13, max_iterations=100_000)
    assert fit.converged and tight.converged
    np.testing.assert_allclose(
        fit.probabilities.to_numpy(), tight.probabilities.to_numpy(), rtol=0, atol=5e-6
    )


def sparse_groups(n_groups: int, seed: int) -> pd.DataFrame:
    """Small groups of their own: 2-4 annotators of accuracy 0.4-0.95 x 2-8 items, 2-4
    categories, each rating missing with probability 0.15."""
    rng = np.random.default_rng(seed)
    rows = []
    for g in range(n_groups):
        n_raters, n_items, k = rng.integers(2, 5), rng.integers(2, 9), rng.integers(2, 4)
        accuracy = rng.uniform(0.4, 0.95, n_raters)
        for i in range(n_items):
            truth = rng.integers(0, k)
            for a in range(n_raters):
                if rng.random() < 0.85:
                    label = truth if rng.random() < accuracy[a] else rng.integers(0, k)
                    rows.append((g, f"{g}-{i}", f"{g}-{a}", "abcd"[label]))
    return pd.DataFrame(rows, columns=["group", "item", "rater", "label"])


def test_default_tol_on_near_flat_small_groups_is_as_documented() -> None:
    # The `tol` documentation: on 400 such groups MACE's default fit is within 1.2e-3 of
    # the tol=1e-13 fit, 1.2e-5 at tol=1e-8, approaching it as tol falls (it stops early on
    # near-flat likelihoods rather than at another fixed point).
    ratings = long(sparse_groups(400, seed=3), by="group")
    tight = ratings.consensus("mace", tol=1e-13, max_iterations=100_000)
    assert tight.converged.all()
    apart = []
    for tol in (1e-6, 1e-7, 1e-8, 1e-10):
        fit = ratings.consensus("mace", tol=tol, max_iterations=100_000)
        assert fit.converged.all()
        apart.append(np.nanmax(np.abs(fit.probabilities.to_numpy() - tight.probabilities)))
    assert apart[0] < 1.2e-3 and apart[2] < 1.2e-5
    assert apart == sorted(apart, reverse=True) and apart[-1] < 1e-7


@pytest.mark.parametrize("shuffle", [False, True])
def test_group_maxima_with_entries_in_or_out_of_group_order(shuffle: bool) -> None:
    rng = np.random.default_rng(5)
    group = np.sort(rng.integers(0, 40, 500))
    group = group[group != 7]  # a group without entries: 0
    if shuffle:
        group = rng.permutation(group)
    values = rng.random(len(group))
    expected = np.zeros(40)
    np.maximum.at(expected, group, values)
    np.testing.assert_array_equal(_group_max(group, 40, values), expected)
    full = np.repeat(np.arange(40), 3)
    values = rng.random(len(full))
    np.testing.assert_array_equal(_group_max(full, 40, values), values.reshape(40, 3).max(axis=1))
    values[10] = np.nan  # group 3: a change that is nan stays nan
    top = _group_max(full, 40, values)
    assert np.isnan(top[3]) and not np.isnan(np.delete(top, 3)).any()


def test_a_restricted_copy_takes_over_the_tables_it_would_compute() -> None:
    df, truth = simulate(60, [0.9, 0.6], seed=1)
    df["group"] = df["item"] % 7
    v = _votes_of(long(df, by="group"), truth.iloc[:5])
    names = ["key_allowed", "key_uniform", "per_label", "n_labels", "item_log_uniform", "counted"]
    for name in names:
        getattr(v, name)
    keep = np.arange(v.n_groups) % 3 != 1
    sub, _, _ = v.restrict(keep)
    fresh = _votes.Votes(**{f: getattr(sub, f) for f in _votes.Votes.__dataclass_fields__})
    for name in names:
        assert name in sub.__dict__
        np.testing.assert_array_equal(getattr(sub, name), getattr(fresh, name))


@pytest.mark.parametrize("by", ["group", ["group", "half"]])
def test_priors_are_indexed_by_group_and_category(by: Any) -> None:
    df = small_groups(6, seed=3)
    df["group"] = df["group"].map(lambda g: f"g{5 - g}")  # not in sorted order
    df["half"] = df["item"] % 2
    c = long(df, by=by).consensus("mace")
    columns = by if isinstance(by, list) else [by]
    keys = sorted(df.drop_duplicates(columns)[columns].itertuples(index=False, name=None))
    expected = pd.MultiIndex.from_tuples(
        [(*key, cat) for key in keys for cat in ["a", "b", "c"]], names=[*columns, None]
    )
    pd.testing.assert_index_equal(c.priors.index, expected)
    assert c.priors.name == "prior"
    for key in keys:
        assert c.priors.loc[key if len(key) > 1 else key[0]].sum() == pytest.approx(1.0)
