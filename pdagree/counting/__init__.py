"""Count tensors that add, between the encoding and the definitions.

A batch of annotations (a pandas frame, one partition of a Dask frame) is read into codes
(``_batch``), counted into a :class:`~pdagree.counting.state.Counts` (``state``: the non-zero
(item, label) cells, the (group, rater, label) counts, the (item, rater) pairs), and counts add
to counts (``Counts.absorb``): the one combine step of :class:`pdagree.Tally` and of the Dask
engine. ``_runs`` keeps that state in sorted runs so that adding costs what the batch costs;
``_store`` writes it to a versioned ``.npz`` file without pickle. The rules that turn counts
into ratings apply once, above: :func:`pdagree.tensors.count_data.count_data`.
"""

from .spec import Spec
from .state import Counts

__all__ = ["Counts", "Spec"]
