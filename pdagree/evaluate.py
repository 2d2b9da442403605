"""From a definition to what the user gets: a labelled result, its uncertainty on request.

:func:`coefficient` runs one registry definition on :class:`~pdagree.definitions.RatingData`
and labels its :class:`~pdagree.definitions.Components`: a :class:`~pdagree.results.Coefficient`
(a float carrying its components), or with ``by=`` a DataFrame with one row per group. It
announces undefined values, and adds ``se``, ``low``, ``high``, ``z``, ``se_h0`` and
``p_value`` when a ``confidence_level`` is given. :class:`pdagree.Ratings` and
:func:`pdagree.report.report` call it.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Sequence
from typing import Any, TypedDict, TypeVar

import numpy as np
import pandas as pd

from . import inference
from ._typing import FloatArray
from ._warnings import PdagreeWarning, warn
from .category_sets import compute
from .definitions import Components, get
from .result_source import Source
from .result_tables import result_frame
from .results import Coefficient
from .tensors import RatingData

__all__ = [
    "COEFFICIENT_RETURNS",
    "INFERENCE_DEFAULTS",
    "INFERENCE_NOTE",
    "WEIGHTS_PARAMETER",
    "InferenceOptions",
    "coefficient",
    "label",
    "method_doc",
]

Result = Coefficient | pd.DataFrame


class InferenceOptions(TypedDict, total=False):
    """The keyword-only options every coefficient method takes for uncertainty."""

    confidence_level: float | None
    method: str
    n_resamples: int
    rng: Any
    N: float
    interval: str


INFERENCE_DEFAULTS: dict[str, Any] = {
    "confidence_level": None,
    "method": "auto",
    "n_resamples": 2000,
    "rng": None,
    "N": np.inf,
    "interval": "percentile",
}

#: Added to the docstring of every coefficient method, before its Raises, Warns, Notes,
#: References or Examples (indented as a function's docstring; numpydoc's section for
#: keyword-only options, rendered after Parameters and Returns).
INFERENCE_NOTE = """
    Other Parameters
    ----------------
    confidence_level : float, optional
        Add ``se``, ``low``, ``high``, ``z`` and ``se_h0`` (see
        :meth:`pdagree.Coefficient.z_test`), ``p_value`` (one-sided, H1: coefficient > 0) and
        ``ci_method`` (the method used) to the result; see
        :meth:`pdagree.Coefficient.confidence_interval`.
    method : {"auto", "analytic", "large-sample", "jackknife", "bootstrap"}
        "auto" (the default): Gwet's analytic variance where the literature gives one,
        else the jackknife over items (Light's kappa, the bias: Efron's
        ``(n - 1) / n sum_i (theta_(i) - theta_(.))^2``, each leave-one-item-out value in
        closed form), else the item bootstrap. On a contingency table the analytic variance
        is Gwet's two-rater table formula, as R irrCAC's ``*.table`` functions,
        ``(n - 1) / n`` times the raw-ratings one.
    n_resamples, rng
        Bootstrap replicates and the seed or :class:`numpy.random.Generator`.
    N : float
        Population size of items, for the finite-population correction.
    interval : {"percentile", "basic", "BCa"}
        The bootstrap interval.
"""


#: The ``weights`` parameter of the kappa-type coefficients (``observed``, ``bennett``,
#: ``fleiss``, ``conger``, ``scott``, ``cohen``, ``gwet``), whose definitions document none.
WEIGHTS_PARAMETER = """
    Parameters
    ----------
    weights : str, (K, K) array or DataFrame, optional
        Agreement weights: ``w_kl`` is the credit for one rater choosing category ``k`` and
        another ``l``, 1 on the diagonal. None (the default) credits exact agreement only.
        A scheme name, ``"identity"``, ``"linear"``, ``"quadratic"``, ``"ordinal"``,
        ``"radical"``, ``"ratio"``, ``"circular"`` or ``"bipolar"`` (Gwet 2014, ch. 3),
        builds the weights on the category values when the labels are numbers (labels 0, 1,
        10 are not the scale 0, 1, 2) and on the categories' order otherwise (``"ordinal"``
        always on the order); text labels whose order was not declared
        (``categories=[...]`` or an ordered Categorical) are refused by every scheme but
        ``"identity"``. A (K, K) matrix gives the weights over the categories in order (a
        DataFrame is aligned on its labels). The result's name carries the scheme, e.g.
        ``"cohen[linear]"``, and ``observed`` and ``expected`` are the weighted ``A_o`` and
        ``A_e``.
