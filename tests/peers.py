"""The differential peers that are not in the dev extras: skipped where they are missing,
except under the project's test command, where a missing peer fails its tests.

crowd-kit (the consensus models' peer) pins packages this project outgrew, so it cannot be a
dev extra; ``.ci/test`` installs it without its dependencies when it is missing and sets
``PDAGREE_REQUIRE_PEERS=1``, so that its tests run there rather than skip silently.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest

REQUIRE = "PDAGREE_REQUIRE_PEERS"
"""The environment variable that turns a missing peer from a skip into a failure."""


def peer(module: str) -> ModuleType:
    """``module``, imported; where it is missing, a skip, or (with ``PDAGREE_REQUIRE_PEERS``
    set, as ``.ci/test`` does) a failure that says how to install it."""
    if not os.environ.get(REQUIRE):
        return pytest.importorskip(module)
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        pytest.fail(
            f"{module} is needed by this differential test and {REQUIRE} is set (.ci/test "
            f"sets it): install it, e.g. `pip install --no-deps crowd-kit==1.4.2` ({exc})",
            pytrace=False,
        )
