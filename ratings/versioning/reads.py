"""Reading the data versions a page is keyed by (see :mod:`ratings.versioning`): the leagues a
page shows (:class:`Shows` and its constants), :class:`Version`, and :func:`current`, one query."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.db import DEFAULT_DB_ALIAS, connections

from ratings.versioning.tables import LEAGUE_TABLE, LEAGUES, PLAYER_TABLE, SEASON_TABLE, TABLE

PLAYERS = "ratings_player"


@dataclass(frozen=True)
class Shows:
    """The leagues a page shows, found from its URL's arguments inside the version query:
    ``sql`` selects their ids from the arguments named ``args``; without ``sql``, every
    league (a page of the whole club: the home page).

    A page of some players (``players``: a condition on their versions' rows ``v``, from the
    arguments named ``player_args``) is keyed by their versions in every league, and by the
    versions of the leagues ``sql`` selects only (none without it); with ``papers``, by their
    papers' numbers too (:data:`~ratings.versioning.tables.PAPER_TABLES`).

    A season page (``season``: the argument that names the year) is keyed by the rows of that
    season and of the frame (year 0) of the one league ``sql`` selects, not by the league's
    number (see "Seasons' versions" in :mod:`ratings.versioning`).

    ``league_papers``: the leagues' papers numbers are in the key too (the default: a page of a
    league may list its papers in progress); False for a page that shows none of the league's
    papers but its players' own."""

    sql: str | None = None
    args: tuple[str, ...] = ()
    players: str | None = None
    player_args: tuple[str, ...] = ()
    papers: bool = False
    season: str | None = None
    league_papers: bool = True

    def params(self, kwargs: dict) -> list:
        return [kwargs[name] for name in self.args]


EVERY_LEAGUE = Shows()
LEAGUE_BY_SLUG = Shows(f"SELECT id FROM {LEAGUES} WHERE slug = %s", ("slug",))
# A league's season page: its season's table and the frame around it.
SEASON_BY_SLUG = Shows(f"SELECT id FROM {LEAGUES} WHERE slug = %s", ("slug",), season="year")
GAME_BY_PK = Shows("SELECT league_id FROM ratings_game WHERE id = %s", ("pk",))
EVENT_BY_PK = Shows("SELECT league_id FROM ratings_event WHERE id = %s", ("pk",))
EVENT_TABLE_BY_PK = Shows(
    "SELECT e.league_id FROM ratings_eventtable t JOIN ratings_eventround r ON r.id = t.round_id "
    "JOIN ratings_event e ON e.id = r.event_id WHERE t.id = %s",
    ("pk",),
)


