"""Peak memory of one interval-alpha call, in a fresh interpreter (run by scenarios.py).

    python benchmarks/peak_memory.py {pdagree,floor} N_ANNOTATIONS SEED {rss,tracemalloc}

Builds the interval frame, warms the call up on a small frame (so that lazy imports and
caches do not count), then measures one call on the full frame and prints a JSON line:

- ``rss``: the growth of the resident set during the call, in MiB: the peak (``VmHWM`` of
  /proc/self/status, reset just before the call through /proc/self/clear_refs) minus the
  resident set before it. Where the peak cannot be reset, ``resource.getrusage``'s
  ``ru_maxrss`` is used instead (then the growth is 0 unless the call exceeds every earlier
  peak, and ``rss_method`` says so).
- ``tracemalloc``: the peak of the memory allocated through Python's allocators (NumPy's
  arrays included) during the call, in MiB, traced from just before it.
"""

from __future__ import annotations

import gc
import json
import resource
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))

import floors
from data import interval_frame


def _pdagree(frame: pd.DataFrame) -> float:
    import pdagree  # noqa: F401  (registers the accessor)

    return float(frame.agree(item="item", rater="rater", label="value").alpha("interval"))


def _status_kib(field: str) -> int | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def _reset_peak() -> bool:
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return False
    return True


def main(argv: list[str]) -> None:
    which, n, seed, tool = argv[0], int(argv[1]), int(argv[2]), argv[3]
    run: Callable[[pd.DataFrame], float] = {
        "pdagree": _pdagree,
        "floor": floors.alpha_interval,
    }[which]
    run(interval_frame(1000, seed=seed))  # warm-up
    frame = interval_frame(n, seed=seed)
    gc.collect()
    out: dict[str, float | str] = {}
    if tool == "rss":
        before = _status_kib("VmRSS")
        if _reset_peak() and before is not None:
            value = run(frame)
            peak = _status_kib("VmHWM") or 0
            out["rss_method"] = "VmHWM reset by clear_refs"
        else:
            before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            value = run(frame)
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            out["rss_method"] = "ru_maxrss (not reset)"
        out["rss_growth_mib"] = max(0, peak - before) / 1024
    else:
        tracemalloc.start()
        value = run(frame)
        out["tracemalloc_peak_mib"] = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    out["value"] = value
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1:])
