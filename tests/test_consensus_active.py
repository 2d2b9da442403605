"""EM over ``by=`` groups iterates the groups still running only (#26): the fit of many
groups equals a loop over the groups fitted one at a time, and each EM step sees only the
votes of the groups that have not converged."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest

import pdagree  # noqa: F401  (registers the accessor)
from pdagree import ConvergenceWarning
from pdagree.consensus import _fit

METHODS = ["one_coin", "dawid_skene", "glad", "mace"]


def crowd(n_groups: int, seed: int) -> pd.DataFrame:
    """Groups of different sizes, each with raters of its own (some shared names across
    groups), some with fewer categories, rated with different noise: they converge after
    different numbers of iterations."""
    rng = np.random.default_rng(seed)
    rows = []
    for g in range(n_groups):
        n_raters, n_items = int(rng.integers(2, 5)), int(rng.integers(2, 9))
        k = int(rng.integers(2, 4))
        truth = rng.integers(0, k, n_items)
        noise = rng.uniform(0.1, 0.6)
        for i in range(n_items):
            for r in range(n_raters):
                if rng.random() < 0.85:
                    label = truth[i] if rng.random() > noise else rng.integers(0, k)
                    rater = f"r{r}" if g % 3 == 0 else f"g{g}r{r}"
                    rows.append((f"t{g:02d}", f"i{i}", rater, "abc"[label]))
    return pd.DataFrame(rows, columns=["task", "item", "rater", "label"])


def fit(df: pd.DataFrame, method: str, **options: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return df.agree(
            item="item", rater="rater", label="label", by="task" if "task" in df else None
        ).consensus(method, ties="first", **options)


def close(got: Any, want: Any) -> None:
    np.testing.assert_allclose(
        np.asarray(got, dtype=float), np.asarray(want, dtype=float), rtol=1e-12, atol=1e-13
    )


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("max_iterations", [10_000, 4])
def test_by_groups_equal_a_loop_over_groups_fitted_alone(method: str, max_iterations: int) -> None:
    df = crowd(20, seed=3)
    grouped = fit(df, method, max_iterations=max_iterations)
    if max_iterations == 4:  # some groups stop unconverged
        assert not grouped.converged.all()
    else:  # groups stop at different iterations
        assert grouped.converged.all() and grouped.n_iterations.nunique() > 2
    for task, part in df.groupby("task"):
        alone = fit(part.drop(columns="task"), method, max_iterations=max_iterations)
        assert grouped.n_iterations[task] == alone.n_iterations
        assert grouped.converged[task] == alone.converged
        assert grouped.log_likelihood[task] == pytest.approx(alone.log_likelihood, rel=1e-12)
        cats = list(alone.probabilities.columns)
        pd.testing.assert_series_equal(
            grouped.labels.loc[task], alone.labels, check_names=False, check_index_type=False
        )
        close(grouped.probabilities.loc[task][cats], alone.probabilities)
        quality = grouped.quality.loc[task].loc[alone.quality.index]
        close(quality[alone.quality.columns], alone.quality)
        close(grouped.priors.loc[task].loc[cats], alone.priors.loc[cats])
        if alone.confusion is not None:
            close(grouped.confusion.loc[task].loc[alone.confusion.index][cats], alone.confusion)
        if alone.strategy is not None:
            close(grouped.strategy.loc[task].loc[alone.strategy.index][cats], alone.strategy)
        if alone.difficulty is not None:
            close(grouped.difficulty.loc[task], alone.difficulty)


@pytest.mark.parametrize("method", METHODS)
def test_each_step_sees_only_the_groups_still_running(
    method: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = _fit.MODELS[method]
    seen: list[tuple[int, int]] = []

    class Recording:
        owner = model.owner

        def start(self, v: Any) -> Any:
            return model.start(v)

        def log_label(self, v: Any, params: Any) -> Any:
            return model.log_label(v, params)

        def m_step(self, v: Any, posterior: Any, params: Any) -> Any:
            seen.append((v.n_groups, len(v.item)))
            return model.m_step(v, posterior, params)

    monkeypatch.setitem(_fit.MODELS, method, Recording())
    df = crowd(40, seed=7)
    c = fit(df, method)
    iterations = c.n_iterations.to_numpy()
    assert len(seen) == iterations.max()
    running = [int((iterations > step).sum()) for step in range(len(seen))]
    groups = [n for n, _ in seen]
    # never fewer than the groups running, and at most 1 / COMPACT times as many
    assert all(r <= n <= r / _em_compact() for r, n in zip(running, groups, strict=True))
    assert groups[-1] < groups[0] and seen[-1][1] < seen[0][1] < len(df) + 1


def _em_compact() -> float:
    from pdagree.consensus._em import COMPACT

    return COMPACT
