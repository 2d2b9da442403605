"""The encoding layer: wide, long and counts frames become integer codes.

This is the only layer that sees labels. Everything downstream works on the integer arrays of
:class:`Encoded`: one entry per annotation (or per non-zero cell of a counts table), with the
item, rater and category as codes, and the original labels kept as :class:`pandas.Index`
objects so that results can be labelled again at the end.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, cast

import numpy as np
import pandas as pd

from ._typing import FloatArray, IntArray

__all__ = ["Encoded", "Layout", "encode"]

Layout = Literal["wide", "long", "counts"]
_LAYOUTS = ("wide", "long", "counts")
_MAX_SHOWN = 5


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
        Rater labels, one per rater code; ``None`` for a counts table (no rater identity).
    categories
        The ordered categories; a label's code is its position here.
    item, code
        Per annotation (or per non-zero counts cell): item code and category code.
    rater
        Per annotation: rater code; ``None`` for a counts table.
    weight
        Per entry: how many annotations it stands for (1 for wide and long frames).
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

    @property
    def values(self) -> FloatArray | None:
        """The categories as numbers when they are numeric, else ``None``.

        Labels read through an object array (wide and long frames) give an object Index; it
        counts as numeric when every category is a real number (booleans are not numbers).
        """
        cats = self.categories
        if pd.api.types.is_bool_dtype(cats.dtype):
            return None
        if pd.api.types.is_numeric_dtype(cats.dtype) or pd.api.types.infer_dtype(
            cats, skipna=False
        ) in ("integer", "floating", "mixed-integer-float"):
            return np.asarray(cats, dtype=np.float64)
        return None


# --------------------------------------------------------------------------- helpers


def _fmt(values: Sequence[Any]) -> str:
    shown = list(values[:_MAX_SHOWN])
    return repr(shown)[:-1] + (", ...]" if len(values) > _MAX_SHOWN else "]")


def _as_written(values: np.ndarray[Any, Any]) -> list[float | int]:
    """Numbers as the user likely wrote them: whole numbers without a trailing ``.0``."""
    return [int(v) if float(v).is_integer() else float(v) for v in values.tolist()]


def _as_list(by: Hashable | Sequence[Hashable] | None) -> list[Hashable]:
    if by is None:
        return []
    if isinstance(by, (list, tuple)):
        return list(by)
    return [by]


def _require_columns(df: pd.DataFrame, names: dict[str, list[Hashable]]) -> None:
    for param, cols in names.items():
        for col in cols:
            if col not in df.columns:
                raise ValueError(
                    f"`{param}` names column {col!r}, which is not in the frame; "
                    f"available columns: {_fmt(list(df.columns))}."
                )


def _check_hashable(values: np.ndarray[Any, Any], where: str) -> None:
    """Raise a TypeError naming the first unhashable label."""
    if values.dtype != object:
        return
    for v in values:
        try:
            hash(v)
        except TypeError:
            raise TypeError(
                f"labels must be hashable scalars; {where} holds {v!r} "
                f"of type {type(v).__name__}. Use one label per cell (for several labels per "
                "item use a long frame with one row per label)."
            ) from None


def _factorize_labels(values: np.ndarray[Any, Any], where: str) -> tuple[IntArray, pd.Index]:
    try:
        codes, uniques = pd.factorize(values)
    except TypeError:
        _check_hashable(values, where)
        raise
    return codes.astype(np.int64), pd.Index(uniques)


def _categories(
    uniques: pd.Index,
    declared: Sequence[Hashable] | None,
    dtype_categories: pd.Index | None,
) -> pd.Index:
    """Categories: an ordered Categorical's order, else ``categories=``, else sorted labels."""
    if dtype_categories is not None:
        if declared is not None and list(declared) != list(dtype_categories):
            raise TypeError(
                "the labels are an ordered Categorical, whose categories "
                f"{_fmt(list(dtype_categories))} fix the order; `categories` "
                f"{_fmt(list(declared))} disagrees. Pass one or the other."
            )
        fixed: pd.Index = pd.Index(list(dtype_categories))
        return fixed
    if declared is not None:
        cats = pd.Index(list(declared))
        if cats.has_duplicates:
            dup = cats[cats.duplicated()].unique()
            raise ValueError(
                f"`categories` must not repeat a category; got {_fmt(list(dup))} twice. "
                "List each category once."
            )
        return cats
    try:
        return uniques.sort_values()
    except TypeError:
        kinds = sorted({type(v).__name__ for v in uniques})
        raise TypeError(
            f"labels of different types {kinds} cannot be put in order; pass "
            "`categories=[...]` to declare the categories and their order."
        ) from None


