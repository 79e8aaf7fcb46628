"""Season tables kept current: a row per league, season and player (:class:`SeasonStanding`),
so a season's table reads one row per player instead of every result of the year.

A season is a calendar year in the club's time zone (:func:`ratings.dates.season_of`). A row
holds what the season's table shows: the games in the season, the rating before the first and
after the last of them, the sum of the scores, the first places (and how many were shared: another
seat of the game had the same score), and the player's games in the league up to the season's end,
for the league's provisional rule.

- Recording the league's newest game (:func:`record`) updates one row per seat (an upsert):
  the game is the last of its season for each of its players, and no later season exists. An
  import of games newer than all the league's counts them the same way as it rates them
  (:class:`SeasonTally`), one upsert for the file.
- A replay from a point counts the seasons from the one the point falls in as it re-rates
  (:func:`replaced_from`, then a :class:`SeasonTally` of the games it rates): the part of that
  season before the point is counted by one set-based statement over its results, in the same
  order and with the same places as the reads of :mod:`ratings.selectors.sql`, and the replayed
  games add onto it. Deleting a league's games rebuilds its seasons (:func:`rebuild`) with the
  same statement over whole years; so does the migration that made the rows.

Only the engine calls these, inside its transaction with the league locked. The rows are derived
from the games: a backup leaves them out, and restoring replays every league, which rebuilds
them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from django.db import connection

from ratings.dates import season_of, season_start, seasons_of
from ratings.engine import sql
from ratings.engine.state import GameInput, OrderKey, PlayerState
from ratings.models import Game, League, Result, SeasonStanding
from ratings.systems import SYSTEMS

COLUMNS = [
    *("league_id", "year", "player_id", "games", "career_games", "rating_before", "rating"),
    *("score_sum", "first_places", "shared_first_places"),
]


def _table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def record(
    league: League,
    prepared: GameInput,
    before: Sequence[float],
    after: Sequence[float],
    states: Sequence[PlayerState],
) -> None:
    """Count the league's newest game, rated from ``before`` to ``after``, in its players'
    season (``states``: each seat's state after the game), in one statement."""
    tally = SeasonTally(league)
    tally.add(prepared, before, after, states)
    tally.write()


class SeasonTally:
    """The season rows that games newer than all of the league's seasons add, counted as they
    are rated (:meth:`add`, a game at a time, in order) and written in one upsert per chunk
    (:meth:`write`): an import of a file, and a replay (after :func:`replaced_from`), count their
    seasons in the pass that rates them instead of rebuilding them from the results
    afterwards."""

    def __init__(self, league: League):
        self.league_id = league.pk
        self.best_of = min if league.rating_system.lower_score_is_better else max
        # year -> player -> [games, career games, rating before, rating, score sum, first
        # places, shared first places]
        self.years: dict[int, dict[int, list]] = {}
        self.season_of = seasons_of()
        # The season of the last game added: its bounds and its rows (the next game, in order,
        # is most likely in it). The bounds in UTC, as the engine's times are: comparing two
        # times in one zone looks up no offset, and an import compares a hundred thousand.
        self.season: tuple = (None, None, {})

    def add(
        self,
        prepared: GameInput,
        before: Sequence[float],
        after: Sequence[float],
        states: Sequence[PlayerState],
    ) -> None:
        """Count a game rated from ``before`` to ``after`` (``states``: each seat's state after
        it)."""
        scores = prepared.scores
        best = self.best_of(scores)
        shared = scores.count(best) > 1
        played_at = prepared.played_at
        starts, ends, rows = self.season
        if starts is None or not starts <= played_at < ends:
            year = self.season_of(played_at)
            rows = self.years.setdefault(year, {})
            self.season = (
                season_start(year).astimezone(UTC),
                season_start(year + 1).astimezone(UTC),
                rows,
            )
        for player_id, score, old, new, state in zip(
            prepared.player_ids, scores, before, after, states, strict=True
        ):
            row = rows.get(player_id)
            if row is None:
                first = score == best
                rows[player_id] = [
                    *(1, state.games, float(old), float(new), score),
                    *(int(first), int(first and shared)),
                ]
            else:
                row[0] += 1
                row[1] = state.games
                row[3] = float(new)
                row[4] += score
                if score == best:
                    row[5] += 1
                    row[6] += shared

    def write(self) -> None:
        """Add the counted rows to the league's seasons: a season it has already adds the
        games, scores and places, and takes the newer rating and games count."""
        rows = [
            (self.league_id, year, player_id, *row)
            for year, players in self.years.items()
            for player_id, row in players.items()
        ]
        self.years, self.season = {}, (None, None, {})
        sql.add_rows(
            SeasonStanding,
            COLUMNS,
            rows,
            key=("league_id", "year", "player_id"),
            adds=("games", "score_sum", "first_places", "shared_first_places"),
            takes=("career_games", "rating"),
        )


def replaced_from(league: League, since: OrderKey | None) -> None:
    """Before a replay from ``since`` (every game when None): delete the league's seasons from
    the one ``since`` falls in, and count again the part of that season before ``since`` (the
    games before it in (played_at, id) order), so that a :class:`SeasonTally` of the replayed
    games adds onto it. Its rows keep their rating before the season's first game; the tally
    brings the rating after the last and the games up to the season's end."""
    table = _table(SeasonStanding)
    with connection.cursor() as cursor:
        if since is None:
            cursor.execute(f"DELETE FROM {table} WHERE league_id = %s", [league.pk])
            return
        played_at, game_id = since
        year = season_of(played_at)
        cursor.execute(
            f"DELETE FROM {table} WHERE league_id = %s AND year >= %s", [league.pk, year]
        )
        adapt = connection.ops.adapt_datetimefield_value
        cursor.execute(
            _rebuild_sql(1, league.rating_system.lower_score_is_better, before_game=True),
            [
                *(year, adapt(season_start(year)), adapt(played_at)),
                *(league.pk, game_id, league.pk, year, league.pk),
            ],
        )


def rebuild(league: League, since: datetime | None = None) -> None:
    """Rebuild the league's seasons from the one ``since`` falls in (every season when None)."""
    rebuild_league(league.pk, league.system, None if since is None else season_of(since))


def rebuild_league(league_id: int, system: str, first_year: int | None = None) -> None:
    """Rebuild a league's seasons from ``first_year`` on (all when None), by the league's id and
    its system's code (so a migration can call it too)."""
    table, games = _table(SeasonStanding), _table(Game)
    adapt = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        if first_year is None:
            cursor.execute(f"DELETE FROM {table} WHERE league_id = %s", [league_id])
        else:
            cursor.execute(
                f"DELETE FROM {table} WHERE league_id = %s AND year >= %s", [league_id, first_year]
            )
        # Two seeks in the (league, played_at, id) index.
        span = []
        for direction in ("ASC", "DESC"):
            cursor.execute(
                f"SELECT played_at FROM {games} WHERE league_id = %s"
                f" ORDER BY played_at {direction} LIMIT 1",
                [league_id],
            )
            row = cursor.fetchone()
            if row is None:
                return
            span.append(row[0])
        first, last = (_aware(moment) for moment in span)
        years = range(
            season_of(first) if first_year is None else max(first_year, season_of(first)),
            season_of(last) + 1,
        )
        if not years:
            return
        bounds = [
            value
            for year in years
            for value in (year, adapt(season_start(year)), adapt(season_start(year + 1)))
        ]
        cursor.execute(
            _rebuild_sql(len(years), SYSTEMS[system].lower_score_is_better),
            [*bounds, league_id, league_id, years[0], league_id],
        )


def _aware(moment) -> datetime:
    """A time read by a raw cursor as the ORM reads it (SQLite's is naive, in the connection's
    zone)."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=connection.timezone)


def _rebuild_sql(year_count: int, lower_score_is_better: bool, before_game: bool = False) -> str:
    """The statement that inserts a league's seasons for ``year_count`` years, given each
    year's (year, start, end), then the league's id three times and the first year. With
    ``before_game`` the end is a game's time, and that game's id follows the first league id:
    the year's games up to it, without it and the games at the same time with a higher id.

    Each seat's place by RANK over its game, and the seats that share its score (peers in the
    same window: one sort for both); each player's first and last game of a season by one window
    over their games of the year; the games up to a season's end as those of the seasons before
    the first one rebuilt plus a running sum.
    """
    table, games, results = _table(SeasonStanding), _table(Game), _table(Result)
    key = "r.score" if lower_score_is_better else "-(r.score)"
    before_end = (
        "g.played_at <= y.ends AND (g.played_at < y.ends OR g.id < %s)"
        if before_game
        else "g.played_at < y.ends"
    )
    # The years' bounds in each database's own types (PostgreSQL cannot guess a VALUES column's).
    year_row = (
        "(%s, %s, %s)"
        if connection.vendor == "sqlite"
        else "(CAST(%s AS integer), CAST(%s AS timestamptz), CAST(%s AS timestamptz))"
    )
    return f"""
        INSERT INTO {table} ({", ".join(COLUMNS)})
        WITH years (year, starts, ends) AS (VALUES {", ".join([year_row] * year_count)}),
        seats AS (
            SELECT y.year, r.player_id, r.game_id, g.played_at, r.score, r.rating_before,
                   r.rating_after,
                   RANK() OVER (PARTITION BY r.game_id ORDER BY {key}) AS place,
                   COUNT(*) OVER (
                       PARTITION BY r.game_id ORDER BY {key}
                       RANGE BETWEEN CURRENT ROW AND CURRENT ROW
                   ) AS sharing
            FROM years y
            JOIN {games} g
              ON g.league_id = %s AND g.played_at >= y.starts AND {before_end}
            JOIN {results} r ON r.game_id = g.id
        ),
        numbered AS (
            SELECT seats.*, ROW_NUMBER() OVER w AS n, LEAD(game_id) OVER w AS next_game
            FROM seats
            WINDOW w AS (PARTITION BY year, player_id ORDER BY played_at, game_id)
        ),
        seasons AS (
            SELECT year, player_id,
                   COUNT(*) AS games,
                   MAX(CASE WHEN n = 1 THEN rating_before END) AS rating_before,
                   MAX(CASE WHEN next_game IS NULL THEN rating_after END) AS rating,
                   SUM(score) AS score_sum,
                   SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END) AS first_places,
                   SUM(CASE WHEN place = 1 AND sharing > 1 THEN 1 ELSE 0 END) AS shared
            FROM numbered
            GROUP BY year, player_id
        ),
        earlier AS (
            SELECT player_id, MAX(career_games) AS games
            FROM {table}
            WHERE league_id = %s AND year < %s
            GROUP BY player_id
        )
        SELECT %s, s.year, s.player_id, s.games,
               COALESCE(e.games, 0) + SUM(s.games) OVER (
                   PARTITION BY s.player_id ORDER BY s.year ROWS UNBOUNDED PRECEDING
               ),
               s.rating_before, s.rating, s.score_sum, s.first_places, s.shared
        FROM seasons s
        LEFT JOIN earlier e ON e.player_id = s.player_id
    """
