"""Reads of the players: the directory (a name typed, typos allowed), a player's standings and
rating history (games and corrections), and the opponents of their games."""

from __future__ import annotations

import math
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import islice, repeat
from operator import gt
from typing import overload

from django.db.models import (
    Count,
    Prefetch,
    Q,
    QuerySet,
)
from django.utils import timezone

from ratings.models import AuditEntry, Player, RatingCorrection, Result, Standing
from ratings.names import close_matches, name_keys
from ratings.selectors import sql
from ratings.selectors.leagues import COMPARE_LOOKUP, OPPOSITE_LOOKUP, Status, status_rules

CORRECTION = RatingCorrection._meta.db_table
AUDIT_ENTRY = AuditEntry._meta.db_table

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
                .only(
                    "player_id", "rating", "games", "league__name", "league__slug", "league__system"
                )
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
        rules = status_rules(standing.league, now)
        standing.status = next(
            (
                status
                for field, bound, status, lookup in rules
                if _matches(COMPARE_LOOKUP[lookup], _stored_value(standing, field), bound)
            ),
            Status.RANKED,
        )
        standing.rank = None
        if standing.status == Status.RANKED:
            counts[f"league_{standing.league_id}"] = Count(
                "pk",
                filter=Q(league_id=standing.league_id)
                & standing.league.rating_system.better("rating", standing.rating)
                & Q(
                    *(
                        Q(**{f"{field}__{OPPOSITE_LOOKUP[lookup]}": bound})
                        for field, bound, _s, lookup in rules
                    )
                ),
            )
    if counts:
        leagues = [standing.league_id for standing in standings]
        better = Standing.objects.filter(league_id__in=leagues, games__gt=0).aggregate(**counts)
        for standing in standings:
            if standing.status == Status.RANKED:
                standing.rank = better[f"league_{standing.league_id}"] + 1
    return standings


# Not frozen: a history has thousands of rows, and a frozen dataclass's __init__ (a
# object.__setattr__ per field) costs about ten times a plain one's.
@dataclass(slots=True)
class HistoryRow:
    """One of a player's games, as their history on the player page shows it: ``at``, when it
    was played in seconds since 1970 (a chart needs only the number), and ``played_at`` made
    from it for the rows a page shows."""

    league_id: int
    game_id: int
    at: float
    score: float
    rating_before: float
    rating_after: float
    # The player's place at the table (ratings.selectors.sql).
    place: int

    @property
    def played_at(self) -> datetime:
        return sql.moment_of(self.at)

    @property
    def change(self) -> float:
        return self.rating_after - self.rating_before


class RatingLine(Sequence[HistoryRow]):
    """One player's games in one league, oldest first: a sequence of :class:`HistoryRow`, held
    as columns (``game_ids``, ``times`` in seconds since 1970, ``scores``, ``ratings_before``,
    ``ratings_after``, ``places``: None each where the read left places out). A chart draws its
    line from the columns (:func:`ratings.charts.history_series`), and a row is made only when
    asked for: building thousands of them for a line that keeps a few hundred points would cost
    more than reading them."""

    __slots__ = (
        "game_ids",
        "league_id",
        "places",
        "ratings_after",
        "ratings_before",
        "scores",
        "times",
    )

    def __init__(
        self,
        league_id: int,
        game_ids: Sequence[int],
        times: Sequence[float],
        scores: Sequence[float],
        ratings_before: Sequence[float],
        ratings_after: Sequence[float],
        places: Sequence[int],
    ) -> None:
        self.league_id, self.game_ids, self.times = league_id, game_ids, times
        self.scores, self.ratings_before, self.ratings_after = scores, ratings_before, ratings_after
        self.places = places

    def _columns(self) -> tuple[Sequence, ...]:
        return (
            self.game_ids,
            self.times,
            self.scores,
            self.ratings_before,
            self.ratings_after,
            self.places,
        )

    def __len__(self) -> int:
        return len(self.game_ids)

    @overload
    def __getitem__(self, index: int) -> HistoryRow: ...
    @overload
    def __getitem__(self, index: slice) -> list[HistoryRow]: ...
    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        return HistoryRow(self.league_id, *(column[index] for column in self._columns()))

    def __iter__(self) -> Iterator[HistoryRow]:
        return map(HistoryRow, repeat(self.league_id), *self._columns())

    def __repr__(self) -> str:
        return f"<RatingLine league={self.league_id}: {len(self)} games>"

    def newest_first(self) -> RatingLine:
        """The same games, newest first: each column reversed (a copy made in C), the rows still
        made only when asked for (a table shows a page of fifty)."""
        return RatingLine(self.league_id, *(column[::-1] for column in self._columns()))


