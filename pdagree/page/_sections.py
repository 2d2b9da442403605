"""The page's sections, each from the tables of one :class:`~._results.View`: the data, the
coefficients, per category, pairwise, per annotator, the most disputed items, the consensus,
the gold labels and the numeric measures."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..interpretation import SCALES, interpret
from ._results import CONFIDENCE_LEVEL, Failure, View
from ._svg import bars, heatmap
from ._template import esc, shortened, table

__all__ = ["SECTIONS", "Section", "groups_summary", "warned"]

#: How many of the most disputed items the page lists.
N_DISPUTED = 20
#: How many categories the data section names.
N_NAMED = 50

#: The two interpretation scales of the coefficient table, by their column titles.
BANDS = {"Landis & Koch (1977)": "landis-koch", "Krippendorff (2004)": "krippendorff"}
#: Coefficients that are not chance-corrected: no band applies.
_UNBANDED = ("observed",)

Section = tuple[str, str, Callable[[View, dict[str, Any]], str]]


def _unavailable(what: Failure) -> str:
    return f'<p class="note">Not available for these data: {esc(what.message)}</p>'


def _ok(*tables: Any) -> bool:
    return all(isinstance(t, (pd.DataFrame, pd.Series)) for t in tables)


def _first_failure(*tables: Any) -> str:
    for t in tables:
        if isinstance(t, Failure):
            return _unavailable(t)
    return ""


def _badge(band: str) -> str:
    return f'<span class="band b-{esc(band.replace(" ", "-"))}">{esc(band)}</span>'


# --------------------------------------------------------------------------- the data


def data(view: View, context: dict[str, Any]) -> str:
    """Items, raters, labels, layout, the share of missing ratings, and the warnings."""
    counts, frequencies = view.counts, view.frequencies
    rows: dict[str, Any] = {"layout": context["layout"]}
    if isinstance(counts, pd.DataFrame):
        n_items = len(counts)
        annotations = int(counts.to_numpy().sum())
        rows["items"] = n_items
        present = counts.columns[counts.to_numpy().sum(axis=0) > 0]
    else:
        n_items, annotations, present = 0, 0, pd.Index([])
    if isinstance(frequencies, pd.DataFrame):
        n_raters = int((frequencies["count"].to_numpy().sum(axis=1) > 0).sum())
        rows["raters"] = n_raters
        rows["annotations"] = annotations
        rows["missing share"] = 1 - annotations / (n_items * n_raters) if n_items else np.nan
    else:
        rows["annotations"] = annotations
    labels = [str(c) for c in present]
    named = ", ".join(shortened(labels[:N_NAMED]))
    more = f" … and {len(labels) - N_NAMED} more" if len(labels) > N_NAMED else ""
    rows["labels"] = len(labels)
    rows["label values"] = named + more
    frame = pd.DataFrame({"value": pd.Series(rows, dtype=object)})
    frame.index.name = "what"
    return table(frame, "data") + warned(context.get("warnings", ()))


def warned(messages: Sequence[str]) -> str:
    """The warnings raised while reading and computing, one paragraph each."""
    if not messages:
        return ""
    return "<h3>Warnings</h3>" + "".join(f'<p class="warn">{esc(w)}</p>' for w in messages)


# --------------------------------------------------------------------------- coefficients


def coefficients(view: View, context: dict[str, Any]) -> str:
    """The report's coefficients with their intervals and interpretation bands."""
    report = view.report
    if not _ok(report):
        return _first_failure(report)
    shown = [
        c for c in ("value", "low", "high", "se", "p_value", "observed", "expected", "n_items")
        if c in report.columns
    ]  # fmt: skip
    frame = report[shown].copy()
    if "ci_method" in report.columns:
        frame["interval"] = report["ci_method"]
    for title, scale in BANDS.items():
        frame[title] = [
            "n/a" if str(name) in _UNBANDED else _badge(interpret(float(v), scale))
            for name, v in zip(report.index, report["value"], strict=True)
        ]
    level = f"{CONFIDENCE_LEVEL:.0%}"
    caption = f"low, high: the {level} confidence interval"
    out = table(frame, "report", caption=caption, raw=list(BANDS))
    out += bars(
        report["value"],
        "report",
        "coefficients with their confidence intervals",
        low=report.get("low"),
        high=report.get("high"),
        marks=(0.667, 0.8),
        span=(0.0, 1.0),
    )
    legend = [f"<b>{esc(t)}</b>: " + "; ".join(_scale(s)) for t, s in BANDS.items()]
    bias = view.bias
    if isinstance(bias, pd.DataFrame):
        out += "<h3>Annotator bias (Artstein &amp; Poesio 2005)</h3>" + table(bias, "bias")
    return out + "".join(f'<p class="note">{line}</p>' for line in legend)


def _scale(scale: str) -> list[str]:
    """A scale's bands as text: ``poor < 0``, ``0 ≤ slight ≤ 0.2``, ..."""
    out, lower = [], None
    for upper, inclusive, label in SCALES[scale]:
        left = "" if lower is None else f"{lower[0]:g} {'<' if lower[1] else '≤'} "
        right = f" {'≤' if inclusive else '<'} {upper:g}"
        out.append(esc(f"{left}{label}{right}"))
        lower = (upper, inclusive)
    return out


# --------------------------------------------------------------------------- breakdowns


