"""Forwarding methods that exist on the class.

The faces that hold no analysis of their own (the ``DataFrame.agree`` accessor, the
:class:`~pdagree.Tally`, the Dask accessor) offer the methods of the ratings object they build.
:func:`forward` writes those methods onto the class once, when the class is created, from one
declared list of names (:func:`public_members` of the class forwarded to): each is a real
function of the class, with the target's signature, docstring and
annotations, so ``hasattr``, ``help()``, IDEs and Sphinx see it. Calling it builds the target
object (``via(self)``) and calls the same-named method there, so the results, warnings and
errors are the target's.
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

__all__ = ["forward", "public_members"]

_C = TypeVar("_C", bound=type)


def public_members(target: type) -> tuple[str, ...]:
    """The names a face forwards to ``target``: its public methods and properties, sorted.

    Class and static methods (constructors such as ``from_frame``) and nested classes are
    left out: they do not run on the data the face holds.
    """
    names = []
    for name in dir(target):
        if name.startswith("_"):
            continue
        member = inspect.getattr_static(target, name)
        if isinstance(member, property) or inspect.isfunction(member):
            names.append(name)
    return tuple(names)


def forward(target: type, names: Iterable[str], via: Callable[[Any], Any]) -> Callable[[_C], _C]:
    """A class decorator: give the class each of ``names`` as a method (or a property) that
    runs the same-named member of ``via(self)``, an instance of ``target``.

    A name the class defines itself keeps the class's own member. A name ``target`` lacks, or
    that is not a function or a property of it, is refused with a ``TypeError`` (a declared
    list that has drifted from its target).
    """
    names = tuple(names)

    def decorate(cls: _C) -> _C:
        for name in names:
            if name in vars(cls):
                continue
            member = inspect.getattr_static(target, name, None)
            if isinstance(member, property):
                setattr(cls, name, _property(cls, name, member, via))
            elif inspect.isfunction(member):
                setattr(cls, name, _method(cls, name, member, via))
            else:
                raise TypeError(
                    f"`{cls.__name__}` forwards {name!r}, which is not a method or a property "
                    f"of `{target.__name__}`; remove it from the list or add it there."
                )
        return cls

    return decorate


def _method(
    cls: type, name: str, function: Callable[..., Any], via: Callable[[Any], Any]
) -> Callable[..., Any]:
    """``cls.<name>``: ``via(self).<name>(*args, **kwargs)``, described as ``function``."""

    def method(self: Any, /, *args: Any, **kwargs: Any) -> Any:
        return getattr(via(self), name)(*args, **kwargs)

    method = _in_namespace_of(method, function)
    # The target's signature, ``self`` included as on any function of a class: a bound
    # method (``tally.fleiss``) then shows the signature without it.
    signature = inspect.signature(function)  # follows a wrapper's ``__wrapped__``
    self_ = next(iter(signature.parameters.values()))
    method.__signature__ = signature  # type: ignore[attr-defined]
    method.__name__ = name
    method.__qualname__ = f"{cls.__qualname__}.{name}"
    method.__module__ = cls.__module__
    method.__doc__ = function.__doc__
    annotations = inspect.get_annotations(inspect.unwrap(function))
    method.__annotations__ = {k: v for k, v in annotations.items() if k != self_.name}
    return method


def _property(cls: type, name: str, member: property, via: Callable[[Any], Any]) -> property:
    """``cls.<name>``: the property ``via(self).<name>``, with ``member``'s docstring."""

    def read(self: Any) -> Any:
        return getattr(via(self), name)

    if member.fget is not None:
        read = _in_namespace_of(read, member.fget)
        read.__annotations__ = dict(inspect.get_annotations(member.fget))
    read.__name__ = name
    read.__qualname__ = f"{cls.__qualname__}.{name}"
    read.__module__ = cls.__module__
    return property(read, doc=member.__doc__)


def _in_namespace_of(function: Callable[..., Any], target: Callable[..., Any]) -> Any:
    """``function`` with the module namespace of ``target`` (unwrapped), where the names of
    the annotations it takes from ``target`` resolve (``typing.get_type_hints``)."""
    namespace = getattr(inspect.unwrap(target), "__globals__", None)
    if not isinstance(function, types.FunctionType) or namespace is None:
        return function
    return types.FunctionType(
        function.__code__, namespace, function.__name__, None, function.__closure__
    )
