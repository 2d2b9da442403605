"""Ratings simulated from the graded response model."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._validation import check_seed
from ..encoding import plain

__all__ = ["simulate"]


def _check_parameters(
    parameters: pd.DataFrame,
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    if not isinstance(parameters, pd.DataFrame):
        raise TypeError(
            f"`parameters` must be a DataFrame like `fit.parameters`; got "
            f"{type(parameters).__name__}."
        )
    n_boundaries = parameters.shape[1] - 1
    expected = ["discrimination"] + [f"extremity_{k}" for k in range(1, n_boundaries + 1)]
    if list(parameters.columns) != expected or n_boundaries < 1:
        raise ValueError(
            f"`parameters` must have the columns {expected!r} (as `fit.parameters`); got "
            f"{list(parameters.columns)!r}."
        )
    a = parameters["discrimination"].to_numpy(dtype=np.float64)
    extremity = parameters.iloc[:, 1:].to_numpy(dtype=np.float64)
    if not np.all(np.isfinite(a)):
        raise ValueError("`parameters['discrimination']` must be finite for every judge.")
    finite = np.isfinite(extremity)
    # nan is allowed only at the ends: below a judge's lowest or above its highest category.
    first = np.where(finite.any(axis=1), np.argmax(finite, axis=1), n_boundaries)
    last = n_boundaries - 1 - np.argmax(finite[:, ::-1], axis=1)
    k = np.arange(n_boundaries)
    inside = (k >= first[:, None]) & (k <= last[:, None])
    increasing = np.diff(np.where(finite, extremity, 0.0), axis=1)
    if (
        not finite.any(axis=1).all()
        or (inside & ~finite).any()
        or (increasing[inside[:, 1:] & inside[:, :-1]] <= 0).any()
    ):
        raise ValueError(
            "`parameters`' extremities must increase along each row, with nan only at the "
            "ends (below a judge's lowest or above its highest category)."
        )
    filled = np.where(k < first[:, None], -np.inf, np.where(k > last[:, None], np.inf, extremity))
    return a, filled


def simulate(
    parameters: pd.DataFrame,
    n_items: int,
    *,
    categories: Sequence[Hashable] | None = None,
    missing: float = 0.0,
    rng: int | np.random.Generator | None = None,
) -> pd.DataFrame:
    """Simulate ratings from the graded response model, one column per judge.

    Each item gets a latent trait ``z ~ N(0, 1)``; judge j rates it above category k with
    probability ``F(a_j (z - extremity_jk))`` (F the logistic function), and each cell is
    missing with probability ``missing``.

    Parameters
    ----------
    parameters : pandas.DataFrame
        One row per judge with the columns of ``fit.parameters``: ``discrimination``,
        ``extremity_1`` ... ``extremity_{K-1}`` (increasing; nan at the start for a judge
        who never uses the lowest categories, at the end for one who never uses the highest).
    n_items : int
        The number of items (rows).
    categories : sequence, optional
        The K category labels, in order; default 1 .. K.
    missing : float, default 0
        The probability that a cell is missing, independently of everything else.
    rng : int or numpy.random.Generator, optional
        Seed or generator (``numpy.random.default_rng(rng)``).

    Returns
    -------
    pandas.DataFrame
        Index ``item`` (0 .. n_items - 1), one column per judge; the categories as given
        (integers in the nullable ``Int64`` dtype by default), missing cells ``<NA>``.

    Notes
    -----
    The draws come from one generator, in this order: two uniforms per item for the trait
    (Box-Muller: ``z = sqrt(-2 log(1 - u1)) cos(2 pi u2)``), one uniform per cell for the
    rating (the rating is the number of boundaries k with ``u < F(a_j (z - extremity_jk))``)
    and one per cell for missingness. Only ``Generator.random`` is used, whose stream for a
    given seed numpy keeps stable.

    Examples
    --------
    >>> import pandas as pd
    >>> from pdagree.irt import simulate
    >>> truth = pd.DataFrame(
    ...     {"discrimination": [2.0, 2.0], "extremity_1": [-0.5, 0.0], "extremity_2": [0.5, 1.0]},
    ...     index=["J1", "J2"],
    ... )
    >>> simulate(truth, 4, rng=0)
          J1  J2
    item
    0      2   1
    1      2   3
    2      1   3
    3      1   2
    """
    a, extremity = _check_parameters(parameters)
    if isinstance(n_items, bool) or not isinstance(n_items, int | np.integer) or n_items < 1:
        raise ValueError(f"`n_items` must be an integer >= 1; got {plain(n_items)!r}.")
    if not (isinstance(missing, int | float) and 0.0 <= missing < 1.0):
        raise ValueError(f"`missing` must be a probability in [0, 1); got {plain(missing)!r}.")
    n_categories = extremity.shape[1] + 1
    labels = pd.Index(range(1, n_categories + 1) if categories is None else list(categories))
    if len(labels) != n_categories or labels.has_duplicates:
        raise ValueError(
            f"`categories` must list {n_categories} distinct labels, one per category of "
            f"`parameters`; got {list(labels)!r}."
        )
    generator = np.random.default_rng(check_seed(rng))
    n_judges = len(a)
    u1, u2 = generator.random(n_items), generator.random(n_items)
    z = np.sqrt(-2.0 * np.log1p(-u1)) * np.cos(2.0 * np.pi * u2)
    draw = generator.random((n_items, n_judges))
    gone = generator.random((n_items, n_judges)) < missing
    with np.errstate(invalid="ignore"):
        logits = a[None, :, None] * (z[:, None, None] - extremity[None, :, :])
    above = np.exp(-np.logaddexp(0.0, -np.nan_to_num(logits, nan=0.0)))  # F(logits)
    codes = (draw[:, :, None] < above).sum(axis=2)
    index = pd.RangeIndex(n_items, name="item")
    columns = {}
    for j, judge in enumerate(parameters.index):  # over judges
        values = labels.take(codes[:, j])
        series = pd.Series(values, index=index)
        if categories is None:
            series = series.astype("Int64")
        columns[judge] = series.mask(gone[:, j])
    return pd.DataFrame(columns, index=index)
