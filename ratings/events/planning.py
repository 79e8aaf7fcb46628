"""Nights planned ahead: an organiser plans a night (a date, a time, a place), members answer
coming, maybe or can't come, and the organiser starts it from the answers, or cancels it.

A planned night is an :class:`~ratings.events.models.Event` with the status ``planned`` and no
players present: starting it makes the players who answered "coming" (those the organiser keeps)
its players present, and from then on it is run as any event (:mod:`ratings.events.services`:
late arrivals, draws, closing). Each write here is keyword-only and atomic; planning, starting,
cancelling and moving a night leave an entry in the audit trail, an answer does not (a member's
tap, changed as often as they like, is no change to the club's record).

The calendar feeds (:mod:`ratings.events.calendar`) follow an event by its ``sequence``, raised
whenever its time, place or status changes (:func:`raise_sequence`). Planning, cancelling and
moving a night send their signals (:mod:`ratings.events.signals`) in the transaction, for the
club's chat channels. The day-before reminder is :func:`remind_tomorrow`: what should be sent,
for the background worker to send (ratings/voice/reminders.py).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings import engine
from ratings.events import services, signals
from ratings.events.answers import answers_of
from ratings.events.models import (
    Answer,
    DrawMethod,
    Event,
    EventAnswer,
    EventPlayer,
    EventStatus,
    Scoring,
)
from ratings.models import AuditAction, League, Player
from ratings.versioning import lock_rows

# What a calendar shows of an event: a change to any of these raises its SEQUENCE.
CALENDAR_FIELDS = ("starts_at", "place", "status")


def raise_sequence(event: Event, changed: Iterable[str]) -> None:
    """Raise ``event.sequence`` (not saved) if a field a calendar shows is among ``changed``:
    the one rule every path that changes an event follows (these services, the admin)."""
    if set(changed) & set(CALENDAR_FIELDS):
        event.sequence += 1


def night_plan(
    *,
    league: League,
    name: str,
    starts_at: datetime,
    place: str = "",
    organiser,
    rounds_total: int | None,
    table_size: int | None = None,
    draw_method: str = DrawMethod.EVERYONE_MEETS,
    scoring: str = Scoring.TOTAL,
    points_per_place: Sequence[int] = (),
    bula: int | None = None,
    seed: int | None = None,
) -> Event:
    """Plan a night: an event without players yet, which members answer. Its rules are checked
    as an event's are when it is created (:func:`ratings.events.services.event_create`)."""
    if bula is not None:
        services.check_event_bula(league, bula)
    if table_size is None:
        table_size = league.rating_system.event_table_sizes[0]
    services.check_event_start(starts_at)
    services.check_event_rules(
        league,
        table_size=table_size,
        scoring=scoring,
        points_per_place=points_per_place,
        rounds_total=rounds_total,
    )
    if scoring != Scoring.PLACES:
        points_per_place = ()
    with transaction.atomic():
        event = Event.objects.create(
            league=league,
            name=name,
            starts_at=starts_at,
            place=place,
            status=EventStatus.PLANNED,
            organiser=engine.audit_user(organiser),
            rounds_total=rounds_total,
            table_size=table_size,
            draw_method=DrawMethod(draw_method),
            scoring=scoring,
            points_per_place=list(points_per_place),
            seed=random.randrange(2**31) if seed is None else seed,
            bula=bula,
        )
        services.audit_event(
            AuditAction.EVENT_CREATE,
            event,
            organiser,
            after={
                "planned": True,
                "starts_at": event.starts_at.isoformat(),
                "place": place or None,
                "rounds": rounds_total,
                "table_size": table_size,
                "draw": str(DrawMethod(draw_method).label),
                "scoring": str(Scoring(scoring).label),
                "points_per_place": list(points_per_place) or None,
                "bula": bula,
            },
        )
        signals.night_planned.send(sender=Event, event=event)
    return event


def answer_refusal(event: Event) -> str | None:
    """Why the night takes no answer now, or None: only a planned night does."""
    if event.is_cancelled:
        return _("This night is cancelled.")
    if not event.is_planned:
        return _("This night has started: answers are closed.")
    return None


def night_answer(*, event: Event, player: Player, answer: str) -> EventAnswer:
    """A member's answer (their linked player's) to a planned night: coming, maybe or no; a
    second answer replaces the first. ValidationError for a night that takes no answer."""
    answer = Answer(answer)
    with transaction.atomic():
        event = _lock(event)
        refusal = answer_refusal(event)
        if refusal is not None:
            raise ValidationError(refusal)
        row, _created = EventAnswer.objects.update_or_create(
            event=event, player=player, defaults={"answer": answer}
        )
    return row


