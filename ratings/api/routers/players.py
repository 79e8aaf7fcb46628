"""Players: the directory's search, a player's rating history, two players head to head."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from ninja import Query, Router, Schema
from pydantic import Field

from ratings import selectors
from ratings.api.routers import read
from ratings.api.schemas import (
    TEXT,
    HeadToHeadOut,
    LeagueHistory,
    PlayerOut,
    PlayerSlug,
)
from ratings.models import League, Player
from ratings.selectors import statistics

router = Router(tags=["players"])


class PlayerFilter(Schema):
    q: str = Field(
        default="", max_length=100, pattern=TEXT, description="Part of a name, as the directory."
    )
    # Far beyond any club's players, and within the database's OFFSET (2**63).
    offset: int = Field(default=0, ge=0, le=10**9)
    limit: int = Field(default=50, ge=1, le=200)


@read(router, "", list[PlayerOut], 400)
def player_list(request, filters: Query[PlayerFilter]):
    """Players by name, or those a search finds the directory's tolerant way ("ped" finds
    Pedja and Peđa): two queries a page (three for a search of four letters or more)."""
    players = selectors.players_directory(filters.q)[
        filters.offset : filters.offset + filters.limit
    ]
    return [
        {
            "name": player.name,
            "slug": player.slug,
            "url": request.build_absolute_uri(player.get_absolute_url()),
            "leagues": [
                {"league": standing.league.slug, "rating": standing.rating, "games": standing.games}
                for standing in player.leagues
            ],
        }
        for player in players
    ]


@read(router, "/{slug}/history", list[LeagueHistory], 404)
def player_history(request, slug: str = PlayerSlug):
    """Every game the player played, oldest first, per league: three queries."""
    player = get_object_or_404(Player, slug=slug)
    history = selectors.player_history(player)
    slugs = dict(League.objects.filter(pk__in=history).values_list("pk", "slug"))
    return [
        {
            "league": slugs[league_id],
            "games": [
                {
                    "game_id": row.game_id,
                    "played_at": row.played_at,
                    "score": row.score,
                    "rating_before": row.rating_before,
                    "rating_after": row.rating_after,
                }
                for row in rows
            ],
        }
        for league_id, rows in sorted(history.items(), key=lambda item: slugs[item[0]])
    ]


@read(router, "/{a}/vs/{b}", HeadToHeadOut, 404)
def head_to_head(request, a: str = PlayerSlug, b: str = PlayerSlug):
    """Two players' record in each league where they met: games, how often each finished
    ahead, level, and the sum of each one's scores."""
    found = {p.slug: p for p in Player.objects.filter(slug__in=(a, b)).only("name", "slug")}
    player_a = found.get(a) or get_object_or_404(Player, slug=a)
    player_b = found.get(b) or get_object_or_404(Player, slug=b)
    records = statistics.head_to_head(player_a, player_b)
    slugs = dict(League.objects.filter(pk__in=records).values_list("pk", "slug"))
    return {
        "a": player_a.slug,
        "b": player_b.slug,
        "leagues": [
            {
                "league": slugs[league_id],
                "games": record.games,
                "a_ahead": record.a_ahead,
                "b_ahead": record.b_ahead,
                "level": record.level,
                "a_score_sum": record.a_score_sum,
                "b_score_sum": record.b_score_sum,
            }
            for league_id, record in sorted(records.items(), key=lambda item: slugs[item[0]])
        ],
    }
