"""Games: a page of games by cursor, filtered by league, player and date; one game."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Literal

from django.db.models import Q
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from ninja import Query, Router, Schema
from ninja.errors import HttpError
from ninja.responses import Status
from pydantic import Field, field_validator

from ratings import entry, selectors
from ratings.api.auth import WriteThrottle, require_entry, token_auth
from ratings.api.errors import refusals
from ratings.api.routers import read
from ratings.api.schemas import (
    LEAGUE_SLUG,
    PLAYER_SLUG,
    SLUG_LENGTH,
    DisputeIn,
    GameOut,
    GamePage,
    Moment,
    RowId,
)
from ratings.entry import confirmation
from ratings.entry import selectors as entry_selectors
from ratings.entry.models import HeldGame
from ratings.models import Game

router = Router(tags=["games"])

# A cursor is the last game's time (microseconds from 1970, UTC) and id: every text of this form
# is a cursor the API takes, so the OpenAPI file describes exactly what it accepts. Sixteen
# digits reach years 1653 to 2286, around every game's (1900 to tomorrow).
CURSOR = r"^-?\d{1,16}\.\d{1,18}$"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class GameFilter(Schema):
    league: str | None = Field(
        default=None, pattern=LEAGUE_SLUG, max_length=SLUG_LENGTH, description="A league's slug."
    )
    player: str | None = Field(
        default=None, pattern=PLAYER_SLUG, max_length=SLUG_LENGTH, description="A player's slug."
    )
    since: Moment | None = Field(default=None, description="Played at or after.")
    until: Moment | None = Field(default=None, description="Played before.")
    cursor: str | None = Field(default=None, pattern=CURSOR, description="next_cursor of a page.")
    limit: int = Field(default=50, ge=1, le=200)
    status: Literal["confirmed", "pending"] = Field(
        default="confirmed",
        description=(
            "pending: the games waiting for the token's member to confirm them (a token is "
            "needed; the other filters do not apply)."
        ),
    )

    @field_validator("since", "until")
    @classmethod
    def _in_club_time(cls, value: datetime | None) -> datetime | None:
        """A time without an offset is the club's, as in a posted game."""
        if value is None or timezone.is_aware(value):
            return value
        return timezone.make_aware(value)


def _cursor(game: Game) -> str:
    since_epoch = game.played_at - _EPOCH
    return f"{since_epoch // timedelta(microseconds=1)}.{game.pk}"


def _after_cursor(cursor: str) -> Q:
    """The games after the cursor's in the newest-first order: a seek, not an offset."""
    micros, pk = cursor.split(".")
    played_at = _EPOCH + timedelta(microseconds=int(micros))
    return Q(played_at__lt=played_at) | Q(played_at=played_at, pk__lt=int(pk))


def game_body(request, game: Game) -> dict:
    return {
        "id": game.pk,
        "key": game.submission_key,
        "status": "confirmed",
        "league": game.league.slug,
        "played_at": game.played_at,
        "bula": game.bula,
        "ended_early": game.ended_early,
        "url": request.build_absolute_uri(game.get_absolute_url()),
        "seats": [
            {
                "seat": result.seat + 1,
                "player": result.player.name,
                "player_slug": result.player.slug,
                "left": result.left,
                "middle": result.middle,
                "right": result.right,
                "final": result.score,
                "rating_before": result.rating_before,
                "rating_after": result.rating_after,
            }
            for result in game.results.all()
        ],
    }


