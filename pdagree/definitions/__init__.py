"""Coefficient definitions: what each coefficient computes, one module per family.

``pdagree.tensors`` (encoded ratings and their count tensors) → a definition (``kappa``, ``alpha``,
``spa``, ``bias``; ``breakdowns`` for labelled tables) → :class:`~.base.Components`, and the
:data:`~.registry.REGISTRY` that lists them all.
"""

from __future__ import annotations

from .base import Components, Definition
from .registry import REGISTRY, get

__all__ = ["REGISTRY", "Components", "Definition", "get"]
