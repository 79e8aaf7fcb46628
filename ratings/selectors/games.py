"""Reads of games: a league's games with their seats, and one game with its neighbours."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import NamedTuple

from django.db.models import (
    OuterRef,
    Prefetch,
    QuerySet,
    Subquery,
)

from ratings.models import Game, League, Result


def _results_by_seat() -> Prefetch:
    return Prefetch(
        "results",
        queryset=Result.objects.select_related("player")
        .only(
            "game_id",
            "seat",
            "score",
            "rating_before",
            "rating_after",
            "left",
            "middle",
            "right",
            "player__name",
            "player__slug",
        )
        .order_by("seat"),
    )


def league_games(
    league: League, *, player_slug: str | None = None, oldest_first: bool = False
) -> QuerySet[Game]:
    """The league's games, newest first (or oldest first); the seats of a page of them from
    :func:`seats_by_game`, so a page of games costs two queries whatever its length."""
    games = Game.objects.filter(league=league)
    if player_slug is not None:
        games = games.filter(results__player__slug=player_slug)
    games = games.order_by("played_at", "id") if oldest_first else games.newest_first()
    return games.only("pk", "league_id", "played_at", "bula", "ended_early")


class Seat(NamedTuple):
    """A player's seat at a game as a list of games shows it."""

    name: str
    slug: str
    score: float
    change: float


def seats_by_game(game_ids: Iterable[int]) -> dict[int, list[Seat]]:
    """Each game's seats in seat order, in one query of plain rows: a page of a league's games
    shows a few hundred, and a result with its player as two model instances each costs a
    redrawing of the page under a burst of games more than the rest of it."""
    seats = defaultdict(list)
    rows = (
        Result.objects.filter(game_id__in=list(game_ids))
        .order_by("game_id", "seat")
        .values_list(
            "game_id", "player__name", "player__slug", "score", "rating_before", "rating_after"
        )
    )
    for game_id, name, slug, score, before, after in rows:
        seats[game_id].append(Seat(name, slug, score, after - before))
    return seats


def _neighbour(*, newer: bool) -> Subquery:
    """The id of the game just before or after the outer one in its league's rating order.

    Written as a range on played_at minus the ties on the wrong side, so the database seeks in
    the (league, played_at, id) index; an OR of the two cases makes SQLite scan the league.
    """
    played_at, pk = OuterRef("played_at"), OuterRef("pk")
    games = Game.objects.filter(league=OuterRef("league_id"))
    if newer:
        neighbours = games.filter(played_at__gte=played_at).exclude(played_at=played_at, pk__lte=pk)
        order = ("played_at", "pk")
    else:
        neighbours = games.filter(played_at__lte=played_at).exclude(played_at=played_at, pk__gte=pk)
        order = ("-played_at", "-pk")
    return Subquery(neighbours.order_by(*order).values("pk")[:1])


def game_detail() -> QuerySet[Game]:
    """Games with their league, who entered them, the event table they were played at (if any),
    the digital paper they were kept on (if any), the previous and next game's id
    (``previous_id``, ``next_id``, None at either end of the league) and their results: two
    queries for one game.
    """
    return (
        Game.objects.select_related(
            "league", "entered_by", "event_table__round__event", "digital_paper"
        )
        .annotate(previous_id=_neighbour(newer=False), next_id=_neighbour(newer=True))
        .prefetch_related(_results_by_seat())
    )


def games_with_seats() -> QuerySet[Game]:
    """Games with their league's slug and their results in seat order, for the API's game
    list and game: two queries for any number of games."""
    return (
        Game.objects.select_related("league")
        .only("played_at", "bula", "ended_early", "submission_key", "league__slug")
        .prefetch_related(_results_by_seat())
    )


# A new paper's starting bula when the league has no game to learn it from (prefko's papers
# start at 30 more often than not), and how many of the league's latest games tell its usual one.
DEFAULT_BULA = 30
USUAL_BULA_GAMES = 50


def usual_bula(league: League) -> int:
    """The starting bula a new paper of ``league`` most likely has, for the entry forms to
    start with: the most common of its latest games' (a tie: the latest game's), else 30."""
    recent = list(
        Game.objects.filter(league=league, bula__isnull=False)
        .order_by("-played_at", "-id")
        .values_list("bula", flat=True)[:USUAL_BULA_GAMES]
    )
    if not recent:
        return DEFAULT_BULA
    counts = Counter(recent)
    return max(recent, key=lambda bula: (counts[bula], -recent.index(bula)))