def night_start(*, event: Event, players: Sequence[Player], actor=None) -> Event:
    """Start a planned night: ``players`` (the organiser's choice among those who answered,
    all those coming unless they untick some) become its players present, and it is run as any
    event from here (late arrivals added on its page, then the first round drawn)."""
    with transaction.atomic():
        event = _lock(event)
        if event.is_cancelled:
            raise ValidationError(_("This night is cancelled."))
        if not event.is_planned:
            raise ValidationError(_("This night has already started."))
        present = list(dict.fromkeys(players))
        EventPlayer.objects.bulk_create(EventPlayer(event=event, player=p) for p in present)
        event.status = EventStatus.STARTED
        raise_sequence(event, ["status"])
        event.save(update_fields=["status", "sequence"])
        services.audit_event(
            AuditAction.EVENT_PLAYERS,
            event,
            actor,
            after={
                "started": True,
                "players": ", ".join(sorted(p.name for p in present)) or None,
            },
        )
    return event


def night_cancel(*, event: Event, actor=None) -> Event:
    """Cancel a planned night: it stays, marked cancelled, so that calendars that have it show
    it cancelled (STATUS:CANCELLED) rather than losing it without a word."""
    with transaction.atomic():
        event = _lock(event)
        if event.is_cancelled:
            raise ValidationError(_("This night is already cancelled."))
        if not event.is_planned:
            raise ValidationError(_("This night has started: close it instead."))
        event.status = EventStatus.CANCELLED
        raise_sequence(event, ["status"])
        event.save(update_fields=["status", "sequence"])
        services.audit_event(AuditAction.EVENT_CLOSE, event, actor, after={"cancelled": True})
        signals.night_cancelled.send(sender=Event, event=event)
    return event


def night_move(*, event: Event, starts_at: datetime, place: str, actor=None) -> Event:
    """Move a night to another time or place (its calendar entries follow: SEQUENCE raised)."""
    services.check_event_start(starts_at)
    with transaction.atomic():
        event = _lock(event)
        if event.is_cancelled or event.is_closed:
            raise ValidationError(_("This night is over: it cannot be moved."))
        before = {"starts_at": event.starts_at.isoformat(), "place": event.place or None}
        changed = [
            name
            for name, value in (("starts_at", starts_at), ("place", place))
            if getattr(event, name) != value
        ]
        if not changed:
            return event
        event.starts_at, event.place = starts_at, place
        raise_sequence(event, changed)
        event.save(update_fields=["starts_at", "place", "sequence"])
        services.audit_event(
            AuditAction.UPDATE,
            event,
            actor,
            before=before,
            after={"starts_at": starts_at.isoformat(), "place": place or None},
        )
        signals.night_moved.send(sender=Event, event=event)
    return event


def _lock(event: Event) -> Event:
    return (
        lock_rows(Event.objects.all(), leagues=[event.league_id], of=("self",))
        .select_related("league")
        .get(pk=event.pk)
    )


# The day-before reminder --------------------------------------------------------------------------


@dataclass(frozen=True)
class Reminder:
    """What the day-before reminder of one night says: the night, who answered coming or maybe,
    and the members to remind (the accounts linked to those players)."""

    event: Event
    coming: list[Player]
    maybe: list[Player]
    members: list = field(default_factory=list)


def remind_tomorrow(*, now: datetime | None = None) -> list[Reminder]:
    """The reminders due today: one per night planned for tomorrow in the club's time zone
    (not cancelled), with who is coming or may come and the members to tell. Sends nothing: the
    background worker posts them to the league's channels and emails the members. Three
    queries, whatever the number of nights."""
    # The club's own zone, not one a request activated: the worker has none.
    zone = timezone.get_default_timezone()
    tomorrow = timezone.localtime(now or timezone.now(), zone).date() + timedelta(days=1)
    start = datetime.combine(tomorrow, time.min, tzinfo=zone)
    end = datetime.combine(tomorrow + timedelta(days=1), time.min, tzinfo=zone)
    events = list(
        Event.objects.filter(status=EventStatus.PLANNED, starts_at__gte=start, starts_at__lt=end)
        .select_related("league")
        .order_by("starts_at", "pk")
    )
    answers = answers_of(events)
    users = {
        player.pk: player.user
        for player in Player.objects.filter(
            event_answers__event__in=events,
            event_answers__answer__in=[Answer.COMING, Answer.MAYBE],
            user__isnull=False,
            user__is_active=True,
        ).select_related("user")
    }
    return [
        Reminder(
            event=event,
            coming=answers[event.pk].coming,
            maybe=answers[event.pk].maybe,
            members=[
                users[p.pk]
                for p in answers[event.pk].coming + answers[event.pk].maybe
                if p.pk in users
            ],
        )
        for event in events
    ]
