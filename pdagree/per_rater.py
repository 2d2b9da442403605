"""``Ratings.per_rater``: each annotator's part of the agreement.

One row per annotator (with ``by=``: per group and annotator): what they rated, how often the
others agree with them, the coefficient without them (leave-one-out) and their kappa against
the others' majority. Nominal alpha, the default, is computed for every annotator at once
from the count tensors (:mod:`pdagree._kernels.leave_one_out`); any other registry
coefficient is recomputed once per annotator on the encoded annotations minus theirs (codes
kept, nothing re-encoded).
"""

from __future__ import annotations

import inspect
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from ._attrs import AttrsSeries
from ._kernels import leave_one_out as KL
from ._typing import FloatArray
from ._warnings import UndefinedStatisticWarning, listed, warn
from .category_sets import compute
from .definitions import get
from .definitions.alpha import with_distance
from .encoding import fmt
from .tensors import RatingData
from .tensors.data import encoded_subset
from .tensors.keys import key_index, keys_of

__all__ = ["per_rater"]

_INFERENCE_OPTIONS = ("confidence_level", "method", "n_resamples", "rng", "N", "interval")
"""The coefficients' inference options (``pdagree.evaluate.INFERENCE_DEFAULTS``), which
``per_rater`` does not take."""


def per_rater(data: RatingData, coefficient: str = "alpha", **arguments: Any) -> pd.DataFrame:
    """Each annotator's part of the agreement: who helps it and who lowers it.

    Parameters
    ----------
    coefficient : str
        The registry coefficient recomputed without each annotator (``"alpha"``,
        ``"fleiss"``, ``"gwet"``, ``"conger"``, ...).
    **arguments
        The coefficient's own arguments (``level="ordinal"`` or ``distance="masi"`` for
        alpha, ``weights=`` for the kappas); no inference options.

    Returns
    -------
    DataFrame
        Indexed by annotator (with ``by=``: group keys and annotator):

        ===============  =============================================================
        column           holds
        ===============  =============================================================
        ``n_items``      the items the annotator rated
        ``n_ratings``    the labels they gave (secondary labels too)
        ``observed``     over their labels on items someone else rated too, the mean
                         share of the others' labels that equal theirs
        ``without``      the coefficient without the annotator (leave-one-out)
        ``delta``        full minus ``without``: positive when the annotator raises
                         the agreement
        ``vs_rest``      Cohen's kappa of their labels against the others' plurality
                         label (items where the others tie, or nobody else rated, left
                         out)
        ``n_vs_rest``    the items that comparison counts
        ===============  =============================================================

        ``attrs["coefficient"]`` names the coefficient and ``attrs["full"]`` holds its value
        on all the data (a Series by group with ``by=``, which compares with another such
        Series as a whole so that the table combines as frames do; pop it before
        ``to_parquet``, which writes ``attrs`` as JSON).

    Examples
    --------
    >>> import pandas as pd
    >>> import pdagree
    >>> df = pd.DataFrame({"a": list("xxyyx"), "b": list("xxyyy"), "c": list("yxxyy")})
    >>> per = df.agree.per_rater()
    >>> per["observed"].tolist(), per["delta"].round(2).tolist()
    ([0.6, 0.7, 0.5], [0.0, 0.33, -0.39])
    >>> float(df.agree.alpha()) - float(df.drop(columns="c").agree.alpha())  # c's delta
    -0.39
    """
    data = data.rows
    if coefficient == "alpha" and "distance" in arguments:  # sets of labels: their level
        options = dict(arguments)
        data, options["level"] = with_distance(
            data, options.get("level", "nominal"), options.pop("distance"), options.get("weights")
        )
        return per_rater(data, coefficient, **options)
    key, key_group = keys_of(data, "per_rater")
    enc = data.enc
    definition = get(coefficient)
    _check_arguments(coefficient, definition.compute, arguments)
    options = dict(arguments)
    n_keys = len(key_group)
    n_per_key = np.bincount(key, minlength=n_keys)
    full_parts = compute(definition, data, dict(options))
    level = options.get("level", "nominal")
    fast = (
        coefficient == "alpha"
        and isinstance(level, str)
        and level == "nominal"
        and options.get("weights") is None
        and enc.secondary is None
        and bool(np.all(enc.weight == 1.0))
    )
    parts = KL.annotator_parts(
        data.nik, enc.item, key, enc.code, enc.group, key_group, enc.n_groups
    )
    without = parts.without if fast else _recomputed(data, coefficient, options)
    full = np.asarray(full_parts.value, dtype=np.float64)
    n_ratings = n_per_key.astype(np.float64)
    if enc.secondary is not None:
        n_ratings += np.bincount(key, weights=enc.secondary >= 0, minlength=n_keys)
    keys = np.flatnonzero(n_per_key > 0)
    frame = pd.DataFrame(
        {
            "n_items": n_per_key[keys],
            "n_ratings": n_ratings[keys].astype(np.int64),
            "observed": parts.observed[keys],
            "without": without[keys],
            "delta": (full[key_group] - without)[keys],
            "vs_rest": parts.vs_rest[keys],
            "n_vs_rest": parts.n_vs_rest[keys].astype(np.int64),
        },
        index=key_index(data, keys),
    )
    frame.attrs["coefficient"] = full_parts.name
    frame.attrs["full"] = (
        float(full[0]) if enc.groups is None else AttrsSeries(full, index=enc.groups, name="full")
    )
    lost = frame.index[np.isnan(frame["without"].to_numpy()) & ~np.isnan(full[key_group][keys])]
    if len(lost):
        warn(
            f"per_rater({coefficient!r}): without annotator(s) {fmt(list(lost))} the "
            "coefficient is undefined (too few raters or ratings left); `without` and `delta` "
            "are nan there.",
            UndefinedStatisticWarning,
        )
    return frame


