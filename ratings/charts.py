"""The rating-history chart on a player's page, drawn as SVG on the server.

Pure Python: no database, no JavaScript, no external assets but the club's stylesheet. The
caller hands over one :class:`ChartSeries` per league and gets back markup that can be put
straight into a template.

Some choices and why:

- Two layouts: :func:`rating_history_chart` draws the chart for a phone (360 units wide, taller
  for its width) and for a wide screen (720), and ``static/club.css`` shows the one that fits.
  An SVG scales as a whole, so one drawing on a phone was either a strip too small to read or,
  drawn taller, too tall on a desktop. Each is drawn for about its own size, so its text is 13
  units, read as 12 to 18 px.
- The rating labels sit left of the plot, in a margin as wide as the longest label, so no line
  runs over them; the dates sit under it.
- A long history is drawn with a downsampled line: largest-triangle-three-buckets
  (:func:`largest_triangle_three_buckets`) keeps a point per two units of the plot's width,
  and with them the peaks and troughs that give the line its shape (the highest and lowest
  rating always). Markers, each a link to its game with a tooltip, go only where they can be
  told apart (first, last, lowest and highest always): 4,000 games draw a few dozen, not 4,000.
  Every game is still a link in the page's table of games, which pages through all of them.
  Coordinates are rounded to 0.1.
- Series differ in colour, dash pattern and (every other one) hollow markers, so the chart
  still reads without colour vision: classes ``s0`` to ``s7``, styled in ``static/club.css``.
- The chart is one ``role="figure"`` named by a text summary (its ``<title>`` and ``<desc>``);
  the drawing inside is ``aria-hidden``. Its markers are links for mouse and touch but are kept
  out of the tab order (hundreds of tab stops would trap keyboard users) and from screen readers:
  the page's table of games is the accessible way to the same games. (Not ``role="img"``: an
  image's content is presentational, and links inside one are "nested interactive" controls.)
- No ``<style>`` element or ``style`` attribute: the Content Security Policy allows only the
  site's own stylesheets, so every rule, scoped to ``.rating-chart``, is in ``static/club.css``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import NamedTuple, Protocol

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ratings.formatting import change_text, decimal_text, rating_text
from ratings.links import url_maker

MAX_MARKERS = 200

# Series styles in static/club.css (.s0 to .s7); a ninth series repeats the first one's.
SERIES_STYLES = 8

# The two layouts the page holds, in viewBox units; club.css shows the one that fits the screen.
# Each is drawn for about its own size in CSS pixels, so its 13-unit text reads as 12 to 18 px.
PHONE = (360, 270)
WIDE = (720, 280)

# Layout in viewBox units. _FONT is club.css's size for .rating-chart text.
_FONT = 13
_CHAR = _FONT * 0.6  # the width of a digit or an average letter, generously
_PAD_X = 10
_LEGEND_ROW = 22
_BOTTOM = 30
_RADIUS = 4
# Markers closer than this across the chart could not be told apart, or tapped apart.
_MARKER_GAP = 3 * _RADIUS
# Points of a downsampled line per unit of the plot's width: every other unit is plenty for a
# line 2.5 units thick, and a noisy history does not fill the plot as a solid band.
_LINE_DENSITY = 0.5
# Date labels: at most one per this many units of the plot's width.
_DATE_SPACING = 100


class ChartPoint(NamedTuple):
    """One game on a series: when it was played, the rating after it, its page and tooltip."""

    when: datetime
    rating: float
    url: str
    title: str


@dataclass(frozen=True, slots=True)
class ChartSeries:
    """One league's rating history, oldest point first; ``corrections`` are the moments a
    correction by staff moved the rating without a game (drawn as hollow diamonds, off the
    line: the line is the games as they stand now)."""

    label: str
    points: Sequence[ChartPoint]
    corrections: Sequence[ChartPoint] = ()


def point_title(when: datetime, rating: float, change: float | None = None, places: int = 0) -> str:
    """A marker's tooltip: "March 12, 2026: 1173 (−27)", in the active language.

    The rating and the change read exactly as in the page's tables (:mod:`ratings.formatting`),
    with the system's decimals (an OpenSkill ordinal: "12.4 (+0.8)"), a change that rounds to
    zero included: "(0)".
    """
    text = f"{date_format(_local(when), 'DATE_FORMAT')}: {rating_text(rating, places)}"
    if change is not None:
        text += f" ({change_text(change, places)})"
    return text


class PointTitle:
    """A chart point's tooltip, formatted only if the chart draws that point as a marker.

    The chart shows titles on its sampled markers (at most a few hundred): formatting the dates
    of thousands of games up front, or wrapping each in Django's lazy proxy, would cost more than
    the rest of the page together.
    """

    __slots__ = ("change", "places", "rating", "when")

    def __init__(self, when, rating: float, change: float, places: int) -> None:
        self.when, self.rating, self.change, self.places = when, rating, change, places

    def __str__(self) -> str:
        return point_title(self.when, self.rating, self.change, self.places)


class RatedGame(Protocol):
    """A game in a player's rating history, as the history reads give it."""

    game_id: int
    played_at: datetime
    rating_after: float
    change: float


