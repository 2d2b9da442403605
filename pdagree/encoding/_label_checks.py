"""Warnings about labels that are probably not what the user meant: missing-value markers,
Unicode variants and case or whitespace variants read as categories, rater columns that share
no label with the others, and a long frame's label column that holds an id.

Part of the encoding layer (:mod:`pdagree.encoding`). Every check reads the categories (the
distinct labels) or one ``np.bincount`` over the annotations, never the cells one by one, and
never changes a value: a category named "NA" may be real, so the warning names the label and
the remedy and leaves the decision to the user.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .._warnings import LayoutWarning, warn
from ._labels import _fmt, _plain
from ._layout_checks import ID_SHARE, MIN_ROWS

if TYPE_CHECKING:
    from ._encode import Encoded

__all__ = [
    "MISSING_MARKERS",
    "check_case_variants",
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
"""Unicode, case and whitespace variants are looked for among at most this many text
categories."""
_MAX_GROUPS = 5
"""Groups of case or whitespace variants named in the warning."""


def check_label_markers(categories: pd.Index) -> None:
    """Warn (:class:`~pdagree.LayoutWarning`) about text categories that are missing-value
    markers (``""``, whitespace, ``"NA"``, ``"N/A"``, ``"null"``, ... as ``read_csv`` reads
    them), that differ from another category only by Unicode normalisation (NFC ``"café"``
    and NFD ``"café"``), or only by case or surrounding whitespace (``"pos"``, ``"pos "``,
    ``"Pos"``). Only categories read off the labels are checked: declared ones are the
    user's. The values are left alone: ``"US"`` and ``"us"`` may be different categories.
    """
    if categories.dtype.kind not in "OUT" and not pd.api.types.is_string_dtype(categories):
        return
    text = [c for c in categories if isinstance(c, str)]
    if not text:
        return
    markers = [c for c in text if c in MISSING_MARKERS or not c.strip()]
    if markers:
        warn(
            f"the labels {_fmt(markers)} look like missing values but are counted as a "
            "category of their own. If they mean 'not annotated', make them missing before "
            "calling agree (e.g. df.replace({'NA': None, '': None}), or read_csv with its "
            "default `na_values`); if they are real categories, declare them with "
            "`categories=[...]` to silence this warning.",
            LayoutWarning,
        )
    if len(text) > MAX_NORMALISED:
        return
    labels = pd.Series(text, dtype=object)
    normal = labels.str.normalize("NFC")
    _check_unicode_variants(labels, normal)
    kept = (labels.str.strip() != "") & ~normal.duplicated()  # one label per Unicode form
    check_case_variants(labels[kept], normal[kept])


def _variant_groups(labels: pd.Series, key: pd.Series) -> list[list[str]]:
    """The groups of ``labels`` that share a ``key`` (two labels or more), in order of first
    label, each in the order of its labels."""
    shared = key.duplicated(keep=False).to_numpy()
    if not shared.any():
        return []
    grouped = labels[shared].groupby(key[shared].to_numpy(), sort=False)
    return [list(group) for group in grouped.agg(list)]


def _check_unicode_variants(labels: pd.Series, normal: pd.Series) -> None:
    """The Unicode part of :func:`check_label_markers`: ``normal`` is ``labels`` in NFC."""
    groups = _variant_groups(labels, normal)
    if not groups:
        return
    first, second = groups[0][:2]
    warn(
        f"{sum(len(g) - 1 for g in groups)} label(s) differ from another only by their "
        f"Unicode normalisation, e.g. {first!r} and {second!r} "
        f"({[hex(ord(ch)) for ch in first]} vs {[hex(ord(ch)) for ch in second]}), and count "
        "as different categories. Normalise the labels first, e.g. "
        "df[col].str.normalize('NFC').",
        LayoutWarning,
    )


def check_case_variants(labels: pd.Series, normal: pd.Series | None = None) -> None:
    """Warn (:class:`~pdagree.LayoutWarning`) about distinct text labels that differ only by
    case or surrounding whitespace (``"pos"``, ``"pos "``, ``"Pos"``): each counts as a
    category of its own. ``labels``: distinct labels (text); ``normal``: the same in NFC, when
    known. The rule of :func:`check_label_markers`, for callers that check the markers and
    the Unicode forms otherwise.
    """
    if normal is None:
        normal = labels.str.normalize("NFC")
    groups = _variant_groups(labels, normal.str.strip().str.casefold())
    if not groups:
        return
    n_variants = sum(len(g) for g in groups)
    shown = ", ".join(_fmt(g) for g in groups[:_MAX_GROUPS])
    more = f" and {len(groups) - _MAX_GROUPS} more" if len(groups) > _MAX_GROUPS else ""
    warn(
        f"the labels {shown}{more} differ only by case or surrounding whitespace, and count "
        f"as {n_variants} different categories instead of {len(groups)}. If they mean the "
        "same category, make them equal before calling agree (e.g. "
        "df[col].str.strip().str.lower() on each label column); if they are different "
        "categories, declare them with `categories=[...]` to silence this warning.",
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
            f"rater column(s) {_fmt(names)} share almost no label with the other rater "
            f"columns (e.g. {_plain(names[0])!r}: {int(shared[np.flatnonzero(lonely)[0]])} of "
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
            f"the rater columns {_fmt(list(enc.raters))} share almost no label with "
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
        f"`label` column {_plain(label)!r} holds {k} distinct labels in {n} annotations, as an id "
        "column does, and each label counts as a category. Check that `label=` names the "
        "column of the annotations' labels (and `item=`, `rater=` theirs); if the labels are "
        "numbers on a fine scale, use alpha(level='interval').",
        LayoutWarning,
    )
