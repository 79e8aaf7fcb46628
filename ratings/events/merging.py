"""The club nights' part in merging two players (:class:`ratings.engine.MergePart`): a player
present twice at one event would be two people, and their presence, seats, byes and answers to
nights planned ahead move."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from ratings import engine
from ratings.events.models import Event, EventAnswer, EventPlayer, EventRound, TableSeat
from ratings.models import Player


def _leagues(player: Player) -> set[int]:
    # An event's rows are written under the event's own lock, not a league's.
    return set()


def _refusal(source: Player, target: Player) -> ValidationError | None:
    both_present = (
        Event.objects.filter(event_players__player=source)
        .filter(event_players__player=target)
        .order_by("starts_at", "pk")
        .first()
    )
    if both_present is None:
        return None
    return engine.merge_refusal(
        _(
            "%(source)s and %(target)s were both present at %(event)s (%(date)s): they "
            "are two people."
        ),
        source,
        target,
        at=both_present.starts_at,
        event=both_present.name,
    )


def _move(source: Player, target: Player) -> None:
    # Never both present at one event (refused above), so nothing collides.
    EventPlayer.objects.filter(player=source).update(player=target)
    TableSeat.objects.filter(player=source).update(player=target)
    EventRound.byes.through.objects.filter(player=source).update(player=target)
    # An answer to a planned night: the target's own stands where both answered.
    EventAnswer.objects.filter(
        player=source, event__in=EventAnswer.objects.filter(player=target).values("event")
    ).delete()
    EventAnswer.objects.filter(player=source).update(player=target)


MERGE_PART = engine.MergePart(leagues=_leagues, refusal=_refusal, move=_move)
