"""Time and peak memory of ``report()`` with and without intervals, each in a fresh process.

    python benchmarks/report_intervals.py [--annotations 1e6] [--raters 10] [--repeats 3]

The frame is ``data.labelled_frame`` (a long frame, five text labels, ``--raters`` raters per
item, rows shuffled). Each variant runs in its own interpreter: it builds the frame, encodes it
once (``frame.agree(item=, rater=, label=)``), warms the call up on a small frame (lazy
imports), then times ``report()`` (best of ``--repeats``, each on a fresh ``Ratings`` so that
no cached count tensor is reused) and measures the growth of the resident set during one
call (the peak, ``VmHWM`` reset through ``/proc/self/clear_refs``, minus the resident set
before) and the process's peak resident set during that call (frame and interpreter
included, as issue #26 measured it). It prints one Markdown table, the ratios in the last
rows. ``PYTHONPATH`` chooses the pdagree that is measured (e.g. an export of an earlier
commit).

``--paired`` times ``report()`` and ``report(0.95)`` in one interpreter instead, alternating
them ``--repeats`` times on fresh ``Ratings`` of the same frame, and prints each round's
ratio, the ratio of the best times and the median ratio: on a shared machine the load moves
between two processes more than between two neighbouring calls.
"""

from __future__ import annotations

import argparse
import gc
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from peak_memory import _status_kib

sys.path.insert(0, str(Path(__file__).resolve().parent))

VARIANTS = {
    "report()": {},
    "report(0.95)": {"confidence_level": 0.95},
    "report(0.95, method='bootstrap')": {"confidence_level": 0.95, "method": "bootstrap"},
    # The floor: the intervals of the six coefficients with Gwet's analytic variance alone.
    "report(0.95, coefficients=SIX)": {"confidence_level": 0.95, "coefficients": "SIX"},
    "report(coefficients=SIX)": {"coefficients": "SIX"},
}
SIX = "observed,bennett,fleiss,gwet,alpha,conger"


def _child(variant: str, n: int, raters: int, repeats: int) -> None:
    from data import labelled_frame

    import pdagree  # noqa: F401  (registers the accessor)

    options: dict[str, Any] = dict(VARIANTS[variant])
    if options.get("coefficients") == "SIX":
        options["coefficients"] = SIX
    if "confidence_level" in options:
        options["rng"] = 0

    def run(frame: Any) -> Any:
        return frame.agree(item="item", rater="rater", label="label").report(**options)

    run(labelled_frame(2000, n_raters=raters))  # warm-up: lazy imports
    frame = labelled_frame(n, n_raters=raters)
    times = []
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        table = run(frame)
        times.append(time.perf_counter() - start)
    gc.collect()
    before = _status_kib("VmRSS") or 0
    Path("/proc/self/clear_refs").write_text("5")
    table = run(frame)
    peak = _status_kib("VmHWM") or 0
    light = table.loc["light"] if "light" in table.index else {}
    bias = table.attrs.get("annotator_bias")
    bias_se = float(bias.iloc[0].get("se", float("nan"))) if bias is not None else float("nan")
    out = {
        "seconds": min(times),
        "rss_growth_mib": max(0, peak - before) / 1024,
        "rss_peak_mib": peak / 1024,
        "light": float(light.get("value", float("nan"))),
        "light_se": float(light.get("se", float("nan"))),
        "bias_se": bias_se,
        "ci_method": str(light.get("ci_method", "")),
    }
    print(json.dumps(out))


def _paired(n: int, raters: int, repeats: int) -> None:
    from data import labelled_frame

    import pdagree  # noqa: F401  (registers the accessor)

    def run(frame: Any, **options: Any) -> Any:
        return frame.agree(item="item", rater="rater", label="label").report(**options)

    run(labelled_frame(2000, n_raters=raters), confidence_level=0.95, rng=0)  # lazy imports
    frame = labelled_frame(n, n_raters=raters)
    plain, with_ci = [], []
    for _ in range(repeats):
        for times, options in ((plain, {}), (with_ci, {"confidence_level": 0.95, "rng": 0})):
            gc.collect()
            start = time.perf_counter()
            run(frame, **options)
            times.append(time.perf_counter() - start)
    ratios = sorted(b / a for a, b in zip(plain, with_ci, strict=True))
    print(f"{n:,} annotations ({raters} raters per item), {repeats} rounds in one process\n")
    print("| round | `report()` | `report(0.95)` | ratio |")
    print("|---|---|---|---|")
    for i, (a, b) in enumerate(zip(plain, with_ci, strict=True), 1):
        print(f"| {i} | {a:.2f} s | {b:.2f} s | {b / a:.2f}x |")
    best = min(with_ci) / min(plain)
    print(f"| best | {min(plain):.2f} s | {min(with_ci):.2f} s | {best:.2f}x |")
    print(f"| median ratio | | | {ratios[len(ratios) // 2]:.2f}x |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--annotations", type=float, default=1e6)
    parser.add_argument("--raters", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--variants", default=";".join(VARIANTS), help="separated by ;")
    parser.add_argument("--paired", action="store_true", help="time both in one process")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    n = int(args.annotations)
    if args.paired:
        _paired(n, args.raters, args.repeats)
        return
    if args.child:
        _child(args.child, n, args.raters, args.repeats)
        return
    rows = {}
    for variant in args.variants.split(";"):
        cmd = [sys.executable, __file__, "--child", variant, "--annotations", str(n)]
        cmd += ["--raters", str(args.raters), "--repeats", str(args.repeats)]
        done = subprocess.run(cmd, capture_output=True, text=True, check=True)
        rows[variant] = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"{n:,} annotations ({args.raters} raters per item), best of {args.repeats}\n")
    print(
        "| call | time | RSS growth in the call | process peak RSS | Light's SE | bias SE "
        "| Light's ci_method |"
    )
    print("|---|---|---|---|---|---|---|")
    for variant, row in rows.items():
        print(
            f"| `{variant}` | {row['seconds']:.2f} s | {row['rss_growth_mib']:.0f} MiB | "
            f"{row['rss_peak_mib']:.0f} MiB | {row['light_se']:.5f} | {row['bias_se']:.6f} | "
            f"{row['ci_method']} |"
        )
    base = rows.get("report()")
    if base is not None:
        for variant, row in rows.items():
            if variant not in ("report()", "report(coefficients=SIX)"):
                growth = row["rss_growth_mib"] / max(base["rss_growth_mib"], 1e-9)
                print(
                    f"| `{variant}` / `report()` | {row['seconds'] / base['seconds']:.1f}x | "
                    f"{growth:.2f}x | {row['rss_peak_mib'] / base['rss_peak_mib']:.2f}x | | | |"
                )


if __name__ == "__main__":
    main()
