"""``report()``: every coefficient of the registry that applies, as one DataFrame.

:func:`report`'s docstring is the documentation of :meth:`pdagree.Ratings.report`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from . import icc as _icc
from ._attrs import AttrsFrame
from ._validation import check_option, check_seed
from ._warnings import warn
from .category_sets import shared_parts
from .definitions import REGISTRY, Definition
from .encoding import DISTANCES
from .encoding.levels import LEVELS
from .evaluate import coefficient, nominal_on_continuous, warn_nominal_on_continuous
from .inference import check_confidence_level, check_resamples
from .results import Coefficient
from .tensors import RatingData

__all__ = ["REPORT_COLUMNS", "report"]

REPORT_METHODS = ("auto", "bootstrap")
"""The report's interval methods ("analytic", a former name of "auto", is deprecated)."""

REPORT_COLUMNS = ["value", "observed", "expected", "n_items", "n_raters", "n_categories"]


def report(
    data: RatingData,
    confidence_level: float | None = None,
    *,
    method: str = "auto",
    n_resamples: int = 2000,
    rng: Any = None,
    coefficients: Sequence[str] | None = None,
    weights: Any = None,
    level: Any = None,
    available: Callable[[str], bool] | None = None,
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
        for the row: ``method`` where it applies; Light's kappa and the bias, which have no
        analytic variance, get the jackknife over items (Efron 1982,
        ``(n - 1) / n sum_i (theta_(i) - theta_(.))^2`` with each leave-one-item-out value in
        closed form, see :mod:`pdagree.definitions.jackknife`) unless ``method="bootstrap"``.
    method, n_resamples, rng
        The interval method and bootstrap settings: ``"auto"`` (the default, as every
        coefficient method's): Gwet's analytic variance where one exists, the jackknife over
        items for Light's kappa and the bias; or ``"bootstrap"`` for every row.
        ``"analytic"``, a former name of ``"auto"``, is deprecated (a :class:`FutureWarning`).
    coefficients : list of str, optional
        The coefficients to report, by method name (e.g. ``["fleiss", "alpha", "spa"]``), in
        that order, each with its own option after a colon where it takes one:
        ``"alpha:ordinal"`` (a level), ``"gwet:quadratic"`` (agreement weights), so that one
        report mixes them (``"alpha:ordinal,gwet:quadratic,fleiss"`` as one string too);
        default: every coefficient above that applies. A named coefficient that does not
        apply (``cohen`` with three raters) is an error. On numeric ratings, ``"icc"`` adds
        the intraclass correlation ``A,1`` and ``"icc[C,k]"`` (any form of
        :meth:`pdagree.Ratings.icc`) another form: its interval and p-value come from the F
        distribution (``ci_method`` ``"F"``; no ``se``), ``observed`` and ``expected`` are nan.
    weights : str or (K, K) matrix, optional
        Agreement weights for the coefficients that take them (observed, bennett, fleiss,
        gwet, scott, cohen, conger, and alpha as Gwet's weighted alpha); the others are
        reported unweighted.
    level : str, optional
        Krippendorff's metric for alpha (``"ordinal"``, ``"interval"``, ``"ratio"``);
        not together with ``weights``.

    Returns
    -------
    DataFrame
        One row per coefficient, named with its options (``alpha[ordinal]``,
        ``gwet[quadratic]``; with ``by=``: group keys, then coefficient). Artstein & Poesio's
        annotator bias is not a chance-corrected coefficient: its value and its two chance
        agreements (``expected_pi``, ``expected_kappa``; ``B`` is their difference) are in
        ``attrs["annotator_bias"]``, a section of their own, and in the table only when
        ``coefficients`` names it (a row whose ``observed`` and ``expected`` are nan). The
        section is a DataFrame that compares with another such section as a whole, so that
        the table combines (``astype``, ``merge``, ``concat``) and keeps it; Parquet, which
        writes ``attrs`` as JSON, takes the table after ``table.attrs.pop("annotator_bias")``:

        ===================  ======================================================
        column               holds
        ===================  ======================================================
        ``value``            the coefficient
        ``observed``         its ``A_o``
        ``expected``         its ``A_e``
        ``n_items``          the items it counts
        ``n_raters``         the raters
        ``n_categories``     the categories
        ``se``               with ``confidence_level=``: the standard error
        ``low``, ``high``    the interval
        ``p_value``          one-sided, H1: value > 0
        ``ci_method``        ``analytic``, ``jackknife``, ``bootstrap`` or ``F`` (ICC)
        ===================  ======================================================

    Examples
    --------
    >>> import pdagree
    >>> table = pdagree.datasets.load("fleiss1971").agree.report()
    >>> table["value"].round(4).to_dict()  # doctest: +NORMALIZE_WHITESPACE
    {'observed': 0.5556, 'bennett': 0.4444, 'fleiss': 0.4302, 'gwet': 0.4479,
     'alpha[nominal]': 0.4334, 'conger': 0.4418, 'light': 0.4594}
    >>> table.attrs["annotator_bias"][["value", "expected_pi", "expected_kappa"]].round(4)
                  value  expected_pi  expected_kappa
    coefficient
    bias         0.0162       0.2199          0.2038
    >>> with_ci = pdagree.datasets.load("fleiss1971").agree.report(confidence_level=0.95)
    >>> with_ci.loc["fleiss", ["value", "se", "low", "high"]].astype(float).round(4).tolist()
    [0.4302, 0.0542, 0.3194, 0.5411]
    """
    if method != "analytic":
        check_option(method, "method", REPORT_METHODS)
    else:
        warn(
            "report(method='analytic') is deprecated and will be refused in the next release: "
            "it has always meant method='auto' (the jackknife for Light's kappa and the bias), "
            "which is the default; drop the argument or write method='auto'.",
            FutureWarning,
        )
    if confidence_level is not None:
        check_confidence_level(confidence_level)
    check_resamples(n_resamples)
    check_seed(rng)
    if weights is not None and level is not None:
        raise TypeError(
            "`report()` takes `weights=` (agreement weights, also for alpha) or `level=` "
            f"(Krippendorff's metric for alpha), not both; got weights={weights!r} and "
            f"level={level!r}."
        )
    columns = list(REPORT_COLUMNS)
    selected = _selected(data, coefficients, available)
    plan = [
        (d, None if isinstance(d, str) else _arguments(d, option, weights, level))
        for d, option in selected
    ]
    nominal = [
        d.name
        for d, arguments in plan
        if not isinstance(d, str)
        and arguments is not None
        and nominal_on_continuous(data, arguments)
    ]
    if nominal:
        warn_nominal_on_continuous(data, nominal)
    options: dict[str, Any] = {}
    if confidence_level is not None:
        columns = [*REPORT_COLUMNS, "se", "low", "high", "p_value", "ci_method"]
        options = {
            "confidence_level": confidence_level,
            "method": "bootstrap" if method == "bootstrap" else "auto",
            "n_resamples": n_resamples,
            "rng": rng,
        }
    with shared_parts():  # by= groups split by their categories once for every row
        frames, bias_section = _rows(data, plan, options, columns, confidence_level, coefficients)
    out = pd.concat(frames) if frames else pd.DataFrame(columns=columns)
    if data.enc.groups is not None and frames:
        out = out.sort_index(level=list(range(out.index.nlevels - 1)), sort_remaining=False)
    if bias_section is not None:
        out.attrs["annotator_bias"] = AttrsFrame(bias_section)
    return out


def _rows(
    data: RatingData,
    plan: list[tuple[Definition | str, dict[str, Any] | None]],
    options: dict[str, Any],
    columns: list[str],
    confidence_level: float | None,
    coefficients: Sequence[str] | None,
) -> tuple[list[pd.DataFrame], pd.DataFrame | None]:
    """The report's rows, one frame per coefficient (in ``columns``), and the annotator
    bias's own section (``None`` where it is not computed)."""
    frames = []
    bias_section: pd.DataFrame | None = None
    for definition, arguments in plan:
        if isinstance(definition, str):  # an intraclass correlation
            frames.append(_icc_rows(data, definition, confidence_level))
            continue
        result = coefficient(data, definition.name, arguments or {}, options, check_labels=False)
        if isinstance(result, Coefficient):
            sub = result.to_frame()
        else:
            sub = result.copy()
            sub["coefficient"] = result["name"]
            sub = sub.set_index("coefficient", append=True)
        if definition.name == "bias":
            # Not a chance-corrected coefficient: its parts go to a section of their own.
            bias_section = sub.reindex(columns=[c for c in BIAS_COLUMNS if c in sub.columns])
            if coefficients is None:
                continue
            sub = sub.assign(observed=np.nan, expected=np.nan)
        frames.append(sub.reindex(columns=columns))
    return frames, bias_section


#: The annotator bias's own section (``report().attrs["annotator_bias"]``).
BIAS_COLUMNS = (
    "value", "expected_pi", "expected_kappa", "n_items", "n_raters", "se", "low", "high",
    "p_value", "ci_method",
)  # fmt: skip


def _arguments(
    definition: Definition, option: str | None, weights: Any, level: Any
) -> dict[str, Any]:
    """A coefficient's arguments in the report: its own ``option`` (``"alpha:ordinal"``,
    ``"gwet:quadratic"``), else the report's ``weights`` and ``level`` where it takes them."""
    if option is not None:
        if definition.levels and option in LEVELS:
            return {"level": option}
        if definition.levels and option in DISTANCES:
            raise ValueError(
                f"`coefficients` names {definition.name}:{option}, a distance between sets of "
                "labels, which the report does not compute; call "
                f"`ratings.{definition.name}(distance={option!r})` for it."
            )
        if definition.weights:
            return {"weights": option}
        raise ValueError(
            f"`{definition.name}` takes no option; got {definition.name}:{option}. Options "
            "are a level for alpha (alpha:ordinal) or agreement weights (gwet:quadratic)."
        )
    arguments: dict[str, Any] = {}
    if weights is not None and definition.weights:
        arguments["weights"] = weights
    if level is not None and definition.levels:
        arguments["level"] = level
    return arguments


def _selected(
    data: RatingData,
    coefficients: Sequence[str] | None,
    available: Callable[[str], bool] | None = None,
) -> list[tuple[Definition | str, str | None]]:
    """The registry's coefficients for the report (the named ones, each with its option
    after a colon, or every one that applies), and the ICC forms named ``"icc"`` or
    ``"icc[FORM]"`` as their form names."""
    if coefficients is None:  # ``available``: what these data give (counts, on Dask)
        return [
            (d, None)
            for d in REGISTRY.values()
            if d.in_report and d.applies_to(data) and (available is None or available(d.name))
        ]
    if isinstance(coefficients, str):
        coefficients = [c.strip() for c in coefficients.split(",") if c.strip()]
    out: list[tuple[Definition | str, str | None]] = []
    unknown = []
    for entry in dict.fromkeys(coefficients):
        name, _, option = str(entry).partition(":")
        name, chosen = name.strip(), option.strip() or None
        if name in REGISTRY:
            out.append((REGISTRY[name], chosen))
        elif name == "icc" and chosen is None:
            out.append(("A,1", None))
        elif name.startswith("icc[") and name.endswith("]") and chosen is None:
            out.append((_icc.form_name(name[4:-1]), None))
        else:
            unknown.append(entry)
    if unknown or not coefficients:
        raise ValueError(
            f"`coefficients` must name coefficients among {', '.join(REGISTRY)} (or 'icc', "
            f"'icc[C,1]', ... on numeric ratings); got {list(coefficients)!r}."
        )
    return out


def _icc_rows(data: RatingData, form: str, confidence_level: float | None) -> pd.DataFrame:
    """The report's rows of the ICC ``form``: one, or one per group."""
    result = _icc.icc(data, form, confidence_level=confidence_level)
    name = f"icc[{form}]"
    enc = data.enc
    if isinstance(result, pd.DataFrame):
        frame = result.copy()
        frame["coefficient"] = name
        frame = frame.set_index("coefficient", append=True)
    else:
        row: dict[str, Any] = {"value": float(result), "n_items": result.n_items}
        row["n_raters"] = result.n_raters
        if confidence_level is not None:
            low, high = result.confidence_interval(confidence_level)
            row.update(low=low, high=high, p_value=result.p_value_F)
        frame = pd.DataFrame([row], index=pd.Index([name], name="coefficient"))
    frame["n_categories"] = enc.n_categories
    if confidence_level is not None:
        frame["ci_method"] = "F"
    return frame.reindex(
        columns=[
            *REPORT_COLUMNS,
            *(
                ["se", "low", "high", "p_value", "ci_method"]
                if confidence_level is not None
                else []
            ),
        ]
    )
