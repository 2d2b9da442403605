"""Krippendorff's alpha on set-valued labels (issue #30): pdagree against nltk.

A long frame of multi-select annotations (each of 3 coders keeps an item's true set of 8 or 16
labels, flipping each label with probability 0.1). For each size this prints the time of
``alpha(distance="masi")`` end to end (encoding included, the frame built beforehand), of
``alpha(distance="jaccard")``, of nominal ``alpha()`` on the same sets, and of nltk's
``AnnotationTask(data, distance=masi_distance).alpha()`` where it finishes in reasonable time,
with the ratio nltk / pdagree and the difference of the two values. Run from the repository
root::

    python benchmarks/set_distances.py

A measurement, not a test: no bound is asserted.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

import pdagree  # noqa: F401  (registers the accessor)


def frame(n_items: int, n_raters: int, n_labels: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    labels = np.array([f"t{i}" for i in range(n_labels)])
    truth = rng.random((n_items, 1, n_labels)) < 0.3
    chosen = truth ^ (rng.random((n_items, n_raters, n_labels)) < 0.1)
    chosen[..., 0] |= ~chosen.any(axis=-1)  # no empty set: nltk divides 0 by 0 on two
    cells = [frozenset(labels[row].tolist()) for row in chosen.reshape(-1, n_labels)]
    return pd.DataFrame(
        {
            "item": np.repeat(np.arange(n_items), n_raters),
            "rater": np.tile(np.arange(n_raters), n_items),
            "tags": pd.Series(cells, dtype=object),
        }
    )


def timed(f: Callable[[], Any], repeat: int = 3) -> tuple[float, Any]:
    best, value = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        value = f()
        best = min(best, time.perf_counter() - start)
    return best, value


def main() -> None:
    from nltk.metrics.agreement import AnnotationTask
    from nltk.metrics.distance import masi_distance

    columns = "annotations", "labels", "distinct sets", "masi", "jaccard", "nominal"
    print("| " + " | ".join((*columns, "nltk masi", "ratio", "diff")) + " |")
    print("|---|---|---|---|---|---|---|---|---|")
    sizes = [(1_000, 8, True), (10_000, 8, True), (100_000, 8, False)]
    sizes += [(1_000, 16, True), (6_000, 16, False), (30_000, 16, False)]
    for n_items, n_labels, with_nltk in sizes:
        df = frame(n_items, 3, n_labels)

        def alpha(df: pd.DataFrame = df, **kw: Any) -> float:
            return float(df.agree(item="item", rater="rater", label="tags").alpha(**kw))

        t_masi, v_masi = timed(lambda: alpha(distance="masi"))
        t_jac, _ = timed(lambda: alpha(distance="jaccard"))
        t_nom, _ = timed(lambda: alpha())
        nltk_cols = "–", "–", "–"
        if with_nltk:
            rows = list(
                zip(df["rater"].astype(str), df["item"].astype(str), df["tags"], strict=True)
            )
            try:
                t_nltk, v_nltk = timed(
                    lambda rows=rows: AnnotationTask(data=rows, distance=masi_distance).alpha(),
                    repeat=1,
                )
            except ValueError as exc:  # nltk refuses more than 10,000 distinct labels
                nltk_cols = "refused", str(exc)[:40], "–"
            else:
                diff = abs(v_masi - v_nltk)
                nltk_cols = f"{t_nltk:.2f} s", f"{t_nltk / t_masi:.0f}x", f"{diff:.1e}"
        k = df["tags"].nunique()
        print(
            f"| {len(df):,} | {n_labels} | {k} | {t_masi * 1e3:.0f} ms | {t_jac * 1e3:.0f} ms | "
            f"{t_nom * 1e3:.0f} ms | {' | '.join(nltk_cols)} |"
        )


if __name__ == "__main__":
    main()
