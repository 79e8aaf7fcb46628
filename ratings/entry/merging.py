"""Held games' part in merging two players (:class:`ratings.engine.MergePart`): a held game's
seats name players, and its players are two people if they sat at one table."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from ratings import engine
from ratings.entry.models import HeldGame, HeldSeat
from ratings.models import Player


def _leagues(player: Player) -> set[int]:
    # Every change of a held game takes its league's lock before the held game's row.
    return set(HeldGame.objects.seating(player).values_list("league_id", flat=True))


def _refusal(source: Player, target: Player) -> ValidationError | None:
    both = (
        HeldGame.objects.waiting()
        .seating(source)
        .filter(seats__player=target)
        .select_related("league")
        .order_by("played_at", "pk")
        .first()
    )
    if both is None:
        return None
    return engine.merge_refusal(
        _(
            "%(source)s and %(target)s sat at the same table (%(league)s, %(date)s): they are two "
            "people."
        ),
        source,
        target,
        at=both.played_at,
        league=both.league.name,
    )


def _move(source: Player, target: Player) -> None:
    HeldSeat.objects.filter(player=source).update(player=target, name=target.name)


MERGE_PART = engine.MergePart(leagues=_leagues, refusal=_refusal, move=_move)
