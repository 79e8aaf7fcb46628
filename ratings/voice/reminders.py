"""The day-before reminder: every day at 10:00 in the club's time zone the worker takes the
nights planned for tomorrow (:func:`ratings.events.planning.remind_tomorrow`), posts each to its
league's channels that post nights (through the outbox: retried, held while a channel is
paused) and emails the members who answered coming or maybe. Each post is keyed by the night
and its day, each email is remembered (:class:`~ratings.voice.models.NightReminder`): a second
run sends nothing new, and a night moved to another day is reminded again."""

from __future__ import annotations

import logging
from datetime import datetime, time, timedelta

from django.core.mail import EmailMessage
from django.db import transaction
from django.utils import timezone

from ratings.events import planning
from ratings.voice.digest import email_possible
from ratings.voice.models import NightReminder, PostKind
from ratings.voice.services import posts_write
from ratings.voice.texts import reminder_text

logger = logging.getLogger(__name__)

# When the reminders go out: every day at 10:00 in the club's time zone (TIME_ZONE).
REMIND_TIME = time(10, 0)


def next_run(now: datetime) -> datetime:
    """The first 10:00 of the club's time after ``now``."""
    zone = timezone.get_default_timezone()
    day = timezone.localtime(now, zone).date()
    candidate = datetime.combine(day, REMIND_TIME, tzinfo=zone)
    if candidate <= now:
        candidate = datetime.combine(day + timedelta(days=1), REMIND_TIME, tzinfo=zone)
    return candidate


def reminders_send(now: datetime | None = None) -> int:
    """Tomorrow's nights, to their leagues' night channels and by email to the members coming or
    maybe; how many emails went."""
    sent = 0
    can_email = email_possible()
    for reminder in planning.remind_tomorrow(now=now):
        event = reminder.event
        day = timezone.localtime(event.starts_at, timezone.get_default_timezone()).date()
        text = reminder_text(reminder)
        posts_write(
            league_id=event.league_id,
            kind=PostKind.NIGHTS,
            key=f"remind:{event.pk}:{day.isoformat()}",
            text=text,
        )
        if not can_email:
            continue
        for user in reminder.members:
            if user.email:
                sent += _member_send(event, user, day, text)
    return sent


def _member_send(event, user, day, text) -> int:
    """One member's email, once: remembered in the same transaction as it is sent, so a sent
    one is never sent twice and a failed one is not marked sent (a run again that day, by hand
    or by a second worker, tries it again)."""
    try:
        with transaction.atomic():
            _row, created = NightReminder.objects.get_or_create(event=event, user=user, day=day)
            if created:
                EmailMessage(subject=text.title, body=text.body, to=[user.email]).send()
    except Exception:  # one member's mail server refusing stops no one else's reminder
        logger.exception("The reminder of night %s to user %s was not sent", event.pk, user.pk)
        return 0
    return int(created)
