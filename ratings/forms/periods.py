"""The leaderboard's period: a season (``?season=2026``, a calendar year) or dates
(``?from=2026-03-01&to=2026-06-30``, either may be left out), read the same by the page and its
CSV/JSON export. A season is a view of the league's one history: ratings are never reset.

Periods are in the club's time zone: a season runs from 1 January 00:00 to 1 January 00:00 of the
next year, dates from the first day's start to the end of the last day. The dates in the address
are ISO dates whatever the page's language, so a link reads the same for everyone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from django import forms
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext_lazy as _

from ratings.selectors import SeasonOrder

ISO_DATE = ["%Y-%m-%d"]


@dataclass(frozen=True)
class Period:
    """A stretch of the league's history: from ``first_day`` to ``last_day`` (either open)."""

    season: int | None
    first_day: date | None
    last_day: date | None
    by: str

    @property
    def start(self) -> datetime | None:
        return _midnight(self.first_day) if self.first_day else None

    @property
    def end(self) -> datetime | None:
        """The moment after the period: the day after its last day, at midnight."""
        return _midnight(self.last_day + timedelta(days=1)) if self.last_day else None

    def query(self) -> dict[str, str]:
        """The period as the address gives it, for links that keep it."""
        query = {"season": str(self.season)} if self.season else {}
        if not self.season and self.first_day:
            query["from"] = self.first_day.isoformat()
        if not self.season and self.last_day:
            query["to"] = self.last_day.isoformat()
        if self.by != SeasonOrder.RATING:
            query["by"] = self.by
        return query

    @property
    def slug(self) -> str:
        """The period in a file name: "2026", "from-2026-03-01-to-2026-06-30", "to-2026-06-30"."""
        if self.season:
            return str(self.season)
        parts = []
        if self.first_day:
            parts += ["from", self.first_day.isoformat()]
        if self.last_day:
            parts += ["to", self.last_day.isoformat()]
        return "-".join(parts)


def _midnight(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


class PeriodForm(forms.Form):
    """``season``, or ``from`` and ``to``; and what the table ranks by (``by``)."""

    season = forms.IntegerField(label=_("Season"), min_value=1900, max_value=9998, required=False)
    by = forms.ChoiceField(label=_("Rank by"), choices=SeasonOrder.choices, required=False)

    def __init__(self, data):
        super().__init__(data)
        # "from" is a Python keyword: the two date fields are added here, not as attributes.
        self.fields["from"] = forms.DateField(
            label=_("From"), required=False, input_formats=ISO_DATE
        )
        self.fields["to"] = forms.DateField(label=_("To"), required=False, input_formats=ISO_DATE)
        self.order_fields(["season", "from", "to", "by"])

    def clean(self):
        cleaned = super().clean()
        first, last = cleaned.get("from"), cleaned.get("to")
        if cleaned.get("season") is not None and (first or last):
            raise forms.ValidationError(_("Choose a season or dates, not both."))
        if first and last and first > last:
            raise forms.ValidationError(_("The period ends before it starts."))
        return cleaned

    def period(self) -> Period | None:
        """The period asked for, or None for the whole history (call after is_valid())."""
        season = self.cleaned_data.get("season")
        by = self.cleaned_data.get("by") or SeasonOrder.RATING
        if season is not None:
            return Period(season, date(season, 1, 1), date(season, 12, 31), by)
        first, last = self.cleaned_data.get("from"), self.cleaned_data.get("to")
        if first or last:
            return Period(None, first, last, by)
        return None

    def error_text(self) -> str:
        """Every error in one line, for an export's 400."""
        return " ".join(str(error) for errors in self.errors.values() for error in errors)


def period_filter(request) -> tuple[PeriodForm, Period | None]:
    """The request's period form and the period it gives (None: everything, or invalid)."""
    form = PeriodForm(request.GET)
    return form, (form.period() if form.is_valid() else None)


@dataclass(frozen=True)
class Link:
    """A tab or a choice on the leaderboard: its text, its query string, whether it is shown."""

    label: str
    query: str
    current: bool


def _kept(request, *names: str) -> dict[str, str]:
    """The request's own values of these parameters, for links that keep them."""
    return {name: request.GET[name] for name in names if request.GET.get(name)}


def season_tabs(request, years: list[int], period: Period | None) -> list[Link]:
    """ "All time" and one tab for each year with games; each keeps the minimum-games filter,
    and a season keeps what the table ranks by."""
    tabs = [Link(_("All time"), urlencode(_kept(request, "min_games", "inactive")), not period)]
    for year in years:
        query = {**_kept(request, "min_games", "by"), "season": year}
        tabs.append(Link(str(year), urlencode(query), bool(period and period.season == year)))
    return tabs


def rank_by_links(request, period: Period | None) -> list[Link]:
    """For a period: rank by rating or by rating change, the period and filter kept."""
    if period is None:
        return []
    links = []
    for order in SeasonOrder:
        query = {**_kept(request, "min_games"), **period.query(), "by": order.value}
        links.append(Link(order.label, urlencode(query), period.by == order))
    return links
