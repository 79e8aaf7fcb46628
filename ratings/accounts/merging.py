"""The accounts' part in merging two players (:class:`ratings.engine.MergePart`): the merged
player's invitations and claims become the remaining player's. A link to a player who has a login
by then is refused when it is opened, and a claim of one when staff approve it, so nothing here
refuses a merge."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from ratings import engine
from ratings.accounts.models import Invitation, PlayerClaim
from ratings.models import Player


def _leagues(player: Player) -> set[int]:
    # No league's lock: these rows belong to no league.
    return set()


def _refusal(source: Player, target: Player) -> ValidationError | None:
    return None


def _move(source: Player, target: Player) -> None:
    Invitation.objects.filter(player=source).update(player=target)
    PlayerClaim.objects.filter(player=source).update(player=target)


MERGE_PART = engine.MergePart(leagues=_leagues, refusal=_refusal, move=_move)
