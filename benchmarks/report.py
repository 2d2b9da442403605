"""Markdown tables, a JSON dump and a plot of the rows of a run."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from timing import RTOL, Row

__all__ = ["markdown", "plot", "to_json"]

MAIN_CONTENDERS = (
    "pdagree",
    "floor",
    "statsmodels",
    "krippendorff",
    "krippendorff (text)",
    "irrCAC",
    "nltk",
)
COEFFICIENT_TITLES = {"fleiss": "Fleiss' kappa", "alpha": "Krippendorff's alpha (nominal)"}


def seconds(t: float | None) -> str:
    """Seconds to 3 significant digits, without an exponent."""
    if t is None:
        return "—"
    return np.format_float_positional(t, precision=3, fractional=False, trim="-")


def times(t: float | None) -> str:
    """A ratio such as ``3.4x``."""
    if t is None:
        return "—"
    return f"{t:.3g}x" if t < 100 else f"{t:.0f}x"


def _table(header: Sequence[str], body: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(cells) + " |" for cells in body]
    return [*lines, ""]


def _notes(rows: Sequence[Row]) -> list[str]:
    seen: dict[str, None] = {}
    for row in rows:
        if row.note and not row.times:
            seen.setdefault(f"{row.contender}: {row.note}", None)
    return [f"- {note}" for note in seen] + ([""] if seen else [])


def _main_section(rows: Sequence[Row]) -> list[str]:
    main = [r for r in rows if r.scenario == "main"]
    if not main:
        return []
    lines = [
        "## pdagree against the floor and the peers",
        "",
        "Each cell: the contender's median time over pdagree's median time on the same frame "
        "(below 1x: faster than pdagree), and its median time in seconds. 10 raters, 5 string "
        "categories, missing ratings left out at random. `—`: not run (see the notes).",
        "",
    ]
    columns = sorted({(r.n_annotations or 0, r.missing or 0.0) for r in main})
    header = ["contender", *(f"10^{round(np.log10(n))}, {m:.0%} missing" for n, m in columns)]
    for coefficient, title in COEFFICIENT_TITLES.items():
        these = [r for r in main if r.what == coefficient]
        if not these:
            continue
        body = []
        for name in MAIN_CONTENDERS:
            cells = {(r.n_annotations, r.missing): r for r in these if r.contender == name}
            if not cells:
                continue
            row = [name]
            for key in columns:
                r = cells.get(key)
                if r is None or r.median is None:
                    row.append("—")
                else:
                    row.append(f"{times(r.ratio)} ({seconds(r.median)} s)")
            body.append(row)
        lines += [f"### {title}", "", *_table(header, body), *_notes(these)]
    return lines


def _detail_section(rows: Sequence[Row]) -> list[str]:
    body = []
    for r in rows:
        if r.scenario != "main":
            continue
        body.append(
            [
                r.case,
                r.contender,
                seconds(r.median),
                seconds(r.min),
                str(len(r.times)),
                times(r.ratio),
                times(r.ratio_floor),
                repr(r.value) if r.value is not None else "—",
            ]
        )
    if not body:
        return []
    header = ["case", "contender", "median s", "min s", "runs", "x pdagree", "x floor", "value"]
    return ["### Every measurement", "", *_table(header, body)]


def _simple_section(rows: Sequence[Row], scenario: str, title: str, intro: str) -> list[str]:
    these = [r for r in rows if r.scenario == scenario]
    if not these:
        return []
    body = [
        [
            r.case,
            r.contender,
            seconds(r.median),
            seconds(r.min),
            str(len(r.times)),
            f"{times(r.ratio)} {r.baseline}" if r.contender != r.baseline else "baseline",
            seconds(r.cpu_median),
            times(r.cpu_ratio) if r.contender != r.baseline else "baseline",
            r.note,
        ]
        for r in these
    ]
    header = [
        "case",
        "contender",
        "median s",
        "min s",
        "runs",
        "ratio to",
        "CPU median s",
        "CPU ratio",
        "note",
    ]
    return [f"### {title}", "", intro, "", *_table(header, body)]


def _coefficients_section(rows: Sequence[Row]) -> list[str]:
    these = [r for r in rows if r.scenario == "coefficients"]
    if not these:
        return []
    pairs: dict[str, dict[str, Row]] = {}
    for r in these:
        pairs.setdefault(r.what, {})[r.contender] = r
    body = []
    for method, pair in pairs.items():
        p, f = pair["pdagree"], pair["floor"]
        case = p.case.split(", ", 1)[1]
        body.append(
            [
                f"`{method}()`",
                case,
                seconds(p.median),
                seconds(f.median),
                times(p.ratio),
                seconds(p.cpu_median),
                seconds(f.cpu_median),
                times(p.cpu_ratio),
            ]
        )
    header = [
        "coefficient",
        "data",
        "pdagree median s",
        "floor median s",
        "pdagree / floor",
        "pdagree CPU s",
        "floor CPU s",
        "CPU pdagree / floor",
    ]
    intro = (
        "End to end from the long frame (`df.agree(item=, rater=, label=).<method>()`) against "
        "the floor of its family: factorize, one bincount (two for Cohen and Conger), the "
        "formula (`benchmarks/floors.py`)."
    )
    return [
        "### Every nominal coefficient against its floor",
        "",
        intro,
        "",
        *_table(header, body),
    ]


def _storage_section(rows: Sequence[Row]) -> list[str]:
    these = [r for r in rows if r.scenario == "storage"]
    if not these:
        return []
    lines = [
        "### By string storage",
        "",
        "The same frames with the `rater` and `label` text held as PyArrow-backed `str` "
        "(pandas 3's default where PyArrow is installed), Python-backed `str` (its default "
        "without PyArrow, which neither pandas nor pdagree requires), `object` (pandas 2's "
        "default) and `string[pyarrow]` (`pd.ArrowDtype`, from "
        '`read_csv(dtype_backend="pyarrow")`): each is hashed differently, by pdagree, the '
        "floor and the peers alike.",
        "",
    ]
    for coefficient, title in COEFFICIENT_TITLES.items():
        cases: dict[str, dict[str, Row]] = {}
        for r in these:
            if r.what == coefficient:
                cases.setdefault(r.case, {})[r.contender] = r
        if not cases:
            continue
        peer = next(n for n in next(iter(cases.values())) if n not in ("pdagree", "floor"))
        body = []
        for case in cases.values():
            p, f, q = case["pdagree"], case["floor"], case.get(peer)
            peer_ok = q is not None and q.median is not None
            body.append(
                [
                    str(p.extra.get("storage", "")),
                    f"{p.missing or 0.0:.0%}",
                    seconds(p.median),
                    f"{seconds(f.median)} ({times(p.ratio_floor)})",
                    f"{seconds(q.median)} ({times(q.ratio)})" if peer_ok and q else "—",
                    times(q.median / f.median) if peer_ok and q and f.median else "—",
                ]
            )
        header = [
            "text storage",
            "missing",
            "pdagree s",
            "floor s (pdagree / floor)",
            f"{peer} s ({peer} / pdagree)",
            f"{peer} / floor",
        ]
        n = next(iter(cases.values()))["pdagree"].n_annotations or 0
        lines += [f"#### {title}, {n:,} annotations", "", *_table(header, body)]
        lines += _notes([r for c in cases.values() for r in c.values()])
    return lines


def _interval_section(rows: Sequence[Row]) -> list[str]:
    these = [r for r in rows if r.scenario == "interval"]
    if not these:
        return []
    floor = next((r for r in these if r.contender == "floor"), None)
    body = []
    for r in these:
        traced = r.extra.get("tracemalloc_peak_mib")
        floor_traced = floor.extra.get("tracemalloc_peak_mib") if floor else None
        body.append(
            [
                r.contender,
                seconds(r.median),
                seconds(r.min),
                times(r.ratio) if r.contender != "floor" else "baseline",
                times(r.cpu_ratio) if r.contender != "floor" else "baseline",
                f"{traced:.1f}" if traced is not None else "—",
                f"{r.extra.get('rss_growth_mib', float('nan')):.1f}",
                times(traced / floor_traced) if traced and floor_traced else "—",
            ]
        )
    header = [
        "contender",
        "median s",
        "min s",
        "time / floor",
        "CPU / floor",
        "peak traced MiB",
        "peak RSS growth MiB",
        "traced / floor",
    ]
    frame_mib = these[0].extra.get("frame_mib", float("nan"))
    intro = (
        f"{these[0].case}. The floor sums each item's values and squares with `np.bincount`. "
        "Memory of one call in a fresh interpreter: the peak traced by `tracemalloc` (NumPy "
        "arrays included) and the growth of the peak resident set over the resident set "
        f"before the call (the frame itself takes {frame_mib:.1f} MiB)."
    )
    return ["### Interval alpha on all-distinct values: time and memory", "", intro, "",
            *_table(header, body)]  # fmt: skip


def _pick(rows: Sequence[Row], scenario: str, contender: str, case: str = "") -> list[Row]:
    return [
        r
        for r in rows
        if r.scenario == scenario and r.contender == contender and case in r.case and r.times
    ]


def _status(wall: float | None, cpu: float | None, ok: Any) -> str:
    if wall is None:
        return "not measured"
    if ok(wall):
        return "met"
    if cpu is not None and ok(cpu):
        return "met in CPU time, not in wall-clock time"
    return "missed"


def _glance(rows: Sequence[Row]) -> list[str]:
    """One line per target of issue #13: the measured ratio (wall clock and CPU time)."""
    body: list[list[str]] = []

    def add(target: str, what: str, wall: float | None, cpu: float | None, ok: Any) -> None:
        body.append([target, what, times(wall), times(cpu), _status(wall, cpu, ok)])

    coefficients = _pick(rows, "coefficients", "pdagree")
    if coefficients:
        worst = max(coefficients, key=lambda r: r.ratio or 0.0)
        worst_cpu = max(coefficients, key=lambda r: r.cpu_ratio or 0.0)
        add(
            "every nominal coefficient within 1.5x of its floor",
            f"worst of {len(coefficients)}: `{worst.what}()` (CPU: `{worst_cpu.what}()`)",
            worst.ratio,
            worst_cpu.cpu_ratio,
            lambda x: x <= 1.5,
        )
    for peer, coefficient, need in (
        ("statsmodels", "fleiss", 3.0),
        ("krippendorff (text)", "alpha", 20.0),  # the target: krippendorff on string labels
        ("krippendorff", "alpha", 20.0),  # the same with the labels turned into codes first
    ):
        peers = [
            r
            for r in _pick(rows, "main", peer)
            if r.what == coefficient and r.n_annotations == 10**6
        ]
        if peers:
            slowest = min(peers, key=lambda r: r.ratio or 0.0)
            add(
                f"at least {need:g}x faster than {peer} at 10^6",
                f"{peer} / pdagree, {slowest.case.split(', ', 1)[1]}",
                slowest.ratio,
                slowest.cpu_ratio,
                lambda x, need=need: x >= need,
            )
    at_target = [r for r in rows if r.n_annotations == 10**6]  # the targets' size
    storage = [r for r in _pick(at_target, "storage", "pdagree") if r.ratio_floor is not None]
    if storage:
        worst = max(storage, key=lambda r: r.ratio_floor or 0.0)
        add(
            "fleiss and alpha within 1.5x of the floor, any text storage",
            f"worst of {len(storage)}: {worst.case}",
            worst.ratio_floor,
            None,
            lambda x: x <= 1.5,
        )
    text_peer = [r for r in _pick(at_target, "storage", "krippendorff (text)") if r.ratio]
    if text_peer:
        slowest = min(text_peer, key=lambda r: r.ratio or 0.0)
        add(
            "at least 20x faster than krippendorff (text), any text storage",
            f"krippendorff (text) / pdagree, {slowest.case.split(', ', 1)[1]}",
            slowest.ratio,
            slowest.cpu_ratio,
            lambda x: x >= 20.0,
        )
    for r in _pick(rows, "by", "pdagree by="):
        add("`by=` within 2x of the ungrouped call", r.case, r.ratio, r.cpu_ratio,
            lambda x: x <= 2.0)  # fmt: skip
    for r in _pick(rows, "interval", "pdagree"):
        add("interval alpha within 10x of its floor", r.case, r.ratio, r.cpu_ratio,
            lambda x: x <= 10.0)  # fmt: skip
        traced = r.extra.get("tracemalloc_peak_mib")
        rss = r.extra.get("rss_growth_mib")
        if traced is not None:
            peak = max(traced, rss or 0.0)
            body.append(
                [
                    "interval alpha under 1 GiB at its peak",
                    "peak traced / RSS growth of one call",
                    f"{traced:.0f} / {rss or float('nan'):.0f} MiB",
                    "",
                    "met" if peak < 1024 else "missed",
                ]
            )
    for r in _pick(rows, "bootstrap", "pdagree + bootstrap SE"):
        add("1,000 bootstrap resamples within 50x of one call", r.case, r.ratio, r.cpu_ratio,
            lambda x: x <= 50.0)  # fmt: skip
    for r in _pick(rows, "import", "import pdagree after pandas"):
        body.append(
            [
                "`import pdagree` adds under 0.1 s to `import pandas`",
                "`import pdagree` after `import pandas`, median",
                f"{seconds(r.median)} s",
                f"{seconds(r.cpu_median)} s",
                _status(r.median, r.cpu_median, lambda x: x < 0.1),
            ]
        )
    if not body:
        return []
    header = ["target (issue #13)", "measured", "wall-clock", "CPU time", "status"]
    intro = (
        "Ratios of median times from this run (round-robin, one process); the CPU column "
        "divides median CPU times (`time.process_time`), which other processes on the shared "
        "machine inflate far less than the wall clock."
    )
    return ["### At a glance", "", intro, "", *_table(header, body)]


