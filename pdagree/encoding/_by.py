"""Rows whose ``by=`` key is missing: left out, as ``groupby`` leaves them out, counted, and
announced. Part of the encoding layer; the tally and the Dask engine count them batch by
batch and announce the totals with the same words."""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np
import pandas as pd

from .._warnings import PdagreeWarning, warn
from ._labels import _plain

__all__ = ["drop_missing_keys", "missing_by_message"]


def missing_by_message(n_rows: int, n_missing: int, per_column: dict[Hashable, int]) -> str | None:
    """The warning about the ``n_missing`` of ``n_rows`` rows left out for a missing ``by``
    key (``per_column``: how many miss each column), or ``None`` when none is."""
    if not n_missing:
        return None
    shown = ", ".join(f"{_plain(col)!r} on {n}" for col, n in per_column.items() if n)
    return (
        f"`by` is missing on {n_missing} of {n_rows} rows ({shown}); they are left out, as "
        "`groupby` does. Fill them (e.g. `df[col].fillna('unknown')`) to keep them as a group "
        "of their own."
    )


def drop_missing_keys(
    df: pd.DataFrame, by: list[Hashable]
) -> tuple[pd.DataFrame, dict[Hashable, int], int]:
    """The rows whose ``by`` key is present (``groupby`` leaves the others out), how many
    rows miss each ``by`` column, and how many are left out (the frame is not modified)."""
    if not by:
        return df, {}, 0
    try:
        missing = df[by].isna()
        dropped = np.asarray(missing.to_numpy().any(axis=1), dtype=bool)
    except (KeyError, ValueError, AttributeError):  # repeated names: reported by the layout
        return df, {}, 0
    per_column = {col: int(missing[col].sum()) for col in by if missing[col].ndim == 1}
    if not dropped.any():
        return df, per_column, 0
    kept = pd.DataFrame(df[~dropped])
    return kept, per_column, int(dropped.sum())


def _drop_missing_keys(df: pd.DataFrame, by: list[Hashable]) -> pd.DataFrame:
    """Rows whose ``by`` key is missing are left out, as ``groupby`` leaves them out, with a
    warning that counts them (the user's frame is not modified)."""
    kept, per_column, n_missing = drop_missing_keys(df, by)
    message = missing_by_message(len(df), n_missing, per_column)
    if message:
        warn(message, PdagreeWarning)
    return kept
