"""Reads for the statistics: a player's record per league, two players' record against each other.

Everything is computed by the database, each group of statistics in one query whatever the length
of the history or the number of leagues (the page tests pin the counts), and nothing here writes.

Places, first places and finishing ahead are those of :mod:`ratings.selectors.sql`: each
result holds its place, league and time (the engine writes them), so a player's games are one
range of the index of their results, and no query here reads the games or, but for the
opponents and a shared first place, the other seats. The queries are SQL rather than the ORM
because they aggregate over window functions (ROW_NUMBER over a player's games), which Django's
ORM cannot group by; they run unchanged on SQLite and PostgreSQL.

What they cost follows the players' own games (``bench/run.py`` measures a player with 4,000
games), not the club's: two players' games together are found by joining their two ranges on
the game (league, time and game, the index's columns after the player). The other seats of a
player's games (opponents, companions) are looked up game by game
(:func:`~ratings.selectors.sql.seats_join`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import connection
from django.utils import timezone

from ratings.models import Player
from ratings.selectors.sql import (
    LEAGUE,
    PLAYER,
    RESULT,
    moment_of,
    moment_reader,
    rating_key,
    score_key,
    seats_join,
    seconds_reader,
    seconds_sql,
    sql_rows,
    tied_sql,
)

# "Games in the last 30 days" on the player page.
RECENT_DAYS = 30
# How many opponents, and third players at the table, a league's statistics name.
MOST_MET = 5


def _player_games_sql() -> str:
    """SQL for a CTE: each of one player's results (the parameter is their id) with its
    league, system, time and ``place``, and ``shared_first`` (1 for a first place another seat
    of the game shares, looked up for first places only)."""
    return f"""
        SELECT r.league_id, r.game_id, r.played_at, l.system, r.score, r.rating_before,
               r.rating_after, r.place,
               CASE WHEN r.place = 1 THEN (CASE WHEN {tied_sql("r")} THEN 1 ELSE 0 END)
                    ELSE 0 END AS shared_first
        FROM {RESULT} r
        JOIN {LEAGUE} l ON l.id = r.league_id
        WHERE r.player_id = %s
    """


# A player's statistics --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Moment:
    """A game where a statistic was reached: which, when, and the rating or score."""

    game_id: int
    played_at: datetime
    value: float


class FirstPlaces:
    """What ``first_places`` and ``shared_first_places`` give: in a game of two, a first place
    alone is a win and a shared one a draw (for a season's row and a league's statistics)."""

    __slots__ = ()
    first_places: int
    shared_first_places: int

    @property
    def wins(self) -> int:
        """First places not shared: wins, in a league of two-player games."""
        return self.first_places - self.shared_first_places


@dataclass(frozen=True, slots=True)
class LeagueStatistics(FirstPlaces):
    """A player's statistics in one league (see the module docstring for places)."""

    league_id: int
    games: int
    first_places: int
    shared_first_places: int
    average_place: float
    average_score: float
    # Games in the last RECENT_DAYS days.
    recent_games: int
    # The best and worst rating after a game, in the league's direction, first reached on.
    best_rating: Moment
    worst_rating: Moment
    # The best and worst score; between equal scores, the better (worse) rating change.
    best_game: Moment
    worst_game: Moment
    # Runs of first places in a row: the one that ends with the player's last game (0 when that
    # was not a first place), and the longest.
    current_streak: int
    longest_streak: int

    @property
    def draws(self) -> int:
        return self.shared_first_places

    @property
    def losses(self) -> int:
        return self.games - self.first_places


