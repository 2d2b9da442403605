"""Size of a pickled result, and what keeping its variance costs, by number of items.

Run from the repository root: ``python benchmarks/result_pickle.py``. For each size of a
4-rater frame it prints the pickled size of ``fleiss()``, ``alpha()``, ``bias()`` and
``icc()``, and the time of ``fleiss()`` beside that of ``pickle.dumps`` of its result (which
computes the few numbers of the analytic variance that the pickle keeps instead of the data).
"""

from __future__ import annotations

import pickle
import time

import numpy as np
import pandas as pd

import pdagree  # noqa: F401  (registers the accessor)


def frame(n_items: int) -> pd.DataFrame:
    rng = np.random.default_rng(7)
    truth = rng.integers(0, 4, n_items)
    noise = rng.integers(0, 4, (n_items, 4))
    wide = np.where(rng.random((n_items, 4)) < 0.3, noise, truth[:, None])
    return pd.DataFrame(wide, columns=["a", "b", "c", "d"])


def best(call: object, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    print("| items | fleiss | alpha | bias | icc | fleiss() s | dumps s | ratio |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n_items in (2_000, 200_000):
        ratings = frame(n_items).agree()
        sizes = [
            len(pickle.dumps(getattr(ratings, name)()))
            for name in ("fleiss", "alpha", "bias", "icc")
        ]
        result = ratings.fleiss()
        compute = best(ratings.fleiss)
        dump = best(lambda r=result: pickle.dumps(r))
        print(
            f"| {n_items:,} | "
            + " | ".join(f"{s:,}" for s in sizes)
            + f" | {compute:.4f} | {dump:.4f} | {dump / compute:.2f} |"
        )


if __name__ == "__main__":
    main()
