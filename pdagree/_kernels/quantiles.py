"""Quantiles of many columns at once, skipping nan: the percentile intervals of bootstrap
replicates, one column per ``by=`` group (and category).

``np.nanquantile(x, q, axis=0)`` runs a Python loop over the columns as soon as one value is
nan (``np.apply_along_axis``): 600,000 columns of replicates took 18 s. Here the columns are
sorted once (nan last), each column's count of values sets its own interpolation points, and
one gather reads them: the same numbers as NumPy's default (``method="linear"``), nan for a
column with no value.
"""

from __future__ import annotations

import numpy as np

from ._typing import FloatArray

__all__ = ["nan_quantiles"]


def nan_quantiles(x: FloatArray, q: FloatArray) -> FloatArray:
    """Quantiles ``q`` (in [0, 1]) of each column of ``x`` (n, ...) over its values that
    are not nan, shape (len(q), ...): ``np.nanquantile(x, q, axis=0)`` without its loop
    over columns.

    >>> import numpy as np
    >>> x = np.array([[1.0, np.nan, np.nan], [2.0, 5.0, np.nan], [4.0, 7.0, np.nan]])
    >>> nan_quantiles(x, np.array([0.5, 0.75]))
    array([[2. , 6. , nan],
           [3. , 6.5, nan]])
    """
    x = np.asarray(x, dtype=np.float64)
    q = np.asarray(q, dtype=np.float64)
    if len(x) == 0:
        return np.full((len(q), *x.shape[1:]), np.nan)
    ordered = np.sort(x, axis=0)  # nan sorts last
    count = (~np.isnan(x)).sum(axis=0)
    # NumPy's linear method: the virtual index (n - 1) q, its floor and the next point, and
    # its interpolation (the form NumPy uses: from the upper point when the weight >= 1/2).
    virtual = (np.maximum(count, 1) - 1)[None, ...] * q.reshape((-1,) + (1,) * (x.ndim - 1))
    below = np.floor(virtual)
    gamma = virtual - below
    low = below.astype(np.int64)
    high = np.minimum(low + 1, np.maximum(count, 1) - 1)
    a = np.take_along_axis(ordered, low, axis=0)
    b = np.take_along_axis(ordered, high, axis=0)
    with np.errstate(invalid="ignore"):  # infinities: nan where NumPy gives nan
        diff = b - a
        out = np.where(gamma >= 0.5, b - diff * (1.0 - gamma), a + diff * gamma)
    return np.where(count > 0, out, np.nan)
