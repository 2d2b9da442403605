"""Set-valued labels: a multi-select read as one category per distinct set of labels, and the
distances between sets that Krippendorff's alpha takes (``alpha(distance="masi")``).

Part of the encoding layer (:mod:`pdagree.encoding`). A cell holding a ``set`` (or, in a long
frame, a ``list``) cannot be hashed: :func:`frozen_cells` reads it as a ``frozenset``, so each
distinct set of labels becomes a category of its own and every coefficient reads exact
agreement on the sets. A ``frozenset`` or ``tuple`` cell is a hashable label already.
:func:`set_order` sorts such categories (by size, then elements).

:class:`SetDistance` is the metric of ``alpha(distance=...)``: the categories as sets
(:func:`label_sets`), and the (K, K) distances between them from a set-membership indicator
``M`` (categories x distinct elements), ``|A & B| = M @ M.T`` (:func:`set_distances`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import pandas as pd

from .._typing import BoolArray, FloatArray, IntArray

__all__ = [
    "DISTANCES",
    "SetDistance",
    "annotation_sets",
    "distance_level",
    "frozen_cells",
    "label_sets",
    "set_delta2",
    "set_distances",
    "set_order",
]

#: The set distances ``alpha(distance=...)`` takes.
DISTANCES = ("masi", "jaccard")


@dataclass(frozen=True)
class SetDistance:
    """``alpha(distance=name)``: the distance ``name`` between sets of labels, used as
    Krippendorff's ``delta2`` over the categories read as sets."""

    name: str


def frozen_cells(values: Any, *, lists: bool = False) -> np.ndarray[Any, Any] | None:
    """``values`` with each ``set`` cell (and ``list`` cell with ``lists``) as a ``frozenset``,
    other cells as given; ``None`` when there is no such cell.

    >>> cells = np.array([{2, 1}, [1, 1], "c", None], dtype=object)
    >>> frozen_cells(cells, lists=True).tolist()
    [frozenset({1, 2}), frozenset({1}), 'c', None]
    """
    if not isinstance(values, np.ndarray) or values.dtype != object:
        return None
    kinds = (set, list) if lists else set
    cells = values.tolist()
    found = [isinstance(v, kinds) for v in cells]
    if not any(found):
        return None
    out = np.empty(len(cells), dtype=object)
    out[:] = [frozenset(v) if f else v for v, f in zip(cells, found, strict=True)]
    return out


def set_order(labels: pd.Index) -> pd.Index | None:
    """Labels among which is a frozenset in a deterministic order: by size, then elements as
    text (a tuple by its elements, another label as the set of itself); ``None`` when no label
    is a frozenset. Python orders sets by inclusion, which is not a total order.

    >>> set_order(pd.Index([frozenset({1, 2}), "c", ("b",)], dtype=object)).tolist()
    [('b',), 'c', frozenset({1, 2})]
    """
    cells = labels.tolist()
    if not any(isinstance(v, frozenset) for v in cells):
        return None

    def key(v: Any) -> tuple[int, list[str], str]:
        elements = list(v) if isinstance(v, (frozenset, tuple)) else [v]
        return len(elements), sorted(map(str, elements)), type(v).__name__

    keys = [key(v) for v in cells]
    order = sorted(range(len(cells)), key=keys.__getitem__)
    return labels[np.asarray(order, dtype=np.int64)]


def _elements(label: Hashable) -> tuple[list[Any], bool]:
    """The elements of one category and whether it holds a set (a frozenset or tuple);
    a single label is the set of itself. Missing elements are left out."""
    if isinstance(label, (frozenset, tuple)):
        return [e for e in label if not _missing(e)], True
    return [label], False


def _missing(value: Any) -> bool:
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):  # an array-like element is not missing
        return False


def label_sets(categories: pd.Index) -> tuple[list[list[Any]], bool]:
    """Each category's elements (a frozenset or tuple: its elements, missing ones left out;
    any other label: itself), and whether any category holds a set."""
    parts = [_elements(c) for c in categories.tolist()]
    return [p[0] for p in parts], any(p[1] for p in parts)


