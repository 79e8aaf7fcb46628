"""Reads for the public pages: each loads, up front, exactly what its page shows (and the
standings rows of the ``standings`` command and the rayter import's preview).

Every function here issues a fixed number of queries whatever the size of the league or the
player's history (the view tests pin the counts), so they use subqueries, window functions and
``values_list`` rather than per-row lookups. Nothing here writes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db import connection
from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    IntegerChoices,
    IntegerField,
    Max,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    TextChoices,
    Value,
    When,
    Window,
)
from django.db.models.functions import Coalesce, Rank
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ratings import statistics
from ratings.algorithms import rayter
from ratings.models import Game, League, Player, Result, Standing
from ratings.names import close_matches, name_keys


def _count(queryset: QuerySet, group_by: str) -> Subquery:
    """A correlated COUNT(*) subquery: ``queryset`` already filtered on an OuterRef."""
    counted = queryset.order_by().values(group_by).annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), Value(0))


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
        player_count=_count(players, "league"),
        game_count=_count(games, "league"),
        last_played_at=Subquery(last_game),
    ).order_by("name")


# Leaderboard ------------------------------------------------------------------------------------


class Status(IntegerChoices):
    """Where a player stands on a leaderboard: ranked, or listed after the ranked, unranked."""

    RANKED = 0, _("ranked")
    PROVISIONAL = 1, _("provisional")
    INACTIVE = 2, _("inactive")


def _status_rules(league: League, now: datetime | None = None) -> list[tuple[str, object, Status]]:
    """What keeps a player off the league's ranking, in the order it is decided: each rule a
    field, the value below which the player has that status, and the status. Inactive (no game
    since the league's number of days) comes before provisional (fewer games than its threshold);
    a player neither is ranked. The leaderboard and the player page both read these."""
    rules = []
    inactive_before = league.inactive_before(now)
    if inactive_before is not None:
        rules.append(("last_played_at", inactive_before, Status.INACTIVE))
    if league.provisional_until:
        rules.append(("games", league.provisional_until, Status.PROVISIONAL))
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
    rules = _status_rules(league)
    whens = [When(**{f"{field}__lt": below}, then=Value(status)) for field, below, status in rules]
    if not show_inactive:
        for field, below, status in rules:
            if status == Status.INACTIVE:
                standings = standings.filter(**{f"{field}__gte": below})
    status = Case(*whens, default=Value(Status.RANKED)) if whens else Value(Status.RANKED)
    best_first = league.rating_system.best_first()
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
        .annotate(status=status)
        .annotate(rank=Window(Rank(), partition_by=[F("status")], order_by=best_first))
        .order_by("status", best_first, "player__name")
    )


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


# Seasons ----------------------------------------------------------------------------------------


class SeasonOrder(TextChoices):
    """What a season table ranks by, in the league's direction."""

    RATING = "rating", _("rating")
    CHANGE = "change", _("rating change")


def leagues_with_span() -> QuerySet[League]:
    """Leagues with ``first_played_at`` and ``last_played_at`` (None without games): two seeks
    in the (league, played_at, id) index, in the league's own query."""
    games = Game.objects.filter(league=OuterRef("pk"))
    return League.objects.annotate(
        first_played_at=Subquery(games.order_by("played_at").values("played_at")[:1]),
        last_played_at=Subquery(games.order_by("-played_at").values("played_at")[:1]),
    )


def league_years(league: League) -> list[int]:
    """The years, in the club's time zone, in which a league (from :func:`leagues_with_span`)
    has games, oldest first: one query, an index seek for each year from the first game's to
    the last one's (a DISTINCT over the years would read every game of the league)."""
    if league.first_played_at is None:
        return []
    first = timezone.localtime(league.first_played_at).year
    last = timezone.localtime(league.last_played_at).year
    years = range(first, last + 1)
    found = (
        League.objects.filter(pk=league.pk)
        .values(
            **{
                f"y{year}": Exists(
                    Game.objects.filter(
                        league=league,
                        played_at__gte=_new_year(year),
                        played_at__lt=_new_year(year + 1),
                    )
                )
                for year in years
            }
        )
        .get()
    )
    return [year for year in years if found[f"y{year}"]]


def _new_year(year: int) -> datetime:
    return timezone.make_aware(datetime(year, 1, 1))


@dataclass(frozen=True, slots=True)
class SeasonRow:
    """A player's season: see :func:`season_standings`."""

    rank: int
    player_id: int
    name: str
    slug: str
    games: int
    rating: float
    change: float
    average_score: float
    first_places: int
    shared_first_places: int
    status: int = 0  # Status.RANKED, or PROVISIONAL: listed after the ranked, without a rank

    @property
    def wins(self) -> int:
        """First places not shared: wins, in a league of two-player games."""
        return self.first_places - self.shared_first_places


def season_standings(
    league: League,
    start: datetime | None,
    end: datetime | None,
    *,
    by: str = SeasonOrder.RATING,
    min_games: int | None = None,
) -> list[SeasonRow]:
    """The players who played in the league from ``start`` to before ``end`` (either open), best
    first: their games in the period, their rating at its end (after their last game in it) and
    its change over it (from before their first game in it), their average score and their
    first places (see :mod:`ratings.statistics` for places), ranked by ``by`` in the league's
    direction (equal values share a rank). Optionally only players with ``min_games`` or more.

    The league's provisional rule holds as on the leaderboard, applied to each player's games
    in the league up to the period's end (before it as well as in it): a player with fewer is
    provisional, listed after the ranked players with a rank among the provisional ones only.

    Ratings are continuous: a season is a view of the league's one history, not a reset. One
    query, in SQL for the window functions (each game's places, each player's first and last
    game of the period) that the ORM cannot aggregate over (grouped, the ORM's correlated
    subqueries per player would run once per result row).
    """
    conditions, params = ["g.league_id = %s"], [league.pk]
    for bound, operator in ((start, ">="), (end, "<")):
        if bound is not None:
            conditions.append(f"g.played_at {operator} %s")
            params.append(connection.ops.adapt_datetimefield_value(bound))
    best_score_first = "ASC" if league.rating_system.lower_score_is_better else "DESC"
    direction = "ASC" if league.lower_is_better else "DESC"
    ranked_by = "rating - rating_before" if by == SeasonOrder.CHANGE else "rating"
    # The provisional rule counts every game of the league up to the period's end.
    career_conditions, career_params = ["g.league_id = %s"], [league.pk]
    if end is not None:
        career_conditions.append("g.played_at < %s")
        career_params.append(connection.ops.adapt_datetimefield_value(end))
    # Each seat's place by RANK over its game; one window per player: ROW_NUMBER finds their
    # first game of the period and LEAD (no next game) their last, in one sort; ties are looked
    # up only for first places.
    sql = f"""
        WITH seats AS (
            SELECT r.player_id, r.game_id, g.played_at, r.score, r.rating_before,
                   r.rating_after,
                   RANK() OVER (PARTITION BY r.game_id ORDER BY r.score {best_score_first})
                       AS place
            FROM {statistics.GAME} g
            JOIN {statistics.RESULT} r ON r.game_id = g.id
            WHERE {" AND ".join(conditions)}
        ),
        numbered AS (
            SELECT seats.*, ROW_NUMBER() OVER w AS n, LEAD(game_id) OVER w AS next_game
            FROM seats
            WINDOW w AS (PARTITION BY player_id ORDER BY played_at, game_id)
        ),
        players AS (
            SELECT player_id,
                   COUNT(*) AS games,
                   MAX(CASE WHEN next_game IS NULL THEN rating_after END) AS rating,
                   MAX(CASE WHEN n = 1 THEN rating_before END) AS rating_before,
                   AVG(score) AS average_score,
                   SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END) AS first_places,
                   SUM(
                       CASE WHEN place = 1 AND {statistics.tied_sql("numbered")} THEN 1 ELSE 0 END
                   ) AS shared
            FROM numbered
            GROUP BY player_id
            HAVING COUNT(*) >= %s
        ),
        career AS (
            SELECT r.player_id, COUNT(*) AS career_games
            FROM {statistics.GAME} g
            JOIN {statistics.RESULT} r ON r.game_id = g.id
            WHERE {" AND ".join(career_conditions)}
                  AND r.player_id IN (SELECT player_id FROM players)
            GROUP BY r.player_id
        ),
        statused AS (
            SELECT players.*,
                   CASE WHEN career.career_games < %s THEN {Status.PROVISIONAL}
                        ELSE {Status.RANKED} END AS status
            FROM players
            JOIN career ON career.player_id = players.player_id
        )
        SELECT RANK() OVER (PARTITION BY status ORDER BY {ranked_by} {direction}) AS rank,
               statused.player_id, p.name, p.slug, games, rating, rating - rating_before,
               average_score, first_places, shared, status
        FROM statused
        JOIN {statistics.PLAYER} p ON p.id = statused.player_id
        ORDER BY status, rank, p.name, p.id
    """
    rows = statistics.sql_rows(
        sql, [*params, min_games or 1, *career_params, league.provisional_until]
    )
    return [
        SeasonRow(
            int(rank),
            player_id,
            name,
            slug,
            int(games),
            float(rating),
            float(change),
            float(average),
            int(firsts),
            int(shared),
            int(status),
        )
        for rank, player_id, name, slug, games, rating, change, average, firsts, shared, status in (
            rows
        )
    ]


# Games ------------------------------------------------------------------------------------------


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
    """The league's games, newest first (or oldest first), each with its results in seat order.

    The results are prefetched, so a page of games costs two queries whatever its length (three
    with the paginator's count).
    """
    games = Game.objects.filter(league=league)
    if player_slug is not None:
        games = games.filter(results__player__slug=player_slug)
    games = games.order_by("played_at", "id") if oldest_first else games.newest_first()
    return games.only("pk", "league_id", "played_at", "bula", "ended_early").prefetch_related(
        _results_by_seat()
    )


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
    the previous and next game's id (``previous_id``, ``next_id``, None at either end of the
    league) and their results: two queries for one game.
    """
    return (
        Game.objects.select_related("league", "entered_by", "event_table__round__event")
        .annotate(previous_id=_neighbour(newer=False), next_id=_neighbour(newer=True))
        .prefetch_related(_results_by_seat())
    )


# Players ----------------------------------------------------------------------------------------

# A typed name this long or longer also finds names a typo away (ratings.names allows no edit
# in a shorter one, so looking would cost a query for nothing).
TYPO_SEARCH_MIN_LETTERS = 4


def players_directory(query: str = "") -> QuerySet[Player]:
    """Every player, by name, or those whose name matches ``query`` the club's tolerant way.

    A player matches when one of the query's keys (:func:`ratings.names.name_keys`: ASCII,
    case-folded, đ as d and as dj) is part of their stored ``search_key``, so "ped" finds Pedja
    and Peđa; a query of four letters or more also finds the names a typo away ("Pedia" finds
    Pedja), looked for in Python over every (pk, name) in one query.

    Each player comes with ``leagues``: their standings (league, rating, games) in the leagues
    they have played in, by league name. That is a prefetch, so it runs once the page is sliced:
    one query for the players on the page, whatever the size of the club. Two queries for a
    page, three with the paginator's count, one more for a typo search.
    """
    players = (
        Player.objects.only("name", "slug")
        .order_by("name")
        .prefetch_related(
            Prefetch(
                "standings",
                queryset=Standing.objects.filter(games__gt=0)
                .select_related("league")
                .only("player_id", "rating", "games", "league__name", "league__slug")
                .order_by("league__name"),
                to_attr="leagues",
            )
        )
    )
    query = " ".join(query.split())
    if not query:
        return players
    keys = name_keys(query)
    matches = holding_a_key(keys)
    if max(len(key) for key in keys) >= TYPO_SEARCH_MIN_LETTERS:
        known = list(Player.objects.values_list("pk", "name"))
        close = close_matches(query, known, limit=len(known))
        matches |= Q(pk__in=[match.item for match in close])
    return players.filter(matches)


def holding_a_key(keys: Iterable[str]) -> Q:
    """A filter for the players whose stored ``search_key`` holds one of ``keys`` (the
    :func:`ratings.names.name_keys` of what was typed): "ped" is in Pedja's and Peđa's."""
    matches = Q()
    for key in keys:
        matches |= Q(search_key__contains=key)
    return matches


def player_standings(slug: str) -> list[Standing]:
    """The standings of the player with this slug in every league they have played in, by the
    league's name, each with the player and the league, its ``status`` on the league's
    leaderboard and, when ranked, its ``rank`` there (None otherwise): as on the leaderboard,
    1 + the ranked players rated better. Two queries: the standings with their player and
    league (so a player with games costs no query of their own), then the players better than
    each ranked one, counted per league in one aggregate (none when the player is ranked
    nowhere). Empty for an unknown slug or a player without games."""
    now = timezone.now()
    standings = list(
        Standing.objects.filter(player__slug=slug, games__gt=0)
        .select_related("league", "player")
        .order_by("league__name")
    )
    counts = {}
    for standing in standings:
        rules = _status_rules(standing.league, now)
        standing.status = next(
            (status for field, below, status in rules if getattr(standing, field) < below),
            Status.RANKED,
        )
        standing.rank = None
        if standing.status == Status.RANKED:
            counts[f"league_{standing.league_id}"] = Count(
                "pk",
                filter=Q(league_id=standing.league_id)
                & standing.league.rating_system.better("rating", standing.rating)
                & Q(*(Q(**{f"{field}__gte": below}) for field, below, _status in rules)),
            )
    if counts:
        leagues = [standing.league_id for standing in standings]
        better = Standing.objects.filter(league_id__in=leagues, games__gt=0).aggregate(**counts)
        for standing in standings:
            if standing.status == Status.RANKED:
                standing.rank = better[f"league_{standing.league_id}"] + 1
    return standings


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """One of a player's games, as their history on the player page shows it."""

    league_id: int
    game_id: int
    played_at: datetime
    score: float
    rating_before: float
    rating_after: float

    @property
    def change(self) -> float:
        return self.rating_after - self.rating_before


