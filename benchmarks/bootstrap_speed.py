"""How long the item bootstrap takes against one plain call (issue #8, point 10).

At 10^5 annotations (10,000 items x 10 raters, 5 string categories, a long frame) this prints
the time of one plain ``fleiss()`` call end to end (encoding included) and, for each
coefficient, of ``standard_error(method="bootstrap", n_resamples=1000, rng=0)``, with the
ratio of the two. The target is a ratio of at most 50. Two-rater coefficients (Cohen, Scott)
run on two of the ten raters (the same 10,000 items) and on 50,000 items x 2 raters (10^5
annotations, five times the items: the bootstrap's work grows with the items); the numeric
levels of alpha on the same ratings coded 1..5. Run from the repository root::

    python benchmarks/bootstrap_speed.py [--resamples 1000] [--by]

``--by`` adds a ``by=`` column with four groups and times the grouped resampler (the
bootstrap part of ``fleiss(confidence_level=0.95, method="bootstrap", ...)``, minus the
plain call). This is a measurement, not a test: no bound is asserted.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

import pdagree  # noqa: F401  (registers the accessor)


def frame(n_items: int, n_raters: int, seed: int = 0, numeric: bool = False) -> pd.DataFrame:
    """A long frame: raters agree with a latent category 70% of the time."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 5, size=n_items)
    noise = rng.integers(0, 5, size=(n_items, n_raters))
    codes = np.where(rng.random((n_items, n_raters)) < 0.7, truth[:, None], noise)
    labels: Any = codes + 1 if numeric else np.array(list("abcde"), dtype=object)[codes]
    return pd.DataFrame(
        {
            "item": np.repeat(np.arange(n_items), n_raters),
            "rater": np.tile([f"r{j}" for j in range(n_raters)], n_items),
            "label": labels.ravel(),
            "site": np.repeat(np.arange(n_items) % 4, n_raters),
        }
    )


def best(fn: Callable[[], object], repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--by", action="store_true", help="also time by= (four groups)")
    parser.add_argument("--repeat", type=int, default=1, help="best of this many runs")
    args = parser.parse_args()
    b = args.resamples

    long = frame(10_000, 10)
    numeric = frame(10_000, 10, numeric=True)
    two = long[long["rater"].isin(["r0", "r1"])]
    pair = frame(50_000, 2)
    keys: dict[str, Any] = {"item": "item", "rater": "rater", "label": "label"}

    def keys_for(df: pd.DataFrame) -> dict[str, Any]:
        """Text labels declare their order (ordinal alpha and weights need one)."""
        if pd.api.types.is_numeric_dtype(df["label"]):
            return keys
        return {**keys, "categories": sorted(df["label"].dropna().unique())}

    # Warm up: imports (scipy.stats) and first-call costs are not the bootstrap's.
    small = frame(50, 3).agree(**keys_for(frame(50, 3)))
    small.fleiss().standard_error(method="bootstrap", n_resamples=20, rng=0)
    plain = best(lambda: long.agree(**keys).fleiss(), repeat=10)
    print(f"one plain fleiss() call at {len(long):,} annotations: {plain * 1e3:.1f} ms")
    print(f"standard_error(method='bootstrap', n_resamples={b}, rng=0):")

    cases: list[tuple[str, pd.DataFrame, str, dict[str, Any]]] = [
        ("observed", long, "observed", {}),
        ("bennett", long, "bennett", {}),
        ("fleiss", long, "fleiss", {}),
        ("fleiss[quadratic]", numeric, "fleiss", {"weights": "quadratic"}),
        ("gwet", long, "gwet", {}),
        ("alpha[nominal]", long, "alpha", {}),
        ("alpha[ordinal]", long, "alpha", {"level": "ordinal"}),
        ("alpha[interval]", numeric, "alpha", {"level": "interval"}),
        ("alpha[ratio]", numeric, "alpha", {"level": "ratio"}),
        ("alpha[weights=linear]", numeric, "alpha", {"weights": "linear"}),
        ("scott (2 of 10 raters)", two, "scott", {}),
        ("cohen (2 of 10 raters)", two, "cohen", {}),
        ("scott (50,000 x 2)", pair, "scott", {}),
        ("cohen (50,000 x 2)", pair, "cohen", {}),
        ("conger", long, "conger", {}),
        ("light", long, "light", {}),
        ("bias", long, "bias", {}),
        ("spa", long, "spa", {}),
        ("spa[inv_var_class]", long, "spa", {"weights": "inv_var_class"}),
    ]
    for label, df, name, options in cases:
        ratings = df.agree(**keys_for(df))
        result = getattr(ratings, name)(**options)
        seconds = best(
            lambda result=result: result.standard_error(method="bootstrap", n_resamples=b, rng=0),
            repeat=args.repeat,
        )
        print(f"  {label:24s} {seconds:8.3f} s   {seconds / plain:7.1f} x plain")

    if args.by:
        print(f"by='site' (4 groups), <name>(confidence_level=0.95, method='bootstrap', {b}):")
        grouped = long.agree(by="site", **keys_for(long))
        for name in ("fleiss", "conger", "alpha"):
            method = getattr(grouped, name)
            seconds = best(
                lambda method=method: method(
                    confidence_level=0.95, method="bootstrap", n_resamples=b, rng=0
                ),
                repeat=args.repeat,
            )
            print(f"  {name:24s} {seconds:8.3f} s   {seconds / plain:7.1f} x plain")


if __name__ == "__main__":
    main()
