"""The size bound of the models that keep a confusion matrix per annotator.

Dawid-Skene, one-coin and MACE hold, for every annotator (with ``by=``: every (group,
annotator) key), a K x K table of probabilities, and their EM holds several such (keys, K, K)
float64 arrays at once (the M-step's sums, the confusion matrices, their logarithms). 17,284
annotators and 200 labels make 5.15 GiB per array: before any is allocated, a fit whose
array would exceed :data:`MAX_CONFUSION_CELLS` is refused with the sizes and the methods
that need no such table (majority vote, GLAD).
"""

from __future__ import annotations

from ._votes import Votes

__all__ = ["CONFUSION_METHODS", "MAX_CONFUSION_CELLS", "check_size"]

MAX_CONFUSION_CELLS = 2**26
"""Cells of one (annotators, K, K) array at most: 67,108,864, 0.5 GiB of float64 (e.g.
1,677 annotators with 200 labels, or 26,214 with 50); the EM holds about five at once."""
CONFUSION_METHODS = ("dawid_skene", "one_coin", "mace")
"""The models with a K x K table per annotator."""

_GIB = 2.0**30


def check_size(v: Votes, method: str) -> None:
    """A ValueError, before anything is allocated, if ``method`` keeps a confusion matrix
    per annotator and one (keys, K, K) float64 array would exceed
    :data:`MAX_CONFUSION_CELLS` cells."""
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
