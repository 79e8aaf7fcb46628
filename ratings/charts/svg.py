"""The chart's drawing: a phone's and a wide screen's SVG of the series
(:mod:`ratings.charts` says how and why)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ratings.charts import axes, sampling
from ratings.charts.axes import CHAR, FONT
from ratings.charts.series import ChartSeries, day_text, moment, point_columns, seconds
from ratings.formatting import decimal_text, rating_text

MAX_MARKERS = 200

# Series styles in static/club.css (.s0 to .s7); a ninth series repeats the first one's.
SERIES_STYLES = 8

# The two layouts the page holds, in viewBox units; club.css shows the one that fits the screen.
# Each is drawn for about its own size in CSS pixels, so its 13-unit text reads as 12 to 18 px.
PHONE = (360, 270)
WIDE = (720, 280)

# Layout in viewBox units.
_PAD_X = 10
_LEGEND_ROW = 22
_BOTTOM = 30
_RADIUS = 4
# Markers closer than this across the chart could not be told apart, or tapped apart.
_MARKER_GAP = 3 * _RADIUS
# Points of a downsampled line per unit of the plot's width: every other unit is plenty for a
# line 2.5 units thick, and a noisy history does not fill the plot as a solid band.
_LINE_DENSITY = 0.5


def rating_history_chart(
    series: Sequence[ChartSeries], *, lower_is_better: bool = False
) -> SafeString:
    """The chart for a page: a phone's layout and a wide screen's, club.css showing the one that
    fits (an SVG scales as a whole, so one drawing cannot be both full-width on a phone and
    not too tall on a desktop), and a note when the drawing leaves games out."""
    drawn = [s for s in series if s.points]
    if not drawn:
        return _empty_svg()
    # What the two drawings share is worked out once: a history of thousands of games has
    # columns of thousands to scan, and most markers are the same games in both.
    data = _ChartData(drawn, lower_is_better)
    phone = _draw(data, width=PHONE[0], height=PHONE[1], layout="phone")
    wide = _draw(data, width=WIDE[0], height=WIDE[1], layout="wide")
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
    data = _ChartData(drawn, lower_is_better)
    return _draw(data, width=width, height=height, max_markers=max_markers, layout=layout)


class _ChartData:
    """What every layout of a chart draws from, worked out once: each series' columns (times
    and ratings) and its extreme points, the span of times and ratings, the chart's name and
    description, and the markup around each marker (its link and tooltip)."""

    def __init__(self, drawn: Sequence[ChartSeries], lower_is_better: bool) -> None:
        self.drawn, self.lower_is_better = drawn, lower_is_better
        # Scales. Timestamps work for aware and naive datetimes alike.
        self.columns = [point_columns(s.points) for s in drawn]
        self.extremes = [sampling.extremes(ratings) for _ts, ratings in self.columns]
        fixes = [p for s in drawn for p in s.corrections]
        times = [ts for ts, _ratings in self.columns]
        t_lo = min([t[0] for t in times] + [seconds(p.when) for p in fixes])
        t_hi = max([t[-1] for t in times] + [seconds(p.when) for p in fixes])
        if t_hi - t_lo < 2 * 86400:  # a single day's games: show a few days around them
            middle = (t_lo + t_hi) / 2
            t_lo, t_hi = middle - 86400 * 1.5, middle + 86400 * 1.5
        self.t_lo, self.t_hi = t_lo, t_hi
        self.lowest = min(
            [min(ratings) for _ts, ratings in self.columns] + [p.rating for p in fixes]
        )
        self.highest = max(
            [max(ratings) for _ts, ratings in self.columns] + [p.rating for p in fixes]
        )
        self.name, self.description = _summary(drawn)
        if lower_is_better:
            # A date may end in its own full stop ("2026 г.", "2026."): one stop, never two.
            stop = "" if self.description.endswith(".") else "."
            self.description += (
                stop + " " + _("Lower ratings are better; the axis is reversed so up is better.")
            )
        self._markers: list[dict[int, tuple[str, str]]] = [{} for _s in drawn]

    def marker(self, n: int, i: int) -> tuple[str, str]:
        """The markup before and after the circle of point ``i`` of series ``n``: its link and
        tooltip, the same in every layout."""
        around = self._markers[n].get(i)
        if around is None:
            p = self.drawn[n].points[i]
            title = f"<title>{escape(p.title)}</title>" if p.title else ""
            if _safe_url(p.url):
                around = (f'<a href="{escape(p.url)}" tabindex="-1">{title}', "</a>")
            elif title:
                around = (f"<g>{title}", "</g>")
            else:
                around = ("", "")
            self._markers[n][i] = around
        return around


def _draw(
    data: _ChartData, *, width: int, height: int, max_markers: int = MAX_MARKERS, layout: str
) -> SafeString:
    """One layout of the chart, ``width`` × ``height`` units (:func:`rating_history_svg`)."""
    drawn, lower_is_better = data.drawn, data.lower_is_better
    t_lo, t_hi = data.t_lo, data.t_hi

    # Legend rows at the top.
    columns = 1 if len(drawn) == 1 or width < 480 else 2
    column_width = (width - 2 * _PAD_X) / columns
    legend_rows = math.ceil(len(drawn) / columns)
    top = 8 + legend_rows * _LEGEND_ROW + FONT
    bottom = height - _BOTTOM
    if bottom - top < 80:  # many leagues in a short chart: grow rather than squash the plot
        bottom = top + 80
        height = bottom + _BOTTOM

    y_ticks = axes.nice_ticks(data.lowest, data.highest, target=max(3, int((bottom - top) / 45)))
    y_lo, y_hi = y_ticks[0], y_ticks[-1]
    decimals = axes.decimals(y_ticks[1] - y_ticks[0])
    y_texts = [decimal_text(value, decimals, trim=False) for value in y_ticks]

    # The plot starts right of the widest rating label.
    left = _PAD_X + max(len(text) for text in y_texts) * CHAR + 8
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
    name, description = data.name, data.description
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
    sample = moment(drawn[0].points[0].when)
    for x, label in axes.date_labels(t_lo, t_hi, sample, x_of, width, right - left):
        out.append(
            f'<line class="axis" x1="{x:.1f}" x2="{x:.1f}" y1="{bottom}" y2="{bottom + 5}"/>'
            f'<text x="{x:.1f}" y="{height - 9}" text-anchor="middle">{escape(label)}</text>'
        )

    # Legend.
    max_chars = max(4, int((column_width - 44) / CHAR))
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
    for n, (s, (ts, ratings), extremes) in enumerate(
        zip(drawn, data.columns, data.extremes, strict=True)
    ):
        # x_of and y_of, written out: a call a point costs more than the arithmetic.
        xs = [left + (t - t_lo) * x_scale for t in ts]
        if lower_is_better:
            ys = [top + (r - y_lo) * y_scale for r in ratings]
        else:
            ys = [bottom - (r - y_lo) * y_scale for r in ratings]
        keep = int((right - left) * _LINE_DENSITY)
        line = sorted(set(sampling.largest_triangle_three_buckets(xs, ys, keep)) | set(extremes))
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
            before, after = data.marker(n, i)
            out.append(
                f'{before}<circle class="dot" cx="{xs[i]:.1f}" cy="{ys[i]:.1f}" r="{_RADIUS}"/>'
                f"{after}"
            )
        for p in s.corrections:
            x, y, r = x_of(seconds(p.when)), y_of(p.rating), _RADIUS + 1
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
                "start": day_text(first.when),
                "end": day_text(last.when),
            }
        )
    name = _("Rating history: %(series)s") % {"series": "; ".join(names)}
    return name, "; ".join(details)


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


def _safe_url(url: str) -> bool:
    """Relative URLs and http(s) only: a "javascript:" URL in the data must not become a link."""
    if not url:
        return False
    head = url.strip().split("/", 1)[0].lower()
    return ":" not in head or head.startswith(("http:", "https:"))
