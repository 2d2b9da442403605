"""``report()``: every coefficient of the registry that applies, as one DataFrame.

:func:`report`'s docstring is the documentation of :meth:`pdagree.Ratings.report`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from .definitions import REGISTRY, Definition, RatingData
from .evaluate import coefficient, nominal_on_continuous, warn_nominal_on_continuous
from .inference import check_confidence_level
from .results import Coefficient

__all__ = ["REPORT_COLUMNS", "report"]

REPORT_COLUMNS = ["value", "observed", "expected", "n_items", "n_raters", "n_categories"]


def report(
    data: RatingData,
    confidence_level: float | None = None,
    *,
    method: str = "analytic",
    n_resamples: int = 2000,
    rng: Any = None,
    coefficients: Sequence[str] | None = None,
    weights: Any = None,
    level: Any = None,
) -> pd.DataFrame:
    """Every coefficient that applies to these ratings, one row each.

    Every layout gives observed agreement, Bennett's S, Fleiss' kappa, Gwet's AC1 and
    Krippendorff's (nominal) alpha; with rater identity Conger's and Light's kappa and the
    annotator bias are added, and with two raters Scott's pi and Cohen's kappa.
    With ``by=``, the index is (group..., coefficient).

    Parameters
    ----------
    confidence_level : float, optional
        Add ``se``, ``low``, ``high`` and ``p_value`` columns (see
        :meth:`pdagree.Coefficient.confidence_interval`) and ``ci_method``, the method used
        for the row: ``method`` where it applies, the item bootstrap for coefficients with
        no analytic variance (Light's kappa, the bias).
    method, n_resamples, rng
        The interval method (``"analytic"`` or ``"bootstrap"``) and bootstrap settings.
    coefficients : list of str, optional
        The coefficients to report, by method name (e.g. ``["fleiss", "alpha", "spa"]``), in
        that order; default: every coefficient above that applies. A named coefficient that
        does not apply (``cohen`` with three raters) is an error.
    weights : str or (K, K) matrix, optional
        Agreement weights for the coefficients that take them (observed, bennett, fleiss,
        gwet, scott, cohen, conger, and alpha as Gwet's weighted alpha); the others are
        reported unweighted.
    level : str, optional
        Krippendorff's metric for alpha (``"ordinal"``, ``"interval"``, ``"ratio"``);
        not together with ``weights``.

    Examples
    --------
    >>> import pdagree
    >>> table = pdagree.datasets.load("fleiss1971").agree.report()
    >>> table["value"].round(4).to_dict()  # doctest: +NORMALIZE_WHITESPACE
    {'observed': 0.5556, 'bennett': 0.4444, 'fleiss': 0.4302, 'gwet': 0.4479,
     'alpha[nominal]': 0.4334, 'conger': 0.4418, 'light': 0.4594, 'bias': 0.0162}
    >>> with_ci = pdagree.datasets.load("fleiss1971").agree.report(0.95)
    >>> with_ci.loc["fleiss", ["value", "se", "low", "high"]].astype(float).round(4).tolist()
    [0.4302, 0.0542, 0.3194, 0.5411]
    """
    if method not in ("analytic", "auto", "bootstrap"):
        raise ValueError(
            f"`method` must be 'analytic' or 'bootstrap' for a report; got {method!r}."
        )
    if confidence_level is not None:
        check_confidence_level(confidence_level)
    if weights is not None and level is not None:
        raise TypeError(
            "`report()` takes `weights=` (agreement weights, also for alpha) or `level=` "
            f"(Krippendorff's metric for alpha), not both; got weights={weights!r} and "
            f"level={level!r}."
        )
    columns = list(REPORT_COLUMNS)
    frames = []
    selected = _selected(data, coefficients)
    nominal = [
        d.name
        for d in selected
        if nominal_on_continuous(
            data,
            {"weights": weights if d.weights else None, "level": level if d.levels else None},
        )
    ]
    if nominal:
        warn_nominal_on_continuous(data, nominal)
    for definition in selected:
        arguments: dict[str, Any] = {}
        if weights is not None and definition.weights:
            arguments["weights"] = weights
        if level is not None and definition.levels:
            arguments["level"] = level
        options: dict[str, Any] = {}
        if confidence_level is not None:
            options = {
                "confidence_level": confidence_level,
                "method": "bootstrap" if method == "bootstrap" else "auto",
                "n_resamples": n_resamples,
                "rng": rng,
            }
        result = coefficient(data, definition.name, arguments, options, check_labels=False)
        if isinstance(result, Coefficient):
            sub = result.to_frame()
        else:
            sub = result.copy()
            sub["coefficient"] = result["name"]
            sub = sub.set_index("coefficient", append=True)
        if confidence_level is not None:
            columns = [*REPORT_COLUMNS, "se", "low", "high", "p_value", "ci_method"]
        frames.append(sub.reindex(columns=columns))
    out = pd.concat(frames)
    if data.enc.groups is not None:
        out = out.sort_index(level=list(range(out.index.nlevels - 1)), sort_remaining=False)
    return out


def _selected(data: RatingData, coefficients: Sequence[str] | None) -> list[Definition]:
    """The registry's coefficients for the report: the named ones, or every one that applies."""
    if coefficients is None:
        return [d for d in REGISTRY.values() if d.in_report and d.applies_to(data)]
    if isinstance(coefficients, str):
        coefficients = [c.strip() for c in coefficients.split(",") if c.strip()]
    unknown = [name for name in coefficients if name not in REGISTRY]
    if unknown or not coefficients:
        raise ValueError(
            f"`coefficients` must name coefficients among {', '.join(REGISTRY)}; got "
            f"{list(coefficients)!r}."
        )
    return [REGISTRY[name] for name in dict.fromkeys(coefficients)]
