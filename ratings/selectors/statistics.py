"""Reads for the statistics: a player's record per league, two players' record against each other.

Each group of statistics costs one query at most whatever the length of the history or the
number of leagues (the page tests pin the counts), and nothing here writes.

Places, first places and finishing ahead are those of :mod:`ratings.selectors.sql`: each
result holds its place, league and time (the engine writes them), so a player's games are one
range of the index of their results, and no query here reads the games or, but for a shared
first place and the third players two met together, the other seats. A player's own numbers
(games, places, bests, streaks) are worked out in one pass of Python over their history, which
the player page reads anyway for its chart (:func:`league_statistics`); their opponents are the
tallies the engine keeps per league, player and opponent (:mod:`ratings.engine.opponents`); what
involves other players is aggregated by the database, in SQL rather than the ORM (window
functions, seat joins) that runs unchanged on SQLite and PostgreSQL.

What they cost follows the players' own games (``bench/run.py`` measures a player with 4,000
games), not the club's: two players' games together are found by joining their two ranges on
the game (league, time and game, the index's columns after the player). The other seats of two
players' games together (companions) are looked up game by game
(:func:`~ratings.selectors.sql.seats_join`).
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Sum
from django.utils import timezone

from ratings.models import League, Player, SeasonStanding
from ratings.selectors.players import RatingLine, player_history_and_corrections
from ratings.selectors.sql import (
    PLAYER,
    RESULT,
    moment_of,
    opponent_records_sql,
    seats_join,
    seconds_reader,
    seconds_sql,
    sql_rows,
)
from ratings.systems import SYSTEMS, RatingSystem

# "Games in the last 30 days" on the player page.
RECENT_DAYS = 30
# How many opponents, and third players at the table, a league's statistics name.
MOST_MET = 5


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
    """The player's statistics in every league they played in, by league id: their history
    (:func:`~ratings.selectors.players.player_history_and_corrections`, one query), their
    leagues' systems and their shared first places (one query each), then
    :func:`league_statistics` for each league. The player page has the history and the leagues
    already and calls :func:`league_statistics` itself."""
    history, _corrections = player_history_and_corrections(player)
    systems = dict(League.objects.filter(pk__in=list(history)).values_list("pk", "system"))
    shared = shared_first_places(player)
    since = recent_since(now)
    return {
        league_id: league_statistics(
            rows, SYSTEMS[systems[league_id]], since, shared.get(league_id, 0)
        )
        for league_id, rows in history.items()
    }


def shared_first_places(player: Player) -> dict[int, int]:
    """How many first places the player shared with another seat (the same score), by league
    id: the sum of their season standings' (:mod:`ratings.engine.seasons` counts them with the
    games), so no game's other seats are looked up. One query."""
    return dict(
        SeasonStanding.objects.filter(player=player)
        .values("league_id")
        .annotate(shared=Sum("shared_first_places"))
        .values_list("league_id", "shared")
    )


def recent_since(now: datetime | None = None) -> float:
    """The start of "the last :data:`RECENT_DAYS` days", in seconds since 1970."""
    return ((now or timezone.now()) - timedelta(days=RECENT_DAYS)).timestamp()


def league_statistics(
    games: RatingLine, system: RatingSystem, recent_from: float, shared_first_places: int
) -> LeagueStatistics:
    """A player's statistics in one league from their games there, oldest first (at least one):
    ``recent_from`` starts the recent games, in seconds since 1970; ``shared_first_places`` is
    how many of their first places another seat shared (:func:`shared_first_places`).

    The history carries what a game's statistics need (its place), and a page that shows the
    statistics reads the history anyway, for its chart: a few passes over its columns, most of
    them in C, cost less than a second query over them. Each best and worst is the first game
    that reached it. Keys are lower for better, in the system's directions: the rating's for
    the ratings and a game's rating change, the score's for a game's score (the change decides
    between equal scores).
    """
    places, scores, times = games.places, games.scores, games.times
    befores, afters = games.ratings_before, games.ratings_after
    count = len(places)
    run = longest = 0
    for place in places:
        if place == 1:
            run += 1
            longest = max(longest, run)
        else:
            run = 0
    lowest, highest = afters.index(min(afters)), afters.index(max(afters))
    best_rating, worst_rating = (lowest, highest) if system.lower_is_better else (highest, lowest)

    rating_sign = 1 if system.lower_is_better else -1

    def change_key(i: int) -> float:
        return rating_sign * (afters[i] - befores[i])

    def games_scoring(score: float) -> list[int]:
        return [i for i, s in enumerate(scores) if s == score]

    low_score, high_score = min(scores), max(scores)
    best_score, worst_score = (
        (low_score, high_score) if system.lower_score_is_better else (high_score, low_score)
    )
    best_game = min(games_scoring(best_score), key=change_key)
    worst_game = max(games_scoring(worst_score), key=change_key)

    def moment(i: int, value: float) -> Moment:
        return Moment(games.game_ids[i], moment_of(times[i]), value)

    return LeagueStatistics(
        league_id=games.league_id,
        games=count,
        first_places=places.count(1),
        shared_first_places=shared_first_places,
        average_place=sum(places) / count,
        average_score=sum(scores) / count,
        # The times only grow: the recent games are those from the first recent one on.
        recent_games=count - bisect_left(times, recent_from),
        best_rating=moment(best_rating, afters[best_rating]),
        worst_rating=moment(worst_rating, afters[worst_rating]),
        best_game=moment(best_game, scores[best_game]),
        worst_game=moment(worst_game, scores[worst_game]),
        current_streak=run,
        longest_streak=longest,
    )


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
    name), each with the player's record against them, by league id: one query of the player's
    own tallies (:mod:`ratings.engine.opponents`: a pair's row, read from the second player's
    side with ahead and behind swapped), names only for those that may be shown."""
    sql = f"""
        WITH pairs AS ({opponent_records_sql()}),
        mine AS (
            SELECT pairs.*,
                   RANK() OVER (PARTITION BY pairs.league_id ORDER BY pairs.games DESC) AS by_games
            FROM pairs
        ),
        ranked AS (
            SELECT mine.*, p.name, p.slug,
                   ROW_NUMBER() OVER (
                       PARTITION BY mine.league_id ORDER BY mine.games DESC, p.name, p.id
                   ) AS n
            FROM mine
            JOIN {PLAYER} p ON p.id = mine.opponent_id
            WHERE mine.by_games <= %s
        )
        SELECT league_id, opponent_id, name, slug, games, ahead, level, behind
        FROM ranked
        WHERE n <= %s
        ORDER BY league_id, n
    """
    opponents: dict[int, list[OpponentRecord]] = defaultdict(list)
    rows = sql_rows(sql, [player.pk, player.pk, limit, limit])
    for league_id, player_id, name, slug, *numbers in rows:
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
