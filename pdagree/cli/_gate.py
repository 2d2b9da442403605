"""The quality gate: ``--fail-under`` on ``pdagree report``, ``per-category`` and ``per-rater``.

After the table is written as usual, each threshold is compared with its value (or, with
``--fail-under-lower``, with the lower confidence bound): the command ends with status 1 and
one line per value below its threshold on standard error (``pdagree: alpha[nominal] 0.61 <
0.667``), so that a nightly pipeline stops when agreement drops. An undefined value (nan)
fails: a gate cannot pass on a coefficient it could not compute.
"""

from __future__ import annotations

import argparse
import math
from typing import Any

import pandas as pd

from ._read import UsageError

__all__ = ["GateFailed", "add_gate", "check_gate"]

#: Per subcommand, the column a bare threshold (``--fail-under 0.6``) reads.
DEFAULT_COLUMN = {"per-category": "kappa", "per-rater": "vs_rest"}


class GateFailed(Exception):
    """Values below their thresholds: one line each."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


def add_gate(gate: Any, command: str) -> None:
    """``--fail-under`` and ``--fail-under-lower`` on ``gate`` (a parser or a group of one)."""
    if command == "report":
        what = "coefficients, e.g. 'alpha=0.667,fleiss=0.6' (alpha: alpha[nominal] if it is "
        what += "the only alpha row)"
    else:
        what = (
            f"columns, e.g. '{DEFAULT_COLUMN[command]}=0.6' (a bare number reads "
            f"{DEFAULT_COLUMN[command]}); every row must reach it"
        )
    gate.add_argument(
        "--fail-under",
        metavar="THRESHOLDS",
        help=f"exit with status 1 when a value is below its threshold: {what}",
    )
    gate.add_argument(
        "--fail-under-lower",
        action="store_true",
        help="compare the lower confidence bound (low) instead of the value; needs "
        "--confidence-level",
    )


def _thresholds(spec: str, command: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for part in (p.strip() for p in spec.split(",")):
        if not part:
            continue
        name, sep, number = part.rpartition("=")
        if not sep:
            if command not in DEFAULT_COLUMN:
                raise UsageError(
                    f"`--fail-under` needs name=threshold pairs for `pdagree {command}`, e.g. "
                    f"'alpha=0.667'; got {part!r}."
                )
            name, number = DEFAULT_COLUMN[command], part
        try:
            value = float(number)
        except ValueError:
            raise UsageError(
                f"`--fail-under` thresholds must be numbers; got {number.strip()!r} in {part!r}."
            ) from None
        out[name.strip()] = value
    if not out:
        raise UsageError(f"`--fail-under` names no threshold; got {spec!r}.")
    return out


def _rows(table: pd.DataFrame, name: str) -> pd.Index:
    """The report rows of coefficient ``name``: its own row, or the one row of that family
    (``alpha`` for ``alpha[nominal]``)."""
    names = table.index.get_level_values(-1).astype(str)
    exact = names == name
    if exact.any():
        return table.index[exact]
    family = names.str.split("[").str[0] == name
    if len(set(names[family])) > 1:
        raise UsageError(
            f"`--fail-under` names {name!r}, which is several rows of the report "
            f"({', '.join(sorted(set(names[family])))}); name one of them."
        )
    if not family.any():
        raise UsageError(
            f"`--fail-under` names {name!r}, which is not in the report; rows: "
            f"{', '.join(dict.fromkeys(names))}."
        )
    return table.index[family]


def _shown(key: Any) -> str:
    return " / ".join(map(str, key)) if isinstance(key, tuple) else str(key)


def check_gate(table: pd.DataFrame, args: argparse.Namespace, command: str) -> None:
    """Raise :class:`GateFailed` when a value of ``table`` is below its threshold."""
    spec = getattr(args, "fail_under", None)
    if spec is None:
        if getattr(args, "fail_under_lower", False):
            raise UsageError("`--fail-under-lower` needs `--fail-under`.")
        return
    lower = bool(args.fail_under_lower)
    if lower and "low" not in table.columns:
        raise UsageError(
            "`--fail-under-lower` compares the lower confidence bounds: pass "
            "`--confidence-level` (e.g. 0.95)."
        )
    read = "low" if lower else "value"
    lines: list[str] = []
    for name, threshold in _thresholds(spec, command).items():
        if command == "report":
            selected = table.loc[_rows(table, name), read]
            label = ""
        else:
            if lower and name != DEFAULT_COLUMN[command]:
                raise UsageError(
                    f"`--fail-under-lower` compares the lower bounds of "
                    f"{DEFAULT_COLUMN[command]}'s intervals; got a threshold for {name!r}."
                )
            if name not in table.columns:
                raise UsageError(
                    f"`--fail-under` names column {name!r}, which is not in the table; "
                    f"columns: {', '.join(map(str, table.columns))}."
                )
            selected = table[read if lower else name]
            label = f"{name} of "
        for key, value in selected.items():
            number = float(value)
            if math.isnan(number) or number < threshold:
                what = "lower bound " if lower else ""
                shown = "nan (undefined)" if math.isnan(number) else f"{number:.4g}"
                lines.append(f"{label}{_shown(key)} {what}{shown} < {threshold:g}")
    if lines:
        raise GateFailed(lines)
