"""The rating-history chart on a player's page, drawn as SVG on the server.

Pure Python: no database, no JavaScript, no external assets but the club's stylesheet. The
caller hands over one :class:`ChartSeries` per league and gets back markup that can be put
straight into a template.

Some choices and why:

- Every point is on the line, but only a sample of them (first, last, lowest, highest and an even
  spread, at most ``max_markers`` per series) gets a clickable marker: a player with thousands of
  games would otherwise get a page of several megabytes. Coordinates are rounded to 0.1.
- Series differ in colour, dash pattern and (every other one) hollow markers, so the chart
  still reads without colour vision: classes ``s0`` to ``s7``, styled in ``static/club.css``.
- The chart is one ``role="figure"`` named by a text summary (its ``<title>`` and ``<desc>``);
  the drawing inside is ``aria-hidden``. Its markers are links for mouse and touch but are kept
  out of the tab order (hundreds of tab stops would trap keyboard users) and from screen readers:
  the page's table of games is the accessible way to the same games. (Not ``role="img"``: an
  image's content is presentational, and links inside one are "nested interactive" controls.)
- No ``<style>`` element or ``style`` attribute: the Content Security Policy allows only the
  site's own stylesheets, so every rule, scoped to ``.rating-chart``, is in ``static/club.css``.
  On narrow screens the chart shrinks with its viewBox, so the text is drawn larger there and
  every other date and rating label is hidden (classes ``xodd`` and ``yodd``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import NamedTuple

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ratings.formatting import change_text, decimal_text, rating_text

MAX_MARKERS = 200

# Series styles in static/club.css (.s0 to .s7); a ninth series repeats the first one's.
SERIES_STYLES = 8

# Layout in viewBox units. The "phone" sizes are what the text needs when the chart is scaled
# down to about half its width; the legend and margins are laid out for those, the worst case.
# _FONT_PHONE is club.css's size for .rating-chart text on a phone.
_FONT_PHONE = 26
_CHAR_PHONE = _FONT_PHONE * 0.58
_PAD_X = 14
_LEGEND_ROW = 34
_BOTTOM = 40


class ChartPoint(NamedTuple):
    """One game on a series: when it was played, the rating after it, its page and tooltip."""

    when: datetime
    rating: float
    url: str
    title: str


@dataclass(frozen=True, slots=True)
class ChartSeries:
    """One league's rating history, oldest point first."""

    label: str
    points: Sequence[ChartPoint]


def point_title(when: datetime, rating: float, change: float | None = None) -> str:
    """A marker's tooltip: "March 12, 2026: 1173 (−27)", in the active language.

    The rating and the change read exactly as in the page's tables (:mod:`ratings.formatting`),
    a change that rounds to zero included: "(0)".
    """
    text = f"{date_format(_local(when), 'DATE_FORMAT')}: {rating_text(rating)}"
    if change is not None:
        text += f" ({change_text(change)})"
    return text


