"""Modules imported on first use, so that ``import pdagree`` stays cheap.

``scipy.sparse`` alone takes longer to import than the rest of pdagree (about 0.1 s); only the
rater-pair tables and the bootstrap's item sums need it.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

__all__ = ["LazyModule", "scipy_sparse"]


class LazyModule:
    """Stands for the module ``name`` and imports it when an attribute is first read.

    >>> json = LazyModule("json")
    >>> json.dumps([1])
    '[1]'
    """

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def _load(self) -> ModuleType:
        return importlib.import_module(self._name)

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._load(), attr)

    def __repr__(self) -> str:
        return f"LazyModule({self._name!r})"


scipy_sparse: Any = LazyModule("scipy.sparse")