class Correction(Protocol):
    """A correction that moved a player's rating, as the history reads give it."""

    at: datetime
    game_played_at: datetime | None
    rating: float
    change: float


def correction_text(correction: Correction, places: int = 0) -> str:
    """A correction's line in a player's history, in the active language: "Re-rated after a
    correction to the game of March 1, 2026: +2" (the game edited, deleted or restored), the
    change with the system's decimals (``places``)."""
    change = change_text(correction.change, places)
    if correction.game_played_at is None:
        return _("Re-rated after two players were merged: %(change)s") % {"change": change}
    day = date_format(_local(correction.game_played_at), "DATE_FORMAT")
    return _("Re-rated after a correction to the game of %(date)s: %(change)s") % {
        "date": day,
        "change": change,
    }


def history_series(
    label: str,
    games: Iterable[RatedGame],
    places: int = 0,
    corrections: Iterable[Correction] = (),
) -> ChartSeries:
    """A player's rating history in one league as a series: a point per game, oldest first,
    each linked to its game's page, and a point per correction that moved their rating;
    ``places`` is the system's decimals for a rating."""
    game_url = url_maker("ratings:game")
    return ChartSeries(
        label,
        [
            ChartPoint(
                game.played_at,
                game.rating_after,
                game_url(game.game_id),
                PointTitle(game.played_at, game.rating_after, game.change, places),
            )
            for game in games
        ],
        [
            ChartPoint(
                correction.at,
                correction.rating,
                "",
                f"{date_format(_local(correction.at), 'DATE_FORMAT')}: "
                f"{correction_text(correction, places)}",
            )
            for correction in corrections
        ],
    )


def largest_triangle_three_buckets(
    xs: Sequence[float], ys: Sequence[float], keep: int
) -> list[int]:
    """The indices of at most ``keep`` points that draw (almost) the same line as all of them.

    Sveinn Steinarsson's largest-triangle-three-buckets (LTTB, 2013): the first and last points
    stay; the others are cut into ``keep - 2`` buckets of consecutive points, and each bucket
    keeps the point that makes the largest triangle with the point kept before it and the
    average of the next bucket. A peak or a trough makes a large triangle, so it is the point
    its bucket keeps; the line keeps its shape with a few hundred points out of thousands.
    ``xs`` must not decrease. Pure and O(n).
    """
    n = len(xs)
    if keep >= n or n <= 2:
        return list(range(n))
    keep = max(keep, 3)
    size = (n - 2) / (keep - 2)
    chosen = [0]
    previous = 0
    for bucket in range(keep - 2):
        start = int(bucket * size) + 1
        end = int((bucket + 1) * size) + 1
        # The next bucket's average (the last point, for the last bucket).
        next_start, next_end = end, min(int((bucket + 2) * size) + 1, n)
        if next_start >= next_end:
            next_start, next_end = n - 1, n
        count = next_end - next_start
        avg_x = sum(xs[next_start:next_end]) / count
        avg_y = sum(ys[next_start:next_end]) / count
        px, py = xs[previous], ys[previous]
        best, best_area = start, -1.0
        for i in range(start, end):
            # Twice the triangle's area: the factor does not change which is largest.
            area = abs((px - avg_x) * (ys[i] - py) - (px - xs[i]) * (avg_y - py))
            if area > best_area:
                best, best_area = i, area
        chosen.append(best)
        previous = best
    chosen.append(n - 1)
    return chosen