def player_statistics(
    player: Player, *, now: datetime | None = None
) -> dict[int, LeagueStatistics]:
    """The player's statistics in every league they played in, by league id: one query.

    Each game is numbered in the player's order (``n``). The best and worst rating and game are
    found in passes over those numbered games rather than a sort for each: the best and worst
    values first, then (for the games) the best and worst change between equal scores, then the
    first game that reached them. Gaps and islands for the streaks: numbering the first places
    apart, the difference of the two numbers is the same all along a run of first places in a
    row and changes after any other place, so grouping by it gives the runs.
    """
    since = (now or timezone.now()) - timedelta(days=RECENT_DAYS)
    sql = f"""
        WITH games AS ({_player_games_sql()}),
        mine AS (
            SELECT league_id, game_id, played_at, score, place, shared_first, rating_after,
                   CASE WHEN place = 1 THEN 1 ELSE 0 END AS is_first,
                   {rating_key("rating_after", "system")} AS rating_key,
                   {score_key("score", "system")} AS score_key,
                   {rating_key("rating_after - rating_before", "system")} AS change_key,
                   ROW_NUMBER() OVER (PARTITION BY league_id ORDER BY played_at, game_id) AS n
            FROM games
        ),
        bounds AS (
            SELECT league_id,
                   MIN(rating_key) AS best_rating, MAX(rating_key) AS worst_rating,
                   MIN(score_key) AS best_score, MAX(score_key) AS worst_score
            FROM mine
            GROUP BY league_id
        ),
        ties AS (
            SELECT m.league_id,
                   MIN(CASE WHEN m.score_key = b.best_score THEN m.change_key END)
                       AS best_change,
                   MAX(CASE WHEN m.score_key = b.worst_score THEN m.change_key END)
                       AS worst_change
            FROM mine m
            JOIN bounds b ON b.league_id = m.league_id
            GROUP BY m.league_id
        ),
        firsts_reached AS (
            SELECT m.league_id,
                   MIN(CASE WHEN m.rating_key = b.best_rating THEN m.n END) AS best_rating_n,
                   MIN(CASE WHEN m.rating_key = b.worst_rating THEN m.n END) AS worst_rating_n,
                   MIN(
                       CASE WHEN m.score_key = b.best_score AND m.change_key = t.best_change
                       THEN m.n END
                   ) AS best_game_n,
                   MIN(
                       CASE WHEN m.score_key = b.worst_score AND m.change_key = t.worst_change
                       THEN m.n END
                   ) AS worst_game_n
            FROM mine m
            JOIN bounds b ON b.league_id = m.league_id
            JOIN ties t ON t.league_id = m.league_id
            GROUP BY m.league_id
        ),
        totals AS (
            SELECT m.league_id,
                   COUNT(*) AS games,
                   SUM(is_first) AS firsts,
                   SUM(shared_first) AS shared,
                   AVG(place) AS average_place,
                   AVG(score) AS average_score,
                   SUM(CASE WHEN played_at >= %s THEN 1 ELSE 0 END) AS recent,
                   MAX(CASE WHEN n = f.best_rating_n THEN game_id END) AS best_rating_game,
                   MAX(CASE WHEN n = f.best_rating_n THEN played_at END) AS best_rating_at,
                   MAX(CASE WHEN n = f.best_rating_n THEN rating_after END) AS best_rating,
                   MAX(CASE WHEN n = f.worst_rating_n THEN game_id END) AS worst_rating_game,
                   MAX(CASE WHEN n = f.worst_rating_n THEN played_at END) AS worst_rating_at,
                   MAX(CASE WHEN n = f.worst_rating_n THEN rating_after END) AS worst_rating,
                   MAX(CASE WHEN n = f.best_game_n THEN game_id END) AS best_game,
                   MAX(CASE WHEN n = f.best_game_n THEN played_at END) AS best_game_at,
                   MAX(CASE WHEN n = f.best_game_n THEN score END) AS best_score,
                   MAX(CASE WHEN n = f.worst_game_n THEN game_id END) AS worst_game,
                   MAX(CASE WHEN n = f.worst_game_n THEN played_at END) AS worst_game_at,
                   MAX(CASE WHEN n = f.worst_game_n THEN score END) AS worst_score
            FROM mine m
            JOIN firsts_reached f ON f.league_id = m.league_id
            GROUP BY m.league_id
        ),
        runs AS (
            SELECT league_id, COUNT(*) AS length, MAX(n) AS last_n
            FROM (
                SELECT league_id, n,
                       n - ROW_NUMBER() OVER (PARTITION BY league_id ORDER BY n) AS run
                FROM mine
                WHERE is_first = 1
            ) firsts
            GROUP BY league_id, run
        ),
        streaks AS (
            SELECT runs.league_id,
                   MAX(CASE WHEN runs.last_n = totals.games THEN runs.length ELSE 0 END)
                       AS current_streak,
                   MAX(runs.length) AS longest_streak
            FROM runs
            JOIN totals ON totals.league_id = runs.league_id
            GROUP BY runs.league_id
        )
        SELECT totals.*, COALESCE(streaks.current_streak, 0), COALESCE(streaks.longest_streak, 0)
        FROM totals
        LEFT JOIN streaks ON streaks.league_id = totals.league_id
    """
    rows = sql_rows(sql, [player.pk, connection.ops.adapt_datetimefield_value(since)])
    statistics = {}
    moment = moment_reader()
    for row in rows:
        (league_id, games, firsts, shared, average_place, average_score, recent) = row[:7]
        moments = [
            Moment(int(row[i]), moment(row[i + 1]), float(row[i + 2])) for i in (7, 10, 13, 16)
        ]
        statistics[league_id] = LeagueStatistics(
            league_id=league_id,
            games=int(games),
            first_places=int(firsts),
            shared_first_places=int(shared),
            average_place=float(average_place),
            average_score=float(average_score),
            recent_games=int(recent),
            best_rating=moments[0],
            worst_rating=moments[1],
            best_game=moments[2],
            worst_game=moments[3],
            current_streak=int(row[19]),
            longest_streak=int(row[20]),
        )
    return statistics


