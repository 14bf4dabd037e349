"""Robust statistics for group-consistency tests (standard library only).

The median and the median absolute deviation (MAD) resist up to half the group being
outliers; ``MAD_SCALE`` turns the MAD into a standard-deviation estimate for Gaussian noise,
which makes :func:`robust_z` the modified z-score of Iglewicz and Hoaglin.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence

MAD_SCALE = 1.4826
DEVIATION_CAP = 100.0


def median(values: Iterable[float]) -> float:
    """The median of a non-empty collection (mean of the two middle values when even).

    Same value as ``statistics.median`` (same arithmetic), without its per-call overhead:
    it runs for every node of every window. Raises ``statistics.StatisticsError`` if empty."""
    ordered = sorted(values)
    n = len(ordered)
    if n == 0:
        raise statistics.StatisticsError("no median for empty data")
    half = n // 2
    if n % 2:
        return float(ordered[half])
    return float((ordered[half - 1] + ordered[half]) / 2)


def low_median(values: Sequence[float]) -> float:
    """The lower median: with two samples the smaller one, so one spike never sets the value."""
    return float(statistics.median_low(values))


def high_median(values: Sequence[float]) -> float:
    """The upper median: with two samples the larger one, so one dip never sets the value."""
    return float(statistics.median_high(values))


def mad(values: Sequence[float]) -> float:
    """The median absolute deviation from the median; 0 for fewer than two values."""
    if len(values) < 2:
        return 0.0
    centre = median(values)
    return median([abs(v - centre) for v in values])


def spread(values: Sequence[float], floor: float) -> float:
    """A robust standard deviation (scaled MAD), never below ``floor`` (> 0)."""
    return max(MAD_SCALE * mad(values), floor)


def robust_z(value: float, centre: float, sigma: float) -> float:
    """How many robust standard deviations ``value`` lies above ``centre`` (signed)."""
    return (value - centre) / sigma


def ratio(numerator: float, denominator: float) -> float:
    """``numerator / denominator`` capped at ``DEVIATION_CAP`` (a zero denominator hits it)."""
    if denominator <= 0:
        return DEVIATION_CAP if numerator > 0 else 1.0
    return min(numerator / denominator, DEVIATION_CAP)


def group_cv(values: Iterable[float]) -> float:
    """Robust coefficient of variation: scaled MAD over the median (inf for a zero median)."""
    vals = list(values)
    centre = median(vals)
    if centre == 0:
        return 0.0 if mad(vals) == 0 else float("inf")
    return MAD_SCALE * mad(vals) / abs(centre)