#: Up to this many distinct sets the distances are one (K, K) matrix (8 MiB per array);
#: beyond, they are computed pair by pair from bit-packed membership rows.
MATRIX_SETS = 1024

#: The number of set bits of each byte.
_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)


def _membership(element_code: IntArray, sizes: IntArray, k: int) -> BoolArray:
    """The 0/1 membership matrix ``M`` (sets x distinct elements); repeats count once."""
    n_elements = int(element_code.max()) + 1 if len(element_code) else 0
    member = np.zeros((k, n_elements), dtype=bool)
    member[np.repeat(np.arange(k), sizes), element_code] = True
    return member


def _packed_words(member: BoolArray) -> np.ndarray[Any, np.dtype[np.uint64]]:
    """The rows of ``member`` as bits in 64-bit words, shape (K, ceil(n_elements / 64))."""
    packed = np.packbits(member, axis=1)
    width = -(-max(packed.shape[1], 1) // 8) * 8
    padded = np.zeros((len(member), width), dtype=np.uint8)
    padded[:, : packed.shape[1]] = packed
    return padded.view(np.uint64)


def _popcount(words: np.ndarray[Any, np.dtype[np.uint64]]) -> IntArray:
    """The set bits of each 64-bit word."""
    if hasattr(np, "bitwise_count"):  # NumPy >= 2.0
        return np.bitwise_count(words).astype(np.int64)
    octets = words.view(np.uint8).reshape(*words.shape, 8)
    return _POPCOUNT[octets].sum(axis=-1)


def _distance(name: str, inter: Any, size_a: Any, size_b: Any) -> FloatArray:
    """The distance ``name`` from ``I = |A & B|`` and the sizes ``|A|``, ``|B|`` (arrays that
    broadcast), elementwise."""
    union = size_a + size_b - inter
    ratio = np.divide(inter, union, out=np.zeros(np.shape(union)), where=union > 0)
    if name == "masi":
        small = np.minimum(size_a, size_b)
        equal = (inter == size_a) & (inter == size_b)
        m = np.where(equal, 1.0, np.where(inter == small, 2 / 3, np.where(inter > 0, 1 / 3, 0.0)))
        ratio = ratio * m
    out: FloatArray = 1.0 - ratio
    out[union == 0] = 0.0  # two empty sets are equal
    return out


def set_distances(name: str, element_code: IntArray, sizes: IntArray, k: int) -> FloatArray:
    """The (K, K) distances ``name`` between ``k`` sets, given as the concatenated codes of
    their elements (``element_code``, ``sizes[i]`` of them for set ``i``; repeated elements
    count once).

    With ``I = |A & B|`` and ``U = |A | B|`` (``M @ M.T`` of the 0/1 membership matrix
    ``M``): Jaccard's ``1 - I / U``; Passonneau's MASI ``1 - (I / U) m``, with the
    monotonicity ``m`` = 1 for equal sets, 2/3 when one holds the other, 1/3 when they
    overlap otherwise, 0 when disjoint. Two empty sets are at distance 0 (``U = 0``: equal
    sets), an empty and a non-empty set at distance 1.

    >>> d = set_distances("masi", np.array([0, 1, 0, 1, 2]), np.array([2, 3]), 2)
    >>> d.round(4).tolist()  # {a, b} and {a, b, c}: 1 - (2/3)(2/3)
    [[0.0, 0.5556], [0.5556, 0.0]]
    """
    member = _membership(element_code, sizes, k).astype(np.float64)
    inter = member @ member.T
    size = np.diag(inter).copy()
    return _distance(name, inter, size[:, None], size[None, :])


def set_delta2(
    name: str, element_code: IntArray, sizes: IntArray, k: int
) -> Callable[[IntArray, IntArray], FloatArray]:
    """``delta2(a, b)``: the distance ``name`` between the sets of codes ``a`` and ``b``
    (arrays that broadcast), as :func:`set_distances` gives it: a look-up in that (K, K)
    matrix up to :data:`MATRIX_SETS` sets; beyond, ``I`` from bit-packed membership rows
    (``popcount(A & B)``), so that memory stays linear in the sets.

    >>> d = set_delta2("jaccard", np.array([0, 1, 0, 1, 2]), np.array([2, 3]), 2)
    >>> d(np.array([0, 1]), np.array([1, 1])).round(4).tolist()
    [0.3333, 0.0]
    """
    if k <= MATRIX_SETS:
        matrix = set_distances(name, element_code, sizes, k)
        return lambda a, b: np.asarray(matrix[a, b], dtype=np.float64)
    member = _membership(element_code, sizes, k)
    packed = _packed_words(member)
    span = member.shape[1] + 1  # sizes and intersections run 0..n_elements
    size = member.sum(axis=1, dtype=np.int64)
    # the distance of every (|A|, |B|, |A & B|), looked up by one flat key per pair
    grid = np.indices((span, span, span)).reshape(3, -1)
    table = _distance(name, grid[2], grid[0], grid[1])
    base = size * span * span

    def delta2(a: IntArray, b: IntArray) -> FloatArray:
        inter = _popcount(packed[a] & packed[b]).sum(axis=-1)
        return table[base[a] + size[b] * span + inter]

    return delta2


def distance_level(level: Any, distance: Any, weights: Any) -> Any:
    """The ``level`` that ``alpha(level, distance=..., weights=...)`` computes with: a
    :class:`SetDistance` for ``distance``, else ``level`` unchanged."""
    if distance is None:
        return level
    if not isinstance(distance, str) or distance not in DISTANCES:
        raise ValueError(f"`distance` must be one of 'masi', 'jaccard'; got {distance!r}.")
    if weights is not None or not (isinstance(level, str) and level == "nominal"):
        given = f"weights={weights!r}" if weights is not None else f"level={level!r}"
        raise TypeError(
            "`alpha()` takes `distance=` (a distance between sets of labels) without `level=` "
            f"or `weights=`; got distance={distance!r} and {given}. Drop one of them."
        )
    return SetDistance(distance)


def annotation_sets(
    code: IntArray, secondary: IntArray | None, categories: pd.Index
) -> tuple[IntArray, pd.Index] | None:
    """Each annotation's labels as one set: per annotation the code of its set, and the
    distinct sets as frozensets in :func:`set_order`, so that equal sets written differently
    (a tuple and a set, another order) are one category. A category that is a frozenset or
    a tuple gives its elements (missing ones left out), another label the set of itself; a
    secondary label (``secondary >= 0``) joins the primary's set. ``None`` when there is no
    set at all (every category a single label, no secondary label).

    >>> cats = pd.Index([("b", "a"), "a", frozenset({"a", "b"})], dtype=object)
    >>> code, sets = annotation_sets(np.array([0, 1, 2, 1]), np.array([-1, 2, -1, -1]), cats)
    >>> code.tolist(), [sorted(s) for s in sets]
    ([1, 1, 1, 0], [['a'], ['a', 'b']])
    """
    elements, any_set = label_sets(categories)
    if not any_set and (secondary is None or not bool((secondary >= 0).any())):
        return None
    own = [frozenset(e) for e in elements]
    if secondary is None:
        key, pairs = code, [(c, c) for c in range(len(own))]
    else:
        other = np.where(secondary < 0, code, secondary)
        low, high = np.minimum(code, other), np.maximum(code, other)
        unique, key = np.unique(low * len(own) + high, return_inverse=True)
        pairs = list(zip(*(v.tolist() for v in divmod(unique, len(own))), strict=True))
    sets = pd.Index([own[a] | own[b] for a, b in pairs], dtype=object)
    local, distinct = pd.factorize(sets)
    ordered = cast(pd.Index, set_order(pd.Index(distinct, dtype=object)))  # all frozensets
    position = ordered.get_indexer(distinct)[local]
    return position[np.asarray(key).ravel()].astype(np.int64), ordered