@dataclass(frozen=True, slots=True)
class OpponentRecord:
    """How often a player met another in a league, and finished ahead of, level with and
    behind them (won, drew and lost, in a game of two)."""

    league_id: int
    player_id: int
    name: str
    slug: str
    games: int
    ahead: int
    level: int
    behind: int


def player_opponents(player: Player, *, limit: int = MOST_MET) -> dict[int, list[OpponentRecord]]:
    """The ``limit`` players the player met most often in each league, most games first (then by
    name), each with the player's record against them, by league id: one query."""
    sql = f"""
        WITH pairs AS (
            SELECT r.league_id, o.player_id,
                   COUNT(*) AS games,
                   SUM(CASE WHEN r.place < o.place THEN 1 ELSE 0 END) AS ahead,
                   SUM(CASE WHEN r.place = o.place THEN 1 ELSE 0 END) AS level,
                   SUM(CASE WHEN r.place > o.place THEN 1 ELSE 0 END) AS behind
            FROM {RESULT} r
            {seats_join("r.game_id", "o", "o.player_id <> r.player_id")}
            WHERE r.player_id = %s
            GROUP BY r.league_id, o.player_id
        ),
        ranked AS (
            SELECT pairs.*, p.name, p.slug,
                   ROW_NUMBER() OVER (
                       PARTITION BY pairs.league_id ORDER BY pairs.games DESC, p.name, p.id
                   ) AS n
            FROM pairs
            JOIN {PLAYER} p ON p.id = pairs.player_id
        )
        SELECT league_id, player_id, name, slug, games, ahead, level, behind
        FROM ranked
        WHERE n <= %s
        ORDER BY league_id, n
    """
    opponents: dict[int, list[OpponentRecord]] = defaultdict(list)
    for league_id, player_id, name, slug, *numbers in sql_rows(sql, [player.pk, limit]):
        opponents[league_id].append(
            OpponentRecord(league_id, player_id, name, slug, *(int(n) for n in numbers))
        )
    return opponents


# Two players against each other ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PairRecord:
    """Two players' games together in one league: how often each finished ahead of the other,
    and the sum and average of each one's scores in those games."""

    league_id: int
    games: int
    a_ahead: int
    b_ahead: int
    level: int
    a_score_sum: float
    b_score_sum: float

    @property
    def a_score_average(self) -> float:
        return self.a_score_sum / self.games

    @property
    def b_score_average(self) -> float:
        return self.b_score_sum / self.games


# A's results joined to B's (the parameter) in the same game, A's chosen by the WHERE that
# follows (``a.player_id = %s``): two ranges of the index (player, league, played_at, game) that
# meet on its last three columns, so the database reads the two players' results and no others
# (PostgreSQL hashes one range and probes it with the other; it could also merge them in order,
# or look each of B's up by the whole key).
_PAIR_JOIN = f"""{RESULT} a
        JOIN {RESULT} b ON b.player_id = %s AND b.league_id = a.league_id
            AND b.played_at = a.played_at AND b.game_id = a.game_id"""


