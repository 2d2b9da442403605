"""#26: the crowd-kit differential tests run under the README's test command.

``pip install -e ".[dev]" && bash .ci/test`` skipped them: crowd-kit is not a dev extra (it
pins packages this project outgrew), and only ``.ci/run`` installed it. ``.ci/test`` now
installs it when it is missing and sets ``PDAGREE_REQUIRE_PEERS``, under which a missing peer
fails its tests (``tests/peers.py``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from peers import REQUIRE, peer

ROOT = Path(__file__).resolve().parents[1]


def test_a_missing_peer_skips_by_default_and_fails_under_the_test_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(REQUIRE, raising=False)
    with pytest.raises(pytest.skip.Exception):
        peer("pdagree_no_such_peer")
    monkeypatch.setenv(REQUIRE, "1")
    with pytest.raises(pytest.fail.Exception, match=r"pdagree_no_such_peer is needed by"):
        peer("pdagree_no_such_peer")
    assert peer("json").dumps([1]) == "[1]"


def test_the_peers_tests_import_them_through_peers_py() -> None:
    # pytest.importorskip would skip silently under the test command too
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"importorskip\(\s*[\"']crowdkit", text), path.name


def test_the_test_command_installs_crowd_kit_and_requires_the_peers() -> None:
    script = (ROOT / ".ci" / "test").read_text(encoding="utf-8")
    install = script.index('python -m pip install --quiet --no-deps "crowd-kit==1.4.2"')
    required = script.index(f"export {REQUIRE}=1")
    step = script.index("\nstep crowd_kit\n")
    assert install < step and required < script.index("\nstep python -m pytest")
    assert "crowd-kit" not in (ROOT / ".ci" / "run").read_text(encoding="utf-8").replace(
        "(it installs crowd-kit, the consensus models' peer)", ""
    )


def test_the_dev_extras_install_what_crowd_kit_imports() -> None:
    # crowd-kit is installed without its dependencies; transformers (its "learning" part)
    # is the one the aggregation models do not import.
    import tomllib
    from importlib import metadata

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name
    from test_docs import _installed_by

    peer("crowdkit.aggregation")  # its metadata is read below
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    installed = _installed_by([*project["dependencies"], *extras["dev"]], extras)
    needed = {
        canonicalize_name(r.name)
        for r in map(Requirement, metadata.requires("crowd-kit") or [])
        if r.marker is None
    }
    assert needed - {"transformers"} <= installed, needed - installed


def test_the_crowd_kit_comparisons_are_slow_and_the_test_command_runs_them() -> None:
    # #27: a test that calls crowd-kit carries the `slow` marker; nothing deselects it
    import ast
    import tomllib

    found = []
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        if path.name == "test_peers.py":  # reads crowd-kit's metadata, compares nothing
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and "peer('crowdkit" in ast.unparse(node):
                marks = {ast.unparse(d) for d in node.decorator_list}
                found.append(node.name)
                assert "pytest.mark.slow" in marks, f"{path.name}::{node.name}"
    assert len(found) >= 3
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    addopts = options["tool"]["pytest"]["ini_options"]["addopts"]
    assert not any(o.startswith("-m") or "slow" in o for o in addopts), addopts
    script = (ROOT / ".ci" / "test").read_text(encoding="utf-8")
    pytest_line = next(s for s in script.splitlines() if s.startswith("step python -m pytest"))
    assert pytest_line.split("#")[0].split() == ["step", "python", "-m", "pytest"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "not slow" not in readme
