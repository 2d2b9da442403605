"""One self-contained HTML report page of a :class:`~pdagree.Ratings`.

:func:`to_html` runs the public methods of the ratings (:mod:`._results`), writes a section of
tables and charts for each (:mod:`._sections`), the charts as inline SVG written by hand
(:mod:`._svg`), in one page with its style sheet inline (:mod:`._template`): no script, no
font, no image and no link to another host, so that it opens offline from a mail attachment.
The ratings are passed in (this package sits below :mod:`pdagree.ratings`, which forwards its
``to_html`` here).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .._version import __version__
from .._warnings import listed
from ._results import View, compute
from ._sections import SECTIONS, groups_summary, warned
from ._template import document, esc, label_of

if TYPE_CHECKING:
    from ..ratings import Ratings

__all__ = ["MAX_GROUPS", "to_html"]

#: The most ``by=`` groups that get a section of their own (the summary lists them all).
MAX_GROUPS = 50


def _sections(
    view: View, context: dict[str, Any], prefix: str = ""
) -> tuple[str, list[tuple[str, str]]]:
    """The sections that apply to ``view``, and their (id, heading) for the contents."""
    out, navigation = [], []
    for key, heading, build in SECTIONS:
        body = build(view, context)
        if body:
            out.append(
                f'<section id="{prefix}{key}" data-section="{key}"><h2>{esc(heading)}</h2>'
                f"{body}</section>"
            )
            navigation.append((prefix + key, heading))
    return "\n".join(out), navigation


def to_html(
    ratings: Ratings,
    path: str | os.PathLike[str] | None = None,
    *,
    title: str | None = None,
    gold: Any = None,
    consensus: str = "dawid_skene",
    read_warnings: Sequence[str] = (),
) -> str | None:
    """One self-contained HTML page that reports on these ratings, to share or archive.

    The sections: the data (items, raters, labels, layout, the share of missing ratings,
    and the warnings raised while reading and computing); every coefficient that applies
    (:meth:`report`) with its 95% confidence interval and its band on Landis & Koch's and
    Krippendorff's scales; each category (:meth:`per_category`); the raters' pairwise Cohen's
    kappa as a heatmap (:meth:`pairwise`); each annotator (:meth:`per_rater`, the consensus
    model's quality, the shares of their labels, the annotator bias); the 20 most disputed
    items (:meth:`items`) with their labels and consensus label; the consensus
    (:meth:`consensus`); the agreement with ``gold`` when given (:meth:`against`, macro
    averages); for numeric ratings the ICC (:meth:`icc_table`) and the score consensus
    (:meth:`consensus_scores`). With ``by=`` a table of every group's coefficients comes
    first, then the sections of each group (of the first 50). Continuous scores (numeric
    ratings with more than 50 distinct values) get the coefficients, the items, Lin's
    concordance of each pair, the ICC and the score consensus, and a note in place of the
    tables by value (per category, the labels' shares, the consensus labels). Intervals that
    come from the bootstrap are drawn with ``rng=0``, so the page is the same each time.

    Every number on the page is the value of the method named, rounded to 4 decimals in the
    text and whole in the cell's ``data-value`` attribute. The page holds no script and
    loads nothing: the style sheet is inline, the charts are inline SVG (written without
    matplotlib), and a Content-Security-Policy forbids any other source. Every label, name
    and title is escaped. A section that does not apply to the data says why.

    Parameters
    ----------
    path : str or path-like, optional
        Write the page (UTF-8) to this file and return ``None``; by default return it.
    title : str, optional
        The page's title (default: "Agreement report").
    gold : Series or DataFrame, optional
        Reference labels, as :meth:`against` takes them.
    consensus : str, default "dawid_skene"
        The consensus model (a ``method`` of :meth:`consensus`), fitted with ``rng=0``.

    Returns
    -------
    str or None
        The page, or ``None`` when it was written to ``path``.

    Warns
    -----
    pdagree's warnings that the methods raise while the page is computed are listed on the
    page, in its data section, rather than emitted (kept for this call only: other threads'
    warnings are theirs); numpy's floating-point warnings are off while it is computed.

    Examples
    --------
    >>> import pdagree
    >>> page = pdagree.datasets.load("fleiss1971").agree.to_html(title="Diagnoses")
    >>> page.startswith("<!DOCTYPE html>"), "<script" in page
    (True, False)
    """
    # pdagree's warnings kept in this context, not raised; numpy's floating-point ones off
    # (thread-local): the process's warning filters are not swapped (other threads' warnings)
    with np.errstate(all="ignore"):
        computed, caught = listed(compute, ratings, gold, consensus)
    raised = list(dict.fromkeys([*read_warnings, *caught]))
    context: dict[str, Any] = {
        "layout": ratings.layout,
        "consensus": consensus,
        "warnings": raised,
    }
    groups = ratings.groups
    heading = title if title is not None else "Agreement report"
    if groups is None:
        body, navigation = _sections(View.of(computed, None, 0), context)
    else:
        n_levels = groups.nlevels
        parts = [
            '<section id="groups" data-section="groups"><h2>Groups</h2>'
            f'<p class="note">{len(groups)} groups by {esc(", ".join(map(str, groups.names)))}'
            + (f"; the first {MAX_GROUPS} have a section each" if len(groups) > MAX_GROUPS else "")
            + f".</p>{groups_summary(computed.report)}{warned(raised)}</section>"
        ]
        navigation = [("groups", "Groups")]
        for k, key in enumerate(groups[:MAX_GROUPS]):  # one section per group shown
            view = View.of(computed, key, n_levels)
            name = label_of(key)
            sections, _ = _sections(view, {**context, "warnings": ()}, f"group-{k}-")
            parts.append(
                f'<section class="group" id="group-{k}" data-group="{esc(name)}">'
                f"<h2>Group: {esc(name)}</h2>{sections}</section>"
            )
            navigation.append((f"group-{k}", name))
        body = "\n".join(parts)
    footer = (
        f"Made with pdagree {esc(__version__)}. This page runs no script and loads nothing: "
        "its style and charts are inline."
    )
    page = document(heading, navigation, body, footer)
    if path is None:
        return page
    with open(os.fspath(path), "w", encoding="utf-8") as handle:
        handle.write(page)
    return None
