"""`Ratings`: the public face of encoded ratings, one short method per analysis.

Each method forwards to its definition in :mod:`pdagree.definitions` (coefficients through
:func:`pdagree.evaluate.coefficient`, which labels the result and adds uncertainty on
request); the docstrings are written once, on the definitions, and shown here.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Unpack

import pandas as pd

from . import category_inference as _categories
from . import consensus as _consensus
from . import icc as _icc
from . import irt as _irt
from . import kendall as _kendall
from . import numeric as _numeric
from . import page as _page
from . import per_rater as _per_rater
from ._validation import check_fraction, check_seed
from ._warnings import recorded, warn
from .definitions import alpha as _alpha
from .definitions import bias as _bias
from .definitions import breakdowns as _breakdowns
from .definitions import gold as _gold
from .definitions import kappa as _kappa
from .definitions import multilabel as _multilabel
from .definitions import spa as _spa
from .definitions.spa import SpaWeights
from .encoding import Encoded, Layout, LayoutSpec, NumericEncoded, encode, numeric_encode
from .evaluate import InferenceOptions, Result, coefficient
from .evaluate import method_doc as _doc
from .icc import ICC
from .inference import check_resamples
from .kendall import KendallW
from .report import report as _report
from .result_tables import html_table
from .tensors import RatingData
from .tensors.data import Weights
from .tensors.numeric import NumericData
from .tensors.table_data import rating_data

__all__ = ["Ratings"]


@dataclass(eq=False)
class _State:
    """A :class:`Ratings`' data: the encoded ratings, or the ratings read as numbers and
    how to encode them when first needed."""

    data: RatingData | None = None
    numeric: NumericData | None = None
    source: Callable[[], Encoded] | None = None
    warned: tuple[str, ...] = ()  # the warnings raised while reading the frame


def _kept_columns(
    df: pd.DataFrame,
    numeric: NumericEncoded,
    item: Hashable | None,
    rater: Hashable | None,
    label: Hashable | None,
    by: Hashable | Sequence[Hashable] | None,
) -> pd.DataFrame:
    """A copy of the columns a later encoding reads (the user's frame may change)."""
    keys = list(numeric.by)
    if numeric.layout == "long":
        return df[[*keys, item, rater, label]].copy()
    return df[[*keys, *numeric.raters]].copy()


def _deprecated_pairwise_method(method: str) -> str:
    """``pairwise(method=...)``, the former name of ``coefficient=``, for one release."""
    warn(
        "pairwise(method=...) is deprecated and will be removed in the next release; use "
        f"pairwise(coefficient={method!r}) (`method` names the inference method elsewhere).",
        FutureWarning,
    )
    return method


class Ratings:
    """Ratings of items by raters, encoded once, ready for any number of analyses.

    Build it with ``df.agree(...)`` (see :mod:`pdagree.accessor`); keep it to run several
    methods on the same data without encoding and counting again. It is immutable, and the
    frame it came from is never modified.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdagree
    >>> df = pd.DataFrame({"ann1": ["a", "a", "b", "b"], "ann2": ["a", "b", "b", "b"]})
    >>> ratings = df.agree()
    >>> ratings
    Ratings(wide: 4 items, 2 raters, 2 categories ['a', 'b'])
    >>> round(float(ratings.cohen()), 4)
    0.5
    """

    __slots__ = ("_state",)
    _state: _State

    def __init__(self, encoded: Encoded) -> None:
        self._hold(rating_data(encoded))

    def _hold(self, data: RatingData) -> None:
        """Hold ``data`` (at construction: a Ratings is immutable afterwards)."""
        object.__setattr__(self, "_state", _State(data=data))

    @classmethod
    def _as_numbers(cls, numeric: NumericEncoded, source: Callable[[], Encoded]) -> Ratings:
        """Ratings read as numbers; ``source`` encodes them as categories when first needed."""
        self = cls.__new__(cls)
        object.__setattr__(self, "_state", _State(numeric=NumericData(numeric), source=source))
        return self

    @property
    def _data(self) -> RatingData:
        """The encoded ratings and their count tensors (encoded on first use when the frame
        was read as numbers)."""
        state = self._state
        if state.data is None:
            if state.source is None:  # pragma: no cover - one of the two is always set
                raise RuntimeError("Ratings holds no data")
            state.data = rating_data(state.source())
            state.source = None
        return state.data

    @property
    def _scores(self) -> RatingData | NumericData:
        """What the numeric measures read: the ratings as numbers where the frame was read
        so (:mod:`pdagree.encoding._numeric`), else the encoded ratings."""
        numeric = self._state.numeric
        return numeric if numeric is not None else self._data

    # Immutable: the encoded data are fixed; the count tensors are cached by ``_data``.
    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError(f"Ratings is immutable; cannot set {key!r}.")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Ratings, (self._data.enc,))

    @property
    def _enc(self) -> Encoded:
        return self._data.enc

    @classmethod
    def from_frame(
        cls,
        df: pd.DataFrame,
        *,
        item: Hashable | None = None,
        rater: Hashable | None = None,
        label: Hashable | None = None,
        raters: Sequence[Hashable] | None = None,
        categories: Sequence[Hashable] | None = None,
        by: Hashable | Sequence[Hashable] | None = None,
        layout: Layout | None = None,
        rank: Hashable | None = None,
    ) -> Ratings:
        """Encode ``df`` (wide, long, counts or contingency layout), as ``df.agree(...)``.

        Continuous scores (float columns with values that are not whole numbers) are read as
        numbers, and their categories are encoded only when a method needs them: the numeric
        measures (:meth:`icc`, :meth:`kendall_w`, :meth:`consensus_scores`, ...) never do,
        nor ``alpha(level="interval")`` (without ``by=``) until its result's ``categories``
        or an interval is asked for.

        Parameters
        ----------
        df : DataFrame
            The ratings; never modified.
        item, rater, label, raters, categories, by, layout, rank
            As for ``df.agree(...)``: see :class:`pdagree.AgreeAccessor`.

        Returns
        -------
        Ratings
            The encoded ratings.
        """
        spec = LayoutSpec.of(
            item=item, rater=rater, label=label, raters=raters, categories=categories, by=by,
            layout=layout, rank=rank,
        )  # fmt: skip
        return cls._from_spec(df, spec)

    @classmethod
    def _from_spec(cls, df: pd.DataFrame, spec: LayoutSpec) -> Ratings:
        """Encode ``df`` as ``spec`` (:class:`pdagree.encoding.LayoutSpec`) describes it; see
        :meth:`from_frame`."""
        ratings, warned = recorded(cls._read, df, spec)
        ratings._state.warned = warned
        return ratings

    @classmethod
    def _read(cls, df: pd.DataFrame, spec: LayoutSpec) -> Ratings:
        numeric = numeric_encode(df, spec)
        if numeric is None:
            return cls(encode(df, spec))
        kept = _kept_columns(df, numeric, spec.item, spec.rater, spec.label, spec.by)
        return cls._as_numbers(numeric, lambda: encode(kept, spec))

    # ------------------------------------------------------------------ description

    @property
    def layout(self) -> Layout:
        """The layout the frame was read in: ``"wide"``, ``"long"`` or ``"counts"``."""
        return self._enc.layout

    @property
    def raters(self) -> pd.Index | None:
        """Rater labels (``None`` for a counts table)."""
        return self._enc.raters

    @property
    def categories(self) -> pd.Index:
        """The categories, in order."""
        return self._enc.categories

    @property
    def n_items(self) -> int:
        """The number of items (rows of a wide frame, distinct items of a long one, the
        items a contingency table counts)."""
        return self._data.n_items

    @property
    def n_raters(self) -> int:
        """The number of raters (0 for a counts table)."""
        return self._enc.n_raters

    @property
    def n_categories(self) -> int:
        """The number of categories."""
        return self._enc.n_categories

    @property
    def groups(self) -> pd.Index | None:
        """The ``by=`` group keys, or ``None``."""
        return self._enc.groups

    def __repr__(self) -> str:
        enc = self._enc
        cats = list(enc.categories[:6]) + (["..."] if enc.n_categories > 6 else [])
        raters = "" if enc.raters is None else f", {enc.n_raters} raters"
        groups = "" if enc.groups is None else f", {enc.n_groups} groups by {list(enc.by)}"
        return (
            f"Ratings({enc.layout}: {self._data.n_items} items{raters}, {enc.n_categories} "
            f"categories {cats}{groups})"
        )

    def _repr_html_(self) -> str:
        """The layout, counts, categories and groups, as a table (notebooks)."""
        enc = self._enc

        def first(labels: Any, n: int = 8) -> str:
            shown = ", ".join(map(str, list(labels[:n])))
            return shown + (f", ... ({len(labels)} in all)" if len(labels) > n else "")

        rows = {"layout": enc.layout, "items": f"{self._data.n_items:,}"}
        if enc.raters is not None:
            rows["raters"] = f"{enc.n_raters:,}: {first(enc.raters)}"
        rows["annotations"] = f"{self._data.n_annotations:,.0f}"
        order = "declared order" if enc.ordered else "order not declared"
        rows["categories"] = f"{enc.n_categories}: {first(enc.categories)} ({order})"
        if enc.groups is not None:
            rows["groups"] = (
                f"{enc.n_groups:,} by {', '.join(map(str, enc.by))}: {first(enc.groups)}"
            )
        return html_table(type(self).__name__, rows)

    # ------------------------------------------------------------------ coefficients

    @_doc(_kappa.observed)
    def observed(self, weights: Weights = None, **options: Unpack[InferenceOptions]) -> Result:
        return coefficient(self._data, "observed", {"weights": weights}, dict(options))

    @_doc(_kappa.bennett)
    def bennett(self, weights: Weights = None, **options: Unpack[InferenceOptions]) -> Result:
        return coefficient(self._data, "bennett", {"weights": weights}, dict(options))

    @_doc(_kappa.fleiss)
    def fleiss(self, weights: Weights = None, **options: Unpack[InferenceOptions]) -> Result:
        return coefficient(self._data, "fleiss", {"weights": weights}, dict(options))

    @_doc(_kappa.conger)
    def conger(self, weights: Weights = None, **options: Unpack[InferenceOptions]) -> Result:
        return coefficient(self._data, "conger", {"weights": weights}, dict(options))

    @_doc(_kappa.scott)
    def scott(self, weights: Weights = None, **options: Unpack[InferenceOptions]) -> Result:
        return coefficient(self._data, "scott", {"weights": weights}, dict(options))

    @_doc(_kappa.cohen)
    def cohen(self, weights: Weights = None, **options: Unpack[InferenceOptions]) -> Result:
        return coefficient(self._data, "cohen", {"weights": weights}, dict(options))

    @_doc(_kappa.gwet)
    def gwet(self, weights: Weights = None, **options: Unpack[InferenceOptions]) -> Result:
        return coefficient(self._data, "gwet", {"weights": weights}, dict(options))

    @_doc(_kappa.light)
    def light(self, **options: Unpack[InferenceOptions]) -> Result:
        return coefficient(self._data, "light", {}, dict(options))

    @_doc(_bias.bias)
    def bias(self, **options: Unpack[InferenceOptions]) -> Result:
        return coefficient(self._data, "bias", {}, dict(options))

    @_doc(_alpha.alpha)
    def alpha(
        self,
        level: _alpha.Level = "nominal",
        *,
        weights: Weights = None,
        distance: str | None = None,
        **options: Unpack[InferenceOptions],
    ) -> Result:
        if distance is None:
            arguments = {"level": level, "weights": weights}
            fast = _numeric.interval_alpha(
                self._state.numeric, arguments, options, lambda: self._data
            )
            if fast is not None:  # continuous scores read as numbers: from moment sums
                return fast
            return coefficient(self._data, "alpha", arguments, dict(options))
        data, chosen = _alpha.with_distance(self._data, level, distance, weights)
        return coefficient(data, "alpha", {"level": chosen, "weights": weights}, dict(options))

    @_doc(_spa.spa)
    def spa(
        self,
        weights: SpaWeights = "annotations_m1",
        *,
        p: pd.Series | dict[Hashable, float] | None = None,
        **options: Unpack[InferenceOptions],
    ) -> Result:
        return coefficient(self._data, "spa", {"weights": weights, "p": p}, dict(options))

    @_doc(_spa.spa_items, inference=False)
    def spa_items(
        self,
        weights: SpaWeights = "annotations_m1",
        p: pd.Series | dict[Hashable, float] | None = None,
    ) -> pd.DataFrame:
        return _spa.spa_items(self._data.rows, weights, p)

    @_doc(_multilabel.multilabel)
    def multilabel(
        self, p: float = _multilabel.DEFAULT_P, **options: Unpack[InferenceOptions]
    ) -> Result:
        return coefficient(self._data, "multilabel", {"p": p}, dict(options))

    @_doc(_multilabel.multilabel_sweep, inference=False)
    def multilabel_sweep(self, ps: Sequence[float] | None = None) -> pd.DataFrame:
        return _multilabel.multilabel_sweep(self._data.rows, ps)

    @_doc(_multilabel.multilabel_items, inference=False)
    def multilabel_items(
        self, ps: Sequence[float] | None = None, *, high: float = 0.6, tolerance: float = 0.1
    ) -> _multilabel.MultilabelItems:
        return _multilabel.multilabel_items(self._data.rows, ps, high=high, tolerance=tolerance)

    @_doc(_multilabel.multilabel_labels, inference=False)
    def multilabel_labels(
        self, p: float = _multilabel.DEFAULT_P, labels: Sequence[Any] | None = None
    ) -> pd.DataFrame:
        return _multilabel.multilabel_labels(self._data.rows, p, labels)

    # ------------------------------------------------------------------ models

    @_doc(_irt.fit, inference=False)
    def irt(
        self, *, constrained: bool = True, quadrature: int = 21, max_iterations: int = 1000
    ) -> _irt.GradedResponseFit:
        return _irt.fit(
            self._data.rows,
            constrained=constrained,
            quadrature=quadrature,
            max_iterations=max_iterations,
        )

    @_doc(_consensus.fit, inference=False)
    def consensus(
        self,
        method: str = "dawid_skene",
        *,
        gold: Any = None,
        ties: Literal["random", "first", "nan"] = "random",
        rng: Any = None,
        max_iterations: int = 10_000,
        tol: float = 1e-6,
    ) -> _consensus.Consensus:
        return _consensus.fit(
            self._data.rows,
            method,
            gold=gold,
            ties=ties,
            rng=rng,
            max_iterations=max_iterations,
            tol=tol,
        )

    @_doc(_icc.icc, inference=False)
    def icc(
        self,
        form: str = "A,1",
        *,
        missing: Literal["auto", "omit"] = "auto",
        confidence_level: float | None = None,
    ) -> ICC | pd.DataFrame:
        return _icc.icc(self._scores, form, missing=missing, confidence_level=confidence_level)

    @_doc(_icc.icc_table, inference=False)
    def icc_table(
        self,
        *,
        confidence_level: float = 0.95,
        missing: Literal["auto", "omit"] = "auto",
        test: Literal["F", "mcgraw_wong"] = "F",
        rho0: float = 0.0,
    ) -> pd.DataFrame:
        return _icc.icc_table(
            self._scores, confidence_level, missing=missing, test=test, rho0=rho0
        )

    @_doc(_kendall.kendall_w, inference=False)
    def kendall_w(self, *, correct_ties: bool = True) -> KendallW | pd.DataFrame:
        return _kendall.kendall_w(self._scores, correct_ties=correct_ties)

    @_doc(_numeric.consensus_scores, inference=False)
    def consensus_scores(
        self, method: Literal["mixed", "mean", "median"] = "mixed"
    ) -> _numeric.ScoreConsensus:
        return _numeric.consensus_scores(self._scores, method)

    @_doc(_numeric.cronbach_alpha, inference=False)
    def cronbach_alpha(
        self,
        *,
        confidence_level: float | None = None,
        missing: Literal["omit", "pairwise"] = "omit",
    ) -> _numeric.CronbachAlpha | pd.DataFrame:
        return _numeric.cronbach_alpha(self._scores, confidence_level, missing=missing)

    @_doc(_numeric.concordance, inference=False)
    def concordance(
        self, *, confidence_level: float | None = None
    ) -> _numeric.Concordance | pd.DataFrame:
        return _numeric.concordance(self._scores, confidence_level)

    @_doc(_numeric.bland_altman, inference=False)
    def bland_altman(
        self,
        rater_a: Hashable,
        rater_b: Hashable,
        *,
        confidence_level: float = 0.95,
        agreement: float = 1.96,
    ) -> _numeric.BlandAltman | pd.DataFrame:
        return _numeric.bland_altman(
            self._scores, rater_a, rater_b, confidence_level, agreement=agreement
        )

    @_doc(_per_rater.per_rater, inference=False)
    def per_rater(self, coefficient: str = "alpha", **arguments: Any) -> pd.DataFrame:
        return _per_rater.per_rater(self._data, coefficient, **arguments)

    # ------------------------------------------------------------------ breakdowns

    @_doc(_breakdowns.counts, inference=False)
    def counts(self) -> pd.DataFrame:
        return _breakdowns.counts(self._data.rows)

    @_doc(_breakdowns.frequencies, inference=False)
    def frequencies(self) -> pd.DataFrame:
        return _breakdowns.frequencies(self._data.rows)

    @_doc(_breakdowns.contingency, inference=False)
    def contingency(self, a: Hashable, b: Hashable) -> pd.DataFrame:
        return _breakdowns.contingency(self._data.rows, a, b)

    @_doc(_breakdowns.pairwise, inference=False)
    def pairwise(
        self,
        coefficient: Literal["cohen", "scott", "observed", "n_items", "concordance"] = "cohen",
        *,
        weights: Weights = None,
        method: str | None = None,
    ) -> pd.DataFrame:
        if method is not None:
            coefficient = _deprecated_pairwise_method(method)  # type: ignore[assignment]
        if coefficient == "concordance":  # numeric scores: Lin's, for every pair
            if weights is not None:
                raise TypeError("`weights` do not apply to Lin's concordance; drop them.")
            return _numeric.pairwise_concordance(self._scores)
        return _breakdowns.pairwise(self._data.rows, coefficient, weights=weights)

    @_doc(_breakdowns.per_category, inference=False)
    def per_category(
        self,
        *,
        confidence_level: float | None = None,
        n_resamples: int = 2000,
        rng: Any = None,
    ) -> pd.DataFrame:
        # The options are checked whether or not they are used, as the coefficients' are.
        if confidence_level is not None:
            check_fraction(confidence_level, "confidence_level")
        check_resamples(n_resamples)
        check_seed(rng)
        table = _breakdowns.per_category(self._data.rows)
        if confidence_level is None:
            return table
        return _categories.with_uncertainty(
            table, self._data.rows, confidence_level, n_resamples, rng
        )

    @_doc(_breakdowns.items, inference=False)
    def items(self) -> pd.DataFrame:
        return _breakdowns.items(self._data.rows)

    @_doc(_gold.against, inference=False)
    def against(
        self, gold: Any, *, beta: float | None = None, average: _gold.Average = None
    ) -> pd.DataFrame:
        return _gold.against(self._data.rows, gold, beta=beta, average=average)

    @_doc(_report, inference=False)
    def report(
        self,
        *,
        confidence_level: float | None = None,
        method: str = "auto",
        n_resamples: int = 2000,
        rng: Any = None,
        coefficients: Sequence[str] | None = None,
        weights: Weights = None,
        level: Any = None,
    ) -> pd.DataFrame:
        return _report(
            self._data,
            confidence_level,
            method=method,
            n_resamples=n_resamples,
            rng=rng,
            coefficients=coefficients,
            weights=weights,
            level=level,
        )

    @_doc(_page.to_html, inference=False)
    def to_html(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        title: str | None = None,
        gold: Any = None,
        consensus: str = "dawid_skene",
    ) -> str | None:
        return _page.to_html(
            self,
            path,
            title=title,
            gold=gold,
            consensus=consensus,
            read_warnings=self._state.warned,
        )
