"""`Ratings`: encoded ratings with cached count tensors and every agreement method."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Hashable, Sequence
from functools import cached_property
from typing import Any, Literal

import numpy as np
import pandas as pd

from . import _counts
from ._encode import Encoded, Layout, encode
from ._kernels import agreement as K
from ._kernels._segment import segment_sum
from ._typing import FloatArray, IntArray
from ._warnings import warn
from .results import Coefficient, result_frame
from .weights import weight_matrix

__all__ = ["Ratings"]

Result = Coefficient | pd.DataFrame
Weights = str | FloatArray | pd.DataFrame | None

_INFERENCE_DEFAULTS: dict[str, Any] = {
    "confidence_level": None,
    "method": "analytic",
    "n_resamples": 2000,
    "rng": None,
    "N": np.inf,
    "interval": "percentile",
}


def coefficient(func: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a Ratings method as a coefficient: attach its source for lazy inference, and
    accept ``confidence_level=``, ``method=``, ``n_resamples=``, ``rng=``, ``N=`` and
    ``interval=``; the options are checked before anything is computed.

    When ``confidence_level`` is given, a ``by=`` result gains ``se``, ``low``, ``high`` and
    ``p_value`` columns and a single result gains the same members (see
    :meth:`pdagree.Coefficient.confidence_interval` for the methods).
    """
    name = func.__name__
    signature = inspect.signature(func)

    @functools.wraps(func)
    def wrapper(self: Ratings, *args: Any, **kwargs: Any) -> Any:
        options = {k: kwargs.pop(k, v) for k, v in _INFERENCE_DEFAULTS.items()}
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        call = {k: v for k, v in bound.arguments.items() if k != "self"}
        if self.__dict__.get("_raw_mode"):
            return func(self, *args, **kwargs)
        from . import inference

        level = options.pop("confidence_level")
        inference.check_options(
            name,
            options["method"],
            options["n_resamples"],
            options["N"],
            level,
            options["interval"],
        )
        result = func(self, *args, **kwargs)
        if level is not None:
            summary = inference.summarise(
                self,
                name,
                call,
                confidence_level=level,
                **{k: options[k] for k in ("method", "n_resamples", "rng", "interval")},
                population=options["N"],
            )
            if isinstance(result, pd.DataFrame):
                for key, column in summary.items():
                    result[key] = column
            else:
                # ``p_value`` stays the method; the number is shown by ``to_frame()``.
                result.__dict__.update(
                    {k: float(v[0]) for k, v in summary.items() if k != "p_value"}
                )
                result.__dict__["_p_value"] = float(summary["p_value"][0])
        if isinstance(result, Coefficient):
            result.__dict__["_source"] = (self, name, call)
        return result

    wrapper.__doc__ = (func.__doc__ or "") + _INFERENCE_NOTE
    return wrapper


