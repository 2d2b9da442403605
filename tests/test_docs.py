"""The documentation site lists every public name (its pages are generated from them)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import pdagree
from pdagree import consensus, datasets, irt, multilabel, plotting

DOCS = Path(__file__).resolve().parents[1] / "docs"
MODULES = {"datasets", "io", "multilabel", "plotting", "__version__"}


def api_entries() -> set[str]:
    """The names in the autosummary lists of docs/api/index.rst, qualified by their module."""
    text = (DOCS / "api" / "index.rst").read_text(encoding="utf-8")
    entries: set[str] = set()
    module = "pdagree"
    listing = False
    for line in text.splitlines():
        current = re.match(r"\.\. currentmodule:: (\S+)", line)
        if current:
            module = current.group(1)
        if line.startswith(".. autosummary::"):
            listing = True
        elif listing and line and not line.startswith(" "):
            listing = False
        elif listing and re.match(r"   \w", line):
            entries.add(f"{module}.{line.strip()}")
    return entries


@pytest.mark.parametrize(
    "name",
    [f"pdagree.{n}" for n in pdagree.__all__ if n not in MODULES]
    + [f"pdagree.plotting.{n}" for n in plotting.__all__]
    + [f"pdagree.datasets.{n}" for n in datasets.__all__]
    + [f"pdagree.io.{n}" for n in pdagree.io.__all__]
    + [f"pdagree.multilabel.{n}" for n in multilabel.__all__ if n != "SWEEP"]
    # irt.ConvergenceWarning is pdagree.ConvergenceWarning, listed once with the warnings.
    + [f"pdagree.irt.{n}" for n in irt.__all__ if n != "ConvergenceWarning"]
    + [f"pdagree.consensus.{n}" for n in consensus.__all__ if n != "METHODS"],
)
def test_api_reference_lists_every_public_name(name: str) -> None:
    assert name in api_entries()


def test_every_notebook_is_on_the_site() -> None:
    examples = (DOCS / "examples.md").read_text(encoding="utf-8")
    assert ":glob:" in examples and "notebooks/*" in examples


def test_the_docs_build_fails_on_a_page_that_loads_a_remote_script(tmp_path: Path) -> None:
    # docs/_ext/offline.py, run by every build (issue #21: the site works offline).
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "docs" / "_ext"))
    try:
        import offline
    finally:
        sys.path.pop(0)
    (tmp_path / "ok.html").write_text('<script src="_static/mathjax/tex-chtml.js"></script>')
    (tmp_path / "api").mkdir()
    (tmp_path / "api" / "bad.html").write_text(
        '<script defer="defer" src="https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-chtml.js">'
        "</script><script src='//example.org/x.js'></script>"
    )
    assert offline.remote_scripts(tmp_path) == {
        "api/bad.html": [
            "//example.org/x.js",
            "https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-chtml.js",
        ]
    }

    from types import SimpleNamespace

    app = SimpleNamespace(outdir=str(tmp_path), builder=SimpleNamespace(format="html"))
    with pytest.raises(RuntimeError, match="1 pages load scripts from another host"):
        offline.check_offline(app, None)
    (tmp_path / "api" / "bad.html").unlink()
    offline.check_offline(app, None)  # no remote script: no error


def test_every_frame_returning_method_documents_its_columns_in_a_table() -> None:
    # Issue #21, point 7: a "Returns" section with a column table (numpydoc, RST simple
    # table: a rule of '=' signs) for every public method of Ratings that returns a frame.
    import inspect
    import typing

    import pandas as pd

    frames = []
    for name in dir(pdagree.Ratings):
        method = getattr(pdagree.Ratings, name)
        if name.startswith("_") or not callable(method):
            continue
        if typing.get_type_hints(method).get("return") is pd.DataFrame:
            frames.append(name)  # the coefficients return a float (a frame with by=)
    assert {"counts", "frequencies", "pairwise", "per_category", "report"} <= set(frames)
    for name in frames:
        doc = inspect.getdoc(getattr(pdagree.Ratings, name)) or ""
        returns = doc.split("Returns\n-------", 1)
        assert len(returns) == 2, f"{name}() has no Returns section"
        section = re.split(r"\n\S[^\n]*\n-{3,}", returns[1], maxsplit=1)[0]  # to the next header
        assert re.search(r"^\s*=+\s+=+", section, re.M), f"{name}() lists no column table"
