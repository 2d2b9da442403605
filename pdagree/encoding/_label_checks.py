"""Warnings about labels that are probably not what the user meant: missing-value markers
and Unicode variants read as categories, rater columns that share no label with the others,
and a long frame's label column that holds an id.

Part of the encoding layer (:mod:`pdagree.encoding`). Every check reads the categories (the
distinct labels) or one ``np.bincount`` over the annotations, never the cells one by one, and
never changes a value: a category named "NA" may be real, so the warning names the label and
the remedy and leaves the decision to the user.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .._warnings import LayoutWarning, warn
from ._layout_checks import ID_SHARE, MIN_ROWS

if TYPE_CHECKING:
    from ._encode import Encoded

__all__ = [
    "MISSING_MARKERS",
    "check_label_markers",
    "check_long_labels",
    "check_rater_sharing",
]

MISSING_MARKERS = frozenset(
    {
        "",
        "#N/A",
        "#N/A N/A",
        "#NA",
        "-1.#IND",
        "-1.#QNAN",
        "-NaN",
        "-nan",
        "1.#IND",
        "1.#QNAN",
        "<NA>",
        "N/A",
        "NA",
        "NULL",
        "NaN",
        "None",
        "n/a",
        "nan",
        "null",
    }
)
"""The strings ``pandas.read_csv`` reads as missing by default (its ``na_values``
documentation): in a frame built otherwise (a JSON export, ``keep_default_na=False``, a
database) they arrive as text and would each become a category."""

MIN_JUDGED = MIN_ROWS
"""A rater column is judged on whether it shares labels with the others only from this many
ratings on."""
MAX_SHARED_SHARE = 0.1
"""... and announced when fewer than this share of its ratings use a label another rater
column uses, ..."""
USUAL_SHARED_SHARE = 0.5
"""... while most rater columns share at least this share of theirs."""
MAX_CELLS = 10_000_000
"""The (rater, category) table of the sharing check is counted only up to this many cells."""
MAX_NORMALISED = 100_000
"""Unicode variants are looked for among at most this many text categories."""


def _shown(labels: Sequence[Any], limit: int = 5) -> str:
    shown = ", ".join(repr(x) for x in list(labels)[:limit])
    return f"[{shown}{', ...' if len(labels) > limit else ''}]"


def check_label_markers(categories: pd.Index) -> None:
    """Warn (:class:`~pdagree.LayoutWarning`) about text categories that are missing-value
    markers (``""``, whitespace, ``"NA"``, ``"N/A"``, ``"null"``, ... as ``read_csv`` reads
    them) or that differ from another category only by Unicode normalisation (NFC ``"café"``
    and NFD ``"café"``). Only categories read off the labels are checked: declared ones are
    the user's."""
    if categories.dtype.kind not in "OUT" and not pd.api.types.is_string_dtype(categories):
        return
    text = [c for c in categories if isinstance(c, str)]
    if not text:
        return
    markers = [c for c in text if c in MISSING_MARKERS or not c.strip()]
    if markers:
        warn(
            f"the labels {_shown(markers)} look like missing values but are counted as a "
            "category of their own. If they mean 'not annotated', make them missing before "
            "calling agree (e.g. df.replace({'NA': None, '': None}), or read_csv with its "
            "default `na_values`); if they are real categories, declare them with "
            "`categories=[...]` to silence this warning.",
            LayoutWarning,
        )
    if len(text) > MAX_NORMALISED:
        return
    normal = [unicodedata.normalize("NFC", c) for c in text]
    if len(set(normal)) == len(text):
        return
    seen: dict[str, str] = {}
    pairs = []
    for label, key in zip(text, normal, strict=True):
        if key in seen:
            pairs.append((seen[key], label))
        else:
            seen[key] = label
    first, second = pairs[0]
    warn(
        f"{len(pairs)} label(s) differ from another only by their Unicode normalisation, e.g. "
        f"{first!r} and {second!r} ({[hex(ord(ch)) for ch in first]} vs "
        f"{[hex(ord(ch)) for ch in second]}), and count as different categories. Normalise "
        "the labels first, e.g. df[col].str.normalize('NFC').",
        LayoutWarning,
    )


