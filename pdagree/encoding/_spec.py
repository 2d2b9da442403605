"""The layout arguments, declared once: :class:`LayoutSpec`.

``df.agree(...)``, :meth:`pdagree.Ratings.from_frame`, :func:`~pdagree.encoding.encode`,
:class:`pdagree.Tally` and the Dask engine take the same eight keyword arguments (``item``,
``rater``, ``label``, ``raters``, ``categories``, ``by``, ``layout``, ``rank``); each public entry
point builds one :class:`LayoutSpec` from them and passes it down. The layout rules run here,
for the frame encoder (:func:`~pdagree.encoding.encode`) and the batch reader of the tally and
the Dask engine (``pdagree.counting``) alike: which layout the arguments describe
(:func:`layout_of`), the long frame's columns and ``by`` (:func:`check_long_columns`,
:func:`missing_key_error`), a wide frame's rater columns (:func:`rater_columns`).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

import numpy as np
import pandas as pd

from ._arguments import as_list, check_layout_arguments
from ._labels import fmt, plain

__all__ = [
    "Layout",
    "LayoutSpec",
    "check_by_overlap",
    "check_long_columns",
    "layout_of",
    "missing_key_error",
    "rater_columns",
    "require_columns",
]

Layout = Literal["wide", "long", "counts", "contingency"]
_LAYOUTS = ("wide", "long", "counts", "contingency")


@dataclass(frozen=True)
class LayoutSpec:
    """How a frame (or every batch of a tally or a Dask frame) is read: the ``layout``, the
    long frame's ``item``, ``rater``, ``label`` and ``rank`` columns, the wide frame's
    ``raters``, the declared ``categories``, the ``by`` columns, and whether (item, rater) pairs
    are checked across batches (``check_duplicates``, tallies and Dask).

    :meth:`of` keeps the arguments as given: :func:`~pdagree.encoding.encode` reads them
    against the frame. :meth:`for_batches` checks them for counting batches and fixes the
    layout (``"long"`` or ``"wide"``) and the ``by`` columns (a tuple).
    """

    layout: str | None = None
    item: Hashable | None = None
    rater: Hashable | None = None
    label: Hashable | None = None
    raters: Sequence[Hashable] | None = None
    categories: Sequence[Hashable] | None = None
    by: Any = None
    rank: Hashable | None = None
    check_duplicates: bool = True

    @classmethod
    def of(
        cls,
        *,
        item: Hashable | None = None,
        rater: Hashable | None = None,
        label: Hashable | None = None,
        raters: Sequence[Hashable] | None = None,
        categories: Sequence[Hashable] | None = None,
        by: Hashable | Sequence[Hashable] | None = None,
        layout: str | None = None,
        rank: Hashable | None = None,
        check_duplicates: bool = True,
    ) -> LayoutSpec:
        """The layout arguments as the user gave them (checked where they are read)."""
        return cls(
            layout=layout,
            item=item,
            rater=rater,
            label=label,
            raters=raters,
            categories=categories,
            by=by,
            rank=rank,
            check_duplicates=check_duplicates,
        )

    def for_batches(self) -> LayoutSpec:
        """This spec checked for counting batches (a tally, Dask partitions): a long or wide
        layout, ``by`` as a tuple of columns that are not the long frame's own."""
        chosen = layout_of(
            self.layout, self.item, self.rater, self.label, self.raters, self.categories
        )
        if chosen in ("counts", "contingency"):
            raise TypeError(
                f"a {chosen} table is counted already: read it with "
                f"`df.agree(layout={chosen!r})`; a tally and the Dask engine count long and "
                "wide frames."
            )
        if not isinstance(self.check_duplicates, bool):
            raise TypeError(
                f"`check_duplicates` must be True or False; got {self.check_duplicates!r}."
            )
        by_cols = as_list(self.by, None)
        if chosen == "long":
            check_by_overlap(
                by_cols, {"item": self.item, "rater": self.rater, "label": self.label}
            )
        return LayoutSpec(
            layout=chosen,
            item=self.item,
            rater=self.rater,
            label=self.label,
            raters=None if self.raters is None else tuple(self.raters),
            categories=None if self.categories is None else tuple(self.categories),
            by=tuple(by_cols),
            rank=self.rank,
            check_duplicates=self.check_duplicates,
        )

    def arguments(self) -> dict[str, Any]:
        """The keyword arguments that build this (checked) spec again."""
        out: dict[str, Any] = {"layout": self.layout, "by": list(self.by) or None}
        if self.layout == "long":
            out.update(item=self.item, rater=self.rater, label=self.label)
        if self.raters is not None:
            out["raters"] = list(self.raters)
        if self.categories is not None:
            out["categories"] = list(self.categories)
        out["check_duplicates"] = self.check_duplicates
        return out


