"""The result of a consensus model: labels, probabilities and the annotators' quality."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["Consensus"]


@dataclass(frozen=True, eq=False)
class Consensus:
    """One label per item from several annotators' labels, with the model behind it.

    Attributes
    ----------
    labels : Series
        Item -> the chosen category (missing for an item without votes, or a tie with
        ``ties="nan"``); with ``by=``, indexed by (group keys, item).
    probabilities : DataFrame
        Items x categories: the posterior probability of each category (majority vote: the
        vote shares; Wawa and zero-based skill: the skill-weighted vote shares; M-MSR: the
        one-coin posterior given its skills, uniform priors); rows sum to 1. KOS gives no
        probabilities: nan.
    quality : DataFrame
        Per annotator (with ``by=``: per group and annotator): ``n_items`` rated and
        ``accuracy``, the probability of a correct label under the model
        (``sum_k p_k pi_kk`` over the fitted category shares; GLAD: the mean of
        ``sigma(alpha_j beta_i)`` over its items; majority vote: the share of the
        annotator's labels that equal the consensus, nan with a warning for an annotator
        whose items all lack one under ``ties="nan"``; the same for Wawa, zero-based skill
        and KOS); GLAD adds ``ability`` (``alpha_j``), MACE ``spam`` (``1 - theta_j``), Wawa
        and zero-based skill ``skill``, KOS ``reliability`` (its final message, scaled to
        at most 1 in absolute value per group), M-MSR ``skill`` (``s_j``, from
        ``-1 / (K - 1)`` to 1) and ``weight`` (its vote's weight), its ``accuracy`` being
        ``p_j = s_j (K - 1) / K + 1 / K``.
    confusion : DataFrame or None
        Dawid-Skene, one-coin and MACE: per (annotator, true category) the probabilities of
        each given label (rows sum to 1); None for majority vote and GLAD (whose
        probabilities depend on the item).
    priors : Series
        The categories' prior probabilities (with ``by=``: per group and category).
    log_likelihood, n_iterations, converged
        The fit's log-likelihood, EM iterations and whether it converged (with ``by=``: a
        Series per group); nan, 0 and True for majority vote, Wawa and zero-based skill;
        nan and the iterations of KOS and M-MSR.
    method : str
        The method's name.
    n_ratings : ndarray
        Per item, the number of votes (known labels not counted).
    difficulty : Series or None
        GLAD: each item's difficulty ``1 / beta_i`` (0: anyone gets it right; large: a coin
        toss for every annotator); None for the other methods.
    strategy : DataFrame or None
        MACE: per annotator, the distribution of the labels it gives when it spams
        (``xi_j``); None for the other methods.
    """

    labels: pd.Series
    probabilities: pd.DataFrame
    quality: pd.DataFrame
    confusion: pd.DataFrame | None
    priors: pd.Series
    log_likelihood: Any
    n_iterations: Any
    converged: Any
    method: str
    n_ratings: np.ndarray
    difficulty: pd.Series | None = None
    strategy: pd.DataFrame | None = None

    def to_frame(self) -> pd.DataFrame:
        """One row per item: its consensus label and how sure the model is of it.

        Returns
        -------
        DataFrame
            Indexed like :attr:`labels` (with ``by=``: group keys, then item):

            =================  ================================================
            column             holds
            =================  ================================================
            ``label``          the consensus label (nan for an exact tie with
                               ``ties="nan"``)
            ``probability``    its probability under the model
            ``margin``         over the second most probable category
            ``n_ratings``      the item's ratings
            =================  ================================================
        """
        p = np.nan_to_num(self.probabilities.to_numpy(dtype=np.float64), nan=-np.inf)
        k = p.shape[1]
        top = np.sort(p, axis=1)[:, ::-1] if k else np.zeros((len(p), 0))
        best = top[:, 0] if k else np.full(len(p), np.nan)
        second = top[:, 1] if k > 1 else np.zeros(len(p))
        with np.errstate(invalid="ignore"):
            margin = np.where(np.isfinite(best), best - np.maximum(second, 0.0), np.nan)
        best = np.where(np.isfinite(best), best, np.nan)
        return pd.DataFrame(
            {
                "label": self.labels,
                "probability": best,
                "margin": margin,
                "n_ratings": self.n_ratings,
            },
            index=self.labels.index,
        )

    def __repr__(self) -> str:
        n = len(self.labels)
        labelled = int(self.labels.notna().sum())
        return (
            f"<Consensus {self.method}: {labelled} of {n} items labelled, "
            f"{len(self.quality)} annotators>"
        )
