"""How long `irt()` takes on the issue's size: 2,000 items x 10 judges x 5 categories, 10%
of the cells missing, simulated from the graded response model.

    python benchmarks/irt_speed.py [--repeats 5]

Prints the median and the fastest wall-clock time of the whole fit (encoding, BFGS, Newton
polish and the observed information for the standard errors), constrained and unconstrained,
after a first fit that imports scipy.optimize (timed apart). Results: benchmarks/irt_speed.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

import numpy as np
import pandas as pd

import pdagree
from pdagree.irt import simulate


def ratings(seed: int = 0) -> pd.DataFrame:
    n_judges = 10
    shift = np.linspace(-0.5, 0.5, n_judges)
    truth = pd.DataFrame(
        {
            "discrimination": np.linspace(1.0, 2.0, n_judges),
            "extremity_1": -1.6 + shift,
            "extremity_2": -0.6 + shift,
            "extremity_3": 0.4 + shift,
            "extremity_4": 1.4 + shift,
        },
        index=[f"judge{j:02d}" for j in range(1, n_judges + 1)],
    )
    return simulate(truth, 2000, missing=0.1, rng=seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    frame = ratings()
    print(
        f"pdagree {pdagree.__version__}, numpy {np.__version__}, Python "
        f"{platform.python_version()}, {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.2f}"
    )
    print(
        f"{frame.shape[0]} items x {frame.shape[1]} judges x 5 categories, "
        f"{frame.isna().to_numpy().mean():.1%} cells missing"
    )
    start = time.perf_counter()
    frame.agree.irt()
    print(
        f"first fit, including the import of scipy.optimize: {time.perf_counter() - start:.2f} s"
    )
    for constrained in (True, False):
        times = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            fit = frame.agree.irt(constrained=constrained)
            times.append(time.perf_counter() - start)
        print(
            f"constrained={constrained}: median {statistics.median(times):.2f} s, fastest "
            f"{min(times):.2f} s over {args.repeats} fits; converged={fit.converged}, "
            f"{fit.n_iterations} iterations, {fit.n_parameters} parameters"
        )
    peer(frame, args.repeats)


def peer(frame: pd.DataFrame, repeats: int) -> None:
    """The `mirt` package on the same data, when installed: GRM, 21 nodes, one common
    discrimination, its default tolerance and standard errors."""
    try:
        import mirt
    except ImportError:
        print("mirt is not installed: no comparison")
        return
    data = (frame.astype("float64") - 1).to_numpy()
    constraints = [("discrimination", list(range(frame.shape[1])))]
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = mirt.fit_mirt(data, model="GRM", n_quadpts=21, constraints=constraints)
        times.append(time.perf_counter() - start)
    print(
        f"mirt {mirt.__version__} (constrained): median {statistics.median(times):.2f} s, "
        f"fastest {min(times):.2f} s over {repeats} fits; converged={result.converged}"
    )


if __name__ == "__main__":
    main()
