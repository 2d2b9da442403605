"""``Ratings.icc`` and ``icc_table``: check the input, build the two-way
layout, label the result."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._attrs import AttrsFrame
from .._typing import BoolArray, FloatArray
from .._validation import check_fraction
from .._warnings import PdagreeWarning, UndefinedStatisticWarning, warn
from ..encoding import fmt
from ..scores import ScoreData, Scores, complete_items, warn_undefined
from ._anova import MeanSquares, mean_squares
from ._forms import FORMS, SHROUT_FLEISS, form_name, interval, test, value
from ._incomplete import identified, incomplete_groups
from ._result import ICC

__all__ = ["icc", "icc_table"]

Missing = Literal["auto", "omit"]


@dataclass(frozen=True, eq=False)
class Layout:
    """The ratings as numbers, the complete items' mean squares, and the groups whose items
    are incomplete (estimated by :mod:`._incomplete` under ``missing="auto"``)."""

    data: ScoreData
    scores: Scores
    ms: MeanSquares
    incomplete: BoolArray
    how: str
    dropped: int
    partial: BoolArray  # per group: has an item some rater did not rate
    cache: dict[str, Any] = field(default_factory=dict)

    def per_group(self) -> Any:
        """Per group: "complete", "incomplete" (estimated as such) or "omit" (dropped)."""
        if self.how == "omit":
            return np.where(self.partial, "omit", "complete")
        return np.where(self.incomplete, "incomplete", "complete")

    def sizes(self) -> tuple[FloatArray, FloatArray]:
        """Per group the items and raters of its layout (all of an incomplete group's)."""
        s = self.scores
        n = np.where(self.incomplete, s.items_per_group, self.ms.n)
        k = np.where(self.incomplete, s.raters_per_group, self.ms.k)
        return n, k


def _layout(data: ScoreData, missing: object, method: str) -> Layout:
    data = data.rows
    scores = Scores.of(data, method)
    keep, incomplete, n_partial = complete_items(scores, missing)
    ms = mean_squares(scores, keep)
    if missing == "omit":
        if n_partial:
            warn(
                f"`{method}()` dropped {n_partial} items that lack a rating from some rater "
                "(missing='omit').",
                PdagreeWarning,
            )
        how = "omit" if n_partial else "complete"
        no_group = np.zeros(scores.n_groups, bool)
        return Layout(data, scores, ms, no_group, how, n_partial, incomplete)
    how = "incomplete" if n_partial else "complete"
    return Layout(data, scores, ms, incomplete, how, 0, incomplete)


def _rows(
    layout: Layout,
    name: str,
    level: float,
    rho0: float = 0.0,
    cache: dict[str, Any] | None = None,
    mcgraw_wong: bool = False,
) -> dict[str, FloatArray]:
    """Per group: the form's ``value``, ``F``, ``df1``, ``df2``, ``p_value``, ``low`` and
    ``high``; complete groups from the mean squares (vectorised), incomplete ones from
    :func:`incomplete_forms` (one group at a time)."""
    ms = layout.ms
    values = value(ms, name)
    ones = np.ones_like(values)
    # Shrout & Fleiss's F test is one per model (one-way, two-way): computed once.
    family = "test:1" if name[0] == "1" else "test:2"
    if cache is not None and not mcgraw_wong and family in cache:
        t = cache[family]
    else:
        t = test(ms, name, rho0, mcgraw_wong)
        if cache is not None and not mcgraw_wong:
            cache[family] = t
    low, high = interval(ms, name, level, cache)
    low, high = (np.where(np.isnan(values), np.nan, v) for v in (low, high))  # no value
    out = {
        "value": values,
        "F": t["F"] * ones,
        "df1": t["df1"] * ones,
        "df2": t["df2"] * ones,
        "p_value": t["p_value"] * ones,
        "low": low * ones,
        "high": high * ones,
    }
    if layout.incomplete.any():
        table = _incomplete_table(layout, level)[name]
        groups = layout.incomplete
        for column in out:
            if not mcgraw_wong or column in ("value", "low", "high"):
                out[column][groups] = table[column][groups]
            else:
                out[column][groups] = np.nan
    return out


def _incomplete_table(layout: Layout, level: float) -> dict[str, dict[str, FloatArray]]:
    """Every group's incomplete-layout forms (:func:`incomplete_groups`), computed once per
    layout and level."""
    key = f"incomplete@{level!r}"
    if key not in layout.cache:
        layout.cache[key] = incomplete_groups(layout.scores, level)
    return layout.cache[key]


def _warn_unidentified(layout: Layout, method: str, forms: tuple[str, ...]) -> BoolArray:
    """Warn, naming the design, about the incomplete groups where a form of ``forms`` is
    not identified (:func:`identified`); per form and group, whether it was so explained."""
    told = np.zeros((len(forms), len(layout.incomplete)), dtype=bool)
    if not layout.incomplete.any():
        return told
    item_twice, rater_twice = identified(layout.scores)
    no_item = layout.incomplete & ~item_twice  # no form: one rating per item
    two_way = np.array([f[0] in "AC" for f in forms])
    no_rater = layout.incomplete & item_twice & ~rater_twice & two_way.any()  # two-way forms
    told |= no_item[None, :]
    told |= two_way[:, None] & no_rater[None, :]
    groups = layout.data.enc.groups
    for mask, message in (
        (
            no_item,
            "no item is rated by two raters, so no form is identified: the items' variance "
            "cannot be told from the residual",
        ),
        (
            no_rater,
            "no rater rates two items, so the two-way forms (A,1, C,1, A,k, C,k) are not "
            "identified: the raters' variance cannot be told from the residual (the "
            "one-way forms 1,1 and 1,k are)",
        ),
    ):
        if mask.any():
            where = "" if groups is None else f" in groups {fmt(list(groups[mask]))}"
            warn(
                f"`{method}()` is undefined{where}: {message}; nan. Have some items rated by "
                "two raters who also rate other items.",
                UndefinedStatisticWarning,
            )
    return told


def icc(
    data: ScoreData,
    form: str = "A,1",
    *,
    missing: Missing = "auto",
    confidence_level: float | None = None,
) -> ICC | pd.DataFrame:
    """The intraclass correlation of numeric ratings, in one form.

    Parameters
    ----------
    form : str
        McGraw & Wong's (1996) name: ``"1,1"``, ``"A,1"`` (the default), ``"C,1"``,
        ``"1,k"``, ``"A,k"``, ``"C,k"``; Shrout & Fleiss's (1979) ``"ICC1"``, ``"ICC2"``,
        ``"ICC3"``, ``"ICC1k"``, ``"ICC2k"``, ``"ICC3k"`` are the same forms. ``1``: one-way
        random effects (each item rated by its own raters); ``A``: two-way, absolute
        agreement; ``C``: two-way, consistency; ``,1``: one rater's rating; ``,k``: the mean
        of the ``k`` raters. :mod:`pdagree.icc._forms` gives each formula.
    missing : {"auto", "omit"}
        ``"auto"``: the two-way ANOVA of a complete layout (every item rated by every rater
        of its group); on an incomplete one, the unbalanced one-way ANOVA (with ``n0``) for
        the one-way forms and the REML variance components of the crossed random-effects
        model for the two-way forms (:mod:`pdagree.icc._incomplete`; no F test or interval
        for those). ``"omit"``: incomplete items are dropped first (with a warning that counts
        them), as pingouin and irr do. The result's ``missing`` says which was used
        (``"complete"``, ``"incomplete"`` or ``"omit"``).
    confidence_level : float, optional
        With ``by=``, adds ``low`` and ``high``; without, use
        ``result.confidence_interval(level)``.

    Returns
    -------
    ICC or DataFrame
        A float with ``F``, ``df1``, ``df2``, the mean squares, ``form``, ``shrout_fleiss``;
        ``confidence_interval()`` and ``p_value()`` from the F distribution. With ``by=``,
        one row per group.

    Notes
    -----
    The values do not change with an offset or a scale of the ratings; items that do not
    vary, and incomplete designs that do not identify the two-way model, give nan with an
    :class:`~pdagree.UndefinedStatisticWarning`; infinite ratings are refused. The module
    :mod:`pdagree.icc` lists these edges.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdagree
    >>> scores = pd.DataFrame(  # Shrout & Fleiss (1979), Table 2: 6 targets, 4 judges
    ...     [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]],
    ...     columns=["j1", "j2", "j3", "j4"],
    ... )
    >>> result = scores.agree.icc("ICC2")
    >>> round(float(result), 2), round(result.F, 1), result.df2
    (0.29, 11.0, 15.0)
    """
    level = 0.95 if confidence_level is None else check_fraction(confidence_level)
    name = form_name(form)
    layout = _layout(data, missing, "icc")
    ms = layout.ms
    rows = _rows(layout, name, level)
    groups = layout.data.enc.groups
    told = _warn_unidentified(layout, "icc", (name,))[0]
    warn_undefined(rows["value"], "icc", groups, told)
    n_items, n_raters = layout.sizes()
    if groups is not None:
        frame = pd.DataFrame(
            {
                "form": name,
                **{c: rows[c] for c in ("value", "F", "df1", "df2", "p_value")},
                "n_items": n_items,
                "n_raters": n_raters,
                "ms_rows": ms.in_units(ms.ms_rows),
                "ms_columns": ms.in_units(ms.ms_columns),
                "ms_error": ms.in_units(ms.ms_error),
                "ms_within": ms.in_units(ms.ms_within),
                "missing": layout.per_group(),
            },
            index=groups,
        )
        if confidence_level is not None:
            frame["low"], frame["high"] = rows["low"], rows["high"]
        return frame
    incomplete = bool(layout.incomplete[0])
    nan = float("nan")
    return ICC(
        float(rows["value"][0]),
        name=f"icc[{name}]",
        n_items=int(n_items[0]),
        n_raters=int(n_raters[0]),
        n_categories=0,  # the ICC reads the scores as numbers: no categories
        categories=(),
        form=name,
        shrout_fleiss=SHROUT_FLEISS[name],
        F=float(rows["F"][0]),
        df1=float(rows["df1"][0]),
        df2=float(rows["df2"][0]),
        p_value_F=float(rows["p_value"][0]),
        ms_rows=nan if incomplete else float(ms.in_units(ms.ms_rows)[0]),
        ms_columns=nan if incomplete else float(ms.in_units(ms.ms_columns)[0]),
        ms_error=nan if incomplete else float(ms.in_units(ms.ms_error)[0]),
        ms_within=nan if incomplete else float(ms.in_units(ms.ms_within)[0]),
        missing=layout.how,
        n_dropped=layout.dropped,
        _incomplete=layout.scores.alone(0) if incomplete else None,
        _incomplete_layout=incomplete,
        _mean_squares=ms,
    )


def icc_table(
    data: ScoreData,
    confidence_level: float = 0.95,
    *,
    missing: Missing = "auto",
    test: Literal["F", "mcgraw_wong"] = "F",
    rho0: float = 0.0,
) -> pd.DataFrame:
    """The six intraclass correlations with their tests and intervals.

    Parameters
    ----------
    confidence_level : float
        The level of ``low`` and ``high`` (psych's and pingouin's intervals).
    missing : {"auto", "omit"}
        As :meth:`icc`.
    test : {"F", "mcgraw_wong"}
        ``"F"``: Shrout & Fleiss's F tests of ``ICC = 0`` (psych, pingouin).
        ``"mcgraw_wong"``: McGraw & Wong's tests of ``ICC = rho0`` (irr), with
        Satterthwaite's degrees of freedom for the absolute-agreement forms.
    rho0 : float
        The null value of ``test="mcgraw_wong"``, in [0, 1).

    Returns
    -------
    DataFrame
        One row per form (with ``by=``: per group and form); the mean squares in
        ``attrs["mean_squares"]`` (a frame by group with ``by=``, which compares with another
        such frame as a whole so that the table combines as frames do; pop it before
        ``to_parquet``, which writes ``attrs`` as JSON), and ``attrs["missing"]``:

        ====================  ====================================================
        column                holds
        ====================  ====================================================
        ``value``             the form's ICC
        ``F``                 the test statistic (``test=``)
        ``df1``, ``df2``      its degrees of freedom
        ``p_value``           against ``rho0``
        ``low``, ``high``     the interval at ``confidence_level``
        ``shrout_fleiss``     the form's Shrout & Fleiss name (``ICC2``, ...)
        ====================  ====================================================
    """
    if test not in ("F", "mcgraw_wong"):
        raise ValueError(f"`test` must be 'F' or 'mcgraw_wong'; got {test!r}.")
    if not (isinstance(rho0, (int, float)) and 0.0 <= rho0 < 1.0):
        raise ValueError(f"`rho0` must be a number in [0, 1); got {rho0!r}.")
    if test == "F" and rho0 != 0.0:
        raise ValueError("`rho0` applies to test='mcgraw_wong'; the F tests are of ICC = 0.")
    confidence_level = check_fraction(confidence_level, "confidence_level")
    layout = _layout(data, missing, "icc_table")
    ms = layout.ms
    groups = layout.data.enc.groups
    parts = []
    quantiles: dict[str, Any] = {}
    for name in FORMS:  # six forms, each vectorised over the complete groups
        rows = _rows(layout, name, confidence_level, rho0, quantiles, test == "mcgraw_wong")
        parts.append(
            {
                "form": np.repeat(name, len(rows["value"])),
                **rows,
                "shrout_fleiss": np.repeat(SHROUT_FLEISS[name], len(rows["value"])),
            }
        )
    frame = pd.concat([pd.DataFrame(p) for p in parts], ignore_index=True)
    n_items, n_raters = layout.sizes()
    mean_sq = pd.DataFrame(
        {
            "ms_rows": np.where(layout.incomplete, np.nan, ms.in_units(ms.ms_rows)),
            "ms_columns": np.where(layout.incomplete, np.nan, ms.in_units(ms.ms_columns)),
            "ms_error": np.where(layout.incomplete, np.nan, ms.in_units(ms.ms_error)),
            "ms_within": np.where(layout.incomplete, np.nan, ms.in_units(ms.ms_within)),
            "n_items": n_items,
            "n_raters": n_raters,
            "missing": layout.per_group(),
        },
        index=groups,
    )
    told = _warn_unidentified(layout, "icc_table", FORMS)
    per_form = frame["value"].to_numpy().reshape(len(FORMS), -1)
    unexplained = np.where(told, 0.0, per_form)  # per form and group
    if groups is None:
        frame = frame.set_index("form")
        warn_undefined(unexplained[:, 0], "icc_table", None)
    else:
        warn_undefined(
            np.where(np.isnan(unexplained).any(axis=0), np.nan, 0.0), "icc_table", groups
        )
        g = np.tile(np.arange(len(groups)), len(FORMS))
        keys = groups.take(g)
        index = pd.MultiIndex.from_arrays(
            [*(keys.get_level_values(i) for i in range(keys.nlevels)), frame["form"]],
            names=[*groups.names, "form"],
        )
        # Group by group, the forms in order within each: a reorder, not a sort.
        order = np.arange(len(frame)).reshape(len(FORMS), len(groups)).T.ravel()
        frame = frame.drop(columns="form").set_axis(index).take(order)
    frame.attrs["mean_squares"] = (
        AttrsFrame(mean_sq) if groups is not None else mean_sq.iloc[0].to_dict()
    )
    frame.attrs["missing"] = layout.how
    frame.attrs["n_dropped"] = layout.dropped
    frame.attrs["test"] = test if test == "F" else f"mcgraw_wong (rho0={rho0})"
    return frame
