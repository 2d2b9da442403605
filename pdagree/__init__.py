"""pdagree: inter-annotator agreement as one method call on pandas frames.

Importing the package registers the ``DataFrame.agree`` accessor:

>>> import pandas as pd
>>> import pdagree
>>> df = pd.DataFrame({"ann1": ["a", "a", "b"], "ann2": ["a", "b", "b"]})
>>> round(float(df.agree.cohen()), 4)
0.4
"""

from __future__ import annotations

from . import datasets
from ._warnings import PdagreeWarning, UndefinedStatisticWarning
from .accessor import AgreeAccessor
from .ratings import Ratings
from .results import Coefficient
from .spa import spa_variance

__all__ = [
    "AgreeAccessor",
    "Coefficient",
    "PdagreeWarning",
    "Ratings",
    "UndefinedStatisticWarning",
    "datasets",
    "spa_variance",
]

__version__ = "0.1.0.dev0"