def _ordered_dtype_categories(series: list[pd.Series]) -> pd.Index | None:
    ordered = [
        s.dtype.categories
        for s in series
        if isinstance(s.dtype, pd.CategoricalDtype) and s.dtype.ordered
    ]
    if not ordered:
        return None
    first = ordered[0]
    if len(ordered) != len(series) or any(not first.equals(c) for c in ordered[1:]):
        raise TypeError(
            "some rating columns are ordered Categoricals and others are not, or their "
            "categories differ; give every rating column the same ordered CategoricalDtype."
        )
    found: pd.Index = pd.Index(list(first))
    return found


def _encode_labels(
    values: np.ndarray[Any, Any],
    declared: Sequence[Hashable] | None,
    dtype_categories: pd.Index | None,
    where: str,
) -> tuple[IntArray, pd.Index]:
    """Codes of ``values`` (no missing values among them) and the categories."""
    local, uniques = _factorize_labels(values, where)
    cats = _categories(uniques, declared, dtype_categories)
    lookup = cats.get_indexer(uniques)
    if (lookup < 0).any():
        unknown = list(uniques[lookup < 0])
        n_bad = int(np.isin(local, np.flatnonzero(lookup < 0)).sum())
        raise ValueError(
            f"{n_bad} ratings use labels missing from `categories`, e.g. {_fmt(unknown)}; "
            "add them to `categories` or drop those ratings."
        )
    return lookup[local].astype(np.int64), cats


def _group_codes(
    df: pd.DataFrame, by: list[Hashable], n_rows: int
) -> tuple[IntArray, pd.Index | None]:
    if not by:
        return np.zeros(n_rows, dtype=np.int64), None
    for col in by:
        n_missing = int(df[col].isna().sum())
        if n_missing:
            raise ValueError(
                f"`by` column {col!r} has {n_missing} missing values; fill them or drop "
                "those rows before grouping."
            )
    return _factorize_columns(df, by)


def _factorize_columns(frame: pd.DataFrame, cols: list[Hashable]) -> tuple[IntArray, pd.Index]:
    """Codes of the rows' key tuples in sorted order, and the keys (a MultiIndex for several
    columns). Each column is factorized on its own and the codes combined into one integer
    key, which is much faster than factorizing tuples."""
    level_codes: list[IntArray] = []
    levels: list[pd.Index] = []
    for col in cols:  # over key columns, not rows
        try:
            codes, uniques = pd.factorize(frame[col], sort=True)
        except TypeError:  # mixed types that cannot be ordered: first-seen order
            codes, uniques = pd.factorize(frame[col], sort=False)
        level_codes.append(np.asarray(codes, dtype=np.int64))
        levels.append(pd.Index(uniques, name=col))
    if len(cols) == 1:
        return level_codes[0], levels[0]
    sizes = [max(len(level), 1) for level in levels]
    if float(np.prod(np.asarray(sizes, dtype=np.float64))) >= 2.0**62:
        mi = pd.MultiIndex.from_frame(frame[cols])
        codes, uniq_mi = mi.factorize(sort=True)
        keys = cast(pd.Index, uniq_mi)
        keys.names = cols
        return np.asarray(codes, dtype=np.int64), keys
    key = np.zeros(len(frame), dtype=np.int64)
    for codes, size in zip(level_codes, sizes, strict=True):
        key = key * size + codes
    unique_keys, inverse = np.unique(key, return_inverse=True)
    out: list[IntArray] = []
    rest = unique_keys
    for size in reversed(sizes):
        rest, code = np.divmod(rest, size)
        out.append(code)
    index = pd.MultiIndex(levels=cast(Any, levels), codes=cast(Any, out[::-1]), names=cols)
    return np.asarray(inverse, dtype=np.int64).ravel(), index


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
    cols: list[Hashable]
    if raters is None:
        cols = [c for c in df.columns if c not in by]
    else:
        cols = list(raters)
        _require_columns(df, {"raters": cols})
        overlap = [c for c in cols if c in by]
        if overlap:
            raise ValueError(
                f"`raters` and `by` share columns {_fmt(overlap)}; a column is either a rater "
                "or a grouping key."
            )
    col_index = pd.Index(cols)
    if col_index.has_duplicates:
        dup = list(col_index[col_index.duplicated()])
        raise ValueError(
            f"rater columns must be unique; {_fmt(dup)} appear more than once. Rename the "
            "duplicated columns."
        )
    if len(cols) < 2:
        raise ValueError(
            f"agreement needs at least two raters; the wide frame has {len(cols)} rater "
            f"column(s) {_fmt(cols)}. Add raters, or pass `item=`, `rater=`, `label=` if this "
            "is a long frame."
        )
    frame = df[cols]
    dtype_cats = _ordered_dtype_categories([frame[c] for c in cols])
    arr = frame.to_numpy(dtype=object) if dtype_cats is None else frame.astype(object).to_numpy()
    present = ~pd.isna(arr)
    item, rater = np.nonzero(present)
    values = arr[present]
    if values.size == 0:
        raise ValueError(
            "the frame holds no ratings: every rating cell is missing. Agreement needs items "
            "rated by at least two raters."
        )
    active = np.unique(rater)
    if len(active) < 2:
        raise ValueError(
            f"agreement needs at least two raters with ratings; only "
            f"{_fmt([cols[int(i)] for i in active])} of the rater columns {_fmt(cols)} has any. "
            "Add ratings from another rater."
        )
    code, cats = _encode_labels(values, categories, dtype_cats, "a rating cell")
    group, groups = _group_codes(df, by, len(df))
    return Encoded(
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
    )


