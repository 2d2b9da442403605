"""MACE on ``by=`` groups with raters of their own against ``fleiss(by=)``: CPU time, this
code and (optionally) an earlier tree, interleaved in one session.

    python benchmarks/mace_by.py [N_GROUPS] [--before DIR] [--repeat R]

``DIR`` is an earlier source tree (e.g. ``git archive <commit> | tar -x -C DIR``). Each
measurement is a fresh interpreter that imports ``pdagree`` and
``benchmarks/by_own_raters.py`` from its tree, warms the call up on a small frame, then
takes ``time.process_time`` around one call on ``N_GROUPS`` groups of three own raters x
two items (``6 * N_GROUPS`` annotations). The runs go round robin (fleiss, MACE, then the
earlier tree's) ``R`` times; the table gives the fastest CPU time of each, the ratio to
``fleiss`` of the same tree and MACE's mean EM steps per group.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
METHODS = ["fleiss", "consensus_mace"]


def child(tree: str, method: str, n_groups: int) -> dict[str, Any]:
    import time
    import warnings

    warnings.simplefilter("ignore")
    sys.path[:0] = [tree, str(Path(tree) / "benchmarks")]
    import by_own_raters  # the tree's own frame and call

    run = by_own_raters.call(method)
    run(by_own_raters.frame(50, seed=1))  # warm-up: lazy imports
    df = by_own_raters.frame(n_groups)
    start = time.process_time()
    out = run(df)
    cpu = time.process_time() - start
    steps = float(out.n_iterations.mean()) if method.startswith("consensus_") else None
    return {"method": method, "cpu": cpu, "steps": steps}


def measure(tree: Path, method: str, n_groups: int) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, "child", str(tree), method, str(n_groups)],
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def table(n_groups: int, before: Path | None, repeat: int) -> str:
    trees = {"after": ROOT} if before is None else {"before": before, "after": ROOT}
    runs: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for _ in range(repeat):
        for label, tree in trees.items():
            for method in METHODS:
                runs.setdefault((label, method), []).append(measure(tree, method, n_groups))
    lines = [
        f"{n_groups:,} groups x 3 own raters x 2 items ({6 * n_groups:,} annotations), "
        f"CPU seconds, fastest of {repeat}",
        "",
        "| code | fleiss CPU s | MACE CPU s | MACE x fleiss | MACE EM steps per group |",
        "|---|---:|---:|---:|---:|",
    ]
    for label in trees:
        fleiss = min(r["cpu"] for r in runs[(label, "fleiss")])
        mace = min(runs[(label, "consensus_mace")], key=lambda r: r["cpu"])
        lines.append(
            f"| {label} | {fleiss:.3f} | {mace['cpu']:.3f} | {mace['cpu'] / fleiss:.1f} "
            f"| {mace['steps']:.1f} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "child":
        print(json.dumps(child(sys.argv[2], sys.argv[3], int(sys.argv[4]))))
    else:
        parser = argparse.ArgumentParser()
        parser.add_argument("n_groups", nargs="?", type=int, default=100_000)
        parser.add_argument("--before", type=Path, default=None)
        parser.add_argument("--repeat", type=int, default=5)
        args = parser.parse_args()
        print(table(args.n_groups, args.before, args.repeat))
