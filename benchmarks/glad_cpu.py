"""CPU time of ``consensus("glad", by=)`` against ``fleiss(by=)`` on the frame of
``by_own_raters.py`` (groups of three raters of their own x two items), each call in a
fresh interpreter, this tree and optionally an earlier one interleaved.

    python benchmarks/glad_cpu.py [N_GROUPS] [--before PATH] [--repeat R]
    python benchmarks/glad_cpu.py one METHOD N_GROUPS   # one JSON line (this interpreter)

``--before PATH``: a checkout of an earlier commit (``git worktree add PATH COMMIT``), run
with ``PYTHONPATH=PATH`` between this tree's runs, so that both see the same machine load.
Each figure is the smallest of ``R`` runs of ``time.process_time`` around the call (after a
warm-up call on a small frame); the wall time of the same runs is printed beside it, and
the load average before and after.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
METHODS = ["fleiss", "consensus_glad"]


def one(method: str, n_groups: int) -> dict[str, Any]:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import by_own_raters as frames

    warnings.simplefilter("ignore")
    run = frames.call(method)
    run(frames.frame(50, seed=1))  # warm-up (lazy imports)
    df = frames.frame(n_groups)
    gc.collect()
    cpu, wall = time.process_time(), time.perf_counter()
    out = run(df)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    steps = float(out.n_iterations.mean()) if hasattr(out, "n_iterations") else None
    return {"method": method, "cpu": cpu, "wall": wall, "mean_em_steps": steps}


def measure(tree: Path, method: str, n_groups: int) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    script = tree / "benchmarks" / "glad_cpu.py"
    if not script.exists():  # an earlier tree without this script: run this one on it
        script = Path(__file__).resolve()
    out = subprocess.run(
        [sys.executable, str(script), "one", method, str(n_groups)],
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
        env=env,
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def table(n_groups: int, before: Path | None, repeat: int) -> str:
    trees = {"after": ROOT} if before is None else {"before": before, "after": ROOT}
    runs: dict[tuple[str, str], list[dict[str, Any]]] = {}
    load = os.getloadavg()[0]
    for _ in range(repeat):
        for name, tree in trees.items():
            for method in METHODS:
                runs.setdefault((name, method), []).append(measure(tree, method, n_groups))
    lines = [
        f"{n_groups:,} groups x 3 own raters x 2 items; fastest CPU of {repeat}; "
        f"load average {load:.2f} before, {os.getloadavg()[0]:.2f} after",
        "",
        "| code | method | CPU s | x fleiss (CPU) | wall s of that run | mean EM steps |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for name in trees:
        base = min(r["cpu"] for r in runs[(name, "fleiss")])
        for method in METHODS:
            best = min(runs[(name, method)], key=lambda r: r["cpu"])
            steps = "" if best["mean_em_steps"] is None else f"{best['mean_em_steps']:.2f}"
            lines.append(
                f"| {name} | {method} | {best['cpu']:.3f} | {best['cpu'] / base:.1f} "
                f"| {best['wall']:.3f} | {steps} |"
            )
    return "\n".join(lines)


if __name__ == "__main__":
    args = sys.argv[1:]
    if args and args[0] == "one":
        print(json.dumps(one(args[1], int(args[2]))))
    else:
        before = Path(args[args.index("--before") + 1]) if "--before" in args else None
        repeat = int(args[args.index("--repeat") + 1]) if "--repeat" in args else 3
        plain = [a for a in args if not a.startswith("--") and a not in {str(before), str(repeat)}]
        print(table(int(plain[0]) if plain else 100_000, before, repeat))
