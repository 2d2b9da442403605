"""`icc_table()` against pingouin's `intraclass_corr` and against a floor written from the
mean-square formulas, at issue #19's size: 10^6 ratings (10^5 items x 10 raters, complete),
and `by=` with 10^4 groups against the ungrouped call.

    python benchmarks/icc_speed.py [--scale 1.0] [--repeats 3] [--skip-peer]

Times are medians in one process, end to end from the long frame (encoding included), each on
a fresh copy of it. Results: benchmarks/icc_speed.md.
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


def scores(n_items: int, n_raters: int = 10, n_groups: int = 1, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    target = rng.normal(0.0, 2.0, n_items)
    bias = rng.normal(0.0, 1.0, n_raters)
    x = np.round(target[:, None] + bias[None, :] + rng.normal(0.0, 1.0, (n_items, n_raters)), 1)
    frame = pd.DataFrame(
        {
            "item": np.repeat(np.arange(n_items), n_raters),
            "rater": np.tile(np.arange(n_raters), n_items),
            "score": x.ravel(),
            "group": np.repeat(np.arange(n_items) % n_groups, n_raters),
        }
    )
    return frame.sample(frac=1.0, random_state=seed).reset_index(drop=True)


def timed(call: Callable[[pd.DataFrame], Any], frame: pd.DataFrame, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        fresh = frame.copy()
        start = time.perf_counter()
        call(fresh)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def floor(frame: pd.DataFrame) -> dict[str, float]:
    """The mean squares of the complete two-way layout with pandas groupby, then the six
    values: the least work that gives the table's numbers (no intervals)."""
    x = frame["score"].to_numpy()
    m = x.mean()
    row = frame.groupby("item")["score"].mean().to_numpy()
    col = frame.groupby("rater")["score"].mean().to_numpy()
    n, k = len(row), len(col)
    ss_r = k * ((row - m) ** 2).sum()
    ss_c = n * ((col - m) ** 2).sum()
    ss_t = ((x - m) ** 2).sum()
    msr, msc = ss_r / (n - 1), ss_c / (k - 1)
    mse = (ss_t - ss_r - ss_c) / ((n - 1) * (k - 1))
    msw = (ss_t - ss_r) / (n * (k - 1))
    return {
        "1,1": (msr - msw) / (msr + (k - 1) * msw),
        "A,1": (msr - mse) / (msr + (k - 1) * mse + k * (msc - mse) / n),
        "C,1": (msr - mse) / (msr + (k - 1) * mse),
    }


def row(what: str, ours: float, other: float) -> None:
    print(f"| {what} | {ours:.3f} s | {other:.3f} s | {other / ours:.1f}x |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--skip-peer", action="store_true")
    args = parser.parse_args()
    try:
        import pingouin as pg
    except ImportError:
        pg = None
    peer_version = "not run" if pg is None or args.skip_peer else pg.__version__
    print(
        f"pdagree {pdagree.__version__}, numpy {np.__version__}, pandas {pd.__version__}, "
        f"Python {platform.python_version()}, {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.2f}; pingouin: {peer_version}"
    )
    warnings.simplefilter("ignore")
    frame = scores(int(100_000 * args.scale))

    def ours(f: pd.DataFrame) -> pd.DataFrame:
        return f.agree(item="item", rater="rater", label="score").icc_table()

    t = timed(ours, frame, args.repeats)
    t_floor = timed(floor, frame, args.repeats)
    table = ours(frame.copy())
    want = floor(frame)
    assert all(abs(table.loc[f, "value"] - v) < 1e-9 for f, v in want.items())
    print("| what | pdagree | other | other / pdagree |")
    print("|---|---|---|---|")
    row(f"icc_table(), {len(frame):,} ratings, against the floor", t, t_floor)
    if pg is not None and not args.skip_peer:

        def theirs(f: pd.DataFrame) -> pd.DataFrame:
            return pg.intraclass_corr(f, targets="item", raters="rater", ratings="score")

        t_pg = timed(theirs, frame, 1)
        row(f"icc_table() against pingouin {pg.__version__}", t, t_pg)
    grouped = scores(int(100_000 * args.scale), n_groups=int(10_000 * args.scale))

    def by_group(f: pd.DataFrame) -> pd.DataFrame:
        return f.agree(item="item", rater="rater", label="score", by="group").icc_table()

    t_by = timed(by_group, grouped, args.repeats)
    row(f"icc_table() with by= ({int(10_000 * args.scale):,} groups) against ungrouped", t, t_by)


if __name__ == "__main__":
    main()
