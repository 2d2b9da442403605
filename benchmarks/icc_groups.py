"""`icc_table(by=)` and `kendall_w(by=)` on many small groups (issue #26, points 16 and 19).

    python benchmarks/icc_groups.py [--groups 100000] [--incomplete 2000] [--repeats 3]
    python benchmarks/icc_groups.py --one CALL N_GROUPS   # one measurement, JSON (internal)

- Groups with raters of their own: ``N_GROUPS`` groups of 3 raters of their own x 2 items
  (6 ratings per group). Each call (``fleiss``, ``icc_table``, ``kendall_w`` with ``by=``)
  runs in a fresh interpreter: the imports and a small warm-up call first (so lazy imports do
  not count), then the call on the full frame; the time (median of ``--repeats`` in that
  process) and the growth of the resident set during the first call (the peak, ``VmHWM``,
  reset through /proc/self/clear_refs, minus the resident set before it; ``ru_maxrss`` where
  that cannot be reset).
- Incomplete groups: ``--incomplete`` groups of 4 items x 3 raters with each rating dropped
  with probability 0.15 (about 10 ratings per group, every group incomplete): the REML fit of
  every group, timed in this process after a warm-up, raters shared by the groups and raters
  of their own.

Run it with ``PYTHONPATH`` pointing at another checkout to measure that one.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from peak_memory import _status_kib


def own_raters(n_groups: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    g = np.repeat(np.arange(n_groups), 6)
    item = np.tile(np.repeat(np.arange(2), 3), n_groups) + 2 * g
    rater = np.tile(np.arange(3), 2 * n_groups) + 3 * g
    return pd.DataFrame({"g": g, "item": item, "rater": rater, "y": rng.integers(1, 6, len(g))})


def incomplete(n_groups: int, own: bool, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    g = np.repeat(np.arange(n_groups), 12)
    item = np.tile(np.repeat(np.arange(4), 3), n_groups) + 4 * g
    rater = np.tile(np.arange(3), 4 * n_groups) + (3 * g if own else 0)
    y = rng.normal(size=len(g)) + np.repeat(rng.normal(size=4 * n_groups), 3)
    frame = pd.DataFrame({"g": g, "item": item, "rater": rater, "y": np.round(y, 2)})
    return frame[rng.random(len(frame)) >= 0.15].reset_index(drop=True)


def one(call: str, n_groups: int, repeats: int) -> None:
    import resource

    import pdagree  # noqa: F401

    warnings.simplefilter("ignore")

    def run(frame: pd.DataFrame) -> object:
        ratings = frame.agree(item="item", rater="rater", label="y", by="g")
        return getattr(ratings, call)()

    run(own_raters(50))  # lazy imports, caches
    frame = own_raters(n_groups)
    rss = _status_kib("VmRSS")
    try:
        Path("/proc/self/clear_refs").write_text("5")
        method = "VmHWM"
    except OSError:
        method = "ru_maxrss"
    start = time.perf_counter()
    run(frame.copy())
    times = [time.perf_counter() - start]
    peak = _status_kib("VmHWM") if method == "VmHWM" else None
    if peak is None:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for _ in range(repeats - 1):
        start = time.perf_counter()
        run(frame.copy())
        times.append(time.perf_counter() - start)
    growth = (peak - (rss or 0)) / 1024
    print(json.dumps({"call": call, "seconds": statistics.median(times), "mib": growth}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--groups", type=int, default=100_000)
    parser.add_argument("--incomplete", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--skip-own", action="store_true", help="incomplete: shared only")
    parser.add_argument("--one", nargs=2, metavar=("CALL", "N_GROUPS"))
    args = parser.parse_args()
    if args.one:
        one(args.one[0], int(args.one[1]), args.repeats)
        return
    import pdagree

    print(
        f"pdagree {pdagree.__version__} from {Path(pdagree.__file__).parent}, numpy "
        f"{np.__version__}, pandas {pd.__version__}, Python {platform.python_version()}, "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}"
    )
    if args.groups:
        print(f"\n{args.groups:,} groups x 3 own raters x 2 items ({6 * args.groups:,} ratings)")
        print("| call | time | peak growth | time / fleiss(by=) |")
        print("|---|---|---|---|")
        base = None
        for call in ("fleiss", "icc_table", "kendall_w"):
            out = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--one",
                    call,
                    str(args.groups),
                    "--repeats",
                    str(args.repeats),
                ],
                capture_output=True,
                text=True,
                check=True,
            )
            got = json.loads(out.stdout.strip().splitlines()[-1])
            base = got["seconds"] if base is None else base
            print(
                f"| `{call}(by=)` | {got['seconds']:.3f} s | {got['mib']:.0f} MiB | "
                f"{got['seconds'] / base:.1f}x |"
            )
    if args.incomplete:
        warnings.simplefilter("ignore")
        print(f"\n{args.incomplete:,} incomplete groups of about 10 ratings")
        print("| raters | ratings | `icc_table(by=)` |")
        print("|---|---|---|")
        for own in (False,) if args.skip_own else (False, True):
            frame = incomplete(args.incomplete, own)
            frame.head(120).agree(item="item", rater="rater", label="y", by="g").icc_table()
            start = time.perf_counter()
            frame.agree(item="item", rater="rater", label="y", by="g").icc_table()
            took = time.perf_counter() - start
            kind = "of their own" if own else "shared (3)"
            print(f"| {kind} | {len(frame):,} | {took:.2f} s |")


if __name__ == "__main__":
    main()
