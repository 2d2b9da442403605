"""#27: the public API's docstrings validate under numpydoc.

The checks are pyproject's ``[tool.numpydoc_validation] checks``. The objects are read from
the package, not listed: ``pdagree.__all__``, the public methods of its classes (``Ratings``,
``Tally``, ``AgreeAccessor``, ``Coefficient``), the result classes the methods of ``Ratings``
return (``ICC``, ``KendallW``, ``Consensus``, ...), ``pdagree.io`` and ``pdagree.plotting``.
Parameters are read from each signature, so a renamed or added argument must be documented.
"""

from __future__ import annotations

import inspect
import tomllib
import types
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from numpydoc.docscrape import NumpyDocString
from numpydoc.validate import validate

import pdagree
from pdagree import io, plotting

ROOT = Path(__file__).resolve().parents[1]
CHECKS = set(
    tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "numpydoc_validation"
    ]["checks"]
)


def _returned_classes(function: Callable[..., Any]) -> Iterator[type]:
    """The pdagree classes in ``function``'s return annotation."""
    try:
        hint = typing.get_type_hints(function).get("return")
    except (NameError, TypeError):  # an annotation that does not resolve at run time
        return
    todo = [hint]
    while todo:
        t = todo.pop()
        todo += typing.get_args(t)
        if isinstance(t, type) and t.__module__.startswith("pdagree"):
            yield t


def _classes() -> list[type]:
    """The public classes of pdagree.__all__ and the result classes Ratings' methods return."""
    found = [
        obj
        for name in pdagree.__all__
        if isinstance(obj := getattr(pdagree, name), type) and not issubclass(obj, Warning)
    ]
    # Methods annotated `-> Any` (to keep their modules out of `import pdagree`): the class
    # of what they return on a small frame.
    ratings = pd.DataFrame(
        {"a": [1, 2, 3, 4, 2], "b": [1, 3, 3, 4, 1], "c": [2, 2, 3, 5, 1]}
    ).agree()
    found += [type(ratings.icc()), type(ratings.kendall_w()), type(ratings.consensus())]
    for cls in list(found):
        for name in dir(cls):
            if not name.startswith("_") and callable(attr := getattr(cls, name)):
                found += [c for c in _returned_classes(attr) if c not in found]
    return found


def _path(obj: Any) -> str:
    return f"{obj.__module__}.{obj.__qualname__}"


def _objects() -> dict[str, Any]:
    """Import path -> object, for every object whose docstring is validated."""
    objects: dict[str, Any] = {}
    for name in pdagree.__all__:
        obj = getattr(pdagree, name)
        if isinstance(obj, types.FunctionType):
            objects[f"pdagree.{name}"] = obj
    for module in (io, plotting):
        for name in module.__all__:
            objects[f"{module.__name__}.{name}"] = getattr(module, name)
    for cls in _classes():
        objects[_path(cls)] = cls
        for name in dir(cls):
            static = inspect.getattr_static(cls, name)
            if name.startswith("_") or isinstance(static, property):
                continue
            function = getattr(static, "__func__", static)  # classmethod, staticmethod
            if isinstance(function, types.FunctionType) and function.__module__.startswith(
                "pdagree"
            ):
                owner = next(c for c in cls.__mro__ if name in vars(c))
                objects[f"{_path(owner)}.{name}"] = getattr(cls, name)
    return objects


OBJECTS = _objects()


def _signature_parameters(obj: Any) -> list[str]:
    """The parameters a caller passes (``**options: Unpack[T]`` stands for T's keys)."""
    parameters = []
    try:
        hints = typing.get_type_hints(obj, include_extras=True)
    except NameError:  # an annotation imported only for type checkers (matplotlib's Figure)
        hints = {}
    for p in inspect.signature(obj).parameters.values():
        if p.name in ("self", "cls") or not p.name.strip("_"):
            continue  # `*_, **__`: accepted and ignored (a subclass's override)
        if p.kind is p.VAR_KEYWORD:
            hint = hints.get(p.name)
            if typing.get_origin(hint) is typing.Unpack:
                parameters += list(typing.get_type_hints(typing.get_args(hint)[0]))
                continue
            parameters.append(f"**{p.name}")
        elif p.kind is p.VAR_POSITIONAL:
            parameters.append(f"*{p.name}")
        else:
            parameters.append(p.name)
    return parameters


def _documented_parameters(obj: Any) -> list[str]:
    doc = NumpyDocString(inspect.getdoc(obj) or "")
    names = []
    for section in ("Parameters", "Other Parameters"):
        for parameter in doc[section]:
            names += [n.strip() for n in parameter.name.split(",")]
    return names


def test_the_api_is_found() -> None:
    assert {
        "pdagree.ratings.Ratings.fleiss",
        "pdagree.results.Coefficient.confidence_interval",
        "pdagree.tally.Tally.add",
        "pdagree.io.read_label_studio",
        "pdagree.plotting.pairwise",
    } <= set(OBJECTS)
    names = {path.rsplit(".", 1)[-1] for path in OBJECTS}
    assert {"ICC", "KendallW", "Consensus"} <= names
    assert {"PR01", "PR02", "RT01", "GL07"} <= CHECKS


@pytest.mark.parametrize("path", sorted(OBJECTS))
def test_docstring_validates(path: str) -> None:
    obj = OBJECTS[path]
    errors = [
        f"{code}: {message}"
        for code, message in validate(path)["errors"]
        # Parameters are compared below, with Unpack[...] read as its keys.
        if code in CHECKS and code not in {"PR01", "PR02"}
    ]
    if not isinstance(obj, type):  # classes are built by the package, not by the user
        signature, documented = _signature_parameters(obj), _documented_parameters(obj)
        missing = [p for p in signature if p not in documented]
        unknown = [p for p in documented if p not in signature]
        if missing and "PR01" in CHECKS:
            errors.append(f"PR01: parameters {missing} not documented")
        if unknown and "PR02" in CHECKS:
            errors.append(f"PR02: unknown parameters {unknown}")
    assert not errors, "\n".join(errors)


def test_the_inference_note_comes_before_the_examples() -> None:
    from pdagree.evaluate import INFERENCE_NOTE

    note = inspect.cleandoc(INFERENCE_NOTE).splitlines()[0]
    for name in ("observed", "fleiss", "cohen", "gwet", "alpha", "spa", "light", "bias"):
        doc = inspect.getdoc(getattr(pdagree.Ratings, name)) or ""
        assert note in doc, name
        for later in ("Raises", "Warns", "Notes", "References", "Examples"):
            if f"\n{later}\n---" in doc:
                assert doc.index(note) < doc.index(f"\n{later}\n---"), (name, later)
