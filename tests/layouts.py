"""The same ratings in the three layouts, built with pandas alone (no pdagree code)."""

from __future__ import annotations

import pandas as pd


def to_long(wide: pd.DataFrame, drop_missing: bool, label: str = "tag") -> pd.DataFrame:
    """One row per (item, coder) cell of a wide frame indexed by ``item``."""
    long = wide.reset_index().melt(id_vars="item", var_name="coder", value_name=label)
    return long.dropna(subset=[label]) if drop_missing else long


def to_counts(wide: pd.DataFrame) -> pd.DataFrame:
    """Fleiss' table (rows with no rating kept as zeros)."""
    stacked = wide.stack()
    table = pd.crosstab(stacked.index.get_level_values(0), stacked.to_numpy())
    return table.reindex(wide.index, fill_value=0).rename_axis(index="item", columns=None)
