"""Seeded synthetic annotation data for the benchmarks.

Every frame is a *long* export, one row per annotation, in a shuffled row order (as exports
from annotation tools rarely come sorted by item): ``item`` (int64 ids), ``rater`` and
``label`` (strings, pandas' default string dtype), plus ``group`` for the ``by=`` scenario or
float ``value`` for interval alpha. The same arguments always give the same frame.

Labels come from a latent truth per item with skewed prevalence; each rater copies the truth
with its own accuracy (0.55 .. 0.85) and otherwise picks a category uniformly, so the
coefficients land in a realistic 0.3 .. 0.6 range rather than near 0 or 1. Missing ratings are
missing completely at random: a missing share ``m`` keeps exactly ``n_annotations`` of
``n_annotations / (1 - m)`` cells.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = [
    "CATEGORIES",
    "STORAGES",
    "as_storage",
    "grouped_frame",
    "interval_frame",
    "labelled_frame",
    "n_items_for",
    "storage_dtype",
]

CATEGORIES = ("negative", "neutral", "positive", "mixed", "off-topic")
"""The five string labels (their sorted order is not this order, as in real exports)."""

_PREVALENCE = np.array([0.35, 0.25, 0.2, 0.12, 0.08])


def n_items_for(n_annotations: int, n_raters: int, missing: float) -> int:
    """How many items give ``n_annotations`` ratings by ``n_raters`` with a ``missing`` share."""
    cells = n_annotations / (1.0 - missing)
    return max(2, round(cells / n_raters))


def _cells(
    rng: np.random.Generator, n_annotations: int, n_raters: int, missing: float
) -> tuple[int, np.ndarray, np.ndarray]:
    """Item and rater codes of ``n_annotations`` cells kept from a complete design, shuffled."""
    n_items = n_items_for(n_annotations, n_raters, missing)
    n_cells = n_items * n_raters
    if n_annotations > n_cells:
        raise ValueError(f"{n_annotations} annotations do not fit {n_items} x {n_raters} cells")
    kept = rng.permutation(n_cells)[:n_annotations]  # a random subset, in a random order
    return n_items, kept // n_raters, kept % n_raters


def _labels(
    rng: np.random.Generator, item: np.ndarray, rater: np.ndarray, n_items: int, n_raters: int
) -> np.ndarray:
    """Category codes: the item's latent truth with the rater's accuracy, else uniform."""
    k = len(CATEGORIES)
    truth = rng.choice(k, size=n_items, p=_PREVALENCE)
    accuracy = np.linspace(0.55, 0.85, n_raters)
    correct = rng.random(item.size) < accuracy[rater]
    noise = rng.integers(0, k, size=item.size)
    return np.where(correct, truth[item], noise)


def _rater_names(n_raters: int) -> np.ndarray:
    return np.array([f"rater{r:02d}" for r in range(n_raters)], dtype=object)


def labelled_frame(
    n_annotations: int, *, n_raters: int = 10, missing: float = 0.0, seed: int = 0
) -> pd.DataFrame:
    """A long frame of ``n_annotations`` string labels in five categories.

    Columns ``item`` (int64), ``rater`` and ``label`` (strings). ``missing`` is the share of the
    complete ``items x raters`` design left out at random.
    """
    rng = np.random.default_rng([seed, n_annotations, n_raters, round(missing * 1000)])
    n_items, item, rater = _cells(rng, n_annotations, n_raters, missing)
    codes = _labels(rng, item, rater, n_items, n_raters)
    names = np.array(CATEGORIES, dtype=object)
    return pd.DataFrame(
        {
            "item": item.astype(np.int64) + 100_000,
            "rater": pd.array(_rater_names(n_raters)[rater], dtype="str"),
            "label": pd.array(names[codes], dtype="str"),
        }
    )


STORAGES = ("pyarrow", "python", "object", "arrow dtype")
"""How pandas may hold the text columns: PyArrow-backed ``str`` (pandas 3's default when PyArrow
is installed), Python-backed ``str`` (pandas 3's default without PyArrow, which pandas does
not require), ``object`` (pandas 2's default, or ``dtype=object``) and ``string[pyarrow]``
(``pd.ArrowDtype``, what ``read_csv(dtype_backend="pyarrow")`` gives)."""


def storage_dtype(storage: str) -> object:
    """The dtype that holds text as ``storage`` (one of :data:`STORAGES`)."""
    if storage not in STORAGES:
        raise ValueError(f"storage must be one of {STORAGES}; got {storage!r}")
    if storage == "object":
        return object
    if storage == "arrow dtype":
        import pyarrow as pa

        return pd.ArrowDtype(pa.string())
    return pd.StringDtype(storage, na_value=np.nan)


def as_storage(frame: pd.DataFrame, storage: str) -> pd.DataFrame:
    """``frame`` with its ``rater`` and ``label`` text held as ``storage`` (one of
    :data:`STORAGES`); a missing label stays missing."""
    dtype = storage_dtype(storage)
    return frame.astype({"rater": dtype, "label": dtype})


def grouped_frame(
    n_groups: int, *, items_per_group: int = 2, n_raters: int = 5, seed: int = 0
) -> pd.DataFrame:
    """A complete long frame with a ``group`` column: ``n_groups`` groups of
    ``items_per_group`` items, each rated by all ``n_raters`` (for the ``by=`` scenario)."""
    n_annotations = n_groups * items_per_group * n_raters
    frame = labelled_frame(n_annotations, n_raters=n_raters, missing=0.0, seed=seed)
    item = frame["item"].to_numpy() - 100_000
    frame.insert(0, "group", item // items_per_group)
    return frame


def interval_frame(
    n_annotations: int, *, n_raters: int = 10, missing: float = 0.2, seed: int = 0
) -> pd.DataFrame:
    """A long frame of float ``value`` ratings, all distinct (continuous), for interval alpha.

    Each item has a true score (standard normal); each rater adds its own bias and noise, so
    interval alpha is about 0.6. Columns ``item``, ``rater`` and ``value``.
    """
    rng = np.random.default_rng([seed, n_annotations, n_raters, round(missing * 1000), 1])
    n_items, item, rater = _cells(rng, n_annotations, n_raters, missing)
    score = rng.standard_normal(n_items)
    bias = rng.normal(0.0, 0.3, size=n_raters)
    value = score[item] + bias[rater] + rng.normal(0.0, 0.7, size=item.size)
    return pd.DataFrame(
        {
            "item": item.astype(np.int64) + 100_000,
            "rater": pd.array(_rater_names(n_raters)[rater], dtype="str"),
            "value": value,
        }
    )
