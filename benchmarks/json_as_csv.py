"""A Label Studio export saved as ``.csv`` (issue #26, point 20): how long the command takes
to say so, against reading the same export as what it is.

    python benchmarks/json_as_csv.py [--tasks 6400] [--earlier PATH] [--timeout 60]

Builds a Label Studio JSON export of about 7.8 MB (``--tasks`` tasks, 3 annotations each, one
choice, the user objects and timestamps a real export carries), writes it as ``export.csv``
and ``export.json`` in a temporary folder, and runs, each as a fresh process (as a user
would): ``pdagree report export.csv`` (refused at the first bytes), ``pdagree report
export.json`` (the Label Studio reader) and, in this process, ``pdagree.io.read_label_studio``
alone. ``--earlier PATH`` also runs ``pdagree report export.csv`` with the package found in
PATH (an earlier checkout), stopped after ``--timeout`` seconds. Wall-clock times and peak
resident memory of the child; results: benchmarks/json_as_csv.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import pdagree


def export(n_tasks: int, seed: int = 0) -> list[dict[str, object]]:
    rng = np.random.default_rng(seed)
    users = [{"id": u, "email": f"annotator{u}@example.org", "first_name": "", "last_name": ""}
             for u in range(25)]  # fmt: skip
    tasks = []
    for t in range(n_tasks):
        who = rng.choice(25, 3, replace=False)
        annotations = [
            {
                "id": 3 * t + a,
                "completed_by": users[int(u)] if a % 2 else int(u),
                "result": [{"id": f"r{t}-{a}", "from_name": "sentiment", "to_name": "text",
                            "type": "choices", "origin": "manual",
                            "value": {"choices": [["Positive", "Negative", "Neutral"][
                                int(rng.integers(0, 3))]]}}],
                "was_cancelled": False,
                "ground_truth": False,
                "created_at": "2026-11-20T10:00:00.000000Z",
                "updated_at": "2026-11-20T10:01:00.000000Z",
                "lead_time": float(rng.uniform(2, 60)),
            }
            for a, u in enumerate(who)
        ]  # fmt: skip
        tasks.append({"id": t, "data": {"text": f"review number {t}"}, "annotations": annotations})
    return tasks


def child(argv: list[str], pythonpath: str, timeout: float) -> tuple[float, float, str]:
    """Wall time and peak resident memory (MB) of ``python -m pdagree ARGV`` run with the
    package in ``pythonpath`` (from a neutral folder), and how it ended."""
    env = {**os.environ, "PYTHONPATH": pythonpath}
    with tempfile.TemporaryDirectory() as folder, open(Path(folder) / "err", "w+") as err:
        start = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "pdagree", *argv],
            stdout=subprocess.DEVNULL,
            stderr=err,
            env=env,
            cwd=folder,
        )
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                ended = f"status {os.waitstatus_to_exitcode(status)}"
                break
            if time.perf_counter() - start > timeout:
                process.kill()
                _, _, usage = os.wait4(process.pid, 0)
                ended = f"still running after {timeout:.0f} s (stopped)"
                break
            time.sleep(0.02)
        elapsed = time.perf_counter() - start
        err.seek(0)
        message = err.read().strip().splitlines()
    if message:
        ended += ": " + message[-1][:100]
    return elapsed, usage.ru_maxrss / 1024, ended


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=6400)
    parser.add_argument("--earlier", metavar="PATH", help="an earlier checkout to compare")
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args()
    version = f"Python {platform.python_version()}, pdagree {pdagree.__version__}"
    print(f"{version}, {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as folder:
        text = json.dumps(export(args.tasks))
        as_csv, as_json = Path(folder) / "export.csv", Path(folder) / "export.json"
        as_csv.write_text(text)
        as_json.write_text(text)
        print(f"export: {args.tasks} tasks, {len(text) / 1e6:.1f} MB")
        here = str(Path(pdagree.__file__).parent.parent)
        for what, argv, path in [
            ("report export.csv (refused)", ["report", str(as_csv)], here),
            (
                "report export.json (read)",
                ["report", str(as_json), "--coefficients", "fleiss"],
                here,
            ),
        ]:
            elapsed, peak, ended = child(argv, path, args.timeout)
            print(f"{what}: {elapsed:.2f} s, {peak:.0f} MB; {ended}")
        reader = (
            "import sys, time, pdagree.io as io; t = time.perf_counter(); "
            "f = io.read_label_studio(sys.argv[1]); "
            "print(f'{time.perf_counter() - t:.2f} s, {len(f)} rows, "
            '{f["rater"].nunique()} raters\')'
        )
        paths = [("this checkout", here)]
        if args.earlier is not None:
            paths.append(("earlier", args.earlier))
        for name, path in paths:
            done = subprocess.run(
                [sys.executable, "-c", reader, str(as_json)],
                capture_output=True, text=True, check=False, cwd=folder,
                env={**os.environ, "PYTHONPATH": path},
            )  # fmt: skip
            print(f"read_label_studio alone, {name}: {done.stdout.strip() or done.stderr[-200:]}")
        if args.earlier is not None:
            elapsed, peak, ended = child(["report", str(as_csv)], args.earlier, args.timeout)
            print(f"earlier: report export.csv: {elapsed:.2f} s, {peak:.0f} MB; {ended}")
        elapsed, peak, ended = child(["datasets"], here, args.timeout)
        print(f"the command's start-up (pdagree datasets): {elapsed:.2f} s, {peak:.0f} MB")


if __name__ == "__main__":
    main()
