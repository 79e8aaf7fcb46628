"""Each player's record against each opponent in a league, kept current (:class:`OpponentTally`),
so the player page's "met most often" reads the player's own rows instead of looking up the other
seats of every game they played.

A pair of players has one row, the smaller id first (``player``, then ``opponent``). A game adds
to the row of every pair of its seats: one game together, and whether the first finished ahead
of, level with or behind the second (their places, which the results hold); the second's record
is the same row with ahead and behind swapped. What a game adds follows from its seats alone,
never from ratings, so a replay leaves the tallies as they are, and every change is a game's
seats coming or going:

- a game's results written (recorded, edited, restored) count it in (:func:`count`), and
  before they are deleted (an edit, a deletion) count it out (``sign=-1``): one statement each,
  whatever the league's size; an import counts its games in Python as it writes them
  (:class:`NewGames`) and adds the counts onto the tallies at the end;
- a merge moves the merged player's rows onto the player they become (:func:`merge`): two
  players who sat at one table are never merged, so rows only add up;
- a league's places worked out again (a change of system, a restore, whose file holds no
  tallies) count the league again from its results (:func:`rebuild`); a league's games all
  deleted before an import replaces them take its rows with them (:func:`forget`).

Only the engine calls these, inside its transaction with the league locked, as for the seasons.
The counts are the same SQL on SQLite and PostgreSQL (an upsert that adds), but for an import's,
counted in Python (:class:`NewGames`); the tests check both against the same rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

from django.db import connection
from django.db.models import Q

from ratings.models import League, OpponentTally, Result
from ratings.selectors.sql import opponent_records_sql

COLUMNS = ["league_id", "player_id", "opponent_id", "games", "ahead", "level", "behind"]
# A pair's row: its primary key, what an upsert of counts finds its row by.
KEY = ("player_id", "league_id", "opponent_id")
COUNTS = ("games", "ahead", "level", "behind")
# Pairs NewGames gathers before it counts them.
PAIRS_AT_ONCE = 100_000


def _table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _pairs(where: str) -> str:
    """Every pair of seats of the results ``a`` that ``where`` selects, the smaller player id
    first, summed per league and pair, with the tally's column names."""
    return f"""
        SELECT a.league_id AS league_id, a.player_id AS player_id, b.player_id AS opponent_id,
               COUNT(*) AS games,
               SUM(CASE WHEN a.place < b.place THEN 1 ELSE 0 END) AS ahead,
               SUM(CASE WHEN a.place = b.place THEN 1 ELSE 0 END) AS level,
               SUM(CASE WHEN a.place > b.place THEN 1 ELSE 0 END) AS behind
        FROM {_table(Result)} a
        JOIN {_table(Result)} b ON b.game_id = a.game_id AND b.player_id > a.player_id
        WHERE {where}
        GROUP BY a.league_id, a.player_id, b.player_id
    """


def _upsert(select: str, params: list) -> None:
    table = _table(OpponentTally)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({', '.join(COLUMNS)}) {select} "
            f"ON CONFLICT ({', '.join(KEY)}) DO UPDATE SET "
            + ", ".join(f"{column} = {table}.{column} + excluded.{column}" for column in COUNTS),
            params,
        )


def count(league: League, game_ids: Iterable[int], *, sign: int = 1) -> None:
    """Count these games of ``league``, whose results are written, into its tallies (``sign=-1``:
    out of them, before their results are deleted: rows left at no games go)."""
    game_ids = sorted(set(game_ids))
    if not game_ids:
        return
    marks = ", ".join(["%s"] * len(game_ids))
    pairs = _pairs(f"a.game_id IN ({marks}) AND a.league_id = %s")
    if sign > 0:
        _upsert(pairs, [*game_ids, league.pk])
        return
    # An update, not an upsert of negative counts: the counts' CHECK (never below zero) is
    # checked on the row an upsert proposes, before it finds the row to add to.
    table = _table(OpponentTally)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET "
            + ", ".join(f"{column} = {table}.{column} - d.{column}" for column in COUNTS)
            + f" FROM ({pairs}) d WHERE {table}.player_id = d.player_id "
            f"AND {table}.league_id = d.league_id AND {table}.opponent_id = d.opponent_id",
            [*game_ids, league.pk],
        )
        cursor.execute(
            f"DELETE FROM {table} WHERE games = 0 AND league_id = %s "
            f"AND player_id IN (SELECT player_id FROM {_table(Result)} "
            f"WHERE game_id IN ({marks}))",
            [league.pk, *game_ids],
        )


