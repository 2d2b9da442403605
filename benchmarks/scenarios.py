"""The scenarios: what is timed, on which data, against which baseline.

Each scenario returns :class:`~timing.Row` objects; :func:`fill_ratios` then divides every
row's median by its baseline's median within the same case.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import floors
import numpy as np
import pandas as pd
from contenders import COLUMNS, CONTENDERS, Contender
from data import STORAGES, as_storage, grouped_frame, interval_frame, labelled_frame
from timing import Entry, Mismatch, Row, agree, measure

__all__ = [
    "Config",
    "bootstrap",
    "by_groups",
    "coefficients",
    "fill_ratios",
    "fmt_n",
    "import_time",
    "interval_alpha",
    "main_comparison",
    "string_storage",
]

HERE = Path(__file__).resolve().parent
Log = Callable[[str], None]


@dataclass(frozen=True)
class Config:
    """Sizes and repetitions of a run (``quick()`` or ``full()``)."""

    quick: bool
    sizes: tuple[int, ...]
    missing: tuple[float, ...]
    budget: float  # most seconds a contender may be projected to take per call
    coefficients_n: int
    by_groups: int
    bootstrap_n: int
    interval_n: int
    import_repeats: int
    seed: int = 0

    @classmethod
    def full(cls, seed: int = 0) -> Config:
        return cls(
            False, (10**4, 10**5, 10**6, 10**7), (0.0, 0.2), 60.0, 10**6, 10**5, 10**5, 10**6,
            15, seed,
        )  # fmt: skip

    @classmethod
    def make_quick(cls, seed: int = 0) -> Config:
        return cls(
            True, (10**4, 10**5), (0.0, 0.2), 10.0, 10**5, 10**4, 10**4, 10**5, 5, seed
        )  # fmt: skip

    def repeats(self, n: int) -> int:
        """Timed rounds at ``n`` annotations (fewer for larger data)."""
        if self.quick:
            return 7 if n <= 10**4 else 5
        return {10**4: 11, 10**5: 9, 10**6: 5}.get(n, 3)


def fmt_n(n: int) -> str:
    """``10^6`` for powers of ten, else the number with thousands separators."""
    exponent = round(np.log10(n))
    return f"10^{exponent}" if 10**exponent == n else f"{n:,}"


def _rows(
    scenario: str,
    case: str,
    what: str,
    times: dict[str, list[float]],
    values: dict[str, Any],
    baseline: str,
    cpu: dict[str, list[float]] | None = None,
    **fields: Any,
) -> list[Row]:
    rows = []
    for name, ts in times.items():
        value = values[name]
        scalar = float(value) if np.ndim(value) == 0 else None
        row = Row(scenario, case, name, what, ts, scalar, baseline, **fields)
        row.cpu_times = list((cpu or {}).get(name, []))
        rows.append(row)
    return rows


def _expect(reference: Any, case: str, value: Any) -> None:
    """A check for :class:`~timing.Entry`: ``value`` must agree with ``reference``."""
    if not agree(value, reference):
        raise Mismatch(f"{case}: got {value!r}, expected the floor's {reference!r}")


def fill_ratios(rows: Iterable[Row]) -> None:
    """Each row's ``ratio``: its median over its baseline's median in the same case; and
    ``ratio_floor`` over the floor's, where the case has a floor."""
    by_case: dict[tuple[str, str], dict[str, Row]] = {}
    for row in rows:
        by_case.setdefault((row.scenario, row.case), {})[row.contender] = row
    for case in by_case.values():
        for row in case.values():
            median = row.median
            if median is None:
                continue
            base = case.get(row.baseline or "")
            if base is not None and base.median:
                row.ratio = median / base.median
            if base is not None and base.cpu_median and row.cpu_median is not None:
                row.cpu_ratio = row.cpu_median / base.cpu_median
            floor = case.get("floor")
            if floor is not None and floor.median:
                row.ratio_floor = median / floor.median


# --------------------------------------------------------------------------- main comparison


def _skip_reason(
    c: Contender,
    n: int,
    missing: float,
    seen: dict[tuple[str, str], tuple[int, float]],
    budget: float,
) -> str:
    why = c.unavailable()
    if why:
        return why
    if missing > 0 and c.complete_only:
        return c.complete_only
    if c.max_annotations is not None and n > c.max_annotations:
        return f"skipped above {fmt_n(c.max_annotations)}: {c.cap_reason}"
    if (c.name, c.coefficient) in seen:
        n0, t0 = seen[c.name, c.coefficient]
        projected = t0 * n / n0
        if projected > budget:
            return (
                f"skipped: ~{projected:.0f} s per call projected from {t0:.2g} s at "
                f"{fmt_n(n0)} (budget {budget:.0f} s)"
            )
    return ""


