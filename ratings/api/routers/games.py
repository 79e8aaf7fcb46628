"""Games: a page of games by cursor, filtered by league, player and date; one game."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.db.models import Q
from django.shortcuts import get_object_or_404
from django.utils import timezone
from ninja import Query, Router, Schema
from pydantic import Field, field_validator

from ratings import selectors
from ratings.api.routers import read
from ratings.api.schemas import (
    LEAGUE_SLUG,
    PLAYER_SLUG,
    SLUG_LENGTH,
    GameOut,
    GamePage,
    Moment,
    RowId,
)
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
