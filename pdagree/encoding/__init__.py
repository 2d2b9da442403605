"""The encoding layer: a frame (wide, long, counts or contingency table) to integer codes.

:func:`encode` reads the frame by the layout rules and returns an :class:`Encoded`: items,
raters and categories as codes, per annotation. Beside it: the label rules (``_labels``, numbers
read as text, declared orders), the key factorization (``_factorize``), primary and secondary
labels (``_ranks``), counts and contingency tables (``_counts``, ``_contingency``), the layout and
label warnings (``_layout_checks``, ``_label_checks``), and the measurement levels and agreement
weights built on the categories (``levels``, ``weights``; public as :mod:`pdagree.levels` and
:mod:`pdagree.weights`). Nothing here reads a coefficient: the layers above
(:mod:`pdagree.counting`, :mod:`pdagree.definitions`) read the encoding.
"""

from ._encode import Encoded, Layout, encode

__all__ = ["Encoded", "Layout", "encode"]
