"""Fault finding for ``consensus`` (#26): every method on random long and wide frames.

Frames with missing cells, items with one rating, constant labels, one annotator, ``by=``
groups and known labels (``gold=``, a Series or an annotator). Each call either returns a
documented :class:`~pdagree.consensus.Consensus` or raises a ValueError/TypeError whose
message is a sentence (no bare numpy or pandas message); no warning from another library.
A result's probabilities sum to 1 on every rated item and are nan on the others (no other
nan without a pdagree warning), its labels are among the categories, and a deterministic
fit does not depend on the annotators' names or the order of the rows. The frame is never
modified.
"""

from __future__ import annotations

import os
import warnings
from typing import Any

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fault_finding import INTERNAL

import pdagree
from pdagree.consensus import METHODS, Consensus

# CI runs a fixed set of examples; `PDAGREE_FAULT_EXAMPLES=2000 pytest <this file>` searches
# harder with fresh random examples.
_HARD = int(os.environ.get("PDAGREE_FAULT_EXAMPLES", "0"))
SETTINGS = settings(
    max_examples=_HARD or 40,
    deadline=None,
    derandomize=not _HARD,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# Enough for these small frames; a fit that needs more says so with a ConvergenceWarning.
ITERATIONS = 2000
POOLS = {"text": ["a", "b", "c", "d"], "int": [1, 2, 3, 4], "constant": ["same"]}


@st.composite
def long_frames(draw: st.DrawFn) -> dict[str, Any]:
    """A long frame (item, rater, label, task), with missing labels and an optional repeat
    of an (item, rater) pair, and the options to call ``consensus`` with."""
    pool = POOLS[draw(st.sampled_from(sorted(POOLS)))]
    n_items = draw(st.integers(1, 8))
    n_raters = draw(st.integers(1, 4))
    rows = []
    for i in range(n_items):
        for j in range(n_raters):
            if draw(st.booleans()) or (i == 0 and j == 0):
                label = draw(st.one_of(st.none(), st.sampled_from(pool), st.sampled_from(pool)))
                rows.append((f"i{i}", f"r{j}", label))
    if draw(st.integers(0, 9)) == 0:
        rows.append(rows[0])  # an (item, rater) pair twice: a clear error
    frame = pd.DataFrame(rows, columns=["item", "rater", "label"])
    frame["task"] = frame["item"].str[1:].astype(int) % 2
    gold_kind = draw(st.sampled_from(["none", "none", "series", "rater"]))
    gold: Any = None
    if gold_kind == "series":
        items = sorted(set(frame["item"]))
        known = draw(st.lists(st.sampled_from(items), max_size=3, unique=True))
        gold = pd.Series([draw(st.sampled_from(pool)) for _ in known], index=known, dtype=object)
    elif gold_kind == "rater":
        gold = draw(st.sampled_from(["r0", "r1", "nobody"]))
    return {"frame": frame, "by": draw(st.booleans()), "gold": gold, "pool": pool}


def call(make: Any) -> tuple[Any, list[warnings.WarningMessage]]:
    """The result (or the ValueError/TypeError raised) and the warnings emitted."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result: Any = make()
        except (ValueError, TypeError) as exc:
            result = exc
    return result, list(caught)


def check(result: Any, caught: list[warnings.WarningMessage], what: str) -> None:
    """A documented outcome: a Consensus with sound probabilities, or a clear error."""
    foreign = [w for w in caught if not issubclass(w.category, pdagree.PdagreeWarning)]
    assert not foreign, (what, [(w.category, str(w.message)) for w in foreign])
    if isinstance(result, Exception):
        message = str(result)
        assert len(message) >= 30 and not INTERNAL.search(message), (what, message)
        return
    assert isinstance(result, Consensus), (what, type(result))
    p = result.probabilities.to_numpy(dtype=np.float64)
    assert p.shape == (len(result.labels), len(result.probabilities.columns))
    rated = ~np.isnan(p).all(axis=1)
    if result.method == "kos":  # no posterior, as documented: the labels are the votes' signs
        assert not rated.any(), (what, "KOS gave probabilities")
    assert not np.isnan(p[rated]).any() or caught, (what, "nan without a warning")
    np.testing.assert_allclose(p[rated].sum(axis=1), 1.0, atol=1e-9, err_msg=what)
    assert ((p[rated] >= 0) & (p[rated] <= 1 + 1e-12)).all(), what
    if result.method != "kos":
        assert result.labels[~rated].isna().all(), what
    assert set(result.labels.dropna()) <= set(result.probabilities.columns), what
    frame = result.to_frame()
    assert list(frame.columns) == ["label", "probability", "margin", "n_ratings"], what
    margin = frame["margin"].to_numpy(dtype=np.float64)
    if result.method == "kos":
        assert np.isnan(margin).all(), what
    else:
        assert ((margin[rated] >= -1e-12) & (margin[rated] <= 1 + 1e-12)).all(), what
    accuracy = result.quality["accuracy"].to_numpy(dtype=np.float64)
    assert ((accuracy >= -1e-12) & (accuracy <= 1 + 1e-12) | np.isnan(accuracy)).all(), what
    for name, values in (("quality", result.quality), ("priors", result.priors)):
        has_nan = bool(np.isnan(values.to_numpy(dtype=np.float64)).any())
        assert not has_nan or caught, (what, f"nan in {name} without a warning", values)


def fit(frame: pd.DataFrame, method: str, case: dict[str, Any]) -> tuple[Any, list[Any]]:
    by = "task" if case["by"] else None
    return call(
        lambda: frame.agree(item="item", rater="rater", label="label", by=by).consensus(
            method, gold=case["gold"], ties="first", max_iterations=ITERATIONS
        )
    )


def same_fit(a: Consensus, b: Consensus, what: str, names: dict[str, str] | None = None) -> None:
    """Equal probabilities and quality (``b``'s annotators renamed back by ``names``), and
    the same labels where the choice is clear."""
    np.testing.assert_allclose(
        a.probabilities.to_numpy(dtype=np.float64),
        b.probabilities.to_numpy(dtype=np.float64),
        atol=1e-7,
        err_msg=what,
    )
    clear = a.to_frame()["margin"].to_numpy(dtype=np.float64) > 1e-6
    assert a.labels[clear].tolist() == b.labels[clear].tolist(), what
    quality = b.quality
    if names is not None:
        back = {new: old for old, new in names.items()}
        index = quality.index
        if isinstance(index, pd.MultiIndex):
            levels = [index.get_level_values(i) for i in range(index.nlevels)]
            quality = quality.set_axis(
                pd.MultiIndex.from_arrays([*levels[:-1], levels[-1].map(back)], names=index.names)
            )
        else:
            quality = quality.set_axis(index.map(back).rename(index.name))
    quality = quality.reindex(a.quality.index)
    np.testing.assert_allclose(
        a.quality.to_numpy(dtype=np.float64),
        quality.to_numpy(dtype=np.float64),
        atol=1e-7,
        err_msg=what,
    )


@SETTINGS
@given(case=long_frames(), seed=st.integers(0, 9))
def test_every_method_on_random_long_frames(case: dict[str, Any], seed: int) -> None:
    frame = case["frame"]
    before = frame.copy(deep=True)
    gold_before = None if not isinstance(case["gold"], pd.Series) else case["gold"].copy()
    shuffled = frame.sample(frac=1.0, random_state=seed).reset_index(drop=True)
    # Other names, in the reverse order: the annotators' order changes too.
    names = {f"r{j}": f"z{9 - j}" for j in range(4)}
    renamed = frame.assign(rater=frame["rater"].map(names))
    renamed_case = dict(case)
    if isinstance(case["gold"], str):
        renamed_case["gold"] = names.get(case["gold"], case["gold"])
    for method in METHODS:
        result, caught = fit(frame, method, case)
        check(result, caught, f"{method} on {case}")
        pd.testing.assert_frame_equal(frame, before)
        if gold_before is not None:
            pd.testing.assert_series_equal(case["gold"], gold_before)
        if isinstance(result, Exception):
            for other in (shuffled, renamed):
                again, _ = fit(other, method, renamed_case if other is renamed else case)
                assert isinstance(again, type(result)), (method, result, again)
            continue
        converged = bool(np.all(result.converged))
        again, caught = fit(shuffled, method, case)
        check(again, caught, f"{method} on shuffled rows")
        if converged:
            same_fit(result, again, f"{method}: row order")
        other, caught = fit(renamed, method, renamed_case)
        check(other, caught, f"{method} on renamed annotators")
        if converged:
            same_fit(result, other, f"{method}: annotator names", names)


@st.composite
def wide_frames(draw: st.DrawFn) -> pd.DataFrame:
    pool = POOLS[draw(st.sampled_from(sorted(POOLS)))]
    n_items = draw(st.integers(1, 7))
    n_raters = draw(st.integers(1, 4))
    cell = st.one_of(st.none(), st.sampled_from(pool), st.sampled_from(pool))
    data = {
        f"r{j}": draw(st.lists(cell, min_size=n_items, max_size=n_items)) for j in range(n_raters)
    }
    frame = pd.DataFrame(data, index=pd.Index([f"i{i}" for i in range(n_items)], name="item"))
    if draw(st.booleans()):
        frame = frame.astype(pd.CategoricalDtype(pool))  # declared categories, some unused
    return frame


@SETTINGS
@given(frame=wide_frames(), ties=st.sampled_from(["random", "first", "nan"]))
def test_every_method_on_random_wide_frames(frame: pd.DataFrame, ties: str) -> None:
    before = frame.copy(deep=True)
    for method in METHODS:
        result, caught = call(
            lambda m=method: frame.agree.consensus(m, ties=ties, rng=0, max_iterations=ITERATIONS)
        )
        check(result, caught, f"{method} ties={ties} on\n{frame}")
        pd.testing.assert_frame_equal(frame, before)
        if isinstance(result, Consensus) and ties == "random":
            repeat, _ = call(
                lambda m=method: frame.agree.consensus(
                    m, ties=ties, rng=0, max_iterations=ITERATIONS
                )
            )
            assert result.labels.equals(repeat.labels), method  # seeded: reproducible
