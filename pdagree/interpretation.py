"""Descriptive bands for agreement coefficients on published scales (Landis & Koch, Altman,
Fleiss, Krippendorff): :meth:`pdagree.Coefficient.interpret`."""

from __future__ import annotations

import numpy as np

__all__ = ["SCALES", "interpret"]

# Each band: (upper bound, whether the bound belongs to the band, label); values above the last
# bound fall in the last band.
SCALES: dict[str, list[tuple[float, bool, str]]] = {
    # Landis & Koch (1977), Biometrics 33(1), p. 165: < 0 poor, 0.00-0.20 slight, 0.21-0.40
    # fair, 0.41-0.60 moderate, 0.61-0.80 substantial, 0.81-1.00 almost perfect.
    "landis-koch": [
        (0.0, False, "poor"),
        (0.20, True, "slight"),
        (0.40, True, "fair"),
        (0.60, True, "moderate"),
        (0.80, True, "substantial"),
        (1.0, True, "almost perfect"),
    ],
    # Altman (1991), Practical Statistics for Medical Research, p. 404: < 0.20 poor,
    # 0.21-0.40 fair, 0.41-0.60 moderate, 0.61-0.80 good, 0.81-1.00 very good.
    "altman": [
        (0.20, True, "poor"),
        (0.40, True, "fair"),
        (0.60, True, "moderate"),
        (0.80, True, "good"),
        (1.0, True, "very good"),
    ],
    # Fleiss (1981), Statistical Methods for Rates and Proportions, p. 218: below 0.40 poor,
    # 0.40-0.75 fair to good, above 0.75 excellent.
    "fleiss": [(0.40, False, "poor"), (0.75, True, "fair to good"), (1.0, True, "excellent")],
    # Krippendorff (2004), Content Analysis, 2nd ed., p. 241: rely on alpha >= .800, draw
    # tentative conclusions for .667 <= alpha < .800, discard data below .667.
    "krippendorff": [
        (0.667, False, "unreliable"),
        (0.800, False, "tentative"),
        (1.0, True, "reliable"),
    ],
}


def interpret(value: float, scale: str) -> str:
    """The band ``value`` falls in on ``scale``; see :meth:`Coefficient.interpret`."""
    if scale not in SCALES:
        raise ValueError(
            "`scale` must be one of 'landis-koch', 'altman', 'fleiss', 'krippendorff'; got "
            f"{scale!r}."
        )
    if np.isnan(value):
        return "undefined"
    bands = SCALES[scale]
    for upper, inclusive, label in bands:
        if value < upper or (inclusive and value == upper):
            return label
    return bands[-1][2]
