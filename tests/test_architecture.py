"""The house rules of docs/architecture.md ("Layers") that a linter does not check.

``lint-imports`` (in ``.ci/test``) holds the layers; here: no import cycle among pdagree's
modules (imports inside functions count, ``if TYPE_CHECKING:`` imports do not), no module
over 600 lines, and a registry in which every coefficient says what it needs and offers.
"""

from __future__ import annotations

import ast
import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

import pdagree
from pdagree import Ratings
from pdagree.definitions import REGISTRY, Components, Definition

PACKAGE = Path(pdagree.__file__).parent
MAX_LINES = 600


def _imports() -> dict[str, set[str]]:
    graph = grimp.build_graph("pdagree", exclude_type_checking_imports=True)
    return {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle() -> None:
    # The package's own __init__ imports its public modules; none of them imports it back.
    edges = _imports()
    assert not _cycles(edges), _cycles(edges)


def test_no_module_over_600_lines() -> None:
    sizes = {
        str(path.relative_to(PACKAGE)): len(path.read_text(encoding="utf-8").splitlines())
        for path in PACKAGE.rglob("*.py")
    }
    assert sizes, "no modules found"
    too_long = {name: n for name, n in sizes.items() if n > MAX_LINES}
    assert not too_long, f"modules over {MAX_LINES} lines: {too_long}"


def test_inference_does_not_touch_ratings() -> None:
    edges = _imports()
    assert "pdagree.ratings" not in edges["pdagree.inference"]
    source = (PACKAGE / "inference.py").read_text(encoding="utf-8")
    assert "Ratings" not in source and "._enc." not in source and "._nik" not in source


# ------------------------------------------------------------------------------ registry


@pytest.mark.parametrize("name", list(REGISTRY))
def test_every_registered_coefficient_is_a_ratings_method(name: str) -> None:
    definition = REGISTRY[name]
    assert isinstance(definition, Definition) and definition.name == name
    method = getattr(Ratings, name)
    # The method's documentation is the definition's, written once (every line, in order),
    # with the shared sections it lacks (weights, Returns, the inference options) inserted.
    lines = iter(method.__doc__.splitlines())
    assert all(line in lines for line in definition.compute.__doc__.splitlines())
    # The method takes the definition's options (beyond the data) and the inference options.
    wanted = list(inspect.signature(definition.compute).parameters)[1:]
    given = list(inspect.signature(method).parameters)[1:]
    assert given[: len(wanted)] == wanted and given[-1] == "options"
    assert not definition.weights or "weights" in wanted  # agreement weights (SPA: per item)
    assert definition.levels == ("level" in wanted)


def test_every_coefficient_method_is_registered() -> None:
    # A public Ratings method that returns a coefficient must be in the registry.
    coefficient_methods = {
        name
        for name, member in vars(Ratings).items()
        if callable(member) and "options" in inspect.signature(member).parameters
    }
    assert coefficient_methods == set(REGISTRY)


def test_definitions_return_components() -> None:
    data = pdagree.datasets.load("fort2011_trains").agree()._data
    for name, definition in REGISTRY.items():
        if definition.two_raters:
            continue
        parts = definition.compute(data)
        assert isinstance(parts, Components), name
        assert parts.value.shape == parts.observed.shape == parts.expected.shape == (1,)


# ------------------------------------------------------------------------------ import cost

# Slow to import (scipy.special alone adds about 0.15 s to `import pandas`) and needed only
# by some methods: imported on first use (pdagree._lazy or inside the function), never by
# `import pdagree` (#26).
HEAVY = ("scipy.special", "scipy.stats", "scipy.optimize", "matplotlib", "dask")


def test_import_pdagree_loads_no_heavy_module() -> None:
    script = "import pdagree, sys; print('\\n'.join(sorted(sys.modules)))"
    env = {**os.environ, "PYTHONPATH": str(PACKAGE.parent)}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
    )
    loaded = done.stdout.split()
    assert "pdagree.consensus._glad" in loaded  # the import did load the package
    heavy = [m for m in loaded if any(m == h or m.startswith(f"{h}.") for h in HEAVY)]
    assert not heavy, f"`import pdagree` loads {heavy[:5]}"


def test_no_module_imports_a_heavy_module_at_top_level() -> None:
    # The subprocess above sees only the modules `import pdagree` loads; this covers the
    # others too. pdagree.dask is the Dask engine (`import pdagree.dask`): it needs dask.
    optional = {"pdagree.dask"}
    pattern = re.compile(
        r"^(?:from|import) (" + "|".join(re.escape(h) for h in HEAVY) + r")\b|"
        r"^from scipy import .*\b(special|stats|optimize)\b",
        re.MULTILINE,
    )
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if any(module == o or module.startswith(f"{o}.") for o in optional):
            continue
        if pattern.search(path.read_text(encoding="utf-8")):
            offenders.append(module)
    assert not offenders, offenders


# ------------------------------------------------------------------------------ private modules

# A name that starts with "_" is private to the package that holds it: a module may import
# `pdagree.a._b` (a private module, or a private name of `pdagree.a`'s `__init__`) or anything
# below it only if it is itself `pdagree.a` or inside it. A package says in its `__init__`
# what the others may use (#27). The root's private modules
# (`_typing`, `_warnings`, `_version`, `_lazy`, `_kernels`) are held by `pdagree` itself, so
# every module may import them; the modules inside `_kernels` are public within it.


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_modules(path: Path) -> set[str]:
    """Every module an ``import`` names in the file, imports inside functions included;
    ``from package import name`` counts as ``package.name`` too (name may be a module)."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
    return {name for name in found if name == "pdagree" or name.startswith("pdagree.")}


def _private_owner(target: str) -> str | None:
    """The package that holds the first private part of ``target`` (None: no private part)."""
    parts = target.split(".")
    for i, part in enumerate(parts):
        if part.startswith("_") and not part.startswith("__"):
            return ".".join(parts[:i])
    return None


def _private_imports() -> list[tuple[str, str]]:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        importer = _module_name(path)
        for target in sorted(_imported_modules(path)):
            owner = _private_owner(target)
            if owner is not None and not (importer == owner or importer.startswith(f"{owner}.")):
                offenders.append((importer, target))
    return offenders


def test_private_import_finder() -> None:
    assert _private_owner("pdagree.encoding._labels._fmt") == "pdagree.encoding"
    assert _private_owner("pdagree._kernels.alpha") == "pdagree"
    assert _private_owner("pdagree.encoding.levels") is None
    imported = _imported_modules(PACKAGE / "counting" / "__init__.py")
    assert "pdagree.counting.state" in imported


def test_no_module_imports_another_package_private_module() -> None:
    offenders = _private_imports()
    pairs = sorted({(importer, _private_owner(target)) for importer, target in offenders})
    assert not offenders, f"{len(pairs)} importer→package pairs: {pairs}"
