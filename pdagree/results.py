"""Result types: a float that remembers what produced it.

A :class:`Coefficient` is a :class:`float` (so ``if r < 0.6``, f-strings, sorting and
``groupby(...).apply(lambda g: g.agree.fleiss())`` giving a float Series all work) that also
carries the components it was computed from. ``by=`` calls return a DataFrame with one row per
group and one column per member.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Self

import pandas as pd

from .result_source import counted, settle, unsettled

if TYPE_CHECKING:
    from .result_source import Deferred, Source

__all__ = ["Coefficient", "Statistic", "register_plot"]

#: The charts that :meth:`Coefficient.plot` delegates to, by coefficient name (before any
#: ``[...]``; ``""`` for every other coefficient). :mod:`pdagree.plotting`, which sits above
#: this module, registers them when pdagree is imported.
_PLOTS: dict[str, Callable[..., Any]] = {}


def _fmt(x: float) -> str:
    return "nan" if math.isnan(x) else f"{x:.4f}"


def _rebuild(cls: type[Statistic], value: float, state: dict[str, Any]) -> Statistic:
    return cls(value, **state)


class Statistic(float):
    """A statistic of ratings: a float carrying what it was computed on, immutable.

    The shared base of :class:`Coefficient`, :class:`~pdagree.ICC` and
    :class:`~pdagree.KendallW`; each adds the members and the inference it supports.

    Attributes
    ----------
    value : float
        The statistic at full precision (the same as ``float(r)``).
    name : str
        What was computed, e.g. ``"fleiss"`` or ``"icc[A,1]"``.
    n_items, n_raters, n_categories : int
        The counts behind it.
    categories : tuple
        The categories, in order.

    Examples
    --------
    >>> r = Statistic(0.5, name="demo", n_items=4, n_raters=2, n_categories=2,
    ...               categories=("a", "b"))
    >>> r < 0.6, f"{r:.2f}", r.n_items
    (True, '0.50', 4)
    """

    # ``__dict__`` holds the members, set once in ``__new__`` and frozen by ``__setattr__``
    # (each result carries members of its own). Members named ``_...`` are internal state.

    #: The members every row of :meth:`to_frame` starts with, after ``value``.
    _core: ClassVar[tuple[str, ...]] = ("n_items", "n_raters", "n_categories")

    def __new__(
        cls,
        value: float,
        *,
        name: str,
        n_items: int,
        n_raters: int,
        n_categories: int | Deferred,
        categories: Sequence[Hashable] | Deferred,
        **extra: Any,
    ) -> Self:
        self = super().__new__(cls, value)
        counts = counted(n_categories, categories)  # or deferred: computed when first asked
        self.__dict__.update(name=name, n_items=int(n_items), n_raters=int(n_raters), **counts)
        self.__dict__.update(extra)
        return self

    def __getattr__(self, key: str) -> Any:  # only for members not in ``__dict__``
        if key in ("n_categories", "categories") and "_deferred" in self.__dict__:
            return settle(self.__dict__)[key]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {key!r}")

    # Members are fixed at construction.
    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot set {key!r}.")

    def __delattr__(self, key: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot delete {key!r}.")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), float(self), self._state()))

    def _state(self) -> dict[str, Any]:
        """The members a pickle carries (the data-sized internal state is left out)."""
        return dict(settle(self.__dict__))

    def __copy__(self) -> Self:  # immutable: a copy is the object itself, as for a float
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self

    def _replace(self, **members: Any) -> Self:
        """A new result with ``members`` added or changed."""
        state = {**unsettled(self.__dict__), **members}
        return type(self)(float(self), **state)

    # Attributes the type checker should know about (set in ``__new__``); the ``#:`` comments
    # are their documentation in the API reference.
    #: What was computed, e.g. ``"fleiss"`` or ``"alpha[interval]"``.
    name: str
    #: Items that count (two or more ratings).
    n_items: int
    #: Raters with at least one rating (for a counts table: the most ratings any item has).
    n_raters: int
    #: Declared categories.
    n_categories: int
    #: The categories, in order.
    categories: tuple[Hashable, ...]

    @property
    def value(self) -> float:
        """The statistic as a plain float, full precision."""
        return float(self)

    def interpret(self, scale: str = "landis-koch") -> str:
        """The descriptive band of the value on a published scale.

        Scales: ``"landis-koch"`` (Landis & Koch 1977: poor < 0, slight <= .20, fair <= .40,
        moderate <= .60, substantial <= .80, almost perfect), ``"altman"`` (Altman 1991: poor
        <= .20, fair <= .40, moderate <= .60, good <= .80, very good), ``"fleiss"`` (Fleiss
        1981: poor < .40, fair to good <= .75, excellent) and ``"krippendorff"`` (Krippendorff
        2004: reliable >= .800, tentative >= .667, else unreliable).

        What is a good kappa? The scales are conventions, not tests. Fort (2011) shows why a
        single threshold misleads: the same 50 judgements give Bennett's S = 0.6 with two
        declared categories and 0.73 with four, pi never exceeds kappa or S on the same data,
        the gap between pi and kappa shrinks as coders are added, and prevalence (one category
        dominating) remains an open issue. Say which coefficient, which categories and how
        many coders, and report the coefficient with its interval rather than a band alone.

        Parameters
        ----------
        scale : {"landis-koch", "altman", "fleiss", "krippendorff"}
            The published scale; ``"landis-koch"`` by default.

        Returns
        -------
        str
            The band's name, e.g. ``"moderate"``.

        Examples
        --------
        >>> from pdagree import Coefficient
        >>> Coefficient(0.43, name="k", observed=0.5, expected=0.1, n_items=1, n_raters=2,
        ...             n_categories=2, categories=(0, 1)).interpret()
        'moderate'
        """
        from .interpretation import interpret

        return interpret(float(self), scale)

    def plot(self, ax: Any = None, **options: Any) -> Any:
        """Draw the result with :mod:`pdagree.plotting` (matplotlib: the ``plot`` extra).

        The bias draws its decomposition (:func:`pdagree.plotting.bias`, ``by="category"``
        or ``"rater"``), SPA its weighting's item-weight curve among the others
        (:func:`pdagree.plotting.spa_weights`), every other coefficient its value with its
        interval when it was computed with ``confidence_level=``
        (:func:`pdagree.plotting.coefficients`). Results of ``by=`` are DataFrames: pass
        them to :func:`pdagree.plotting.coefficients`.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
            Where to draw; a new figure's Axes by default.
        **options
            Passed to the chart.

        Returns
        -------
        matplotlib.axes.Axes
        """
        chart = _PLOTS.get(self.name.split("[", 1)[0], _PLOTS.get(""))
        if chart is None:  # pragma: no cover - pdagree.plotting registers on import
            raise RuntimeError("no chart is registered; `import pdagree.plotting` first.")
        return chart(self, ax=ax, **options)

    def _scalar_members(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "value": float(self)}
        for key in self._core:
            out[key] = getattr(self, key)
        for key, val in self.__dict__.items():
            if key.startswith("_") or key in out or key == "categories":
                continue
            if isinstance(val, (int, float, str, bool)) or val is None:
                out[key] = val
        if "_p_value" in self.__dict__:
            out["p_value"] = self.__dict__["_p_value"]
        return out

    def to_frame(self) -> pd.DataFrame:
        """One labelled row, indexed by the coefficient's name, to concatenate with others.

        Returns
        -------
        DataFrame
            One row (index ``coefficient``), a column per member the result carries:

            ======================  ===========================================
            column                  holds
            ======================  ===========================================
            ``value``               the coefficient
            ``observed``            ``A_o``
            ``expected``            ``A_e``
            ``n_items``,            the counts behind it
            ``n_raters``,
            ``n_categories``
            others                  the coefficient's own members (``se``,
                                    ``low``, ``high``, ``p_value`` with an
                                    interval; ``D_o``, ``D_e`` for alpha, ...)
            ======================  ===========================================

        >>> Coefficient(0.5, name="demo", observed=0.75, expected=0.5, n_items=4, n_raters=2,
        ...             n_categories=2, categories=("a", "b")).to_frame()
                     value  observed  expected  n_items  n_raters  n_categories
        coefficient
        demo           0.5      0.75       0.5        4         2             2
        """
        row = self._scalar_members()
        name = row.pop("name")
        return pd.DataFrame([row], index=pd.Index([name], name="coefficient"))

    def __str__(self) -> str:
        return float.__repr__(self)

    def __format__(self, spec: str) -> str:
        return float.__format__(float(self), spec)

    def __repr__(self) -> str:
        return (
            f"<{self.name} {_fmt(float(self))}: n_items={self.n_items}, n_raters={self.n_raters}>"
        )

    def _repr_html_(self) -> str:
        return f"<code>{html.escape(repr(self))}</code>"


class Coefficient(Statistic):
    """An agreement coefficient: a float carrying its components.

    Attributes
    ----------
    value : float
        The coefficient at full precision (the same as ``float(r)``).
    name : str
        What was computed, e.g. ``"fleiss"``.
    observed, expected : float
        ``A_o`` and ``A_e``, the coefficient being ``(A_o - A_e) / (1 - A_e)``.
    n_items : int
        Items that count (two or more ratings).
    n_raters : int
        Raters with at least one rating (for a counts table: the most ratings any item has).
    n_categories : int
        Declared categories.
    categories : tuple
        The categories, in order.

    A coefficient computed by a :class:`~pdagree.Ratings` method holds the encoded ratings
    for :meth:`confidence_interval`, :meth:`standard_error`, :meth:`p_value` and
    :meth:`z_test`; a pickle (and :meth:`remove_data`) leaves them out and keeps the few
    numbers of the analytic and jackknife variances instead.

    Examples
    --------
    >>> r = Coefficient(0.5, name="demo", observed=0.75, expected=0.5, n_items=4,
    ...                 n_raters=2, n_categories=2, categories=("a", "b"))
    >>> r < 0.6, f"{r:.2f}", r.observed
    (True, '0.50', 0.75)
    """

    _core: ClassVar[tuple[str, ...]] = (
        "observed",
        "expected",
        "n_items",
        "n_raters",
        "n_categories",
    )

    def __new__(
        cls,
        value: float,
        *,
        name: str,
        observed: float,
        expected: float,
        n_items: int,
        n_raters: int,
        n_categories: int | Deferred,
        categories: Sequence[Hashable] | Deferred,
        **extra: Any,
    ) -> Self:
        counts: dict[str, Any] = {
            "n_items": n_items,
            "n_raters": n_raters,
            "n_categories": n_categories,
        }
        extra = {"observed": float(observed), "expected": float(expected), **extra}
        return super().__new__(cls, value, name=name, categories=categories, **counts, **extra)

    #: ``A_o``, the observed agreement (weighted where weights apply).
    observed: float
    #: ``A_e``, the agreement expected by chance; the coefficient is
    #: ``(observed - expected) / (1 - expected)``.
    expected: float

    def _state(self) -> dict[str, Any]:
        state = dict(settle(self.__dict__))
        source = state.get("_source")
        if source is not None:
            state["_source"] = source.without_data()
        return state

    def remove_data(self) -> Self:
        """This coefficient without the ratings it was computed on (results are immutable:
        a new one), as a pickle stores it.

        It keeps the value and every member, and the few numbers the analytic and jackknife
        variances need: :meth:`confidence_interval`, :meth:`standard_error`,
        :meth:`p_value` and :meth:`z_test` give the same numbers with those methods and no
        finite-population correction. The bootstrap, the large-sample variances and ``N=``
        need the ratings: they raise a ``ValueError`` saying so.

        Returns
        -------
        Coefficient

        Examples
        --------
        >>> import pickle
        >>> import pdagree
        >>> kappa = pdagree.datasets.load("fleiss1971").agree.fleiss()
        >>> light = kappa.remove_data()
        >>> light.confidence_interval() == kappa.confidence_interval()
        True
        >>> len(pickle.dumps(light)) < 2000
        True
        """
        return self._replace(**self._state())

    # ------------------------------------------------------------------ inference

    def _summary(
        self,
        confidence_level: float,
        method: str,
        n_resamples: int,
        rng: Any,
        population: float,
        alternative: str = "greater",
        interval: str = "percentile",
        test_only: bool = False,
    ) -> dict[str, float]:
        source: Source | None = self.__dict__.get("_source")
        if source is None:
            raise ValueError(
                f"`{self.name}` carries no data to compute uncertainty from; compute it with "
                "a Ratings method (e.g. `df.agree.fleiss()`)."
            )
        summary = source.summarise(
            confidence_level=confidence_level,
            method=method,
            n_resamples=n_resamples,
            rng=rng,
            population=population,
            alternative=alternative,
            interval=interval,
            test_only=test_only,
        )
        return {k: float(v[0]) for k, v in summary.items() if k != "ci_method"}

    def standard_error(
        self,
        method: str = "auto",
        *,
        n_resamples: int = 2000,
        rng: Any = None,
        N: float = math.inf,
    ) -> float:
        """The coefficient's standard error.

        Parameters
        ----------
        method : {"auto", "analytic", "large-sample", "jackknife", "bootstrap"}
            ``"auto"`` (the default): ``"analytic"`` where the literature gives a variance
            for this coefficient, else ``"jackknife"`` where there is one, else
            ``"bootstrap"``. ``"analytic"``: Gwet's (2014)
            linearised variance (percent agreement, Bennett's S,
            Scott, Cohen, Fleiss, Conger, AC1/AC2), as R's irrCAC computes it.
            ``"jackknife"``: Light's kappa and the annotator bias, Efron's (1982) jackknife
            over items ``(n - 1) / n sum_i (theta_(i) - theta_(.))^2``, each
            leave-one-item-out value ``theta_(i)`` in closed form (no resampling).
            ``"large-sample"``: two-rater Cohen's kappa only, the asymptotic standard error of
            Fleiss, Cohen & Everitt (1969) (SAS PROC FREQ's ASE). ``"bootstrap"``: the standard
            deviation of ``n_resamples`` item-bootstrap replicates (every coefficient).
        n_resamples, rng
            Bootstrap replicates and the seed or :class:`numpy.random.Generator`.
        N
            Population size of items for the finite-population correction ``1 - n / N``.

        Returns
        -------
        float
            The standard error (nan where the method gives none).
        """
        return self._summary(0.95, method, n_resamples, rng, N)["se"]

    def confidence_interval(
        self,
        confidence_level: float = 0.95,
        method: str = "auto",
        n_resamples: int = 2000,
        rng: Any = None,
        *,
        N: float = math.inf,
        interval: str = "percentile",
    ) -> Any:
        """A ``(low, high)`` confidence interval (a named tuple).

        ``method="auto"`` (the default) is ``"analytic"`` where the literature gives a
        variance for this coefficient, else ``"jackknife"`` (Light's kappa, the bias), else
        ``"bootstrap"``. ``"analytic"``:
        ``value ± t(n - 1) · SE`` over the ``n`` rated items with Gwet's SE,
        the upper bound capped at 1 (as R's irrCAC prints it); ``"jackknife"`` the same with
        the jackknife's SE (see :meth:`standard_error`). ``"large-sample"`` (two-rater
        Cohen): ``value ± z · ASE``. ``"bootstrap"``: ``n_resamples`` replicates resampling
        the rated items, by :func:`scipy.stats.bootstrap` (``vectorized=True``) fed by the
        batched kernels, with ``interval="percentile"`` (default), ``"basic"`` or ``"BCa"``.
        With ``by=``, items are resampled within each group by pdagree's own vectorised
        resampler (scipy cannot resample unequal groups in one call): percentile or basic.

        Parameters
        ----------
        confidence_level : float
            The interval's coverage, in (0, 1); 0.95 by default.
        method : {"auto", "analytic", "large-sample", "jackknife", "bootstrap"}
            The standard error or resampling used, as above and in :meth:`standard_error`.
        n_resamples, rng
            Bootstrap replicates and the seed or :class:`numpy.random.Generator`.
        N : float
            Population size of items for the finite-population correction ``1 - n / N``.
        interval : {"percentile", "basic", "BCa"}
            The bootstrap interval.

        Returns
        -------
        ConfidenceInterval
            The named tuple ``(low, high)``.

        Raises
        ------
        ValueError
            ``confidence_level`` outside (0, 1), an unknown ``method``, a method that does not
            apply to this coefficient, or ``n_resamples < 1``.

        Examples
        --------
        >>> import pdagree
        >>> r = pdagree.datasets.load("fleiss1971").agree.fleiss()
        >>> low, high = r.confidence_interval()
        >>> round(low, 3), round(high, 3)
        (0.319, 0.541)
        """
        from .inference import ConfidenceInterval

        out = self._summary(confidence_level, method, n_resamples, rng, N, interval=interval)
        return ConfidenceInterval(out["low"], out["high"])

    def p_value(
        self,
        method: str = "auto",
        *,
        alternative: str = "greater",
        N: float = math.inf,
        n_resamples: int = 2000,
        rng: Any = None,
    ) -> float:
        """p-value for H0: coefficient = 0; the ``p_value`` of :meth:`z_test`.

        ``alternative="greater"`` (the default, H1: coefficient > 0, one-sided, as R's irrCAC
        reports it since version 1.3), ``"two-sided"`` or ``"less"``. ``"analytic"`` uses
        ``value / SE`` against t(n - 1); ``"large-sample"`` (Cohen's kappa, Fleiss' kappa,
        Scott's pi) uses the standard error under H0 against the normal distribution, as SAS
        PROC FREQ and R irr do; ``"bootstrap"`` inverts the percentile interval of
        ``n_resamples`` item-bootstrap replicates: ``(1 + #{replicates <= 0}) / (B + 1)`` for
        ``"greater"`` (``>= 0`` for ``"less"``, twice the smaller for ``"two-sided"``).
        ``"auto"`` (the default) is ``"analytic"`` where the literature gives a variance, else
        ``"jackknife"`` (``value / SE`` against t(n - 1) too) where there is one, else
        ``"bootstrap"``.

        Parameters
        ----------
        method : {"auto", "analytic", "large-sample", "jackknife", "bootstrap"}
            The test, as above.
        alternative : {"greater", "two-sided", "less"}
            H1.
        N : float
            Population size of items for the finite-population correction ``1 - n / N``.
        n_resamples, rng
            Bootstrap replicates and the seed or :class:`numpy.random.Generator`.

        Returns
        -------
        float
            The p-value.
        """
        out = self._summary(0.95, method, n_resamples, rng, N, alternative, test_only=True)
        return out["p_value"]

    def z_test(
        self,
        method: str = "auto",
        *,
        alternative: str = "greater",
        N: float = math.inf,
        n_resamples: int = 2000,
        rng: Any = None,
    ) -> Any:
        """The test of H0: coefficient = 0, as R irr and SAS PROC FREQ print it.

        ``p_value`` is :meth:`p_value`'s with the same arguments.

        Parameters
        ----------
        method : {"auto", "analytic", "large-sample", "bootstrap"}
            ``"large-sample"``: ``z = value / se_h0`` with ``se_h0`` the standard error under
            H0 and a normal p-value. For two-rater Cohen's kappa (weighted too) ``se_h0`` is
            the ASE under H0 of Fleiss, Cohen & Everitt (1969), SAS's "ASE under H0" and the
            denominator of R irr's ``kappa2`` z; for Fleiss' kappa (and Scott's pi) it is the
            variance under H0 of Fleiss, Nee & Landis (1979), R irr's ``kappam.fleiss`` z,
            which needs unweighted kappa and the same number of ratings on every item.
            ``"analytic"``: ``z = value / SE`` with Gwet's standard error (the table formula on
            a contingency table), referred to t(n - 1) as R irrCAC does; ``se_h0`` is nan,
            the SE not being restricted to H0. ``"bootstrap"``: ``z = value / SE`` with the
            standard deviation of the replicates, ``se_h0`` nan, and the p-value of
            :meth:`p_value` (the inverted percentile interval, not a function of ``z``).
            ``"auto"`` (the default, as for :meth:`p_value`): ``"analytic"`` where the
            literature gives a variance, else ``"bootstrap"``.
        alternative : {"greater", "two-sided", "less"}
            H1; R irr and SAS's two-sided p is ``alternative="two-sided"``.
        N, n_resamples, rng
            As for :meth:`confidence_interval`.

        Returns
        -------
        ZTest
            The named tuple ``(z, se_h0, p_value)``.

        Raises
        ------
        ValueError
            A method that does not apply, e.g. ``"large-sample"`` on Gwet's AC1, or on a
            weighted Fleiss' kappa or an incomplete design.

        Examples
        --------
        >>> import pdagree
        >>> kappa = pdagree.datasets.load("fleiss1971").agree.fleiss()
        >>> test = kappa.z_test("large-sample", alternative="two-sided")  # kappam.fleiss
        >>> round(test.z, 2), round(test.se_h0, 4), test.p_value < 1e-60
        (17.65, 0.0244, True)
        """
        from .inference import ZTest

        out = self._summary(0.95, method, n_resamples, rng, N, alternative, test_only=True)
        return ZTest(out["z"], out["se_h0"], out["p_value"])

    def __repr__(self) -> str:
        return (
            f"<{self.name} {_fmt(float(self))}: A_o={_fmt(self.observed)}, "
            f"A_e={_fmt(self.expected)}, n_items={self.n_items}, n_raters={self.n_raters}>"
        )


def register_plot(name: str, chart: Callable[..., Any]) -> None:
    """Make ``chart(result, ax=None, **options)`` draw the results called ``name`` (before
    any ``[...]``; ``""`` for every other coefficient) for :meth:`Coefficient.plot`."""
    _PLOTS[name] = chart
