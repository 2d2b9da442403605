"""The page's charts, written as inline SVG by hand: no plotting library, nothing to load.

Two kinds: a heatmap of a raters x raters matrix (pairwise kappa) and horizontal bars (a
coefficient per row, with its interval when there is one). Each mark carries the number it
draws (``data-row``, ``data-col``, ``data-value``) and a tooltip (``<title>``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from ._template import esc, label_of, number, shortened

__all__ = ["bars", "heatmap"]

_FONT = 11
_NEG = (178, 24, 43)  # red, for -1
_MID = (247, 247, 247)
_POS = (33, 102, 172)  # blue, for +1


def colour(value: float) -> str:
    """A diverging colour for ``value`` in [-1, 1] (grey for nan)."""
    if not math.isfinite(value):
        return "#d0d7de"
    t = min(abs(value), 1.0)
    end = _POS if value >= 0 else _NEG
    r, g, b = (round(m + (e - m) * t) for m, e in zip(_MID, end, strict=True))
    return f"#{r:02x}{g:02x}{b:02x}"


def _text_width(labels: Sequence[str]) -> int:
    return int(max((len(s) for s in labels), default=0) * _FONT * 0.62) + 8


def heatmap(matrix: pd.DataFrame, name: str, title: str) -> str:
    """``matrix`` (rows and columns the same raters) as coloured cells from -1 to 1, the
    values written in the cells when there is room."""
    rows = shortened(list(matrix.index))
    cols = shortened(list(matrix.columns))
    n, m = matrix.shape
    size = max(14, min(44, 560 // max(n, m, 1)))
    left = _text_width(rows)
    top = _text_width(cols)
    width, height = left + m * size + 70, top + n * size + 10
    values = matrix.to_numpy(dtype=float)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" data-chart="{esc(name)}" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'font-size="{_FONT}"><title>{esc(title)}</title>'
    ]
    for i, label in enumerate(rows):  # one label per rater (at most a few dozen)
        y = top + i * size + size / 2 + 4
        parts.append(f'<text x="{left - 6}" y="{y:.1f}" text-anchor="end">{esc(label)}</text>')
    for j, label in enumerate(cols):
        x = left + j * size + size / 2 + 4
        parts.append(
            f'<text transform="translate({x:.1f},{top - 6}) rotate(-90)">{esc(label)}</text>'
        )
    write = size >= 34
    for (i, j), v in np.ndenumerate(values):  # the cells of a raters x raters matrix
        full, shown = number(v) or ("nan", "–")
        key_r, key_c = label_of(matrix.index[int(i)]), label_of(matrix.columns[int(j)])
        x, y = left + j * size, top + i * size
        parts.append(
            f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{colour(v)}" '
            f'stroke="#fff" data-row="{esc(key_r)}" data-col="{esc(key_c)}" '
            f'data-value="{full}"><title>{esc(key_r)} × {esc(key_c)}: {shown}</title></rect>'
        )
        if write and math.isfinite(v):
            ink = "#fff" if abs(v) > 0.6 else "#1f2328"
            parts.append(
                f'<text x="{x + size / 2:.1f}" y="{y + size / 2 + 4:.1f}" text-anchor="middle" '
                f'fill="{ink}" font-size="10">{v:.2f}</text>'
            )
    # The colour scale.
    x0 = left + m * size + 16
    for k, v in enumerate(np.linspace(1, -1, 9)):
        parts.append(
            f'<rect x="{x0}" y="{top + k * 12}" width="12" height="12" fill="{colour(v)}"/>'
        )
    parts.append(f'<text x="{x0 + 16}" y="{top + 10}">1</text>')
    parts.append(f'<text x="{x0 + 16}" y="{top + 4 * 12 + 10}">0</text>')
    parts.append(f'<text x="{x0 + 16}" y="{top + 8 * 12 + 10}">−1</text>')
    parts.append("</svg>")
    return "".join(parts)


def bars(
    values: pd.Series,
    name: str,
    title: str,
    *,
    low: pd.Series | None = None,
    high: pd.Series | None = None,
    marks: Sequence[float] = (),
    span: tuple[float, float] | None = None,
) -> str:
    """One horizontal bar per row of ``values`` from 0, with the interval ``low``-``high``
    as a whisker, and dashed lines at ``marks``; the axis covers ``span`` and the data."""
    labels = shortened(list(values.index))
    v = values.to_numpy(dtype=float)
    lo = v if low is None else low.to_numpy(dtype=float)
    hi = v if high is None else high.to_numpy(dtype=float)
    seen = np.concatenate([v, lo, hi, list(marks), [0.0], list(span or ())])
    seen = seen[np.isfinite(seen)]
    start, stop = float(seen.min()), float(seen.max())
    if stop - start < 1e-9:
        stop = start + 1
    row, left, plot = 18, _text_width(labels), 420
    width, height = left + plot + 70, 22 + row * len(v) + 18

    def at(x: float) -> float:
        return left + (x - start) / (stop - start) * plot

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" data-chart="{esc(name)}" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'font-size="{_FONT}"><title>{esc(title)}</title>'
    ]
    bottom = 22 + row * len(v)
    for tick in np.linspace(start, stop, 5):
        parts.append(
            f'<line x1="{at(tick):.1f}" y1="14" x2="{at(tick):.1f}" y2="{bottom}" '
            'stroke="#eaeef2"/>'
            f'<text x="{at(tick):.1f}" y="{bottom + 13}" text-anchor="middle" '
            f'fill="#59636e">{tick:.2g}</text>'
        )
    for k, (label, x) in enumerate(zip(labels, v, strict=True)):  # one bar per row shown
        y = 22 + k * row
        key = label_of(values.index[k])
        full, shown = number(x) or ("nan", "–")
        parts.append(f'<text x="{left - 6}" y="{y + 12}" text-anchor="end">{esc(label)}</text>')
        if math.isfinite(x):
            a, b = sorted((at(0.0), at(x)))
            fill = "#0969da" if x >= 0 else "#cf222e"
            parts.append(
                f'<rect x="{a:.1f}" y="{y + 3}" width="{max(b - a, 1):.1f}" height="{row - 6}" '
                f'fill="{fill}" fill-opacity="0.75" data-row="{esc(key)}" '
                f'data-value="{full}"><title>{esc(key)}: {shown}</title></rect>'
            )
        if math.isfinite(lo[k]) and math.isfinite(hi[k]) and (low is not None):
            mid = y + row / 2
            parts.append(
                f'<line x1="{at(lo[k]):.1f}" y1="{mid}" x2="{at(hi[k]):.1f}" y2="{mid}" '
                'stroke="#1f2328" stroke-width="1.5"/>'
            )
        parts.append(f'<text x="{left + plot + 6}" y="{y + 12}" fill="#1f2328">{shown}</text>')
    parts.append(
        f'<line x1="{at(0.0):.1f}" y1="14" x2="{at(0.0):.1f}" y2="{bottom}" stroke="#59636e"/>'
    )
    for mark in marks:
        parts.append(
            f'<line x1="{at(mark):.1f}" y1="10" x2="{at(mark):.1f}" y2="{bottom}" '
            'stroke="#bf8700" stroke-dasharray="4 3"/>'
            f'<text x="{at(mark):.1f}" y="9" text-anchor="middle" fill="#7d4e00">{mark:g}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
