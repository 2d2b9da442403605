"""pdagree: inter-annotator agreement as one method call on pandas frames.

Importing the package registers the ``DataFrame.agree`` accessor:

>>> import pandas as pd
>>> import pdagree
>>> df = pd.DataFrame({"ann1": ["a", "a", "b"], "ann2": ["a", "b", "b"]})
>>> round(float(df.agree.cohen()), 4)
0.4
"""

from __future__ import annotations

from . import datasets, io, multilabel, plotting
from ._errors import AnnotationsNeeded, ItemsNeeded, RatersNeeded
from ._version import __version__
from ._warnings import (
    ConvergenceWarning,
    LayoutWarning,
    PdagreeWarning,
    UndefinedStatisticWarning,
)
from .accessor import AgreeAccessor
from .ratings import Ratings
from .results import Coefficient, Statistic
from .spa import spa_variance
from .spans import SpanRatings
from .tally import Tally

__all__ = [
    "AgreeAccessor",
    "AnnotationsNeeded",
    "Coefficient",
    "ConvergenceWarning",
    "ItemsNeeded",
    "LayoutWarning",
    "PdagreeWarning",
    "RatersNeeded",
    "Ratings",
    "SpanRatings",
    "Statistic",
    "Tally",
    "UndefinedStatisticWarning",
    "__version__",
    "datasets",
    "io",
    "multilabel",
    "plotting",
    "spa_variance",
]
