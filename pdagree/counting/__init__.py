"""Count tensors that add, between the encoding and the definitions.

A batch of annotations (a pandas frame, one partition of a Dask frame) is read into codes
(``_batch``), counted into a :class:`~pdagree.counting.state.Counts` (``state``: the non-zero
(item, label) cells, the (group, rater, label) counts, the (item, rater) pairs), and counts add
to counts (``Counts.absorb``): the one combine step of :class:`pdagree.Tally` and of the Dask
engine. ``_runs`` keeps that state in sorted runs so that adding costs what the batch costs;
``_store`` writes it to a versioned ``.npz`` file without pickle. The rules that turn counts
into ratings apply once, above: :func:`pdagree.tensors.count_data.count_data`.

The tally and the Dask engine import what they use from here: the batch reader
(:func:`read_batch`), the sorted runs (:class:`KeyCounts`, :class:`Registry`, :func:`pack`,
:func:`unpack`), the file format (:func:`write_counts`, :func:`read_counts`) and the label
rules every batch passes (:func:`check_labels`). ``Spec`` is
:class:`pdagree.encoding.LayoutSpec`, the layout arguments every batch is read with.
"""

from ..encoding import LayoutSpec
from ._batch import read_batch
from ._load import read_counts
from ._rules import check_labels
from ._runs import ITEMS, LIMIT, KeyCounts, Registry, check_sizes, pack, unpack
from ._store import write_counts
from .state import Counts

Spec = LayoutSpec

__all__ = [
    "ITEMS",
    "LIMIT",
    "Counts",
    "KeyCounts",
    "LayoutSpec",
    "Registry",
    "Spec",
    "check_labels",
    "check_sizes",
    "pack",
    "read_batch",
    "read_counts",
    "unpack",
    "write_counts",
]
