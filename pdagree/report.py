"""``report()``: every coefficient of the registry that applies, as one DataFrame.

:func:`report`'s docstring is the documentation of :meth:`pdagree.Ratings.report`.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from .definitions import REGISTRY, RatingData
from .evaluate import coefficient
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
    columns = list(REPORT_COLUMNS)
    frames = []
    for definition in REGISTRY.values():
        if not (definition.in_report and definition.applies_to(data)):
            continue
        options: dict[str, Any] = {}
        if confidence_level is not None:
            options = {
                "confidence_level": confidence_level,
                "method": "bootstrap" if method == "bootstrap" else "auto",
                "n_resamples": n_resamples,
                "rng": rng,
            }
        result = coefficient(data, definition.name, {}, options)
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
