"""A tally's ``fleiss(by=)`` when every group has raters of its own (#26, point 16).

``G`` groups of 2 items, each rated by 3 raters of the group's own (6G annotations, 3G
raters), labels drawn from 3. For each ``G``: the tally's ``fleiss(by=)`` (time, and the peak
of the memory it allocates, traced), beside the pandas path's ``fleiss(by=)`` on the same frame
(up to ``--pandas-up-to`` groups), in one process::

    python benchmarks/tally_own_raters.py --groups 1e3 1e4 1e5
"""

from __future__ import annotations

import argparse
import os
import platform
import time
import tracemalloc
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

import pdagree

ARGUMENTS = {"item": "item", "rater": "rater", "label": "label", "by": "g"}


def frame(n_groups: int) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    g = np.repeat(np.arange(n_groups), 6)
    return pd.DataFrame(
        {
            "g": g,
            "item": np.repeat(np.arange(2 * n_groups), 3),
            "rater": g * 3 + np.tile(np.arange(3), 2 * n_groups),
            "label": rng.integers(0, 3, len(g)),
        }
    )


def measured(call: Callable[[], Any]) -> tuple[float, float]:
    """Seconds and traced peak MiB of ``call``."""
    tracemalloc.start()
    start = time.perf_counter()
    call()
    seconds = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return seconds, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--groups", type=float, nargs="+", default=[1e3, 1e4, 1e5])
    parser.add_argument("--pandas-up-to", type=float, default=1e4)
    args = parser.parse_args()
    print(
        f"pdagree {pdagree.__version__}, numpy {np.__version__}, pandas {pd.__version__}, "
        f"Python {platform.python_version()}, {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.2f}"
    )
    print("| groups | annotations | tally `fleiss(by=)` | traced peak | pandas `fleiss(by=)` "
          "| traced peak | tally / pandas (time) |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    warnings.simplefilter("ignore")  # groups whose ratings use one label: nan, as documented
    for n in (int(g) for g in args.groups):
        df = frame(n)
        tally = pdagree.Tally(**ARGUMENTS).add(df)
        t_tally, m_tally = measured(lambda: tally.fleiss())  # noqa: B023
        if n <= args.pandas_up_to:
            t_pandas, m_pandas = measured(lambda: df.agree(**ARGUMENTS).fleiss())  # noqa: B023
            pandas_cells = f"{t_pandas:.2f} s | {m_pandas:.0f} MiB | {t_tally / t_pandas:.2f}x"
        else:
            pandas_cells = "not run | | "
        print(f"| {n:,} | {len(df):,} | {t_tally:.2f} s | {m_tally:.0f} MiB | {pandas_cells} |")


if __name__ == "__main__":
    main()
