"""Label Studio's JSON export as a long frame of annotations.

The export is a list of tasks; a task has an ``id``, its ``data`` and ``annotations``; an
annotation has ``completed_by`` (a user id, or an object with ``id`` and ``email``),
``was_cancelled`` (a skipped task) and a ``result`` list; a result has ``from_name`` (the
control tag of the labelling config), ``type`` and ``value``: ``{"choices": [...]}`` for
Choices, ``{"rating": n}`` for Rating, ``{"number": x}`` for Number, ``{"start": s, "end": e,
"text": ..., "labels": [...]}`` for Labels over a text (Label Studio's
documentation: "Label Studio JSON format of annotated tasks",
https://labelstud.io/guide/task_format.html, and the Choices, Rating and Number tags,
https://labelstud.io/tags/, among them "Labels").
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import pandas as pd

from .._warnings import PdagreeWarning, warn
from ._frames import one_kind, ranked
from ._json import is_path, load_json, optional, scalar, shown

__all__ = ["read_label_studio"]

#: The result types read, and the key of ``value`` that holds the answer.
TYPES = {"choices": "choices", "rating": "rating", "number": "number"}
#: Region types of images, audio, video and time series: refused, naming the type.
REGIONS = frozenset(
    {"rectanglelabels", "polygonlabels", "ellipselabels", "keypointlabels", "brushlabels",
     "rectangle", "polygon", "ellipse", "keypoint", "brush", "timeserieslabels",
     "videorectangle", "paragraphlabels"}
)  # fmt: skip
_MALFORMED = "malformed Label Studio export"
_HINT = "Label Studio's Export > JSON writes a list of tasks."


def _field(obj: Any, key: str, where: str) -> Any:
    if type(obj) is dict and key in obj:  # what json gives, without the ABC check below
        return obj[key]
    if not isinstance(obj, Mapping) or key not in obj:
        raise ValueError(
            f"{_MALFORMED}: {where} has no {key!r} field. Export the project "
            "as JSON (a list of tasks, each with 'id' and 'annotations')."
        )
    return obj[key]


def _list(obj: Mapping[str, Any], key: str, where: str) -> list[Any]:
    value = _field(obj, key, where)
    if not isinstance(value, list):
        raise ValueError(f"{_MALFORMED}: {where}'s {key!r} is {shown(value)}, not a list.")
    return value


class _Raters:
    """Who annotated: ``completed_by`` is a user id in some exports and a user object
    (``{"id": 3, "email": ...}``) in others, even within one file. Both name the user by
    the id; an object with an e-mail but no id, or the e-mail given as ``completed_by``
    itself, is matched to the id another object gives for that e-mail, else named by it."""

    def __init__(self) -> None:
        self.email_of: dict[Hashable, Hashable] = {}
        self.id_of: dict[Hashable, Hashable] = {}

    def key(self, completed_by: Any, where: str) -> tuple[str, Hashable]:
        """``("id", id)`` or ``("email", email)`` for one annotation."""
        if isinstance(completed_by, Mapping):
            user = completed_by.get("id")
            email = completed_by.get("email")
            if email is not None:
                email = scalar(email, _MALFORMED, where, "'completed_by' email")
            if user is not None:
                user = scalar(user, _MALFORMED, where, "'completed_by' id")
                if email is not None:
                    self.email_of.setdefault(user, email)
                    self.id_of.setdefault(email, user)
                return "id", user
            if email is not None:
                return "email", email
            raise ValueError(f"{_MALFORMED}: {where}'s 'completed_by' has no id.")
        if completed_by is None:
            raise ValueError(
                f"{_MALFORMED}: {where} has no 'completed_by' user; pdagree needs "
                "to know who annotated."
            )
        return "id", scalar(completed_by, _MALFORMED, where, "'completed_by'")

    def resolve(self, keys: list[tuple[str, Hashable]]) -> tuple[list[Hashable], list[Any]]:
        """The rater of each key (the user id where one is known) and their e-mails."""
        raters = [self.id_of.get(v, v) if isinstance(v, str) else v for _, v in keys]
        emails = [
            self.email_of.get(r, v if kind == "email" else None)
            for (kind, v), r in zip(keys, raters, strict=True)
        ]
        return raters, emails


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
        ``rater``          the annotator: the user id of ``completed_by``
        ``label``          the choice, rating or number
        ``rank``           with several choices in one answer: 1, 2, ... in their
                           order (``df.agree(..., rank="rank")``); absent otherwise
        ``rater_email``    the annotator's e-mail, where a user object gives it
        ``annotation_id``  the annotation's ``id``
        ``from_name``      the control tag
        ``created_at``,    the annotation's timestamps, as given
        ``updated_at``
        ``lead_time``      seconds spent, as given
        ``start``,         text spans (``labels`` results): the span's character
        ``end``, ``text``  offsets (``end`` exclusive) and its text; one row per
                           label of a span
        =================  ======================================================

    Text spans (the ``Labels`` tag over ``Text``, named entities) give a frame for
    ``df.agree.spans(item="item", rater="rater", start="start", end="end", label="label")``
    (and ``pdagree spans``): an annotation that marked no span keeps one row with missing
    ``start``, ``end`` and ``label``, so that an annotator who saw a document and marked
    nothing agrees with another who did the same. Regions of images, audio, video and time
    series (``rectanglelabels``, ...) are refused with an error naming the type.

    Skipped and cancelled annotations (``was_cancelled``) are left out and counted in a
    warning; predictions are not annotations and are not read.

    ``completed_by`` is a user id in some exports and a user object with ``id`` and ``email``
    in others, sometimes both within one file: both give the rater its user id, so one person
    is one rater. An object with an e-mail and no id (or the e-mail given as
    ``completed_by`` itself) takes the id another annotation's object gives for that e-mail,
    else the e-mail.

    The file is read as UTF-8, with or without a byte-order mark.

    Raises
    ------
    ValueError
        A file that is not a Label Studio export, naming the task, the annotation and the
        field: a missing field, a ``result`` or ``annotations`` that is not a list (``null``
        included), an id, label or timestamp that is a list or an object, a rating that is
        not a number; a file that is not UTF-8 or not JSON, or JSON nested more deeply than
        Python's json module follows (about a thousand levels); answers of several controls
        without ``from_name``.
    """
    tasks = load_json(path_or_obj, _HINT) if is_path(path_or_obj) else path_or_obj
    if not isinstance(tasks, list):
        raise ValueError(
            f"{_MALFORMED}: expected a list of tasks (Export > JSON); got {shown(tasks)}."
        )
    rows: list[dict[str, Any]] = []
    annotations: list[dict[str, Any]] = []
    raters = _Raters()
    cancelled = 0
    for t, task in enumerate(tasks):
        item = scalar(_field(task, "id", f"task {t}"), _MALFORMED, f"task {t}", "'id'")
        where = f"task {t} (id {shown(item)})"
        for a, annotation in enumerate(_list(task, "annotations", where)):
            at = f"{where}, annotation {a}"
            if not isinstance(annotation, Mapping):
                raise ValueError(f"{_MALFORMED}: {at} is {shown(annotation)}, not an object.")
            if annotation.get("was_cancelled"):
                cancelled += 1
                continue
            kept = {
                k: optional(annotation.get(f), _MALFORMED, at, repr(f)) for k, f in _KEPT.items()
            }
            base = {"item": item, "rater": raters.key(annotation.get("completed_by"), at), **kept}
            annotations.append(base)
            for r, result in enumerate(_list(annotation, "result", at)):
                rows.extend(_answers(result, f"{at}, result {r}", base))
    if cancelled:
        warn(
            f"{cancelled} skipped or cancelled annotations (was_cancelled) were left out.",
            PdagreeWarning,
        )
    frame = pd.DataFrame(rows, columns=_COLUMNS)
    frame = one_kind(frame, "from_name", from_name, "from_name", "--from-name", "controls")
    frame = _with_empty_annotations(frame, annotations)
    who, emails = raters.resolve(frame["rater"].tolist())
    frame = frame.assign(rater=pd.Series(who, dtype=object).infer_objects(), rater_email=emails)
    return ranked(frame)


