"""The page's frame: its style sheet, escaping, numbers, labels and tables.

Every user string (a label, a rater, a column name, a title, a warning) goes through
:func:`esc`. Every number is written twice: at full precision in ``data-value`` (what a test
reads back and compares with the method that computed it) and rounded in the cell's text.
"""

from __future__ import annotations

import html
import math
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._labels import label_of, shared_start

__all__ = ["CSS", "document", "esc", "label_of", "number", "shortened", "table"]

#: Longest label shown whole; longer ones are cut (the whole label stays in a tooltip).
SHORT = 24

CSS = """
:root{--ink:#1f2328;--muted:#59636e;--line:#d1d9e0;--band:#f6f8fa;--accent:#0550ae}
*{box-sizing:border-box}
body{margin:0;color:var(--ink);background:#fff;
 font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
header,main,footer{max-width:1180px;margin:0 auto;padding:0 24px}
header{padding-top:20px;border-bottom:1px solid var(--line)}
h1{font-size:26px;margin:0 0 4px}
h2{font-size:20px;margin:28px 0 8px;padding-bottom:4px;border-bottom:1px solid var(--line)}
h3{font-size:16px;margin:18px 0 6px}
p{margin:6px 0}
.meta,.note,caption{color:var(--muted);font-size:13px}
caption{text-align:left;caption-side:top;padding:2px 0 4px}
nav ul{list-style:none;margin:8px 0 12px;padding:0;display:flex;flex-wrap:wrap;gap:4px 14px}
nav a,a{color:var(--accent);text-decoration:none}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin:6px 0 12px;font-size:13px}
th,td{padding:3px 9px;border-bottom:1px solid var(--line);text-align:left;white-space:nowrap}
thead th{border-bottom:2px solid var(--line);background:var(--band)}
tbody tr:nth-child(even){background:#fbfcfd}
td.num{text-align:right;font-variant-numeric:tabular-nums}
td.nan{color:var(--muted)}
.band{display:inline-block;padding:0 6px;border-radius:8px;font-size:12px}
.b-poor,.b-unreliable{background:#ffebe9;color:#82071e}
.b-slight,.b-fair,.b-tentative{background:#fff8c5;color:#633c01}
.b-moderate{background:#ddf4ff;color:#0a3069}
.b-substantial,.b-almost-perfect,.b-reliable{background:#dafbe1;color:#116329}
.warn{background:#fff8c5;border-left:3px solid #d4a72c;padding:6px 10px;margin:6px 0}
.grid{display:flex;flex-wrap:wrap;gap:8px 32px;align-items:flex-start}
svg{display:block;margin:6px 0 12px;max-width:100%;height:auto}
svg text{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif}
section.group{border-top:3px solid var(--line);margin-top:32px}
footer{color:var(--muted);font-size:12px;padding:24px;border-top:1px solid var(--line);
 margin-top:32px}
"""

# Nothing may load from anywhere: no script, no font, no image but inline ones.
_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def esc(value: Any) -> str:
    """``str(value)``, escaped for HTML text and attribute values."""
    return html.escape(str(value), quote=True)


def shortened(labels: Sequence[Hashable], limit: int = SHORT) -> list[str]:
    """Labels cut to ``limit`` characters so that they still tell apart: a prefix and a
    suffix they all share are shortened first (``annota…07…`` for
    ``annotator.number07@example.com``), then the middle of what is left."""
    texts = [" ".join(label_of(k).split()) for k in labels]
    if not texts or all(len(s) <= limit for s in texts):
        return texts
    prefix = shared_start(texts) if len(texts) > 1 else ""
    suffix = shared_start([s[::-1] for s in texts])[::-1] if len(texts) > 1 else ""
    half = (limit - 1) // 2
    out = []
    for s in texts:
        if len(s) <= limit:
            out.append(s)
            continue
        core = s
        if len(prefix) + len(suffix) < len(s) and (prefix or suffix):
            core = s[len(prefix) : len(s) - len(suffix)]
            core = (prefix[:6] + "…" if prefix else "") + core + ("…" if suffix else "")
        out.append(core if len(core) <= limit else f"{core[:half]}…{core[-half:]}")
    return out


def number(value: Any) -> tuple[str, str] | None:
    """``(data-value, shown)`` for a number (full precision, and rounded), ``None`` for
    anything else."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.number)):
        return None
    if isinstance(value, (int, np.integer)):
        return str(int(value)), str(int(value))
    x = float(value)
    if math.isnan(x):
        return "nan", "–"
    if math.isinf(x):
        return repr(x), "∞" if x > 0 else "−∞"
    return repr(x), f"{x:.4f}" if x == 0 or 1e-4 <= abs(x) < 1e5 else f"{x:.3e}"


def cell(value: Any, column: Hashable, raw: bool = False) -> str:
    """One ``<td>``: a number with its full value, or text (escaped unless ``raw``: HTML
    the page wrote itself)."""
    col = f' data-col="{esc(column)}"'
    parsed = number(value)
    if parsed is None:
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return f'<td class="nan"{col}>–</td>'
        return f"<td{col}>{value if raw else esc(value)}</td>"
    full, shown = parsed
    kind = "num nan" if full == "nan" else "num"
    return f'<td class="{kind}"{col} data-value="{full}">{shown}</td>'


def table(
    frame: pd.DataFrame, name: str, *, caption: str | None = None, raw: Sequence[str] = ()
) -> str:
    """``frame`` as an HTML table named ``name`` (``data-table``): each row keyed by its index
    label (``data-row``), each cell by its column (``data-col``); the columns ``raw`` hold
    HTML the page wrote (escaped where it was written)."""
    columns = [label_of(c) for c in frame.columns]
    heads = "".join(
        f'<th scope="col" title="{esc(c)}">{esc(s)}</th>'
        for c, s in zip(columns, shortened(columns), strict=True)
    )
    index_name = label_of(frame.index.name) if frame.index.name is not None else ""
    keys = [label_of(k) for k in frame.index]
    rows = []
    values = frame.to_numpy(dtype=object)
    for key, short, row in zip(keys, shortened(keys), values, strict=True):  # shown rows
        cells = "".join(cell(v, c, c in raw) for v, c in zip(row, columns, strict=True))
        rows.append(
            f'<tr data-row="{esc(key)}"><th scope="row" title="{esc(key)}">{esc(short)}</th>'
            f"{cells}</tr>"
        )
    cap = f"<caption>{esc(caption)}</caption>" if caption else ""
    return (
        f'<div class="scroll"><table data-table="{esc(name)}">{cap}<thead><tr>'
        f"<th>{esc(index_name)}</th>{heads}</tr></thead><tbody>{''.join(rows)}</tbody>"
        "</table></div>"
    )


def document(title: str, navigation: list[tuple[str, str]], body: str, footer: str) -> str:
    """The whole page: head (style sheet, no script), title, contents, sections."""
    links = "".join(f'<li><a href="#{esc(i)}">{esc(t)}</a></li>' for i, t in navigation)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_POLICY}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="generator" content="pdagree"><title>{esc(title)}</title>'
        f"<style>{CSS}</style></head>\n<body><header><h1>{esc(title)}</h1>"
        f"<nav><ul>{links}</ul></nav></header>\n<main>{body}</main>\n"
        f"<footer>{footer}</footer></body></html>\n"
    )
