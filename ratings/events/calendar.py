"""Calendar feeds (RFC 5545, written with the ``icalendar`` library): the club's nights, a
league's, a member's own (the nights they answered "coming"), and one night's file for "Add to
calendar"; and the member's private calendar address that serves them.

What a calendar needs to keep an event right, and where it comes from:

- a **UID** that never changes (:func:`event_uid`: the event's id and the moment it was made,
  neither of which ever changes), so a calendar updates its copy instead of adding another;
- a **SEQUENCE** raised whenever the time, place or status changes (``Event.sequence``, raised
  by :func:`ratings.events.planning.raise_sequence`), so a calendar takes the new version;
- **STATUS:CANCELLED** for a cancelled night, kept in the feed so calendars strike it out;
- times in the club's time zone (``settings.TIME_ZONE``) with its VTIMEZONE, so "20:00 on
  Friday" stays 20:00 across a change of summer time.

A feed lists the nights of the last year and every one planned ahead (:data:`FEED_PAST`). A
feed costs one query (two at a private address: its key), whatever the number of nights.

A private address holds a random key (32 bytes) whose SHA-256 alone is stored, as an API token's
is: the address is shown once, when the member makes it, and revoking it deletes the row.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import icalendar
from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from ratings.events.models import Answer, CalendarFeed, Event
from ratings.models import League

# How far back a feed goes; every night planned ahead is in it, however far ahead.
FEED_PAST = timedelta(days=365)
# A night has no end time: calendars show it as this long.
NIGHT_LENGTH = timedelta(hours=4)
PRODUCT_ID = "-//Card club ratings//Club nights//EN"
CONTENT_TYPE = "text/calendar; charset=utf-8"


def event_uid(event: Event) -> str:
    """The event's UID in every feed and file, for good: its id and the moment it was made."""
    made = event.created_at.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    return f"event-{event.pk}-{made}@club-nights"


def feed_events(*, league: League | None = None, now: datetime | None = None) -> QuerySet:
    """The nights a feed lists: those of the last year and every one ahead, the club's or one
    league's, with their league (one query)."""
    now = now or timezone.now()
    events = Event.objects.filter(starts_at__gte=now - FEED_PAST).select_related("league")
    if league is not None:
        events = events.filter(league=league)
    return events.order_by("starts_at", "pk")


def member_events(user, *, now: datetime | None = None) -> QuerySet:
    """The nights of the last year and ahead that the member's player answered "coming" to."""
    return feed_events(now=now).filter(answers__player__user=user, answers__answer=Answer.COMING)


def calendar_file(
    events: Iterable[Event],
    *,
    name: str,
    absolute: Callable[[str], str],
    now: datetime | None = None,
) -> bytes:
    """The iCalendar file of ``events``: a VEVENT each, in the club's time zone; ``absolute``
    turns a path into the address the calendar links to."""
    now = now or timezone.now()
    zone = ZoneInfo(settings.TIME_ZONE)
    calendar = icalendar.Calendar()
    calendar.add("prodid", PRODUCT_ID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", name)
    calendar.add("x-wr-timezone", settings.TIME_ZONE)
    for event in events:
        calendar.add_component(_vevent(event, zone=zone, absolute=absolute, now=now))
    calendar.add_missing_timezones()
    return calendar.to_ical()


def _vevent(event: Event, *, zone: ZoneInfo, absolute, now: datetime) -> icalendar.Event:
    url = absolute(event.get_absolute_url())
    starts = event.starts_at.astimezone(zone)
    vevent = icalendar.Event()
    vevent.add("uid", event_uid(event))
    vevent.add("dtstamp", now.astimezone(UTC))
    vevent.add("dtstart", starts)
    vevent.add("dtend", starts + NIGHT_LENGTH)
    vevent.add("sequence", event.sequence)
    vevent.add("summary", event.name)
    vevent.add("description", f"{event.league.name}\n{url}")
    vevent.add("url", url)
    if event.place:
        vevent.add("location", event.place)
    vevent.add("status", "CANCELLED" if event.is_cancelled else "CONFIRMED")
    return vevent


# A member's private address ---------------------------------------------------------------------


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def feed_make(user) -> str:
    """A new private address key for ``user``, replacing any before it (which stops working):
    the key itself, which is not kept and must be shown now."""
    key = secrets.token_urlsafe(32)
    CalendarFeed.objects.update_or_create(user=user, defaults={"key_hash": _digest(key)})
    return key


def feed_revoke(user) -> bool:
    """Revoke the member's private address; whether they had one."""
    deleted, _by_model = CalendarFeed.objects.filter(user=user).delete()
    return bool(deleted)


def feed_owner(key: str):
    """The active member whose private address has this key, or None: one query."""
    if not key or len(key) > 100:
        return None
    feed = (
        CalendarFeed.objects.select_related("user")
        .filter(key_hash=_digest(key), user__is_active=True)
        .first()
    )
    return feed.user if feed is not None else None