# A player's page: their versions in every league, and those of everyone seated at the events
# they sat at (an event's place is worked out from every result there). The events are found in
# a subquery of their own ({not_inlined}: see _NOT_INLINED): eight tables joined in one would
# cost PostgreSQL's planner four times the query's execution, at every request.
PLAYER_BY_SLUG = Shows(
    players=(
        f"v.player_id IN (SELECT id FROM {PLAYERS} WHERE slug = %s) OR (v.league_id, v.player_id) "
        "IN (SELECT e.league_id, s2.player_id FROM ratings_tableseat s2 "
        "JOIN ratings_eventtable t2 ON t2.id = s2.table_id "
        "JOIN ratings_eventround r2 ON r2.id = t2.round_id "
        "JOIN ratings_event e ON e.id = r2.event_id "
        "WHERE e.id IN (SELECT r.event_id FROM ratings_tableseat s "
        f"JOIN {PLAYERS} p ON p.id = s.player_id "
        "JOIN ratings_eventtable t ON t.id = s.table_id "
        "JOIN ratings_eventround r ON r.id = t.round_id WHERE p.slug = %s{not_inlined}))"
    ),
    player_args=("slug", "slug"),
)
# Two players head to head: both players' versions in every league, the deals of their papers
# too.
PLAYERS_A_AND_B = Shows(
    players=f"v.player_id IN (SELECT id FROM {PLAYERS} WHERE slug IN (%s, %s))",
    player_args=("a", "b"),
    papers=True,
)
# A digital paper: its three players' versions in its league (its deals are theirs, its game,
# their ratings); before its first deal, its league's number too (the outlook at the start reads
# the league's recent games: ratings.chances), not its papers number (the other tables' deals).
PAPER_BY_PK = Shows(
    "SELECT league_id FROM ratings_digitalpaper dp WHERE dp.id = %s AND dp.finished_at IS NULL "
    "AND NOT EXISTS (SELECT 1 FROM ratings_deal WHERE paper_id = dp.id)",
    ("pk",),
    players=(
        "EXISTS (SELECT 1 FROM ratings_digitalpaper dp WHERE dp.id = %s AND "
        "dp.league_id = v.league_id AND v.player_id IN (dp.player_1_id, dp.player_2_id, "
        "dp.player_3_id))"
    ),
    player_args=("pk",),
    papers=True,
    league_papers=False,
)
# A club night's page: the versions of its players (present, seated or sitting out) in its
# league, changed by its rounds, tables and seats, its games and their results; not by the
# deals of its tables' papers.
EVENT_PLAYERS_BY_PK = Shows(
    players=(
        "v.league_id = (SELECT league_id FROM ratings_event WHERE id = %s) AND v.player_id IN "
        "(SELECT player_id FROM ratings_eventplayer WHERE event_id = %s UNION "
        "SELECT s.player_id FROM ratings_tableseat s JOIN ratings_eventtable t ON t.id = "
        "s.table_id JOIN ratings_eventround r ON r.id = t.round_id WHERE r.event_id = %s UNION "
        "SELECT b.player_id FROM ratings_eventround_byes b JOIN ratings_eventround r ON r.id = "
        "b.eventround_id WHERE r.event_id = %s)"
    ),
    player_args=("pk", "pk", "pk", "pk"),
)


@dataclass(frozen=True)
class Version:
    epoch: str  # new whenever the row is (re)created: a rebuilt database never reuses numbers
    number: int  # the club-wide number
    # (league id, its number[, its papers number]) for each league shown
    leagues: tuple[tuple[int, ...], ...] = ()
    # (league id, player id, their number[, their papers' number]) for each player shown, in
    # each of their leagues
    players: tuple[tuple[int, ...], ...] | None = None
    # (league id, year, its number) for each season row shown (a row not made yet: left out)
    seasons: tuple[tuple[int, int, int], ...] | None = None

    def __str__(self) -> str:
        club = f"{self.epoch}.{self.number}"
        if self.seasons is not None:
            return club + ".s" + ",".join(":".join(map(str, row)) for row in self.seasons)
        if not self.leagues and self.players is None:
            return club
        leagues = ",".join(":".join(map(str, row)) for row in self.leagues)
        if len(self.leagues) > 4:
            leagues = hashlib.sha256(leagues.encode()).hexdigest()[:24]
        if self.players is None:
            return f"{club}.{leagues}"
        players = ",".join(":".join(map(str, row)) for row in self.players)
        if len(self.players) > 4:
            players = hashlib.sha256(players.encode()).hexdigest()[:24]
        return f"{club}.{leagues}.p{players}"

    def _rows(self) -> dict[tuple, tuple[int, ...]]:
        """Each number of the key by what it counts: the club's, each league's, player's (in a
        league) and season's row."""
        rows: dict[tuple, tuple[int, ...]] = {("club",): (self.number,)}
        for league, *numbers in self.leagues:
            rows["league", league] = tuple(numbers)
        for league, player, *numbers in self.players or ():
            rows["player", league, player] = tuple(numbers)
        for league, year, number in self.seasons or ():
            rows["season", league, year] = (number,)
        return rows

    def at_least(self, other: Version) -> bool:
        """Whether these versions count every write ``other`` counts: the same rows (or more:
        a row is made at its first write and never deleted) with each number as high. A page
        drawn at these versions is as fresh as one drawn at ``other`` (numbers only grow, each
        row's in the order its writers commit), so it may answer a request that read ``other``.
        """
        if self.epoch != other.epoch:
            return False
        mine = self._rows()
        return all(
            row in mine
            and len(mine[row]) == len(numbers)
            and all(a >= b for a, b in zip(mine[row], numbers, strict=True))
            for row, numbers in other._rows().items()
        )

    def league(self, league_id: int) -> tuple[int, ...] | None:
        """The league's numbers in the key (its number, then its papers number unless the
        page leaves it out), if the page shows the league."""
        return next((row[1:] for row in self.leagues if row[0] == league_id), None)


