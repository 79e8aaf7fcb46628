"""A Preferans game posted to the API as its deals: the digital paper's deal log.

``"deals": [...]`` holds the hands in the log format of ``manage.py paper_from_deals`` (issue 27
point 7), ``"seats"`` the three players' names in seating order, ``"bula"`` the starting bula and
``"refas"`` the refe cap (left out: the league's). The paper the deals draw gives each seat's
left, middle and right; the game then goes through the entry form and the engine as any posted
paper, and is kept with its deals as a finished digital paper (:mod:`ratings.papers.services`),
as the phone keeps one.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from ratings.algorithms import paper as paper_rules
from ratings.api.errors import worded
from ratings.api.schemas import GameIn
from ratings.models import Game, League
from ratings.papers import services as paper_services
from ratings.papers.selectors import deal_logs_of_games
from ratings.systems import house_rules


@dataclass(frozen=True)
class DealLog:
    """A posted deal log read: the seats with their columns, and how the game is recorded."""

    seats: list[dict]
    refas: int | None
    rules: paper_rules.HouseRules  # the league's house rules, which draw the log
    ended_early: bool  # stopped by the clock before the bulas ran out (recorded_ended_early)


class DealsRefused(Exception):
    """The deal log refused: ``errors`` as the API answers them."""

    def __init__(self, errors: list[dict]):
        super().__init__(errors)
        self.errors = errors


def read_deals(league: League, game: GameIn) -> DealLog:
    """The seats' columns from the posted deals; DealsRefused naming the hand the rules refuse,
    or a hand after the one with which the bulas ran out (the game is over there)."""
    if not league.rating_system.has_paper:
        message = _("Only a Preferans league keeps a paper.")
        raise DealsRefused([{"field": "deals", "message": message}])
    errors = []
    if len(game.seats) != 3:
        errors.append({"field": "seats", "message": _("A paper needs three different players.")})
    if not game.bula:
        errors.append({"field": "bula", "message": _("The starting bula is needed.")})
    columns = [key for seat in game.seats for key in ("left", "middle", "right", "score")
               if getattr(seat, key) is not None]  # fmt: skip
    if columns:
        errors.append({"field": "seats", "message": _("Send the deals or the columns, not both.")})
    if errors:
        raise DealsRefused(errors)
    settings = league.system_settings
    refas = game.refas if "refas" in game.model_fields_set else settings.get("refas")
    rules = house_rules(settings)
    try:
        drawn = paper_services.log_drawn(
            bula=game.bula, refas=refas, hands=game.deals, ended_early=game.ended_early, rules=rules
        )
    except ValidationError as error:
        raise DealsRefused(
            [
                {"field": "deals", "message": worded(message, each.code, each.params)}
                for each in error.error_list
                for message in each.messages
            ]
        ) from None
    seats = [
        {"player": seat.player, "left": left, "middle": middle, "right": right}
        for seat, (left, middle, right) in zip(game.seats, drawn.columns, strict=True)
    ]
    ended_early = paper_services.recorded_ended_early(drawn, by_clock=game.ended_early)
    return DealLog(seats=seats, refas=refas, rules=rules, ended_early=ended_early)


def kept_as_posted(game: Game, posted: GameIn, log: DealLog) -> bool:
    """Whether the key's ``game`` keeps this very deal log (a resend), not another one that
    gives the same columns (an extra crossed-out hand): the same key with another log is another
    game, never dropped in silence."""
    kept = deal_logs_of_games([game.pk]).get(game.pk)
    if kept is None or kept["refas"] != log.refas:
        return False
    try:
        hands = [
            hand.log_json(repealed=repealed)
            for hand, repealed in map(paper_services.log_hand, posted.deals)
        ]
    except paper_rules.PaperError:
        return False
    return hands == kept["hands"]
