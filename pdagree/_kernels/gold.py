"""Kernels of the evaluation against a reference: one-vs-rest confusion counts and scores.

Symbols, per group ``g``, rater ``c`` and category ``k`` (one category against the rest),
over the items both the rater and the reference labelled: ``TP`` (both say ``k``),
``pred = TP + FP`` (the rater says ``k``), ``true = TP + FN`` (the reference says ``k``) and
``n`` (the items compared), so ``TN = n - TP - FP - FN``.

Counting is three ``np.bincount`` calls over the combined key (group, rater, code): the
one-vs-rest counts need only the diagonal and the margins of each rater's confusion table
against the reference, so no (raters, K, K) table is built and memory stays
O(annotations + groups x raters x K). Kernels never validate, warn or touch pandas.
"""

from __future__ import annotations

import numpy as np

from ._typing import BoolArray, FloatArray, IntArray, as_float

__all__ = ["OneVsRest", "nan_mean", "one_vs_rest_counts", "scores"]


class OneVsRest:
    """One-vs-rest counts, each of shape (G, R, K) (``n`` broadcast along ``K``).

    Attributes
    ----------
    tp, pred, true, n
        True positives, the rater's labels of ``k``, the reference's labels of ``k`` and the
        items compared, over the items both labelled.
    """

    __slots__ = ("n", "pred", "tp", "true")

    def __init__(self, tp: FloatArray, pred: FloatArray, true: FloatArray, n: FloatArray):
        self.tp, self.pred, self.true, self.n = tp, pred, true, n

    @property
    def fp(self) -> FloatArray:
        return as_float(self.pred - self.tp)

    @property
    def fn(self) -> FloatArray:
        return as_float(self.true - self.tp)

    @property
    def tn(self) -> FloatArray:
        return as_float(self.n - self.pred - self.true + self.tp)


def one_vs_rest_counts(
    key: IntArray, code: IntArray, reference: IntArray, n_keys: int, n_categories: int
) -> OneVsRest:
    """One-vs-rest counts of annotations against their reference labels.

    Parameters
    ----------
    key
        Per annotation compared: its (group, rater) cell, ``g * R + c``, in ``[0, n_keys)``.
    code, reference
        Per annotation compared: the rater's category code and the reference's.
    n_keys, n_categories
        ``G * R`` and ``K``.

    Returns
    -------
    OneVsRest
        Counts of shape (n_keys, K); reshape to (G, R, K).

    Examples
    --------
    >>> import numpy as np
    >>> c = one_vs_rest_counts(np.array([0, 0, 0, 1]), np.array([0, 1, 1, 0]),
    ...                        np.array([0, 1, 0, 0]), 2, 2)
    >>> c.tp, c.pred, c.true, c.n[:, 0]
    (array([[1., 1.],
           [1., 0.]]), array([[1., 2.],
           [1., 0.]]), array([[2., 1.],
           [1., 0.]]), array([3., 1.]))
    """
    size = n_keys * n_categories
    cell = key * n_categories
    hit = (code == reference).astype(np.float64)
    tp = np.bincount(cell + code, weights=hit, minlength=size).reshape(n_keys, n_categories)
    pred = np.bincount(cell + code, minlength=size).reshape(n_keys, n_categories)
    true = np.bincount(cell + reference, minlength=size).reshape(n_keys, n_categories)
    n = np.bincount(key, minlength=n_keys).astype(np.float64)
    shape = (n_keys, n_categories)
    return OneVsRest(
        as_float(tp), as_float(pred), as_float(true), np.broadcast_to(n[:, None], shape)
    )


def _ratio(num: FloatArray, den: FloatArray) -> FloatArray:
    """``num / den``, nan where ``den`` is 0."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return as_float(np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan))


def scores(counts: OneVsRest, beta: float | None = None) -> dict[str, FloatArray]:
    """Precision, recall, F1 (and F-beta), specificity and accuracy from one-vs-rest counts.

    ``precision = TP / (TP + FP)``, ``recall = TP / (TP + FN)``,
    ``F_beta = (1 + beta^2) TP / ((1 + beta^2) TP + beta^2 FN + FP)`` (from the counts, as
    scikit-learn computes it: 0 when ``TP = 0`` and ``FP + FN > 0``),
    ``specificity = TN / (TN + FP)`` and ``accuracy = (TP + TN) / n``; each is nan where its
    denominator is 0. ``silence = 1 - recall``, ``noise = 1 - precision``; sensitivity is
    recall and selectivity precision (Fort 2011).

    >>> import numpy as np
    >>> s = scores(OneVsRest(np.array([2.0, 0.0]), np.array([3.0, 0.0]),
    ...                      np.array([4.0, 1.0]), np.array([5.0, 5.0])), beta=2.0)
    >>> [s[k].round(4).tolist() for k in ("precision", "recall", "f1", "fbeta")]
    [[0.6667, nan], [0.5, 0.0], [0.5714, 0.0], [0.5263, 0.0]]
    """
    tp, fp, fn, tn = counts.tp, counts.fp, counts.fn, counts.tn
    precision = _ratio(tp, counts.pred)
    recall = _ratio(tp, counts.true)
    out = {
        "precision": precision,
        "recall": recall,
        "f1": _ratio(2.0 * tp, 2.0 * tp + fp + fn),
    }
    if beta is not None:
        b2 = beta * beta
        out["fbeta"] = _ratio((1.0 + b2) * tp, (1.0 + b2) * tp + b2 * fn + fp)
    out.update(
        silence=as_float(1.0 - recall),
        noise=as_float(1.0 - precision),
        sensitivity=recall,
        specificity=_ratio(tn, tn + fp),
        selectivity=precision,
        accuracy=_ratio(tp + tn, counts.n),
    )
    return out


def nan_mean(values: FloatArray, keep: BoolArray) -> FloatArray:
    """The mean over the last axis of the finite ``values`` where ``keep`` (nan if none)."""
    use = keep & ~np.isnan(values)
    total = np.where(use, values, 0.0).sum(axis=-1)
    return _ratio(as_float(total), as_float(use.sum(axis=-1)))