def layout_of(
    layout: str | None,
    item: Hashable | None,
    rater: Hashable | None,
    label: Hashable | None,
    raters: Sequence[Hashable] | None,
    categories: Sequence[Hashable] | None,
) -> Layout:
    """The layout the arguments of :func:`encode` describe (``"long"`` when ``item``,
    ``rater`` or ``label`` is given, else ``"wide"``), with the arguments checked against it.
    The Dask engine checks its arguments here too."""
    check_layout_arguments(raters, categories)
    given = {"item": item, "rater": rater, "label": label}
    named = {k: v for k, v in given.items() if v is not None}
    if layout is not None and layout not in _LAYOUTS:
        raise ValueError(
            f"`layout` must be one of 'wide', 'long', 'counts', 'contingency'; got {layout!r}."
        )
    chosen: Layout = cast(Layout, layout) if layout is not None else ("long" if named else "wide")
    if chosen == "long":
        if len(named) != 3:
            missing = [k for k in given if k not in named]
            raise TypeError(
                "a long frame needs `item`, `rater` and `label` together; got "
                f"{', '.join(f'{k}={v!r}' for k, v in named.items()) or 'none of them'}, "
                f"missing {', '.join(f'`{m}`' for m in missing)}."
            )
        if raters is not None:
            raise TypeError(
                "`raters` selects columns of a wide frame; it does not apply to a long one."
            )
    elif named:
        raise TypeError(
            f"`item`, `rater` and `label` describe a long frame; they do not apply to "
            f"layout={chosen!r}."
        )
    elif chosen == "counts" and raters is not None:
        raise TypeError("`raters` selects columns of a wide frame; a counts table has none.")
    elif chosen == "contingency" and raters is not None:
        raise TypeError(
            "`raters` selects columns of a wide frame; a contingency table names its two "
            "raters by its index and columns names (table.rename_axis(index=..., "
            "columns=...))."
        )
    return chosen


def check_by_overlap(by: list[Hashable], columns: dict[str, Hashable]) -> None:
    """``by`` must not name a column that already has a role (item, rater or label)."""
    for param, col in columns.items():
        if col in by:
            raise ValueError(
                f"`by` and `{param}` both name column {plain(col)!r}; a column is either the "
                f"{param} or a grouping key. Group by another column."
            )
    roles = list(columns.items())
    for i, (param, col) in enumerate(roles):
        for other, other_col in roles[i + 1 :]:
            if col == other_col:
                raise ValueError(
                    f"`{param}` and `{other}` both name column {plain(col)!r}; each needs its "
                    "own column."
                )


def require_columns(df: pd.DataFrame, names: dict[str, list[Hashable]]) -> None:
    """Each name is one column of the frame: present, and not repeated."""
    for param, cols in names.items():
        for col in cols:
            if col not in df.columns:
                raise ValueError(
                    f"`{param}` names column {plain(col)!r}, which is not in the frame; "
                    f"available columns: {fmt(list(df.columns))}."
                )
            where = df.columns.get_loc(col)
            if isinstance(df.columns, pd.MultiIndex) and not (
                isinstance(col, tuple) and len(col) == df.columns.nlevels
            ):
                full = df.columns[where][0] if len(df.columns[where]) else col
                raise ValueError(
                    f"`{param}` names {plain(col)!r}, a label of the frame's MultiIndex columns "
                    f"that spans {len(df.columns[where])} column(s); name one column by its full "
                    f"tuple, e.g. {plain(full)!r}."
                )
            if not isinstance(where, (int, np.integer)):
                n = len(df.columns[where])
                raise ValueError(
                    f"`{param}` names column {plain(col)!r}, which the frame has {n} times; give "
                    "each column its own name (`df.loc[:, ~df.columns.duplicated()]` keeps the "
                    "first)."
                )


def rater_columns(
    df: pd.DataFrame, raters: Sequence[Hashable] | None, by: list[Hashable]
) -> list[Hashable]:
    """A wide frame's rater columns (``raters``, or every column not in ``by``), checked:
    present, not grouping keys, unique, at least two. ``df`` may be a Dask frame's meta."""
    cols: list[Hashable]
    if raters is None:
        cols = [c for c in df.columns if c not in by]
    else:
        cols = list(raters)
        require_columns(df, {"raters": cols})
        overlap = [c for c in cols if c in by]
        if overlap:
            raise ValueError(
                f"`raters` and `by` share columns {fmt(overlap)}; a column is either a rater "
                "or a grouping key."
            )
    col_index = pd.Index(cols)
    if col_index.has_duplicates:
        dup = list(col_index[col_index.duplicated()])
        raise ValueError(
            f"rater columns must be unique; {fmt(dup)} appear more than once. Rename the "
            "duplicated columns."
        )
    if len(cols) < 2:
        raise ValueError(
            f"agreement needs at least two raters; the wide frame has {len(cols)} rater "
            f"column(s) {fmt(cols)}. Add raters, or pass `item=`, `rater=`, `label=` if this "
            "is a long frame."
        )
    return cols


def check_long_columns(df: pd.DataFrame, roles: dict[str, Hashable], by: list[Hashable]) -> None:
    """A long frame's columns (``roles``: ``item``, ``rater``, ``label`` and ``rank``) are in
    the frame, each once, and none is also a ``by`` column."""
    require_columns(df, {k: [v] for k, v in roles.items()})
    check_by_overlap(by, roles)


def missing_key_error(param: str, column: Hashable, n_missing: int) -> ValueError:
    """The error for a long frame's ``item`` or ``rater`` column with missing values."""
    return ValueError(
        f"`{param}` column {plain(column)!r} has {n_missing} missing values; every "
        f"annotation needs its {param}. Fill them or drop those rows."
    )