_INFERENCE_NOTE = """
        Inference
        ---------
        Keyword-only ``confidence_level``, ``method`` ("analytic", "large-sample", "bootstrap"),
        ``n_resamples``, ``rng``, ``N`` (population size) and ``interval`` (bootstrap:
        "percentile", "basic", "BCa") add ``se``, ``low``, ``high`` and ``p_value`` (one-sided,
        H1: coefficient > 0) to the result; see
        :meth:`pdagree.Coefficient.confidence_interval`.
"""


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

    __slots__ = ("__dict__", "_enc")
    _enc: Encoded

    def _raw(
        self, method: str, kwargs: dict[str, Any]
    ) -> tuple[FloatArray, FloatArray, FloatArray]:
        """Per-group ``(value, observed, expected)`` of ``method``: no wrapping, no warnings.

        Shares this object's cached tensors. Used by the inference layer.
        """
        view = Ratings(self._enc)
        view.__dict__.update(self.__dict__)
        view.__dict__["_raw_mode"] = True
        result: tuple[FloatArray, FloatArray, FloatArray] = getattr(view, method)(**kwargs)
        return result

    def __init__(self, encoded: Encoded) -> None:
        object.__setattr__(self, "_enc", encoded)

    # Immutable: the encoded data are fixed; cached tensors live in ``__dict__`` (written by
    # ``functools.cached_property`` directly, not through ``__setattr__``).
    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError(f"Ratings is immutable; cannot set {key!r}.")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Ratings, (self._enc,))

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
    ) -> Ratings:
        """Encode ``df`` (wide, long or counts layout); see :func:`pdagree.accessor`."""
        return cls(
            encode(
                df,
                item=item,
                rater=rater,
                label=label,
                raters=raters,
                categories=categories,
                by=by,
                layout=layout,
            )
        )

    # ------------------------------------------------------------------ description

    @property
    def layout(self) -> Layout:
        return self._enc.layout

    @property
    def raters(self) -> pd.Index | None:
        """Rater labels (``None`` for a counts table)."""
        return self._enc.raters

    @property
    def _rater_labels(self) -> pd.Index:
        """Rater labels, empty for a counts table."""
        return self._enc.raters if self._enc.raters is not None else pd.Index([])

    @property
    def categories(self) -> pd.Index:
        """The categories, in order."""
        return self._enc.categories

    @property
    def n_items(self) -> int:
        return self._enc.n_items

    @property
    def n_raters(self) -> int:
        return self._enc.n_raters

    @property
    def n_categories(self) -> int:
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
            f"Ratings({enc.layout}: {enc.n_items} items{raters}, {enc.n_categories} "
            f"categories {cats}{groups})"
        )

    # ------------------------------------------------------------------ count tensors

    @cached_property
    def _nik(self) -> FloatArray:
        enc = self._enc
        return _counts.item_counts(enc.item, enc.code, enc.weight, enc.n_items, enc.n_categories)

    @cached_property
    def _nck(self) -> FloatArray:
        enc = self._require_raters("this")
        if enc.rater is None:  # pragma: no cover - guarded by _require_raters
            raise ValueError("no raters")
        return _counts.rater_counts(
            enc.group, enc.item, enc.rater, enc.code, enc.n_groups, enc.n_raters, enc.n_categories
        )

    @cached_property
    def _pair_margins(self) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
        """Every rater pair's co-rated items, agreement and table margins (identity weights)."""
        enc = self._enc
        if enc.rater is None:  # pragma: no cover - callers check first
            raise ValueError("no raters")
        return _counts.pair_margins(
            enc.group,
            enc.item,
            enc.rater,
            enc.code,
            enc.n_items,
            enc.n_groups,
            enc.n_raters,
            enc.n_categories,
            self._identity,
        )

    def _pair_confusion(self, first: IntArray, second: IntArray) -> FloatArray:
        """The (G, K, K) confusion table of rater ``first[g]`` against ``second[g]`` in each
        group ``g`` (two different raters per group), counting only those two raters'
        annotations."""
        enc = self._enc
        if enc.rater is None:  # pragma: no cover - callers check first
            raise ValueError("no raters")
        group = enc.group[enc.item]
        is_first = enc.rater == first[group]
        keep = is_first | (enc.rater == second[group])
        tables = _counts.pair_confusions(
            enc.group,
            enc.item[keep],
            np.where(is_first[keep], 0, 1).astype(np.int64),
            enc.code[keep],
            enc.n_items,
            enc.n_groups,
            2,
            enc.n_categories,
        )
        return tables[:, 0, 1]

    @cached_property
    def _identity(self) -> FloatArray:
        return np.eye(self._enc.n_categories)

    # ------------------------------------------------------------------ helpers

    def _require_raters(self, method: str) -> Encoded:
        enc = self._enc
        if enc.raters is None:
            raise ValueError(
                f"`{method}()` needs to know which rater gave each rating, and a counts table "
                "does not record it. Use a wide frame (one column per rater) or a long frame "
                "(`item=`, `rater=`, `label=`)."
            )
        return enc

    def _require_two_raters(self, method: str, alternatives: str) -> None:
        enc = self._enc
        if enc.raters is None and method == "scott":
            # A counts table has no rater identity; Scott's pi needs none, only that no item
            # has more than two ratings.
            most = int(self._nik.sum(axis=1).max())
            if most > 2:
                raise ValueError(
                    f"`scott()` is defined for two ratings per item; the counts table has items "
                    f"with up to {most}. Use {alternatives} for more."
                )
            return
        enc = self._require_raters(method)
        # Raters without a rating (an empty column) do not count; with ``by=``, each group may
        # have its own two raters.
        active = self._nck.sum(axis=-1) > 0
        per_group = active.sum(axis=-1)
        if per_group.max() > 2:
            raters = self._rater_labels
            worst = int(np.argmax(per_group))
            names = list(raters[active[worst]][:6])
            where = "" if enc.groups is None else f" in group {enc.groups[worst]!r}"
            raise ValueError(
                f"`{method}()` is defined for exactly two raters; got {int(per_group.max())}"
                f"{where} ({names}). For more raters use {alternatives}, or select two with "
                "`raters=[...]`."
            )

    @cached_property
    def _observed(self) -> tuple[FloatArray, FloatArray]:
        return self._observed_with(self._identity)

    def _observed_with(self, w: FloatArray) -> tuple[FloatArray, FloatArray]:
        enc = self._enc
        return K.observed_components(self._nik, w, enc.group, enc.n_groups)

    def _weights(self, weights: Weights) -> tuple[FloatArray, str]:
        """The (K, K) weight matrix for ``weights`` and the suffix for the result's name."""
        return weight_matrix(
            weights, self._enc.categories, self._enc.values, ordered=self._enc.ordered
        )

    def _pooled(
        self,
        name: str,
        weights: Weights,
        kernel: Callable[[FloatArray, FloatArray, Any, int], tuple[FloatArray, FloatArray]],
    ) -> Any:
        """A coefficient whose chance agreement comes from the pooled ``pi`` (Fleiss, Scott,
        Gwet): ``kernel`` gives ``A_e`` per group."""
        name, w, observed = self._weighted(name, weights)
        enc = self._enc
        expected, _ = kernel(self._nik, w, enc.group, enc.n_groups)
        return self._finish(name, observed, expected)

    def _weighted(self, name: str, weights: Weights) -> tuple[str, FloatArray, FloatArray]:
        """Name, weight matrix and ``A_o`` for a possibly weighted coefficient."""
        w, label = self._weights(weights)
        if label == "identity":
            return name, w, self._observed[0]
        return f"{name}[{label}]", w, self._observed_with(w)[0]

    @cached_property
    def _active_raters(self) -> FloatArray:
        """Raters with a rating, per group (for a counts table: the most ratings of an item)."""
        enc = self._enc
        if enc.raters is None or enc.rater is None:
            return _group_max(self._nik.sum(axis=1), enc.group, enc.n_groups)
        # Distinct (group, rater) pairs: O(annotations), no (G, R, K) tensor needed.
        pairs = np.unique(enc.group[enc.item] * enc.n_raters + enc.rater)
        counts = np.bincount(pairs // enc.n_raters, minlength=enc.n_groups)
        return counts.astype(np.float64)

    def _finish(
        self,
        name: str,
        observed: FloatArray,
        expected: FloatArray,
        *,
        value: FloatArray | None = None,
        n_items: FloatArray | None = None,
        extra: dict[str, FloatArray] | None = None,
        result_cls: type[Coefficient] = Coefficient,
        **members: Any,
    ) -> Any:
        """Wrap per-group components as a Coefficient, or a DataFrame with ``by=``."""
        enc = self._enc
        if value is None:
            value = K.chance_corrected(observed, expected)
        if self.__dict__.get("_raw_mode"):
            return (value, observed, expected)
        if n_items is None:
            n_items = self._observed[1]
        n_raters = self._active_raters
        self._warn_undefined(name, value, n_items, expected, n_raters)
        extra = extra or {}
        if enc.groups is None:
            return result_cls(
                float(value[0]),
                name=name,
                observed=float(observed[0]),
                expected=float(expected[0]),
                n_items=int(n_items[0]),
                n_raters=int(n_raters[0]),
                n_categories=enc.n_categories,
                categories=tuple(enc.categories),
                **{k: v[0].item() for k, v in extra.items()},
                **members,
            )
        columns: dict[str, Any] = {
            "value": value,
            "observed": observed,
            "expected": expected,
            "n_items": n_items.astype(np.int64),
            "n_raters": n_raters.astype(np.int64),
            "n_categories": enc.n_categories,
            **extra,
        }
        return result_frame(enc.groups, columns, name)

    def _warn_undefined(
        self,
        name: str,
        value: FloatArray,
        n_items: FloatArray,
        expected: FloatArray,
        n_raters: FloatArray,
    ) -> None:
        bad = np.isnan(value)
        if not bad.any():
            return
        enc = self._enc
        reasons = []
        if (bad & (n_items == 0)).any():
            reasons.append("no item has two or more ratings")
        if (bad & (n_raters < 2) & (n_items > 0)).any():
            reasons.append("fewer than two raters gave ratings")
        if (bad & np.isclose(expected, 1.0) & (n_items > 0)).any():
            reasons.append("the expected agreement A_e is 1 (all ratings fall in one category)")
        why = "; ".join(reasons) or "its denominator is zero"
        if enc.groups is None:
            where = ""
        else:
            keys = list(enc.groups[bad][:5])
            where = f" in {int(bad.sum())} of {enc.n_groups} groups (e.g. {keys})"
        warn(f"`{name}` is undefined{where}: {why}; the value is nan.")

    # ------------------------------------------------------------------ coefficients

    @coefficient
    def observed(self, weights: Weights = None) -> Result:
        """Observed agreement ``A_o``: the mean over items of pairwise agreement.

        ``A_o = (1 / i) sum_i sum_k n_ik (n_ik - 1) / (r_i (r_i - 1))`` over the ``i`` items
        with two or more ratings (Artstein & Poesio 2005, section 13.4; for two raters it is
        the proportion of items they agree on, Fort 2011). The per-item values are in
        :meth:`items`. The result's ``expected`` is 0, so ``value == observed``.

        Examples
        --------
        >>> import pandas as pd
        >>> import pdagree
        >>> df = pd.DataFrame({"a": ["x", "x", "y"], "b": ["x", "y", "y"], "c": ["x", "x", "y"]})
        >>> round(float(df.agree.observed()), 4)  # items agree 1, 1/3 and 1
        0.7778
        """
        name, _, observed = self._weighted("observed", weights)
        return self._finish(name, observed, np.zeros_like(observed))

    @coefficient
    def bennett(self, weights: Weights = None) -> Result:
        """Bennett, Alpert & Goldstein's S (Brennan & Prediger's coefficient).

        Chance agreement is uniform over the declared categories: ``A_e = 1 / K``. Declaring
        categories nobody used (``categories=[...]``) therefore raises S (Fort 2011).

        Examples
        --------
        >>> import pandas as pd
        >>> import pdagree
        >>> df = pd.DataFrame({"a": ["x", "x", "y", "y"], "b": ["x", "y", "y", "y"]})
        >>> round(float(df.agree.bennett()), 4)
        0.5
        >>> round(float(df.agree(categories=["x", "y", "z"]).bennett()), 4)
        0.625
        """
        name, w, observed = self._weighted("bennett", weights)
        expected = np.full_like(observed, K.bennett_expected(w))
        return self._finish(name, observed, expected)

    @coefficient
    def fleiss(self, weights: Weights = None) -> Result:
        """Fleiss' kappa: Artstein & Poesio's multi-pi, for any number of raters.

        ``A_o`` as in :meth:`observed`; ``A_e = sum_k pi_k^2`` with ``pi_k`` the mean over items
        of ``n_ik / r_i``. Incomplete designs are allowed (Gwet's generalisation): items with
        fewer than two ratings do not count towards ``A_o`` but their ratings count towards
        ``pi``. For complete designs this is Fleiss (1971)'s kappa.

        Examples
        --------
        >>> import pdagree
        >>> round(float(pdagree.datasets.load("fleiss1971").agree.fleiss()), 3)
        0.43
        """
        return self._pooled("fleiss", weights, K.fleiss_expected)

    @coefficient
    def conger(self, weights: Weights = None) -> Result:
        """Conger's kappa: Artstein & Poesio's multi-kappa, for any number of raters.

        ``A_e`` is the mean over rater pairs of ``sum_k P(k|c_m) P(k|c_n)`` with each rater's
        own category proportions ``P(k|c) = n_ck / n_c`` (over the items that rater rated,
        Gwet's generalisation to incomplete designs). For two raters it is Cohen's kappa.

        Raises
        ------
        ValueError
            On a counts table, which has no rater identity.
        """
        self._require_raters("conger")
        name, w, observed = self._weighted("conger", weights)
        expected, _, _ = K.conger_expected(self._nck, w)
        return self._finish(name, observed, expected)

    @coefficient
    def scott(self, weights: Weights = None) -> Result:
        """Scott's pi for two raters (:meth:`fleiss` restricted to exactly two raters).

        Raises
        ------
        ValueError
            With more than two raters (use :meth:`fleiss`).
        """
        self._require_two_raters("scott", "`fleiss()` (multi-pi)")
        return self._pooled("scott", weights, K.fleiss_expected)

    @coefficient
    def cohen(self, weights: Weights = None) -> Result:
        """Cohen's kappa for two raters (:meth:`conger` restricted to exactly two raters).

        ``A_o`` is the proportion of agreement over the items both rated; ``A_e = sum_k
        p_ak p_bk`` uses each rater's proportions over all items it rated.

        Raises
        ------
        ValueError
            With more than two raters (use :meth:`conger` or :meth:`light`).
        """
        self._require_two_raters("cohen", "`conger()` (multi-kappa), `light()` or `fleiss()`")
        name, w, observed = self._weighted("cohen", weights)
        expected, _, _ = K.conger_expected(self._nck, w)
        return self._finish(name, observed, expected)

    @coefficient
    def gwet(self, weights: Weights = None) -> Result:
        """Gwet's AC1 (unweighted) or AC2 (weighted), for any number of raters.

        ``A_o`` as in :meth:`fleiss`; chance agreement
        ``A_e = T_w / (K (K - 1)) * sum_k pi_k (1 - pi_k)`` with ``T_w`` the sum of the weights
        and ``pi_k`` as in :meth:`fleiss` (Gwet 2014, ch. 4; 2008). Incomplete designs as for
        :meth:`fleiss`. It stays stable when one category dominates, where kappa collapses.

        Examples
        --------
        >>> import pdagree
        >>> round(float(pdagree.datasets.load("fleiss1971").agree.gwet()), 4)
        0.4479
        """
        return self._pooled("gwet", weights, K.gwet_expected)

    def _pairs(self, pooled: bool) -> tuple[FloatArray, FloatArray, FloatArray]:
        n_common, agree, rows, cols = self._pair_margins
        return K.pair_margin_components(
            n_common, agree, rows, cols, self._nck, self._identity, pooled
        )

    @coefficient
    def light(self) -> Result:
        """Light's kappa: the mean of Cohen's kappa over every pair of raters.

        Pairs with no item rated by both, or whose kappa is undefined, are left out of the
        mean. The result's ``observed`` and ``expected`` are the means of the pairs' ``A_o`` and
        ``A_e``; ``n_items`` counts items with two or more ratings.
        """
        self._require_raters("light")
        observed, expected, n_common = self._pairs(pooled=False)
        kappa = K.chance_corrected(observed, expected)
        r = self._enc.n_raters
        upper = np.triu(np.ones((r, r), dtype=bool), k=1)[None, :, :] & (n_common > 0)
        usable = upper & ~np.isnan(kappa)
        with np.errstate(invalid="ignore", divide="ignore"):
            n_pairs = usable.sum(axis=(1, 2))
            value = np.where(usable, kappa, 0.0).sum(axis=(1, 2)) / n_pairs
            mean_o = np.where(usable, observed, 0.0).sum(axis=(1, 2)) / n_pairs
            mean_e = np.where(usable, expected, 0.0).sum(axis=(1, 2)) / n_pairs
        return self._finish(
            "light", mean_o, mean_e, value=value, extra={"n_pairs": n_pairs.astype(np.int64)}
        )

    @coefficient
    def bias(self) -> Result:
        """Artstein & Poesio's annotator bias ``B = A_e(pi) - A_e(kappa)``.

        For a complete design ``B = sum_k sigma^2_k / (c - 1)``, where ``sigma^2_k`` is the
        variance over the ``c`` raters of ``P(k|c)`` (Artstein & Poesio 2005, section 13.4): bias
        shrinks in proportion to the number of raters less one.

        Incomplete designs use the generalisations of :meth:`fleiss` and :meth:`conger`, so
        that ``B = fleiss().expected - conger().expected`` always. Then
        ``B = sum_k (pi_k^2 - pbar_k^2) + sum_k sigma^2_k / (c - 1)``, where ``pbar_k`` is the
        mean of the raters' proportions; the first term (``marginal_gap``) is zero in a
        complete design and small when raters rate similar numbers of items.

        Returns
        -------
        Coefficient
            ``B`` as a float with ``expected_pi``, ``expected_kappa``, ``marginal_gap``,
            ``variances`` (Series over categories of ``sigma^2_k``), ``per_category``
            (``sigma^2_k / (c - 1)``) and ``per_rater`` (DataFrame: each rater's category
            proportions, its squared distance from the mean distribution
            ``sum_k (P(k|c) - pbar_k)^2`` and its ``contribution``, that distance over
            ``c (c - 1)``, which sums to the variance term of ``B``). ``observed`` is ``A_o``
            and ``expected`` is ``A_e(pi)``. With ``by=``, a DataFrame with one row per group.

        Examples
        --------
        >>> import pdagree
        >>> b = pdagree.datasets.load("artstein_poesio2005").agree.bias()
        >>> round(b.expected_pi, 3), round(b.expected_kappa, 3), round(float(b), 3)
        (0.545, 0.54, 0.005)
        """
        enc = self._require_raters("bias")
        observed, _ = self._observed
        e_pi, pi = K.fleiss_expected(self._nik, self._identity, enc.group, enc.n_groups)
        e_kappa, pbar, c = K.conger_expected(self._nck, self._identity)
        p, active = K.rater_proportions(self._nck)
        with np.errstate(invalid="ignore", divide="ignore"):
            dev = np.where(active[..., None], p - pbar[:, None, :], 0.0)
            variances = (dev**2).sum(axis=1) / c[:, None]  # population variance over raters
            per_category = variances / (c[:, None] - 1.0)
            distance = (dev**2).sum(axis=-1)
            contribution = distance / (c * (c - 1.0))[:, None]
        gap = (pi**2).sum(axis=-1) - (pbar**2).sum(axis=-1)
        value = e_pi - e_kappa
        undefined = np.isnan(e_kappa) | np.isnan(e_pi)
        value = np.where(undefined, np.nan, value)
        cats = enc.categories
        raters = self._rater_labels
        extra = {"expected_pi": e_pi, "expected_kappa": e_kappa, "marginal_gap": gap}
        per_rater_cols = pd.MultiIndex.from_product([["proportion"], list(cats)])
        if enc.groups is None:
            per_rater = pd.DataFrame(p[0], index=raters, columns=per_rater_cols)
            per_rater = per_rater[active[0]]
            per_rater[("distance", "")] = distance[0][active[0]]
            per_rater[("contribution", "")] = contribution[0][active[0]]
            return self._finish(
                "bias",
                observed,
                e_pi,
                value=value,
                extra=extra,
                variances=pd.Series(variances[0], index=cats, name="variance"),
                per_category=pd.Series(per_category[0], index=cats, name="bias"),
                per_rater=per_rater,
            )
        return self._finish("bias", observed, e_pi, value=value, extra=extra)

    @coefficient
    def spa(
        self,
        weights: str | Sequence[float] | np.ndarray[Any, Any] | pd.Series = "flat",
        *,
        p: pd.Series | dict[Hashable, float] | None = None,
    ) -> Result:
        """Sparse Probability of Agreement (SPA): agreement when not every rater rated every item.

        ``SPA = sum_i k_i P_i / sum_i k_i`` over the items with ``n_i >= 2`` labels, where
        ``P_i = sum_k n_ik (n_ik - 1) / (n_i (n_i - 1))`` is the share of agreeing pairs among
        item ``i``'s labels and ``k_i`` its weight. If labels are missing at random, SPA is an
        unbiased estimate of the agreement the complete data would have had, for every
        weighting that depends on ``n_i`` only; the weighting changes its variance. Rater
        identity is not used, so all three layouts work. The per-item ``P_i``, ``n_i`` and
        weights are in :meth:`spa_items`.

        Parameters
        ----------
        weights : str, array-like or Series, default "flat"
            ``"flat"`` (``k = 1``: with complete data this is :meth:`observed`, Fleiss'
            ``P̄``), ``"annotations"`` (``k = n``: one minus Krippendorff's nominal observed
            disagreement ``D_o``), ``"annotations_m1"`` (``k = n - 1``, the paper's
            recommendation), ``"edges"`` (``k = n (n - 1) / 2``, the number of label pairs),
            ``"inv_var"`` (``1 / Var[P_i | n]`` for labels uniform over the categories; it
            gives the same SPA as ``"edges"``) or ``"inv_var_class"`` (``1 / Var[P_i | n]``
            for labels drawn from the category distribution ``p``); see
            :func:`pdagree.spa_variance`. Or one weight per item: an array in the order of
            the frame's rows (for a long frame, the rows of :meth:`spa_items`), or a Series
            indexed by item. Weights of items with fewer than two labels are ignored.
        p : Series or dict, optional
            ``"inv_var_class"`` only: the probability of each category (indexed by category,
            summing to 1, covering every observed category). Default: the pooled
            distribution of all labels, single-label items included (per group with
            ``by=``). Estimating ``p`` from the same data makes SPA very slightly biased; a
            fixed ``p`` keeps it unbiased.

        Returns
        -------
        Coefficient or DataFrame
            SPA as a float, with ``observed`` equal to it and ``expected`` 0 (SPA is not
            chance-corrected), ``weighting`` (the scheme's name or ``"custom"``),
            ``n_items`` (items with two or more labels), ``n_ignored`` (items with fewer),
            ``sum_weights`` and, for ``"inv_var_class"``, ``p`` (the distribution used). With
            ``by=``, one row per group.

        Raises
        ------
        ValueError
            An unknown scheme; per-item weights of the wrong length, missing, negative or
            infinite on an item with two or more labels; a ``p`` that does not sum to 1, has
            negative entries or leaves out an observed category.
        TypeError
            ``p`` with a scheme other than ``"inv_var_class"``, or arguments of the wrong type.

        Warns
        -----
        UndefinedStatisticWarning
            When no item has two labels (or their weights sum to 0); the value is nan.

        Notes
        -----
        For ``n`` labels drawn independently from ``p``, ``P_i`` is a U-statistic with
        ``E[P_i] = theta = sum_k p_k^2`` and ``Var[P_i | n] = 2 / (n (n - 1)) (2 (n - 2)
        zeta1 + zeta2)``, ``zeta1 = sum_k p_k^3 - theta^2``, ``zeta2 = theta (1 - theta)``.
        If ``p`` puts all its mass on one category every variance is 0 and the weights are
        equal.

        References
        ----------
        Nørregaard, J. & Derczynski, L. (2023). Sparse Probability of Agreement.

        Examples
        --------
        >>> import pandas as pd
        >>> import pdagree
        >>> long = pd.DataFrame({
        ...     "item": [1, 1, 1, 2, 2, 3],
        ...     "coder": ["a", "b", "c", "a", "c", "b"],
        ...     "tag": ["x", "x", "y", "y", "y", "x"],
        ... })
        >>> r = long.agree(item="item", rater="coder", label="tag")
        >>> r.spa()
        <spa 0.6667: A_o=0.6667, A_e=0.0000, n_items=2, n_raters=3>
        >>> s = r.spa("annotations_m1")
        >>> round(float(s), 4), s.weighting, s.n_items, s.n_ignored
        (0.5556, 'annotations_m1', 2, 1)
        >>> r.spa_items("edges")
              n_labels  agreement  weight
        item
        1            3   0.333333     3.0
        2            2   1.000000     1.0
        3            1        NaN     0.0
        """
        from .spa import spa_result

        return spa_result(self, weights, p)

    def spa_items(
        self,
        weights: str | Sequence[float] | np.ndarray[Any, Any] | pd.Series = "flat",
        p: pd.Series | dict[Hashable, float] | None = None,
    ) -> pd.DataFrame:
        """Per item, what :meth:`spa` averages: ``n_labels``, ``agreement`` and ``weight``.

        ``agreement`` is ``P_i`` (nan for items with fewer than two labels) and ``weight`` the
        item's weight under ``weights`` and ``p`` (as in :meth:`spa`; 0 for items that do not
        count), so ``(agreement * weight).sum() / weight.sum()`` is SPA. Indexed like
        :meth:`items`.

        Examples
        --------
        >>> import pandas as pd
        >>> import pdagree
        >>> wide = pd.DataFrame({"a": ["x", "y", "x"], "b": ["x", "y", None],
        ...                      "c": ["y", "y", None]})
        >>> wide.agree.spa_items("annotations")
           n_labels  agreement  weight
        0         3   0.333333     3.0
        1         3   1.000000     3.0
        2         1        NaN     0.0
        """
        from .spa import spa_items_frame

        return spa_items_frame(self, weights, p)

    @coefficient
    def alpha(
        self,
        level: str
        | np.ndarray[Any, Any]
        | pd.DataFrame
        | Callable[[FloatArray, FloatArray], FloatArray] = "nominal",
        *,
        weights: Weights = None,
    ) -> Result:
        """Krippendorff's alpha for nominal, ordinal, interval or ratio data, or a custom metric.

        ``alpha = 1 - D_o / D_e``: one minus the ratio of observed to expected disagreement
        among the *pairable* values, those of items with two or more ratings (items with fewer
        do not count, so missing ratings are allowed). Works on wide, long and counts frames.

        Parameters
        ----------
        level : {"nominal", "ordinal", "interval", "ratio"}, (K, K) array, DataFrame or callable
            The metric ``delta2_ck``, the squared difference between values ``c`` and ``k``.
            ``"nominal"`` (the default) for unordered labels; ``"ordinal"`` for ordered ones
            (the category order: an ordered Categorical's, ``categories=[...]`` or sorted);
            ``"interval"`` and ``"ratio"`` for numeric labels (``"ratio"``: non-negative
            values with an absolute zero). A (K, K) matrix gives ``delta2`` over the
            categories in order (a DataFrame is aligned on its labels): symmetric, non-negative,
            0 on the diagonal. A callable ``delta2(c, k)`` takes two float arrays of the same
            shape (category values; positions ``0..K-1`` when labels are not numeric) and
            returns ``delta2`` elementwise.
        weights : str, (K, K) array or DataFrame, optional
            Gwet's weighted alpha instead: agreement weights as for :meth:`fleiss` (Gwet's
            eight schemes on category values, or a matrix). Equals Krippendorff's alpha with
            ``delta2 = 1 - w``. Not together with a ``level`` other than ``"nominal"``. The
            result is named ``"alpha[weights=<scheme>]"`` and its ``observed`` and
            ``expected`` are Gwet's ``A_o`` and ``A_e``.

        Returns
        -------
        Coefficient or DataFrame
            alpha as a float, named ``"alpha[<level>]"`` (``"alpha[custom]"`` for a matrix or
            callable), with ``observed = 1 - D_o`` and ``expected = 1 - D_e`` (so
            ``(observed - expected) / (1 - expected)`` is alpha), ``observed_disagreement``
            ``D_o``, ``expected_disagreement`` ``D_e``, ``n_items`` (pairable items) and
            ``n_values`` (pairable values ``n``). With ``by=``, one row per group.

        Raises
        ------
        ValueError
            An unknown level name; ``"interval"`` or ``"ratio"`` on labels that are not
            numbers, or ``"ratio"`` on negative values; a matrix of the wrong shape, not
            symmetric, with a non-zero diagonal, negative or non-finite entries; a callable
            that is not 0 on equal values or not symmetric.
        TypeError
            ``level`` of another type.

        Warns
        -----
        UndefinedStatisticWarning
            When no item has two ratings, or ``D_e = 0`` (every pairable value is the same,
            which the warning reports as ``A_e = 1``); the value is nan.

        Notes
        -----
        With ``n_uc`` the ratings of item ``u`` in category ``c``, ``m_u = sum_c n_uc >= 2``,
        coincidences ``o_ck = sum_u (number of c-k pairs in u) / (m_u - 1)`` and marginals
        ``n_c = sum_k o_ck``, ``n = sum_c n_c`` (Krippendorff 2011):

        ``D_o = (1 / n) sum_ck o_ck delta2_ck`` and
        ``D_e = 1 / (n (n - 1)) sum_ck n_c n_k delta2_ck``, with

        - nominal: ``delta2_ck = [c != k]``;
        - ordinal: ``delta2_ck = (sum_{g=c..k} n_g - (n_c + n_k) / 2)^2``, rank sums over the
          pooled frequencies ``n_g`` of the pairable values in category order;
        - interval: ``(c - k)^2``; ratio: ``((c - k) / (c + k))^2``.

        Krippendorff's ordinal metric is not Gwet's ``weights="ordinal"``: Gwet's weights
        depend only on how many categories lie between ``c`` and ``k``, while Krippendorff's
        distances depend on how many *values* were observed between them, so a rarely used
        category in between barely separates its neighbours, and unused categories do not
        count at all. Ordinal alpha equals interval alpha on the mid-ranks
        ``M_c = sum_{g<=c} n_g - n_c / 2``.

        Nominal, ordinal and interval alpha take O(E log E) time and O(E) memory for ``E``
        annotations, with no (K, K) matrix: hundreds of thousands of distinct numeric values
        are fine. Ratio and custom metrics have no closed form; they sum ``delta2`` exactly
        over every pair of distinct values within each item and each group, in bounded
        chunks: memory stays O(E), time grows with the square of the distinct values per
        group. The default level is nominal (the ``krippendorff`` package defaults to
        interval, which is wrong for labels).

        References
        ----------
        Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Departmental
        Papers (ASC) 43, University of Pennsylvania.

        Examples
        --------
        >>> import numpy as np
        >>> import pandas as pd
        >>> import pdagree
        >>> nan = np.nan
        >>> df = pd.DataFrame({  # Krippendorff (2011): 4 observers, 12 units, 1..5
        ...     "A": [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
        ...     "B": [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
        ...     "C": [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
        ...     "D": [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
        ... })
        >>> a = df.agree.alpha()
        >>> a.name, round(float(a), 3), a.n_items, a.n_values
        ('alpha[nominal]', 0.743, 11, 40.0)
        >>> [round(float(df.agree.alpha(level)), 3) for level in ("ordinal", "interval", "ratio")]
        [0.815, 0.849, 0.797]
        """
        from ._kernels import alpha as KA
        from .levels import metric_for

        enc = self._enc
        if weights is not None:
            if not (isinstance(level, str) and level == "nominal"):
                raise TypeError(
                    "`alpha()` takes `level=` (Krippendorff's metrics) or `weights=` (Gwet's "
                    f"weighted alpha), not both; got level={level!r} and weights={weights!r}."
                )
            w, wlabel = self._weights(weights)
            observed, expected, _, n2 = K.weighted_alpha_components(
                self._nik, w, enc.group, enc.n_groups
            )
            return self._finish(f"alpha[weights={wlabel}]", observed, expected, n_items=n2)
        metric, label = metric_for(level, enc.categories, enc.values, ordered=enc.ordered)
        parts = KA.alpha_components(
            enc.item, enc.code, enc.weight, enc.group, enc.n_groups, enc.n_categories, metric
        )
        d_o, d_e = parts.observed_disagreement, parts.expected_disagreement
        return self._finish(
            f"alpha[{label}]",
            1.0 - d_o,
            1.0 - d_e,
            value=KA.alpha_from_disagreement(d_o, d_e),
            n_items=parts.n_items,
            extra={
                "observed_disagreement": d_o,
                "expected_disagreement": d_e,
                "n_values": parts.n_values,
            },
        )

    # ------------------------------------------------------------------ breakdowns

    def _item_index(self) -> pd.Index:
        enc = self._enc
        if enc.groups is None or enc.layout == "long":
            return enc.items
        keys = enc.groups[enc.group]
        key_frame = (
            keys.to_frame(index=False)
            if isinstance(keys, pd.MultiIndex)
            else pd.DataFrame({keys.name: keys})
        )
        item_name = enc.items.name if enc.items.name is not None else "item"
        key_frame[item_name] = enc.items
        return pd.MultiIndex.from_frame(key_frame)

    def counts(self) -> pd.DataFrame:
        """Items x categories: how many raters put each item in each category (``n_ik``).

        This is Fleiss' table; ``df.agree(layout="counts")`` reads it back.
        """
        frame = pd.DataFrame(
            self._nik.astype(np.int64), index=self._item_index(), columns=self.categories
        )
        frame.columns.name = "category"
        return frame

    def frequencies(self) -> pd.DataFrame:
        """Raters x categories: each rater's counts and proportions per category.

        Columns are a MultiIndex: (``"count"``, category) and (``"proportion"``, category), the
        proportion being over the items that rater rated (Amidei et al. 2020, Table 1). With
        ``by=``, rows are (group, rater) for raters active in the group.
        """
        enc = self._require_raters("frequencies")
        nck = self._nck
        p, active = K.rater_proportions(nck)
        cols_count = pd.MultiIndex.from_product([["count"], list(enc.categories)])
        cols_prop = pd.MultiIndex.from_product([["proportion"], list(enc.categories)])
        raters = self._rater_labels
        if enc.groups is None:
            index: pd.Index = raters
            counts, props, keep = nck[0], p[0], active[0]
        else:
            index = _cross_index(enc.groups, raters, "rater")
            counts = nck.reshape(-1, enc.n_categories)
            props = p.reshape(-1, enc.n_categories)
            keep = active.reshape(-1)
        frame = pd.concat(
            [
                pd.DataFrame(counts.astype(np.int64), index=index, columns=cols_count),
                pd.DataFrame(props, index=index, columns=cols_prop),
            ],
            axis=1,
        )
        return frame[keep]

    def contingency(self, a: Hashable, b: Hashable) -> pd.DataFrame:
        """The K x K table of rater ``a``'s labels (rows) against rater ``b``'s (columns).

        Counts the items both rated. With ``by=``, rows are (group, category of ``a``).
        """
        enc = self._require_raters("contingency")
        raters = self._rater_labels
        pos = []
        for param, who in (("a", a), ("b", b)):
            if who not in raters:
                raise ValueError(
                    f"`{param}` must be one of the raters {list(raters[:10])}; got {who!r}."
                )
            pos.append(raters.get_loc(who))
        if pos[0] == pos[1]:  # a rater against itself: its counts on the diagonal
            table = np.einsum("gk,kl->gkl", self._nck[:, pos[0]], np.eye(enc.n_categories))
        else:
            first = np.full(enc.n_groups, pos[0], dtype=np.int64)
            second = np.full(enc.n_groups, pos[1], dtype=np.int64)
            table = self._pair_confusion(first, second)
        table = table.astype(np.int64)
        cats = pd.Index(enc.categories, name=a)
        columns = pd.Index(enc.categories, name=b)
        if enc.groups is None:
            return pd.DataFrame(table[0], index=cats, columns=columns)
        index = _cross_index(enc.groups, cats, "category")
        return pd.DataFrame(table.reshape(-1, enc.n_categories), index=index, columns=columns)

    def pairwise(
        self, method: Literal["cohen", "scott", "observed", "n_items"] = "cohen"
    ) -> pd.DataFrame:
        """Raters x raters: a two-rater coefficient for every pair.

        ``method`` is ``"cohen"`` (the default), ``"scott"``, ``"observed"`` (proportion of
        agreement over the items both rated) or ``"n_items"`` (how many items both rated).
        Entries are nan where a pair shares no item or the coefficient is undefined (no
        warning: the table is a breakdown). With ``by=``, rows are (group, rater).

        Examples
        --------
        >>> import pdagree
        >>> table = pdagree.datasets.load("artstein_poesio2005_four").agree.pairwise()
        >>> round(float(table.loc["Alice", "Bill"]), 3)
        0.348
        """
        methods = ("cohen", "scott", "observed", "n_items")
        if method not in methods:
            raise ValueError(
                f"`method` must be one of {', '.join(map(repr, methods))}; got {method!r}."
            )
        enc = self._require_raters("pairwise")
        observed, expected, n_common = self._pairs(pooled=(method == "scott"))
        if method == "n_items":
            table = n_common
        elif method == "observed":
            table = observed
        else:
            table = K.chance_corrected(observed, expected)
        table = np.where(n_common > 0, table, np.nan) if method != "n_items" else table
        raters = self._rater_labels
        columns = pd.Index(raters)
        if enc.groups is None:
            return pd.DataFrame(table[0], index=raters, columns=columns)
        return pd.DataFrame(
            table.reshape(-1, enc.n_raters),
            index=_cross_index(enc.groups, raters, "rater"),
            columns=columns,
        )

    def per_category(self) -> pd.DataFrame:
        """Per category: Fleiss' category-specific kappa, specific agreement and prevalence.

        - ``kappa``: ``1 - sum_i n_ik (r_i - n_ik) / (r_i - 1) / (sum_i r_i pi_k (1 - pi_k))``
          over items with two or more ratings (Fleiss 1971's kappa_j, with each item's pairs
          scaled by ``r_i - 1`` so incomplete designs are allowed).
        - ``specific_agreement``: of the rating pairs with at least one rating in ``k``, the
          share with both in ``k``: ``sum_i n_ik (n_ik - 1) / sum_i n_ik (r_i - 1)``.
        - ``proportion``: ``pi_k`` over the same items.

        With ``by=``, rows are (group, category).
        """
        enc = self._enc
        nik = self._nik
        r = nik.sum(axis=1)
        pairable = r >= 2
        n = np.where(pairable[:, None], nik, 0.0)
        rr = np.where(pairable, r, 0.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            disagree = np.where(
                pairable[:, None], n * (rr[:, None] - n) / (rr - 1.0)[:, None], 0.0
            )
            d = segment_sum(disagree, enc.group, enc.n_groups)
            total = np.bincount(enc.group, weights=rr, minlength=enc.n_groups)
            pi = segment_sum(n, enc.group, enc.n_groups) / total[:, None]
            kappa = 1.0 - d / (total[:, None] * pi * (1.0 - pi))
            same = segment_sum(n * (n - 1.0), enc.group, enc.n_groups)
            either = segment_sum(n * (rr[:, None] - 1.0), enc.group, enc.n_groups)
            specific = same / either
        cats = enc.categories
        data = {
            "kappa": kappa.ravel(),
            "specific_agreement": specific.ravel(),
            "proportion": pi.ravel(),
        }
        index = cats if enc.groups is None else _cross_index(enc.groups, cats, "category")
        frame = pd.DataFrame(data, index=index)
        return frame

    def items(self) -> pd.DataFrame:
        """Per item: the number of ratings ``n_ratings`` and the pairwise agreement ``agreement``
        (nan for items with fewer than two ratings)."""
        r, a = K.item_agreement(self._nik, self._identity)
        return pd.DataFrame(
            {"n_ratings": r.astype(np.int64), "agreement": a}, index=self._item_index()
        )

    def report(
        self,
        confidence_level: float | None = None,
        *,
        method: str = "analytic",
        n_resamples: int = 2000,
        rng: Any = None,
    ) -> pd.DataFrame:
        """Every coefficient that applies to these ratings, one row each.

        Every layout gives observed agreement, Bennett's S, Fleiss' kappa, Gwet's AC1 and
        Krippendorff's (nominal) alpha; with rater identity Conger's and Light's kappa and the
        annotator bias are added, and with two raters Scott's pi and Cohen's kappa.
        With ``by=``, the index is (group..., coefficient).

        Parameters
        ----------
        confidence_level : float, optional
            Add ``se``, ``low``, ``high`` and ``p_value`` columns (see
            :meth:`pdagree.Coefficient.confidence_interval`) and ``ci_method``, the method used
            for the row: ``method`` where it applies, the item bootstrap for coefficients with
            no analytic variance (Light's kappa, the bias).
        method, n_resamples, rng
            The interval method (``"analytic"`` or ``"bootstrap"``) and bootstrap settings.

        Examples
        --------
        >>> import pdagree
        >>> table = pdagree.datasets.load("fleiss1971").agree.report()
        >>> table["value"].round(4).to_dict()  # doctest: +NORMALIZE_WHITESPACE
        {'observed': 0.5556, 'bennett': 0.4444, 'fleiss': 0.4302, 'gwet': 0.4479,
         'alpha[nominal]': 0.4334, 'conger': 0.4418, 'light': 0.4594, 'bias': 0.0162}
        >>> with_ci = pdagree.datasets.load("fleiss1971").agree.report(0.95)
        >>> with_ci.loc["fleiss", ["value", "se", "low", "high"]].astype(float).round(4).tolist()
        [0.4302, 0.0542, 0.3194, 0.5411]
        """
        from .inference import check_confidence_level

        if method not in ("analytic", "bootstrap"):
            raise ValueError(
                f"`method` must be 'analytic' or 'bootstrap' for a report; got {method!r}."
            )
        if confidence_level is not None:
            check_confidence_level(confidence_level)
        methods: list[str] = ["observed", "bennett", "fleiss", "gwet", "alpha"]
        if self._enc.raters is not None:
            if self._active_raters.max() <= 2:
                methods += ["scott", "cohen"]
            methods += ["conger", "light", "bias"]
        columns = list(_REPORT_COLUMNS)
        frames = []
        for name in methods:
            options: dict[str, Any] = {}
            if confidence_level is not None:
                chosen = "bootstrap" if name in ("light", "bias") else method
                options = {
                    "confidence_level": confidence_level,
                    "method": chosen,
                    "n_resamples": n_resamples,
                    "rng": rng,
                }
            result = getattr(self, name)(**options)
            if isinstance(result, Coefficient):
                sub = result.to_frame()
            else:
                sub = result.copy()
                sub["coefficient"] = result["name"]
                sub = sub.set_index("coefficient", append=True)
            if confidence_level is not None:
                sub["ci_method"] = options["method"]
                columns = [*_REPORT_COLUMNS, "se", "low", "high", "p_value", "ci_method"]
            frames.append(sub.reindex(columns=columns))
        out = pd.concat(frames)
        if self._enc.groups is not None:
            out = out.sort_index(level=list(range(out.index.nlevels - 1)), sort_remaining=False)
        return out


_REPORT_COLUMNS = ["value", "observed", "expected", "n_items", "n_raters", "n_categories"]


def _cross_index(outer: pd.Index, inner: pd.Index, default: str) -> pd.MultiIndex:
    """All (outer..., inner) pairs, outer-major, keeping the level names."""
    outer_frame = (
        outer.to_frame(index=False)
        if isinstance(outer, pd.MultiIndex)
        else pd.DataFrame({outer.name: outer})
    )
    n_in = len(inner)
    rep = outer_frame.loc[outer_frame.index.repeat(n_in)].reset_index(drop=True)
    rep[inner.name if inner.name is not None else "level"] = np.tile(
        np.asarray(inner, dtype=object), len(outer)
    )
    return pd.MultiIndex.from_frame(rep)


def _group_max(values: FloatArray, group: Any, n_groups: int) -> FloatArray:
    out = np.zeros(n_groups)
    order = np.lexsort((values, group))
    last = np.r_[np.flatnonzero(np.diff(group[order])), len(order) - 1]
    out[group[order][last]] = values[order][last]
    return out
