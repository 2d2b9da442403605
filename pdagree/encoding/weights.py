"""Agreement weights: Gwet's named schemes and user matrices, as a (K, K) matrix.

``w_kl`` is the credit for one rater choosing ``k`` and another ``l``: 1 on the diagonal, less
for more distant categories. Named schemes are built on the category *values* when the
categories are numeric (so labels {0, 1, 10} are not treated like {0, 1, 2}) and on their
order (1, 2, ..., K) otherwise; ``"ordinal"`` always uses the order (Gwet 2014, ch. 3).
Every scheme but ``"identity"`` depends on that order, so text labels whose order nobody
declared (see :mod:`pdagree.encoding._labels`) are refused rather than weighted alphabetically.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np
import pandas as pd

from .._typing import FloatArray

__all__ = ["SCHEMES", "check_numeric_order", "undeclared_order_message", "weight_matrix"]

_ORDER_SHOWN = 10


def undeclared_order_message(what: str, categories: pd.Index) -> str:
    """The error for an order-dependent ``what`` on categories whose order nobody declared."""
    cats = list(categories)
    shown = repr(cats[:_ORDER_SHOWN])[:-1] + (", ...]" if len(cats) > _ORDER_SHOWN else "]")
    return (
        f"{what} depends on the order of the categories, and the order of these text labels "
        f"was not declared; it would have been {shown}. Declare the order "
        "with `categories=[...]` in your order, or make the labels an ordered Categorical."
    )


SCHEMES = (
    "identity",
    "linear",
    "quadratic",
    "ordinal",
    "radical",
    "ratio",
    "circular",
    "bipolar",
)


def _scheme(name: str, x: FloatArray) -> FloatArray:
    k = len(x)
    if k == 1 or name == "identity":
        return np.eye(k)
    d = x[:, None] - x[None, :]
    s = x[:, None] + x[None, :]
    lo, hi = float(x.min()), float(x.max())
    span = hi - lo
    if name == "linear":
        return 1.0 - np.abs(d) / span
    if name == "quadratic":
        return 1.0 - d**2 / span**2
    if name == "radical":
        return 1.0 - np.sqrt(np.abs(d)) / np.sqrt(span)
    if name == "ratio":
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = np.where(s == 0, 0.0, (d / np.where(s == 0, 1.0, s)) ** 2)
        return 1.0 - ratio / ((span / (hi + lo)) ** 2)
    if name == "circular":
        raw = np.sin(np.pi * d / (span + 1.0)) ** 2
        return 1.0 - raw / raw.max()
    if name == "bipolar":
        denom = (s - 2.0 * lo) * (2.0 * hi - s)
        with np.errstate(invalid="ignore", divide="ignore"):
            raw = np.where(np.eye(k, dtype=bool), 0.0, d**2 / np.where(denom == 0, 1.0, denom))
        return 1.0 - raw / raw.max()
    # ordinal: n_kl = |k - l| + 1 positions spanned, raw = C(n_kl, 2)
    rank = np.arange(1.0, k + 1.0)
    n_kl = np.abs(rank[:, None] - rank[None, :]) + 1.0
    raw = n_kl * (n_kl - 1.0) / 2.0
    return 1.0 - raw / raw.max()


def weight_matrix(
    weights: str | FloatArray | pd.DataFrame | None,
    categories: pd.Index,
    values: FloatArray | None,
    *,
    ordered: bool = True,
) -> tuple[FloatArray, str]:
    """The (K, K) agreement-weight matrix for ``weights`` and a short name for it.

    Parameters
    ----------
    weights
        ``None`` or ``"identity"`` (nominal), one of Gwet's scheme names, a (K, K) array over
        the categories in order, or a DataFrame indexed and columned by the categories.
    categories
        The declared categories.
    values
        The categories as numbers, when they are numeric.
    ordered
        Whether the order of the categories was declared (``Encoded.ordered``). If not, every
        named scheme but ``"identity"`` is refused; matrices are taken as given.

    Raises
    ------
    ValueError
        Unknown scheme; a named scheme other than ``"identity"`` on categories whose order was
        not declared; a named scheme that reads the category values on values that are not
        finite; a matrix of the wrong shape, not symmetric, with entries outside [0, 1], a
        diagonal other than 1, or non-finite entries; ``"ratio"`` or ``"bipolar"`` weights
        where they are undefined.

    Examples
    --------
    >>> import pandas as pd
    >>> w, name = weight_matrix("linear", pd.Index([0, 1, 10]), np.array([0.0, 1.0, 10.0]))
    >>> name, w[0].round(2).tolist()
    ('linear', [1.0, 0.9, 0.0])
    """
    k = len(categories)
    if weights is None:
        return np.eye(k), "identity"
    if isinstance(weights, str):
        if weights not in SCHEMES:
            raise ValueError(
                f"`weights` must be one of {', '.join(map(repr, SCHEMES))} or a (K, K) matrix; "
                f"got {weights!r}."
            )
        if weights == "identity":
            return np.eye(k), weights
        if not ordered:
            raise ValueError(undeclared_order_message(f"`weights={weights!r}`", categories))
        if weights == "ordinal":
            check_numeric_order(f"`weights={weights!r}`", categories, values)
        x = values if values is not None and weights != "ordinal" else np.arange(1.0, k + 1.0)
        bad = ~np.isfinite(x)
        if bad.any():
            raise ValueError(
                f"`weights={weights!r}` needs finite category values; got "
                f"{float(x[bad][0])!r}. Drop those ratings or use weights='ordinal'."
            )
        if weights == "ratio" and k > 1 and (x.min() < 0 or np.any(x[:, None] + x[None, :] == 0)):
            raise ValueError(
                "`weights='ratio'` needs positive category values (it divides by their sum); "
                f"got values {x.tolist()[:8]}. Use 'quadratic' or 'linear', or shift the values."
            )
        x = np.asarray(x, dtype=np.float64)
        if weights != "circular":  # the others are scale invariant: unit-size values
            finite = np.abs(x[np.isfinite(x)])
            top = float(finite.max()) if finite.size else 0.0
            x = x / np.ldexp(1.0, int(np.frexp(top)[1])) if top > 0 else x
        return _scheme(weights, x), weights
    return _user_matrix(weights, categories), "custom"


def check_numeric_order(what: str, categories: pd.Index, values: FloatArray | None) -> None:
    """Refuse ordinal weights or levels on categories that are numbers declared in an order
    that is neither ascending nor descending: the ordinal reading would follow the declared
    order while the values (and every value-based weight) say another."""
    if values is None or len(values) < 3:
        return
    step = np.diff(values)
    if (step >= 0).all() or (step <= 0).all():
        return
    shown = list(categories[:8]) + (["..."] if len(categories) > 8 else [])
    raise ValueError(
        f"{what} reads the categories' declared order, and the categories are numbers "
        f"declared out of numeric order ({shown}): the ordinal reading would follow that "
        "order while the values say another (and value-based weights such as 'linear' follow "
        "the values). Declare the categories in numeric order (e.g. categories=sorted(...)), "
        "or relabel them as text if the declared order is the one you mean."
    )


def category_matrix(obj: Any, categories: pd.Index, *, subject: str, rule: str) -> FloatArray:
    """``obj`` as a finite (K, K) float matrix over ``categories``.

    A DataFrame is aligned on its row and column labels; anything else is read in category
    order. ``subject`` names the argument in messages (e.g. "`weights`"), ``rule`` says what
    it accepts.
    """
    k = len(categories)
    if isinstance(obj, pd.DataFrame):
        missing = [c for c in categories if c not in obj.index or c not in obj.columns]
        if missing:
            raise ValueError(
                f"a {subject} DataFrame must have every category as a row and a column; "
                f"missing {missing[:5]!r}. Label it with the categories "
                f"{list(categories[:8])!r}."
            )
        labels: list[Hashable] = list(categories)
        matrix = obj.loc[labels, labels].to_numpy(dtype=np.float64)
    else:
        try:
            matrix = np.asarray(obj, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(
                f"{rule}; got a {type(obj).__name__} that is not a numeric matrix."
            ) from None
    if matrix.shape != (k, k):
        raise ValueError(
            f"{subject} as a matrix must be ({k}, {k}), one row and column per category "
            f"{list(categories[:8])!r}; got shape {matrix.shape}."
        )
    if not np.isfinite(matrix).all():
        raise ValueError(
            f"{subject} as a matrix must hold finite numbers; got nan or inf entries."
        )
    return matrix


def _user_matrix(weights: Any, categories: pd.Index) -> FloatArray:
    matrix = category_matrix(
        weights,
        categories,
        subject="`weights`",
        rule="`weights` must be a scheme name, a (K, K) array or a DataFrame",
    )
    if not np.allclose(matrix, matrix.T, rtol=0.0, atol=1e-12):
        k, l_ = np.unravel_index(int(np.argmax(np.abs(matrix - matrix.T))), matrix.shape)
        labels = categories.tolist()
        a, b = labels[int(k)], labels[int(l_)]
        raise ValueError(
            "`weights` must be symmetric (w[k, l] == w[l, k]); got w["
            f"{a!r}, {b!r}] = {float(matrix[k, l_])!r} and w[{b!r}, {a!r}] = "
            f"{float(matrix[l_, k])!r}. The coefficients for more than two raters (Fleiss, "
            "Conger, Gwet, alpha) only see the symmetric part (W + W.T) / 2 of a matrix, so "
            "pdagree refuses an asymmetric one rather than change it silently (R irrCAC "
            "accepts it). Pass (W + W.T) / 2 if the asymmetry is unintended."
        )
    outside = (matrix < 0.0) | (matrix > 1.0)
    if outside.any():
        row, col = (int(i[0]) for i in np.nonzero(outside))
        labels = categories.tolist()
        raise ValueError(
            "`weights` must be agreement weights in [0, 1] (1 for full agreement, 0 for none); "
            f"got w[{labels[row]!r}, {labels[col]!r}] = {float(matrix[row, col])!r}. Weights "
            "outside [0, 1] give an observed agreement outside [0, 1]. Rescale them, e.g. "
            "(W - W.min()) / (W.max() - W.min()), or pass distances as `alpha(level=...)`."
        )
    diag = np.diag(matrix)
    if not np.allclose(diag, 1.0, rtol=0.0, atol=1e-12):
        raise ValueError(
            f"`weights` must have 1 on the diagonal (full credit for agreement); got diagonal "
            f"{diag.round(6).tolist()[:8]}."
        )
    return matrix
