"""pdagree.dask on data that is never materialised: time and peak worker memory.

    python benchmarks/dask_scale.py                       # 10^6, 10^7, 10^8 annotations
    python benchmarks/dask_scale.py --sizes 1e6,1e7 --memory-limit 2GiB
    python benchmarks/dask_scale.py --sizes '' --straddling 1e7 --repeat 3

Each partition of 10^6 annotations (100,000 items x 10 raters, string labels in five
categories, the generator of data.py) is generated on a worker from its seed when the
graph runs (``dd.from_map``): the client never holds the annotations. A 2-worker
``distributed.LocalCluster`` bound to 127.0.0.1, one thread per worker and a memory limit
per worker, computes ``ddf.agree(item=, rater=, label=).fleiss()`` end to end (the
reduction, the duplicate check, the coefficient), once with the check that no (item, rater)
pair has two labels (a shuffle of the pairs) and once without. A sampler polls each worker's
resident memory every 0.2 s; the client's peak resident memory is read from the kernel.

Checked before any time is reported: at 10^6 annotations, the value equals the pandas path on
the computed frame (1e-12); at every size, it equals a floor computed partition by partition
(whole items per partition: the per-item sums of Fleiss' formula, added up) to 1e-9. Up to
``--pandas-upto`` annotations (10^7) the pandas path runs on the whole frame in the client's
process after the Dask runs, for the ratio (fleiss and alpha, end to end).

Straddling items (``--straddling``, 10^7 by default): the rows of 10^6 items x 10 raters in
the order of one random permutation of the whole frame (as exports come, in annotation
order), cut into ``--partitions`` (20) partitions that are generated on the workers and
persisted before the clock starts, so that each item's ten ratings lie in about eight
partitions. ``fleiss()`` and ``alpha()`` are timed ``--repeat`` times on the cluster and on
the computed frame's pandas path, alternately, in this process; the table gives the median of
each and their ratio (and every run in ``dask.json``). The values equal the pandas path's
(1e-9, see below).

Writes ``dask.md`` and ``dask.json`` next to the other results (``--out``); a section of
``dask.md`` from its ``## Earlier figures`` heading on is kept as it is.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import resource
import sys
import threading
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from data import _PREVALENCE, CATEGORIES, _labels, _rater_names  # noqa: E402

PER_PARTITION = 10**6
#: The heading from which dask.md is kept as it is when the script writes it again.
EARLIER = "## Earlier figures"
RATERS = 10


def make_partition(index: int, seed: int = 0) -> pd.DataFrame:
    """Partition ``index``: 100,000 whole items rated by all 10 raters, in shuffled order."""
    rng = np.random.default_rng([seed, index, 13])
    n_items = PER_PARTITION // RATERS
    order = rng.permutation(PER_PARTITION)
    item, rater = order // RATERS, order % RATERS
    codes = _labels(rng, item, rater, n_items, RATERS)
    names = np.array(CATEGORIES, dtype=object)
    return pd.DataFrame(
        {
            "item": item.astype(np.int64) + index * n_items,
            "rater": pd.array(_rater_names(RATERS)[rater], dtype="str"),
            "label": pd.array(names[codes], dtype="str"),
        }
    )


def make_straddling_partition(
    index: int, n_parts: int, n_annotations: int, seed: int = 0
) -> pd.DataFrame:
    """Partition ``index`` of ``n_parts`` of ``n_annotations`` ratings (``n_annotations / 10``
    items x 10 raters) whose rows are in the order of one random permutation of the whole
    frame: an item's ratings are spread over the partitions."""
    order = np.random.default_rng([seed, n_annotations, 17]).permutation(n_annotations)
    bounds = np.linspace(0, n_annotations, n_parts + 1).astype(np.int64)
    cell = order[bounds[index] : bounds[index + 1]]
    item, rater = cell // RATERS, cell % RATERS
    n_items = n_annotations // RATERS
    truth = np.random.default_rng([seed, n_annotations, 19]).choice(
        len(CATEGORIES), size=n_items, p=_PREVALENCE
    )
    rng = np.random.default_rng([seed, n_annotations, index, 23])
    accuracy = np.linspace(0.55, 0.85, RATERS)
    correct = rng.random(cell.size) < accuracy[rater]
    codes = np.where(correct, truth[item], rng.integers(0, len(CATEGORIES), size=cell.size))
    names = np.array(CATEGORIES, dtype=object)
    return pd.DataFrame(
        {
            "item": item.astype(np.int64),
            "rater": pd.array(_rater_names(RATERS)[rater], dtype="str"),
            "label": pd.array(names[codes], dtype="str"),
        }
    )


