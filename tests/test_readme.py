"""README.md's examples are tests: its output cannot drift from what pdagree prints.

- Every ```pycon block is a doctest; the blocks run in order and share their names, like one
  session (ELLIPSIS and NORMALIZE_WHITESPACE, pandas' display options pinned below).
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

README = Path(__file__).resolve().parents[1] / "README.md"

# Frames print the same whatever the terminal: no column limit, 88 characters wide.
DISPLAY_OPTIONS = ("display.width", 88, "display.max_columns", None)

_FENCE = re.compile(r"^```(\w*)\s*$")


def fenced_blocks(kind: str) -> list[tuple[int, list[str]]]:
    """The ``kind`` code blocks of README.md as (line number of the first line, lines)."""
    blocks: list[tuple[int, list[str]]] = []
    current: list[str] | None = None
    start = 0
    for number, line in enumerate(README.read_text(encoding="utf-8").splitlines(), start=1):
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
        raise AssertionError(f"README.md: the {kind} block at line {start - 1} is not closed")
    return blocks


def pycon_session() -> str:
    """The pycon blocks as one doctest text; other lines become blank, so the line numbers in
    failure reports are README's own and a closing fence ends an example's expected output."""
    n_lines = len(README.read_text(encoding="utf-8").splitlines())
    text = [""] * n_lines
    for start, lines in fenced_blocks("pycon"):
        for offset, line in enumerate(lines):
            text[start - 1 + offset] = line
    return "\n".join(text) + "\n"


def test_readme_has_examples() -> None:
    assert len(fenced_blocks("pycon")) >= 6
    assert any(lines[0].startswith("$ pdagree") for _, lines in fenced_blocks("console"))


def test_readme_pycon_examples() -> None:
    test = doctest.DocTestParser().get_doctest(
        pycon_session(), globs={}, name="README.md", filename=str(README), lineno=0
    )
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    report: list[str] = []
    with pd.option_context(*DISPLAY_OPTIONS):
        result = runner.run(test, out=report.append, clear_globs=True)
    assert result.attempted > 0
    assert result.failed == 0, "\n".join(report)


def _console_blocks() -> list[tuple[int, list[str]]]:
    return [
        (start, lines)
        for start, lines in fenced_blocks("console")
        if lines and lines[0].startswith("$ pdagree ")
    ]


@pytest.mark.parametrize(
    ("start", "lines"),
    _console_blocks(),
    ids=[lines[0][2:] for _, lines in _console_blocks()],
)
def test_readme_console_examples(
    capsys: pytest.CaptureFixture[str], start: int, lines: list[str]
) -> None:
    command, *expected = lines
    argv = shlex.split(command)[2:]  # after "$ pdagree"
    assert main(argv) == 0, f"README.md line {start}: {command}"
    got = [line.rstrip() for line in capsys.readouterr().out.rstrip("\n").split("\n")]
    assert got == [line.rstrip() for line in expected], f"README.md line {start}: {command}"
