"""Measurement levels of Krippendorff's alpha: the public path of
:mod:`pdagree.encoding.levels`."""

from .encoding.levels import LEVELS, Level, magnitude, metric_for

__all__ = ["LEVELS", "Level", "magnitude", "metric_for"]