#: The annotation's fields kept as they are, and their columns.
_KEPT = {"annotation_id": "id", "created_at": "created_at", "updated_at": "updated_at",
         "lead_time": "lead_time"}  # fmt: skip
_COLUMNS = [
    "item", "rater", "label", "rank", "rater_email", "annotation_id", "from_name",
    "created_at", "updated_at", "lead_time", "start", "end", "text",
]  # fmt: skip


def _answers(result: Any, where: str, base: dict[str, Any]) -> list[dict[str, Any]]:
    """The rows of one result: one per choice (ranked), or one rating or number, or one per
    label of a text span; none for a result of another type (text areas); an error for a
    region of an image, audio or video (not read yet)."""
    kind = _field(result, "type", where)
    if isinstance(kind, str) and kind in REGIONS:
        raise ValueError(
            f"{where} is a {kind!r} region: pdagree reads choices, ratings, numbers and text "
            "spans ('labels'), not regions of images, audio or time series yet. Pass "
            "`from_name=` to read another control of the project."
        )
    if kind == "labels":
        return _spans(result, where, base)
    if not isinstance(kind, str) or kind not in TYPES:
        return []
    value = _field(result, "value", where)
    answer = _field(value, TYPES[kind], f"{where}'s value")
    control = scalar(_field(result, "from_name", where), _MALFORMED, where, "'from_name'")
    base = {**base, "from_name": control}
    if kind == "choices":
        if not isinstance(answer, list) or not answer:
            raise ValueError(
                f"{_MALFORMED}: {where}'s choices are not a list of the chosen labels; got "
                f"{shown(answer)}."
            )
        return [
            {**base, "label": scalar(c, _MALFORMED, where, f"choice {k}", label=True), "rank": k}
            for k, c in enumerate(answer, start=1)
        ]
    if isinstance(answer, bool) or not isinstance(answer, (int, float)):
        raise ValueError(f"{_MALFORMED}: {where}'s {kind} is {shown(answer)}, not a number.")
    return [{**base, "label": scalar(answer, _MALFORMED, where, kind, label=True), "rank": 1}]


