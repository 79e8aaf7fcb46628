"""Leagues, their standings, and posting a game to one."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from ninja import Router
from ninja.responses import Status

from ratings import selectors
from ratings.api import entry
from ratings.api.auth import WriteThrottle, require_entry, token_auth
from ratings.api.errors import refusals
from ratings.api.routers import read
from ratings.api.schemas import (
    GameIn,
    GameRecorded,
    LeagueOut,
    LeagueSlug,
    StandingOut,
)
from ratings.entry.models import HeldGame
from ratings.models import Game, League, Result

router = Router(tags=["leagues"])


@read(router, "", list[LeagueOut])
def league_list(request):
    """Every league, with its number of players and games and its last game: one query."""
    return [
        {
            "slug": league.slug,
            "name": league.name,
            "system": league.system,
            "kind": league.kind.value,
            "lower_is_better": league.lower_is_better,
            "players": league.player_count,
            "games": league.game_count,
            "last_played_at": league.last_played_at,
            "url": request.build_absolute_uri(league.get_absolute_url()),
        }
        for league in selectors.leagues_overview()
    ]


@read(router, "/{slug}/standings", list[StandingOut], 404)
def league_standings(request, slug: str = LeagueSlug):
    """The leaderboard: ranked players best first (a lower rating is better in prefko), then
    the provisional and inactive ones, without a rank. Two queries."""
    league = get_object_or_404(League, slug=slug)
    return [
        {
            "rank": row.rank if row.status == selectors.Status.RANKED else None,
            "player": row.player.name,
            "player_slug": row.player.slug,
            "rating": row.rating,
            "games": row.games,
            "status": selectors.Status(row.status).name.lower(),
        }
        for row in selectors.league_standings(league, show_inactive=True)
    ]


def recorded_body(request, game: Game | HeldGame) -> dict:
    """What a post answers: the game's id and page, and each seat's final score and ratings;
    for a game waiting for the table, its key and page, and no scores or ratings yet."""
    if isinstance(game, HeldGame):
        return {
            "id": None,
            "key": game.key,
            "status": game.status,
            "url": request.build_absolute_uri(game.get_absolute_url()),
            "seats": [
                {
                    "seat": seat.seat + 1,
                    "player": seat.name,
                    "final": None,
                    "rating_before": None,
                    "rating_after": None,
                }
                for seat in game.seats.order_by("seat")
            ],
        }
    results = Result.objects.filter(game=game).select_related("player").order_by("seat")
    return {
        "id": game.pk,
        "key": game.submission_key,
        "status": "confirmed",
        "url": request.build_absolute_uri(game.get_absolute_url()),
        "seats": [
            {
                "seat": result.seat + 1,
                "player": result.player.name,
                "final": result.score,
                "rating_before": result.rating_before,
                "rating_after": result.rating_after,
            }
            for result in results
        ],
    }


@router.post(
    "/{slug}/games",
    response={200: GameRecorded, 201: GameRecorded, **refusals(400, 401, 403, 404, 409, 413, 429)},
    auth=token_auth,
    throttle=WriteThrottle(),
)
def game_create(request, game: GameIn, slug: str = LeagueSlug):
    """Record a game: 201 with its seats' ratings (in a league with confirmation, a member's
    game answers 201 with ``"status": "pending"``, its key and no ratings: it counts once the
    table confirms it, see ``POST /games/{key}/confirm``); the same ``key`` again answers 200 with
    the game already recorded, and with another game 409 (the key's field says which game
    has it); a game the entry service refuses answers 400 with each refusal's field
    (``seats[1].middle``)."""
    league = get_object_or_404(League, slug=slug)
    require_entry(request)
    try:
        recorded, created = entry.game_post(league=league, game=game, user=request.user)
    except entry.KeyReused as reused:
        return Status(409, {"errors": reused.errors})
    except entry.Refused as refused:
        return Status(400, {"errors": refused.errors})
    return Status(201 if created else 200, recorded_body(request, recorded))