"""

#: The Returns section of a coefficient method whose definition has none.
COEFFICIENT_RETURNS = """
    Returns
    -------
    Coefficient or DataFrame
        The coefficient, a float carrying ``observed`` (``A_o``), ``expected`` (``A_e``),
        ``n_items``, ``n_raters`` and ``n_categories``, and with ``confidence_level`` its
        uncertainty (see Other Parameters). With ``by=``, a frame with one row per group
        and those as columns.
"""


#: Continuous ratings: at least this many distinct values, ...
CONTINUOUS_CATEGORIES = 20
#: ... that are numbers not all whole, each used fewer than this many times on average.
CONTINUOUS_USES = 2.0


def nominal_on_continuous(data: RatingData, arguments: dict[str, Any]) -> bool:
    """Whether a nominal reading (no weights, or identity weights, and no level beyond
    ``"nominal"``) of ``data`` would treat continuous numbers as categories: at least
    ``CONTINUOUS_CATEGORIES`` distinct values, not all whole, used fewer than
    ``CONTINUOUS_USES`` times each on average (so two values agree only when equal)."""
    weights, level = arguments.get("weights"), arguments.get("level")
    if not (weights is None or (isinstance(weights, str) and weights == "identity")):
        return False
    if not (level is None or (isinstance(level, str) and level == "nominal")):
        return False
    enc = data.enc
    k = enc.n_categories
    if k < CONTINUOUS_CATEGORIES or k * CONTINUOUS_USES <= data.n_annotations:
        return False
    values = enc.values
    return values is not None and bool((values != np.round(values)).any())


def warn_nominal_on_continuous(data: RatingData, names: list[str]) -> None:
    """One warning that coefficients ``names`` read continuous ratings as categories."""
    shown = ", ".join(f"`{name}`" for name in names)
    warn(
        f"{shown} treat each of the {data.enc.n_categories} distinct values of these "
        "continuous ratings as a category of its own, so two ratings agree only when they are "
        "equal and the value says little. For numbers on a continuous scale use "
        "alpha(level='interval') (or a weighted coefficient, weights='quadratic').",
        PdagreeWarning,
    )


def coefficient(
    data: RatingData,
    name: str,
    arguments: dict[str, Any],
    options: dict[str, Any],
    *,
    check_labels: bool = True,
) -> Result:
    """Coefficient ``name`` of ``data`` with its ``arguments``, labelled; with the inference
    ``options`` (:data:`INFERENCE_DEFAULTS`) checked before anything is computed.
    ``check_labels``: warn when a nominal coefficient reads continuous numbers
    (:func:`nominal_on_continuous`); the report warns once for all its coefficients."""
    unknown = sorted(set(options) - set(INFERENCE_DEFAULTS))
    if unknown:
        raise TypeError(f"{name}() got an unexpected keyword argument {unknown[0]!r}")
    chosen = {**INFERENCE_DEFAULTS, **options}
    level = chosen.pop("confidence_level")
    inference.check_options(
        name,
        chosen["method"],
        chosen["n_resamples"],
        chosen["N"],
        level,
        chosen["interval"],
        chosen["rng"],
    )
    definition = get(name)
    if not definition.on_table:  # a contingency table read as one item per count
        data = data.rows
    parts = compute(definition, data, arguments)
    result = label(data, parts)
    # SPA's `weights` weigh items, not categories: a nominal reading whatever they are.
    reading = arguments if definition.weights else {**arguments, "weights": None}
    if check_labels and nominal_on_continuous(data, reading):
        warn_nominal_on_continuous(data, [name])
    if level is not None:
        summary = inference.summarise(
            data,
            name,
            arguments,
            confidence_level=level,
            **{k: chosen[k] for k in ("method", "n_resamples", "rng", "interval")},
            population=chosen["N"],
            parts=parts,  # the value above: not computed again for its interval
        )
        if isinstance(result, pd.DataFrame):
            for key, column in summary.items():
                result[key] = column
        else:
            # ``p_value`` stays the method; the number is shown by ``to_frame()``.
            members = ("se", "low", "high", "z", "se_h0")
            found: dict[str, Any] = {k: float(summary[k][0]) for k in members}
            found["ci_method"] = str(summary["ci_method"][0])
            found["_p_value"] = float(summary["p_value"][0])
            result = result._replace(**found)
    if isinstance(result, Coefficient):
        result = result._replace(_source=Source(data, name, arguments))
    return result


def label(data: RatingData, parts: Components) -> Result:
    """Wrap per-group components as a Coefficient, or a DataFrame with ``by=``; warn where
    the value is undefined."""
    enc = data.enc
    n_items = parts.n_items if parts.n_items is not None else data.observed[1]
    n_raters = data.active_raters
    _warn_undefined(data, parts.name, parts.value, n_items, parts.expected, n_raters)
    if enc.groups is None:
        return Coefficient(
            float(parts.value[0]),
            name=parts.name,
            observed=float(parts.observed[0]),
            expected=float(parts.expected[0]),
            n_items=int(n_items[0]),
            n_raters=int(n_raters[0]),
            n_categories=enc.n_categories,
            categories=tuple(enc.categories.tolist()),  # faster than iterating the Index
            **{k: v[0].item() for k, v in parts.extra.items()},
            **parts.members,
        )
    mask = data.category_mask
    columns: dict[str, Any] = {
        "value": parts.value,
        "observed": parts.observed,
        "expected": parts.expected,
        "n_items": n_items.astype(np.int64),
        "n_raters": n_raters.astype(np.int64),
        "n_categories": enc.n_categories if mask is None else mask.sum(axis=1),
        **parts.extra,
    }
    frame = result_frame(enc.groups, columns, parts.name)
    for key, column in parts.columns.items():
        frame[key] = column
    return frame


def _warn_undefined(
    data: RatingData,
    name: str,
    value: FloatArray,
    n_items: FloatArray,
    expected: FloatArray,
    n_raters: FloatArray,
) -> None:
    bad = np.isnan(value)
    if not bad.any():
        return
    enc = data.enc
    reasons = []
    if (bad & (n_items == 0)).any():
        reasons.append("no item has two or more ratings")
    if (bad & (n_raters < 2) & (n_items > 0)).any():
        reasons.append("fewer than two raters gave ratings")
    if (bad & np.isclose(expected, 1.0) & (n_items > 0)).any():
        reasons.append("the expected agreement A_e is 1 (all ratings fall in one category)")
    why = "; ".join(reasons) or "its denominator is zero"
    if enc.groups is None:
        where = ""
    else:
        keys = list(enc.groups[bad][:5])
        where = f" in {int(bad.sum())} of {enc.n_groups} groups (e.g. {keys})"
    warn(f"`{name}` is undefined{where}: {why}; the value is nan.")


_F = TypeVar("_F", bound=Callable[..., Any])


def method_doc(definition: Callable[..., Any], *, inference: bool = True) -> Callable[[_F], _F]:
    """Give a :class:`~pdagree.Ratings` method its definition's docstring and, for a
    coefficient, the shared sections its definition lacks (``weights``, Returns) and the
    inference note, each in numpydoc's order of sections."""

    def decorate(method: _F) -> _F:
        doc = definition.__doc__ or ""
        if inference:
            if "weights" in inspect.signature(method).parameters:
                doc = _insert(doc, WEIGHTS_PARAMETER, "Parameters", _SECTIONS)
            doc = _insert(doc, COEFFICIENT_RETURNS, "Returns", _SECTIONS[2:])
            doc = _insert(doc, INFERENCE_NOTE, "Other Parameters", _SECTIONS[3:])
        method.__doc__ = doc
        return method

    return decorate


#: numpydoc's sections, in its order (those pdagree's docstrings use).
_SECTIONS = (
    "Parameters",
    "Returns",
    "Other Parameters",
    "Raises",
    "Warns",
    "See Also",
    "Notes",
    "References",
    "Examples",
)


def _insert(doc: str, section: str, name: str, before: Sequence[str]) -> str:
    """``doc`` with ``section`` (titled ``name``) before the first of the sections
    ``before``, or at the end; unchanged if ``doc`` has a section ``name`` already."""
    headers = [re.search(rf"^ *{s}\n *-+\n", doc, re.M) for s in (name, *before)]
    if headers[0]:
        return doc
    starts = [h.start() for h in headers[1:] if h]
    at = min(starts) if starts else len(doc.rstrip(" "))
    return (
        doc[:at].rstrip("\n") + "\n" + section + ("\n" if starts else "") + doc[at:].lstrip("\n")
    )
