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


# ------------------------------------------------- #26: the docs extra runs the notebooks

ROOT = DOCS.parent
#: What a notebook uses without importing it: pdagree's charts draw with matplotlib, pandas
#: reads and writes Parquet through pyarrow and Excel through openpyxl.
USES = {
    r"\.plot\(|\bplotting\.": "matplotlib",
    r"parquet": "pyarrow",
    r"excel|\.xlsx": "openpyxl",
    r"to_markdown": "tabulate",
    r"\.style\b": "jinja2",
}


def _imports(source: str) -> set[str]:
    """The top-level modules ``source`` imports (IPython magics and shell lines dropped)."""
    import ast

    code = "\n".join(
        "" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines()
    )
    found: set[str] = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def _notebook_modules(path: Path) -> set[str]:
    """The third-party modules a notebook needs: its imports, those of the repository's own
    scripts it imports (from ``benchmarks/``), and what its calls use (:data:`USES`)."""
    import json

    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    source = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    modules = _imports(source) | {m for pattern, m in USES.items() if re.search(pattern, source)}
    local: set[str] = set()
    todo = [m for m in modules if (ROOT / "benchmarks" / f"{m}.py").exists()]
    while todo:  # over the repository's scripts, a handful
        name = todo.pop()
        local.add(name)
        more = _imports((ROOT / "benchmarks" / f"{name}.py").read_text(encoding="utf-8"))
        modules |= more
        todo += [m for m in more - local if (ROOT / "benchmarks" / f"{m}.py").exists()]
    return {m for m in modules - local if m not in sys.stdlib_module_names and m != "pdagree"}


def _installed_by(requirements: list[str], extras: dict[str, list[str]]) -> set[str]:
    """The distributions (normalised names) that installing ``requirements`` brings, with
    their own requirements as the installed metadata lists them (pdagree's own extras read
    from ``extras``)."""
    from importlib import metadata

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    seen: set[tuple[str, frozenset[str]]] = set()
    todo = [Requirement(r) for r in requirements]
    while todo:  # over the dependency graph
        requirement = todo.pop()
        name = canonicalize_name(requirement.name)
        key = (name, frozenset(requirement.extras))
        if key in seen:
            continue
        seen.add(key)
        if name == "pdagree":
            todo += [Requirement(r) for extra in requirement.extras for r in extras[extra]]
            continue
        try:
            listed = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        for text in listed:
            needed = Requirement(text)
            wanted = [{"extra": e} for e in [*requirement.extras, ""]]
            if needed.marker is None or any(needed.marker.evaluate(env) for env in wanted):
                todo.append(needed)
    return {name for name, _ in seen}


@pytest.mark.parametrize(
    "notebook", sorted((ROOT / "notebooks").glob("*.ipynb")), ids=lambda p: p.stem
)
def test_the_docs_extra_installs_what_each_notebook_imports(notebook: Path) -> None:
    # The README's recipe, pip install -e ".[docs]" then sphinx-build, executes every
    # notebook: notebook 07 failed with "No module named 'dask'".
    import tomllib
    from importlib import metadata

    from packaging.utils import canonicalize_name

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    installed = _installed_by([*project["dependencies"], *extras["docs"]], extras)
    providers = metadata.packages_distributions()
    missing = {}
    for module in sorted(_notebook_modules(notebook)):
        names = {canonicalize_name(d) for d in providers.get(module, [])}
        assert names, f"{module!r} (imported by {notebook.name}) is not installed here"
        if not names & installed:
            missing[module] = sorted(names)
    assert not missing, f"the `docs` extra does not install {missing} for {notebook.name}"


# ---------------------------------------------- #27: one section per kind per release


def test_the_changelog_has_one_section_per_kind_per_release() -> None:
    # [Unreleased] had three "### Added" headings (and two Changed, two Fixed).
    kinds = {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.split(r"^## ", text, flags=re.M)[1:]
    assert releases and releases[0].startswith("[Unreleased]")
    for release in releases:
        headings = re.findall(r"^### (.+)$", release, flags=re.M)
        assert set(headings) <= kinds, headings
        assert len(headings) == len(set(headings)), f"{release.splitlines()[0]}: {headings}"
        order = ["Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"]
        assert headings == [k for k in order if k in headings]  # Keep a Changelog's order
