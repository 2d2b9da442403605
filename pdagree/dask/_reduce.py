"""A Dask frame reduced to count tensors on the cluster.

Each partition is counted on its worker against keys of its own (the pandas path's reading
rules and checks; an item may straddle partitions) and split by item into ``split_out``
shards of integer arrays (:func:`._pieces.partition_pieces`: an item's key hashes to the same
shard from every partition), so that the shuffle moves codes and counts, and each item's key
once per partition it is in, never the annotations' text. A shard's pieces are combined on a
worker in one step (:func:`._pieces.combine`; in a tree of fan-in :data:`._pieces.FAN_IN` when
there are more partitions), which finds the (item, rater) pairs labelled in two partitions and
drops the pairs. The client adds the shards' roots (:class:`~pdagree.counting.state.Counts`:
the non-zero cells of ``n_ik``, the raters' ``n_gck``, the distinct keys; or their rows of
counts) and applies the rules that turn them into ratings (label rules, item order, ``by=``
groups) once (:func:`pdagree.tensors.count_data.count_data`).
"""

from __future__ import annotations

import math
from typing import Any

import dask

from .._warnings import PdagreeWarning, warn
from ..counting.profiles import Profiles
from ..counting.state import Counts
from ..encoding import LayoutSpec, rater_columns, require_columns
from ..tensors.count_data import CountData, count_data, profile_data
from ._pieces import FAN_IN, Piece, combine, partition_pieces, to_counts

__all__ = ["reduce_frame"]


def _warn_missing_by(message: str | None) -> None:
    if message:
        warn(message, PdagreeWarning)


def _rows(counts: Counts) -> Profiles | None:
    """A shard's rows of counts, formed on its worker; ``None`` (the items are needed) when
    there are too many distinct labels."""
    return Profiles.of(counts) if Profiles.feasible(counts) else None


def _root(pieces: list[Piece]) -> Counts:
    """A shard's last pieces combined into its counts, the (item, rater) pairs checked and
    dropped."""
    return to_counts(combine(pieces, keep_pairs=False))


def _tree(pieces: list[Any]) -> Any:
    """The delayed counts of one shard's ``pieces``: combined :data:`FAN_IN` at a time until
    one task can take the rest."""
    while len(pieces) > FAN_IN:
        pieces = [
            dask.delayed(combine)(pieces[start : start + FAN_IN])
            for start in range(0, len(pieces), FAN_IN)
        ]
    return dask.delayed(_root)(pieces)


def reduce_frame(
    ddf: Any, given: LayoutSpec, *, split_out: int | None = None, keep_items: bool = False
) -> CountData:
    """The count tensors of a Dask frame read as ``given`` describes it, as
    :class:`CountData` (with the checks and messages of :func:`pdagree.encoding.encode`)."""
    layout, item, rater, label, raters = (
        given.layout, given.item, given.rater, given.label, given.raters
    )  # fmt: skip
    if layout in ("counts", "contingency"):
        raise TypeError(
            f"a {layout} table is already reduced to counts: read it with pandas, "
            f"`ddf.compute().agree(layout={layout!r})`; the Dask engine reads long and wide "
            "frames."
        )
    spec = given.for_batches()
    if split_out is not None and (not isinstance(split_out, int) or split_out < 1):
        raise ValueError(f"`split_out` must be a positive integer; got {split_out!r}.")
    meta = ddf._meta
    Counts.of_frame(meta, spec, True)  # the columns and arguments, checked before any work
    by_cols = list(spec.by)
    if spec.layout == "long":
        columns = [*by_cols, spec.item, spec.rater, spec.label]
        require_columns(meta, {"item": [item], "rater": [rater], "label": [label]})
        ddf = ddf[columns]
    else:
        cols = rater_columns(meta, raters, by_cols)
        ddf = ddf[[*by_cols, *cols]]
    parts = ddf.to_delayed()
    default = math.isqrt(max(len(parts), 1) - 1) + 1  # about the square root of the parts
    n_shards = max(1, default if split_out is None else split_out)
    split = [dask.delayed(partition_pieces, nout=n_shards)(part, spec, n_shards) for part in parts]
    roots = [_tree([s[j] for s in split]) for j in range(n_shards)]
    if not keep_items:
        reduced = dask.compute(*[dask.delayed(_rows)(root) for root in roots])
        if all(isinstance(r, Profiles) for r in reduced):
            profiles = Profiles(spec)
            for part in reduced:
                profiles.absorb(part)
            _warn_missing_by(profiles.missing_by_message())
            return profile_data(profiles)
        # More distinct labels than rows of counts are worth: the items, counted again.
    shards = dask.compute(*roots)
    counts = shards[0]
    for shard in shards[1:]:
        counts.absorb(shard)
    error = counts.repeated_error()
    if error is not None:
        raise error
    _warn_missing_by(counts.missing_by_message())
    if counts.n_rows == 0:
        raise ValueError(
            "the frame is empty (0 rows): agreement needs items rated by at least two raters."
        )
    return count_data(counts)
