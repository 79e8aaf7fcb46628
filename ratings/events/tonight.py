"""Tonight on the home page: the club nights and tournaments in progress, each with its latest
round's progress, and the logged-in member's own table waiting for its paper.

A night is in progress once started (a night planned ahead is not until its organiser starts
it: :mod:`ratings.events.planning`), while it is not closed and started within the last day (or
starts within the next hours). The home page is drawn once per data version (ratings/page_cache.py),
so a night left open is shown until the next change to the club's data; closing it removes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from ratings.events.models import Event, EventRound, EventStatus, EventTable, TableSeat

STARTED_WITHIN = timedelta(days=1)
STARTS_WITHIN = timedelta(hours=12)


@dataclass(frozen=True)
class Tonight:
    """A night in progress: its latest round (None before the first draw), how many of that
    round's tables have their paper in, and the member's own table in it if it waits."""

    event: Event
    round_number: int | None
    tables_in: int
    tables_total: int
    my_table: EventTable | None = None


def _count(tables) -> Coalesce:
    counted = tables.values("round__event").annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def nights_in_progress(now: datetime | None = None) -> list[Event]:
    """The events in progress, soonest first, with ``round_number``, ``tables_total`` and
    ``tables_in`` (of the latest round) and their league: one query."""
    now = now or timezone.now()
    latest = EventRound.objects.filter(event=OuterRef("pk")).order_by("-number").values("number")
    tables = EventTable.objects.filter(
        round__event=OuterRef("pk"), round__number=OuterRef("round_number")
    )
    return list(
        Event.objects.filter(
            status=EventStatus.STARTED,
            closed_at__isnull=True,
            starts_at__gte=now - STARTED_WITHIN,
            starts_at__lte=now + STARTS_WITHIN,
        )
        .select_related("league")
        .annotate(round_number=Subquery(latest[:1]))
        .annotate(
            tables_total=_count(tables),
            tables_in=_count(tables.filter(game__isnull=False)),
        )
        .order_by("starts_at", "pk")
    )


def tonight(player=None, now: datetime | None = None) -> list[Tonight]:
    """The nights in progress, and for ``player`` (the member's own) their table of the latest
    round whose paper is still to come: one query, and one more for a player when a night is
    on."""
    events = nights_in_progress(now)
    mine: dict[int, EventTable] = {}
    if events and player is not None:
        seats = TableSeat.objects.filter(
            player=player,
            table__round__event__in=events,
            table__game__isnull=True,
            table__not_played=False,
        ).select_related("table__round")
        latest = {event.pk: event.round_number for event in events}
        for seat in seats:
            table = seat.table
            if latest.get(table.round.event_id) == table.round.number:
                mine[table.round.event_id] = table
    return [
        Tonight(
            event=event,
            round_number=event.round_number,
            tables_in=event.tables_in,
            tables_total=event.tables_total,
            my_table=mine.get(event.pk),
        )
        for event in events
    ]
