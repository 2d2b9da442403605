"""Sanity checks of a frame's layout: warnings for frames that look like another layout.

Part of the encoding layer (:mod:`pdagree.encoding`); the checks read the encoded arrays only.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .._warnings import LayoutWarning, warn
from ._labels import _fmt, _plain

if TYPE_CHECKING:
    from ._encode import Encoded

__all__ = [
    "ID_SHARE",
    "MAX_SHARED",
    "MAX_USES",
    "MIN_CATEGORIES",
    "MIN_ROWS",
    "check_rater_columns",
    "id_column_hint",
    "mixed_kinds_hint",
]

MIN_ROWS = 20
"""A rater column is only judged on at least this many ratings, ..."""
MAX_SHARED = 0.5
"""... and only when fewer than this share of them use a label another rater column uses."""
ID_SHARE = 0.9
"""An id column: a different label in at least this share of its rated rows."""
MIN_CATEGORIES = 20
"""A column of nearly as many categories as cells: at least this many distinct labels, ..."""
MAX_USES = 8
"""... used fewer than this many times each on average."""


def _continuous(dtype: Any, labels: np.ndarray[Any, Any] | None) -> bool:
    """Continuous ratings: a float column, or labels that are numbers not all whole."""
    if pd.api.types.is_float_dtype(dtype):
        return True
    return labels is not None and bool((labels != np.round(labels)).any())


def _id_advice(col: Hashable) -> str:
    col = _plain(col)
    return (
        f"If it names the items, make it the index (df.set_index({col!r}) or read_csv(..., "
        f"index_col={col!r}))"
    )


def id_column_hint(frame: pd.DataFrame) -> str:
    """For an error about the labels of the rater columns ``frame``: a sentence naming the
    first column that looks like an id (the rule of :func:`check_rater_columns`, without the
    shared-label condition), or ``""``."""
    for col, series in frame.items():
        if pd.api.types.is_float_dtype(series.dtype):
            continue
        n = int(series.notna().sum())
        if n >= MIN_ROWS and series.nunique() >= ID_SHARE * n:
            return (
                f" Rater column {_plain(col)!r} holds a different label in nearly every row, "
                f"as an id column does. {_id_advice(col)}."
            )
    return ""


_KINDS = {
    "integer": "numbers",
    "floating": "numbers",
    "mixed-integer-float": "numbers",
    "decimal": "numbers",
    "string": "text",
    "boolean": "booleans",
}


def mixed_kinds_hint(frame: pd.DataFrame) -> str:
    """For an error about labels of different types in the rater columns ``frame``: a
    sentence that names the likely cause (a long frame read as wide, or a column that is not
    ratings) and the columns of each kind, or ``""`` when every column holds one kind."""
    kinds: dict[str, list[Hashable]] = {}
    for col, series in frame.items():
        kind = _KINDS.get(pd.api.types.infer_dtype(series, skipna=True), "mixed labels")
        kinds.setdefault(kind, []).append(col)
    if len(kinds) < 2:
        return ""
    parts = "; ".join(
        f"{', '.join(repr(_plain(c)) for c in cols[:4])}{', ...' if len(cols) > 4 else ''} "
        f"{'holds' if len(cols) == 1 else 'hold'} {kind}"
        for kind, cols in kinds.items()
    )
    return (
        f"the rater columns hold different kinds of labels ({parts}): a long frame read as "
        "wide, or a column that is not ratings, looks like this. If the frame has one row "
        "per annotation, pass `item=`, `rater=`, `label=`; else select the rater columns "
        "with `raters=[...]`."
    )


def check_rater_columns(enc: Encoded, dtypes: Sequence[Any]) -> list[int]:
    """Warn (:class:`~pdagree._warnings.LayoutWarning`) about rater columns of a wide frame
    that look like something else than ratings.

    A rater column of text or integer labels with at least ``MIN_ROWS`` (20) ratings, fewer
    than ``MAX_SHARED`` (half) of which use a label that another rater column also uses, is

    - an id column when it holds a different label in at least ``ID_SHARE`` (90%) of its
      rated rows (a wide CSV read without ``index_col``, so its id column became a rater);
    - else a column of nearly as many categories as cells when it holds at least
      ``MIN_CATEGORIES`` (20) distinct labels, used fewer than ``MAX_USES`` (8) times each on
      average (the item column of a long frame read as wide holds one label per item, used
      once per rating of that item).

    Continuous ratings are exempt, their values are distinct by nature: float columns, and
    labels that are numbers not all whole. Ordinary ratings use fewer than 20 categories, and
    raters share their labels, so they are never flagged.

    A wide frame whose index and rater columns hold the same labels and whose cells are
    whole non-negative numbers looks like two raters' contingency table: a warning says so.

    ``dtypes`` are the rater columns' dtypes, in the order of ``enc.raters``. Returns the
    positions of the columns announced.
    """
    _check_contingency_like(enc)
    k = enc.n_categories
    announced: list[int] = []
    if enc.rater is None or enc.raters is None or k < min(MIN_CATEGORIES, ID_SHARE * MIN_ROWS):
        return announced
    n_raters = enc.n_raters
    rated = np.bincount(enc.rater, minlength=n_raters)
    pairs = np.unique(enc.rater * k + enc.code)
    distinct = np.bincount(pairs // k, minlength=n_raters)
    raters_per_label = np.bincount(pairs % k, minlength=k)
    shared = np.bincount(enc.rater, weights=raters_per_label[enc.code] >= 2, minlength=n_raters)
    values = enc.values
    for j in range(n_raters):
        n, d = int(rated[j]), int(distinct[j])
        is_id = d >= ID_SHARE * n
        is_many = d >= MIN_CATEGORIES and d * MAX_USES > n
        if n < MIN_ROWS or shared[j] >= MAX_SHARED * n or not (is_id or is_many):
            continue
        used = None if values is None else values[pairs[pairs // k == j] % k]
        if _continuous(dtypes[j], used):
            continue
        col = _plain(enc.raters[j])
        announced.append(j)
        if is_id:
            warn(
                f"rater column {col!r} holds a different label in {d} of its {n} rated rows, "
                f"as an id column does, and each label counts as a category. {_id_advice(col)}; "
                "if it holds ratings on a fine scale, give them as floats.",
                LayoutWarning,
            )
        else:
            warn(
                f"rater column {col!r} holds {d} distinct labels in {n} rated rows, nearly as "
                "many categories as ratings, as the item or rater column of a long frame does. "
                "If the frame has one row per annotation, pass `item=`, `rater=`, `label=`; if "
                "it holds ratings on a fine scale, give them as floats.",
                LayoutWarning,
            )
    return announced


def _check_contingency_like(enc: Encoded) -> None:
    """Warn when a wide frame looks like a contingency table: the index and the rater columns
    hold the same (two or more) labels, and every cell is a whole non-negative number."""
    raters, items, values = enc.raters, enc.items, enc.values
    if raters is None or values is None or len(raters) < 2 or len(items) != len(raters):
        return
    try:
        same = set(items) == set(raters)
    except TypeError:  # unhashable labels: not a table
        return
    if not same or (values < 0).any() or (values != np.round(values)).any():
        return
    warn(
        f"the frame looks like two raters' contingency table: its index and columns hold the "
        f"same labels {_fmt(list(raters))} and its cells are counts. If it is one (rows the "
        "first rater's categories, columns the second's), pass layout='contingency'; as a "
        "wide frame its columns are raters and its cells their labels.",
        LayoutWarning,
    )
