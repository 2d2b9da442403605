"""``Coefficient.interpret(scale=...)``: the band a value falls in on a published scale.

Bands and their sources are in ``tests/references.py`` (section 5): Landis & Koch (1977),
Altman (1991), Fleiss (1981), Krippendorff (2004). The publications print closed ranges at two
decimals (0.21-0.40), leaving values such as 0.205 between two bands; there pdagree's documented
rule applies (``Coefficient.interpret``: each band includes its printed upper bound).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
import references as ref

import pdagree
from pdagree import Coefficient


def band(value: float, scale: str | None = None) -> str:
    coefficient = Coefficient(
        value,
        name="kappa",
        observed=0.5,
        expected=0.5,
        n_items=10,
        n_raters=2,
        n_categories=2,
        categories=("a", "b"),
    )
    return coefficient.interpret() if scale is None else coefficient.interpret(scale)


def above(x: float) -> float:
    """The next float above ``x``."""
    return float(np.nextafter(x, math.inf))


def below(x: float) -> float:
    """The next float below ``x``."""
    return float(np.nextafter(x, -math.inf))


# --------------------------------------------------------------------------- Landis & Koch


@pytest.mark.parametrize(
    ("value", "label"),
    [
        # Landis & Koch (1977), p. 165: < 0.00 poor, 0.00-0.20 slight, 0.21-0.40 fair,
        # 0.41-0.60 moderate, 0.61-0.80 substantial, 0.81-1.00 almost perfect.
        (-1.0, "poor"),
        (-0.3, "poor"),
        (below(0.0), "poor"),
        (0.0, "slight"),
        (0.1, "slight"),
        (0.20, "slight"),
        (above(0.20), "fair"),
        (0.21, "fair"),
        (0.40, "fair"),
        (above(0.40), "moderate"),
        (0.41, "moderate"),
        (0.60, "moderate"),
        (above(0.60), "substantial"),
        (0.61, "substantial"),
        (0.80, "substantial"),
        (above(0.80), "almost perfect"),
        (0.81, "almost perfect"),
        (1.0, "almost perfect"),
    ],
)
def test_landis_koch(value: float, label: str) -> None:
    assert band(value, "landis-koch") == label
    assert band(value) == label  # the default scale


# --------------------------------------------------------------------------- Altman


@pytest.mark.parametrize(
    ("value", "label"),
    [
        # Altman (1991), p. 404: < 0.20 poor, 0.21-0.40 fair, 0.41-0.60 moderate,
        # 0.61-0.80 good, 0.81-1.00 very good. 0.20 itself: poor (documented "poor <= .20").
        (-0.5, "poor"),
        (0.0, "poor"),
        (0.19, "poor"),
        (0.20, "poor"),
        (above(0.20), "fair"),
        (0.21, "fair"),
        (0.40, "fair"),
        (above(0.40), "moderate"),
        (0.60, "moderate"),
        (above(0.60), "good"),
        (0.80, "good"),
        (above(0.80), "very good"),
        (0.81, "very good"),
        (1.0, "very good"),
    ],
)
def test_altman(value: float, label: str) -> None:
    assert band(value, "altman") == label


# --------------------------------------------------------------------------- Fleiss


@pytest.mark.parametrize(
    ("value", "label"),
    [
        # Fleiss (1981), p. 218: "below 0.40" poor, "0.40 to 0.75" fair to good, "above 0.75"
        # excellent (pdagree's docstring: poor < .40, fair to good <= .75, excellent).
        (-0.2, "poor"),
        (0.0, "poor"),
        (below(0.40), "poor"),
        (0.40, "fair to good"),
        (0.5, "fair to good"),
        (0.75, "fair to good"),
        (above(0.75), "excellent"),
        (0.9, "excellent"),
        (1.0, "excellent"),
    ],
)
def test_fleiss(value: float, label: str) -> None:
    assert band(value, "fleiss") == label


# --------------------------------------------------------------------------- Krippendorff


@pytest.mark.parametrize(
    ("value", "label"),
    [
        # Krippendorff (2004), p. 241: rely on alpha >= .800; tentative conclusions for
        # .667 <= alpha < .800; below .667 the data are discarded.
        (1.0, "reliable"),
        (0.800, "reliable"),
        (below(0.800), "tentative"),
        (0.7, "tentative"),
        (0.667, "tentative"),
        (below(0.667), "unreliable"),
        (0.5, "unreliable"),
        (-0.2, "unreliable"),
    ],
)
def test_krippendorff(value: float, label: str) -> None:
    assert band(value, "krippendorff") == label


def test_krippendorff_thresholds_are_the_published_ones() -> None:
    # Krippendorff (2004), p. 241, as recorded in references.py.
    for label, threshold in ref.KRIPPENDORFF_2004_THRESHOLDS.items():
        assert band(threshold, "krippendorff") == label
        assert band(below(threshold), "krippendorff") != label


# --------------------------------------------------------------------------- every band


@pytest.mark.parametrize(
    ("scale", "bands"),
    [
        ("landis-koch", ref.LANDIS_KOCH_1977),
        ("altman", ref.ALTMAN_1991),
        ("fleiss", ref.FLEISS_1981),
    ],
)
def test_every_published_band_is_reachable(scale: str, bands: list[tuple]) -> None:
    # The middle of every published band gets the published name (case aside).
    labels = set()
    for lower, upper, label in bands:
        lo = -1.0 if lower is None else lower
        hi = 1.0 if upper is None else upper
        assert band((lo + hi) / 2, scale) == label.lower()
        labels.add(label.lower())
    assert {band(v, scale) for v in np.linspace(-1, 1, 401)} == labels


# --------------------------------------------------------------------------- on results


def test_interpret_a_computed_coefficient() -> None:
    # irrCAC README (commit 7fb7509): gwet.ac1.raw(cac.raw4raters) = 0.77544.
    wide = pd.DataFrame(ref.IRRCAC_RAW4RATERS, index=ref.IRRCAC_RAW4RATERS_UNITS)
    ac1 = wide.agree.gwet()
    assert round(float(ac1), 5) == ref.IRRCAC_RAW4RATERS_EXPECTED["gwet_ac1"]["value"]
    assert ac1.interpret() == "substantial"
    assert ac1.interpret("altman") == "good"
    assert ac1.interpret("fleiss") == "excellent"
    assert ac1.interpret("krippendorff") == "tentative"


def test_undefined_value() -> None:
    assert band(math.nan, "landis-koch") == "undefined"
    wide = pd.DataFrame({"a": ["x", "x"], "b": ["x", "x"]})
    with pytest.warns(pdagree.UndefinedStatisticWarning, match=r"A_e is 1"):
        kappa = wide.agree.fleiss()
    assert kappa.interpret() == "undefined"


def test_unknown_scale() -> None:
    with pytest.raises(
        ValueError,
        match=r"`scale` must be one of 'landis-koch', 'altman', 'fleiss', 'krippendorff'; "
        r"got 'cicchetti'",
    ):
        band(0.5, "cicchetti")
