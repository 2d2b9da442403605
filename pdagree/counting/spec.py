"""The arguments a tally is fixed with: the accessor's keyword arguments, checked once."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from ..encoding._arguments import as_list
from ..encoding._encode import _check_by_overlap, layout_of

__all__ = ["Spec"]


@dataclass(frozen=True)
class Spec:
    """How every batch is read: ``layout`` ("long" or "wide"), the long frame's columns, the
    wide frame's ``raters``, the declared ``categories``, the ``by`` columns, and whether
    (item, rater) pairs are checked across batches."""

    layout: str
    item: Hashable | None = None
    rater: Hashable | None = None
    label: Hashable | None = None
    raters: tuple[Hashable, ...] | None = None
    categories: tuple[Hashable, ...] | None = None
    by: tuple[Hashable, ...] = ()
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
        check_duplicates: bool = True,
    ) -> Spec:
        chosen = layout_of(layout, item, rater, label, raters, categories)
        if chosen in ("counts", "contingency"):
            raise TypeError(
                f"a {chosen} table is counted already: read it with "
                f"`df.agree(layout={chosen!r})`; a tally and the Dask engine count long and "
                "wide frames."
            )
        if not isinstance(check_duplicates, bool):
            raise TypeError(f"`check_duplicates` must be True or False; got {check_duplicates!r}.")
        by_cols = as_list(by, None)
        if chosen == "long":
            _check_by_overlap(by_cols, {"item": item, "rater": rater, "label": label})
        return cls(
            layout=chosen,
            item=item,
            rater=rater,
            label=label,
            raters=None if raters is None else tuple(raters),
            categories=None if categories is None else tuple(categories),
            by=tuple(by_cols),
            check_duplicates=check_duplicates,
        )

    def arguments(self) -> dict[str, Any]:
        """The keyword arguments that build this spec again."""
        out: dict[str, Any] = {"layout": self.layout, "by": list(self.by) or None}
        if self.layout == "long":
            out.update(item=self.item, rater=self.rater, label=self.label)
        if self.raters is not None:
            out["raters"] = list(self.raters)
        if self.categories is not None:
            out["categories"] = list(self.categories)
        out["check_duplicates"] = self.check_duplicates
        return out
