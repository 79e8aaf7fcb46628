"""Reads of the leagues: the overview and a league's leaderboard (and its rows as rayter prints
them, for the ``standings`` command and the rayter import's preview)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from operator import gt, lt

from django.db.models import (
    Case,
    F,
    IntegerChoices,
    Max,
    OuterRef,
    QuerySet,
    Subquery,
    Value,
    When,
    Window,
)
from django.db.models.functions import Coalesce, Rank
from django.utils.translation import gettext_lazy as _

from ratings.algorithms import rayter
from ratings.models import Game, League, RatingCorrection, Result, Standing
from ratings.selectors.sql import count_subquery

# Leagues ----------------------------------------------------------------------------------------


def leagues_overview() -> QuerySet[League]:
    """Every league with its number of (active) players and games and its last game: one query."""
    players = Standing.objects.filter(league=OuterRef("pk"), games__gt=0)
    games = Game.objects.filter(league=OuterRef("pk"))
    last_game = (
        Game.objects.filter(league=OuterRef("pk"))
        .order_by()
        .values("league")
        .annotate(last=Max("played_at"))
        .values("last")
    )
    return League.objects.annotate(
        player_count=count_subquery(players, "league"),
        game_count=count_subquery(games, "league"),
        last_played_at=Subquery(last_game),
    ).order_by("name")


# Leaderboard ------------------------------------------------------------------------------------


class Status(IntegerChoices):
    """Where a player stands on a leaderboard: ranked, or listed after the ranked, unranked."""

    RANKED = 0, _("ranked")
    PROVISIONAL = 1, _("provisional")
    INACTIVE = 2, _("inactive")


# A rule's lookup as a comparison in Python (the player page decides a status per standing).
COMPARE_LOOKUP = {"lt": lt, "gt": gt}
# The lookup that holds when a rule's does not (the rule's fields are never null here).
OPPOSITE_LOOKUP = {"lt": "gte", "gt": "lte"}


def status_rules(
    league: League, now: datetime | None = None
) -> list[tuple[str, object, Status, str]]:
    """What keeps a player off the league's ranking, in the order it is decided: each rule a
    field, a bound, the status, and the lookup (``lt``: below the bound, ``gt``: above it)
    that gives the player that status. Inactive (no game since the league's number of days)
    comes before provisional (as the system says: fewer games than the league's threshold, or
    OpenSkill's uncertainty above its bound); a player neither is ranked. The leaderboard and
    the player page both read these."""
    rules = []
    inactive_before = league.inactive_before(now)
    if inactive_before is not None:
        rules.append(("last_played_at", inactive_before, Status.INACTIVE, "lt"))
    provisional = league.rating_system.provisional_rule(league)
    if provisional is not None:
        field, lookup, bound = provisional
        rules.append((field, bound, Status.PROVISIONAL, lookup))
    return rules


def league_standings(
    league: League, *, min_games: int | None = None, show_inactive: bool = False
) -> QuerySet[Standing]:
    """The league's standings: the ranked players best first, then the provisional ones (fewer
    games than the league's threshold) and, when asked for, the inactive ones (no game for the
    league's number of days), each with its ``status`` (:class:`Status`).

    ``rank`` is computed by the database over the rows shown, in the league's direction (lowest
    rating first for prefko), so it stays right on any page and under any other sort order;
    only ranked players have one that counts. Equal ratings share a rank (1, 2, 2, 4).
    Optionally only players with ``min_games`` games or more.
    """
    standings = Standing.objects.leaderboard(league)
    if min_games:
        standings = standings.filter(games__gte=min_games)
    rules = status_rules(league)
    whens = [
        When(**{f"{field}__{lookup}": bound}, then=Value(status))
        for field, bound, status, lookup in rules
    ]
    if not show_inactive:
        for field, bound, status, lookup in rules:
            if status == Status.INACTIVE:
                standings = standings.filter(**{f"{field}__{OPPOSITE_LOOKUP[lookup]}": bound})
    status = Case(*whens, default=Value(Status.RANKED)) if whens else Value(Status.RANKED)
    system = league.rating_system
    best_first = system.best_first()
    if system.ties_by_first_game:
        standings = standings.annotate(**first_game())
    return (
        standings.only(
            "rating",
            "games",
            "last_change",
            "last_played_at",
            "league_id",
            "player__name",
            "player__slug",
        )
        .annotate(status=status, last_move=last_move())
        .annotate(rank=Window(Rank(), partition_by=[F("status")], order_by=best_first))
        .order_by("status", best_first, *tie_order(system))
    )


# A standing's first game in its league, annotated by first_game() for the systems that list
# ties in that order: when it was played, which game, the player's seat at it.
FIRST_GAME = ("first_played_at", "first_game", "first_seat")


def first_game() -> dict[str, Subquery]:
    """The annotations of :data:`FIRST_GAME` on standings: each the first row of the player's
    results in the league, one seek into their index (player, league, played_at, game)."""
    results = Result.objects.filter(
        player_id=OuterRef("player_id"), league_id=OuterRef("league_id")
    ).order_by("played_at", "game_id")
    return {
        name: Subquery(results.values(field)[:1])
        for name, field in zip(FIRST_GAME, ("played_at", "game_id", "seat"), strict=True)
    }


def tie_order(system) -> list:
    """How standings of equal rating are ordered (after their status and rating): in the order
    the players first played for a system that lists them so (rayter's, whose command lists
    ties as they first appear in its file; :func:`first_game` annotates the standings with
    it), else by name. A player without a game (a start rating only) comes after those with."""
    if system.ties_by_first_game:
        return [F(name).asc(nulls_last=True) for name in FIRST_GAME] + [F("player__name").asc()]
    return [F("player__name").asc()]


def last_move():
    """A standing's last change as the leaderboard shows it: what the latest correction did to
    the player's rating while the rating is still the one it left (nothing has moved it since),
    else their last game's change. So the change shown is what moved the rating shown, also when
    a correction to an earlier game moved it without a game (issue 29.17). A subquery on
    ``correction_player_at``."""
    correction = RatingCorrection.objects.filter(
        league_id=OuterRef("league_id"), player_id=OuterRef("player_id"), rating=OuterRef("rating")
    ).order_by("-at", "-id")
    return Coalesce(Subquery(correction.values("change")[:1]), F("last_change"))


@dataclass(frozen=True, slots=True)
class LeagueStanding(rayter.Standing):
    """A line of a league's standings, with the player's place on the leaderboard."""

    status: Status = Status.RANKED


def league_standings_rows(league: League) -> list[LeagueStanding]:
    """The league's standings, best first: name, games, rating and change (two queries).

    The change is the player's change in the league's very last game, 0 for everyone who did
    not play it: the ``rayter`` command's Delta column. In a league with a provisional or
    inactivity threshold the ranked players come first, as on the leaderboard; without one the
    order is rayter's.
    """
    last_game = Game.objects.filter(league=league).newest_first().values("id")[:1]
    changes = {
        player_id: after - before
        for player_id, before, after in Result.objects.filter(game_id__in=last_game).values_list(
            "player_id", "rating_before", "rating_after"
        )
    }
    return [
        LeagueStanding(name, games, rating, changes.get(player_id, 0.0), Status(status))
        for player_id, name, games, rating, status in league_standings(
            league, show_inactive=True
        ).values_list("player_id", "player__name", "games", "rating", "status")
    ]
