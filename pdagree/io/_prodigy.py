"""Prodigy's JSONL annotations as a long frame.

One JSON object per line (``prodigy db-out``): ``_input_hash`` identifies the input (the item),
``_annotator_id`` (or, in older datasets, ``_session_id``) the annotator, ``answer`` is
``"accept"``, ``"reject"`` or ``"ignore"``, ``_view_id`` the interface; a binary
classification task carries its question's ``label``, a choice task its ``options`` and the
ids of the ``accept``-ed ones (Prodigy's documentation: "Annotation interfaces",
https://prodi.gy/docs/api-interfaces, and "Task routing", https://prodi.gy/docs/task-routing,
for ``_annotator_id`` and ``_session_id``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Hashable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from .._warnings import PdagreeWarning, warn
from ._frames import one_kind, ranked

__all__ = ["read_prodigy"]


def _lines(source: Any) -> list[tuple[int, Any]]:
    if not isinstance(source, (str, os.PathLike)):
        return list(enumerate(source, start=1))
    out = []
    with Path(source).open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                out.append((number, json.loads(line)))
            except json.JSONDecodeError as exc:
                raise ValueError(
                    f"line {number} of {str(source)!r} is not JSON ({exc}); Prodigy's "
                    "`db-out` writes one JSON object per line."
                ) from None
    return out


def read_prodigy(path: Any, *, view: str | None = None) -> pd.DataFrame:
    """The annotations of a Prodigy dataset (``prodigy db-out`` JSONL) as a long frame.

    Parameters
    ----------
    path : str, path or iterable of dicts
        The JSONL file, or its records.
    view : str, optional
        The interface (``_view_id``: ``"classification"``, ``"choice"``, ...) to read when
        the file holds several; the error lists them.

    Returns
    -------
    DataFrame
        One row per answer, ready for ``df.agree(item="item", rater="rater", label="label")``:

        ===============  ==========================================================
        ``item``         ``_input_hash``
        ``rater``        ``_annotator_id``, else ``_session_id``
        ``label``        binary tasks: ``"accept"`` or ``"reject"``; choice tasks:
                         the id of each accepted option
        ``rank``         with several accepted options: 1, 2, ... in their order
                         (``df.agree(..., rank="rank")``); absent otherwise
        ``task_label``   a binary task's question label
        ``task_hash``    ``_task_hash``
        ``view``         ``_view_id``
        ``timestamp``    ``_timestamp``, as given
        ===============  ==========================================================

    Ignored answers (and, in choice tasks, rejected ones, which accept nothing) are left out
    and counted in a warning.

    Raises
    ------
    ValueError
        A line that is not JSON or lacks a field pdagree needs (naming the line and the
        field), or records of several interfaces without ``view``.
    """
    rows: list[dict[str, Any]] = []
    skipped: dict[str, int] = {}
    for number, record in _lines(path):
        where = f"record {number}"
        if not isinstance(record, Mapping):
            raise ValueError(f"malformed Prodigy data: {where} is not an object.")
        for key in ("_input_hash", "answer"):
            if key not in record:
                raise ValueError(
                    f"malformed Prodigy data: {where} has no {key!r} field; read the output of "
                    "`prodigy db-out DATASET`."
                )
        rater = record.get("_annotator_id", record.get("_session_id"))
        if rater is None:
            raise ValueError(
                f"malformed Prodigy data: {where} has neither '_annotator_id' nor "
                "'_session_id'; pdagree needs to know who annotated."
            )
        answer = record["answer"]
        kind = record.get("_view_id")
        choice = "accept" in record and isinstance(record.get("accept"), list)
        if answer not in ("accept", "reject", "ignore"):
            raise ValueError(
                f"malformed Prodigy data: {where}'s answer is {answer!r}, not 'accept', "
                "'reject' or 'ignore'."
            )
        if answer == "ignore" or (choice and answer == "reject"):
            skipped[answer] = skipped.get(answer, 0) + 1
            continue
        base = {
            "item": record["_input_hash"],
            "rater": rater,
            "task_label": record.get("label"),
            "task_hash": record.get("_task_hash"),
            "view": kind,
            "timestamp": record.get("_timestamp"),
        }
        if choice:
            accepted: list[Hashable] = record["accept"]
            rows.extend({**base, "label": c, "rank": k} for k, c in enumerate(accepted, start=1))
        else:
            rows.append({**base, "label": answer, "rank": 1})
    if skipped:
        past = {"ignore": "ignored", "reject": "rejected"}
        shown = ", ".join(f"{n} {past[what]}" for what, n in skipped.items())
        warn(f"Prodigy answers left out: {shown}.", PdagreeWarning)
    columns = ["item", "rater", "label", "rank", "task_label", "task_hash", "view", "timestamp"]
    frame = pd.DataFrame(rows, columns=columns)
    return ranked(one_kind(frame, "view", view, "view", "--view", "interfaces"))
