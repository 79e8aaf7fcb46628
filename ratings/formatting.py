"""How the club writes numbers and dates: one rounding, one minus sign, for every page.

Tables, the chart, the entry preview, the game page and the exports all format through here (the
templates through the filters in ``ratings/templatetags/club_format.py``), so a rating change
reads the same wherever it is shown.
"""

from __future__ import annotations

import math
from datetime import datetime

from django.utils import timezone
from django.utils.formats import date_format, get_format
from django.utils.html import format_html
from django.utils.safestring import SafeString

MINUS = "\u2212"  # a real minus sign: "−27" reads better than "-27" and is not a hyphen
# A spreadsheet runs a cell starting with one of these as a formula (CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def whole(value: float) -> int:
    """Round half away from zero, as people do (Python's round() goes to the even number)."""
    return int(math.copysign(math.floor(abs(value) + 0.5), value))


def _localised(text: str) -> str:
    """A number written with "." and "-" as the active language writes it: "−27,4" in Russian."""
    return text.replace(".", get_format("DECIMAL_SEPARATOR")).replace("-", MINUS)


def number_text(value: float) -> str:
    """A number as shown: whole numbers without decimals, others with up to two, real minus."""
    text = str(int(value)) if value == int(value) else f"{value:.2f}".rstrip("0").rstrip(".")
    return _localised(text)


def decimal_text(value: float, places: int = 3, *, plus: bool = False) -> str:
    """A computed term: up to ``places`` decimals, trailing zeros dropped, real minus sign."""
    text = f"{value:+.{places}f}" if plus else f"{value:.{places}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return _localised(text)


def rating_text(value: float) -> str:
    """A rating as shown everywhere: no decimals (Elo and Rayter keep theirs for sorting)."""
    return str(whole(value)).replace("-", MINUS)


def change_html(value: float | None, *, lower_is_better: bool = False) -> SafeString | str:
    """A rating change with its sign, coloured by whether it is better or worse for the player.

    The sign is always printed, so colour is never the only cue; in prefko a fall is the good
    direction (a lower rating is better), so −27 there is "better".
    """
    if value is None:
        return "—"
    rounded = whole(value)
    if rounded == 0:
        return "0"
    css = "better" if (rounded < 0) == lower_is_better else "worse"
    if rounded > 0:
        return format_html('<span class="{}">+{}</span>', css, rounded)
    return format_html('<span class="{}">{}{}</span>', css, MINUS, -rounded)


def when_text(value: datetime | None, *, time: bool = True) -> str:
    """A moment in the club's time zone in the active language's short format."""
    if value is None:
        return "—"
    return date_format(
        timezone.localtime(value), "SHORT_DATETIME_FORMAT" if time else "SHORT_DATE_FORMAT"
    )


def when_html(value: datetime | None, *, time: bool = True) -> SafeString | str:
    """when_text for a table cell: the date and the time each stay whole on a narrow screen
    (a phone would otherwise break "2026-11-15" at its hyphens)."""
    if value is None:
        return "—"
    local = timezone.localtime(value)
    day = format_html('<span class="nowrap">{}</span>', date_format(local, "SHORT_DATE_FORMAT"))
    if not time:
        return day
    return format_html('{} <span class="nowrap">{}</span>', day, date_format(local, "TIME_FORMAT"))


def spreadsheet_text(text: str) -> str:
    """Text a spreadsheet shows as text: a leading apostrophe stops a formula from running."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text
