"""The examples of README.md and of the guide pages (docs/guide/*.md) are tests: their
output cannot drift from what pdagree prints.

- Every ```pycon block is a doctest; the blocks of one page run in order and share their names,
  like one session (ELLIPSIS and NORMALIZE_WHITESPACE, pandas' display options pinned below).
- Every ```console block whose first line is ``$ pdagree ...`` is run through
  :func:`pdagree.cli.main` and must print the lines that follow it.
"""

from __future__ import annotations

import doctest
import re
import shlex
from pathlib import Path

import pandas as pd
import pytest

from pdagree.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: The pages whose examples run: README.md and the guide pages (#27: the README's reference
#: sections moved there, with their examples).
PAGES = [README, *sorted((ROOT / "docs" / "guide").glob("*.md"))]
PAGES.remove(ROOT / "docs" / "guide" / "index.md")  # the table of contents

# Frames print the same whatever the terminal: no column limit, 88 characters wide.
DISPLAY_OPTIONS = ("display.width", 88, "display.max_columns", None)

_FENCE = re.compile(r"^```(\w*)\s*$")


def _name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def fenced_blocks(kind: str, page: Path = README) -> list[tuple[int, list[str]]]:
    """The ``kind`` code blocks of ``page`` as (line number of the first line, lines)."""
    blocks: list[tuple[int, list[str]]] = []
    current: list[str] | None = None
    start = 0
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
        match = _FENCE.match(line)
        if current is None:
            if match and match.group(1) == kind:
                current, start = [], number + 1
        elif match and match.group(1) == "":
            blocks.append((start, current))
            current = None
        else:
            current.append(line)
    if current is not None:
        raise AssertionError(f"{_name(page)}: the {kind} block at line {start - 1} is not closed")
    return blocks


def pycon_session(page: Path = README) -> str:
    """The pycon blocks as one doctest text; other lines become blank, so the line numbers in
    failure reports are the page's own and a closing fence ends an example's expected output."""
    n_lines = len(page.read_text(encoding="utf-8").splitlines())
    text = [""] * n_lines
    for start, lines in fenced_blocks("pycon", page):
        for offset, line in enumerate(lines):
            text[start - 1 + offset] = line
    return "\n".join(text) + "\n"


def test_readme_has_examples() -> None:
    assert len(fenced_blocks("pycon")) >= 4
    assert any(lines[0].startswith("$ pdagree") for _, lines in fenced_blocks("console"))
    # the quickstart's two commands, exactly
    assert [
        "pip install . && pdagree report --example fleiss1971",
        'pip install -e ".[dev]" && bash .ci/test',
    ] in [lines for _, lines in fenced_blocks("bash")]
    guide = [page for page in PAGES if page != README]
    assert len(guide) >= 5
    for page in guide:  # every guide page has examples, and they run
        assert page in PYCON_PAGES or any(_name(page) == name for name, _, _ in _console_blocks())


def _console_blocks() -> list[tuple[str, int, list[str]]]:
    return [
        (_name(page), start, lines)
        for page in PAGES
        for start, lines in fenced_blocks("console", page)
        if lines and lines[0].startswith("$ pdagree ")
    ]


PYCON_PAGES = [page for page in PAGES if fenced_blocks("pycon", page)]


@pytest.mark.parametrize("page", PYCON_PAGES, ids=_name)
def test_readme_pycon_examples(page: Path) -> None:
    test = doctest.DocTestParser().get_doctest(
        pycon_session(page), globs={}, name=_name(page), filename=str(page), lineno=0
    )
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    report: list[str] = []
    with pd.option_context(*DISPLAY_OPTIONS):
        result = runner.run(test, out=report.append, clear_globs=True)
    assert result.attempted > 0
    assert result.failed == 0, "\n".join(report)


@pytest.mark.parametrize(
    ("page", "start", "lines"),
    _console_blocks(),
    ids=[f"{page}:{lines[0][2:]}" for page, _, lines in _console_blocks()],
)
def test_readme_console_examples(
    capsys: pytest.CaptureFixture[str], page: str, start: int, lines: list[str]
) -> None:
    command, *expected = lines
    argv = shlex.split(command)[2:]  # after "$ pdagree"
    assert main(argv) == 0, f"{page} line {start}: {command}"
    got = [line.rstrip() for line in capsys.readouterr().out.rstrip("\n").split("\n")]
    assert got == [line.rstrip() for line in expected], f"{page} line {start}: {command}"
