"""How the club writes numbers and dates: one rounding, one minus sign, for every page.

Tables, the chart, the entry preview, the game page and the exports all format through here (the
templates through the filters in ``ratings/templatetags/club_format.py``), so a rating change
reads the same wherever it is shown. The rules, decided once:

- **One rounding: half away from zero**, as people round on paper: a change of +2.5 reads "+3"
  and −2.5 reads "−3". Not Python's ``round()`` (half to even: 2.5 → 2) nor floating-point
  formatting (2.675, stored as 2.67499…, → "2.67"): the number rounded is the decimal the float
  prints as, so 2.675 → "2.68".
- **The minus sign is U+2212** ("−27") in every text a person reads; a hyphen is not a minus sign.
  Machine output (CSV, JSON, rayter files) keeps plain numbers.
- **Nothing that rounds to zero has a sign**: it reads "0", never "+0" or "−0", and a change of 0
  gets no colour. An Elo change of +0.18 reads "0" on every page, the chart's tooltip included.
- **A change always shows its sign** otherwise ("+3", "−3"), so colour is never the only cue; the
  colour (class ``better`` or ``worse``) follows the league's direction: in prefko a lower rating
  is better, so −27 there is "better".
- Ratings are whole numbers on every page, or the decimals their system asks for
  (``RatingSystem.rating_places``: one for OpenSkill, whose ordinals lie around 0 to 30);
  scores and other numbers have up to two decimals and computed terms up to the places asked
  for, trailing zeros dropped, the active language's decimal separator ("27,4" in Serbian and
  Russian) and no thousands separator.
- A score reads as its rating system says (``RatingSystem.score_text``, which calls
  :func:`number_text`): Win, Draw or Loss in head-to-head leagues.
- Dates and times in the club's time zone, in the active language's short formats.
"""

from __future__ import annotations

import math
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Context, Decimal
from functools import lru_cache

from django.utils import timezone
from django.utils.dateformat import DateFormat, re_escaped, re_formatchars
from django.utils.formats import date_format, get_format
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language, ngettext

MINUS = "\u2212"  # a real minus sign: "−27" reads better than "-27" and is not a hyphen
NONE = "—"  # a number that is not there (a player's first game has no last change)
# A spreadsheet runs a cell starting with one of these as a formula (CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# Enough digits for any float (up to about 1.8e308) and its decimals: a huge score in a scored
# league is shown, not refused by the decimal module.
_DECIMALS = Context(prec=400, rounding=ROUND_HALF_UP)


def rounded(value: float, places: int = 0) -> Decimal:
    """``value`` rounded half away from zero to ``places`` decimals: the club's one rounding.

    It rounds the decimal the float prints as (``repr``), which is the number people see:
    2.675 (stored as 2.67499…) is 2.68 with two places, as on paper.
    """
    return Decimal(repr(float(value))).quantize(Decimal(1).scaleb(-places), context=_DECIMALS)


def whole(value: float) -> int:
    """``value`` rounded to a whole number, half away from zero (2.5 → 3, −2.5 → −3).

    The same as ``int(rounded(value))`` (a float that prints as x.5 is exactly x.5), without the
    decimal module: a page shows hundreds of whole numbers. ``abs(value) + 0.5`` would not do:
    it rounds 0.49999999999999994 up.
    """
    size = abs(value)
    result = math.floor(size)
    if size - result >= 0.5:  # exact: taking the whole part off a float loses nothing
        result += 1
    return -result if value < 0 else result


def _written(number: int | Decimal, *, plus: bool = False, trim: bool = True) -> str:
    """An already rounded number as people read it: real minus, the language's decimal
    separator, no sign on zero, "+" on positives when ``plus``; ``trim`` drops trailing zeros."""
    text = f"{abs(number):f}" if isinstance(number, Decimal) else str(abs(number))
    if trim and "." in text:
        text = text.rstrip("0").rstrip(".")
    if "." in text:
        text = text.replace(".", get_format("DECIMAL_SEPARATOR"))
    if number == 0:
        return text
    if number < 0:
        return MINUS + text
    return "+" + text if plus else text


def decimal_text(value: float, places: int = 3, *, plus: bool = False, trim: bool = True) -> str:
    """A number with up to ``places`` decimals ("−27,4" in Russian); ``plus`` signs positives,
    ``trim=False`` keeps trailing zeros (an axis whose labels share their decimals)."""
    # Whole numbers (most scores) skip the decimal module: they have nothing to round.
    whole_number = not places or (trim and float(value).is_integer())
    number = whole(value) if whole_number else rounded(value, places)
    return _written(number, plus=plus, trim=trim)


def number_text(value: float) -> str:
    """A number as shown, a game score say: whole numbers without decimals, others with up to
    two ("12.5", "−500")."""
    return decimal_text(value, 2)


def points_text(value: float) -> str:
    """A club night's points for a table: "1 point", "3 points", "1.5 points" (a fraction takes
    the form a 2 takes: "1,5 балла", "1,5 poena")."""
    count = int(value) if float(value).is_integer() else 2
    return ngettext("%(points)s point", "%(points)s points", count) % {"points": number_text(value)}


def percent_text(value: float) -> str:
    """A chance (0 to 1) as a whole percentage: 0.4149 reads "41%"."""
    return f"{_written(rounded(value * 100))}%"


