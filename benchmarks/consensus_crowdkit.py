"""The consensus methods crowd-kit has (#30: Wawa, zero-based skill, KOS, M-MSR; majority
vote and Dawid-Skene for context) against crowd-kit 1.4.2 at 10^5 labels, in one process.

    python benchmarks/consensus_crowdkit.py [--scale 1.0] [--repeats 3]

Long frames of one-coin annotators (accuracy 0.5 to 0.9), each item labelled by 10 of 200
annotators, rows shuffled: 5 categories, and 2 for KOS (binary only) and a second M-MSR row.
Times are wall-clock medians, end to end from a fresh copy of the frame (encoding included);
crowd-kit is given the same frame, with its defaults, and the share of items on which the
labels agree is printed beside the time. crowd-kit 1.4.2's ``predict`` fails on
scikit-learn >= 1.6, so its skill methods' labels are its ``MajorityVote`` weighted by the
fitted skills (what ``fit_predict`` does). Results: benchmarks/consensus_crowdkit.md.
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


def labels(n_labels: int, k: int, per_item: int = 10, n_annotators: int = 200, seed: int = 0):
    """A long frame of ``n_labels`` labels: each item labelled by ``per_item`` of
    ``n_annotators`` one-coin annotators (accuracy 0.5 to 0.9), ``k`` categories."""
    rng = np.random.default_rng(seed)
    n_items = n_labels // per_item
    accuracy = rng.uniform(0.5, 0.9, n_annotators)
    who = np.argsort(rng.random((n_items, n_annotators)), axis=1)[:, :per_item].ravel()
    item = np.repeat(np.arange(n_items), per_item)
    truth = rng.integers(0, k, n_items)
    right = rng.random(len(item)) < accuracy[who]
    label = np.where(right, truth[item], (truth[item] + rng.integers(1, k, len(item))) % k)
    frame = pd.DataFrame({"task": item, "worker": who, "label": label})
    return frame.sample(frac=1.0, random_state=seed).reset_index(drop=True)


def timed(call: Callable[[pd.DataFrame], Any], frame: pd.DataFrame, repeats: int):
    """The median time of ``call`` on a fresh copy of ``frame`` each time (the accessor
    caches the encoding of a frame it has seen: a copy is a frame it has not)."""
    times, value = [], None
    for _ in range(repeats):
        fresh = frame.copy()
        start = time.perf_counter()
        value = call(fresh)
        times.append(time.perf_counter() - start)
    return statistics.median(times), value


def ours(method: str) -> Callable[[pd.DataFrame], Any]:
    def call(frame: pd.DataFrame) -> pd.Series:
        ratings = frame.agree(item="task", rater="worker", label="label")
        return ratings.consensus(method, ties="first")

    return call


def crowd_kit(ck: Any, method: str) -> Callable[[pd.DataFrame], pd.Series]:
    def call(frame: pd.DataFrame) -> pd.Series:
        if method == "majority":
            return ck.MajorityVote().fit_predict(frame)
        if method == "dawid_skene":
            return ck.DawidSkene(n_iter=100, tol=1e-6).fit_predict(frame)
        if method == "kos":
            return ck.KOS().fit(frame).labels_
        model = {"wawa": ck.Wawa, "zero_based_skill": ck.ZeroBasedSkill, "mmsr": ck.MMSR}
        skills = model[method]().fit(frame).skills_
        return ck.MajorityVote().fit(frame, skills=skills).labels_

    return call


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    from crowdkit import aggregation as ck

    print(
        f"pdagree {pdagree.__version__}, numpy {np.__version__}, pandas {pd.__version__}, "
        f"Python {platform.python_version()}, {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.2f}"
    )
    print("| method | labels | K | pdagree | crowd-kit | crowd-kit / pdagree | same label |")
    print("|---|---|---|---|---|---|---|")
    warnings.simplefilter("ignore")
    n = int(100_000 * args.scale)
    frames = {5: labels(n, 5), 2: labels(n, 2)}
    cases = [
        ("majority", 5), ("dawid_skene", 5), ("wawa", 5), ("zero_based_skill", 5),
        ("mmsr", 5), ("mmsr", 2), ("kos", 2),
    ]  # fmt: skip
    for method, k in cases:
        frame = frames[k]
        mine, fit = timed(ours(method), frame, args.repeats)
        theirs, peer = timed(crowd_kit(ck, method), frame, 1)
        mine_labels = fit.labels.sort_index()
        theirs_labels = peer.reindex(mine_labels.index).to_numpy()
        agree = float((mine_labels.to_numpy() == theirs_labels).mean())
        n_iter = int(fit.n_iterations)
        iterations = f" ({n_iter} iterations)" if n_iter else ""
        print(
            f"| {method}{iterations} | {len(frame):,} | {k} | {mine:.3f} s | {theirs:.3f} s | "
            f"{theirs / mine:.0f}x | {agree:.2%} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
