"""Continuous scores: the numeric measures on 10^5 items x 10 raters of distinct floats, from a
wide frame and from the long one, against pingouin 0.7's ``intraclass_corr`` and a floor.

    python benchmarks/numeric_path.py [--items 100000] [--repeats 5] [--skip-peer]

The floor is the least pandas and numpy work that gives the ICC table's mean squares from the
long frame: factorize item and rater, ``np.bincount`` sums per item and per rater, the sums of
squares (no checks, no intervals, no labels). Every call starts from the frame (encoding
included); times are the best of ``--repeats`` rounds in one process, each round timing every
call once, so the ratios are what to read (the machine is shared). Memory: the growth of the
resident set during one call, in a fresh interpreter (``VmHWM`` reset through
``/proc/self/clear_refs``). Results: benchmarks/numeric_path.md.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import pdagree


def frames(n_items: int, n_raters: int = 10, seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A wide frame of distinct floats (one column per judge) and the same as a long frame."""
    rng = np.random.default_rng(seed)
    x = rng.normal(0.0, 2.0, (n_items, 1)) + rng.normal(0.0, 1.0, (n_items, n_raters))
    wide = pd.DataFrame(x, columns=[f"judge_{j}" for j in range(n_raters)])
    long = pd.DataFrame(
        {
            "item": np.repeat(np.arange(n_items), n_raters),
            "rater": np.tile([f"judge_{j}" for j in range(n_raters)], n_items),
            "score": x.ravel(),
        }
    )
    return wide, long.sample(frac=1.0, random_state=seed).reset_index(drop=True)


def floor(long: pd.DataFrame) -> tuple[float, float, float]:
    """The two-way mean squares from the long frame: the least work behind an ICC table."""
    item, items = pd.factorize(long["item"])
    rater, raters = pd.factorize(long["rater"])
    x = long["score"].to_numpy(dtype=np.float64)
    n, k = len(items), len(raters)
    grand = x.mean()
    item_mean = np.bincount(item, weights=x, minlength=n) / np.bincount(item, minlength=n)
    rater_mean = np.bincount(rater, weights=x, minlength=k) / np.bincount(rater, minlength=k)
    ss_rows = k * ((item_mean - grand) ** 2).sum()
    ss_cols = n * ((rater_mean - grand) ** 2).sum()
    ss_err = ((x - grand) ** 2).sum() - ss_rows - ss_cols
    return ss_rows / (n - 1), ss_cols / (k - 1), ss_err / ((n - 1) * (k - 1))


def best(call: Callable[[], Any], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def _long(long: pd.DataFrame) -> pdagree.Ratings:
    return long.agree(item="item", rater="rater", label="score")


CALLS: dict[str, Callable[[pd.DataFrame, pd.DataFrame], Any]] = {
    "icc_table(0.95) wide": lambda wide, long: wide.agree.icc_table(confidence_level=0.95),
    "icc_table(0.95) long": lambda wide, long: _long(long).icc_table(confidence_level=0.95),
    "kendall_w() wide": lambda wide, long: wide.agree.kendall_w(),
    "kendall_w() long": lambda wide, long: _long(long).kendall_w(),
    "alpha(level='interval') wide": lambda wide, long: wide.agree.alpha(level="interval"),
    "alpha(level='interval') long": lambda wide, long: _long(long).alpha(level="interval"),
    "cronbach_alpha() wide": lambda wide, long: wide.agree.cronbach_alpha(),
    "consensus_scores() wide": lambda wide, long: wide.agree.consensus_scores(),
}


def memory(name: str, n_items: int) -> float:
    """The growth of the resident set during ``name`` in a fresh interpreter, in MiB."""
    here = str(Path(__file__).resolve().parent)
    script = (
        "import sys, json\n"
        f"sys.path.insert(0, {here!r})\n"
        "from numeric_path import CALLS, frames\n"
        "from peak_memory import _reset_peak, _status_kib\n"
        f"w, l = frames({n_items})\n"
        "small_w, small_l = frames(100)\n"
        f"CALLS[{name!r}](small_w, small_l)\n"
        "before = _status_kib('VmRSS'); _reset_peak()\n"
        f"CALLS[{name!r}](w, l)\n"
        "print(json.dumps((_status_kib('VmHWM') - before) / 1024))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--skip-peer", action="store_true")
    parser.add_argument("--skip-memory", action="store_true")
    args = parser.parse_args()
    wide, long = frames(args.items)
    small_w, small_l = frames(100)
    warnings.simplefilter("ignore")
    for call in CALLS.values():  # warm up: lazy imports, caches
        call(small_w, small_l)
    timed: dict[str, Callable[[], Any]] = {"floor (long frame)": lambda: floor(long)}
    if not args.skip_peer:
        import pingouin

        timed["pingouin 0.7 intraclass_corr (long)"] = lambda: pingouin.intraclass_corr(
            long, targets="item", raters="rater", ratings="score"
        )
    for name, call in CALLS.items():
        timed[name] = lambda call=call: call(wide, long)
    # Round robin: each repeat times every call once, so that the load of a shared machine
    # weighs on all of them alike; the best of the repeats is kept.
    seconds = {name: float("inf") for name in timed}
    for _ in range(args.repeats):
        for name, call in timed.items():
            seconds[name] = min(seconds[name], best(call, 1))
    floor_time = seconds["floor (long frame)"]
    rows: dict[str, tuple[float, float | None]] = {}
    for name in timed:
        mib = None if args.skip_memory or name not in CALLS else memory(name, args.items)
        rows[name] = (seconds[name], mib)
    print(
        f"{args.items:,} items x 10 raters, best of {args.repeats}; pdagree {pdagree.__version__}"
    )
    print("| call | seconds | x floor | peak MiB |")
    print("|---|---:|---:|---:|")
    for name, (seconds, mib) in rows.items():
        shown = "" if mib is None else f"{mib:.0f}"
        print(f"| {name} | {seconds:.4f} | {seconds / floor_time:.1f} | {shown} |")
    if not args.skip_peer:
        peer = rows["pingouin 0.7 intraclass_corr (long)"][0]
        print(f"\npingouin / icc_table wide: {peer / rows['icc_table(0.95) wide'][0]:.1f}x")
    json.dump({k: v[0] for k, v in rows.items()}, sys.stderr)


if __name__ == "__main__":
    main()