def per_category(view: View, context: dict[str, Any]) -> str:
    """Each category against the rest: kappa, specific agreement, its share."""
    frame = view.per_category
    if not _ok(frame):
        return _first_failure(frame)
    out = table(frame, "per_category")
    if "kappa" in frame.columns:
        out += bars(frame["kappa"], "per_category", "kappa per category", span=(0.0, 1.0))
    return out


def pairwise(view: View, context: dict[str, Any]) -> str:
    """Cohen's kappa (Lin's concordance, for continuous scores) of every pair of raters, as
    a heatmap."""
    matrix = view.pairwise
    if not _ok(matrix):
        return _first_failure(matrix)
    name = "Cohen's kappa" if view.pairwise_coefficient == "cohen" else "Lin's concordance"
    note = f'<p class="note">{name} of each pair of raters on the items both rated.</p>'
    return note + heatmap(matrix, "pairwise", f"pairwise {name}")


def per_annotator(view: View, context: dict[str, Any]) -> str:
    """Leave-one-out agreement, consensus quality and each annotator's label shares."""
    out = ""
    frame = view.per_rater
    if _ok(frame):
        out += (
            '<p class="note">without: alpha without the annotator; delta: alpha minus that; '
            "vs_rest: Cohen's kappa against the others' majority label.</p>"
            + table(frame, "per_rater")
        )
        if "vs_rest" in frame.columns:
            out += bars(frame["vs_rest"], "per_rater", "kappa against the rest", span=(0, 1))
    else:
        out += _first_failure(frame)
    if _ok(view.quality):
        out += f"<h3>Consensus quality ({esc(context['consensus'])})</h3>"
        out += table(view.quality, "quality")
    if _ok(view.frequencies):
        out += "<h3>Each annotator's labels (bias)</h3>"
        out += table(view.frequencies["proportion"], "proportions", caption="share of each label")
    return out


def disputed(view: View, context: dict[str, Any]) -> str:
    """The items with the lowest agreement (the highest entropy first among ties)."""
    items, counts = view.items, view.counts
    if not _ok(items, counts):
        return _first_failure(items, counts)
    order = np.lexsort((-items["entropy"].to_numpy(), items["agreement"].to_numpy()))
    chosen = items.iloc[order[:N_DISPUTED]].copy()
    picked = counts.loc[chosen.index]
    names = np.asarray(picked.columns, dtype=object)
    cells = picked.to_numpy()
    chosen["labels"] = [
        ", ".join(f"{name} ×{n}" for name, n in zip(names[row > 0], row[row > 0], strict=True))
        for row in cells
    ]  # one line per item shown (at most N_DISPUTED)
    if _ok(view.labels):
        chosen["consensus"] = view.labels["label"].reindex(chosen.index)
    note = (
        f'<p class="note">The {len(chosen)} items with the lowest observed agreement, of '
        f"{len(items)}; labels: each label given and how many times.</p>"
    )
    return note + table(chosen, "disputed")


def consensus(view: View, context: dict[str, Any]) -> str:
    """The consensus model's fit, its label shares and its priors."""
    if not _ok(view.labels):
        return _first_failure(view.labels)
    out = table(view.fit, "fit", caption=f"model: {context['consensus']}")
    labels = view.labels["label"]
    shares = labels.value_counts(sort=False).rename("items").to_frame()
    shares["share"] = shares["items"] / len(labels)
    if _ok(view.priors):
        shares["prior"] = view.priors.reindex(shares.index)
    shares.index.name = "label"
    out += table(shares, "consensus_labels", caption="consensus labels")
    probability = view.labels[["probability", "margin"]].mean().to_frame("mean").T
    probability.index.name = "over items"
    return out + table(probability, "consensus_probability", caption="confidence of the labels")


def gold(view: View, context: dict[str, Any]) -> str:
    """Each annotator against the gold labels (macro averages over the categories)."""
    frame = view.against
    if frame is None:
        return ""
    if not _ok(frame):
        return _first_failure(frame)
    return table(frame, "against", caption="macro averages over the categories")


def scores(view: View, context: dict[str, Any]) -> str:
    """The intraclass correlations and the score consensus of numeric ratings."""
    if view.icc is None:
        return ""
    out = ""
    out += _first_failure(view.icc) or table(view.icc, "icc", caption="intraclass correlation")
    if _ok(view.scores):
        out += table(view.scores, "severity", caption="each rater's severity (score consensus)")
        components = view.components
        frame = components.to_frame("variance") if isinstance(components, pd.Series) else (
            components.T.set_axis(["variance"], axis=1)
        )  # fmt: skip
        frame.index.name = "component"
        out += table(frame, "variance_components", caption="variance components")
    else:
        out += _first_failure(view.scores)
    return out


#: The sections, in the page's order: (id, heading, builder).
SECTIONS: list[Section] = [
    ("data", "The data", data),
    ("coefficients", "Coefficients", coefficients),
    ("per-category", "Per category", per_category),
    ("pairwise", "Pairwise agreement", pairwise),
    ("per-annotator", "Per annotator", per_annotator),
    ("disputed", "Most disputed items", disputed),
    ("consensus", "Consensus", consensus),
    ("gold", "Agreement with the gold labels", gold),
    ("numeric", "ICC and score consensus", scores),
]


def groups_summary(report: Any) -> str:
    """The ``by=`` summary: one row per group, one column per coefficient's value."""
    if not _ok(report):
        return _first_failure(report)
    values = report["value"].unstack(level=-1)
    values = values[list(dict.fromkeys(report.index.get_level_values(-1)))]
    return table(values, "groups", caption="each group's coefficients (value)")