def _floor_parts(frame: pd.DataFrame) -> np.ndarray:
    """Per partition (whole items): sum of a_i over pairable items, their number, and the
    sums of n_ik / r_i per category over rated items, with their number."""
    item, items = pd.factorize(frame["item"])
    label = pd.Categorical(frame["label"], categories=CATEGORIES).codes
    k = len(CATEGORIES)
    nik = np.bincount(item * k + label, minlength=len(items) * k).reshape(-1, k).astype(float)
    r = nik.sum(axis=1)
    pairable = r >= 2
    a = (nik * (nik - 1.0)).sum(axis=1)[pairable] / (r * (r - 1.0))[pairable]
    share = (nik[r >= 1] / r[r >= 1, None]).sum(axis=0)
    return np.r_[a.sum(), pairable.sum(), share, (r >= 1).sum()]


def floor_fleiss(ddf: Any) -> float:
    import dask

    parts = dask.compute(*[dask.delayed(_floor_parts)(p) for p in ddf.to_delayed()])
    total = np.sum(parts, axis=0)
    a_o = total[0] / total[1]
    pi = total[2:-1] / total[-1]
    a_e = float((pi * pi).sum())
    return float((a_o - a_e) / (1.0 - a_e))


class Sampler:
    """Polls every worker's resident set size (bytes) in a thread; keeps each worker's peak."""

    def __init__(self, client: Any, interval: float = 0.2) -> None:
        self.client = client
        self.interval = interval
        self.peak: dict[str, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    @staticmethod
    def _rss() -> int:
        import psutil

        return int(psutil.Process().memory_info().rss)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                for worker, rss in self.client.run(self._rss).items():
                    self.peak[worker] = max(self.peak.get(worker, 0), rss)
            except Exception:  # a worker restarting: keep polling
                pass
            self._stop.wait(self.interval)

    def __enter__(self) -> Sampler:
        self.peak = {}
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._stop.clear()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def _client_peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def run(
    sizes: list[int],
    memory_limit: str,
    seed: int,
    pandas_upto: int,
    straddling: list[int] | None = None,
    straddling_parts: int = 20,
    repeat: int = 3,
) -> dict[str, Any]:
    import dask.dataframe as dd
    import distributed

    import pdagree.dask  # noqa: F401  (registers the accessor)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cluster = distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            memory_limit=memory_limit,
            dashboard_address=None,
        )
        client = distributed.Client(cluster)
    rows: list[dict[str, Any]] = []
    try:
        for n in sizes:
            n_parts = max(1, n // PER_PARTITION)
            ddf = dd.from_map(make_partition, range(n_parts), seed=seed)
            reference = floor_fleiss(ddf)
            if n <= 10**6:
                frame = ddf.compute()
                local = float(frame.agree(item="item", rater="rater", label="label").fleiss())
                del frame
                assert abs(local - reference) < 1e-9, (local, reference)
            for check in (True, False):
                client.run(lambda: __import__("gc").collect())
                with Sampler(client) as sampler:
                    start = time.perf_counter()
                    ratings = ddf.agree(
                        item="item", rater="rater", label="label", check_duplicates=check
                    )
                    value = float(ratings.fleiss())
                    alpha = float(ratings.alpha())
                    elapsed = time.perf_counter() - start
                if n <= 10**6:
                    assert abs(value - local) < 1e-12, (value, local)
                assert abs(value - reference) < 1e-9 * abs(reference), (value, reference)
                peak = max(sampler.peak.values()) / 2**20 if sampler.peak else float("nan")
                row = {
                    "annotations": n,
                    "partitions": n_parts,
                    "check_duplicates": check,
                    "seconds": elapsed,
                    "value": value,
                    "floor": reference,
                    "peak_worker_mib": peak,
                    "client_peak_mib": _client_peak_mib(),
                    "items": int(ratings.n_items),
                    "alpha": alpha,
                    "pandas_seconds": float("nan"),
                }
                rows.append(row)
                print(json.dumps(row), flush=True)
        # The pandas path last, once every Dask run has read the client's peak memory.
        for n in sizes:
            if n > pandas_upto:
                continue
            n_parts = max(1, n // PER_PARTITION)
            frame = pd.concat([make_partition(i, seed) for i in range(n_parts)])
            start = time.perf_counter()
            local_ratings = frame.agree(item="item", rater="rater", label="label")
            local_values = (float(local_ratings.fleiss()), float(local_ratings.alpha()))
            seconds = time.perf_counter() - start
            del frame, local_ratings
            # Above 10^6 items the pandas path's own sums over items carry rounding of
            # about n * 2e-16 (its Fleiss A_o at 10^7 annotations is 8.7e-13 from
            # math.fsum's, where the rows of counts give fsum's value): 1e-9 as the floor.
            tolerance = 1e-12 if n <= 10**6 else 1e-9
            for row in rows:
                if row["annotations"] == n:
                    assert abs(row["value"] - local_values[0]) < tolerance
                    assert abs(row["alpha"] - local_values[1]) < tolerance
                    row["pandas_seconds"] = seconds
        straddled = run_straddling(client, straddling or [], straddling_parts, repeat, seed)
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            client.close()
            cluster.close()
    return {
        "rows": rows,
        "memory_limit": memory_limit,
        "straddling": straddled,
        "repeat": repeat,
    }


def _fleiss_alpha(frame: Any, **kwargs: Any) -> tuple[float, float, float]:
    """Seconds for ``frame.agree(**kwargs)`` then ``fleiss()`` and ``alpha()``, and the two
    values."""
    start = time.perf_counter()
    built = frame.agree(**kwargs)
    values = float(built.fleiss()), float(built.alpha())
    return time.perf_counter() - start, *values


def run_straddling(
    client: Any, sizes: list[int], n_parts: int, repeat: int, seed: int
) -> list[dict[str, Any]]:
    """Items straddling the partitions: Dask against pandas, alternately, in this process."""
    import dask.dataframe as dd
    import distributed

    rows: list[dict[str, Any]] = []
    for n in sizes:
        ddf = dd.from_map(
            make_straddling_partition, range(n_parts), n_parts=n_parts, n_annotations=n,
            seed=seed,
        ).persist()  # fmt: skip
        distributed.wait(ddf)
        frame = ddf.compute()
        parts = [set(p["item"]) for p in (ddf.get_partition(i).compute() for i in (0, 1))]
        shared = len(parts[0] & parts[1]) / len(parts[0])
        args = {"item": "item", "rater": "rater", "label": "label"}
        for check in (True, False):
            dask_runs, pandas_runs = [], []
            for _ in range(repeat):
                client.run(lambda: __import__("gc").collect())
                seconds, value, alpha = _fleiss_alpha(ddf, **args, check_duplicates=check)
                dask_runs.append(seconds)
                local_seconds, local, local_alpha = _fleiss_alpha(frame, **args)
                pandas_runs.append(local_seconds)
                # The pandas path's sums over 10^6 items carry rounding of about 1e-12.
                assert abs(value - local) < 1e-9, (value, local)
                assert abs(alpha - local_alpha) < 1e-9, (alpha, local_alpha)
            row = {
                "annotations": n,
                "partitions": n_parts,
                "check_duplicates": check,
                "seconds": float(np.median(dask_runs)),
                "pandas_seconds": float(np.median(pandas_runs)),
                "dask_runs": dask_runs,
                "pandas_runs": pandas_runs,
                "items_shared_by_two_partitions": shared,
                "value": value,
                "alpha": alpha,
            }
            rows.append(row)
            print(json.dumps(row), flush=True)
        del frame, ddf
    return rows


def straddling_markdown(rows: list[dict[str, Any]], repeat: int) -> list[str]:
    if not rows:
        return []
    shared = rows[0]["items_shared_by_two_partitions"]
    lines = [
        "",
        "## Items straddling the partitions",
        "",
        "The rows of 10^6 items x 10 raters in one random order (as exports come) cut into "
        f"{rows[0]['partitions']} partitions persisted on the same cluster ({shared:.0%} of "
        "partition 0's items also have ratings in partition 1). Time: `ddf.agree(item=, "
        "rater=, label=)` then `.fleiss()` and `.alpha()`, and the same on the computed "
        f"frame's pandas path, alternately in this process, {repeat} times each: medians "
        "(every run in `dask.json`). Values equal to the pandas path's to 1e-9.",
        "",
        "| annotations | partitions | duplicate check | dask seconds | pandas seconds "
        "| dask / pandas | fleiss |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| 10^{round(np.log10(r['annotations']))} | {r['partitions']} "
            f"| {'yes' if r['check_duplicates'] else 'no'} | {r['seconds']:.2f} "
            f"| {r['pandas_seconds']:.2f} | {r['seconds'] / r['pandas_seconds']:.1f}x "
            f"| {r['value']:.6f} |"
        )
    return lines


def markdown(result: dict[str, Any], meta: dict[str, Any]) -> str:
    lines = [
        "# pdagree.dask at scale",
        "",
        f"`{meta['command']}` on {meta['date']}, {meta['machine']}, in "
        f"{meta['elapsed'] / 60:.1f} minutes; 1-minute load average at the start "
        f"{meta['load'][0]:.2f}, at the end {meta['load'][1]:.2f}.",
        "",
        "A 2-worker `distributed.LocalCluster` (127.0.0.1, one thread per worker, memory limit "
        f"{result['memory_limit']} per worker); each partition of 10^6 annotations (100,000 "
        "items x 10 raters, five string categories) is generated on a worker when the graph "
        "runs, never on the client. Time: `ddf.agree(item=, rater=, label=)` then `.fleiss()` "
        "and `.alpha()`, end to end, wall clock; pandas: the same on the whole frame in the "
        "client's process (built after every Dask run, up to `--pandas-upto` annotations). Peak "
        "worker memory: the highest resident set of either worker, polled every 0.2 s; client "
        "peak: the client process's largest resident set so far (the pandas runs come after "
        "every Dask run; it includes the 10^6 check below, which computes the frame). Every "
        "value equals a floor computed partition by partition (1e-9), and the pandas path on "
        "the whole frame where it was run (1e-12 at 10^6; 1e-9 above, where the pandas "
        "path's own sums over 10^6 items and more carry rounding of that order).",
        "",
        "| annotations | items | partitions | duplicate check | seconds | annotations / s "
        "| pandas seconds | dask / pandas | peak worker MiB | client peak MiB | fleiss |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in result["rows"]:
        lines.append(
            f"| 10^{round(np.log10(r['annotations']))} | {r['items']:,} | {r['partitions']} "
            f"| {'yes' if r['check_duplicates'] else 'no'} | {r['seconds']:.1f} "
            f"| {r['annotations'] / r['seconds']:,.0f} | {r['pandas_seconds']:.2f} "
            f"| {r['seconds'] / r['pandas_seconds']:.1f}x | {r['peak_worker_mib']:.0f} "
            f"| {r['client_peak_mib']:.0f} | {r['value']:.6f} |"
        )
    lines += straddling_markdown(result.get("straddling", []), result.get("repeat", 0))
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1e6,1e7,1e8", help="annotations, comma-separated")
    parser.add_argument("--memory-limit", default="3GiB", help="per worker")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pandas-upto", type=float, default=1e7, help="annotations")
    parser.add_argument(
        "--straddling", default="1e7", help="annotations with straddling items, comma-separated"
    )
    parser.add_argument("--partitions", type=int, default=20, help="of the straddling frames")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each straddling timing")
    parser.add_argument("--out", type=Path, default=HERE / "results")
    args = parser.parse_args(argv)
    sizes = [int(float(s)) for s in args.sizes.split(",") if s.strip()]
    start = time.perf_counter()
    load_start = os.getloadavg()[0]
    straddling = [int(float(s)) for s in args.straddling.split(",") if s.strip()]
    result = run(
        sizes, args.memory_limit, args.seed, int(args.pandas_upto), straddling,
        args.partitions, args.repeat,
    )  # fmt: skip
    import run as harness  # the machine description of the main benchmark

    command = "python benchmarks/dask_scale.py" + (
        "" if argv is None and len(sys.argv) == 1 else " " + " ".join(sys.argv[1:])
    )
    meta = {
        "command": command,
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": harness._machine(),
        "elapsed": time.perf_counter() - start,
        "load": [load_start, os.getloadavg()[0]],
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "dask.json").write_text(json.dumps({**result, **meta}, indent=1))
    text = markdown(result, meta)
    md = args.out / "dask.md"
    earlier = md.read_text().partition(EARLIER)[2] if md.exists() else ""
    if earlier:
        text += "\n" + EARLIER + earlier
    md.write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
