"""The votes a consensus model reads: annotations as codes, annotators keyed by group.

Every ``by=`` group is fitted on its own, so an annotator's parameters belong to a (group,
annotator) *key*; one EM runs over all groups at once, each with its own keys, priors and
categories. Known labels (``gold=``) fix their items' posteriors.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from .._lazy import scipy_sparse as sp
from .._typing import BoolArray, FloatArray, IntArray
from ..definitions.gold import reference
from ..encoding import fmt, plain
from ..tensors import RatingData
from ..tensors.keys import keys_of

__all__ = ["Votes", "votes"]


@dataclass(frozen=True, eq=False)
class Votes:
    """Annotations as codes for the consensus models.

    Attributes
    ----------
    item, key, code
        Per annotation: item, (group, annotator) key (one per pair that occurs), category.
    group
        Per item: its group.
    n_items, n_groups, n_categories
        The sizes.
    allowed
        (G, K): the categories each group's items may take (its own labels, or every declared
        category).
    gold
        Per item: the code of its known label, -1 where none is known.
    gold_rater
        The annotator whose labels are the known ones (left out of the votes), or -1.
    key_group
        Per key, its group.
    """

    item: IntArray
    key: IntArray
    code: IntArray
    group: IntArray
    n_items: int
    n_groups: int
    n_categories: int
    allowed: BoolArray
    gold: IntArray
    gold_rater: int
    key_group: IntArray

    @property
    def n_keys(self) -> int:
        return len(self.key_group)

    @cached_property
    def n_allowed(self) -> FloatArray:
        """Per group, the number of categories its items may take."""
        out: FloatArray = self.allowed.sum(axis=1).astype(np.float64)
        return out

    @cached_property
    def key_allowed(self) -> BoolArray:
        """(keys, K): the categories of each key's group."""
        out: BoolArray = self.allowed[self.key_group]
        return out

    @cached_property
    def uniform(self) -> FloatArray:
        """(G, K): uniform probabilities over each group's categories."""
        out: FloatArray = self.allowed / self.n_allowed[:, None]
        return out

    @cached_property
    def log_uniform(self) -> FloatArray:
        """(G, K): their logarithm, minus infinity for a category the group may not take."""
        with np.errstate(divide="ignore"):
            out: FloatArray = np.where(self.allowed, np.log(self.uniform), -np.inf)
        return out

    @cached_property
    def item_log_uniform(self) -> FloatArray:
        """(n_items, K): :attr:`log_uniform` of each item's group."""
        out: FloatArray = self.log_uniform[self.group]
        return out

    @cached_property
    def restricted(self) -> bool:
        """Whether some group may not take some category."""
        return not bool(self.allowed.all())

    @cached_property
    def item_allowed(self) -> FloatArray:
        """(n_items, K): 1.0 where the item's group may take the category, else 0.0."""
        out: FloatArray = self.allowed[self.group].astype(np.float64)
        return out

    @cached_property
    def key_uniform(self) -> FloatArray:
        """(keys, K): :attr:`uniform` of each key's group."""
        out: FloatArray = self.uniform[self.key_group]
        return out

    @cached_property
    def incidence(self) -> Any:
        """The sparse (n_items, keys * K) matrix with a 1 at (item, key * K + label) for each
        annotation: one product with it sums per-(key, label) quantities over each item's
        annotations (E-step), its transpose sums per-item ones over each (key, label)'s
        annotations (M-step)."""
        k = self.n_categories
        ones = np.ones(len(self.item), dtype=np.float64)
        return sp.csr_matrix(
            (ones, (self.item, self.key * k + self.code)), shape=(self.n_items, self.n_keys * k)
        )

    @cached_property
    def key_label(self) -> IntArray:
        """Per annotation, its (key, label) cell: ``key * K + code``."""
        out: IntArray = self.key * self.n_categories + self.code
        return out

    @cached_property
    def item_label(self) -> IntArray:
        """Per annotation, its (item, label) cell: ``item * K + code``."""
        out: IntArray = self.item * self.n_categories + self.code
        return out

    @cached_property
    def counted(self) -> BoolArray:
        """The items with votes or a known label (the others have no posterior)."""
        out: BoolArray = (np.bincount(self.item, minlength=self.n_items) > 0) | (self.gold >= 0)
        return out

    @cached_property
    def group_sums(self) -> Any:
        """The sparse (groups, n_items) matrix that sums the counted items of each group."""
        rows = np.flatnonzero(self.counted)
        ones = np.ones(len(rows), dtype=np.float64)
        return sp.csr_matrix((ones, (self.group[rows], rows)), shape=(self.n_groups, self.n_items))

    @cached_property
    def per_label(self) -> FloatArray:
        """(keys, K): how many times each annotator gave each label."""
        k = self.n_categories
        flat = np.bincount(self.key * k + self.code, minlength=self.n_keys * k)
        out: FloatArray = flat.reshape(self.n_keys, k).astype(np.float64)
        return out

    @cached_property
    def n_labels(self) -> FloatArray:
        """Per key, how many labels the annotator gave."""
        out: FloatArray = np.bincount(self.key, minlength=self.n_keys).astype(np.float64)
        return out

    def sums(self, posterior: FloatArray) -> FloatArray:
        """``M[key, l, k]``: the sum of ``T_ik`` over the key's annotations with label ``l``
        (keys, K, K), from one sparse product."""
        k = self.n_categories
        out: FloatArray = np.asarray(self.incidence.T @ posterior).reshape(self.n_keys, k, k)
        return out

    def counts(self) -> FloatArray:
        """``n_ik``: the votes of item ``i`` for category ``k``, (n_items, K)."""
        k = self.n_categories
        flat = np.bincount(self.item * k + self.code, minlength=self.n_items * k)
        return flat.reshape(self.n_items, k).astype(np.float64)

    def restrict(self, keep: BoolArray) -> tuple[Votes, IntArray, IntArray]:
        """The votes of the groups ``keep`` (G,) only, renumbered in their order (items and
        keys keep their relative order); also the rows of the items and of the keys kept
        (indices in order: taking rows by index is several times faster than by a mask)."""
        item_kept = keep[self.group]
        key_kept = keep[self.key_group]
        annotation = np.flatnonzero(item_kept[self.item])
        new_group = np.cumsum(keep) - 1
        new_item = np.cumsum(item_kept) - 1
        new_key = np.cumsum(key_kept) - 1
        items, keys = np.flatnonzero(item_kept), np.flatnonzero(key_kept)
        sub = Votes(
            item=new_item[self.item.take(annotation)],
            key=new_key[self.key.take(annotation)],
            code=self.code.take(annotation),
            group=new_group[self.group.take(items)],
            n_items=len(items),
            n_groups=int(keep.sum()),
            n_categories=self.n_categories,
            allowed=self.allowed[keep],
            gold=self.gold.take(items),
            gold_rater=self.gold_rater,
            key_group=new_group[self.key_group.take(keys)],
        )
        # what the copy would compute again: the kept rows of what is computed already
        known = self.__dict__
        for name, kept in _CARRIED.items():
            if name in known:
                sub.__dict__[name] = known[name].take(keys if kept == "key" else items, axis=0)
        return sub, items, keys


