"""Span agreement at issue #29's size: 10^4 documents x 3 annotators x 20 spans each.

    python benchmarks/spans_speed.py [--docs 10000] [--repeats 3] [--memory]

Times are the best of ``--repeats`` in one process (``SpanRatings`` built once, outside the
timing, except where the row says it is included). ``token_agreement().alpha()`` is compared
with ``alpha()`` on a long labels frame of as many (character, annotator) cells, encoded
from the frame, in the same run. Results: benchmarks/spans_speed.md.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import pdagree  # noqa: F401  (the accessor)

LABELS = np.array(["PER", "ORG", "LOC", "MISC"])


def span_frame(n_docs: int, n_raters: int = 3, n_spans: int = 20, seed: int = 0) -> pd.DataFrame:
    """Per (document, annotator) ``n_spans`` non-overlapping spans in a 1,000-character text,
    annotators agreeing on about two thirds of them (the rest shifted or relabelled)."""
    rng = np.random.default_rng(seed)
    base_start = np.tile(np.arange(0, 1000, 50)[:n_spans], (n_docs, 1))
    length = rng.integers(3, 30, size=(n_docs, n_spans))
    label = rng.integers(0, len(LABELS), size=(n_docs, n_spans))
    frames = []
    for r in range(n_raters):
        shift = np.where(
            rng.random((n_docs, n_spans)) < 0.2, rng.integers(-2, 3, (n_docs, n_spans)), 0
        )
        relabel = np.where(
            rng.random((n_docs, n_spans)) < 0.1,
            rng.integers(0, len(LABELS), (n_docs, n_spans)),
            label,
        )
        start = np.maximum(base_start + shift, 0)
        frames.append(
            pd.DataFrame(
                {
                    "doc": np.repeat(np.arange(n_docs), n_spans),
                    "who": f"ann{r}",
                    "start": start.ravel(),
                    "end": (start + length).ravel(),
                    "label": LABELS[relabel.ravel()],
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def best(call: Callable[[], Any], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def memory(n_docs: int) -> dict[str, float]:
    """In a fresh interpreter: the process's peak resident set (``ru_maxrss``, MiB) after
    reading the spans and after ``token_agreement().alpha()``, and the peak that
    tracemalloc counts during ``token_agreement()`` and during ``.alpha()``."""
    here = str(Path(__file__).resolve().parent)
    script = (
        "import json, resource, sys, tracemalloc\n"
        f"sys.path.insert(0, {here!r})\n"
        "from spans_speed import span_frame\n"
        "cols = dict(item='doc', rater='who', start='start', end='end', label='label')\n"
        "span_frame(20).agree.spans(**cols).token_agreement().alpha()\n"
        f"spans = span_frame({n_docs}).agree.spans(**cols)\n"
        "rss = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024\n"
        "out = {'rss after reading the spans': rss()}\n"
        "tracemalloc.start()\n"
        "tokens = spans.token_agreement()\n"
        "out['traced peak of token_agreement()'] = tracemalloc.get_traced_memory()[1] / 2**20\n"
        "tracemalloc.reset_peak()\n"
        "tokens.alpha()\n"
        "out['traced peak of .alpha()'] = tracemalloc.get_traced_memory()[1] / 2**20\n"
        "tracemalloc.stop()\n"
        "out['rss after token_agreement().alpha()'] = rss()\n"
        "print(json.dumps(out))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--docs", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--memory", action="store_true", help="only the memory, fresh process")
    args = parser.parse_args()
    if args.memory:
        for name, mib in memory(args.docs).items():
            print(f"| {name} | {mib:,.0f} MiB |")
        return
    frame = span_frame(args.docs)
    cols = {"item": "doc", "rater": "who", "start": "start", "end": "end", "label": "label"}
    small = span_frame(20)
    small.agree.spans(**cols).pairwise_f1("overlap")  # warm-up
    spans = frame.agree.spans(**cols)
    rows = {
        "agree.spans(...) (reading, checks)": best(
            lambda: frame.agree.spans(**cols), args.repeats
        ),
        "pairwise_f1('exact')": best(lambda: spans.pairwise_f1("exact"), args.repeats),
        "pairwise_f1('overlap')": best(lambda: spans.pairwise_f1("overlap"), args.repeats),
        "consensus()": best(lambda: spans.consensus(), args.repeats),
        "alpha_u()": best(lambda: spans.alpha_u(), args.repeats),
        "per_rater('overlap')": best(lambda: spans.per_rater("overlap"), args.repeats),
        "items()": best(lambda: spans.items(), args.repeats),
    }
    tokens = spans.token_agreement()
    n_cells = len(tokens._data.enc.code)
    rows["token_agreement()"] = best(lambda: spans.token_agreement(), args.repeats)
    rows["token_agreement().alpha()"] = best(lambda: spans.token_agreement().alpha(), args.repeats)
    rng = np.random.default_rng(1)
    n_items = n_cells // 3
    labels = pd.DataFrame(
        {
            "item": np.repeat(np.arange(n_items), 3),
            "rater": np.tile(["ann0", "ann1", "ann2"], n_items),
            "label": rng.choice(["O", "PER", "ORG", "LOC", "MISC"], size=n_items * 3),
        }
    )
    rows["labels frame of as many cells: agree(...).alpha()"] = best(
        lambda: labels.agree(item="item", rater="rater", label="label").alpha(), args.repeats
    )
    print(f"{args.docs:,} documents x 3 annotators x 20 spans; {n_cells:,} character cells")
    print("| call | seconds |")
    print("|---|---:|")
    for name, seconds in rows.items():
        print(f"| {name} | {seconds:.3f} |")
    ratio = (
        rows["token_agreement().alpha()"]
        / rows["labels frame of as many cells: agree(...).alpha()"]
    )
    print(f"\ntoken_agreement().alpha() / alpha() on the labels frame: {ratio:.2f}x")


if __name__ == "__main__":
    main()