def _continuous(enc: Encoded) -> bool:
    values = enc.values
    return values is not None and bool((values != np.round(values)).any())


def check_rater_sharing(enc: Encoded, announced: Sequence[int] = ()) -> None:
    """Warn (:class:`~pdagree.LayoutWarning`) about the rater columns of a wide frame that
    share (almost) no label with the other rater columns: a metadata column
    (``seconds_spent``, ``confidence``) or another layout's columns read as raters.

    With ``MIN_JUDGED`` (20) ratings or more, a column is announced when fewer than
    ``MAX_SHARED_SHARE`` (10%) of its ratings use a label another column uses while most
    columns share at least half of theirs; when no column shares anything and the labels are
    not continuous numbers, the frame as a whole is announced (its agreement is zero by
    construction). Continuous ratings (numbers not all whole) from every column share few
    exact values by nature and are left alone. ``announced``: the positions of columns
    already announced as ids (:func:`._layout_checks.check_rater_columns`), not
    announced again.
    """
    if enc.rater is None or enc.raters is None:
        return
    r, k = enc.n_raters, enc.n_categories
    if r * k > MAX_CELLS:
        return
    counts = np.bincount(enc.rater * k + enc.code, minlength=r * k).reshape(r, k)
    raters_per_label = (counts > 0).sum(axis=0)
    rated = counts.sum(axis=1)
    shared = counts[:, raters_per_label >= 2].sum(axis=1)
    judged = rated >= MIN_JUDGED
    if judged.sum() < 2:
        return
    lonely = judged & (shared < MAX_SHARED_SHARE * rated)
    if len(announced):
        lonely[np.asarray(announced, dtype=np.int64)] = False
    usual = judged & (shared >= USUAL_SHARED_SHARE * rated)
    names = [enc.raters[int(j)] for j in np.flatnonzero(lonely)]
    if usual.sum() * 2 > judged.sum() and names:
        warn(
            f"rater column(s) {_shown(names)} share almost no label with the other rater "
            f"columns (e.g. {names[0]!r}: {int(shared[np.flatnonzero(lonely)[0]])} of "
            f"{int(rated[np.flatnonzero(lonely)[0]])} ratings), as a metadata column "
            "(time spent, confidence) or an id does; every column is a rater unless "
            "`raters=[...]` says otherwise. Pass the rater columns with `raters=`, or drop "
            "the others.",
            LayoutWarning,
        )
    elif (
        not len(announced)
        and not usual.any()
        and shared.sum() < MAX_SHARED_SHARE * rated.sum()
        and enc.values is None  # numbers (ratings on a fine scale) share few exact values
    ):
        warn(
            f"the rater columns {_shown(list(enc.raters))} share almost no label with "
            "each other, so their agreement is zero by construction: they look like "
            "other columns than ratings (a long frame's columns read as wide?). If the "
            "frame has one row per annotation, pass `item=`, `rater=`, `label=`; else "
            "select the rater columns with `raters=[...]`.",
            LayoutWarning,
        )


def check_long_labels(enc: Encoded, label: Hashable) -> None:
    """Warn (:class:`~pdagree.LayoutWarning`) when a long frame's ``label`` column holds a
    different label in nearly every row, as an id column does (the wide path's rule of
    :func:`._layout_checks.check_rater_columns`); continuous numbers are left to the
    nominal coefficients' own warning."""
    n, k = len(enc.code), enc.n_categories
    if n < MIN_ROWS or k < ID_SHARE * n or _continuous(enc):
        return
    warn(
        f"`label` column {label!r} holds {k} distinct labels in {n} annotations, as an id "
        "column does, and each label counts as a category. Check that `label=` names the "
        "column of the annotations' labels (and `item=`, `rater=` theirs); if the labels are "
        "numbers on a fine scale, use alpha(level='interval').",
        LayoutWarning,
    )
