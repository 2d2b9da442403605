"""``pdagree.Tally`` at issue #20's sizes: the cost of adding a batch to a large tally, and of
saving and loading it, as ratios in one process.

    python benchmarks/tally_speed.py [--annotations 1e7] [--batch 1e4] [--adds 30]

- ``add``: a tally of ``--annotations`` annotations (items x 10 raters, five text labels, the
  duplicate check on) receives ``--adds`` batches of ``--batch`` rows of new items, one after
  another; each add is timed against encoding the same batch alone
  (``batch.agree(item=, rater=, label=)``, the pandas path's reading of it). Adds merge the
  tally's sorted runs as a binary counter carries, so an occasional add pays for a merge: the
  median, the mean (what a long run of adds costs) and the slowest are reported.
- ``save`` / ``load``: ``tally.save(path)`` and ``Tally.load(path)`` against writing and
  reading the same count arrays with ``np.savez`` / ``np.load``; ``save(compress=True)``
  against ``np.savez_compressed``.
- memory: the bytes of the tally's arrays (runs and key indexes) against the annotations'
  frame.

Results: benchmarks/tally_speed.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

import pdagree

LABELS = np.array(["a", "b", "c", "d", "e"], dtype=object)


def frame(n_items: int, first: int = 0, seed: int = 0, raters: int = 10) -> pd.DataFrame:
    rng = np.random.default_rng([seed, first])
    item = np.repeat(np.arange(first, first + n_items), raters)
    truth = rng.integers(0, 5, n_items)
    label = np.where(rng.random(n_items * raters) < 0.7, np.repeat(truth, raters),
                     rng.integers(0, 5, n_items * raters))  # fmt: skip
    return pd.DataFrame(
        {
            "item": item,
            "rater": pd.array([f"r{i}" for i in range(raters)] * n_items, dtype="str"),
            "label": pd.array(LABELS[label], dtype="str"),
        }
    )


def tally_bytes(tally: pdagree.Tally) -> int:
    counts = tally._counts
    total = 0
    for name in ("nik", "nck", "pairs"):
        runs = getattr(counts, name)
        if runs is not None:
            total += sum(k.nbytes + c.nbytes for k, c in runs.runs)
    for name in ("items", "raters", "labels", "groups"):
        total += sum(int(r.memory_usage(deep=True)) for r in getattr(counts, name).runs)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--annotations", type=float, default=1e7)
    parser.add_argument("--batch", type=float, default=1e4)
    parser.add_argument("--adds", type=int, default=30)
    args = parser.parse_args()
    n_items, batch_items = int(args.annotations) // 10, int(args.batch) // 10
    print(
        f"pdagree {pdagree.__version__}, numpy {np.__version__}, pandas {pd.__version__}, "
        f"Python {platform.python_version()}, {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.2f}"
    )
    big = frame(n_items)
    start = time.perf_counter()
    tally = pdagree.Tally.from_frame(big, item="item", rater="rater", label="label")
    built = time.perf_counter() - start
    print(f"tally of {len(big):,} annotations built in {built:.2f} s; {tally!r}")
    frame_bytes = int(big.memory_usage(deep=True).sum())
    del big
    adds, encodes = [], []
    for j in range(args.adds):
        batch = frame(batch_items, first=n_items + j * batch_items, seed=j + 1)
        start = time.perf_counter()
        batch.agree(item="item", rater="rater", label="label")
        encodes.append(time.perf_counter() - start)
        start = time.perf_counter()
        tally.add(batch)
        adds.append(time.perf_counter() - start)
    enc = statistics.median(encodes)
    print("| what | tally | reference | tally / reference |")
    print("|---|---|---|---|")
    for what, value in (
        ("median", statistics.median(adds)),
        ("mean", statistics.fmean(adds)),
        ("slowest", max(adds)),
    ):
        print(
            f"| `add` of {len(batch):,} rows, {what} of {args.adds} | {value * 1e3:.1f} ms "
            f"| {enc * 1e3:.1f} ms (encoding the batch, median) | {value / enc:.1f}x |"
        )
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "tally.npz"
        start = time.perf_counter()
        tally.save(path)
        t_save = time.perf_counter() - start
        start = time.perf_counter()
        loaded = pdagree.Tally.load(path)
        t_load = time.perf_counter() - start
        assert float(loaded.fleiss()) == float(tally.fleiss())
        counts = tally._counts
        arrays = {
            "nik_keys": counts.nik.merged()[0], "nik_counts": counts.nik.merged()[1],
            "nck_keys": counts.nck.merged()[0], "nck_counts": counts.nck.merged()[1],
            "pairs": counts.pairs.merged()[0] if counts.pairs is not None else np.zeros(0),
            "items": np.asarray(counts.items.index()),
        }  # fmt: skip
        plain = Path(tmp) / "plain.npz"
        start = time.perf_counter()
        np.savez(plain, **arrays)
        t_plain = time.perf_counter() - start
        start = time.perf_counter()
        with np.load(plain) as data:
            _ = {k: data[k] for k in data.files}
        t_plain_load = time.perf_counter() - start
        size, plain_size = path.stat().st_size, plain.stat().st_size
        start = time.perf_counter()
        tally.save(Path(tmp) / "small.npz", compress=True)
        t_small = time.perf_counter() - start
        start = time.perf_counter()
        np.savez_compressed(Path(tmp) / "plain_small.npz", **arrays)
        t_plain_small = time.perf_counter() - start
        small = (Path(tmp) / "small.npz").stat().st_size
    print(
        f"| `save` | {t_save:.2f} s | {t_plain:.2f} s (`np.savez` of the same arrays) "
        f"| {t_save / t_plain:.1f}x |"
    )
    print(
        f"| `load` | {t_load:.2f} s | {t_plain_load:.2f} s (`np.load` of them) "
        f"| {t_load / t_plain_load:.1f}x |"
    )
    print(f"| file | {size / 2**20:.0f} MiB | {plain_size / 2**20:.0f} MiB | |")
    print(
        f"| `save(compress=True)` | {t_small:.2f} s, {small / 2**20:.0f} MiB | "
        f"{t_plain_small:.2f} s (`np.savez_compressed`) | {t_small / t_plain_small:.1f}x |"
    )
    print(
        f"| memory of the tally's arrays | {tally_bytes(tally) / 2**20:.0f} MiB | "
        f"{frame_bytes / 2**20:.0f} MiB (the annotations' frame) | |"
    )


if __name__ == "__main__":
    main()
