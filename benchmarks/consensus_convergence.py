"""How far the consensus models stop from their fixed point, and what converging costs (#26).

For each EM model (Dawid-Skene, one-coin, GLAD, MACE) on three data sets, this prints the
iterations and time of a fit with the defaults, and the largest distance of its posteriors
and of its margins (``to_frame()["margin"]``, the top-two posterior difference) to a fit run
to ``tol=1e-13`` (up to 100,000 iterations); beside it the same for the fit the earlier
criterion gave (the log-likelihood's gain per annotation below 1e-6, at most 100 iterations),
reproduced by stopping EM after the number of iterations that criterion took (``OLD``,
measured on the earlier code): the same EM, stopped there.

- ``duck``: the Duck Identification data (``../shared/data/crowd/``: 4,212 labels, 39
  workers, 108 images, two categories);
- ``small``: 100 items, two categories, about three of four annotators each (the slow case of
  tests/test_consensus.py);
- ``large``: 2 x 10^5 items, 3 categories, 5 one-coin annotators seeing 60 % of the items
  (6 x 10^5 labels): time only (the tight fit is not run).

Run from the repository root::

    python benchmarks/consensus_convergence.py [--skip-large]

Results: benchmarks/consensus_convergence.md. A measurement, not a test.
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import pdagree  # noqa: F401  (registers the accessor)

METHODS = ("dawid_skene", "one_coin", "glad", "mace")
CROWD = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "crowd"
# Iterations the earlier criterion took (measured on the code before #26's change).
OLD = {
    "duck": {"dawid_skene": 8, "one_coin": 16, "glad": 8, "mace": 33},
    "small": {"dawid_skene": 49, "one_coin": 10, "glad": 10, "mace": 98},
    "large": {"dawid_skene": 13, "one_coin": 13, "glad": 7, "mace": 24},
}


def simulate(n_items: int, accuracy: list[float], k: int, coverage: float, seed: int) -> Any:
    """Long ratings from one-coin annotators, each item seen with probability ``coverage``."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n_items)
    frames = []
    for j, a in enumerate(accuracy):
        label = np.where(rng.random(n_items) < a, truth, (truth + rng.integers(1, k, n_items)) % k)
        seen = rng.random(n_items) < coverage
        frames.append(
            pd.DataFrame(
                {"item": np.arange(n_items)[seen], "rater": f"r{j}", "label": label[seen]}
            )
        )
    return pd.concat(frames, ignore_index=True)


def datasets(skip_large: bool) -> dict[str, pd.DataFrame]:
    duck = pd.read_csv(CROWD / "duck_identification_answers.csv").rename(
        columns={"question": "item", "worker": "rater", "answer": "label"}
    )
    small = simulate(300, [0.9, 0.7, 0.6, 0.4], k=3, coverage=0.7, seed=5)
    small = small[small["item"] % 3 == 0].replace({"label": {2: 1}})
    out = {"duck": duck, "small": small}
    if not skip_large:
        out["large"] = simulate(200_000, [0.8, 0.7, 0.6, 0.6, 0.55], k=3, coverage=0.6, seed=1)
    return out


def fit(frame: pd.DataFrame, method: str, **options: Any) -> tuple[Any, float]:
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = frame.agree(item="item", rater="rater", label="label").consensus(
            method, ties="first", **options
        )
    return result, time.perf_counter() - start


def distance(a: Any, b: Any) -> tuple[float, float]:
    p = np.abs(a.probabilities.to_numpy() - b.probabilities.to_numpy()).max()
    m = np.abs(a.to_frame()["margin"].to_numpy() - b.to_frame()["margin"].to_numpy()).max()
    return float(p), float(m)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-large", action="store_true")
    args = parser.parse_args()
    print(
        "| data | method | defaults: iterations | time | posterior / margin distance | "
        "earlier criterion: iterations | time | posterior / margin distance |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, frame in datasets(args.skip_large).items():
        for method in METHODS:
            new, t_new = fit(frame, method)
            old, t_old = fit(frame, method, max_iterations=OLD[name][method])
            if name == "large":
                d_new = d_old = "-"
            else:
                tight, _ = fit(frame, method, tol=1e-13, max_iterations=100_000)
                d_new = "{:.1e} / {:.1e}".format(*distance(new, tight))
                d_old = "{:.1e} / {:.1e}".format(*distance(old, tight))
            print(
                f"| {name} | {method} | {new.n_iterations} | {t_new:.3f} s | {d_new} | "
                f"{old.n_iterations} | {t_old:.3f} s | {d_old} |"
            )


if __name__ == "__main__":
    main()
