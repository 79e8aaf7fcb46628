"""Reading the data versions a page is keyed by (see :mod:`ratings.versioning`): the leagues a
page shows (:class:`Shows` and its constants), :class:`Version`, and :func:`current`, one query."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.db import DEFAULT_DB_ALIAS, connections

from ratings.versioning.tables import LEAGUE_TABLE, LEAGUES, TABLE


@dataclass(frozen=True)
class Shows:
    """The leagues a page shows, found from its URL's arguments inside the version query:
    ``sql`` selects their ids from the arguments named ``args``; without ``sql``, every
    league (a page of the whole club: the home page, a player's)."""

    sql: str | None = None
    args: tuple[str, ...] = ()

    def params(self, kwargs: dict) -> list:
        return [kwargs[name] for name in self.args]


EVERY_LEAGUE = Shows()
LEAGUE_BY_SLUG = Shows(f"SELECT id FROM {LEAGUES} WHERE slug = %s", ("slug",))
GAME_BY_PK = Shows("SELECT league_id FROM ratings_game WHERE id = %s", ("pk",))
EVENT_BY_PK = Shows("SELECT league_id FROM ratings_event WHERE id = %s", ("pk",))
EVENT_TABLE_BY_PK = Shows(
    "SELECT e.league_id FROM ratings_eventtable t JOIN ratings_eventround r ON r.id = t.round_id "
    "JOIN ratings_event e ON e.id = r.event_id WHERE t.id = %s",
    ("pk",),
)


@dataclass(frozen=True)
class Version:
    epoch: str  # new whenever the row is (re)created: a rebuilt database never reuses numbers
    number: int  # the club-wide number
    leagues: tuple[tuple[int, int], ...] = ()  # (league id, its number) for each league shown

    def __str__(self) -> str:
        club = f"{self.epoch}.{self.number}"
        if not self.leagues:
            return club
        leagues = ",".join(f"{league}:{number}" for league, number in self.leagues)
        if len(self.leagues) > 4:
            leagues = hashlib.sha256(leagues.encode()).hexdigest()[:24]
        return f"{club}.{leagues}"

    def league(self, league_id: int) -> int | None:
        return dict(self.leagues).get(league_id)


# Whether no page may be cached at these versions: a bulk write is under way (SQLite, see
# bulk_write; only its own transaction sees that), or, on PostgreSQL, this connection's own open
# transaction wrote last, and its later writes will not change the number again; or a league
# shown has no row (made again by install()).
_MINE = {
    "postgresql": "COALESCE({0}.txid = txid_current_if_assigned(), FALSE)",
    "sqlite": "FALSE",
}


def _read_sql(vendor: str, shows: Shows) -> str:
    mine = _MINE.get(vendor, _MINE["sqlite"])
    leagues = "TRUE" if shows.sql is None else f"lg.id IN ({shows.sql})"
    return (
        f"SELECT d.epoch, d.number, d.bulk OR {mine.format('d')}, lg.id, v.number, "
        f"COALESCE(v.bulk OR {mine.format('v')}, TRUE) "
        f"FROM {TABLE} d LEFT JOIN {LEAGUES} lg ON {leagues} "
        f"LEFT JOIN {LEAGUE_TABLE} v ON v.league_id = lg.id WHERE d.id = 1 ORDER BY lg.id"
    )


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
    if any(isinstance(value, int) and not -(2**63) <= value < 2**63 for value in params):
        return None  # an id no database holds (a hostile address): the view answers 404
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
    return Version(epoch, number, tuple((int(row[3]), int(row[4])) for row in rows))
