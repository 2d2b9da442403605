"""Modules imported on first use, so that ``import pdagree`` stays cheap.

``scipy.sparse`` alone takes longer to import than the rest of pdagree (about 0.1 s); only the
rater-pair tables, the bootstrap's item sums and the consensus models need it; ``scipy.stats``
only the ICC's F tests and intervals; ``scipy.special`` (about 0.15 s) only GLAD.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

__all__ = ["LazyModule", "scipy_sparse", "scipy_special", "scipy_stats"]


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
scipy_special: Any = LazyModule("scipy.special")
scipy_stats: Any = LazyModule("scipy.stats")
