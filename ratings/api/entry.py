"""A game posted to the API: an adapter of the entry service (:mod:`ratings.entry`).

The JSON becomes the service's submission, and the service's refusals the API's errors: a
refusal's path (``seats[1].middle``, ``seats[0].player`` with its suggestions) is the JSON's
own, so nothing is translated and nothing checked here. A new name close to a player's is
refused with the suggestions unless listed in ``new_players``.

The client's key is the submission's: the same key again with the same game answers with the
game already recorded, never a second one; the same key with another game is refused
(:class:`KeyReused`), never taken for the first.
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from ratings import engine, entry
from ratings.api import deals, errors
from ratings.api.schemas import GameIn
from ratings.entry.models import HeldGame
from ratings.models import Game, League
from ratings.papers import services as paper_services
from ratings.player_names import name_key


class Refused(Exception):
    """A game the forms refuse: ``errors`` as the API answers them."""

    def __init__(self, errors: list[dict]):
        super().__init__(errors)
        self.errors = errors


class KeyReused(Refused):
    """The key of a game already recorded, sent with another game (other players, scores or
    time): a client that reused a key by mistake learns it, and the new game is not lost in
    silence."""

    def __init__(self, game: Game):
        message = _(
            "This key was used for game #%(game)d, which has other players, scores, time or note. "
            "Make a new key for a new game."
        ) % {"game": game.pk}
        super().__init__([{"field": "key", "message": message}])
        self.game = game


def _deal_log(league: League, game: GameIn) -> deals.DealLog | None:
    if game.deals is None:
        return None
    try:
        return deals.read_deals(league, game)
    except deals.DealsRefused as refused:
        raise Refused(refused.errors) from None


def _errors(refusals: list[entry.Refusal]) -> list[dict]:
    """The refusals as the API answers them: a refusal's path is the JSON's own, its words the
    API's (``"new_players"``, not the site's box to tick)."""
    return [
        {
            "field": refusal.path,
            "message": errors.worded(refusal.message, refusal.code, refusal.params),
            "suggestions": list(refusal.suggestions) or None,
        }
        for refusal in refusals
    ]


def submission(league: League, game: GameIn, log: deals.DealLog | None) -> entry.Submission:
    """The posted game as the entry service's submission (a deal log's seats have the columns
    its deals draw)."""
    seats = [seat.model_dump() for seat in game.seats] if log is None else log.seats
    played_at = game.played_at
    if timezone.is_naive(played_at):
        # A time without an offset is the club's, as on the site's form.
        played_at = timezone.make_aware(played_at)
    return entry.Submission(
        league=league,
        played_at=played_at,
        seats=tuple(entry.SeatIn(**seat) for seat in seats),
        bula=game.bula,
        ended_early=game.ended_early if log is None else log.ended_early,
        note=game.note,
        key=game.key,
        new_names=frozenset(name_key(name) for name in game.new_players),
    )


def game_post(*, league: League, game: GameIn, user) -> tuple[Game | HeldGame, bool]:
    """The game for this post (held for the table's confirmation in a league that asks for
    it) and whether this call made it (False: the key's was already there). Raises
    :class:`Refused`."""
    log = _deal_log(league, game)
    checked = entry.check(submission(league, game, log))
    then, then_args = "", None
    if log is not None:
        then = paper_services.KEEP_DEAL_LOG
        then_args = paper_services.deal_log_args(hands=game.deals, refas=log.refas, rules=log.rules)
    try:
        recorded, created = entry.submit(checked, entered_by=user, then=then, then_args=then_args)
    except engine.SubmissionReused as reused:
        raise KeyReused(reused.game) from None
    except entry.Refused as refused:
        raise Refused(_errors(refused.refusals)) from None
    if (
        not created
        and log is not None
        and isinstance(recorded, Game)
        and not deals.kept_as_posted(recorded, game, log)
    ):
        raise KeyReused(recorded)
    return recorded, created
