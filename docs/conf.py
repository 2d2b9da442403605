"""Sphinx configuration of pdagree's documentation site.

Build it from the repository root (the ``docs`` extra installs what it needs)::

    pip install -e ".[docs]"
    sphinx-build -W --keep-going docs docs/_build/html

The notebooks in ``notebooks/`` are copied here and executed by myst-nb on every build; an
error in a cell fails the build.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pdagree

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))  # the local extension `offline`
ROOT = DOCS.parent

project = "pdagree"
author = "pdagree developers"
copyright = "pdagree developers, MIT License"
release = pdagree.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    # Ships MathJax 3 into _static/ and points mathjax_path at it: the formulas render on a
    # laptop without network access (the default loads MathJax from a CDN).
    "sphinx-mathjax-offline",
    "offline",  # docs/_ext/offline.py: a page that loads a remote script fails the build
    "numpydoc",
    "myst_nb",
]

# --------------------------------------------------------------------------- sources

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "gallery.py", "README.md", "**.ipynb_checkpoints"]
templates_path = ["_templates"]
myst_enable_extensions = ["dollarmath", "colon_fence"]
myst_heading_anchors = 3

# The notebooks live in notebooks/ (where CI's readers find them); the site renders copies.
_NOTEBOOKS = DOCS / "notebooks"
_NOTEBOOKS.mkdir(exist_ok=True)
for _old in _NOTEBOOKS.glob("*.ipynb"):
    if not (ROOT / "notebooks" / _old.name).exists():
        _old.unlink()
for _notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
    _copy = _NOTEBOOKS / _notebook.name
    if not _copy.exists() or _copy.read_bytes() != _notebook.read_bytes():
        shutil.copyfile(_notebook, _copy)

# The command line's help, as the program prints it.
_GENERATED = DOCS / "_generated"
_GENERATED.mkdir(exist_ok=True)
for _command in (
    "report", "per-category", "pairwise", "per-rater", "items", "against", "icc", "consensus",
    "datasets",
):  # fmt: skip
    _help = subprocess.run(
        [sys.executable, "-m", "pdagree", _command, "--help"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "COLUMNS": "88"},
    ).stdout
    (_GENERATED / f"cli_{_command}.txt").write_text(_help, encoding="utf-8")

# --------------------------------------------------------------------------- notebooks

nb_execution_mode = "force"
nb_execution_raise_on_error = True
nb_execution_timeout = 180
nb_execution_show_tb = True
nb_merge_streams = True

# --------------------------------------------------------------------------- API reference

autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"members": False}
autodoc_typehints = "none"
numpydoc_show_class_members = False  # the class template lists the members
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_attributes_as_param_list = True
# An unknown section would be dropped silently; report it (an error with -W).
numpydoc_validation_checks = {"GL06"}

# --------------------------------------------------------------------------- HTML

html_theme = "pydata_sphinx_theme"
html_title = f"pdagree {release}"
html_static_path = ["_static"]
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
html_sidebars = {"index": [], "getting_started": []}
html_show_sourcelink = False

sys.dont_write_bytecode = True
