"""The report page in a real browser (#30): Debian's chromium, headless, renders it from a
file; the DOM it builds keeps the sections, the numbers and every chart; the screenshot
shows the charts drawn; the page asks the network for nothing.

``.ci/run`` installs chromium when it is missing. Without it this test fails; set
``PDAGREE_NO_BROWSER=1`` to skip it on a machine without a browser, explicitly.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np
import pytest

import pdagree
from pdagree import datasets
from tests.html_page import read
from tests.test_html import SECTIONS, check_table

CHROMIUM = Path("/usr/bin/chromium")

pytestmark = pytest.mark.skipif(
    os.environ.get("PDAGREE_NO_BROWSER") == "1",
    reason="PDAGREE_NO_BROWSER=1: the browser test is skipped on request",
)

# Requests Chromium makes for itself (time, accounts, components), whatever the page.
_OWN_HOSTS = ("google.com", "googleapis.com", "gstatic.com", "gvt1.com", "chromium.org")

# The bars' fill (#0969da at opacity 0.75 on white) and the heatmap's +1 (#2166ac).
BAR = (71, 143, 227)
HEAT = (33, 102, 172)


def _chromium(tmp: Path, page: Path, *args: str) -> subprocess.CompletedProcess[str]:
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} not found: install it (`apt-get install -y chromium`, as .ci/run "
            "does) or set PDAGREE_NO_BROWSER=1 to skip the browser test explicitly."
        )
    command = [
        str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", f"--user-data-dir={tmp / 'profile'}",
        "--host-resolver-rules=MAP * ~NOTFOUND", *args, page.as_uri(),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def _requests(stderr: str) -> list[str]:
    """The URLs the page asked for (Chromium's own requests left out)."""
    urls = re.findall(r"NotifyBeforeURLRequest: (\S+)", stderr)
    out = []
    for url in urls:
        host = urlsplit(url).hostname or ""
        if not any(host == h or host.endswith("." + h) for h in _OWN_HOSTS):
            out.append(url)
    return out


def _dom(tmp: Path, page: Path) -> tuple[str, list[str]]:
    done = _chromium(tmp, page, "--enable-logging=stderr", "--v=1", "--dump-dom")
    return done.stdout, _requests(done.stderr)


def _pixels(tmp: Path, page: Path, height: int = 4000) -> np.ndarray:
    import matplotlib.image

    shot = tmp / f"{page.stem}.png"
    _chromium(tmp, page, f"--screenshot={shot}", f"--window-size=1280,{height}")
    image = matplotlib.image.imread(shot)
    return np.asarray(np.round(image[..., :3] * 255), dtype=np.int16)


def _near(pixels: np.ndarray, rgb: tuple[int, int, int], tolerance: int = 6) -> int:
    return int((np.abs(pixels - np.array(rgb)).max(axis=-1) <= tolerance).sum())


@pytest.fixture(scope="module")
def fleiss() -> pdagree.Ratings:
    return datasets.load("fleiss1971").agree()


@pytest.fixture(scope="module")
def written(fleiss: pdagree.Ratings, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("page")
    fleiss.to_html(folder / "page.html", title="Diagnoses")
    return folder / "page.html"


def test_dom_keeps_sections_numbers_and_charts(
    fleiss: pdagree.Ratings, written: Path, tmp_path: Path
) -> None:
    dom, requests = _dom(tmp_path, written)
    source, shown = read(written.read_text(encoding="utf-8")), read(dom)
    assert shown.headings == SECTIONS
    assert shown.title == "Diagnoses"
    check_table(shown, "report", fleiss.report(confidence_level=0.95))
    check_table(shown, "per_rater", fleiss.per_rater())
    charts = [a.get("data-chart") for t, a in shown.tags if t == "svg"]
    assert charts == [a.get("data-chart") for t, a in source.tags if t == "svg"]
    assert charts == ["report", "per_category", "pairwise", "per_rater"]
    assert shown.marks == source.marks and len(shown.marks) == 7 + 5 + 36 + 6
    assert requests == []


def test_charts_are_drawn(written: Path, tmp_path: Path) -> None:
    pixels = _pixels(tmp_path, written)
    assert pixels.std() > 20  # not a blank page
    assert _near(pixels, BAR) > 2000  # the bars
    assert _near(pixels, HEAT) > 1000  # the heatmap's diagonal
    # The same page without its charts has none of those pixels: they are the SVG's.
    bare = tmp_path / "bare.html"
    text = written.read_text(encoding="utf-8")
    bare.write_text(re.sub(r"<svg\b.*?</svg>", "", text, flags=re.S), encoding="utf-8")
    without = _pixels(tmp_path, bare)
    assert _near(without, BAR) == 0 and _near(without, HEAT) == 0


def test_the_network_check_sees_a_remote_image(tmp_path: Path) -> None:
    # The check of test_dom_keeps_sections_numbers_and_charts can fail: a page that loads a
    # remote image and style sheet is caught.
    page = tmp_path / "remote.html"
    page.write_text(
        '<html><body><img src="http://example.com/x.png">'
        '<link rel="stylesheet" href="https://fonts.example.org/a.css"></body></html>',
        encoding="utf-8",
    )
    _, requests = _dom(tmp_path, page)
    assert sorted(requests) == ["http://example.com/x.png", "https://fonts.example.org/a.css"]
