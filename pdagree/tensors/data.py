"""The data every definition works on: encoded ratings and their count tensors.

:class:`RatingData` holds one :class:`~pdagree.encoding._encode.Encoded` and computes each count
tensor once, on first use (docs/architecture.md: encode → count → kernel). Definitions, the
inference layer and the bootstrap read it; :class:`pdagree.Ratings` wraps one for users.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, cast

import numpy as np
import pandas as pd

from .._errors import RatersNeeded
from .._kernels import agreement as K
from .._kernels import sparse as KS
from .._typing import BoolArray, FloatArray, IntArray
from ..encoding import (
    Encoded,
    distinct_keys,
    item_counts,
    pair_agreements,
    pair_confusions,
    pair_margins,
    plain,
    rater_counts,
)
from ..encoding.weights import weight_matrix
from .slots import pair_keys, slot_table

__all__ = ["RatingData", "Weights", "encoded_subset"]

Weights = Any  # a scheme name, a (K, K) matrix or DataFrame, or None

#: Above this many items x categories cells (128 MiB of float64), or this many categories,
#: unweighted coefficients count (item, category) pairs sparsely instead of in a dense table.
DENSE_CELLS = 1 << 24
DENSE_CATEGORIES = 2048
#: The largest (K, K) weight matrix built for ``weights=`` (512 MiB of float64).
MAX_WEIGHT_CELLS = 1 << 26
#: The largest dense table of rater pairs x categories (pairwise(), two-rater margins):
#: 2^24 cells, 128 MiB of float64 per array.
MAX_PAIR_CELLS = 1 << 24
#: Cells of the (groups, categories) table of the categories each ``by=`` group uses, at
#: most (256 MiB of booleans): continuous scores in many groups exceed it.
MAX_GROUP_CATEGORY_CELLS = 1 << 28


class RatingData:
    """Encoded ratings with cached count tensors.

    Attributes
    ----------
    enc : Encoded
        The ratings as integer codes, with their labels.
    """

    __slots__ = ("__dict__", "_given_mask", "enc")
    enc: Encoded
    _given_mask: Any

    def __init__(self, enc: Encoded, category_mask: Any = "auto") -> None:
        object.__setattr__(self, "enc", enc)
        object.__setattr__(self, "_given_mask", category_mask)

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError(f"RatingData is immutable; cannot set {key!r}.")

    def __reduce__(self) -> tuple[Any, ...]:
        return (RatingData, (self.enc, self._given_mask))

    @cached_property
    def category_mask(self) -> BoolArray | None:
        """Per group, the categories it uses, shape (G, K); ``None`` when every group uses
        every category.

        Declared categories (``categories=``, a Categorical, a counts table's columns) apply
        to every group; otherwise each ``by=`` group has the labels it uses, as it would
        alone. Bootstrap replicates are given their source group's categories.
        """
        given = self._given_mask
        if not (isinstance(given, str) and given == "auto"):
            return cast("BoolArray | None", given)
        enc = self.enc
        if enc.declared or enc.groups is None:
            return None
        self._check_group_categories(1)
        present = np.zeros((enc.n_groups, enc.n_categories), dtype=bool)
        present.reshape(-1)[self.annotation_group * enc.n_categories + enc.code] = True
        if enc.secondary is not None:  # secondary labels are the group's labels too
            has = enc.secondary >= 0
            present[enc.group[enc.item[has]], enc.secondary[has]] = True
        present[~present.any(axis=1)] = True  # a group without ratings: nothing to restrict
        return None if bool(present.all()) else present

    def _check_group_categories(self, width: int) -> None:
        """A ValueError, before it is allocated, when a (groups, ``width``, categories)
        table exceeds :data:`MAX_GROUP_CATEGORY_CELLS` (continuous scores in ``by=``
        groups: as many categories as distinct values)."""
        enc = self.enc
        cells = enc.n_groups * width * enc.n_categories
        if enc.groups is None or cells <= MAX_GROUP_CATEGORY_CELLS:
            return
        raise ValueError(
            f"the ratings have {enc.n_categories:,} distinct values in {enc.n_groups:,} `by=` "
            f"groups: counting them per group needs a table of {cells:,} cells, too large to "
            "hold. For continuous scores use the methods that read them as numbers (`icc`, "
            "`icc_table`, `kendall_w`, `concordance`, `cronbach_alpha`, `consensus_scores`; "
            "`alpha(level='interval')` without `by=`), or bin the scores into categories "
            "first (e.g. `pd.cut`)."
        )

    @cached_property
    def annotation_group(self) -> IntArray:
        """Per annotation (entry), the code of its item's group."""
        enc = self.enc
        return enc.group[enc.item]

    def require_items(self, what: str) -> None:
        """Refuse ``what`` (e.g. the item bootstrap) where the annotations are not kept
        item by item (:class:`~pdagree.tensors.count_data.CountData`); here a no-op."""

    def require_rows(self, what: str) -> None:
        """Refuse ``what`` where the items are distinct rows of counts with multiplicities
        (:attr:`item_weight`), which it does not read; here a no-op."""

    def subset(self, groups: IntArray, categories: BoolArray) -> tuple[RatingData, IntArray]:
        """The groups ``groups`` alone, with only the categories ``categories``; and the
        original codes of the items kept (their order in the subset)."""
        enc = self.enc
        keep_group = np.zeros(enc.n_groups, dtype=bool)
        keep_group[groups] = True
        items = np.flatnonzero(keep_group[enc.group])
        new_item = np.full(enc.n_items, -1, dtype=np.int64)
        new_item[items] = np.arange(len(items), dtype=np.int64)
        new_group = np.full(enc.n_groups, -1, dtype=np.int64)
        new_group[groups] = np.arange(len(groups), dtype=np.int64)
        rows = keep_group[enc.group[enc.item]]
        sub = encoded_subset(enc, rows, items, groups, categories, new_item, new_group)
        return RatingData(sub, category_mask=None), items

    # ------------------------------------------------------------------ what the data are

    #: Two raters' contingency tables, (G, K, K), when the data are one
    #: (:class:`~pdagree.tensors.table_data.TableData`); ``None`` otherwise.
    table: FloatArray | None = None

    @property
    def rows(self) -> RatingData:
        """The data with one item per rated item: ``self`` (a contingency table's
        :class:`~pdagree.tensors.table_data.TableData` gives its expansion)."""
        return self

    @property
    def n_items(self) -> int:
        """The items (a contingency table: the items it counts)."""
        return self.enc.n_items

    @property
    def n_annotations(self) -> float:
        """The annotations."""
        return float(self.enc.weight.sum())

    # ------------------------------------------------------------------ count tensors

    @cached_property
    def sparse(self) -> bool:
        """Whether the dense item x category table is too large: unweighted coefficients then
        use the sparse entries of ``n_ik`` (:attr:`entries`) and no (K, K) matrix."""
        enc = self.enc
        return enc.n_items * enc.n_categories > DENSE_CELLS or enc.n_categories > DENSE_CATEGORIES

    @cached_property
    def entries(self) -> tuple[IntArray, IntArray, FloatArray]:
        """The non-zero cells of ``n_ik`` as ``(item, code, count)``."""
        enc = self.enc
        return KS.category_entries(enc.item, enc.code, enc.weight, enc.n_categories)

    @cached_property
    def nik(self) -> FloatArray:
        """``n_ik``: ratings of item ``i`` in category ``k``, shape (n_items, K)."""
        self.check_dense()
        enc = self.enc
        return item_counts(enc.item, enc.code, enc.weight, enc.n_items, enc.n_categories)

    def check_dense(self) -> None:
        """Refuse, before anything is allocated, an analysis that needs the dense items x
        categories table when it would be too large."""
        enc = self.enc
        cells = enc.n_items * enc.n_categories
        if cells > MAX_WEIGHT_CELLS:
            raise ValueError(
                f"this analysis needs the dense table of {enc.n_items} items x "
                f"{enc.n_categories} categories ({_size(cells)}), which is too large. The "
                "unweighted coefficients (observed, bennett, fleiss, scott, gwet, cohen, "
                "conger, light, bias, alpha) and per_category() work without it; with this "
                "many distinct labels, numeric ratings are better served by "
                "`alpha(level='interval')`."
            )

    @cached_property
    def nck(self) -> FloatArray:
        """``n_gck``: items rater ``c`` put in category ``k`` within group ``g``, (G, R, K)."""
        enc = self.require_raters("this")
        if enc.rater is None:  # pragma: no cover - guarded by require_raters
            raise RatersNeeded("no raters")
        slot, n_slots, _ = self.slots
        self._check_group_categories(n_slots)
        return rater_counts(
            enc.group, enc.item, slot, enc.code, enc.n_groups, n_slots, enc.n_categories
        )

    @cached_property
    def rater_keys(self) -> tuple[IntArray, IntArray, IntArray, IntArray]:
        """The (group, rater) pairs that occur, as *keys* in (group, rater code) order: per
        annotation its key; per key its group, rater code and slot (:attr:`slots`).

        Without ``by=`` a key is a rater code (every rater, with ratings or not).
        """
        enc = self.enc
        rater = self.rater_codes("this")
        if enc.groups is None:
            every = np.arange(enc.n_raters, dtype=np.int64)
            return rater, np.zeros(enc.n_raters, dtype=np.int64), every, every
        pairs, inverse = np.unique(
            self.annotation_group * enc.n_raters + rater, return_inverse=True
        )
        return inverse.reshape(-1).astype(np.int64), *pair_keys(pairs, enc.n_raters, enc.n_groups)

    @cached_property
    def slots(self) -> tuple[IntArray, int, IntArray | None]:
        """The raters numbered within their group: per annotation its rater's *slot*, the
        number of slots ``S`` (the most raters of one group) and the (G, S) rater code of
        each slot (-1: none).

        Every (G, R, ...) tensor of rater counts is built on the slots, so that ``by=``
        groups with raters of their own (``R`` grows with the groups) need ``G S``, not
        ``G R``, cells. Where that saves nothing (no ``by=``, or a group with every rater),
        the slots are the rater codes and the table is ``None``. A group's slots follow the
        order of its raters' codes.
        """
        enc = self.enc
        rater = enc.rater
        if rater is None or enc.groups is None or enc.n_groups < 2 or len(rater) == 0:
            return (np.zeros(0, dtype=np.int64) if rater is None else rater), enc.n_raters, None
        key, key_group, key_rater, key_slot = self.rater_keys
        n_slots, table = slot_table(key_group, key_rater, key_slot, enc.n_groups, enc.n_raters)
        if table is None:
            return rater, n_slots, None
        return key_slot[key], n_slots, table

    @property
    def slot_raters(self) -> IntArray:
        """The (G, S) rater code of each slot of :attr:`slots`, -1 where a group has fewer."""
        enc = self.enc
        _, n_slots, table = self.slots
        if table is None:
            return np.broadcast_to(np.arange(n_slots, dtype=np.int64), (enc.n_groups, n_slots))
        return table

    def slot_of(self, rater: int) -> IntArray:
        """Per group, the slot of rater code ``rater``, -1 where it has no rating there."""
        hit = self.slot_raters == rater
        return np.where(hit.any(axis=1), hit.argmax(axis=1), -1).astype(np.int64)

    def rater_axes(self, table: Any, fill: float) -> Any:
        """A (G, S, S) table of slot pairs as the (G, R, R) table of rater pairs, ``fill``
        where a rater has no rating in the group."""
        _, _, slots = self.slots
        if slots is None:
            return table
        enc = self.enc
        out = np.full((enc.n_groups, enc.n_raters, enc.n_raters), fill, dtype=table.dtype)
        g, a, b = np.nonzero((slots[:, :, None] >= 0) & (slots[:, None, :] >= 0))
        out[g, slots[g, a], slots[g, b]] = table[g, a, b]
        return out

    @cached_property
    def pair_margins(self) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
        """Every rater pair's co-rated items, agreement and table margins (identity weights),
        dense (G, R, R) and (G, R, R, K): refused before allocating when larger than
        ``MAX_PAIR_CELLS``."""
        self._check_pair_cells()
        return pair_margins(*self._annotations(), self.identity)

    def pair_margins_with(
        self, weights: FloatArray
    ) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
        """:attr:`pair_margins` with the pairs' agreement weighted by ``weights`` (K, K)."""
        self._check_pair_cells()
        return pair_margins(*self._annotations(), weights)

    def _check_pair_cells(self) -> None:
        """Refuse the dense rater-pair tables before allocating them when too large."""
        enc = self.enc
        if enc.rater is None:  # pragma: no cover - callers check first
            raise RatersNeeded("no raters")
        n_slots = self.slots[1]
        cells = enc.n_groups * n_slots * n_slots * max(enc.n_categories, 1)
        if cells > MAX_PAIR_CELLS:
            raise ValueError(
                f"this analysis needs a table of every pair of the {enc.n_raters:,} raters "
                f"({enc.n_raters:,} x {enc.n_raters:,} x {enc.n_categories} categories"
                f"{f' x {enc.n_groups} groups' if enc.n_groups > 1 else ''}, "
                f"{_size(2 * cells)}), which is too large. light() averages the pairs that "
                "share items without it; for a raters x raters table, select fewer raters "
                "(`raters=[...]`, or a subset of a long frame) or split them with `by=`."
            )

    def _annotations(self) -> tuple[IntArray, IntArray, IntArray, IntArray, int, int, int, int]:
        """What the rater-pair counts read: groups per item, item, rater and category code per
        annotation, and the sizes."""
        enc = self.enc
        if enc.rater is None:  # pragma: no cover - callers check first
            raise RatersNeeded("no raters")
        slot, n_slots, _ = self.slots
        return (
            enc.group,
            enc.item,
            slot,
            enc.code,
            enc.n_items,
            enc.n_groups,
            n_slots,
            enc.n_categories,
        )

    @cached_property
    def pair_agreements(self) -> tuple[IntArray, IntArray, IntArray, FloatArray, FloatArray]:
        """The rater pairs that share items, sparsely: ``(group, a, b, n_common, agree)``
        (:func:`pdagree.encoding._counts.pair_agreements`)."""
        return pair_agreements(*self._annotations())

    def pair_confusion(self, first: IntArray, second: IntArray) -> FloatArray:
        """The (G, K, K) confusion table of the rater in slot ``first[g]`` (:attr:`slots`)
        against the one in slot ``second[g]`` in each group ``g`` (two different slots per
        group), counting only those two raters' annotations."""
        enc = self.enc
        if enc.rater is None:  # pragma: no cover - callers check first
            raise RatersNeeded("no raters")
        group = enc.group[enc.item]
        slot = self.slots[0]
        is_first = slot == first[group]
        keep = is_first | (slot == second[group])
        tables = pair_confusions(
            enc.group,
            enc.item[keep],
            np.where(is_first[keep], 0, 1).astype(np.int64),
            enc.code[keep],
            enc.n_items,
            enc.n_groups,
            2,
            enc.n_categories,
        )
        return tables[:, 0, 1]

    @cached_property
    def identity(self) -> FloatArray | None:
        """Identity weights: the (K, K) matrix, or ``None`` when the data are :attr:`sparse`
        (kernels then take ``None`` as identity)."""
        return None if self.sparse else np.eye(self.enc.n_categories)

    @property
    def item_weight(self) -> FloatArray | None:
        """Per item, how many identical items it stands for, for the kernels that sum over
        items (``m``); ``None``: one each. Only count data reduced to distinct rows of counts
        (:class:`~pdagree.tensors.count_data.CountData`) has them."""
        return None

    @cached_property
    def observed(self) -> tuple[FloatArray, FloatArray]:
        """Unweighted ``A_o`` and the number of items with two or more ratings, per group."""
        if self.sparse:
            e_item, _, e_count = self.entries
            return KS.identity_observed(
                e_item, e_count, self.enc.group, self.enc.n_groups, self.item_weight
            )
        return self.observed_with(np.eye(self.enc.n_categories))

    def observed_with(self, w: FloatArray) -> tuple[FloatArray, FloatArray]:
        enc = self.enc
        return K.observed_components(self.nik, w, enc.group, enc.n_groups, self.item_weight)

    @cached_property
    def active_raters(self) -> FloatArray:
        """Raters with a rating, per group (for a counts table: the most ratings of an item)."""
        enc = self.enc
        if enc.raters is None or enc.rater is None:
            return _group_max(self.nik.sum(axis=1), enc.group, enc.n_groups)
        # Distinct (group, slot) pairs: O(annotations), no (G, R, K) tensor needed.
        slot, n_slots, _ = self.slots
        key = slot if enc.groups is None else self.annotation_group * n_slots + slot
        pairs = distinct_keys(key, enc.n_groups * n_slots)
        counts = np.bincount(pairs // n_slots, minlength=enc.n_groups)
        return counts.astype(np.float64)

    @cached_property
    def by_item(self) -> tuple[IntArray, IntArray]:
        """Each item's annotation count, and the annotations' positions in item order: what
        the jackknife over items reads (:mod:`pdagree.definitions.jackknife`)."""
        enc = self.enc
        sizes = np.bincount(enc.item, minlength=enc.n_items)
        if len(enc.item) < 2**31:  # a narrower key sorts faster and keeps less
            return sizes, np.argsort(enc.item.astype(np.int32)).astype(np.int32)
        return sizes, np.argsort(enc.item)

    @cached_property
    def by_item_ratings(self) -> tuple[IntArray, IntArray]:
        """Each annotation's rater slot (:attr:`slots`) and category code, in the item order
        of :attr:`by_item`: what the jackknife kernels read chunk by chunk (32-bit where the
        (slot, category) cells fit, as :attr:`by_item`'s order)."""
        slot, n_slots, _ = self.slots
        k = self.enc.n_categories
        key = slot * k + self.enc.code
        if n_slots * k < 2**31:
            key = key.astype(np.int32)
        rater, code = np.divmod(key[self.by_item[1]], key.dtype.type(k))
        return rater, code

    @cached_property
    def rated_per_group(self) -> FloatArray:
        """Items with at least one rating, per group: the ``n`` of Gwet's variances."""
        enc = self.enc
        rated = (np.bincount(enc.item, weights=enc.weight, minlength=enc.n_items) >= 1).astype(
            np.float64
        )
        if self.item_weight is not None:
            rated = rated * self.item_weight
        return np.bincount(enc.group, weights=rated, minlength=enc.n_groups).astype(np.float64)

    # ------------------------------------------------------------------ labels

    @property
    def rater_labels(self) -> pd.Index:
        """Rater labels, empty for a counts table."""
        return self.enc.raters if self.enc.raters is not None else pd.Index([])

    def item_index(self) -> pd.Index:
        """Item labels, with the group keys in front for ``by=`` on wide and counts frames."""
        return item_index_of(self.enc)

    # ------------------------------------------------------------------ options and checks

    def weights(self, weights: Weights) -> tuple[FloatArray, str]:
        """The (K, K) weight matrix for ``weights`` and the suffix for the result's name."""
        k = self.enc.n_categories
        if k * k > MAX_WEIGHT_CELLS:
            raise ValueError(
                f"`weights` needs a {k} x {k} matrix of agreement weights ({_size(k * k)}), "
                f"too large for {k} distinct labels; got weights={weights!r}. Drop `weights` "
                "for nominal labels, or use `alpha(level='interval')` (or 'ordinal', 'ratio') "
                "for numeric ratings: it needs no such matrix."
            )
        if k > 1 and not (isinstance(weights, str) and weights == "identity"):
            self.check_dense()  # weighted coefficients read n_ik: refuse before building W
        return weight_matrix(
            weights, self.enc.categories, self.enc.values, ordered=self.enc.ordered
        )

    def weighted(self, name: str, weights: Weights) -> tuple[str, FloatArray | None, FloatArray]:
        """Name, weight matrix (``None`` for identity weights on :attr:`sparse` data) and
        ``A_o`` for a possibly weighted coefficient."""
        if self.sparse and (
            weights is None or (isinstance(weights, str) and weights == "identity")
        ):
            return name, None, self.observed[0]
        w, label = self.weights(weights)
        if label == "identity":
            return name, w, self.observed[0]
        return f"{name}[{label}]", w, self.observed_with(w)[0]

    def require_raters(self, method: str) -> Encoded:
        """The encoding, or a ValueError when it has no rater identity (a counts table)."""
        enc = self.enc
        if enc.raters is None:
            raise RatersNeeded(
                f"`{method}()` needs to know which rater gave each rating, and a counts table "
                "does not record it. Use a wide frame (one column per rater) or a long frame "
                "(`item=`, `rater=`, `label=`)."
            )
        return enc

    def rater_codes(self, method: str) -> IntArray:
        """Per annotation its rater's code, or :meth:`require_raters`'s ValueError."""
        rater = self.require_raters(method).rater
        if rater is None:  # a counts table has raters=None too; kept for the type checker
            raise RatersNeeded(f"`{method}()` needs rater identity; this layout has none.")
        return rater

    def require_two_raters(self, method: str, alternatives: str) -> None:
        """A ValueError unless every group has at most two raters with ratings."""
        enc = self.enc
        if enc.raters is None and method == "scott":
            # A counts table has no rater identity; Scott's pi needs none, only that no item
            # has more than two ratings.
            most = int(self.nik.sum(axis=1).max())
            if most > 2:
                raise ValueError(
                    f"`scott()` is defined for two ratings per item; the counts table has items "
                    f"with up to {most}. Use {alternatives} for more."
                )
            return
        enc = self.require_raters(method)
        # Raters without a rating (an empty column) do not count; with ``by=``, each group may
        # have its own two raters.
        active = self.nck.sum(axis=-1) > 0
        per_group = active.sum(axis=-1)
        if per_group.max() > 2:
            raters = self.rater_labels
            worst = int(np.argmax(per_group))
            names = list(raters[self.slot_raters[worst][active[worst]]][:6])
            where = "" if enc.groups is None else f" in group {plain(enc.groups[worst])!r}"
            raise ValueError(
                f"`{method}()` is defined for exactly two raters; got {int(per_group.max())}"
                f"{where} ({names}). For more raters use {alternatives}, or select two with "
                "`raters=[...]`."
            )


def encoded_subset(
    enc: Encoded,
    rows: Any,
    items: IntArray,
    groups: IntArray,
    categories: BoolArray,
    new_item: IntArray,
    new_group: IntArray,
) -> Encoded:
    """The annotations ``rows`` (a mask or positions) of the items ``items`` in the groups
    ``groups``, with only the categories ``categories``: ``new_item`` and ``new_group`` give
    each kept item's and group's code in the subset."""
    new_code = np.full(enc.n_categories, -1, dtype=np.int64)
    new_code[categories] = np.arange(int(categories.sum()), dtype=np.int64)
    secondary = None
    if enc.secondary is not None:  # -1 (none) stays -1
        kept = enc.secondary[rows]
        secondary = np.where(kept >= 0, new_code[kept], -1).astype(np.int64)
    return Encoded(
        layout=enc.layout,
        items=enc.items[items],
        raters=enc.raters,
        categories=enc.categories[categories],
        item=new_item[enc.item[rows]],
        rater=None if enc.rater is None else enc.rater[rows],
        code=new_code[enc.code[rows]],
        weight=enc.weight[rows],
        group=new_group[enc.group[items]],
        groups=None if enc.groups is None else enc.groups[groups],
        by=enc.by,
        declared=True,
        ordered=enc.ordered,
        secondary=secondary,
        multiplicity=None if enc.multiplicity is None else enc.multiplicity[items],
    )


def _size(cells: int) -> str:
    """The memory of ``cells`` float64 values, for messages."""
    return f"{cells * 8 / 2**30:.1f} GiB"


def _group_max(values: FloatArray, group: IntArray, n_groups: int) -> FloatArray:
    out = np.zeros(n_groups)
    order = np.lexsort((values, group))
    last = np.r_[np.flatnonzero(np.diff(group[order])), len(order) - 1]
    out[group[order][last]] = values[order][last]
    return out


def item_index_of(enc: Any) -> pd.Index:
    """Item labels, with the group keys in front for ``by=`` on wide and counts frames (an
    :class:`Encoded` or a :class:`~pdagree.encoding._numeric.NumericEncoded`)."""
    if enc.groups is None or enc.layout == "long":
        items: pd.Index = enc.items
        return items
    keys = enc.groups[enc.group]
    key_frame = (
        keys.to_frame(index=False)
        if isinstance(keys, pd.MultiIndex)
        else pd.DataFrame({keys.name: keys})
    )
    item_name = enc.items.name if enc.items.name is not None else "item"
    key_frame[item_name] = enc.items
    return pd.MultiIndex.from_frame(key_frame)