def _rating_number(value: float, places: int) -> int | Decimal:
    """A rating or change rounded to its system's decimals (``RatingSystem.rating_places``)."""
    return whole(value) if not places else rounded(value, places)


def rating_text(value: float | None, places: int = 0) -> str:
    """A rating as shown everywhere: a whole number (Elo and Rayter keep decimals for sorting),
    or ``places`` fixed decimals when its system asks for them ("12.0", "7.4")."""
    if value is None:
        return NONE
    return _written(_rating_number(value, places), trim=False)


def change_text(value: float | None, places: int = 0) -> str:
    """A rating change as text: "+3", "−3", or "0" for anything that rounds to zero (with
    ``places`` fixed decimals: "+0.4", "0.0")."""
    if value is None:
        return NONE
    return _written(_rating_number(value, places), plus=True, trim=False)


def change_html(
    value: float | None, *, lower_is_better: bool = False, places: int = 0
) -> SafeString | str:
    """:func:`change_text` coloured by whether it is better or worse for the player.

    The sign is always printed, so colour is never the only cue; in prefko a fall is the good
    direction (a lower rating is better), so −27 there is "better". A change that rounds to zero
    is neither.
    """
    if value is None:
        return NONE
    number = _rating_number(value, places)
    text = _written(number, plus=True, trim=False)
    if number == 0:
        return text
    css = "better" if (number < 0) == lower_is_better else "worse"
    # A class of ours and a number's digits, sign and separator: nothing to escape (a table
    # writes hundreds of these, and format_html escapes each of its arguments).
    return SafeString(f'<span class="{css}">{text}</span>')


def when_text(value: datetime | None, *, time: bool = True) -> str:
    """A moment in the club's time zone in the active language's short format."""
    if value is None:
        return NONE
    return date_format(
        timezone.localtime(value), "SHORT_DATETIME_FORMAT" if time else "SHORT_DATE_FORMAT"
    )


def when_html(value: datetime | None, *, time: bool = True) -> SafeString | str:
    """when_text for a table cell: the date and the time each stay whole on a narrow screen
    (a phone would otherwise break "2026-11-15" at its hyphens)."""
    if value is None:
        return NONE
    local = timezone.localtime(value)
    day = _day_html(local.date(), get_language())
    if not time:
        return day
    (hour,) = date_texts(local, "TIME_FORMAT")
    return SafeString(f'{day} <span class="nowrap">{escape(hour)}</span>')


def date_texts(value: datetime, *format_types: str) -> list[str]:
    """``date_format(value, format_type)`` for each of ``format_types`` ("DATE_FORMAT",
    "TIME_FORMAT"…): the same texts, written by Django's own format methods a piece at a time,
    for a fraction of the time. A page writes hundreds of dates (a table's rows, a chart's
    tooltips), and Django's ``format`` splits its format string with a regular expression
    behind a lazy proxy each time; here each format's pieces are found once, and one
    formatter serves all the formats of one moment."""
    if type(value) is not datetime:  # a date: Django refuses a time's pieces
        return [date_format(value, format_type) for format_type in format_types]
    formatter = DateFormat(value)
    return [
        "".join(
            [
                str(getattr(formatter, piece)()) if specifier else piece
                for specifier, piece in _format_pieces(get_format(format_type))
            ]
        )
        for format_type in format_types
    ]


@lru_cache(maxsize=64)
def _format_pieces(format_string: str) -> tuple[tuple[bool, str], ...]:
    """A date format's pieces as Django's ``Formatter.format`` reads them: each a format
    character (True) or text between them with its backslash escapes undone (False)."""
    pieces = re_formatchars.split(format_string)
    return tuple(
        (True, piece) if i % 2 else (False, re_escaped.sub(r"\1", piece))
        for i, piece in enumerate(pieces)
        if i % 2 or piece
    )


def date_text(day: date, language: str | None = None) -> str:
    """A day in ``language``'s long format, the active language's by default: "March 12, 2026",
    "12 марта 2026 г."."""
    return _date_text(day, language or get_language())


@lru_cache(maxsize=1024)
def _date_text(day: date, language: str | None) -> str:
    """:func:`date_text` in ``language`` (the active one: the key of the cache): a chart's
    tooltips are a few hundred games on fewer days, each day's text written once. Written from
    the day's midnight by :func:`date_texts`: a date format has no time in it."""
    (text,) = date_texts(datetime(day.year, day.month, day.day), "DATE_FORMAT")
    return text


@lru_cache(maxsize=1024)
def _day_html(day: date, language: str | None) -> SafeString:
    """A day in a table cell, in ``language`` (the active one: the key of the cache): the rows of
    a page are a few days' games, and Django's date formatting parses its format each time."""
    return format_html('<span class="nowrap">{}</span>', date_format(day, "SHORT_DATE_FORMAT"))


def machine_number(value: float | None, places: int) -> float | int | None:
    """A number for an export (CSV, JSON) rounded by the same rule as the pages: a plain int or
    float, never text, so other tools read it as before."""
    if value is None:
        return None
    return float(rounded(value, places)) if places else whole(value)


def spreadsheet_text(text: str) -> str:
    """Text a spreadsheet shows as text: a leading apostrophe stops a formula from running."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text
