"""A chart's axes: round ratings for the gridlines, round dates along the bottom."""

from __future__ import annotations

import itertools
import math
from datetime import datetime, timedelta

from django.utils import timezone

from ratings.formatting import date_texts

# club.css's size for .rating-chart text, in viewBox units, and the width of a digit or an
# average letter at that size, generously.
FONT = 13
CHAR = FONT * 0.6
# Date labels: at most one per this many units of the plot's width.
_DATE_SPACING = 100


def nice_ticks(lo: float, hi: float, target: int = 5) -> list[float]:
    """Round gridline values (steps of 1, 2, 2.5 or 5 times a power of ten) covering lo..hi."""
    if hi - lo < 1e-9:
        pad = max(abs(lo) * 0.02, 5.0)
        lo, hi = lo - pad, hi + pad
    raw = (hi - lo) / target
    power = 10 ** math.floor(math.log10(raw))
    # 2.5 only where its multiples stay whole numbers (25, 250…): ratings are read as integers.
    multiples = (1, 2, 2.5, 5, 10) if power >= 10 else (1, 2, 5, 10)
    step = next(m * power for m in multiples if m * power >= raw)
    start = math.floor(lo / step)
    end = math.ceil(hi / step)
    return [k * step for k in range(start, end + 1)]


def decimals(step: float) -> int:
    """Decimals that show a tick step of 1, 2 or 5 times a power of ten exactly."""
    return 0 if step >= 1 else -math.floor(math.log10(step) + 1e-9)


_DAY = 86400
_DAY_STEPS = (1, 2, 7, 14)
_MONTH_STEPS = (1, 2, 3, 6)
_YEAR_STEPS = (1, 2, 5, 10, 20, 50, 100)


def date_labels(
    t_lo: float, t_hi: float, sample: datetime, x_of, width: float, plot_width: float
) -> list[tuple[float, str]]:
    """The date ticks along the bottom as (x, label): about one per ``_DATE_SPACING`` units,
    fewer where the labels are long ("September 2026" on a phone), so no two labels touch;
    a label that would stick out of the chart is left out."""
    most = max(2, int(plot_width / _DATE_SPACING))
    while True:
        labels = [
            (x, label)
            for x, label in ((x_of(t), label) for t, label in _date_ticks(t_lo, t_hi, sample, most))
            if len(label) * CHAR / 2 <= min(x, width - x)
        ]
        apart = all(
            x2 - x1 >= (len(a) + len(b)) * CHAR / 2 + CHAR
            for (x1, a), (x2, b) in itertools.pairwise(labels)
        )
        if apart or most == 1:
            return labels
        most -= 1


def _date_ticks(t_lo: float, t_hi: float, sample: datetime, most: int) -> list[tuple[float, str]]:
    """Dates between t_lo and t_hi at a round step (days, months or years), at most about
    ``most`` of them, with their labels."""
    span = t_hi - t_lo
    tz = timezone.get_current_timezone() if timezone.is_aware(sample) else None
    start = datetime.fromtimestamp(t_lo, tz)

    for days in _DAY_STEPS:
        if span / (days * _DAY) <= most:
            day = start.replace(hour=0, minute=0, second=0, microsecond=0)
            ticks = [day + timedelta(days=k * days) for k in range(most + 3)]
            return _label(ticks, t_lo, t_hi, "MONTH_DAY_FORMAT")
    months_total = span / (30.44 * _DAY)
    for months in _MONTH_STEPS:
        if months_total / months <= most:
            index = start.year * 12 + (start.month - 1) // months * months
            ticks = []
            for k in range(most + 3):
                year, month = divmod(index + k * months, 12)
                ticks.append(start.replace(year=year, month=month + 1, day=1, hour=0, minute=0,
                                           second=0, microsecond=0))  # fmt: skip
            return _label(ticks, t_lo, t_hi, "YEAR_MONTH_FORMAT")
    years_total = months_total / 12
    years = next((y for y in _YEAR_STEPS if years_total / y <= most), _YEAR_STEPS[-1])
    first = start.year // years * years
    ticks = [
        start.replace(
            year=first + k * years, month=1, day=1, hour=0, minute=0, second=0, microsecond=0
        )  # fmt: skip
        for k in range(most + 3)
        if first + k * years <= 9999
    ]
    return _label(ticks, t_lo, t_hi, "Y")


def _label(ticks: list[datetime], t_lo: float, t_hi: float, fmt: str) -> list[tuple[float, str]]:
    return [(t.timestamp(), date_texts(t, fmt)[0]) for t in ticks if t_lo <= t.timestamp() <= t_hi]