class NewGames:
    """The tallies an import's new games add, counted as the engine writes the games
    (:meth:`add`; on PostgreSQL while the database stores them) and written at the end
    (:meth:`rows`; the engine's bulk path adds them to the tallies): the self-join of the
    results that :func:`count` runs costs the database more, on a file's hundred thousand
    games, than these counts cost Python, and SQLite runs in the import's own process.

    The rule is the one above: a game adds one to every pair of its seats, and marks one ahead
    of the other when its place is better. Each pair of a game is counted once, as it stands:
    the better placed first when one is ahead, else (level) the smaller id first. The rest
    follows: a pair's games together are its games ahead either way round and level, and one's
    ahead the other's behind. Counting each pair of a game once, not its games together as
    well, halves the dictionary updates, which are most of the cost."""

    def __init__(self, league: League):
        self.league_id = league.pk
        # (player, opponent) -> games the player finished ahead of the opponent.
        self.ahead: Counter[tuple[int, int]] = Counter()
        # (player, opponent) -> games level, the player's id the smaller.
        self.level: Counter[tuple[int, int]] = Counter()
        # The pairs of the games added since the last count: gathered a game at a time by
        # list.extend, counted many games at a time by Counter.update (both loops in C).
        self._ahead: list[tuple[int, int]] = []
        self._level: list[tuple[int, int]] = []

    def add(self, player_ids: Sequence[int], places: Sequence[int]) -> None:
        """Count a game: its seats' players and places (1 the best)."""
        if len(player_ids) == 2:
            # The one pair of a game for two (a file's every game, in the shape where this
            # counting weighs most), ordered without sorting the seats: the same order.
            (first, second), (at, then) = player_ids, places
            if at < then:
                self._ahead.append((first, second))
            elif then < at:
                self._ahead.append((second, first))
            else:
                self._level.append((first, second) if first < second else (second, first))
            if len(self._ahead) >= PAIRS_AT_ONCE:
                self._count()
            return
        # By place, then by id: a level pair comes smaller id first.
        by_place = sorted(zip(places, player_ids, strict=True))
        if len(set(places)) == len(places):
            self._ahead.extend(combinations([player for _place, player in by_place], 2))
        else:
            for (at, first), (then, second) in combinations(by_place, 2):
                (self._ahead if at < then else self._level).append((first, second))
        if len(self._ahead) >= PAIRS_AT_ONCE:
            self._count()

    def _count(self) -> None:
        self.ahead.update(self._ahead)
        self.level.update(self._level)
        self._ahead.clear()
        self._level.clear()

    def rows(self) -> list[tuple]:
        """The counts as rows of :data:`COLUMNS`, a row a pair, in the order of the tallies'
        primary key (which then takes them one after the other)."""
        self._count()
        ahead, league_id = self.ahead, self.league_id
        level = dict(self.level)  # emptied of the pairs that were also ahead either way round
        rows = []
        append = rows.append
        for (player, opponent), won in ahead.items():
            if player > opponent:
                if (opponent, player) in ahead:
                    continue  # the pair's row comes with it the other way round
                player, opponent, won, lost = opponent, player, 0, won
            else:
                lost = ahead.get((opponent, player), 0)
            even = level.pop((player, opponent), 0)
            append((league_id, player, opponent, won + lost + even, won, even, lost))
        for (player, opponent), even in level.items():
            append((league_id, player, opponent, even, 0, even, 0))
        rows.sort()
        return rows


def merge(source_id: int, target_id: int) -> None:
    """Move ``source``'s rows, from either side, onto ``target``, whom they never met: each
    pair with ``target`` in ``source``'s place, put in order again (ahead and behind swapped
    when ``target`` and the other player change places)."""
    # The first value when target comes first in the pair, else the second.
    target_first = "CASE WHEN %s < opponent_id THEN {} ELSE {} END".format
    _upsert(
        f"SELECT league_id, {target_first('%s', 'opponent_id')}, "
        f"{target_first('opponent_id', '%s')}, games, {target_first('ahead', 'behind')}, level, "
        f"{target_first('behind', 'ahead')} "
        # Source's record against each other player. WHERE: SQLite reads ON CONFLICT after a
        # bare FROM as a join's.
        f"FROM ({opponent_records_sql()}) mine WHERE true",
        [*(target_id,) * 6, source_id, source_id],
    )
    OpponentTally.objects.filter(Q(player_id=source_id) | Q(opponent_id=source_id)).delete()


def forget(league: League) -> None:
    """Delete the league's tallies (its games are being deleted)."""
    OpponentTally.objects.filter(league=league).delete()


def rebuild(league: League) -> None:
    """Count the league's tallies again from all its results."""
    forget(league)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {_table(OpponentTally)} ({', '.join(COLUMNS)}) "
            + _pairs("a.league_id = %s"),
            [league.pk],
        )