@read(router, "", GamePage, 400)
def game_list(request, filters: Query[GameFilter]):
    """Games newest first, ``limit`` at a time; ``next_cursor`` asks for the next page (None
    on the last). Two queries a page, whatever its length."""
    if filters.status == "pending":
        if not request.user.is_authenticated:
            raise HttpError(401, _("Games waiting for confirmation are a member's: send a token."))
        waiting = entry_selectors.waiting_for(request.user)[: filters.limit]
        return {"games": [held_body(request, held) for held in waiting], "next_cursor": None}
    games = selectors.games_with_seats()
    if filters.league:
        games = games.filter(league__slug=filters.league)
    if filters.player:
        games = games.filter(results__player__slug=filters.player)
    if filters.since:
        games = games.filter(played_at__gte=filters.since)
    if filters.until:
        games = games.filter(played_at__lt=filters.until)
    if filters.cursor:
        games = games.filter(_after_cursor(filters.cursor))
    page = list(games.order_by("-played_at", "-pk")[: filters.limit + 1])
    more = len(page) > filters.limit
    page = page[: filters.limit]
    return {
        "games": [game_body(request, game) for game in page],
        "next_cursor": _cursor(page[-1]) if more else None,
    }


@read(router, "/{game_id}", GameOut, 404)
def game_detail(request, game_id: int = RowId):
    """One game with its seats: the paper's columns, final scores and ratings. Two queries."""
    return game_body(request, get_object_or_404(selectors.games_with_seats(), pk=game_id))


def held_body(request, held: HeldGame) -> dict:
    """A game waiting for the table (or disputed): as a game, with no id or ratings yet."""
    return {
        "id": None,
        "key": held.key,
        "status": held.status,
        "league": held.league.slug,
        "played_at": held.played_at,
        "bula": held.bula,
        "ended_early": held.ended_early,
        "url": request.build_absolute_uri(held.get_absolute_url()),
        "seats": [
            {
                "seat": seat.seat + 1,
                "player": seat.name,
                "player_slug": seat.player.slug if seat.player else None,
                "left": seat.left,
                "middle": seat.middle,
                "right": seat.right,
                "final": None,
                "rating_before": None,
                "rating_after": None,
            }
            for seat in held.seats.all()
        ],
    }


def _decided(request, key: uuid.UUID, act) -> tuple[int, dict]:
    """Run ``act`` on the held game of ``key``: 200 with the game as it now is (rated once it
    counts); 403 for a member who may not, 409 for a game not waiting for that, 400 for a game
    the league's rules now refuse."""
    require_entry(request)
    held = HeldGame.objects.filter(key=key).first()
    if held is None:
        if Game.objects.filter(submission_key=key).exists():
            message = _("This game counts already.")
            return Status(409, {"errors": [{"field": None, "message": message}]})
        raise HttpError(404, _("No game has this key."))
    try:
        held = act(held)
    except entry.NotAllowed as refused:
        return Status(403, {"errors": [{"field": None, "message": str(refused)}]})
    except entry.NotWaiting as gone:
        return Status(409, {"errors": [{"field": None, "message": gone.message}]})
    except entry.Refused as refused:
        errors = [{"field": r.path, "message": r.message} for r in refused.refusals]
        return Status(400, {"errors": errors})
    if held.game_id is not None:
        return Status(200, game_body(request, selectors.games_with_seats().get(pk=held.game_id)))
    return Status(200, held_body(request, entry_selectors.held_games().get(pk=held.pk)))


@router.post(
    "/{key}/confirm",
    response={200: GameOut, **refusals(400, 401, 403, 404, 409, 429)},
    auth=token_auth,
    throttle=WriteThrottle(),
)
def game_confirm(request, key: uuid.UUID):
    """The token's member agrees to a game waiting for the table (by the key a post answered):
    200 with the game, rated once the agreements make it count (``"status": "confirmed"``);
    403 for the member who entered it or one not at the table; 409 for a game not pending."""
    return _decided(request, key, lambda held: confirmation.confirm(held, user=request.user))


@router.post(
    "/{key}/dispute",
    response={200: GameOut, **refusals(400, 401, 403, 404, 409, 429)},
    auth=token_auth,
    throttle=WriteThrottle(),
)
def game_dispute(request, key: uuid.UUID, dispute: DisputeIn):
    """A seated member says a waiting game is wrong: it stays unrated and goes to the staff
    with the note (``"status": "disputed"``); 403 for a member not at the table (or the one
    who entered it), 409 for a game not pending."""
    return _decided(
        request,
        key,
        lambda held: confirmation.dispute(held, user=request.user, note=dispute.note),
    )
