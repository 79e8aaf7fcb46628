"""Games: a page of games by cursor, filtered by league, player and date; one game."""

from __future__ import annotations

import base64
from datetime import datetime

from django.db.models import Q
from django.shortcuts import get_object_or_404
from ninja import Query, Router, Schema
from ninja.errors import HttpError
from pydantic import Field

from ratings import selectors
from ratings.api.auth import read_auth
from ratings.api.schemas import GameOut, GamePage
from ratings.models import Game

router = Router(tags=["games"])


class GameFilter(Schema):
    league: str | None = Field(default=None, description="A league's slug.")
    player: str | None = Field(default=None, description="A player's slug.")
    since: datetime | None = Field(default=None, description="Played at or after.")
    until: datetime | None = Field(default=None, description="Played before.")
    cursor: str | None = Field(default=None, max_length=100, description="next_cursor of a page.")
    limit: int = Field(default=50, ge=1, le=200)


def _cursor(game: Game) -> str:
    return base64.urlsafe_b64encode(f"{game.played_at.isoformat()}|{game.pk}".encode()).decode()


def _after_cursor(cursor: str) -> Q:
    """The games after the cursor's in the newest-first order: a seek, not an offset."""
    try:
        played_at, pk = base64.urlsafe_b64decode(cursor.encode()).decode().split("|")
        played_at, pk = datetime.fromisoformat(played_at), int(pk)
    except ValueError:
        raise HttpError(400, "That cursor is not one this API gave.") from None
    return Q(played_at__lt=played_at) | Q(played_at=played_at, pk__lt=pk)


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


@router.get("", response=GamePage, auth=read_auth)
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


@router.get("/{int:game_id}", response=GameOut, auth=read_auth)
def game_detail(request, game_id: int):
    """One game with its seats: the paper's columns, final scores and ratings. Two queries."""
    return game_body(request, get_object_or_404(selectors.games_with_seats(), pk=game_id))