# Whether no page may be cached at these versions: a bulk write is under way (SQLite, see
# bulk_write; only its own transaction sees that), or, on PostgreSQL, this connection's own open
# transaction wrote last, and its later writes will not change the number again; or a league
# shown has no row (made again by install()).
_MINE = {
    "postgresql": "COALESCE({0}.txid = txid_current_if_assigned(), FALSE)",
    "sqlite": "FALSE",
}


# What keeps a subquery planned on its own ("{not_inlined}" in a Shows' SQL): PostgreSQL joins a
# subquery into the query around it unless it has an OFFSET; SQLite plans it well either way.
_NOT_INLINED = {"postgresql": " OFFSET 0", "sqlite": ""}


def _mine_either(vendor: str, alias: str) -> str:
    """Whether this transaction wrote either number of the row ``alias`` (a league's or a
    player's: its ``number`` or its ``papers``)."""
    mine = _MINE.get(vendor, _MINE["sqlite"]).format(alias)
    return f"({mine} OR {mine.replace(f'{alias}.txid', f'{alias}.papers_txid')})"


def _read_sql(vendor: str, shows: Shows) -> str:
    mine = _MINE.get(vendor, _MINE["sqlite"])
    leagues = "TRUE" if shows.sql is None else f"lg.id IN ({shows.sql})"
    return (
        f"SELECT d.epoch, d.number, d.bulk OR {mine.format('d')}, lg.id, v.number, v.papers, "
        f"COALESCE(v.bulk OR {_mine_either(vendor, 'v')}, TRUE) "
        f"FROM {TABLE} d LEFT JOIN {LEAGUES} lg ON {leagues} "
        f"LEFT JOIN {LEAGUE_TABLE} v ON v.league_id = lg.id WHERE d.id = 1 ORDER BY lg.id"
    )


def _players_sql(vendor: str, shows: Shows) -> str:
    """The club's number, the rows of the players a page shows and the leagues it shows, in one
    query; untrusted while this transaction wrote a league (SQLite: a bulk write; PostgreSQL:
    any write), or a league shown has no row."""
    mine = _MINE.get(vendor, _MINE["sqlite"])
    sql = (
        f"SELECT 0 AS kind, d.epoch, d.number, d.bulk OR {mine.format('d')} OR EXISTS (SELECT 1 "
        f"FROM {LEAGUE_TABLE} lv WHERE lv.bulk OR {_mine_either(vendor, 'lv')}), v.league_id, "
        f"v.player_id, v.number, {_mine_either(vendor, 'v')}, v.papers "
        f"FROM {TABLE} d LEFT JOIN {PLAYER_TABLE} v ON "
        f"({shows.players.replace('{not_inlined}', _NOT_INLINED.get(vendor, ''))}) WHERE d.id = 1"
    )
    if shows.sql is not None:
        sql += (
            f" UNION ALL SELECT 1, NULL, NULL, FALSE, lg.id, NULL, v.number, "
            f"COALESCE(v.bulk OR {_mine_either(vendor, 'v')}, TRUE), v.papers FROM {LEAGUES} lg "
            f"LEFT JOIN {LEAGUE_TABLE} v ON v.league_id = lg.id WHERE lg.id IN ({shows.sql})"
        )
    return f"{sql} ORDER BY 1, 5, 6"