def _load_note(meta: dict[str, Any]) -> str:
    load = meta.get("load")
    if not load:
        return ""
    return (
        f"1-minute load average of the machine at the start of the run {load['start']:.2f}, "
        f"highest at a case's start {load['max']:.2f}, at the end {load['end']:.2f} "
        f"({meta.get('cpus', '?')} CPUs; a load above the benchmark's own 1 means other "
        "processes competed for the CPUs, which adds noise to the times but, with "
        "round-robin rounds, less to the ratios).\n"
    )


def markdown(rows: Sequence[Row], meta: dict[str, Any]) -> str:
    """The results page: run facts, the main comparison, then the issue's targets."""
    versions = ", ".join(f"{k} {v}" for k, v in meta["versions"].items())
    lines = [
        f"# pdagree benchmarks ({meta['mode']} run)",
        "",
        f"`{meta['command']}` on {meta['date']}, {meta['machine']}, "
        f"in {meta['elapsed'] / 60:.1f} minutes. pdagree commit {meta['commit']}.",
        "",
        f"Versions: {versions}.",
        "",
        _load_note(meta),
        "Times are wall-clock seconds of one call, end to end from the long frame; *median* and "
        "*min* over the timed rounds, which ran round-robin (each round calls every contender "
        "once, in turn). Ratios are median over median. Every contender's value was checked "
        f"against pdagree's (relative tolerance {RTOL:g}) before it was timed. "
        "How to run and what each column means: [benchmarks/README.md](../README.md).",
        "",
        f"![times and ratios]({meta['plot']})",
        "",
    ]
    lines += _main_section(rows)
    lines += ["## Targets", ""]
    lines += _glance(rows)
    lines += _coefficients_section(rows)
    lines += _storage_section(rows)
    lines += _simple_section(
        rows,
        "by",
        "`by=` with many groups",
        'The grouped call (`by="group"`, one row per group) against the ungrouped call on '
        "the same rows; `floor by=` computes every group's kappa with bincounts.",
    )
    lines += _simple_section(
        rows,
        "bootstrap",
        "Bootstrap standard error",
        '`r = df.agree(...).fleiss(); r.standard_error(method="bootstrap", '
        "n_resamples=1000, rng=0)` against the plain call.",
    )
    lines += _interval_section(rows)
    lines += _simple_section(
        rows,
        "import",
        "Import time",
        "The import statement timed inside a fresh interpreter (`python -c`), interleaved; "
        "`import pdagree` includes importing pandas.",
    )
    lines += _detail_section(rows)
    return "\n".join(lines).rstrip() + "\n"