def main_comparison(cfg: Config, log: Log) -> list[Row]:
    """Fleiss' kappa and nominal alpha by every contender, at every size and missing share."""
    rows: list[Row] = []
    seen: dict[tuple[str, str], tuple[int, float]] = {}
    for n in cfg.sizes:
        for missing in cfg.missing:
            frame = labelled_frame(n, missing=missing, seed=cfg.seed)
            for coefficient in ("fleiss", "alpha"):
                case = f"{coefficient}, {fmt_n(n)} annotations, {missing:.0%} missing"
                fields = {"n_annotations": n, "missing": missing}
                entries, skipped = [], {}
                names = [c.name for c in CONTENDERS if c.coefficient == coefficient]
                for c in (c for c in CONTENDERS if c.coefficient == coefficient):
                    reason = _skip_reason(c, n, missing, seen, cfg.budget)
                    if reason:
                        skipped[c.name] = Row(
                            "main", case, c.name, coefficient, note=reason, **fields
                        )
                    else:
                        entries.append(Entry(c.name, partial(c.run, frame)))
                log(f"main: {case}: {', '.join(e.name for e in entries)}")
                cpu: dict[str, list[float]] = {}
                times, values, _ = measure(case, entries, cfg.repeats(n), cpu=cpu)
                for name, ts in times.items():
                    seen[name, coefficient] = (n, statistics.median(ts))
                timed = _rows("main", case, coefficient, times, values, "pdagree", cpu, **fields)
                by_name = {**skipped, **{row.contender: row for row in timed}}
                rows += [by_name[name] for name in names]
            del frame
    return rows


# --------------------------------------------------------------------------- string storage

#: The contenders of the storage scenario: pdagree, the floor, and the peer the target names.
STORAGE_CONTENDERS = {"fleiss": ("pdagree", "floor", "statsmodels"),
                      "alpha": ("pdagree", "floor", "krippendorff (text)")}  # fmt: skip


def _storage_available(storage: str) -> bool:
    if storage not in ("pyarrow", "arrow dtype"):
        return True
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def string_storage(cfg: Config, log: Log) -> list[Row]:
    """The main comparison at one size (``coefficients_n``) with the text held in each of
    pandas' string storages: the same labels, so the same values, other hashing costs."""
    n = cfg.coefficients_n
    rows: list[Row] = []
    for missing in cfg.missing:
        base = labelled_frame(n, missing=missing, seed=cfg.seed)
        for storage in (s for s in STORAGES if _storage_available(s)):
            frame = as_storage(base, storage)
            for coefficient, names in STORAGE_CONTENDERS.items():
                case = (
                    f"{coefficient}, {fmt_n(n)} annotations, {missing:.0%} missing, {storage} text"
                )
                fields = {"n_annotations": n, "missing": missing}
                entries, skipped = [], []
                for c in CONTENDERS:
                    if c.coefficient != coefficient or c.name not in names:
                        continue
                    reason = c.unavailable() or (c.complete_only if missing > 0 else "")
                    if reason:
                        skipped.append(Row("storage", case, c.name, coefficient, note=reason,
                                           **fields))  # fmt: skip
                    else:
                        entries.append(Entry(c.name, partial(c.run, frame)))
                log(f"storage: {case}: {', '.join(e.name for e in entries)}")
                cpu: dict[str, list[float]] = {}
                # More rounds than the main comparison: pdagree and the floor differ by a
                # few milliseconds here, about as much as one call's page faults vary.
                times, values, _ = measure(case, entries, cfg.repeats(n) + 4, cpu=cpu)
                timed = _rows("storage", case, coefficient, times, values, "pdagree", cpu,
                              **fields)  # fmt: skip
                for row in [*timed, *skipped]:
                    row.extra = {"storage": storage}
                rows += timed + skipped
            del frame
        del base
    return rows


# --------------------------------------------------------------------------- vs the floor

TWO_RATER = ("scott", "cohen")
NOMINAL = ("observed", "bennett", "scott", "cohen", "fleiss", "conger", "gwet", "alpha")


def _pdagree(frame: pd.DataFrame, method: str) -> float:
    return float(getattr(frame.agree(**COLUMNS), method)())


