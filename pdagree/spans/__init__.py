"""Agreement on spans: named entities and segments (``df.agree.spans(...)``).

:mod:`._data` reads and checks the spans (one row per span, character offsets, a row without
offsets for a document marked with no span); :mod:`._match` matches two annotators' spans
(exact, or by overlap, greedily), every pair at once; :mod:`._tables` gives the pairwise F1 and
its means; :mod:`._tokens` the characters' labels as :class:`~pdagree.Ratings`;
:mod:`._consensus` the consensus spans; :class:`SpanRatings` (:mod:`._ratings`) is the face.
"""

from __future__ import annotations

from ._ratings import SpanRatings

__all__ = ["SpanRatings"]