def to_json(rows: Sequence[Row], meta: dict[str, Any]) -> str:
    out = []
    for r in rows:
        d = dataclasses.asdict(r)
        d["median"], d["min"] = r.median, r.min
        out.append(d)
    return json.dumps({"meta": meta, "rows": out}, indent=1, default=float)


def plot(rows: Sequence[Row], path: Path, title: str) -> None:
    """Times against size for both coefficients, and the targets' ratios, in one PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    fig, axes = plt.subplots(2, 2, figsize=(13, 10))
    palette = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    colours = dict(zip(MAIN_CONTENDERS, palette[: len(MAIN_CONTENDERS)], strict=True))
    styles = {0.0: "-", 0.2: "--"}
    for ax, (coefficient, name) in zip(axes[0], COEFFICIENT_TITLES.items(), strict=True):
        main = [r for r in rows if r.scenario == "main" and r.what == coefficient and r.times]
        handles = []
        for contender in MAIN_CONTENDERS:
            drawn = False
            for missing, style in styles.items():
                pts = sorted(
                    (r.n_annotations or 0, r.median or 0.0)
                    for r in main
                    if r.contender == contender and r.missing == missing
                )
                if pts:
                    x, y = zip(*pts, strict=True)
                    ax.plot(x, y, style, marker="o", markersize=4, color=colours[contender])
                    drawn = True
            if drawn:
                handles.append(Line2D([], [], color=colours[contender], label=contender))
        handles += [
            Line2D([], [], color="grey", linestyle=style, label=f"{missing:.0%} missing")
            for missing, style in styles.items()
        ]
        ylabel = "median seconds, end to end from the long frame"
        ax.set(xscale="log", yscale="log", xlabel="annotations", ylabel=ylabel)
        ax.set_title(name, fontsize=10)
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(handles=handles, fontsize=8)
    floor_bars = [
        (f"{r.what}()" if r.scenario == "coefficients" else "alpha('interval')", r.ratio)
        for r in rows
        if r.scenario in ("coefficients", "interval") and r.contender == "pdagree"
    ]
    memory = _memory_ratio(rows)
    if memory is not None:
        floor_bars.append(("alpha('interval') peak memory", memory))
    _bars(axes[1][0], floor_bars, "pdagree / floor (median time; memory: traced peak)")
    names = {
        "pdagree by=": "by= / ungrouped",
        "pdagree + bootstrap SE": "bootstrap SE / plain call",
        "import pdagree": "import pdagree / import pandas",
        "import pdagree after pandas": "import pdagree after pandas / import pandas",
    }
    other = [(names[r.contender], r.ratio) for r in rows if r.contender in names]
    _bars(axes[1][1], other, "ratio of median times")
    axes[1][0].set_title("Targets: pdagree against the floor", fontsize=10)
    axes[1][1].set_title("Targets: by=, bootstrap, import", fontsize=10)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _memory_ratio(rows: Sequence[Row]) -> float | None:
    peaks = {
        r.contender: r.extra.get("tracemalloc_peak_mib") for r in rows if r.scenario == "interval"
    }
    pdagree, floor = peaks.get("pdagree"), peaks.get("floor")
    return pdagree / floor if pdagree and floor else None


def _bars(ax: Any, bars: Sequence[tuple[str, float | None]], label: str) -> None:
    bars = [(name, ratio) for name, ratio in bars if ratio is not None]
    if not bars:
        ax.set_axis_off()
        return
    names = [name for name, _ in bars]
    ratios = [float(ratio or 0.0) for _, ratio in bars]
    ax.barh(range(len(bars)), ratios, color="tab:blue")
    ax.set_yticks(range(len(bars)), names, fontsize=8)
    ax.invert_yaxis()
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlabel(label, fontsize=9)
    for i, ratio in enumerate(ratios):
        ax.annotate(times(ratio), (ratio, i), xytext=(3, 0), textcoords="offset points",
                    va="center", fontsize=8)  # fmt: skip
    ax.set_xlim(right=max(ratios) * 3)
    ax.grid(True, axis="x", which="major", alpha=0.3)
