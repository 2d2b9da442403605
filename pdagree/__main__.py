"""``python -m pdagree``: the ``pdagree`` command line (see :mod:`pdagree.cli`)."""

from __future__ import annotations

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
