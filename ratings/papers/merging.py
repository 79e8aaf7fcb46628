"""The digital papers' part in merging two players (:class:`ratings.engine.MergePart`): two
players at one paper are two people, and a paper's seats move, a paper in progress going on
with the player who stays. A deal names seats, not players: the deals stay as they are."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from ratings import engine
from ratings.models import Player
from ratings.papers.models import DigitalPaper


def _leagues(player: Player) -> set[int]:
    # Every write of a paper takes its league's lock before the paper's row.
    papers = DigitalPaper.objects.filter(DigitalPaper.seating(player))
    return set(papers.values_list("league_id", flat=True))


def _refusal(source: Player, target: Player) -> ValidationError | None:
    # A paper whose game is gone, or still in progress: the game's check cannot see it.
    both_seated = (
        DigitalPaper.objects.filter(DigitalPaper.seating(source))
        .filter(DigitalPaper.seating(target))
        .select_related("league")
        .order_by("started_at", "pk")
        .first()
    )
    if both_seated is None:
        return None
    return engine.merge_refusal(
        _(
            "%(source)s and %(target)s sat at the same digital paper #%(paper)d "
            "(%(league)s, %(date)s): they are two people."
        ),
        source,
        target,
        at=both_seated.started_at,
        paper=both_seated.pk,
        league=both_seated.league.name,
    )


def _move(source: Player, target: Player) -> None:
    # Open or finished: never both at one (refused above), so no paper seats one player twice.
    for seat in DigitalPaper.SEATS:
        DigitalPaper.objects.filter(**{seat: source}).update(**{seat: target})


MERGE_PART = engine.MergePart(leagues=_leagues, refusal=_refusal, move=_move)
