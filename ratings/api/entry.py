"""A game posted to the API, entered exactly as the site's entry form enters it.

The JSON is turned into the form's own fields and handed to the league's entry form
(:func:`ratings.forms.game_form_class`): the same checks, the same messages, the same
name rules (a new name close to a player's is refused with the suggestions unless listed in
``new_players``), the same ``save`` through the engine. Nothing here checks a game a second time;
it only translates field names both ways (``middle_1`` is ``seats[1].middle``).

The client's key is the form's ``submission_key``: the same key again with the same game answers
with the game already recorded, never a second one; the same key with another game is refused
(:class:`KeyReused`), never taken for the first.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ratings import engine
from ratings.api import deals
from ratings.api.schemas import GameIn
from ratings.forms import (
    DuelGameForm,
    GameForm,
    PreferansGameForm,
    ScoredGameForm,
    game_form_class,
)
from ratings.models import Game, League
from ratings.player_names import name_key
from ratings.versioning import lock_rows


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
            "This key was used for game #%(game)d, which has other players, scores or time. "
            "Make a new key for a new game."
        ) % {"game": game.pk}
        super().__init__([{"field": "key", "message": message}])
        self.game = game


@dataclass(frozen=True)
class SeatFields:
    """How a kind of game's seats become its form's fields: the seat keys it takes, and the
    form's own fields (besides ``player_<n>``) they fill. One subclass per entry form."""

    keys: tuple[str, ...]

    def form_data(self, seats: list[dict]) -> dict:
        data = {}
        for n, seat in enumerate(seats):
            data[f"player_{n}"] = seat["player"]
            for key in self.keys:
                if seat.get(key) is not None:
                    data[f"{key}_{n}"] = seat[key]
        return data

    def form_kwargs(self, seats: list[dict]) -> dict:
        return {}

    def field_path(self, name: str) -> str:
        stem, _sep, seat = name.rpartition("_")
        if stem and seat.isdigit():
            return f"seats[{seat}].{stem}"
        return name


class ScoredSeats(SeatFields):
    """A scored game: as many rows as seats sent (the page's form shows six and more rows)."""

    def form_kwargs(self, seats: list[dict]) -> dict:
        return {"seats": len(seats)}


class DuelSeats(SeatFields):
    """Head to head: the two seats' scores (1 and 0, ½ and ½, 0 and 1) are the form's result."""

    def form_data(self, seats: list[dict]) -> dict:
        data = {f"player_{n}": seat["player"] for n, seat in enumerate(seats)}
        scores = tuple(seat.get("score") for seat in seats)
        outcome = {pair: code for code, pair in DuelGameForm.OUTCOMES.items()}.get(scores)
        if outcome is not None:
            data["outcome"] = outcome
        return data

    def field_path(self, name: str) -> str:
        return "seats" if name == "outcome" else super().field_path(name)


# Each entry form (the league's rating system names it) and how the JSON's seats fill it.
SEAT_FIELDS: dict[type[GameForm], SeatFields] = {
    PreferansGameForm: SeatFields(("left", "middle", "right")),
    ScoredGameForm: ScoredSeats(("score",)),
    DuelGameForm: DuelSeats(("score",)),
}


# The JSON's names of the form's game fields.
FORM_TO_JSON = {"submission_key": "key", "__all__": None}


def _deal_log(league: League, game: GameIn) -> deals.DealLog | None:
    if game.deals is None:
        return None
    try:
        return deals.read_deals(league, game)
    except deals.DealsRefused as refused:
        raise Refused(refused.errors) from None


def _unused_values(seats: list[dict], fields: SeatFields) -> list[dict]:
    """A value the league's games do not have (a score in a Preferans game, a column in a
    scored one) is refused rather than silently dropped."""
    return [
        {"field": f"seats[{n}].{key}", "message": _("This league's games have no such value.")}
        for n, seat in enumerate(seats)
        for key in ("left", "middle", "right", "score")
        if seat.get(key) is not None and key not in fields.keys
    ]


def _errors(form: GameForm, fields: SeatFields) -> list[dict]:
    errors = []
    for name, messages in form.errors.as_data().items():
        for error in messages:
            field = FORM_TO_JSON.get(name, fields.field_path(name))
            if name == "__all__" and error.code in form.error_targets:
                field = "seats"
            item = {"field": field, "message": " ".join(error.messages)}
            stem, _sep, seat = name.rpartition("_")
            if stem == "player" and seat.isdigit() and int(seat) in form.suggestions:
                item["suggestions"] = form.suggestions[int(seat)].matches
            errors.append(item)
    return errors


def recorded(key, prepared: engine.GameInput) -> Game | None:
    """The game this key recorded, when ``prepared`` is that game again; raises
    :class:`KeyReused` when it is another."""
    game = Game.objects.filter(submission_key=key).first()
    if game is None:
        return None
    try:
        return engine.resubmitted(game, prepared)
    except engine.SubmissionReused:
        raise KeyReused(game) from None


def game_post(*, league: League, game: GameIn, user) -> tuple[Game, bool]:
    """The game for this post and whether this call recorded it (False: the key's game was
    already there). Raises :class:`Refused`."""
    form_class = game_form_class(league)
    fields = SEAT_FIELDS[form_class]
    log = _deal_log(league, game)
    seats = [seat.model_dump() for seat in game.seats] if log is None else log.seats
    unused = _unused_values(seats, fields)
    if unused:
        raise Refused(unused)
    data = {
        "submission_key": str(game.key),
        "played_at": game.played_at,
        "note": game.note,
        **fields.form_data(seats),
    }
    if game.bula is not None:
        data["bula"] = game.bula
    if game.ended_early or (log is not None and log.ended_early):
        data["ended_early"] = "on"
    new_players = {name_key(name) for name in game.new_players}
    for n, seat in enumerate(seats):
        if name_key(seat["player"]) in new_players:
            data[f"new_player_{n}"] = "on"
    form = form_class(data, league=league, **fields.form_kwargs(seats))
    if not form.is_valid():
        raise Refused(_errors(form, fields))
    try:
        prepared = form.prepared()
        existing = recorded(game.key, prepared)
        if existing is not None:
            return existing, False
        with transaction.atomic():
            # The league's lock (the engine takes it again), so of two posts of one key the
            # second waits for the first and finds its game: it answers 200, not 201.
            lock_rows(League.objects.all()).get(pk=league.pk)
            existing = recorded(game.key, prepared)
            if existing is not None:
                return existing, False
            recorded_game = form.save(entered_by=user)
            if log is not None:
                deals.keep_deals(game=recorded_game, posted=game, log=log, actor=user)
            return recorded_game, True
    except engine.SubmissionReused as reused:  # the form's save met the key under the lock
        raise KeyReused(reused.game) from None
    except ValidationError as error:
        raise Refused([{"field": None, "message": message} for message in error.messages]) from None