_CARRIED = {
    "key_allowed": "key",
    "key_uniform": "key",
    "per_label": "key",
    "n_labels": "key",
    "item_log_uniform": "item",
    "item_allowed": "item",
    "counted": "item",
}
"""The cached per-key and per-item tables a restricted copy takes over (row by row)."""


def votes(data: RatingData, gold: Any = None) -> Votes:
    """The votes of ``data``, with the known labels ``gold`` (a rater's name or a Series of
    labels by item, as :meth:`pdagree.Ratings.against` takes them)."""
    key, key_group = keys_of(data, "consensus")
    enc = data.enc
    item, rater, code = enc.item, data.rater_codes("consensus"), enc.code
    gold_code = np.full(enc.n_items, -1, dtype=np.int64)
    gold_rater = -1
    if gold is not None:
        _check_known_items(data, gold)
        ref = reference(data, gold)
        if len(ref.categories) > enc.n_categories:
            extra = list(ref.categories[enc.n_categories :])
            raise ValueError(
                f"`gold` uses labels no annotator gave, e.g. {fmt(extra)}; a consensus chooses "
                "among the annotators' categories. Declare them with `categories=[...]` or drop "
                "those known labels."
            )
        gold_code = ref.item_code
        gold_rater = ref.rater
        if gold_rater >= 0:  # the reference annotator's labels are known, not votes
            keep = rater != gold_rater
            item, key, code = item[keep], key[keep], code[keep]
    mask = data.category_mask
    allowed = np.ones((enc.n_groups, enc.n_categories), dtype=bool) if mask is None else mask
    bad = (gold_code >= 0) & ~allowed[enc.group, np.maximum(gold_code, 0)]
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"`gold` gives item {plain(data.item_index()[first])!r} the label "
            f"{plain(enc.categories[gold_code[first]])!r}, which no annotator of its group gave; "
            "declare the categories with `categories=[...]` to allow it."
        )
    return Votes(
        item=item,
        key=key,
        code=code,
        group=enc.group,
        n_items=enc.n_items,
        n_groups=enc.n_groups,
        n_categories=enc.n_categories,
        allowed=allowed,
        gold=gold_code,
        gold_rater=gold_rater,
        key_group=key_group,
    )


def _check_known_items(data: RatingData, gold: Any) -> None:
    """Known labels for items that are not in the ratings are an error, not ignored."""
    if not isinstance(gold, pd.Series):
        return
    known = gold.dropna().index
    full = data.item_index()
    if known.nlevels == full.nlevels:
        target = full
    elif known.nlevels == data.enc.items.nlevels:
        target = data.enc.items
    else:  # items are (group..., item); `reference` refuses what is left
        leading: Any = list(range(max(full.nlevels - known.nlevels, 0)))
        target = full.droplevel(leading)
    inside = known.isin(target)
    if not inside.all():
        raise ValueError(
            f"`gold` has labels for items that are not in the ratings, e.g. "
            f"{fmt(list(known[~inside]))}; index the known labels by the ratings' items."
        )