def coefficients(cfg: Config, log: Log) -> list[Row]:
    """Every nominal coefficient end to end from the long frame against its floor."""
    n = cfg.coefficients_n
    ten = labelled_frame(n, missing=0.2, seed=cfg.seed)
    two = labelled_frame(n, n_raters=2, missing=0.2, seed=cfg.seed)
    rows: list[Row] = []
    for method in NOMINAL:
        frame = two if method in TWO_RATER else ten
        raters = 2 if method in TWO_RATER else 10
        case = f"{method}, {fmt_n(n)} annotations, {raters} raters, 20% missing"
        log(f"coefficients: {case}")
        entries = [
            Entry("pdagree", partial(_pdagree, frame, method)),
            Entry("floor", partial(floors.FLOORS[method], frame)),
        ]
        cpu: dict[str, list[float]] = {}
        times, values, _ = measure(case, entries, cfg.repeats(n), cpu=cpu)
        rows += _rows("coefficients", case, method, times, values, "floor", cpu, n_annotations=n)
    return rows


# --------------------------------------------------------------------------- by=


def _fleiss_by(frame: pd.DataFrame) -> pd.DataFrame:
    from pdagree import UndefinedStatisticWarning

    with warnings.catch_warnings():
        # A few groups of two items have every rating in one category: nan, and a warning.
        warnings.simplefilter("ignore", UndefinedStatisticWarning)
        result: pd.DataFrame = frame.agree(**COLUMNS, by="group").fleiss()
    return result


def by_groups(cfg: Config, log: Log) -> list[Row]:
    """``by=`` with many groups against the ungrouped call on the same rows."""
    frame = grouped_frame(cfg.by_groups, seed=cfg.seed)
    n = len(frame)
    case = f"fleiss, {cfg.by_groups:,} groups of 2 items x 5 raters ({fmt_n(n)} annotations)"
    expected = floors.fleiss_by(frame)
    keys = np.sort(frame["group"].unique())

    def check_grouped(result: pd.DataFrame) -> None:
        got = result["value"].reindex(keys).to_numpy()
        if not agree(got, expected):
            raise Mismatch(f"{case}: pdagree by= disagrees with the grouped floor")

    def check_plain(value: float) -> None:
        if not agree(value, floors.fleiss(frame)):
            raise Mismatch(f"{case}: ungrouped pdagree {value!r} disagrees with the floor")

    entries = [
        Entry("pdagree", partial(_pdagree, frame, "fleiss"), check_plain),
        Entry("pdagree by=", partial(_fleiss_by, frame), check_grouped),
        Entry("floor by=", partial(floors.fleiss_by, frame), partial(_expect, expected, case)),
    ]
    log(f"by: {case}")
    cpu: dict[str, list[float]] = {}
    times, values, _ = measure(case, entries, cfg.repeats(n), cpu=cpu)
    rows = _rows("by", case, "fleiss", times, values, "pdagree", cpu, n_annotations=n)
    undefined = int(np.isnan(expected).sum())
    for row in rows:
        if row.contender != "pdagree":
            row.note = f"{undefined} of {len(keys):,} groups undefined (nan)"
    return rows


# --------------------------------------------------------------------------- bootstrap


def _bootstrap(frame: pd.DataFrame) -> tuple[float, float]:
    r = frame.agree(**COLUMNS).fleiss()
    return float(r), float(r.standard_error(method="bootstrap", n_resamples=1000, rng=0))


