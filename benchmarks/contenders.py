"""The contenders: pdagree, the floor and the peer libraries, each end to end from the long frame.

Every contender is a function ``frame -> float`` that starts from the same long frame
(``item``, ``rater``, ``label`` columns, one row per annotation) and does what a user of that
library would do to get the coefficient: pdagree encodes the frame itself; statsmodels,
krippendorff and irrCAC need the ratings pivoted to one column per rater first (the pivot is
part of their time); nltk takes (coder, item, label) triples. Peers are optional: a peer that
is not installed is reported as such, never faked.
"""

from __future__ import annotations

import importlib
import importlib.metadata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import floors
import numpy as np
import pandas as pd

__all__ = ["CONTENDERS", "Contender", "peer_versions"]

Run = Callable[[pd.DataFrame], float]
COLUMNS = {"item": "item", "rater": "rater", "label": "label"}


@dataclass(frozen=True)
class Contender:
    """One way to compute ``coefficient`` from a long frame.

    ``module`` is the import that must succeed (``None`` for pdagree and the floor);
    ``complete_only`` says why a contender cannot take missing ratings (empty: it can);
    ``max_annotations``
    caps the sizes it is run at (``None``: no fixed cap; the runner also skips a contender
    whose projected time exceeds its budget).
    """

    name: str
    coefficient: str
    run: Run
    how: str
    module: str | None = None
    complete_only: str = ""
    max_annotations: int | None = None
    cap_reason: str = ""

    def unavailable(self) -> str | None:
        """Why this contender cannot run here (its peer is not importable), or ``None``."""
        if self.module is None:
            return None
        try:
            importlib.import_module(self.module)
        except Exception as exc:  # any import failure means "not available"
            return f"not installed ({type(exc).__name__}: {exc})"
        return None


# --------------------------------------------------------------------------- pdagree


def pdagree_fleiss(frame: pd.DataFrame) -> float:
    return float(frame.agree(**COLUMNS).fleiss())


def pdagree_alpha(frame: pd.DataFrame) -> float:
    return float(frame.agree(**COLUMNS).alpha("nominal"))


# --------------------------------------------------------------------------- peers


def _wide(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per item, one column per rater, the label in each cell (NaN if missing)."""
    return frame.pivot(index="item", columns="rater", values="label")


def statsmodels_fleiss(frame: pd.DataFrame) -> float:
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

    table, _ = aggregate_raters(_wide(frame).to_numpy())
    return float(fleiss_kappa(table, method="fleiss"))


def krippendorff_alpha(frame: pd.DataFrame) -> float:
    import krippendorff

    # krippendorff wants numbers with NaN for missing, raters x units.
    codes, _ = pd.factorize(frame["label"])
    coded = pd.DataFrame(
        {"item": frame["item"], "rater": frame["rater"], "code": codes.astype(np.float64)}
    )
    wide = coded.pivot(index="item", columns="rater", values="code")
    return float(
        krippendorff.alpha(reliability_data=wide.to_numpy().T, level_of_measurement="nominal")
    )


def krippendorff_alpha_text(frame: pd.DataFrame) -> float:
    """``krippendorff.alpha`` on the string labels themselves, as its docstring shows: a
    raters x units array of strings, ``"nan"`` for a missing rating."""
    import krippendorff

    wide = frame.pivot(index="item", columns="rater", values="label")
    text = wide.astype(object).where(wide.notna(), "nan").to_numpy(dtype=str).T
    return float(krippendorff.alpha(reliability_data=text, level_of_measurement="nominal"))


def _irrcac(frame: pd.DataFrame) -> Any:
    from irrCAC.raw import CAC

    # Categories given explicitly: irrCAC's own detection sorts the stacked cells, which
    # include NaN under pandas 3. digits=20 turns off its rounding (5 digits by default).
    categories = sorted(frame["label"].unique())
    return CAC(_wide(frame).astype(object), categories=categories, digits=20)


def irrcac_fleiss(frame: pd.DataFrame) -> float:
    return float(_irrcac(frame).fleiss()["est"]["coefficient_value"])


def irrcac_alpha(frame: pd.DataFrame) -> float:
    result = _irrcac(frame).krippendorff()
    return float(result["est"]["coefficient_value"])


def _task(frame: pd.DataFrame) -> Any:
    from nltk.metrics.agreement import AnnotationTask

    columns = (frame["rater"].tolist(), frame["item"].tolist(), frame["label"].tolist())
    triples = zip(*columns, strict=True)
    return AnnotationTask(data=list(triples))


def nltk_pi(frame: pd.DataFrame) -> float:
    return float(_task(frame).pi())


def nltk_alpha(frame: pd.DataFrame) -> float:
    return float(_task(frame).alpha())


NLTK_CAP = 100_000

CONTENDERS: tuple[Contender, ...] = (
    Contender("pdagree", "fleiss", pdagree_fleiss, "`df.agree(item=, rater=, label=).fleiss()`"),
    Contender("floor", "fleiss", floors.fleiss, "factorize item, label; one bincount; formula"),
    Contender(
        "statsmodels",
        "fleiss",
        statsmodels_fleiss,
        "pivot; `aggregate_raters`; `fleiss_kappa`",
        module="statsmodels.stats.inter_rater",
        complete_only="complete data only (`aggregate_raters` has no missing value)",
    ),
    Contender(
        "irrCAC",
        "fleiss",
        irrcac_fleiss,
        "pivot; `CAC(wide).fleiss()` (also computes its SE, CI, p-value)",
        module="irrCAC.raw",
    ),
    Contender(
        "nltk",
        "fleiss",
        nltk_pi,
        "(coder, item, label) triples; `AnnotationTask.pi()` (multi-pi)",
        module="nltk.metrics.agreement",
        complete_only="`pi()` fails on missing ratings (StopIteration)",
        max_annotations=NLTK_CAP,
        cap_reason="pure Python, small sizes only",
    ),
    Contender("pdagree", "alpha", pdagree_alpha, "`df.agree(...).alpha('nominal')`"),
    Contender("floor", "alpha", floors.alpha_nominal, "factorize; one bincount; coincidences"),
    Contender(
        "krippendorff",
        "alpha",
        krippendorff_alpha,
        "factorize label; pivot; `krippendorff.alpha(level_of_measurement='nominal')`",
        module="krippendorff",
    ),
    Contender(
        "krippendorff (text)",
        "alpha",
        krippendorff_alpha_text,
        "pivot; the string labels as an array, 'nan' for missing; `krippendorff.alpha(...)`",
        module="krippendorff",
    ),
    Contender(
        "irrCAC",
        "alpha",
        irrcac_alpha,
        "pivot; `CAC(wide).krippendorff()` (also computes its SE, CI, p-value)",
        module="irrCAC.raw",
    ),
    Contender(
        "nltk",
        "alpha",
        nltk_alpha,
        "(coder, item, label) triples; `AnnotationTask.alpha()`",
        module="nltk.metrics.agreement",
        max_annotations=NLTK_CAP,
        cap_reason="pure Python, small sizes only",
    ),
)
"""Every contender of the main comparison, pdagree and the floor first for each coefficient."""


def peer_versions() -> dict[str, str]:
    """Installed versions of pdagree, its stack and the peers ("not installed" otherwise)."""
    versions = {}
    for dist in (
        "pdagree",
        "numpy",
        "pandas",
        "scipy",
        "pyarrow",
        "statsmodels",
        "krippendorff",
        "irrCAC",
        "nltk",
        "matplotlib",
    ):
        try:
            versions[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            versions[dist] = "not installed"
    return versions
