"""The fitted graded response model: parameters, standard errors, curves and item scores."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

import numpy as np
import pandas as pd

from .._typing import FloatArray
from ..encoding import plain
from ._data import IRTData
from ._model import category_terms, extend_thresholds, posterior

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["GradedResponseFit", "LRTest"]


class LRTest(NamedTuple):
    """The likelihood-ratio test of a restricted model against a larger one on the same data.

    ``statistic = 2 (logL_larger - logL_restricted)``, referred to a chi-squared distribution
    with ``df`` = the difference in the numbers of parameters.
    """

    statistic: float
    df: int
    p_value: float


class GradedResponseFit:
    """A graded response model fitted to ratings, judges as IRT items (Amidei et al. 2020).

    Built by :meth:`pdagree.Ratings.irt`, whose documentation describes the model.

    Attributes
    ----------
    parameters : pandas.DataFrame
        One row per judge (in the frame's column order), columns ``discrimination`` and
        ``extremity_1`` ... ``extremity_{K-1}``: ``extremity_k`` is the latent trait at which
        the judge gives a category above the k-th with probability 0.5. nan where the judge
        never uses the categories on one side of that boundary.
    standard_errors : pandas.DataFrame
        The same shape and labels: from the observed information (the Hessian of the
        log-likelihood at the maximum), through the delta method for the extremities.
    loglik, aic, bic : float
        The maximised marginal log-likelihood; ``AIC = -2 logL + 2 df`` and
        ``BIC = -2 logL + log(n) df``, with ``df = n_parameters`` and ``n = n_items``.
    converged : bool
        Whether the fit reached a maximum, judged from the gradient and the observed
        information at the solution (see ``message``).
    n_iterations : int
        BFGS iterations plus the Newton steps that polish the solution.
    message : str
        The optimiser's message and the gradient at the solution.
    constrained : bool
        One discrimination for all judges (True) or one per judge.
    quadrature : int
        The number of Gauss-Hermite nodes.
    n_parameters : int
        The fitted thresholds plus the discriminations.
    n_items : int
        Items with at least one rating.
    categories, raters : pandas.Index
        The ordered categories and the judges.
    """

    def __init__(
        self,
        *,
        data: IRTData,
        thresholds: FloatArray,
        discrimination: FloatArray,
        covariance: FloatArray,
        loglik: float,
        converged: bool,
        n_iterations: int,
        message: str,
        constrained: bool,
        quadrature: int,
        nodes: FloatArray,
        weights: FloatArray,
    ) -> None:
        values = {
            "_data": data,
            "_thresholds": thresholds,
            "_discrimination": discrimination,
            "_covariance": covariance,
            "loglik": float(loglik),
            "converged": bool(converged),
            "n_iterations": int(n_iterations),
            "message": str(message),
            "constrained": bool(constrained),
            "quadrature": int(quadrature),
            "_nodes": nodes,
            "_weights": weights,
        }
        for name, value in values.items():
            object.__setattr__(self, name, value)

    _data: IRTData
    _thresholds: FloatArray
    _discrimination: FloatArray
    _covariance: FloatArray
    _nodes: FloatArray
    _weights: FloatArray
    loglik: float
    converged: bool
    n_iterations: int
    message: str
    constrained: bool
    quadrature: int

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError(f"GradedResponseFit is immutable; cannot set {key!r}.")

    # ------------------------------------------------------------------ summary numbers

    @property
    def categories(self) -> pd.Index:
        return self._data.categories

    @property
    def raters(self) -> pd.Index:
        return self._data.raters

    @property
    def n_items(self) -> int:
        return self._data.n_rated

    @property
    def n_parameters(self) -> int:
        return int(self._data.fitted.sum()) + (1 if self.constrained else self._data.n_judges)

    @property
    def aic(self) -> float:
        return -2 * self.loglik + 2 * self.n_parameters

    @property
    def bic(self) -> float:
        return -2 * self.loglik + np.log(self.n_items) * self.n_parameters

    # ------------------------------------------------------------------ parameter tables

    def _index(self) -> pd.Index:
        index = pd.Index(self.raters)
        return index if index.name is not None else index.rename("rater")

    def _columns(self) -> list[str]:
        return ["discrimination"] + [f"extremity_{k}" for k in range(1, self._data.n_categories)]

    @property
    def parameters(self) -> pd.DataFrame:
        values = np.column_stack(
            [self._discrimination, self._thresholds / self._discrimination[:, None]]
        )
        return pd.DataFrame(values, index=self._index(), columns=self._columns())

    @property
    def standard_errors(self) -> pd.DataFrame:
        fitted = self._data.fitted
        n_judges = self._data.n_judges
        n_thr = int(fitted.sum())
        n_par = self._covariance.shape[0]
        # Jacobian of (a_j, Extrmt_jk = beta_jk / a_j) in the natural parameters.
        judge_of = np.nonzero(fitted)[0]
        disc_col = np.zeros(n_judges, dtype=np.int64) if self.constrained else np.arange(n_judges)
        disc_col = disc_col + n_thr
        a = self._discrimination
        jac_disc = np.zeros((n_judges, n_par))
        jac_disc[np.arange(n_judges), disc_col] = 1.0
        jac_ext = np.zeros((n_thr, n_par))
        jac_ext[np.arange(n_thr), np.arange(n_thr)] = 1.0 / a[judge_of]
        jac_ext[np.arange(n_thr), disc_col[judge_of]] = (
            -self._thresholds[fitted] / a[judge_of] ** 2
        )
        var_disc = np.einsum("ip,pq,iq->i", jac_disc, self._covariance, jac_disc)
        var_ext = np.einsum("ip,pq,iq->i", jac_ext, self._covariance, jac_ext)
        ext = np.full(fitted.shape, np.nan)
        with np.errstate(invalid="ignore"):
            ext[fitted] = np.sqrt(var_ext)
            values = np.column_stack([np.sqrt(var_disc), ext])
        return pd.DataFrame(values, index=self._index(), columns=self._columns())

    # ------------------------------------------------------------------ comparisons

    def lr_test(self, other: GradedResponseFit) -> LRTest:
        """The likelihood-ratio test of the model with fewer parameters (typically
        ``constrained=True``) against the one with more, fitted to the same ratings.

        Parameters
        ----------
        other : GradedResponseFit
            The other fit, of the same ratings with the same ``quadrature``; either order.

        Returns
        -------
        LRTest
            ``(statistic, df, p_value)``; a small p-value says the larger model fits better.

        Raises
        ------
        TypeError
            If ``other`` is not a fit.
        ValueError
            If the two fits are not on the same ratings or have as many parameters.
        """
        if not isinstance(other, GradedResponseFit):
            raise TypeError(f"`other` must be a fit from `irt()`; got {type(other).__name__}.")
        if not self._data.same_ratings(other._data) or self.quadrature != other.quadrature:
            raise ValueError(
                "`lr_test` compares two fits of the same ratings with the same `quadrature`; "
                "`other` was fitted to other ratings or another quadrature."
            )
        df = abs(self.n_parameters - other.n_parameters)
        if df == 0:
            raise ValueError(
                "`lr_test` compares a restricted model with a larger one; both fits have "
                f"{self.n_parameters} parameters. Fit one with `constrained=True` and one "
                "with `constrained=False`."
            )
        larger, smaller = (
            (self, other) if self.n_parameters > other.n_parameters else (other, self)
        )
        statistic = max(2 * (larger.loglik - smaller.loglik), 0.0)
        from scipy.stats import chi2  # imported here: `import pdagree` stays fast

        return LRTest(float(statistic), int(df), float(chi2.sf(statistic, df)))

    def disagreement(
        self, a: Hashable, b: Hashable, *, strict_end: Literal["high", "low"] = "high"
    ) -> pd.DataFrame:
        """Where on the latent trait two judges disagree: per category boundary, the interval
        between their extremity parameters and which judge is stricter inside it.

        Inside the interval of ``extremity_k``, the judge with the lower extremity already
        gives a category above the k-th more often than not, and the other judge does not
        yet: Amidei et al. (2020) read the interval [0.173, 0.601] between their Judge 3
        and Judge 1 this way.

        Parameters
        ----------
        a, b : judge labels
        strict_end : {"high", "low"}, default "high"
            Which end of the scale a strict judge leans to. In the paper's data 1 is the best
            score, so the judge who gives the higher categories sooner (the lower extremity)
            is the stricter one (``"high"``); on a scale where high categories are good, say
            ``"low"``.

        Returns
        -------
        pandas.DataFrame
            Indexed by the extremity parameters (``extremity_1`` ... , the boundary between
            categories k and k + 1), columns ``a`` and ``b`` (the two judges' extremities,
            named by their labels), ``low`` and ``high`` (the interval) and ``stricter`` (the
            judge; ``None`` where the two coincide or a judge has no such boundary).
        """
        if strict_end not in ("high", "low"):
            raise ValueError(f"`strict_end` must be 'high' or 'low'; got {strict_end!r}.")
        extremities = self.parameters.drop(columns="discrimination")
        for name, who in (("a", a), ("b", b)):
            if who not in extremities.index:
                shown = list(extremities.index[:10])
                raise ValueError(
                    f"`{name}` must be one of the judges {shown!r}; got {plain(who)!r}."
                )
        if a == b:
            raise ValueError(f"`a` and `b` must be two different judges; got {plain(a)!r} twice.")
        values = extremities.to_numpy(dtype=np.float64)
        first = values[extremities.index.get_loc(a)]
        second = values[extremities.index.get_loc(b)]
        both = np.isfinite(first) & np.isfinite(second)
        low = np.where(both, np.fmin(first, second), np.nan)
        high = np.where(both, np.fmax(first, second), np.nan)
        # Inside the interval, the judge with the lower extremity already gives a category
        # above the boundary: the stricter one when the high end of the scale is the strict one.
        a_lower = first < second
        a_stricter = a_lower if strict_end == "high" else ~a_lower
        stricter: list[Hashable] = [
            None if not (ok and x != y) else (a if a_first else b)
            for ok, x, y, a_first in zip(both, first, second, a_stricter, strict=True)
        ]  # over the K - 1 boundaries
        index = pd.Index(extremities.columns, name="boundary")
        frame = pd.DataFrame({a: first, b: second, "low": low, "high": high}, index=index)
        frame["stricter"] = pd.Series(stricter, index=index, dtype="object")
        return frame

    # ------------------------------------------------------------------ curves and scores

    def _extended(self) -> FloatArray:
        return extend_thresholds(self._thresholds, self._data.fitted, self._data.lowest)

    def _probabilities(self, z: FloatArray) -> FloatArray:
        """P(Y_j = k | z) as (J, K, len(z))."""
        log_p, _, _ = category_terms(self._extended(), self._discrimination, z, self._data.valid)
        return np.exp(log_p)

    def irccc(self, z: Sequence[float] | FloatArray | None = None) -> pd.DataFrame:
        """The item response category characteristic curves: P(Y_j = k | z).

        Parameters
        ----------
        z : array_like, optional
            The latent trait values; default 161 points from -4 to 4.

        Returns
        -------
        pandas.DataFrame
            Tidy: one row per judge, category and ``z``, columns ``rater``, ``category``,
            ``z`` and ``probability``. A category a judge never uses has probability 0.
        """
        grid = np.linspace(-4.0, 4.0, 161) if z is None else np.asarray(z, dtype=np.float64)
        grid = grid.reshape(-1)
        if not np.all(np.isfinite(grid)):
            raise ValueError("`z` must hold finite numbers; got nan or inf.")
        probabilities = self._probabilities(grid)
        n_judges, n_categories, n_z = probabilities.shape
        return pd.DataFrame(
            {
                "rater": np.repeat(np.asarray(self.raters, dtype=object), n_categories * n_z),
                "category": np.tile(
                    np.repeat(np.asarray(self.categories, dtype=object), n_z), n_judges
                ),
                "z": np.tile(grid, n_judges * n_categories),
                "probability": probabilities.reshape(-1),
            }
        )

    def item_scores(self) -> pd.DataFrame:
        """Each item's latent trait given its ratings: the posterior mean (EAP) and sd.

        Returns
        -------
        pandas.DataFrame
            Indexed like the frame's rows, columns ``mean`` and ``sd``, computed with the
            fit's quadrature. An item nobody rated gets the prior: mean 0, sd 1.
        """
        data = self._data
        weights = posterior(
            data.patterns,
            self._extended(),
            self._discrimination,
            self._nodes,
            np.log(self._weights),
            data.valid,
        )
        mean = weights @ self._nodes
        variance = np.maximum(weights @ self._nodes**2 - mean**2, 0.0)
        return pd.DataFrame(
            {"mean": mean[data.inverse], "sd": np.sqrt(variance)[data.inverse]},
            index=data.items,
        )

    def plot(
        self,
        raters: Sequence[Hashable] | None = None,
        *,
        z: Sequence[float] | FloatArray | None = None,
        ax: Any = None,
    ) -> Figure:
        """Draw the IRCCC: one panel per judge, one curve per category (the paper's
        Figures 2 and 3).

        Parameters
        ----------
        raters : list of judge labels, optional
            The judges to draw (default: all).
        z : array_like, optional
            The latent trait values (default 161 points from -4 to 4).
        ax : matplotlib Axes or sequence of them, optional
            One per judge drawn; default a new figure with one panel per judge.

        Returns
        -------
        matplotlib.figure.Figure
            The figure drawn on; nothing is shown (call ``plt.show()`` or let the notebook
            display it).

        Raises
        ------
        ImportError
            If matplotlib is not installed: ``pip install "pdagree[plot]"``.
        """
        from ._plot import plot_irccc

        return plot_irccc(self, raters, z=z, ax=ax)

    # ------------------------------------------------------------------ display

    def __repr__(self) -> str:
        kind = "constrained" if self.constrained else "unconstrained"
        cats = list(self.categories[:8]) + (["..."] if len(self.categories) > 8 else [])
        head = (
            f"GradedResponseFit({kind}: {len(self.raters)} judges, {self.n_items} items, "
            f"categories {cats})\n"
            f"logL = {self.loglik:.4f}, AIC = {self.aic:.4f}, BIC = {self.bic:.4f}, "
            f"converged = {self.converged}\n"
        )
        with pd.option_context("display.precision", 4):
            return head + self.parameters.to_string()
