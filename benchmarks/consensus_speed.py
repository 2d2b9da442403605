"""Consensus models and per_rater() against crowd-kit and the least pandas work, at the sizes
of issue #18: Dawid-Skene at 10^6 labels (10^5 items x 10 annotators of 200, 5 categories),
majority vote against a plain ``groupby`` floor, GLAD and MACE at 10^5 labels, and
``per_rater()`` at 10^6 annotations against one ``alpha()``.

    python benchmarks/consensus_speed.py [--scale 1.0] [--repeats 3] [--skip-peer]

Times are wall-clock medians in one process, end to end from the long frame (encoding
included); a peer is given the same data and, for the EM models, the same number of EM
iterations as pdagree needed to converge, and the share of items on which the labels agree
is printed beside the time. ``--scale 0.1`` runs everything at a tenth of the size.
Results: benchmarks/consensus_speed.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

import pdagree


def labels(n_items: int, per_item: int = 10, n_annotators: int = 200, k: int = 5, seed: int = 0):
    """A long frame: each item labelled by ``per_item`` of ``n_annotators`` one-coin
    annotators (accuracy 0.5 to 0.9), ``k`` categories, rows shuffled."""
    rng = np.random.default_rng(seed)
    accuracy = rng.uniform(0.5, 0.9, n_annotators)
    who = np.argsort(rng.random((n_items, n_annotators)), axis=1)[:, :per_item].ravel()
    item = np.repeat(np.arange(n_items), per_item)
    truth = rng.integers(0, k, n_items)
    right = rng.random(len(item)) < accuracy[who]
    label = np.where(right, truth[item], (truth[item] + rng.integers(1, k, len(item))) % k)
    frame = pd.DataFrame({"task": item, "worker": who, "label": label})
    return frame.sample(frac=1.0, random_state=seed).reset_index(drop=True)


def timed(
    call: Callable[[pd.DataFrame], Any], frame: pd.DataFrame, repeats: int
) -> tuple[float, Any]:
    """The median time of ``call`` on a fresh copy of ``frame`` each time (the accessor
    caches the encoding of a frame it has seen: a copy is a frame it has not)."""
    times, value = [], None
    for _ in range(repeats):
        fresh = frame.copy()
        start = time.perf_counter()
        value = call(fresh)
        times.append(time.perf_counter() - start)
    return statistics.median(times), value


def _first(call: Callable[[Any], Any], ratings: list[Any]) -> list[float]:
    """The time of ``call`` on each of ``ratings`` (each a fresh, encoded Ratings)."""
    times = []
    for r in ratings:
        start = time.perf_counter()
        call(r)
        times.append(time.perf_counter() - start)
    return times


def ours(frame: pd.DataFrame, method: str, **options: Any) -> pdagree.consensus.Consensus:
    ratings = frame.agree(item="task", rater="worker", label="label")
    return ratings.consensus(method, ties="first", **options)


def same(a: pd.Series, b: pd.Series) -> float:
    return float((a.sort_index().to_numpy() == b.reindex(a.sort_index().index).to_numpy()).mean())


def row(name: str, mine: float, theirs: float | None, note: str = "") -> None:
    ratio = "" if theirs is None else f"{theirs / mine:8.1f}x"
    peer = "" if theirs is None else f"{theirs:9.3f} s"
    print(f"| {name:<44} | {mine:8.3f} s | {peer:>11} | {ratio:>9} | {note} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--skip-peer", action="store_true", help="do not run crowd-kit")
    args = parser.parse_args()
    try:
        from crowdkit import aggregation as ck
    except ImportError:
        ck = None
    if args.skip_peer:
        ck = None
    print(
        f"pdagree {pdagree.__version__}, numpy {np.__version__}, pandas {pd.__version__}, "
        f"Python {platform.python_version()}, {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.2f}; crowd-kit: {'not run' if ck is None else 'installed'}"
    )
    print("| what | pdagree | peer | peer / pdagree | notes |")
    print("|---|---|---|---|---|")
    big = labels(int(100_000 * args.scale))
    small = labels(int(10_000 * args.scale))
    warnings.simplefilter("ignore")

    # Dawid-Skene with each one's defaults: pdagree stops when no posterior or parameter
    # moves by 1e-6 and the change to come is below it too, crowd-kit when its evidence lower
    # bound per label gains less than 1e-6; then crowd-kit with pdagree's iterations.
    t, fit = timed(lambda f: ours(f, "dawid_skene"), big, args.repeats)
    n_iter = int(fit.n_iterations)
    note = f"{len(big):,} labels, {n_iter} iterations"
    peer = None
    if ck is not None:
        model = ck.DawidSkene(n_iter=100, tol=1e-6)
        peer, theirs = timed(model.fit_predict, big, 1)
        note += (
            f"; crowd-kit {len(model.loss_history_)} iterations, same label on "
            f"{same(fit.labels, theirs):.2%} of items"
        )
    row("Dawid-Skene, each one's defaults", t, peer, note)
    if ck is not None:
        model = ck.DawidSkene(n_iter=n_iter, tol=0.0)
        peer, theirs = timed(model.fit_predict, big, 1)
        row("Dawid-Skene, the same iterations", t, peer, f"{n_iter} iterations each")

    # Majority vote against the least pandas work that gives a plurality label.
    def floor(frame: pd.DataFrame) -> pd.Series:
        table = frame.groupby(["task", "label"]).size().unstack(fill_value=0)
        return table.idxmax(axis=1)

    t, fit = timed(lambda f: ours(f, "majority"), big, args.repeats)
    t_floor, want = timed(floor, big, args.repeats)
    row(
        "majority vote (floor: groupby + idxmax)",
        t,
        t_floor,
        f"{len(big):,} labels, same label on {same(fit.labels, want):.2%}",
    )
    if ck is not None:
        peer, theirs = timed(ck.MajorityVote().fit_predict, big, 1)
        row("majority vote (crowd-kit MajorityVote)", t, peer, "")

    for method, name in (("glad", "GLAD"), ("mace", "MACE")):
        t, fit = timed(lambda f, method=method: ours(f, method), small, args.repeats)
        peer = None
        note = f"{len(small):,} labels, {int(fit.n_iterations)} iterations"
        if ck is not None:
            model = (
                ck.GLAD(n_iter=int(fit.n_iterations), tol=0.0)
                if method == "glad"
                else ck.MACE(method="em", n_iter=int(fit.n_iterations), n_restarts=1)
            )
            peer, theirs = timed(model.fit_predict, small, 1)
            note += f", same label on {same(fit.labels, theirs):.2%}"
        row(name, t, peer, note)

    # per_rater() against one alpha(), end to end and on the same Ratings.
    t_alpha, _ = timed(
        lambda f: float(f.agree(item="task", rater="worker", label="label").alpha()),
        big,
        args.repeats,
    )
    t_per, _ = timed(
        lambda f: f.agree(item="task", rater="worker", label="label").per_rater(),
        big,
        args.repeats,
    )
    row("per_rater() vs alpha(), from the frame", t_alpha, t_per, "peer column: per_rater()")
    # Encoded (untimed), then each method's first call on its own fresh Ratings.
    encoded = [
        big.copy().agree(item="task", rater="worker", label="label")
        for _ in range(2 * args.repeats)
    ]
    first_alpha = statistics.median(_first(lambda r: float(r.alpha()), encoded[: args.repeats]))
    first_per = statistics.median(_first(lambda r: r.per_rater(), encoded[args.repeats :]))
    row("per_rater() vs alpha(), first call on an encoded Ratings", first_alpha, first_per, "")
    ratings = big.agree(item="task", rater="worker", label="label")
    float(ratings.alpha())
    t_alpha, _ = timed(lambda _: float(ratings.alpha()), big, args.repeats)
    t_per, _ = timed(lambda _: ratings.per_rater(), big, args.repeats)
    row("per_rater() vs alpha(), same Ratings", t_alpha, t_per, "tensors cached by the first call")


if __name__ == "__main__":
    main()
