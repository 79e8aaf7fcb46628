"""The event pages' tables: display only, through :mod:`ratings.formatting` like every page."""

from __future__ import annotations

from collections.abc import Callable

import django_tables2 as tables
from django.utils.functional import cached_property
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from ratings.events.models import Event, Scoring
from ratings.formatting import change_html, number_text, when_html
from ratings.links import url_maker
from ratings.tables import NUMBER, ClubTable

OPTIONAL_NUMBER = {"td": {"class": "num optional"}, "th": {"class": "num optional"}}


class EventStandingsTable(ClubTable):
    """An event's standings (:class:`ratings.events.selectors.StandingRow`), best first.

    With the "sum of the scores" rule the points are the total, so that column is left out.
    """

    place = tables.Column(verbose_name=_("Place"), attrs=NUMBER)
    player = tables.Column(verbose_name=_("Player"))
    points = tables.Column(verbose_name=_("Points"), attrs=NUMBER)
    total = tables.Column(verbose_name=_("Score"), attrs=NUMBER)
    # Left out on a phone (events.css), so the rating change fits beside the names.
    games = tables.Column(verbose_name=_("Games"), attrs=OPTIONAL_NUMBER)
    rating_change = tables.Column(verbose_name=_("Change"), attrs=NUMBER)

    class Meta:
        attrs = {"class": "event-standings"}
        orderable = False
        empty_text = _("Nobody is present yet.")

    def __init__(self, rows, *, event: Event):
        super().__init__(rows, exclude=("points",) if event.scoring == Scoring.TOTAL else ())
        self.system = event.rating_system

    def render_place(self, value: int | None) -> int | str:
        return value or "—"

    def render_player(self, value) -> SafeString:
        return self.player_link(value)

    def render_points(self, value: float) -> str:
        return number_text(value)

    def render_total(self, value: float) -> str:
        return number_text(value)

    def render_rating_change(self, value: float, record) -> SafeString | str:
        if not record.games:
            return "—"
        return change_html(value, lower_is_better=self.system.lower_is_better)


class EventListTable(ClubTable):
    """A league's events (:func:`ratings.events.selectors.league_events`), newest first."""

    starts_at = tables.Column(verbose_name=_("Date"))
    name = tables.Column(verbose_name=_("Event"))
    player_count = tables.Column(verbose_name=_("Players"), attrs=NUMBER)
    round_count = tables.Column(verbose_name=_("Rounds"), attrs=NUMBER)
    status = tables.Column(verbose_name=_("Status"), accessor="closed_at", empty_values=())

    class Meta:
        attrs = {"class": "events"}
        orderable = False
        empty_text = _("No events yet.")

    @cached_property
    def event_url(self) -> Callable[[object], str]:
        return url_maker("ratings:event")

    def render_starts_at(self, value) -> SafeString | str:
        return when_html(value, time=False)

    def render_name(self, value: str, record) -> SafeString:
        return format_html('<a href="{}">{}</a>', self.event_url(record.pk), value)

    def render_round_count(self, value: int, record) -> str:
        if record.rounds_total:
            return f"{value} / {record.rounds_total}"
        return str(value)

    def render_status(self, value, record) -> str:
        if record.is_cancelled:
            return _("cancelled")
        if record.is_planned:
            return _("planned")
        # Beside "cancelled" and "planned", which agree with a night (neuter veče, masculine
        # вечер); a paper's "finished" agrees with the paper.
        return pgettext_lazy("event", "finished") if value else _("in progress")