def rating_history_svg(
    series: Sequence[ChartSeries],
    *,
    width: int = 720,
    height: int = 280,
    lower_is_better: bool = False,
    max_markers: int = MAX_MARKERS,
) -> SafeString:
    """Draw the rating histories as one SVG line chart.

    ``lower_is_better`` turns the y axis upside down (lowest rating at the top) so that up means
    better, as for prefko; leagues whose directions differ belong in separate charts.
    Labels, titles and URLs are escaped here; URLs with a scheme other than http(s) get no link.
    """
    drawn = [s for s in series if s.points]
    if not drawn:
        return _empty_svg()

    # Legend rows at the top, laid out for the larger phone text.
    columns = 1 if len(drawn) == 1 else 2
    column_width = (width - 2 * _PAD_X) / columns
    legend_rows = math.ceil(len(drawn) / columns)
    # The top gridline's label is drawn above its line: leave it room below the legend (at phone
    # size it would otherwise run into the legend text).
    top = 8 + legend_rows * _LEGEND_ROW + _FONT_PHONE
    left, right = _PAD_X, width - _PAD_X
    bottom = height - _BOTTOM
    if bottom - top < 60:  # many leagues in a short chart: grow rather than squash the plot
        bottom = top + 60
        height = bottom + _BOTTOM

    # Scales. Timestamps work for aware and naive datetimes alike.
    times = [[p.when.timestamp() for p in s.points] for s in drawn]
    t_lo = min(min(t) for t in times)
    t_hi = max(max(t) for t in times)
    if t_hi - t_lo < 2 * 86400:  # a single day's games: show a few days around them
        middle = (t_lo + t_hi) / 2
        t_lo, t_hi = middle - 86400 * 1.5, middle + 86400 * 1.5
    ratings = [p.rating for s in drawn for p in s.points]
    y_ticks = _nice_ticks(min(ratings), max(ratings))
    y_lo, y_hi = y_ticks[0], y_ticks[-1]

    x_scale = (right - left) / (t_hi - t_lo)
    y_scale = (bottom - top) / (y_hi - y_lo)

    def x_of(t: float) -> float:
        return left + (t - t_lo) * x_scale

    if lower_is_better:

        def y_of(r: float) -> float:
            return top + (r - y_lo) * y_scale

    else:

        def y_of(r: float) -> float:
            return bottom - (r - y_lo) * y_scale

    out: list[str] = []
    name, description = _summary(drawn)
    if lower_is_better:
        description += ". " + _("Lower ratings are better; the axis is reversed so up is better.")
    out.append(
        f'<svg class="rating-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} '
        f'{height}" width="100%" preserveAspectRatio="xMidYMid meet" role="figure" '
        f'aria-label="{escape(name)}">'
    )
    out.append(f"<title>{escape(name)}</title><desc>{escape(description)}</desc>")
    out.append('<g aria-hidden="true">')

    # Gridlines now, their labels after the data so no line hides them. The labels sit on their
    # line inside the plot, so no margin has to be guessed for their width.
    decimals = _decimals(y_ticks[1] - y_ticks[0])
    y_labels = []
    for n, value in enumerate(y_ticks):
        y = y_of(value)
        out.append(f'<line class="grid" x1="{left}" x2="{right}" y1="{y:.1f}" y2="{y:.1f}"/>')
        label = escape(decimal_text(value, decimals, trim=False))
        cls = "ylabel" if n % 2 == 0 or len(y_ticks) <= 3 else "ylabel yodd"
        y_labels.append(f'<text class="{cls}" x="{left + 2}" y="{y - 4:.1f}">{label}</text>')

    # Date ticks along the bottom.
    out.append(f'<line class="axis" x1="{left}" x2="{right}" y1="{bottom}" y2="{bottom}"/>')
    # A label that would stick out of the chart on a phone is left out rather than clipped.
    date_ticks = [
        (x, label)
        for x, label in (
            (x_of(t), label) for t, label in _date_ticks(t_lo, t_hi, drawn[0].points[0].when, width)
        )
        if len(label) * _CHAR_PHONE / 2 <= min(x, width - x)
    ]
    for n, (x, label) in enumerate(date_ticks):
        cls = ' class="xodd"' if n % 2 else ""
        out.append(
            f'<g{cls}><line class="axis" x1="{x:.1f}" x2="{x:.1f}" y1="{bottom}" '
            f'y2="{bottom + 5}"/><text x="{x:.1f}" y="{height - 10}" text-anchor="middle">'
            f"{escape(label)}</text></g>"
        )

    # Legend.
    max_chars = max(4, int((column_width - 44) / _CHAR_PHONE))
    for n, s in enumerate(drawn):
        x = left + (n % columns) * column_width
        y = 8 + (n // columns) * _LEGEND_ROW + _LEGEND_ROW / 2
        label = s.label if len(s.label) <= max_chars else s.label[: max_chars - 1] + "…"
        out.append(
            f'<g class="s{n % SERIES_STYLES}"><title>{escape(s.label)}</title>'
            f'<line class="line" x1="{x:.1f}" x2="{x + 32:.1f}" y1="{y:.1f}" y2="{y:.1f}"/>'
            f'<circle class="dot" cx="{x + 16:.1f}" cy="{y:.1f}" r="4"/>'
            f'<text x="{x + 40:.1f}" y="{y:.1f}" dominant-baseline="central">{escape(label)}'
            "</text></g>"
        )

    # The lines through every point, then the sampled markers on top.
    for n, (s, ts) in enumerate(zip(drawn, times, strict=True)):
        coords = [f"{x_of(t):.1f},{y_of(p.rating):.1f}" for t, p in zip(ts, s.points, strict=True)]
        # Points that round to the same spot add bytes, not ink.
        kept = [c for i, c in enumerate(coords) if i == 0 or c != coords[i - 1]]
        if len(kept) == 1:
            kept.append(kept[0])  # a one-point polyline draws nothing; the marker shows it
        out.append(
            f'<g class="s{n % SERIES_STYLES}"><polyline class="line" points="{" ".join(kept)}"/>'
        )
        indices = _marker_indices(s.points, max_markers)
        radius = 4 if len(indices) <= 60 else 3  # dense markers would merge into a band
        for i in indices:
            p = s.points[i]
            circle = (
                f'<circle class="dot" cx="{x_of(ts[i]):.1f}" cy="{y_of(p.rating):.1f}" '
                f'r="{radius}"/>'
            )
            title = f"<title>{escape(p.title)}</title>" if p.title else ""
            if _safe_url(p.url):
                out.append(f'<a href="{escape(p.url)}" tabindex="-1">{title}{circle}</a>')
            else:
                out.append(f"<g>{title}{circle}</g>" if title else circle)
        out.append("</g>")

    out.extend(y_labels)
    out.append("</g></svg>")
    return mark_safe("".join(out))


# Helpers -----------------------------------------------------------------------------------


def _empty_svg() -> SafeString:
    # Drawn at its natural size (not width=100%): a lone line of text need not grow on desktop.
    text = escape(_("No games yet"))
    return mark_safe(
        f'<svg class="rating-chart rating-chart-empty" xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 0 240 40" width="240" height="40" role="img" aria-label="{text}">'
        f"<title>{text}</title>"
        f'<text x="0" y="26" fill="currentColor" font-size="16">{text}</text></svg>'
    )


def _summary(drawn: Sequence[ChartSeries]) -> tuple[str, str]:
    """The chart's accessible name (each league's first and last rating) and its description."""
    names, details = [], []
    for s in drawn:
        first, last = s.points[0], s.points[-1]
        names.append(
            _("%(league)s from %(first)s to %(last)s")
            % {
                "league": s.label,
                "first": rating_text(first.rating),
                "last": rating_text(last.rating),
            }
        )
        details.append(
            ngettext(
                "%(league)s: %(count)s game, %(start)s – %(end)s",
                "%(league)s: %(count)s games, %(start)s – %(end)s",
                len(s.points),
            )
            % {
                "league": s.label,
                "count": len(s.points),
                "start": date_format(_local(first.when), "DATE_FORMAT"),
                "end": date_format(_local(last.when), "DATE_FORMAT"),
            }
        )
    name = _("Rating history: %(series)s") % {"series": "; ".join(names)}
    return name, "; ".join(details)


def _marker_indices(points: Sequence[ChartPoint], limit: int) -> list[int]:
    """First, last, lowest, highest and an even spread: at most ``limit`` indices, in order."""
    n = len(points)
    if n <= limit:
        return list(range(n))
    ratings = [p.rating for p in points]
    lowest = min(range(n), key=ratings.__getitem__)
    highest = max(range(n), key=ratings.__getitem__)
    spread = max(2, limit - 2)
    chosen = {round(k * (n - 1) / (spread - 1)) for k in range(spread)}
    chosen.update((lowest, highest))
    return sorted(chosen)


def _nice_ticks(lo: float, hi: float, target: int = 5) -> list[float]:
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


def _decimals(step: float) -> int:
    """Decimals that show a tick step of 1, 2 or 5 times a power of ten exactly."""
    return 0 if step >= 1 else -math.floor(math.log10(step) + 1e-9)


_DAY = 86400
_DAY_STEPS = (1, 2, 7, 14)
_MONTH_STEPS = (1, 2, 3, 6)
_YEAR_STEPS = (1, 2, 5, 10, 20, 50, 100)


def _date_ticks(t_lo: float, t_hi: float, sample: datetime, width: int) -> list[tuple[float, str]]:
    """Dates between t_lo and t_hi at a round step (days, months or years), with their labels."""
    most = max(2, int((width - 2 * _PAD_X) / 110))
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
    return [(t.timestamp(), date_format(t, fmt)) for t in ticks if t_lo <= t.timestamp() <= t_hi]


def _local(when: datetime) -> datetime:
    return timezone.localtime(when) if timezone.is_aware(when) else when


def _safe_url(url: str) -> bool:
    """Relative URLs and http(s) only: a "javascript:" URL in the data must not become a link."""
    if not url:
        return False
    head = url.strip().split("/", 1)[0].lower()
    return ":" not in head or head.startswith(("http:", "https:"))
