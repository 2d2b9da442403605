"""Array type aliases shared by the kernels and the layers above them."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

__all__ = ["BoolArray", "FloatArray", "IntArray", "as_float"]


def as_float(x: object) -> FloatArray:
    """``x`` as a float64 array (numpy's stubs type many results as Any or as int)."""
    return np.asarray(x, dtype=np.float64)