def _season_sql(vendor: str, shows: Shows) -> str:
    """The club's number and the rows of one league's season and frame, in one query; untrusted
    while this transaction wrote them or the league (a bulk write on SQLite), or the league has
    no row."""
    mine = _MINE.get(vendor, _MINE["sqlite"])
    return (
        f"SELECT d.epoch, d.number, d.bulk OR {mine.format('d')} OR COALESCE(lv.bulk OR "
        f"{_mine_either(vendor, 'lv')}, TRUE), lg.id, s.year, s.number, {mine.format('s')} "
        f"FROM {TABLE} d LEFT JOIN {LEAGUES} lg ON lg.id IN ({shows.sql}) "
        f"LEFT JOIN {LEAGUE_TABLE} lv ON lv.league_id = lg.id "
        f"LEFT JOIN {SEASON_TABLE} s ON s.league_id = lg.id AND s.year IN (0, %s) "
        "WHERE d.id = 1 ORDER BY s.year"
    )


def _with_season(shows: Shows, kwargs: dict, params: list, using: str) -> Version | None:
    connection = connections[using]
    with connection.cursor() as cursor:
        cursor.execute(_season_sql(connection.vendor, shows), [*params, kwargs[shows.season]])
        rows = cursor.fetchall()
    if not rows or rows[0][3] is None or len({row[3] for row in rows}) > 1:
        return None  # no such league (the view answers 404), or more than one
    if rows[0][2] or any(row[6] for row in rows if row[4] is not None):
        return None
    seasons = tuple((int(row[3]), int(row[4]), int(row[5])) for row in rows if row[4] is not None)
    return Version(str(rows[0][0]), int(rows[0][1]), seasons=seasons)


def _with_players(shows: Shows, kwargs: dict, params: list, using: str) -> Version | None:
    connection = connections[using]
    with connection.cursor() as cursor:
        cursor.execute(
            _players_sql(connection.vendor, shows),
            [*(kwargs[name] for name in shows.player_args), *params],
        )
        rows = cursor.fetchall()
    if not rows or rows[0][0] != 0 or rows[0][3] or any(row[7] for row in rows):
        return None
    players = tuple(
        (int(row[4]), int(row[5]), int(row[6]), *((int(row[8]),) if shows.papers else ()))
        for row in rows
        if row[0] == 0 and row[4] is not None
    )
    leagues = tuple(
        (int(row[4]), int(row[6]), *((int(row[8]),) if shows.league_papers else ()))
        for row in rows
        if row[0] == 1
    )
    return Version(str(rows[0][1]), int(rows[0][2]), leagues, players)


def current(
    shows: Shows = EVERY_LEAGUE, kwargs: dict | None = None, using: str = DEFAULT_DB_ALIAS
) -> Version | None:
    """The versions of the club and of the leagues a page ``shows`` (from its URL's
    ``kwargs``) as committed now; None if there is none to trust: a row is missing, this
    connection's transaction is writing (its own changes are not committed yet), or a page of
    some leagues finds none.

    One query, read before the page's own: whatever the page reads after it is at least this
    fresh. A read-only request is assigned no transaction id, so asking costs none.
    """
    params = shows.params(kwargs or {})
    asked = [*params, *((kwargs or {})[name] for name in shows.player_args)]
    if shows.season is not None:
        asked.append((kwargs or {})[shows.season])
    if any(isinstance(value, int) and not -(2**63) <= value < 2**63 for value in asked):
        return None  # an id no database holds (a hostile address): the view answers 404
    if shows.players is not None:
        return _with_players(shows, kwargs or {}, params, using)
    if shows.season is not None:
        return _with_season(shows, kwargs or {}, params, using)
    connection = connections[using]
    with connection.cursor() as cursor:
        cursor.execute(_read_sql(connection.vendor, shows), params)
        rows = cursor.fetchall()
    if not rows or rows[0][2]:
        return None
    epoch, number = str(rows[0][0]), int(rows[0][1])
    if rows[0][3] is None:  # no league
        return Version(epoch, number) if shows.sql is None else None
    if any(untrusted for *_club, untrusted in rows):
        return None
    leagues = tuple(
        (int(row[3]), int(row[4]), *((int(row[5]),) if shows.league_papers else ())) for row in rows
    )
    return Version(epoch, number, leagues)