def _check_arguments(coefficient: str, compute: Any, arguments: dict[str, Any]) -> None:
    """Refuse a keyword argument that the coefficient's definition does not take (an
    inference option such as ``confidence_level``, or a misspelt option), naming
    ``per_rater`` and what it passes on."""
    parameters = list(inspect.signature(compute).parameters.values())[1:]  # after the data
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return
    taken = [p.name for p in parameters]
    unknown = [name for name in arguments if name not in taken]
    if not unknown:
        return
    name = unknown[0]
    own = ", ".join(f"`{p}`" for p in taken) or "no option"
    remedy = (
        f"per_rater computes no intervals or tests; for an interval of {coefficient} on all "
        f"the data, call {coefficient}({name}=...) itself"
        if name in _INFERENCE_OPTIONS
        else f"{coefficient}() takes {own}"
    )
    raise TypeError(
        f"per_rater({coefficient!r}) does not take `{name}`: it passes its keyword arguments "
        f"to {coefficient}(). Drop `{name}` ({remedy})."
    )


def _recomputed(data: RatingData, coefficient: str, options: dict[str, Any]) -> FloatArray:
    """Per key, the coefficient of its group without that annotator: one evaluation per
    annotator over all groups at once, on the codes minus the annotator's."""
    enc = data.enc
    rater, raters = data.rater_codes("per_rater"), data.rater_labels
    slot, n_slots, by_slot = data.slots
    definition = get(coefficient)
    all_items = np.arange(enc.n_items, dtype=np.int64)
    all_groups = np.arange(enc.n_groups, dtype=np.int64)
    all_categories = np.ones(enc.n_categories, dtype=bool)
    out = np.full((enc.n_groups, n_slots), np.nan)
    for r in range(n_slots):  # one evaluation per annotator slot, vectorised over groups
        rows = slot != r
        sub = encoded_subset(
            enc, rows, all_items, all_groups, all_categories, all_items, all_groups
        )
        sub = replace(
            sub,
            # Slots within groups: each group loses its own rater; the labels stay.
            raters=raters if by_slot is not None else raters.delete(r),
            rater=rater[rows] if by_slot is not None else rater[rows] - (rater[rows] > r),
            declared=enc.declared,
        )
        rest = RatingData(sub, category_mask=data.category_mask)
        # the coefficient's own warnings kept back (this context only, not the process's
        # filters), numpy's floating-point ones off
        with np.errstate(all="ignore"):
            try:
                out[:, r] = listed(compute, definition, rest, dict(options))[0].value
            except ValueError:  # e.g. a two-rater coefficient left with one rater
                continue
    _, key_group, key_rater, key_slot = data.rater_keys
    return out[key_group, key_rater if by_slot is None else key_slot]