def head_to_head(a: Player, b: Player) -> dict[int, PairRecord]:
    """A's and B's record in every league where they played together, by league id: one query.

    Their two ranges of results joined on the game (:data:`_PAIR_JOIN`); of two seats of one
    game, the one with the better place finished ahead.
    """
    sql = f"""
        SELECT a.league_id,
               COUNT(*),
               SUM(CASE WHEN a.place < b.place THEN 1 ELSE 0 END),
               SUM(CASE WHEN b.place < a.place THEN 1 ELSE 0 END),
               SUM(CASE WHEN a.place = b.place THEN 1 ELSE 0 END),
               SUM(a.score),
               SUM(b.score)
        FROM {_PAIR_JOIN}
        WHERE a.player_id = %s
        GROUP BY a.league_id
    """
    records = {}
    for league_id, games, a_ahead, b_ahead, level, a_sum, b_sum in sql_rows(sql, [b.pk, a.pk]):
        records[league_id] = PairRecord(
            league_id,
            int(games),
            int(a_ahead),
            int(b_ahead),
            int(level),
            float(a_sum),
            float(b_sum),
        )
    return records


@dataclass(frozen=True, slots=True)
class PairGame:
    """One game two players played together: each one's score and rating before and after."""

    league_id: int
    game_id: int
    # When it was played, in seconds since 1970 (``played_at`` for a row a page shows).
    at: float
    a_score: float
    a_rating_before: float
    a_rating_after: float
    b_score: float
    b_rating_before: float
    b_rating_after: float

    @property
    def played_at(self) -> datetime:
        return moment_of(self.at)

    @property
    def a_change(self) -> float:
        return self.a_rating_after - self.a_rating_before

    @property
    def b_change(self) -> float:
        return self.b_rating_after - self.b_rating_before


def head_to_head_games(a: Player, b: Player) -> dict[int, list[PairGame]]:
    """Every game A and B played together, newest first, by league id: one query, their two
    ranges of results joined on the game (:data:`_PAIR_JOIN`), read backwards; the times as
    numbers (a table shows a page of them)."""
    sql = f"""
        SELECT a.league_id, a.game_id, {seconds_sql("a.played_at")},
               a.score, a.rating_before, a.rating_after,
               b.score, b.rating_before, b.rating_after
        FROM {_PAIR_JOIN}
        WHERE a.player_id = %s
        ORDER BY a.league_id DESC, a.played_at DESC, a.game_id DESC
    """
    games: dict[int, list[PairGame]] = defaultdict(list)
    read = seconds_reader()
    for league_id, game_id, at, *numbers in sql_rows(sql, [b.pk, a.pk]):
        games[league_id].append(
            PairGame(league_id, game_id, at if read is None else read(at), *numbers)
        )
    return games


@dataclass(frozen=True, slots=True)
class Companion:
    """A third player at the table of two players' games together, and how often."""

    league_id: int
    player_id: int
    name: str
    slug: str
    games: int


def head_to_head_companions(
    a: Player, b: Player, *, limit: int = MOST_MET
) -> dict[int, list[Companion]]:
    """The ``limit`` other players A and B met most often at the same table, per league (most
    games first, then by name), by league id: one query. Games of two have none."""
    sql = f"""
        SELECT league_id, player_id, name, slug, games
        FROM (
            SELECT a.league_id, c.player_id, p.name, p.slug, COUNT(*) AS games,
                   ROW_NUMBER() OVER (
                       PARTITION BY a.league_id ORDER BY COUNT(*) DESC, p.name, p.id
                   ) AS n
            FROM {_PAIR_JOIN}
            {seats_join("a.game_id", "c", "c.player_id NOT IN (%s, %s)")}
            JOIN {PLAYER} p ON p.id = c.player_id
            WHERE a.player_id = %s
            GROUP BY a.league_id, c.player_id, p.name, p.slug, p.id
        ) ranked
        WHERE n <= %s
        ORDER BY league_id, n
    """
    companions: dict[int, list[Companion]] = defaultdict(list)
    for league_id, player_id, name, slug, games in sql_rows(sql, [b.pk, a.pk, b.pk, a.pk, limit]):
        companions[league_id].append(Companion(league_id, player_id, name, slug, int(games)))
    return companions
