"""Draw the README's gallery: small PNGs of pdagree's charts in docs/_static/gallery/.

Run from anywhere, with the ``plot`` extra installed::

    python docs/gallery.py

Each figure is drawn by :mod:`pdagree.plotting` on the bundled data sets, at a small size so
that the committed files stay small. The documentation site shows the same files. With
Debian's ``chromium`` installed, the screenshot of the report page
(``pdagree report --example fleiss1971 --format html``) is taken too: 1280 pixels wide,
cropped to the page's content, in 256 colours.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pandas as pd

import pdagree
from pdagree import plotting

OUT = Path(__file__).resolve().parent / "_static" / "gallery"
SIZE = (4.6, 3.0)
DPI = 90


def one_vs_rest(wide: pd.DataFrame) -> pd.DataFrame:
    """Each category against the rest: a long frame with a ``category`` column to group by."""
    long = wide.reset_index().melt(id_vars=wide.index.name, var_name="rater", value_name="label")
    parts = []
    for category in sorted(long["label"].dropna().unique()):
        part = long.assign(category=category, label=long["label"] == category)
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def figures() -> dict[str, plt.Axes]:
    trains = pdagree.datasets.load("fort2011_trains").agree()
    fleiss = pdagree.datasets.load("fleiss1971")
    crowd = pdagree.datasets.load("crowd_sparse")
    drawn: dict[str, plt.Axes] = {}

    def axes() -> plt.Axes:
        _, ax = plt.subplots(figsize=SIZE, dpi=DPI, layout="constrained")
        return ax

    drawn["frequencies"] = plotting.frequencies(trains, ax=axes())
    drawn["bias"] = plotting.bias(trains.bias(), by="rater", ax=axes())
    drawn["pairwise"] = plotting.pairwise(trains, ax=axes())
    recoded = one_vs_rest(fleiss).agree(
        item="patient", rater="rater", label="label", by="category"
    )
    drawn["per_category"] = plotting.per_category(recoded.fleiss(confidence_level=0.95), ax=axes())
    batches = crowd.agree(item="item", rater="annotator", label="label", by="batch")
    drawn["groups"] = plotting.coefficients(
        batches.alpha(confidence_level=0.95), thresholds=(0.667, 0.8), ax=axes()
    )
    drawn["spa_weights"] = plotting.spa_weights(
        n_max=8, p=[0.7, 0.2, 0.1], highlight="annotations_m1", ax=axes()
    )
    return drawn


def report_page(path: Path) -> bool:
    """The screenshot of the example report page, if chromium is installed."""
    import numpy as np
    from PIL import Image

    chromium = shutil.which("chromium")
    if chromium is None:
        print("chromium not found: the report page's screenshot is not taken")
        return False
    ratings = pdagree.datasets.load("fleiss1971").agree()
    with tempfile.TemporaryDirectory() as tmp:
        page, shot = Path(tmp) / "report.html", Path(tmp) / "report.png"
        ratings.to_html(page, title="Agreement: fleiss1971")  # as `pdagree report` titles it
        subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--hide-scrollbars", f"--user-data-dir={Path(tmp) / 'profile'}",
             f"--screenshot={shot}", "--window-size=1280,6000", page.as_uri()],
            check=True, capture_output=True,
        )  # fmt: skip
        image = Image.open(shot).convert("RGB")
    ink = np.flatnonzero((np.asarray(image) < 250).any(axis=(1, 2)))
    image = image.crop((0, 0, image.width, int(ink.max()) + 16))
    image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
        path, optimize=True
    )
    return True


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, ax in figures().items():
        path = OUT / f"{name}.png"
        ax.figure.savefig(path, dpi=DPI)
        plt.close(ax.figure)
        print(f"{path.relative_to(OUT.parents[2])}: {path.stat().st_size // 1024} KiB")
    path = OUT / "report_page.png"
    if report_page(path):
        print(f"{path.relative_to(OUT.parents[2])}: {path.stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