def player_history(player: Player) -> dict[int, list[HistoryRow]]:
    """Every game the player played, oldest first, grouped by league id: one query.

    Plain rows rather than model instances, and SQL rather than the ORM: a player with thousands
    of games needs all of them for the chart, and building that many objects, or converting that
    many times row by row as the ORM does on SQLite, would dominate the page's time.
    """
    sql = f"""
        SELECT g.league_id, r.game_id, {statistics.played_at_sql("g.played_at")}, r.score,
               r.rating_before, r.rating_after
        FROM {statistics.RESULT} r
        JOIN {statistics.GAME} g ON g.id = r.game_id
        WHERE r.player_id = %s
        ORDER BY g.played_at, r.game_id
    """
    moment = statistics.moment_reader()
    history: dict[int, list[HistoryRow]] = defaultdict(list)
    for league_id, game_id, played_at, *numbers in statistics.sql_rows(sql, [player.pk]):
        history[league_id].append(HistoryRow(league_id, game_id, moment(played_at), *numbers))
    return history


def opponents_by_game(game_ids: Iterable[int], *, player: Player) -> dict[int, list[Player]]:
    """The other players of the given games, in seat order, keyed by game id: one query.

    Only the games on the pages being shown are asked for, so the cost does not grow with the
    player's history.
    """
    ids = list(game_ids)
    opponents: dict[int, list[Player]] = defaultdict(list)
    if not ids:
        return opponents
    results = (
        Result.objects.filter(game_id__in=ids)
        .exclude(player=player)
        .select_related("player")
        .only("game_id", "seat", "player__name", "player__slug")
        .order_by("game_id", "seat")
    )
    for result in results:
        opponents[result.game_id].append(result.player)
    return opponents