def _offset(value: Any, key: str, where: str) -> int:
    offset = _field(value, key, f"{where}'s value")
    if isinstance(offset, bool) or not isinstance(offset, int):
        raise ValueError(
            f"{_MALFORMED}: {where}'s {key} is {shown(offset)}, not a character offset."
        )
    return offset


def _spans(result: Any, where: str, base: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per label of a text span (``value.start``, ``value.end``, ``value.labels``)."""
    value = _field(result, "value", where)
    start, end = _offset(value, "start", where), _offset(value, "end", where)
    labels = _field(value, "labels", f"{where}'s value")
    if not isinstance(labels, list) or not labels:
        raise ValueError(
            f"{_MALFORMED}: {where}'s labels are not a list of labels; got {shown(labels)}."
        )
    control = scalar(_field(result, "from_name", where), _MALFORMED, where, "'from_name'")
    text = optional(value.get("text"), _MALFORMED, where, "'text'")
    return [
        {
            **base,
            "from_name": control,
            "label": scalar(label, _MALFORMED, where, f"label {k}", label=True),
            "rank": 1,
            "start": start,
            "end": end,
            "text": text,
        }
        for k, label in enumerate(labels)
    ]


def _with_empty_annotations(
    frame: pd.DataFrame, annotations: list[dict[str, Any]]
) -> pd.DataFrame:
    """A frame of text spans, with one row (no offsets, no label) for each annotation that
    marked no span of the control read: that annotator saw the document and marked nothing."""
    if frame["start"].isna().all():
        return frame.drop(columns=["start", "end", "text"])
    seen = set(zip(frame["item"], frame["annotation_id"], frame["rater"], strict=True))
    missing = [
        row for row in annotations
        if (row["item"], row["annotation_id"], row["rater"]) not in seen
    ]  # fmt: skip
    if not missing:
        return frame
    empty = pd.DataFrame(missing, columns=frame.columns)
    return pd.concat([frame, empty], ignore_index=True)
