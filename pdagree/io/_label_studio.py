"""Label Studio's JSON export as a long frame of annotations.

The export is a list of tasks; a task has an ``id``, its ``data`` and ``annotations``; an
annotation has ``completed_by`` (a user id, or an object with ``id`` and ``email``),
``was_cancelled`` (a skipped task) and a ``result`` list; a result has ``from_name`` (the
control tag of the labelling config), ``type`` and ``value``: ``{"choices": [...]}`` for
Choices, ``{"rating": n}`` for Rating, ``{"number": x}`` for Number (Label Studio's
documentation: "Label Studio JSON format of annotated tasks",
https://labelstud.io/guide/task_format.html, and the Choices, Rating and Number tags,
https://labelstud.io/tags/).
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

__all__ = ["read_label_studio"]

#: The result types read, and the key of ``value`` that holds the answer.
TYPES = {"choices": "choices", "rating": "rating", "number": "number"}


def _load(source: Any) -> Any:
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        try:
            with path.open(encoding="utf-8") as handle:
                return json.load(handle)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{str(path)!r} is not JSON: {exc}.") from None
    return source


def _field(obj: Any, key: str, where: str) -> Any:
    if not isinstance(obj, Mapping) or key not in obj:
        raise ValueError(
            f"malformed Label Studio export: {where} has no {key!r} field. Export the project "
            "as JSON (a list of tasks, each with 'id' and 'annotations')."
        )
    return obj[key]


def _rater(completed_by: Any, where: str) -> Hashable:
    if isinstance(completed_by, Mapping):
        for key in ("email", "id"):
            if completed_by.get(key) is not None:
                return completed_by[key]
        raise ValueError(f"malformed Label Studio export: {where}'s 'completed_by' has no id.")
    if completed_by is None or isinstance(completed_by, (list, dict)):
        raise ValueError(
            f"malformed Label Studio export: {where} has no 'completed_by' user; pdagree needs "
            "to know who annotated."
        )
    return completed_by


def read_label_studio(path_or_obj: Any, *, from_name: str | None = None) -> pd.DataFrame:
    """The annotations of a Label Studio JSON export as a long frame.

    Parameters
    ----------
    path_or_obj : str, path or list
        The export file, or the list of tasks it holds (``json.load`` of it).
    from_name : str, optional
        The control tag to read (its ``name`` in the labelling config). Needed when the export
        holds answers of several controls; the error lists them.

    Returns
    -------
    DataFrame
        One row per answer, ready for ``df.agree(item="item", rater="rater", label="label")``:

        =================  ======================================================
        ``item``           the task's ``id``
        ``rater``          the annotator: ``completed_by``'s e-mail, else its id
        ``label``          the choice, rating or number
        ``rank``           with several choices in one answer: 1, 2, ... in their
                           order (``df.agree(..., rank="rank")``); absent otherwise
        ``annotation_id``  the annotation's ``id``
        ``from_name``      the control tag
        ``created_at``,    the annotation's timestamps, as given
        ``updated_at``
        ``lead_time``      seconds spent, as given
        =================  ======================================================

    Skipped and cancelled annotations (``was_cancelled``) are left out and counted in a
    warning; predictions are not annotations and are not read.

    Raises
    ------
    ValueError
        A file that is not a Label Studio export (naming the task and the missing field), an
        unreadable answer, or answers of several controls without ``from_name``.
    """
    tasks = _load(path_or_obj)
    if not isinstance(tasks, list):
        raise ValueError(
            "malformed Label Studio export: expected a list of tasks (Export > JSON); got "
            f"{type(tasks).__name__}."
        )
    rows: list[dict[str, Any]] = []
    cancelled = 0
    for t, task in enumerate(tasks):
        where = f"task {t}" + (
            f" (id {task['id']!r})" if isinstance(task, Mapping) and "id" in task else ""
        )
        item = _field(task, "id", f"task {t}")
        annotations = _field(task, "annotations", where)
        if not isinstance(annotations, list):
            raise ValueError(
                f"malformed Label Studio export: {where}'s 'annotations' is not a list."
            )
        for a, annotation in enumerate(annotations):
            at = f"{where}, annotation {a}"
            if not isinstance(annotation, Mapping):
                raise ValueError(f"malformed Label Studio export: {at} is not an object.")
            if annotation.get("was_cancelled"):
                cancelled += 1
                continue
            rater = _rater(annotation.get("completed_by"), at)
            for r, result in enumerate(_field(annotation, "result", at)):
                rows.extend(_answers(result, f"{at}, result {r}", item, rater, annotation))
    if cancelled:
        warn(
            f"{cancelled} skipped or cancelled annotations (was_cancelled) were left out.",
            PdagreeWarning,
        )
    frame = pd.DataFrame(rows, columns=_COLUMNS)
    frame = one_kind(frame, "from_name", from_name, "from_name", "--from-name", "controls")
    return ranked(frame)


_COLUMNS = [
    "item", "rater", "label", "rank", "annotation_id", "from_name", "created_at", "updated_at",
    "lead_time",
]  # fmt: skip


def _answers(
    result: Any, where: str, item: Hashable, rater: Hashable, annotation: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """The rows of one result: one per choice (ranked), or one rating or number; none for a
    result of another type (regions, text areas)."""
    kind = _field(result, "type", where)
    if kind not in TYPES:
        return []
    value = _field(result, "value", where)
    answer = _field(value, TYPES[kind], f"{where}'s value")
    base = {
        "item": item,
        "rater": rater,
        "annotation_id": annotation.get("id"),
        "from_name": _field(result, "from_name", where),
        "created_at": annotation.get("created_at"),
        "updated_at": annotation.get("updated_at"),
        "lead_time": annotation.get("lead_time"),
    }
    if kind == "choices":
        if not isinstance(answer, list) or not answer:
            raise ValueError(f"malformed Label Studio export: {where}'s choices are not a list.")
        return [{**base, "label": c, "rank": k} for k, c in enumerate(answer, start=1)]
    if isinstance(answer, (list, dict, bool)):
        raise ValueError(f"malformed Label Studio export: {where}'s {kind} is not a number.")
    return [{**base, "label": answer, "rank": 1}]
