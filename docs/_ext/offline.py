"""A local Sphinx extension: the build fails when a page loads a script from another host.

The site must work on a laptop without network access (issue #21): MathJax is served from
``_static/`` by ``sphinx-mathjax-offline``, and any page that still loads a script from
``http(s)://`` or ``//`` fails the build, naming the page and the script.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

_REMOTE = re.compile(r"<script\b[^>]*\bsrc\s*=\s*[\"']?((?:https?:)?//[^\"'\s>]+)", re.IGNORECASE)


def remote_scripts(outdir: Path) -> dict[str, list[str]]:
    """Per built page, the scripts it loads from another host (``http(s)://`` or ``//``)."""
    found: dict[str, list[str]] = {}
    for page in sorted(outdir.rglob("*.html")):
        hits = _REMOTE.findall(page.read_text(encoding="utf-8", errors="replace"))
        if hits:
            found[str(page.relative_to(outdir))] = sorted(set(hits))
    return found


def check_offline(app: Any, exc: Exception | None) -> None:
    """Fail an HTML build whose pages load scripts from another host."""
    if exc is not None or app.builder.format != "html":
        return
    found = remote_scripts(Path(app.outdir))
    if found:
        shown = "; ".join(f"{page}: {', '.join(urls)}" for page, urls in list(found.items())[:5])
        raise RuntimeError(
            f"{len(found)} pages load scripts from another host, e.g. {shown}. Serve them "
            "from _static/ so that the site works offline."
        )


def setup(app: Any) -> dict[str, Any]:
    # After sphinx-mathjax-offline has copied MathJax (build-finished, default priority).
    app.connect("build-finished", check_offline, priority=900)
    return {"parallel_read_safe": True}
