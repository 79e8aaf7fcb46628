"""Template filters for the numbers and dates people read, all through :mod:`ratings.formatting`.

Templates use these instead of ``floatformat`` or ``date``, so a page written as a template reads
the same as one built in Python (the tables, the chart)::

    {% load club_format %}
    {{ standing.rating|rating }}        1173
    {{ row.change|change:league }}      <span class="better">−27</span>: coloured by the league's
                                        direction (a league or its rating system)
    {{ row.change|signed }}             −27: the same text, no colour
    {{ row.score|score:league }}        −500, or Win / Draw / Loss in a head-to-head league
    {{ row.chance|percent }}            41%: a chance from 0 to 1, whole percent
    {{ value|number }}                  up to two decimals ({{ value|number:4 }}: up to four)
    {{ seat.points|points }}            1 point, 3 points, 1.5 points
    {{ game.played_at|when }}           the short date and time ({{ …|when:"date" }}: the date)

Like ``floatformat``, a filter given something that is not a number writes an empty string; a
missing number (None) reads "—".
"""

from __future__ import annotations

import math

from django import template

from ratings import formatting
from ratings.systems import RatingSystem

register = template.Library()


def _system(league_or_system) -> RatingSystem | None:
    """The rating system of a league, or the system itself."""
    return getattr(league_or_system, "rating_system", league_or_system)


def _number(value) -> float | None:
    """The value as a float; None for a value that is not a finite number."""
    if isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _written(value, text) -> str:
    """``value`` written by ``text`` (a function of :mod:`ratings.formatting`): "—" for None,
    "" for anything that is not a number."""
    if value is None:
        return formatting.NONE
    parsed = _number(value)
    return "" if parsed is None else text(parsed)


@register.filter
def rating(value) -> str:
    """A rating, whole: ``{{ standing.rating|rating }}``."""
    return _written(value, formatting.rating_text)


@register.filter
def change(value, league_or_system=None):
    """A rating change with its sign, coloured better or worse in the league's direction."""
    if value is None:
        return formatting.NONE
    parsed = _number(value)
    if parsed is None:
        return ""
    system = _system(league_or_system)
    lower_is_better = bool(system and system.lower_is_better)
    return formatting.change_html(parsed, lower_is_better=lower_is_better)


@register.filter
def signed(value) -> str:
    """A rating change as plain text: "+3", "−3" or "0"."""
    return _written(value, formatting.change_text)


@register.filter
def score(value, league_or_system=None) -> str:
    """A game score as the league's rating system writes it (Win / Draw / Loss head-to-head)."""
    if value is None:
        return formatting.NONE
    parsed = _number(value)
    if parsed is None:
        return ""
    system = _system(league_or_system)
    return system.score_text(parsed) if system else formatting.number_text(parsed)


@register.filter
def points(value) -> str:
    """A club night's points with their word, in the page's language."""
    return _written(value, formatting.points_text)


@register.filter
def percent(value) -> str:
    """A chance (0 to 1) as a whole percentage: ``{{ row.chance|percent }}`` 41%."""
    return _written(value, formatting.percent_text)


@register.filter
def number(value, places=2) -> str:
    """A number with up to ``places`` decimals and a real minus sign."""
    if value is None:
        return formatting.NONE
    parsed = _number(value)
    places = _number(places)
    if parsed is None or places is None:
        return ""
    return formatting.decimal_text(parsed, int(places))


@register.filter
def when(value, part: str = "") -> str:
    """A moment in the club's time zone: the short date and time, or the date (``when:"date"``)."""
    if value in (None, ""):
        return formatting.NONE if value is None else ""
    return formatting.when_text(value, time=part != "date")
