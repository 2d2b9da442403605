"""``Ratings.kendall_w``: check the input, rank, label the result."""

from __future__ import annotations

import pandas as pd

from .._warnings import PdagreeWarning, warn
from ..scores import ScoreData, Scores, complete_items, warn_undefined
from ._result import KendallW
from ._sums import kendall_sums

__all__ = ["kendall_w"]


def kendall_w(data: ScoreData, *, correct_ties: bool = True) -> KendallW | pd.DataFrame:
    """Kendall's coefficient of concordance W of the raters' rankings of the items.

    Each rater's numeric ratings are ranked over the items (mid-ranks for ties); W is 1
    when every rater ranks the items alike and 0 when their rankings share nothing.
    Items some rater did not rate are dropped, with a warning.

    Parameters
    ----------
    correct_ties : bool, default True
        The tie correction of Kendall & Babington Smith (1939), as R irr's
        ``kendall(correct = TRUE)``.

    Returns
    -------
    KendallW or DataFrame
        W as a float carrying ``chi2 = m (n - 1) W`` and ``df = n - 1`` (``p_value()`` is
        the chi-square test). With ``by=``, one row per group.

    Raises
    ------
    TypeError
        ``correct_ties`` not True or False.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdagree
    >>> ranks = pd.DataFrame({"a": [1, 2, 3, 4], "b": [1, 3, 2, 4], "c": [2, 1, 3, 4]})
    >>> round(float(ranks.agree.kendall_w()), 4)
    0.7778
    """
    if not isinstance(correct_ties, bool):
        raise TypeError(f"`correct_ties` must be True or False; got {correct_ties!r}.")
    data = data.rows
    scores = Scores.of(data, "kendall_w", finite=False)  # ranks order infinities
    keep, _, dropped = complete_items(scores, "omit")
    if dropped:
        warn(f"`kendall_w()` dropped {dropped} items some rater did not rate.", PdagreeWarning)
    enc = data.enc
    w, chi2, df, (n, m) = kendall_sums(scores, keep, correct_ties)
    warn_undefined(w, "kendall_w", enc.groups)
    if enc.groups is not None:
        from scipy import stats

        return pd.DataFrame(
            {
                "value": w,
                "chi2": chi2,
                "df": df,
                "p_value": stats.chi2.sf(chi2, df),
                "n_items": n,
                "n_raters": m,
            },
            index=enc.groups,
        )
    return KendallW(
        float(w[0]),
        name="kendall_w",
        n_items=int(n[0]),
        n_raters=int(m[0]),
        n_categories=0,  # W ranks the scores: no categories (nor a sort of them here)
        categories=(),
        chi2=float(chi2[0]),
        df=float(df[0]),
        n_dropped=dropped,
    )
