"""The encoding layer: wide, long, counts and contingency frames become integer codes.

This is the only layer that sees labels. Everything downstream works on the integer arrays of
:class:`Encoded`: one entry per annotation (or per non-zero cell of a counts table), with the
item, rater and category as codes, and the original labels kept as :class:`pandas.Index`
objects so that results can be labelled again at the end.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from .._typing import FloatArray, IntArray
from ._arguments import as_list as _as_list
from ._by import _drop_missing_keys
from ._contingency import check_counts, contingency_codes
from ._factorize import MissingKeyError, distinct_keys, factorize_columns
from ._label_checks import check_label_markers, check_long_labels, check_rater_sharing
from ._labels import (
    DtypeCategories,
    _plain,
    categories_of,
    dtype_categories,
    encode_label_column,
    encode_labels,
    label_numbers,
)
from ._labels import _fmt as _fmt
from ._layout_checks import check_rater_columns, id_column_hint, mixed_kinds_hint
from ._ranks import check_rank_layout, check_unique_items, rank_codes, resolve, split_cells
from ._spec import (
    Layout,
    LayoutSpec,
    check_long_columns,
    layout_of,
    missing_key_error,
    rater_columns,
    require_columns,
)
from ._wide import wide_codes

__all__ = ["Encoded", "Layout", "encode", "layout_of", "rater_columns", "require_columns"]


@dataclass(frozen=True, eq=False)
class Encoded:
    """Ratings as integer codes.

    Attributes
    ----------
    layout
        The layout the data came from.
    items
        Item labels, one per item code. For a long frame with ``by=`` this is a MultiIndex
        of (group keys..., item).
    raters
        Rater labels, one per rater code; ``None`` for a counts table (no rater identity). A
        contingency table has two: its index's and its columns' names.
    categories
        The ordered categories; a label's code is its position here.
    item, code
        Per annotation (or per non-zero counts cell): item code and category code.
    rater
        Per annotation: rater code; ``None`` for a counts table.
    weight
        Per entry: how many annotations it stands for (1 for wide, long and contingency
        frames).
    group
        Per item: group code (all zeros without ``by=``).
    groups
        The group keys, one per group code; ``None`` without ``by=``.
    by
        The ``by`` column names (empty without ``by=``).
    declared
        Whether the categories were declared (``categories=``, a Categorical, or the columns
        of a counts table) rather than read off the labels: declared categories apply to
        every ``by=`` group, read ones are each group's own.
    ordered
        Whether the order of ``categories`` was declared: by an ordered Categorical, by
        ``categories=[...]``, or by labels that are numbers (or text that reads as numbers).
        Sorted text labels have an order nobody declared, and the order-dependent coefficients
        refuse them. Encodings built from another one (bootstrap replicates) keep the default.
    secondary
        Per annotation (whose code is the primary label): the code of the rater's secondary
        label for the item, ``-1`` for none; ``None`` when none has one (:mod:`._ranks`).
    multiplicity
        Per item: how many identical items it stands for (a contingency table's items are its
        non-zero cells, :mod:`pdagree.tensors.table_data`); ``None``: one each.
    """

    layout: Layout
    items: pd.Index
    raters: pd.Index | None
    categories: pd.Index
    item: IntArray
    rater: IntArray | None
    code: IntArray
    weight: FloatArray
    group: IntArray
    groups: pd.Index | None
    by: tuple[Hashable, ...]
    declared: bool = False
    ordered: bool = True
    secondary: IntArray | None = None
    multiplicity: FloatArray | None = None

    @property
    def n_items(self) -> int:
        return len(self.items)

    @property
    def n_raters(self) -> int:
        return 0 if self.raters is None else len(self.raters)

    @property
    def n_categories(self) -> int:
        return len(self.categories)

    @property
    def n_groups(self) -> int:
        return 1 if self.groups is None else len(self.groups)

    @cached_property
    def values(self) -> FloatArray | None:
        """The categories as numbers when they are numbers, else ``None``.

        Text that reads as a number counts as a number (labels ``'1'``, ``'2'``, ``'10'``
        from a CSV column that also holds text); booleans are labels, not numbers.
        """
        return label_numbers(self.categories)


# --------------------------------------------------------------------------- helpers


def _group_codes(
    df: pd.DataFrame, by: list[Hashable], n_rows: int
) -> tuple[IntArray, pd.Index | None]:
    if not by:
        return np.zeros(n_rows, dtype=np.int64), None
    for col in by:
        n_missing = int(df[col].isna().sum())
        if n_missing:
            raise ValueError(
                f"`by` column {_plain(col)!r} has {n_missing} missing values; fill them or drop "
                "those rows before grouping."
            )
    return factorize_columns(df, by)


def _check_frame(df: object) -> pd.DataFrame:
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"expected a pandas DataFrame; got {type(df).__name__}.")
    if df.shape[0] == 0:
        raise ValueError(
            "the frame is empty (0 rows): agreement needs items rated by at least two raters."
        )
    return df


# --------------------------------------------------------------------------- layouts


def _encode_wide(
    df: pd.DataFrame,
    raters: Sequence[Hashable] | None,
    categories: Sequence[Hashable] | None,
    by: list[Hashable],
) -> Encoded:
    cols = rater_columns(df, raters, by)
    frame = df[cols]
    from_dtype = dtype_categories([frame[c] for c in cols])
    fast = wide_codes(frame, categories) if from_dtype is None else None
    if fast is not None:  # text or numbers: column by column, no Python object per cell
        item, rater, values, rank = fast.item, fast.rater, fast.code, None
    else:
        arr = (
            frame.to_numpy(dtype=object) if from_dtype is None else frame.astype(object).to_numpy()
        )
        item, rater = np.nonzero(~pd.isna(arr))
        values, item, rater, rank = split_cells(arr[item, rater], item, rater)
    if values.size == 0:
        raise ValueError(
            "the frame holds no ratings: every rating cell is missing. Agreement needs items "
            "rated by at least two raters."
        )
    active = distinct_keys(rater, len(cols))
    if len(active) < 2:
        raise ValueError(
            f"agreement needs at least two raters with ratings; only "
            f"{_fmt([cols[int(i)] for i in active])} of the rater columns {_fmt(cols)} has any. "
            "Add ratings from another rater."
        )
    if fast is not None:
        code, cats, ordered = values, fast.categories, fast.ordered
    else:
        try:
            code, cats, ordered = encode_labels(values, categories, from_dtype, "a rating cell")
        except TypeError as exc:  # e.g. text labels and an id column of numbers: say so
            hint = id_column_hint(frame)  # the most specific cause, else the columns' kinds
            cause = "" if hint else mixed_kinds_hint(frame)
            if not cause and not hint:
                raise
            raise TypeError(f"{cause} ({exc})" if cause else f"{exc}{hint}") from None
    item, rater, code, secondary = resolve(item, rater, code, rank, df.index, pd.Index(cols))
    group, groups = _group_codes(df, by, len(df))
    check_unique_items(df.index, group, groups)
    enc = Encoded(
        layout="wide",
        items=pd.Index(df.index),
        raters=pd.Index(cols),
        categories=cats,
        item=item.astype(np.int64),
        rater=rater.astype(np.int64),
        code=code,
        weight=np.ones(len(code), dtype=np.float64),
        group=group,
        groups=groups,
        by=tuple(by),
        ordered=ordered,
        secondary=secondary,
    )
    check_rater_sharing(enc, check_rater_columns(enc, [frame[c].dtype for c in cols]))
    return enc


def _encode_long(
    df: pd.DataFrame,
    item: Hashable,
    rater: Hashable,
    label: Hashable,
    categories: Sequence[Hashable] | None,
    by: list[Hashable],
    rank: Hashable | None = None,
) -> Encoded:
    roles: dict[str, Hashable] = {"item": item, "rater": rater, "label": label}
    if rank is not None:
        roles["rank"] = rank
    check_long_columns(df, roles, by)
    labels = df[label]
    keep, code, cats, ordered = encode_label_column(
        labels, categories, dtype_categories([labels]), f"`label` column {_plain(label)!r}"
    )
    if not keep.any():
        raise ValueError(
            f"`label` column {_plain(label)!r} holds no labels: every value is missing. Agreement "
            "needs items rated by at least two raters."
        )
    every = bool(keep.all())
    keys = df[[*by, item, rater]] if every else df.loc[keep, [*by, item, rater]]
    try:
        if not every:  # rows without a label still need their item and rater
            dropped = df.loc[~keep, [item, rater]]
            for col in (item, rater):
                if dropped[col].isna().any():
                    raise MissingKeyError(col)
        # Item identity is (group keys..., item): items are analysed within their group.
        item_code, items = factorize_columns(keys, [*by, item], required=[item])
        rater_code, raters = factorize_columns(keys, [rater], required=[rater])
    except MissingKeyError as missing:
        param = "item" if missing.column == item else "rater"
        n_missing = int(df[missing.column].isna().sum())
        raise missing_key_error(param, missing.column, n_missing) from None
    n_raters = len(raters)
    if n_raters < 2:
        raise ValueError(
            "agreement needs at least two raters; `rater` column "
            f"{_plain(rater)!r} has {n_raters} ({_fmt(list(raters))})."
        )
    ranks = None if rank is None else rank_codes(df[rank][keep], rank)
    item_code, rater_code, code, secondary = resolve(
        item_code, rater_code, code, ranks, items, raters
    )
    if by:
        group, groups = _group_codes(items.to_frame(index=False), by, len(items))
    else:
        group, groups = np.zeros(len(items), dtype=np.int64), None
    enc = Encoded(
        layout="long",
        items=items,
        raters=raters,
        categories=cats,
        item=item_code,
        rater=rater_code,
        code=code,
        weight=np.ones(len(code), dtype=np.float64),
        group=group,
        groups=groups,
        by=tuple(by),
        ordered=ordered,
        secondary=secondary,
    )
    check_long_labels(enc, label)
    return enc


def _encode_counts(
    df: pd.DataFrame, categories: Sequence[Hashable] | None, by: list[Hashable]
) -> Encoded:
    cols = [c for c in df.columns if c not in by]
    if not cols:
        raise ValueError("a counts table needs one column per category; the frame has none.")
    col_index = pd.Index(cols)
    if col_index.has_duplicates:
        dup = list(col_index[col_index.duplicated()].unique())
        raise ValueError(
            f"counts columns must be unique, one per category; {_fmt(dup)} appear more than "
            "once. Add up the repeated columns."
        )
    from_dtype = None
    if isinstance(df.columns, pd.CategoricalIndex):  # e.g. pd.crosstab of a Categorical
        declared = [c for c in df.columns.categories if c not in by]
        from_dtype = DtypeCategories(pd.Index(declared), ordered=bool(df.columns.ordered))
    cats, ordered = categories_of(col_index, categories, from_dtype, keep_order=True)
    extra = [c for c in cols if c not in set(cats)]
    if extra:
        raise ValueError(
            f"counts columns {_fmt(extra)} are missing from `categories`; add them to "
            "`categories` or drop those columns."
        )
    arr = check_counts(
        df[cols],
        cols,
        "A count is how many raters chose the category for the item.",
        numeric_hint="A counts table has one column per category holding how many raters "
        "chose it.",
    )
    if arr.sum() == 0:
        raise ValueError(
            "the counts table holds no ratings (every count is 0). Agreement needs items "
            "rated by at least two raters."
        )
    position = cats.get_indexer(pd.Index(cols))
    item, col = np.nonzero(arr)
    group, groups = _group_codes(df, by, len(df))
    return Encoded(
        layout="counts",
        items=pd.Index(df.index),
        raters=None,
        categories=cats,
        item=item.astype(np.int64),
        rater=None,
        code=position[col].astype(np.int64),
        weight=arr[item, col],
        group=group,
        groups=groups,
        by=tuple(by),
        ordered=ordered,
    )


def _encode_contingency(df: pd.DataFrame, categories: Sequence[Hashable] | None) -> Encoded:
    codes = contingency_codes(df, categories)
    n_cells = len(codes.count)
    return Encoded(
        layout="contingency",
        items=pd.RangeIndex(n_cells, name="cell"),
        raters=codes.raters,
        categories=codes.categories,
        item=np.repeat(np.arange(n_cells, dtype=np.int64), 2),
        rater=np.tile(np.array([0, 1], dtype=np.int64), n_cells),
        code=np.column_stack([codes.first, codes.second]).ravel(),
        weight=np.ones(2 * n_cells, dtype=np.float64),
        group=np.zeros(n_cells, dtype=np.int64),
        groups=None,
        by=(),
        ordered=codes.ordered,
        multiplicity=codes.count,
    )


def encode(df: pd.DataFrame, spec: LayoutSpec | None = None, /, **arguments: Any) -> Encoded:
    """Encode a frame in any of the four layouts, as ``spec`` describes it (or the keyword
    arguments of :meth:`LayoutSpec.of <pdagree.encoding.LayoutSpec.of>`).

    The frame is only read, never modified. ``rank=``: see :mod:`pdagree.encoding._ranks`.
    """
    if spec is None:
        spec = LayoutSpec.of(**arguments)
    elif arguments:
        raise TypeError("give `encode` a LayoutSpec or keyword arguments, not both.")
    item, rater, label, rank = spec.item, spec.rater, spec.label, spec.rank
    raters, categories, by, layout = spec.raters, spec.categories, spec.by, spec.layout
    df = _check_frame(df)
    if layout == "contingency" and by is not None:
        raise TypeError(
            f"`by` does not apply to layout='contingency'; got by={by!r}. A contingency table "
            "holds the items of one pair of raters: call agree on each group's table, or pass "
            "the ratings as a wide or long frame with `by=`."
        )
    by_cols = _as_list(by, df.columns)
    require_columns(df, {"by": by_cols})
    df = _drop_missing_keys(df, by_cols)
    layout = layout_of(layout, item, rater, label, raters, categories)
    declared = categories is not None or _has_categorical(df, layout, label, raters, by_cols)
    check_rank_layout(rank, layout)
    encoded = _encode_layout(df, layout, item, rater, label, raters, categories, by_cols, rank)
    if not declared:
        check_label_markers(encoded.categories)
    return replace(encoded, declared=declared)


def _has_categorical(
    df: pd.DataFrame,
    layout: Layout,
    label: Hashable | None,
    raters: Sequence[Hashable] | None,
    by_cols: list[Hashable],
) -> bool:
    """Whether the labels come with their categories: a Categorical, or a counts or
    contingency table (whose axes list the categories)."""
    if layout in ("counts", "contingency"):
        return True
    if layout == "long":
        wanted: list[Hashable] = [label]
    elif raters is not None:
        wanted = list(raters)
    else:
        wanted = [c for c in df.columns if c not in by_cols]
    return any(
        isinstance(dtype, pd.CategoricalDtype)
        for name, dtype in df.dtypes.items()
        if name in wanted
    )


def _encode_layout(
    df: pd.DataFrame,
    layout: Layout,
    item: Hashable | None,
    rater: Hashable | None,
    label: Hashable | None,
    raters: Sequence[Hashable] | None,
    categories: Sequence[Hashable] | None,
    by_cols: list[Hashable],
    rank: Hashable | None = None,
) -> Encoded:
    """The encoding of ``layout`` (checked by :func:`layout_of`)."""
    if layout == "long":
        return _encode_long(df, item, rater, label, categories, by_cols, rank)
    if layout == "counts":
        return _encode_counts(df, categories, by_cols)
    if layout == "contingency":
        return _encode_contingency(df, categories)
    return _encode_wide(df, raters, categories, by_cols)
