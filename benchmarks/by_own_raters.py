"""``by=`` groups with their own raters: time and peak memory per method, in a fresh
interpreter per measurement.

    python benchmarks/by_own_raters.py                     # the table (every method)
    python benchmarks/by_own_raters.py one METHOD N_GROUPS # one JSON line
    python benchmarks/by_own_raters.py top METHOD N_GROUPS # tracemalloc's top allocations

The frame: ``N_GROUPS`` groups, each with three raters of its own (no rater in two groups)
who label the group's two items with one of three categories: ``6 * N_GROUPS``
annotations. Each measurement warms the call up on a small frame (lazy imports), then
measures one call: the wall time, and the peak resident set growth (``VmHWM`` reset through
/proc/self/clear_refs) in MiB. The table gives the fastest of three runs and the largest
peak. ``fleiss(by=)`` on the same frame is the yardstick.
"""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent

METHODS = [
    "fleiss",
    "consensus_majority",
    "consensus_one_coin",
    "consensus_dawid_skene",
    "consensus_glad",
    "consensus_mace",
    "per_rater",
    "conger",
    "cohen",
    "bias",
    "light",
    "report",
    "against",
    "per_category_ci",
    "multilabel",
]


def frame(n_groups: int, seed: int = 0) -> pd.DataFrame:
    """``n_groups`` groups x 3 own raters x 2 items, labels in three categories."""
    rng = np.random.default_rng(seed)
    g = np.repeat(np.arange(n_groups), 6)
    item = g * 2 + np.tile(np.repeat([0, 1], 3), n_groups)
    rater = g * 3 + np.tile([0, 1, 2], 2 * n_groups)
    truth = rng.integers(0, 3, size=n_groups * 2)
    label = np.where(rng.random(len(g)) < 0.7, truth[item], rng.integers(0, 3, size=len(g)))
    return pd.DataFrame(
        {
            "group": g,
            "item": item,
            "rater": [f"r{r}" for r in rater],
            "label": np.array(["a", "b", "c"])[label],
        }
    )


def call(method: str) -> Callable[[pd.DataFrame], Any]:
    def run(df: pd.DataFrame) -> Any:
        import pdagree  # noqa: F401  (registers the accessor)

        r = df.agree(item="item", rater="rater", label="label", by="group")
        if method.startswith("consensus_"):
            return r.consensus(method=method.removeprefix("consensus_"), ties="first")
        if method == "per_rater":
            return r.per_rater("fleiss")
        if method == "against":  # a reference label for every item
            return r.against(pd.Series("a", index=df["item"].unique()))
        if method == "per_category_ci":  # the item bootstrap, 20 resamples
            return r.per_category(confidence_level=0.95, n_resamples=20, rng=0)
        if method == "cohen":  # two raters per group: the third is dropped
            return (
                df[df["rater"].str[1:].astype(int) % 3 < 2]
                .agree(item="item", rater="rater", label="label", by="group")
                .cohen()
            )
        return getattr(r, method)()

    return run


def _status_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def one(method: str, n_groups: int) -> dict[str, Any]:
    import warnings

    warnings.simplefilter("ignore")
    run = call(method)
    run(frame(50, seed=1))  # warm-up
    df = frame(n_groups)
    gc.collect()
    before = _status_kib("VmRSS")
    Path("/proc/self/clear_refs").write_text("5")
    start, cpu = time.perf_counter(), time.process_time()
    run(df)
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu
    peak = _status_kib("VmHWM")
    return {
        "method": method,
        "n_groups": n_groups,
        "annotations": len(df),
        "seconds": seconds,
        "cpu_seconds": cpu,
        "peak_mib": max(0, peak - before) / 1024,
    }


def top(method: str, n_groups: int) -> None:
    import warnings

    warnings.simplefilter("ignore")
    run = call(method)
    run(frame(50, seed=1))
    df = frame(n_groups)
    tracemalloc.start(25)
    run(df)
    snap = tracemalloc.take_snapshot()
    print("peak MiB", tracemalloc.get_traced_memory()[1] / 2**20)
    for stat in snap.statistics("traceback")[:1]:
        print(stat)
    stats = snap.statistics("lineno")
    for stat in stats[:8]:
        print(stat)


def measure(method: str, n_groups: int) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, "one", method, str(n_groups)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def best_of(method: str, n_groups: int, repeat: int) -> dict[str, Any]:
    """The fastest of ``repeat`` fresh-process runs (the machine is shared), in wall and in
    CPU time, and the largest peak."""
    runs = [measure(method, n_groups) for _ in range(repeat)]
    best = min(runs, key=lambda r: r["seconds"])
    return {
        **best,
        "cpu_seconds": min(r["cpu_seconds"] for r in runs),
        "peak_mib": max(r["peak_mib"] for r in runs),
    }


def table(n_groups: int, repeat: int = 3) -> str:
    rows = [best_of(m, n_groups, repeat) for m in METHODS]
    base, base_cpu = rows[0]["seconds"], rows[0]["cpu_seconds"]
    lines = [
        f"{n_groups:,} groups x 3 own raters x 2 items ({rows[0]['annotations']:,} annotations)",
        "",
        "| method | seconds | x fleiss(by=) | CPU s | CPU x fleiss(by=) | peak MiB |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['method']} | {r['seconds']:.3f} | {r['seconds'] / base:.1f} "
            f"| {r['cpu_seconds']:.3f} | {r['cpu_seconds'] / base_cpu:.1f} "
            f"| {r['peak_mib']:.0f} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "one":
        print(json.dumps(one(sys.argv[2], int(sys.argv[3]))))
    elif len(sys.argv) > 1 and sys.argv[1] == "top":
        top(sys.argv[2], int(sys.argv[3]))
    else:
        print(table(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000))
