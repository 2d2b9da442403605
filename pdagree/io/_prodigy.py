"""Prodigy's JSONL annotations as a long frame.

One JSON object per line (``prodigy db-out``): ``_input_hash`` identifies the input (the item),
``_annotator_id`` (or, in older datasets, ``_session_id``) the annotator, ``answer`` is
``"accept"``, ``"reject"`` or ``"ignore"``, ``_view_id`` the interface; a binary
classification task carries its question's ``label``, a choice task its ``options`` and the
ids of the ``accept``-ed ones, a manual span task (``ner_manual``, ``spans_manual``) its
``text`` and the ``spans`` (``start``, ``end``, ``label``) the annotator marked (Prodigy's
documentation: "Annotation interfaces",
https://prodi.gy/docs/api-interfaces, and "Task routing", https://prodi.gy/docs/task-routing,
for ``_annotator_id`` and ``_session_id``).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import pandas as pd

from .._warnings import PdagreeWarning, warn
from ._frames import one_kind, ranked
from ._json import json_lines, optional, scalar, shown

__all__ = ["read_prodigy"]

_MALFORMED = "malformed Prodigy data"
_HINT = "Prodigy's `db-out` writes one JSON object per line."
_ANSWERS = ("accept", "reject", "ignore")
#: The interfaces whose answers are text spans (each annotator's full set of entities).
SPAN_VIEWS = frozenset({"ner_manual", "spans_manual"})
_COLUMNS = [
    "item", "rater", "label", "rank", "input_hash", "task_label", "task_hash", "view",
    "timestamp", "start", "end", "text",
]  # fmt: skip


class _NoneChosen:
    """The label of a choice answer that accepted none of the options, until the reader
    knows which label stands for it."""

    def __repr__(self) -> str:
        return "<none chosen>"


_NONE = _NoneChosen()


def read_prodigy(
    path: Any, *, view: str | None = None, none_label: Hashable = "(none)"
) -> pd.DataFrame:
    """The annotations of a Prodigy dataset (``prodigy db-out`` JSONL) as a long frame.

    Parameters
    ----------
    path : str, path or iterable of dicts
        The JSONL file, or its records.
    view : str, optional
        The interface (``_view_id``: ``"classification"``, ``"choice"``, ...) to read when
        the file holds several; the error lists them.
    none_label : str or number, default ``"(none)"``
        The label of a choice answer that accepts none of the options (``"accept": []``,
        "none of these"). It must be of the options' kind (text when their ids are text).

    Returns
    -------
    DataFrame
        One row per answer, ready for ``df.agree(item="item", rater="rater", label="label")``:

        ===============  ==========================================================
        ``item``         the question: ``_input_hash``; a binary task's
                         ``(_input_hash, label)``
        ``rater``        ``_annotator_id``, else ``_session_id``
        ``label``        binary tasks: ``"accept"`` or ``"reject"``; choice tasks:
                         the id of each accepted option, ``none_label`` when none
        ``rank``         with several accepted options: 1, 2, ... in their order
                         (``df.agree(..., rank="rank")``); absent otherwise
        ``input_hash``   ``_input_hash``
        ``task_label``   a binary task's question label
        ``task_hash``    ``_task_hash``
        ``view``         ``_view_id``
        ``timestamp``    ``_timestamp``, as given
        ===============  ==========================================================

    A binary task asks one question about one input, and an input may be asked several
    (``textcat.teach --label SPORTS,POLITICS`` asks "SPORTS?" and "POLITICS?" of each
    text): the item is the pair (input, label), so "accept SPORTS" and "reject POLITICS"
    are answers to two questions, not a disagreement. ``by="task_label"`` gives one row per
    question; without it, the agreement is pooled over the questions.

    A choice answer that accepts none of the options ("none of these") is an answer: it
    becomes one row labelled ``none_label``, so two annotators who both chose none agree,
    and one who chose none disagrees with one who chose an option. When the options' ids are
    numbers and ``none_label`` is text (or the other way round), those answers cannot share
    one set of categories with the others: they are left out and counted in the warning,
    which names ``none_label=``.

    Ignored answers (and, in choice tasks, rejected ones, which accept nothing) are left out
    and counted in a warning. The annotator is ``_annotator_id`` where it is given and not
    null, else ``_session_id``. The file is read as UTF-8, with or without a byte-order mark.

    Raises
    ------
    ValueError
        A line that is not UTF-8 or not JSON, or nested more deeply than Python's json
        module follows (about a thousand levels); a record that lacks a field pdagree needs
        or holds a list or an object where a plain value belongs (naming the line and the
        field); records of several interfaces without ``view``; a ``none_label`` that is
        also an accepted option's id.
    """
    rows: list[dict[str, Any]] = []
    skipped: dict[str, int] = {}
    for number, record in json_lines(path, _HINT):
        rows.extend(_rows(record, f"record {number}", skipped))
    frame = pd.DataFrame(rows, columns=_COLUMNS)
    frame = one_kind(frame, "view", view, "view", "--view", "interfaces")
    if not frame["view"].isin(SPAN_VIEWS).any():
        frame = frame.drop(columns=["start", "end", "text"])
    frame = _none_chosen(frame, none_label, skipped)
    if skipped:
        shown_ = ", ".join(f"{n} {what}" for what, n in skipped.items())
        warn(f"Prodigy answers left out: {shown_}.", PdagreeWarning)
    return ranked(frame)


def _rows(record: Any, where: str, skipped: dict[str, int]) -> list[dict[str, Any]]:
    """The rows of one record (none for an ignored answer, counted in ``skipped``)."""
    if not isinstance(record, Mapping):
        raise ValueError(f"{_MALFORMED}: {where} is {shown(record)}, not an object.")
    for key in ("_input_hash", "answer"):
        if key not in record:
            raise ValueError(
                f"{_MALFORMED}: {where} has no {key!r} field; read the output of "
                "`prodigy db-out DATASET`."
            )
    who = record.get("_annotator_id")
    field = "'_annotator_id'"
    if who is None:
        who, field = record.get("_session_id"), "'_session_id'"
    if who is None:
        raise ValueError(
            f"{_MALFORMED}: {where} has neither '_annotator_id' nor '_session_id'; pdagree "
            "needs to know who annotated."
        )
    answer = record["answer"]
    if not isinstance(answer, str) or answer not in _ANSWERS:
        raise ValueError(
            f"{_MALFORMED}: {where}'s answer is {shown(answer)}, not 'accept', 'reject' or "
            "'ignore'."
        )
    accepted = record.get("accept")
    if accepted is not None and not isinstance(accepted, list):
        raise ValueError(
            f"{_MALFORMED}: {where}'s 'accept' is {shown(accepted)}, not a list of option ids."
        )
    choice = accepted is not None
    view_id = record.get("_view_id")
    if view_id in SPAN_VIEWS:
        return _span_rows(record, where, who, field, answer, skipped)
    if answer == "ignore" or (choice and answer == "reject"):
        past = "ignored" if answer == "ignore" else "rejected"
        skipped[past] = skipped.get(past, 0) + 1
        return []
    input_hash = scalar(record["_input_hash"], _MALFORMED, where, "'_input_hash'")
    task_label = record.get("label")
    if task_label is not None:
        task_label = scalar(task_label, _MALFORMED, where, "'label'", label=True)
    base = {
        "item": input_hash if choice or task_label is None else (input_hash, task_label),
        "rater": scalar(who, _MALFORMED, where, field),
        "input_hash": input_hash,
        "task_label": task_label,
        "task_hash": optional(record.get("_task_hash"), _MALFORMED, where, "'_task_hash'"),
        "view": optional(record.get("_view_id"), _MALFORMED, where, "'_view_id'"),
        "timestamp": optional(record.get("_timestamp"), _MALFORMED, where, "'_timestamp'"),
    }
    if not choice:
        return [{**base, "label": answer, "rank": 1}]
    if not accepted:
        return [{**base, "label": _NONE, "rank": 1}]
    return [
        {
            **base,
            "label": scalar(c, _MALFORMED, where, f"accepted option {k}", label=True),
            "rank": k,
        }
        for k, c in enumerate(accepted, start=1)
    ]


def _none_chosen(
    frame: pd.DataFrame, none_label: Hashable, skipped: dict[str, int]
) -> pd.DataFrame:
    """``frame`` with the answers that accepted no option labelled ``none_label``, or,
    when it is not of the options' kind, without them (counted in ``skipped``)."""
    labels = frame["label"]
    none = labels.map(lambda v: v is _NONE).to_numpy(dtype=bool)
    if not none.any():
        return frame
    others = labels[~none].tolist()
    if none_label in others:
        raise ValueError(
            f"`none_label` {shown(none_label)} is also the id of an accepted option; pass "
            "another `none_label=` for the answers that accepted none of the options."
        )
    text = isinstance(none_label, str)
    if all(isinstance(v, str) == text for v in others):
        return frame.assign(label=labels.where(~none, none_label).infer_objects())
    key = (
        "accepting none of the options (their ids are not of the kind of `none_label` "
        f"{shown(none_label)}; pass `none_label=` one that is)"
    )
    skipped[key] = int(none.sum())
    return frame[~none].reset_index(drop=True).assign(label=lambda f: f["label"].infer_objects())