def rating_histories(
    players: Iterable[Player], league_ids: Iterable[int] | None = None, *, places: bool = True
) -> dict[tuple[int, int], RatingLine]:
    """Every game of these players, oldest first, by (league id, player id): in the given
    leagues, or in all. One query, for the API's history of a player and head to head's chart.
    ``places=False`` leaves out each game's place (None in the rows), which a chart's line does
    not need.

    Each player's games in a league are one range of the index of their results (player,
    league, played_at, game), read in its order: no game is read, nothing is sorted, whatever
    the size of the club. Plain rows rather than model instances, and SQL rather than the ORM: a
    player with thousands of games needs all of them for the chart, and building that many
    objects, or datetimes, would dominate the page's time; the times are read as numbers
    (:func:`~ratings.selectors.sql.seconds_sql`), the rows turned into columns at once
    (:class:`RatingLine`).
    """
    histories: dict[tuple[int, int], RatingLine] = {}
    player_ids = sorted({player.pk for player in players})
    if not player_ids:
        return histories
    ranges: list[tuple] = [(pid,) for pid in player_ids]
    if league_ids is not None:
        ranges = [(pid, lid) for pid in player_ids for lid in sorted(set(league_ids))]
        if not ranges:
            return histories
    # A row starts with the index of its range, which names its player and league (the league
    # follows when the leagues are not given): a number or two fewer to read than the ids, in
    # each of thousands of rows.
    key_width = 1 if league_ids is not None else 2
    league_column = "" if league_ids is not None else " r.league_id,"
    place_column = ", r.place" if places else ""
    # One SELECT per player (and league), each an ordered range of the index: an IN over the
    # players or leagues would leave the database to sort the rows it finds.
    query = " UNION ALL ".join(
        f"""SELECT * FROM (
            SELECT {index},{league_column} {sql.seconds_sql("r.played_at")}, r.game_id,
                   r.score, r.rating_before, r.rating_after{place_column}
            FROM {sql.RESULT} r
            WHERE r.player_id = %s{" AND r.league_id = %s" if len(key) > 1 else ""}
            ORDER BY r.league_id, r.played_at, r.game_id
        ) p{index}"""
        for index, key in enumerate(ranges)
    )
    rows = sql.sql_rows(query, [value for key in ranges for value in key])
    if not rows:
        return histories
    read = sql.seconds_reader()
    if read is not None:
        rows = [(*row[:key_width], read(row[key_width]), *row[key_width + 1 :]) for row in rows]
    # The rows start with their place in the order wanted (range, league, time, game: unique;
    # the ranges are in player and league order).
    for key, (times, game_ids, *numbers) in _ranges(rows, key_width):
        if not places:
            numbers.append((None,) * len(times))
        player_id, *league = ranges[key[0]]
        league_id = league[0] if league else key[1]
        histories[league_id, player_id] = RatingLine(league_id, game_ids, times, *numbers)
    return histories


def _ranges(rows: list[tuple], key_width: int) -> Iterator[tuple[tuple, list[tuple]]]:
    """Rows that start with their place in the order wanted, split into the ranges their first
    ``key_width`` values name: each range's key and its columns after the key.

    SQL keeps no order of a UNION's parts, but the rows compare as they should come: they are
    checked in one pass and sorted only if a part came out of its turn.
    """
    if any(map(gt, rows, islice(rows, 1, None))):
        rows.sort()
    start = 0
    while start < len(rows):
        key = rows[start][:key_width]
        end = bisect_right(rows, (*key, math.inf), start)
        yield key, list(zip(*rows[start:end], strict=True))[key_width:]
        start = end


def player_history(player: Player) -> dict[int, RatingLine]:
    """Every game the player played, oldest first, by league id (:func:`rating_histories`)."""
    return {league_id: rows for (league_id, _), rows in rating_histories([player]).items()}


