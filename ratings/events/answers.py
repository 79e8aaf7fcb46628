"""Who answered the nights planned ahead (:mod:`ratings.events.planning`): each night's answers
in one query, the member's own, and the planned nights the home page lists.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.utils import timezone

from ratings.events.models import Answer, Event, EventAnswer, EventStatus
from ratings.models import Player


@dataclass
class Answers:
    """Who answered a planned night, each list by name."""

    coming: list[Player] = field(default_factory=list)
    maybe: list[Player] = field(default_factory=list)
    no: list[Player] = field(default_factory=list)

    def add(self, answer: str, player: Player) -> None:
        getattr(self, Answer(answer).value).append(player)


def answers_of(events: Sequence[Event]) -> dict[int, Answers]:
    """Each event's answers (an empty :class:`Answers` for one without): one query."""
    found = {event.pk: Answers() for event in events}
    if not found:
        return found
    rows = (
        EventAnswer.objects.filter(event__in=list(found))
        .select_related("player")
        .order_by("player__name", "player_id")
    )
    for row in rows:
        found[row.event_id].add(row.answer, row.player)
    return found


# A planned night stays on the home page this long past its time, until its organiser starts it.
ANSWER_GRACE = timedelta(hours=6)


def upcoming_nights(*, now: datetime | None = None, limit: int = 5) -> list[Event]:
    """The planned nights still to come (and those a few hours past their time, still open for
    a late answer until the organiser starts them), soonest first, with their league: one
    query."""
    now = now or timezone.now()
    return list(
        Event.objects.filter(status=EventStatus.PLANNED, starts_at__gte=now - ANSWER_GRACE)
        .select_related("league")
        .order_by("starts_at", "pk")[:limit]
    )


def answer_of(answers: Answers, player: Player | None) -> str | None:
    """``player``'s own answer among ``answers`` (read already: no query), or None."""
    if player is None:
        return None
    for answer in Answer:
        if any(p.pk == player.pk for p in getattr(answers, answer.value)):
            return answer.value
    return None