def _span_rows(
    record: Mapping[str, Any],
    where: str,
    who: Any,
    field: str,
    answer: str,
    skipped: dict[str, int],
) -> list[dict[str, Any]]:
    """An accepted ``ner_manual`` / ``spans_manual`` answer: one row per span (``start``,
    ``end``, ``label``, its ``text``), or one row without offsets when it marked none."""
    if answer != "accept":
        past = "ignored" if answer == "ignore" else "rejected"
        skipped[past] = skipped.get(past, 0) + 1
        return []
    base = {
        "item": scalar(record["_input_hash"], _MALFORMED, where, "'_input_hash'"),
        "rater": scalar(who, _MALFORMED, where, field),
        "input_hash": record["_input_hash"],
        "task_label": None,
        "task_hash": optional(record.get("_task_hash"), _MALFORMED, where, "'_task_hash'"),
        "view": record.get("_view_id"),
        "timestamp": optional(record.get("_timestamp"), _MALFORMED, where, "'_timestamp'"),
        "rank": 1,
    }
    spans = record.get("spans") or []
    if not isinstance(spans, list):
        raise ValueError(f"{_MALFORMED}: {where}'s 'spans' is {shown(spans)}, not a list.")
    text = record.get("text")
    rows = []
    for k, span in enumerate(spans):
        at = f"{where}, span {k}"
        if not isinstance(span, Mapping) or "start" not in span or "end" not in span:
            raise ValueError(
                f"{_MALFORMED}: {at} is {shown(span)}, not an object with 'start' and 'end'."
            )
        start, end = span["start"], span["end"]
        for key, offset in (("start", start), ("end", end)):
            if isinstance(offset, bool) or not isinstance(offset, int):
                raise ValueError(
                    f"{_MALFORMED}: {at}'s {key} is {shown(offset)}, not a character offset."
                )
        label = span.get("label")
        rows.append(
            {
                **base,
                "label": None if label is None else scalar(label, _MALFORMED, at, "'label'"),
                "start": start,
                "end": end,
                "text": text[start:end] if isinstance(text, str) else span.get("text"),
            }
        )
    return rows or [{**base, "label": None, "start": None, "end": None, "text": None}]