def _encode_long(
    df: pd.DataFrame,
    item: Hashable,
    rater: Hashable,
    label: Hashable,
    categories: Sequence[Hashable] | None,
    by: list[Hashable],
) -> Encoded:
    _require_columns(df, {"item": [item], "rater": [rater], "label": [label]})
    for param, col in (("item", item), ("rater", rater)):
        n_missing = int(df[col].isna().sum())
        if n_missing:
            raise ValueError(
                f"`{param}` column {col!r} has {n_missing} missing values; every annotation "
                f"needs its {param}. Fill them or drop those rows."
            )
    labels = df[label]
    keep = labels.notna().to_numpy()
    if not keep.any():
        raise ValueError(
            f"`label` column {label!r} holds no labels: every value is missing. Agreement "
            "needs items rated by at least two raters."
        )
    sub = df.loc[keep, [*by, item, rater]] if not keep.all() else df[[*by, item, rater]]
    dtype_cats = _ordered_dtype_categories([labels])
    values = labels.to_numpy(dtype=object)[keep]
    code, cats = _encode_labels(values, categories, dtype_cats, f"`label` column {label!r}")

    # Item identity is (group keys..., item): items are analysed within their group.
    item_code, items = _factorize_columns(sub, [*by, item])
    rater_code, raters = _factorize_columns(sub, [rater])
    n_raters = len(raters)
    if n_raters < 2:
        raise ValueError(
            f"agreement needs at least two raters; `rater` column {rater!r} has {n_raters} "
            f"({_fmt(list(raters))})."
        )
    item_code = np.asarray(item_code, dtype=np.int64)
    rater_code = np.asarray(rater_code, dtype=np.int64)
    pair = item_code * n_raters + rater_code
    uniq_pairs, counts = np.unique(pair, return_counts=True)
    if (counts > 1).any():
        dup = uniq_pairs[counts > 1]
        shown = list(
            zip(items[dup // n_raters].tolist(), raters[dup % n_raters].tolist(), strict=True)
        )
        raise ValueError(
            f"{len(dup)} (item, rater) pairs have more than one label, e.g. {_fmt(shown)}; "
            "keep one label per rater and item (drop duplicates or aggregate them first)."
        )
    if by:
        group, groups = _group_codes(items.to_frame(index=False), by, len(items))
    else:
        group, groups = np.zeros(len(items), dtype=np.int64), None
    return Encoded(
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
    )


def _encode_counts(
    df: pd.DataFrame, categories: Sequence[Hashable] | None, by: list[Hashable]
) -> Encoded:
    cols = [c for c in df.columns if c not in by]
    if not cols:
        raise ValueError("a counts table needs one column per category; the frame has none.")
    cats = (
        _categories(pd.Index(cols), categories, None) if categories is not None else pd.Index(cols)
    )
    extra = [c for c in cols if c not in set(cats)]
    if extra:
        raise ValueError(
            f"counts columns {_fmt(extra)} are missing from `categories`; add them to "
            "`categories` or drop those columns."
        )
    frame = df[cols]
    non_numeric = [c for c in cols if not pd.api.types.is_numeric_dtype(frame[c].dtype)]
    if non_numeric:
        raise TypeError(
            f"counts must be numbers; columns {_fmt(non_numeric)} are not numeric. A counts "
            "table has one column per category holding how many raters chose it."
        )
    arr = frame.to_numpy(dtype=np.float64, na_value=np.nan)
    if np.isnan(arr).any():
        rows, colpos = np.nonzero(np.isnan(arr))
        raise ValueError(
            f"counts must not be missing; {len(rows)} cells are NaN, e.g. at "
            f"{_fmt([(df.index[int(r)], cols[c]) for r, c in zip(rows, colpos, strict=True)])}. "
            "Use 0 for a category nobody chose."
        )
    if not np.isfinite(arr).all():
        raise ValueError(
            "counts must be finite; got infinite cells. A count is how many raters chose the "
            "category for the item."
        )
    if (arr < 0).any():
        bad = np.unique(arr[arr < 0])
        raise ValueError(
            f"counts must be non-negative integers; got {_fmt(_as_written(bad))}. A count is how "
            "many raters chose the category for the item."
        )
    if (arr != np.round(arr)).any():
        bad = np.unique(arr[arr != np.round(arr)])
        raise ValueError(
            f"counts must be whole numbers; got {_fmt(bad.tolist())}. A count is how many "
            "raters chose the category for the item."
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
    )


def encode(
    df: pd.DataFrame,
    *,
    item: Hashable | None = None,
    rater: Hashable | None = None,
    label: Hashable | None = None,
    raters: Sequence[Hashable] | None = None,
    categories: Sequence[Hashable] | None = None,
    by: Hashable | Sequence[Hashable] | None = None,
    layout: Layout | None = None,
) -> Encoded:
    """Encode a frame in any of the three layouts.

    The frame is only read, never modified.
    """
    df = _check_frame(df)
    by_cols = _as_list(by)
    _require_columns(df, {"by": by_cols})
    if categories is not None and isinstance(categories, (str, bytes)):
        raise TypeError(
            f"`categories` must be a list of categories; got the string {categories!r}. "
            f"Wrap it in a list: categories=[{categories!r}]."
        )
    given = {"item": item, "rater": rater, "label": label}
    named = {k: v for k, v in given.items() if v is not None}
    if layout is not None and layout not in _LAYOUTS:
        raise ValueError(f"`layout` must be one of 'wide', 'long', 'counts'; got {layout!r}.")
    if layout is None:
        layout = "long" if named else "wide"
    declared = categories is not None or _has_categorical(df, layout, label, raters, by_cols)
    encoded = _encode_layout(df, layout, item, rater, label, raters, categories, by_cols, named)
    return replace(encoded, declared=declared)


def _has_categorical(
    df: pd.DataFrame,
    layout: Layout,
    label: Hashable | None,
    raters: Sequence[Hashable] | None,
    by_cols: list[Hashable],
) -> bool:
    """Whether the labels come with their categories: a Categorical, or a counts table."""
    if layout == "counts":
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
    named: dict[str, Hashable],
) -> Encoded:
    given = {"item": item, "rater": rater, "label": label}
    if layout == "long":
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
        return _encode_long(df, item, rater, label, categories, by_cols)
    if named:
        raise TypeError(
            f"`item`, `rater` and `label` describe a long frame; they do not apply to "
            f"layout={layout!r}."
        )
    if layout == "counts":
        if raters is not None:
            raise TypeError("`raters` selects columns of a wide frame; a counts table has none.")
        return _encode_counts(df, categories, by_cols)
    return _encode_wide(df, raters, categories, by_cols)