def rating_history_chart(
    series: Sequence[ChartSeries], *, lower_is_better: bool = False
) -> SafeString:
    """The chart for a page: a phone's layout and a wide screen's, club.css showing the one that
    fits (an SVG scales as a whole, so one drawing cannot be both full-width on a phone and
    not too tall on a desktop), and a note when the drawing leaves games out."""
    drawn = [s for s in series if s.points]
    if not drawn:
        return _empty_svg()
    phone = rating_history_svg(drawn, width=PHONE[0], height=PHONE[1],
                               lower_is_better=lower_is_better, layout="phone")  # fmt: skip
    wide = rating_history_svg(drawn, width=WIDE[0], height=WIDE[1],
                              lower_is_better=lower_is_better, layout="wide")  # fmt: skip
    markup = phone + wide
    if phone.markers < sum(len(s.points) for s in drawn):
        note = _("The chart marks the games it can show apart; the table below lists every game.")
        markup += format_html('<p class="hint chart-note">{}</p>', note)
    return mark_safe(markup)


class ChartMarkup(SafeString):
    """An SVG chart's markup, with how many of its games have a marker."""

    markers: int = 0


def rating_history_svg(
    series: Sequence[ChartSeries],
    *,
    width: int = WIDE[0],
    height: int = WIDE[1],
    lower_is_better: bool = False,
    max_markers: int = MAX_MARKERS,
    layout: str = "",
) -> SafeString:
    """Draw the rating histories as one SVG line chart of ``width`` × ``height`` units.

    ``lower_is_better`` turns the y axis upside down (lowest rating at the top) so that up means
    better, as for prefko; leagues whose directions differ belong in separate charts.
    The rating labels sit left of the plot, in a margin as wide as the longest of them, so no
    line crosses them. Each line is drawn through at most about one point per two units of the
    plot's width (:func:`largest_triangle_three_buckets`, the highest and lowest rating always
    among them); markers, each a link to its game, go only where they can be told apart, at
    most ``max_markers`` of them. ``layout`` is added to the SVG's classes (``phone``,
    ``wide``), for club.css to choose.
    Labels, titles and URLs are escaped here; URLs with a scheme other than http(s) get no link.
    """
    drawn = [s for s in series if s.points]
    if not drawn:
        return _empty_svg()

    # Legend rows at the top.
    columns = 1 if len(drawn) == 1 or width < 480 else 2
    column_width = (width - 2 * _PAD_X) / columns
    legend_rows = math.ceil(len(drawn) / columns)
    top = 8 + legend_rows * _LEGEND_ROW + _FONT
    bottom = height - _BOTTOM
    if bottom - top < 80:  # many leagues in a short chart: grow rather than squash the plot
        bottom = top + 80
        height = bottom + _BOTTOM

    # Scales. Timestamps work for aware and naive datetimes alike.
    times = [[p.when.timestamp() for p in s.points] for s in drawn]
    fixes = [p for s in drawn for p in s.corrections]
    t_lo = min([t[0] for t in times] + [p.when.timestamp() for p in fixes])
    t_hi = max([t[-1] for t in times] + [p.when.timestamp() for p in fixes])
    if t_hi - t_lo < 2 * 86400:  # a single day's games: show a few days around them
        middle = (t_lo + t_hi) / 2
        t_lo, t_hi = middle - 86400 * 1.5, middle + 86400 * 1.5
    lowest = min([min(p.rating for p in s.points) for s in drawn] + [p.rating for p in fixes])
    highest = max([max(p.rating for p in s.points) for s in drawn] + [p.rating for p in fixes])
    y_ticks = _nice_ticks(lowest, highest, target=max(3, int((bottom - top) / 45)))
    y_lo, y_hi = y_ticks[0], y_ticks[-1]
    decimals = _decimals(y_ticks[1] - y_ticks[0])
    y_texts = [decimal_text(value, decimals, trim=False) for value in y_ticks]

    # The plot starts right of the widest rating label.
    left = _PAD_X + max(len(text) for text in y_texts) * _CHAR + 8
    right = width - _PAD_X
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
        # A date may end in its own full stop ("2026 г.", "2026."): one stop, never two.
        stop = "" if description.endswith(".") else "."
        description += (
            stop + " " + _("Lower ratings are better; the axis is reversed so up is better.")
        )
    classes = f"rating-chart {layout}".strip()
    out.append(
        f'<svg class="{classes}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} '
        f'{height}" width="100%" preserveAspectRatio="xMidYMid meet" role="figure" '
        f'aria-label="{escape(name)}">'
    )
    out.append(f"<title>{escape(name)}</title><desc>{escape(description)}</desc>")
    out.append('<g aria-hidden="true">')

    # Gridlines across the plot, their ratings in the margin to the left of it.
    for value, text in zip(y_ticks, y_texts, strict=True):
        y = y_of(value)
        out.append(f'<line class="grid" x1="{left}" x2="{right}" y1="{y:.1f}" y2="{y:.1f}"/>')
        out.append(
            f'<text class="ylabel" x="{left - 6:.1f}" y="{y:.1f}" text-anchor="end" '
            f'dominant-baseline="central">{escape(text)}</text>'
        )
    out.append(f'<line class="axis" x1="{left}" x2="{left}" y1="{top}" y2="{bottom}"/>')

    # Date ticks along the bottom; a label that would stick out of the chart is left out.
    out.append(f'<line class="axis" x1="{left}" x2="{right}" y1="{bottom}" y2="{bottom}"/>')
    for x, label in _date_labels(t_lo, t_hi, drawn[0].points[0].when, x_of, width, right - left):
        out.append(
            f'<line class="axis" x1="{x:.1f}" x2="{x:.1f}" y1="{bottom}" y2="{bottom + 5}"/>'
            f'<text x="{x:.1f}" y="{height - 9}" text-anchor="middle">{escape(label)}</text>'
        )

    # Legend.
    max_chars = max(4, int((column_width - 44) / _CHAR))
    for n, s in enumerate(drawn):
        x = _PAD_X + (n % columns) * column_width
        y = 8 + (n // columns) * _LEGEND_ROW + _LEGEND_ROW / 2
        label = s.label if len(s.label) <= max_chars else s.label[: max_chars - 1] + "…"
        out.append(
            f'<g class="s{n % SERIES_STYLES}"><title>{escape(s.label)}</title>'
            f'<line class="line" x1="{x:.1f}" x2="{x + 32:.1f}" y1="{y:.1f}" y2="{y:.1f}"/>'
            f'<circle class="dot" cx="{x + 16:.1f}" cy="{y:.1f}" r="{_RADIUS}"/>'
            f'<text x="{x + 40:.1f}" y="{y:.1f}" dominant-baseline="central">{escape(label)}'
            "</text></g>"
        )

    # Each line, downsampled to a point per two units of width, then its markers on top.
    marked = 0
    for n, (s, ts) in enumerate(zip(drawn, times, strict=True)):
        xs = [x_of(t) for t in ts]
        ys = [y_of(p.rating) for p in s.points]
        extremes = _extremes(s.points)
        line = sorted(
            set(largest_triangle_three_buckets(xs, ys, int((right - left) * _LINE_DENSITY)))
            | set(extremes)
        )
        coords = [f"{xs[i]:.1f},{ys[i]:.1f}" for i in line]
        # Points that round to the same spot add bytes, not ink.
        kept = [c for i, c in enumerate(coords) if i == 0 or c != coords[i - 1]]
        if len(kept) == 1:
            kept.append(kept[0])  # a one-point polyline draws nothing; the marker shows it
        out.append(
            f'<g class="s{n % SERIES_STYLES}"><polyline class="line" points="{" ".join(kept)}"/>'
        )
        indices = _marker_indices(xs, line, extremes, max_markers)
        marked += len(indices)
        for i in indices:
            p = s.points[i]
            circle = f'<circle class="dot" cx="{xs[i]:.1f}" cy="{ys[i]:.1f}" r="{_RADIUS}"/>'
            title = f"<title>{escape(p.title)}</title>" if p.title else ""
            if _safe_url(p.url):
                out.append(f'<a href="{escape(p.url)}" tabindex="-1">{title}{circle}</a>')
            else:
                out.append(f"<g>{title}{circle}</g>" if title else circle)
        for p in s.corrections:
            x, y, r = x_of(p.when.timestamp()), y_of(p.rating), _RADIUS + 1
            out.append(
                f'<g class="correction"><title>{escape(p.title)}</title>'
                f'<path d="M{x:.1f},{y - r:.1f}l{r},{r}l{-r},{r}l{-r},{-r}z"/></g>'
            )
        out.append("</g>")

    out.append("</g></svg>")
    markup = ChartMarkup("".join(out))
    markup.markers = marked
    return markup


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


def _extremes(points: Sequence[ChartPoint]) -> list[int]:
    """The first and last points and the highest and lowest rating: always drawn and marked."""
    ratings = [p.rating for p in points]
    n = len(points)
    lowest = min(range(n), key=ratings.__getitem__)
    highest = max(range(n), key=ratings.__getitem__)
    return sorted({0, n - 1, lowest, highest})


def _marker_indices(
    xs: Sequence[float], candidates: list[int], extremes: list[int], limit: int
) -> list[int]:
    """Markers that can be told apart: in time order, each at least _MARKER_GAP across the
    chart from the one before it and from the next of ``extremes`` (which are always marked),
    so at most one per _MARKER_GAP of the plot's width; an even spread of them if there are
    still more than ``limit``."""
    forced = set(extremes)
    chosen: list[int] = []
    upcoming = iter(sorted(forced))
    next_forced = next(upcoming, None)

    def apart(i: int, j: int | None) -> bool:
        return j is None or abs(xs[i] - xs[j]) >= _MARKER_GAP

    for i in candidates:
        while next_forced is not None and next_forced < i:
            next_forced = next(upcoming, None)
        told_apart = apart(i, chosen[-1] if chosen else None) and apart(i, next_forced)
        if i in forced or told_apart:
            chosen.append(i)
    if len(chosen) > limit:
        spread = max(2, limit - len(forced))
        step = (len(chosen) - 1) / (spread - 1)
        sample = {chosen[round(k * step)] for k in range(spread)}
        chosen = sorted(sample | forced)
    return chosen


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


def _date_labels(
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
            if len(label) * _CHAR / 2 <= min(x, width - x)
        ]
        apart = all(
            x2 - x1 >= (len(a) + len(b)) * _CHAR / 2 + _CHAR
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
    return [(t.timestamp(), date_format(t, fmt)) for t in ticks if t_lo <= t.timestamp() <= t_hi]


def _local(when: datetime) -> datetime:
    return timezone.localtime(when) if timezone.is_aware(when) else when


def _safe_url(url: str) -> bool:
    """Relative URLs and http(s) only: a "javascript:" URL in the data must not become a link."""
    if not url:
        return False
    head = url.strip().split("/", 1)[0].lower()
    return ":" not in head or head.startswith(("http:", "https:"))
