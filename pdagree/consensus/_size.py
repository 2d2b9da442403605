"""The size bounds of the models that keep a table per annotator or per annotator pair.

Dawid-Skene, one-coin and MACE hold, for every annotator (with ``by=``: every (group,
annotator) key), a K x K table of probabilities, and their EM holds several such (keys, K, K)
float64 arrays at once (the M-step's sums, the confusion matrices, their logarithms). 17,284
annotators and 200 labels make 5.15 GiB per array: before any is allocated, a fit whose
array would exceed :data:`MAX_CONFUSION_CELLS` is refused with the sizes and the methods
that need no such table (majority vote, GLAD).

M-MSR holds every ordered pair of annotators (``by=``: keys) that share an item, several
arrays of them at once: 10,000 annotators who all rate one item make 10^8 pairs. A fit that
could hold more than :data:`MAX_PAIRS` pairs (at most the sum over items of ``m (m - 1)``
for ``m`` ratings, and at most ``n (n - 1)`` per group of ``n`` keys) is refused the same way.
"""

from __future__ import annotations

import numpy as np

from ._votes import Votes

__all__ = ["CONFUSION_METHODS", "MAX_CONFUSION_CELLS", "MAX_PAIRS", "check_size"]

MAX_CONFUSION_CELLS = 2**26
"""Cells of one (annotators, K, K) array at most: 67,108,864, 0.5 GiB of float64 (e.g.
1,677 annotators with 200 labels, or 26,214 with 50); the EM holds about five at once."""
CONFUSION_METHODS = ("dawid_skene", "one_coin", "mace")
"""The models with a K x K table per annotator."""
MAX_PAIRS = 2**25
"""Ordered annotator pairs sharing an item at most, for M-MSR: 33,554,432 (about 0.25 GiB
per array of them; the fit holds about eight at once), e.g. 5,792 annotators who all share
items."""

_GIB = 2.0**30


def check_size(v: Votes, method: str) -> None:
    """A ValueError, before anything is allocated, if ``method`` keeps a confusion matrix
    per annotator and one (keys, K, K) float64 array would exceed
    :data:`MAX_CONFUSION_CELLS` cells."""
    if method == "mmsr":
        _check_pairs(v)
    if method not in CONFUSION_METHODS:
        return
    keys, k = int(v.n_keys), int(v.n_categories)
    cells = keys * k * k
    if cells <= MAX_CONFUSION_CELLS:
        return
    who = "annotators" if v.n_groups == 1 else "(group, annotator) pairs"
    raise ValueError(
        f"consensus(method={method!r}) keeps a {k} x {k} confusion matrix for each of "
        f"{keys:,} {who}: {cells * 8 / _GIB:.2f} GiB per array, several at once, above the "
        f"bound of {MAX_CONFUSION_CELLS * 8 / _GIB:.2f} GiB per array "
        f"(pdagree.consensus.MAX_CONFUSION_CELLS = {MAX_CONFUSION_CELLS:,} cells). Use "
        "method='majority' or method='glad', which keep no such matrices, or fewer labels "
        "(merge rare ones) or annotators."
    )


def _check_pairs(v: Votes) -> None:
    """A ValueError, before the pairs are built, if M-MSR could hold more than
    :data:`MAX_PAIRS` ordered pairs of keys sharing an item."""
    per_item = np.bincount(v.item, minlength=v.n_items).astype(np.float64)
    by_items = float((per_item * (per_item - 1.0)).sum())
    keys = np.bincount(v.key_group, minlength=v.n_groups).astype(np.float64)
    by_keys = float((keys * (keys - 1.0)).sum())
    pairs = min(by_items, by_keys)
    if pairs <= MAX_PAIRS:
        return
    who = "annotators" if v.n_groups == 1 else "(group, annotator) keys"
    raise ValueError(
        f"consensus(method='mmsr') holds every pair of {who} that share an item: up to "
        f"{pairs:,.0f} pairs here ({int(v.n_keys):,} {who}), above the bound of "
        f"{MAX_PAIRS:,} (pdagree.consensus.MAX_PAIRS), several arrays of them at once. Use "
        "method='wawa', 'zero_based_skill' or 'majority', which keep no pairs, or split the "
        "annotators with `by=`."
    )
