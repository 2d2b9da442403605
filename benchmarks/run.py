"""Benchmarks of pdagree against the floor and the peer libraries.

    python benchmarks/run.py            # the full run: 10^4 .. 10^7 annotations
    python benchmarks/run.py --quick    # 10^4 and 10^5 only, under two minutes
    python benchmarks/run.py --quick --out /tmp/bench --only main,import

Writes ``latest.md`` (tables), ``latest.json`` (every measurement) and ``latest.png`` (plot)
to ``--out`` (default: ``benchmarks/results`` for a full run, ``benchmarks/results/quick``
for ``--quick``). See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import report  # noqa: E402
import scenarios  # noqa: E402
from contenders import peer_versions  # noqa: E402
from timing import Row  # noqa: E402

import pdagree  # noqa: E402  (registers the accessor)

SCENARIOS: dict[str, Callable[[scenarios.Config, Callable[[str], None]], list[Row]]] = {
    "main": scenarios.main_comparison,
    "coefficients": scenarios.coefficients,
    "storage": scenarios.string_storage,
    "by": scenarios.by_groups,
    "bootstrap": scenarios.bootstrap,
    "interval": scenarios.interval_alpha,
    "import": scenarios.import_time,
}


def _commit() -> str:
    root = Path(pdagree.__file__).resolve().parent.parent
    try:
        out = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
            check=True,
            capture_output=True,
            text=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    dirty = subprocess.run(
        ["git", "-C", str(root), "status", "--porcelain", "--", "pdagree"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    return out.stdout.strip() + (" (pdagree/ modified)" if dirty else "")


def _machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        memory = f", {total / 2**30:.0f} GiB"
    except (ValueError, OSError, AttributeError):
        pass
    return (
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs ({cpu}){memory}, "
        f"Python {platform.python_version()}"
    )


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes only (10^4, 10^5)")
    parser.add_argument("--out", type=Path, help="directory for latest.md/.json/.png")
    parser.add_argument(
        "--only",
        default=",".join(SCENARIOS),
        help=f"comma-separated scenarios to run (default: all of {','.join(SCENARIOS)})",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the generated data")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    names = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = sorted(set(names) - set(SCENARIOS))
    if unknown:
        raise SystemExit(f"unknown scenario(s) {unknown}; choose from {list(SCENARIOS)}")
    cfg = (
        scenarios.Config.make_quick(args.seed) if args.quick else scenarios.Config.full(args.seed)
    )
    out: Path = args.out or (HERE / "results" / ("quick" if args.quick else ""))
    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()

    loads = [os.getloadavg()[0]]

    def log(message: str) -> None:
        loads.append(os.getloadavg()[0])
        print(f"[{time.perf_counter() - start:7.1f} s] {message}", file=sys.stderr, flush=True)

    rows: list[Row] = []
    for name in names:
        rows += SCENARIOS[name](cfg, log)
    scenarios.fill_ratios(rows)
    elapsed = time.perf_counter() - start
    command = "python benchmarks/run.py" + (" --quick" if args.quick else "")
    if args.only != parse([]).only:
        command += f" --only {args.only}"
    meta: dict[str, Any] = {
        "mode": "quick" if args.quick else "full",
        "command": command,
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": _machine(),
        "cpus": os.cpu_count(),
        "commit": _commit(),
        "versions": peer_versions(),
        "elapsed": elapsed,
        "load": {"start": loads[0], "max": max(loads), "end": os.getloadavg()[0]},
        "seed": args.seed,
        "plot": "latest.png",
    }
    (out / "latest.json").write_text(report.to_json(rows, meta))
    (out / "latest.md").write_text(report.markdown(rows, meta))
    report.plot(rows, out / "latest.png", f"pdagree benchmarks ({meta['mode']} run)")
    log(f"wrote {out / 'latest.md'}, latest.json and latest.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
