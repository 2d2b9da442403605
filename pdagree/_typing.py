"""Array type aliases for the layers above the kernels (defined in :mod:`pdagree._kernels`,
which import nothing of pdagree's outside their package)."""

from __future__ import annotations

from ._kernels._typing import BoolArray, FloatArray, IntArray, as_float

__all__ = ["BoolArray", "FloatArray", "IntArray", "as_float"]
