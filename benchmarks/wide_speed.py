"""Wide frames (one row per item, one column per rater): pdagree against the same ratings in a
long frame and against the peers that take a wide table directly.

The ratings of ``data.labelled_frame`` (10 raters, 5 string categories), pivoted once, before
any timing, to ``items x raters`` in each of pandas' text storages (``data.STORAGES``), as a
wide export or a spreadsheet holds them. Timed round-robin in one process
(``timing.measure``), every value checked against pdagree's first:

- ``pdagree (wide)``: ``wide.agree().fleiss()`` / ``.alpha()``, the baseline;
- ``pdagree (long)``: the same ratings as a long frame, ``df.agree(item=, rater=, label=)``;
- ``statsmodels``: ``fleiss_kappa(aggregate_raters(wide.to_numpy())[0])`` (complete data);
- ``krippendorff (text)``: ``krippendorff.alpha`` of the text as a raters x items array,
  ``"nan"`` for a missing rating (no pivot to pay for: the table is already wide).

Run from the repository root (writes ``benchmarks/results/wide.md``)::

    python benchmarks/wide_speed.py [--annotations 1000000] [--rounds 7]

This is a measurement, not a test: no bound is asserted.
"""

from __future__ import annotations

import argparse
import datetime
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from contenders import peer_versions  # noqa: E402
from data import STORAGES, as_storage, labelled_frame, storage_dtype  # noqa: E402
from timing import Entry, measure  # noqa: E402

import pdagree  # noqa: E402, F401  (registers the accessor)

COLUMNS = {"item": "item", "rater": "rater", "label": "label"}


def _statsmodels(wide: pd.DataFrame) -> float:
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

    table, _ = aggregate_raters(wide.to_numpy())
    return float(fleiss_kappa(table, method="fleiss"))


def _krippendorff(wide: pd.DataFrame) -> float:
    import krippendorff

    text = wide.astype(object).where(wide.notna(), "nan").to_numpy(dtype=str).T
    return float(krippendorff.alpha(reliability_data=text, level_of_measurement="nominal"))


def _method(frame: pd.DataFrame, method: str, **columns: str) -> float:
    return float(getattr(frame.agree(**columns), method)())


def as_read(wide: pd.DataFrame, storage: str) -> pd.DataFrame:
    """The pivoted table as a reader would give it: new string objects made row by row (a
    pivot keeps the long frame's objects, scattered over memory, which makes hashing Python
    strings several times slower) and every column held as ``storage``."""
    values = wide.to_numpy(dtype=object)
    missing = np.asarray(pd.isna(values))
    text = values.astype(str).astype(object)  # row-major: one new object per cell
    text[missing] = np.nan
    fresh = pd.DataFrame(text, index=wide.index, columns=wide.columns, dtype=object)
    return fresh.astype(storage_dtype(storage))


def cases(n: int, missing: float, storage: str) -> dict[str, list[Entry]]:
    base = labelled_frame(n, missing=missing)
    long = as_storage(base, storage)
    wide = as_read(base.pivot(index="item", columns="rater", values="label"), storage)
    entries: dict[str, list[Entry]] = {}
    for method, peer_name, peer in (
        ("fleiss", "statsmodels", _statsmodels),
        ("alpha", "krippendorff (text)", _krippendorff),
    ):
        entries[method] = [
            Entry("pdagree (wide)", partial(_method, wide, method)),
            Entry("pdagree (long)", partial(_method, long, method, **COLUMNS)),
        ]
        if not (peer_name == "statsmodels" and missing > 0):  # complete data only
            entries[method].append(Entry(peer_name, partial(peer, wide)))
    return entries


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--annotations", type=int, default=10**6)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--out", type=Path, default=HERE / "results" / "wide.md")
    args = parser.parse_args(argv)
    log: Callable[[str], None] = partial(print, file=sys.stderr, flush=True)
    lines = [
        "# Wide frames",
        "",
        f"`python benchmarks/wide_speed.py --annotations {args.annotations}` on "
        f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC; "
        + ", ".join(f"{k} {v}" for k, v in peer_versions().items())
        + f". Median of {args.rounds} round-robin rounds; ratios over `pdagree (wide)`.",
        "",
        "| coefficient | missing | text held as | pdagree (wide) s | pdagree (long) / wide "
        "| peer | peer / pdagree (wide) |",
        "|---|---|---|---|---|---|---|",
    ]
    for missing in (0.0, 0.2):
        for storage in STORAGES:
            for method, entries in cases(args.annotations, missing, storage).items():
                case = f"{method}, {missing:.0%} missing, {storage} text"
                log(case)
                times, _, _ = measure(case, entries, args.rounds)
                median = {name: float(np.median(ts)) for name, ts in times.items()}
                base = median["pdagree (wide)"]
                peer = next((name for name in median if not name.startswith("pdagree")), None)
                lines.append(
                    f"| `{method}()` | {missing:.0%} | {storage} | {base:.3g} | "
                    f"{median['pdagree (long)'] / base:.2f}x | {peer or '—'} | "
                    + (f"{median[peer] / base:.1f}x |" if peer else "— |")
                )
    args.out.write_text("\n".join(lines) + "\n")
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
