"""What both readers do to the rows they read: keep one control (or interface) and give the
ranks of several choices only where an answer has several."""

from __future__ import annotations

from collections.abc import Hashable

import pandas as pd

from ..encoding import fmt

__all__ = ["one_kind", "ranked"]


def one_kind(
    frame: pd.DataFrame, column: str, chosen: Hashable | None, param: str, flag: str, kinds: str
) -> pd.DataFrame:
    """The rows of ``frame`` whose ``column`` is ``chosen``; with ``chosen`` None, all of
    them when they are of one kind, else an error listing the ``kinds`` and naming the
    argument ``param`` (``flag`` on the command line) that picks one."""
    present = [v for v in dict.fromkeys(frame[column]) if v is not None]
    if chosen is not None:
        if chosen not in present:
            raise ValueError(
                f"`{param}` {chosen!r} answers nothing in these data; their {kinds} are "
                f"{fmt(present)}."
            )
        frame = frame[frame[column] == chosen]
    elif len(present) > 1:
        raise ValueError(
            f"the data hold answers of {len(present)} {kinds}, {fmt(present)}; pass "
            f"`{param}=` ({flag} on the command line) to choose one."
        )
    return frame.reset_index(drop=True)


def ranked(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` without its ``rank`` column when no answer has several choices, else with
    the ranks as integers."""
    if frame["rank"].fillna(1).eq(1).all():
        return frame.drop(columns="rank")
    return frame.assign(rank=frame["rank"].astype("Int64"))
