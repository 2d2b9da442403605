"""The encoding layer: a frame (wide, long, counts or contingency table) to integer codes.

:func:`encode` reads the frame by the layout rules and returns an :class:`Encoded`: items,
raters and categories as codes, per annotation. Beside it: the label rules (``_labels``, numbers
read as text, declared orders), the key factorization (``_factorize``), primary and secondary
labels (``_ranks``), counts and contingency tables (``_counts``, ``_contingency``), the layout and
label warnings (``_layout_checks``, ``_label_checks``), and the measurement levels and agreement
weights built on the categories (``levels``, ``weights``; public as :mod:`pdagree.levels` and
:mod:`pdagree.weights`). Nothing here reads a coefficient: the layers above
(:mod:`pdagree.counting`, :mod:`pdagree.definitions`) read the encoding.

The other packages import what they use from here, never from a private module: the layout
arguments (:class:`LayoutSpec`, :func:`layout_of`, ``by`` as columns), the label rules
(:func:`categories_of`, :func:`encode_labels`, :class:`DtypeCategories`), group codes and key
factorization, the checks the tally and the Dask engine share with :func:`encode`, and the
message helpers :func:`fmt` and :func:`plain` (values as Python shows them: ``0``, not
``np.int64(0)``).
"""

from ._arguments import as_list
from ._by import drop_missing_keys, missing_by_message
from ._contingency import expand_cells
from ._counts import item_counts, pair_agreements, pair_confusions, pair_margins, rater_counts
from ._encode import Encoded, encode
from ._encode import _group_codes as group_codes
from ._factorize import distinct_keys, duplicated_keys, factorize_columns, factorize_sorted
from ._label_checks import check_label_markers
from ._labels import DtypeCategories, categories_of, dtype_categories, encode_labels, fmt, plain
from ._layout_checks import mixed_kinds_hint
from ._numeric import NumericEncoded, numeric_encode
from ._ranks import check_unique_items, repeated_items, repeated_pairs, split_cells
from ._sets import DISTANCES, SetDistance, annotation_sets, distance_level, frozen_cells
from ._spec import (
    Layout,
    LayoutSpec,
    check_by_overlap,
    check_long_columns,
    layout_of,
    missing_key_error,
    rater_columns,
    require_columns,
)

__all__ = [
    "DISTANCES",
    "DtypeCategories",
    "Encoded",
    "Layout",
    "LayoutSpec",
    "NumericEncoded",
    "SetDistance",
    "annotation_sets",
    "as_list",
    "categories_of",
    "check_by_overlap",
    "check_label_markers",
    "check_long_columns",
    "check_unique_items",
    "distance_level",
    "distinct_keys",
    "drop_missing_keys",
    "dtype_categories",
    "duplicated_keys",
    "encode",
    "encode_labels",
    "expand_cells",
    "factorize_columns",
    "factorize_sorted",
    "fmt",
    "frozen_cells",
    "group_codes",
    "item_counts",
    "layout_of",
    "missing_by_message",
    "missing_key_error",
    "mixed_kinds_hint",
    "numeric_encode",
    "pair_agreements",
    "pair_confusions",
    "pair_margins",
    "plain",
    "rater_columns",
    "rater_counts",
    "repeated_items",
    "repeated_pairs",
    "require_columns",
    "split_cells",
]