@dataclass(frozen=True, slots=True)
class CorrectionRow:
    """A correction that moved the player's rating without a game of theirs (or beside one):
    when, what was done (an :class:`~ratings.models.AuditAction`), the corrected game's time
    (None for a merge), and the rating it left with its change."""

    league_id: int
    at: datetime
    action: str
    game_played_at: datetime | None
    rating: float
    change: float
    game_id: int | None = None  # the corrected game (none for a deletion or a merge)


def player_history_and_corrections(
    player: Player,
) -> tuple[dict[int, RatingLine], dict[int, list[CorrectionRow]]]:
    """Every game the player played (:func:`player_history`) and every correction by staff that
    moved their rating (an edit, deletion, restore or merge), each oldest first, by league id:
    one query for both, the games and the corrections side by side (``UNION ALL``). The games
    are the range of the player's results in the index, as :func:`rating_histories` reads them,
    the times as numbers, turned into columns at once (:class:`RatingLine`)."""
    # Both parts' rows start with their place in the order wanted: games first (0), then
    # corrections (1), each by league, time and id.
    query = f"""
        SELECT * FROM (
            SELECT 0, r.league_id, {sql.seconds_sql("r.played_at")}, r.game_id, r.score,
                   r.rating_before, r.rating_after, r.place, '', CAST(NULL AS DOUBLE PRECISION),
                   CAST(NULL AS BIGINT)
            FROM {sql.RESULT} r
            WHERE r.player_id = %s
            ORDER BY r.league_id, r.played_at, r.game_id
        ) games
        UNION ALL
        SELECT * FROM (
            SELECT 1, c.league_id, {sql.seconds_sql("c.at")}, c.id, c.change,
                   c.rating - c.change, c.rating, 0, c.action,
                   {sql.seconds_sql("c.game_played_at")},
                   CASE WHEN c.action = 'delete' THEN NULL ELSE e.game_id END
            FROM {CORRECTION} c
            LEFT JOIN {AUDIT_ENTRY} e ON e.id = c.entry_id
            WHERE c.player_id = %s
            ORDER BY c.league_id, c.at, c.id
        ) corrections
    """
    rows = sql.sql_rows(query, [player.pk, player.pk])
    read = sql.seconds_reader()
    if read is not None:
        rows = [(*row[:2], read(row[2]), *row[3:]) for row in rows]
    moment = sql.moment_of
    history: dict[int, RatingLine] = {}
    corrections: dict[int, list[CorrectionRow]] = {}
    for (kind, league_id), columns in _ranges(rows, 2):
        times, ids, scores, befores, afters, places, actions, game_times, game_ids = columns
        if kind == 0:
            history[league_id] = RatingLine(league_id, ids, times, scores, befores, afters, places)
        else:
            corrections[league_id] = [
                CorrectionRow(
                    league_id,
                    moment(float(at)),
                    action,
                    None if game_at is None else moment((read or float)(game_at)),
                    after,
                    change,
                    game_id,
                )
                for at, change, after, action, game_at, game_id in zip(
                    times, scores, afters, actions, game_times, game_ids, strict=True
                )
            ]
    return history, corrections


@dataclass(slots=True)
class Opponent:
    """Another player at the table of one of a player's games, as its row names them."""

    name: str
    slug: str


def opponents_by_game(game_ids: Iterable[int], *, player: Player) -> dict[int, list[Opponent]]:
    """The other players of the given games, in seat order, keyed by game id: one query.

    Only the games on the pages being shown are asked for, so the cost does not grow with the
    player's history. Names and slugs only: a link needs no more, and a model instance per
    seat would cost more than the query.
    """
    ids = list(game_ids)
    opponents: dict[int, list[Opponent]] = defaultdict(list)
    if not ids:
        return opponents
    rows = (
        Result.objects.filter(game_id__in=ids)
        .exclude(player=player)
        .order_by("game_id", "seat")
        .values_list("game_id", "player__name", "player__slug")
    )
    for game_id, name, slug in rows:
        opponents[game_id].append(Opponent(name, slug))
    return opponents


def _stored_value(standing: Standing, path: str):
    """A standing's value at a lookup path, as the database reads it: a field, or a key of its
    state slot (``state__sigma``, a system's provisional rule); None where there is none."""
    name, *keys = path.split("__")
    value = getattr(standing, name)
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def _matches(compare, value, bound) -> bool:
    """A comparison as SQL makes it: nothing matches a missing value (NULL)."""
    return value is not None and compare(value, bound)