def bootstrap(cfg: Config, log: Log) -> list[Row]:
    """Fleiss' kappa with a 1000-resample bootstrap standard error against one plain call."""
    n = cfg.bootstrap_n
    frame = labelled_frame(n, missing=0.2, seed=cfg.seed)
    case = f"fleiss, {fmt_n(n)} annotations, 10 raters, 20% missing"
    kappa = floors.fleiss(frame)
    result = frame.agree(**COLUMNS).fleiss()
    analytic = float(result.standard_error())
    _, reference_se = _bootstrap(frame)

    def check(value: tuple[float, float]) -> None:
        if not agree(value[0], kappa):
            raise Mismatch(f"{case}: pdagree's kappa {value[0]!r} disagrees with the floor")
        if value[1] != reference_se:
            raise Mismatch(f"{case}: bootstrap SE with rng=0 not reproducible")
        if not 0.5 < value[1] / analytic < 2.0:
            raise Mismatch(f"{case}: bootstrap SE {value[1]} far from analytic {analytic}")

    entries = [
        Entry("pdagree", partial(_pdagree, frame, "fleiss"), partial(_expect, kappa, case)),
        Entry("pdagree + bootstrap SE", partial(_bootstrap, frame), check),
    ]
    log(f"bootstrap: {case}")
    cpu: dict[str, list[float]] = {}
    times, values, _ = measure(case, entries, max(3, cfg.repeats(n) // 2), cpu=cpu)
    rows = _rows("bootstrap", case, "fleiss", times, values, "pdagree", cpu, n_annotations=n)
    rows[1].value = reference_se
    rows[1].note = f"1000 resamples; SE {reference_se:.5f} (analytic {analytic:.5f})"
    return rows


# --------------------------------------------------------------------------- interval alpha


def _alpha_interval(frame: pd.DataFrame) -> float:
    return float(frame.agree(item="item", rater="rater", label="value").alpha("interval"))


def _peak_memory(which: str, n: int, seed: int) -> dict[str, Any]:
    """Peak memory of one call, measured in a fresh interpreter (see peak_memory.py)."""
    result: dict[str, Any] = {}
    for tool in ("rss", "tracemalloc"):
        out = subprocess.run(
            [sys.executable, str(HERE / "peak_memory.py"), which, str(n), str(seed), tool],
            check=True,
            capture_output=True,
            text=True,
        )
        result.update(json.loads(out.stdout.strip().splitlines()[-1]))
    return result


def interval_alpha(cfg: Config, log: Log) -> list[Row]:
    """Interval alpha on all-distinct float values, against the moment-sum floor; and its
    peak memory against the floor's."""
    n = cfg.interval_n
    frame = interval_frame(n, missing=0.2, seed=cfg.seed)
    distinct = frame["value"].nunique()
    case = f"alpha interval, {fmt_n(n)} annotations ({distinct:,} distinct values), 20% missing"
    entries = [
        Entry("pdagree", partial(_alpha_interval, frame)),
        Entry("floor", partial(floors.alpha_interval, frame)),
    ]
    log(f"interval: {case}")
    cpu: dict[str, list[float]] = {}
    times, values, _ = measure(case, entries, cfg.repeats(n), cpu=cpu)
    rows = _rows("interval", case, "alpha[interval]", times, values, "floor", cpu, n_annotations=n)
    frame_mb = frame.memory_usage(deep=True).sum() / 2**20
    for row in rows:
        log(f"interval: peak memory of {row.contender}")
        memory = _peak_memory(row.contender, n, cfg.seed)
        if not agree(memory.pop("value"), values["pdagree"]):
            raise Mismatch(f"{case}: the memory run of {row.contender} gave another value")
        row.extra = {**memory, "frame_mib": float(frame_mb)}
    return rows


# --------------------------------------------------------------------------- import time

_IMPORT = {
    "import pandas": "import time; t, c = time.perf_counter(), time.process_time(); "
    "import pandas; print(time.perf_counter() - t, time.process_time() - c)",
    "import pdagree": "import time; t, c = time.perf_counter(), time.process_time(); "
    "import pdagree; print(time.perf_counter() - t, time.process_time() - c)",
    "import pdagree after pandas": "import time, pandas; t, c = time.perf_counter(), "
    "time.process_time(); import pdagree; print(time.perf_counter() - t, "
    "time.process_time() - c)",
}


def _import_once(code: str) -> tuple[float, float]:
    """Wall-clock and CPU seconds of the import statement in a fresh interpreter."""
    # As on a user's machine, bytecode is cached (some environments turn that off).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True, env=env
    )
    wall, cpu = out.stdout.strip().splitlines()[-1].split()
    return float(wall), float(cpu)


def import_time(cfg: Config, log: Log) -> list[Row]:
    """``import pdagree`` against ``import pandas``, each in a fresh interpreter."""
    case = "fresh interpreter, time of the import statement"
    log(f"import: {cfg.import_repeats} rounds")
    for code in _IMPORT.values():  # warm the file system cache and the bytecode
        _import_once(code)
    times: dict[str, list[float]] = {name: [] for name in _IMPORT}
    cpu: dict[str, list[float]] = {name: [] for name in _IMPORT}
    names = list(_IMPORT)
    for round_ in range(cfg.import_repeats):
        shift = round_ % len(names)
        for name in [*names[shift:], *names[:shift]]:
            wall, used = _import_once(_IMPORT[name])
            times[name].append(wall)
            cpu[name].append(used)
    rows = []
    for name, ts in times.items():
        row = Row("import", case, name, "import", ts, None, "import pandas")
        row.cpu_times = cpu[name]
        rows.append(row)
    return rows
