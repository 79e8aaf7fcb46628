"""Reads of a league's seasons: its years with games, and its standings over a period."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import connection
from django.db.models import (
    OuterRef,
    QuerySet,
    Subquery,
    TextChoices,
)
from django.utils.translation import gettext_lazy as _

from ratings.dates import season_of, season_start
from ratings.models import League, SeasonStanding
from ratings.selectors import sql
from ratings.selectors.leagues import Status
from ratings.selectors.statistics import FirstPlaces


class SeasonOrder(TextChoices):
    """What a season table ranks by, in the league's direction."""

    RATING = "rating", _("rating")
    CHANGE = "change", _("rating change")


def leagues_with_seasons() -> QuerySet[League]:
    """Leagues with ``first_season`` and ``last_season`` (None without games): two seeks in the
    season standings' (league, year, player) index, in the league's own query."""
    seasons = SeasonStanding.objects.filter(league=OuterRef("pk"))
    return League.objects.annotate(
        first_season=Subquery(seasons.order_by("year").values("year")[:1]),
        last_season=Subquery(seasons.order_by("-year").values("year")[:1]),
    )


def league_years(league: League) -> list[int]:
    """The seasons (years in the club's time zone) in which a league (from
    :func:`leagues_with_seasons`) has games, oldest first: those with season standings, which
    the engine keeps with the games (a season page is keyed by them, not by the games: see
    "Seasons' versions" in :mod:`ratings.versioning`). One query, an index seek for each year
    from the first season to the last (a DISTINCT over the years would read every row), written
    as SQL: the ORM would compile a subquery per year at every drawing of the leaderboard."""
    if league.first_season is None:
        return []
    years = range(league.first_season, league.last_season + 1)
    table = SeasonStanding._meta.db_table
    seek = f"SELECT %s WHERE EXISTS (SELECT 1 FROM {table} WHERE league_id = %s AND year = %s)"
    with connection.cursor() as cursor:
        cursor.execute(
            " UNION ALL ".join([seek] * len(years)),
            [value for year in years for value in (year, league.pk, year)],
        )
        found = {year for (year,) in cursor.fetchall()}
    return [year for year in years if year in found]


@dataclass(frozen=True, slots=True)
class SeasonRow(FirstPlaces):
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
    first places (see :mod:`ratings.selectors.sql` for places), ranked by ``by`` in the
    league's direction (equal values share a rank). Optionally only players with ``min_games`` or
    more.

    The league's provisional rule holds as on the leaderboard, applied to each player's games
    in the league up to the period's end (before it as well as in it): a player with fewer is
    provisional, listed after the ranked players with a rank among the provisional ones only.

    Ratings are continuous: a season is a view of the league's one history, not a reset. A
    whole season (a calendar year in the club's time zone) is read from the season standings
    the engine keeps, one row per player; any other period from the results
    (:func:`period_standings`). Both are one query and give the same rows.
    """
    season = _whole_season(start, end)
    if season is not None:
        return _season_rows(league, season, by=by, min_games=min_games)
    return period_standings(league, start, end, by=by, min_games=min_games)


def period_standings(
    league: League,
    start: datetime | None,
    end: datetime | None,
    *,
    by: str = SeasonOrder.RATING,
    min_games: int | None = None,
) -> list[SeasonRow]:
    """:func:`season_standings` for any period, read from the league's results: one query, in
    SQL for the window functions (each player's first and last game of the period; places are
    stored on the results) that the ORM cannot aggregate over (grouped, the ORM's correlated
    subqueries per player would run once per result row)."""
    conditions, params = ["g.league_id = %s"], [league.pk]
    for bound, operator in ((start, ">="), (end, "<")):
        if bound is not None:
            conditions.append(f"g.played_at {operator} %s")
            params.append(connection.ops.adapt_datetimefield_value(bound))
    direction = "ASC" if league.lower_is_better else "DESC"
    ranked_by = "rating - rating_before" if by == SeasonOrder.CHANGE else "rating"
    # The provisional rule counts every game of the league up to the period's end.
    career_conditions, career_params = ["g.league_id = %s"], [league.pk]
    if end is not None:
        career_conditions.append("g.played_at < %s")
        career_params.append(connection.ops.adapt_datetimefield_value(end))
    # Each seat's place as the engine stored it; one window per player: ROW_NUMBER finds their
    # first game of the period and LEAD (no next game) their last, in one sort; ties are looked
    # up only for first places.
    query = f"""
        WITH seats AS (
            SELECT r.player_id, r.game_id, g.played_at, r.score, r.rating_before,
                   r.rating_after, r.place
            FROM {sql.GAME} g
            JOIN {sql.RESULT} r ON r.game_id = g.id
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
                   SUM({sql.shared_first_sql("numbered")}) AS shared
            FROM numbered
            GROUP BY player_id
            HAVING COUNT(*) >= %s
        ),
        career AS (
            SELECT r.player_id, COUNT(*) AS career_games
            FROM {sql.GAME} g
            JOIN {sql.RESULT} r ON r.game_id = g.id
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
        JOIN {sql.PLAYER} p ON p.id = statused.player_id
        ORDER BY status, rank, p.name, p.id
    """
    rows = sql.sql_rows(query, [*params, min_games or 1, *career_params, league.provisional_until])
    return _rows(rows)


def _whole_season(start: datetime | None, end: datetime | None) -> int | None:
    """The season (year) a period is, when it is a whole one; else None."""
    if start is None or end is None:
        return None
    year = season_of(start)
    if start == season_start(year) and end == season_start(year + 1):
        return year
    return None


def _season_rows(league: League, year: int, *, by: str, min_games: int | None) -> list[SeasonRow]:
    """A whole season's table from the league's season standings (kept by the engine,
    :mod:`ratings.engine.seasons`): one row per player of the season, the same rows in the same
    order as the period's query over every result of the year gives."""
    direction = "ASC" if league.lower_is_better else "DESC"
    ranked_by = "rating - rating_before" if by == SeasonOrder.CHANGE else "rating"
    query = f"""
        WITH statused AS (
            SELECT s.*,
                   CASE WHEN s.career_games < %s THEN {Status.PROVISIONAL}
                        ELSE {Status.RANKED} END AS status
            FROM {sql.SEASON_STANDING} s
            WHERE s.league_id = %s AND s.year = %s AND s.games >= %s
        )
        SELECT RANK() OVER (PARTITION BY status ORDER BY {ranked_by} {direction}) AS rank,
               statused.player_id, p.name, p.slug, games, rating, rating - rating_before,
               score_sum / games, first_places, shared_first_places, status
        FROM statused
        JOIN {sql.PLAYER} p ON p.id = statused.player_id
        ORDER BY status, rank, p.name, p.id
    """
    return _rows(sql.sql_rows(query, [league.provisional_until, league.pk, year, min_games or 1]))


def _rows(rows: list[tuple]) -> list[SeasonRow]:
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
