"""The club's data versions: numbers that change in the same transaction as any write.

Two kinds of row hold them. Each league has its own (:class:`ratings.models.LeagueVersion`),
changed by every write to a table whose rows belong to one league: games, results, standings,
events with their rounds, tables and seats, papers and deals, any table whose row leads to a
league through foreign keys that cannot be empty (:func:`league_paths`, found from the models, so
a new table of a league is one without anyone listing it). The papers' tables
(:data:`PAPER_TABLES`) change the row's ``papers`` number, the others its ``number``; a page of
the league is keyed by both, but a paper waiting for its first deal by the ``number`` only (its
players' chances read the league's games; ``Shows.league_papers``): at a club night the other
tables' deals leave it cached. Every other table (players, their
names, members, permissions, the leagues themselves) changes the club-wide row
(:class:`ratings.models.DataVersion`), which every page's key holds: a page is keyed by it and
by the versions of the leagues it shows (:class:`Shows`), so a write in a small league leaves the
big league's pages cached.

Database triggers change the numbers whoever writes: the engine, the event services, the admin,
a restore, a raw ``UPDATE``. On PostgreSQL a league's tables have statement triggers that read
the rows written (``REFERENCING NEW TABLE / OLD TABLE``) and change the version of every league
those rows belong to, before and after an update; on SQLite, row triggers do the same. A row
whose league cannot be found (its game deleted before it, in one transaction) changes the
club-wide number. A bulk write changes each number once (:func:`bulk_write`). A change commits
or rolls back with the write, so a reader that reads the numbers first and the data after never
sees data older than the numbers say. That makes them a safe key for the page cache and the
pages' ETags (:mod:`ratings.page_cache`), all read in one query (:func:`current`).

Players' versions. A league's number changes with every write into it, and a page of the league
must follow it; but a player's page, a head to head, a digital paper and a club night's page show
a few players, and a burst of games into the big league (a tournament's server, a club night's
papers) would draw them all again at each one. So each player has a row in each league
(:class:`ratings.models.PlayerVersion`), made at the pair's first write and changed by the same
kind of triggers (:func:`player_trigger_statements`) in the same transaction as the write:

- a row of a league's table that names a player through foreign keys that cannot be empty (a
  result, a standing, a season, a tally's two, a correction, an event's player, a seat, a bye, a
  paper's three, a deal's through its paper) changes that player's row in the row's league;
- a row with no player but rows below it that name one (a game's results, an event's players,
  seats and byes, a round's, a table's seats: :func:`player_paths`) changes the rows of those
  players: renaming a night moves everyone who sat at it, editing a game its players;
- the papers' tables (:data:`PAPER_TABLES`) change the row's ``papers`` number instead of its
  ``number``: a deal moves the paper and a head to head, not the night's page.

A back-dated game re-rates later games of other players: the replay rewrites their results and
standings, whose triggers move their rows. A player's name, a merge, a league's settings are
club-wide writes, in every key. The pages keyed so (:class:`Shows` with ``players``) read no
other table of a league (``tests/versioning/test_player_versions.py`` checks what they read);
what they show that no version covers is read at every request for the key
(``read_too`` in :mod:`ratings.page_cache`: a player's rank, which other players' games move).
On SQLite a bulk write's quieted triggers leave the rows alone: its end moves every player of its
leagues once. Those rows are written only by writers of their league, so they add no wait between
writers of two leagues.

Seasons' versions. A season page (a league's leaderboard for a whole season) shows one season's
table and, around it, which seasons have games (its tabs), the league's events and its papers in
progress: a row per league and season (:class:`ratings.models.SeasonVersion`) covers the table,
and the league's row of year 0 (the frame) the rest, changed by triggers of the same kind
(:func:`season_trigger_statements`): a season standing's write changes its season's row, and the
frame's too when it makes the season's first rows or deletes its last (a tab comes or goes); a
write to the frame's tables (:data:`SEASON_FRAME_TABLES`: the events with their players and
rounds, the papers and their deals) changes the frame. The season's tabs are read from the season
standings, which the engine keeps with the games in the same transaction, so a season page reads
no game
(``tests/versioning/test_season_versions.py`` checks what it reads): a burst of games into this
season leaves last season's page cached. On SQLite a bulk write's end moves every season of its
leagues once, as it moves their players.

The triggers are (re)installed after every ``migrate`` and ``flush`` (``post_migrate``), for
every table the apps have then, so a new model of any app is covered without a migration of
its own and a table SQLite rebuilds gets its triggers back.
``tests/versioning/test_versioning.py`` fails on any table of the database that is neither
versioned nor listed in :data:`UNVERSIONED`.

Lock order. On PostgreSQL a version row is a lock its writers take, so the writers of one league
queue on its row, and writers of two leagues do not wait for each other; a writer of club-wide
tables queues with every other one on the club-wide row. A transaction takes them in one order:
the club-wide row first if it writes club-wide tables or more than one league (a merge, a
restore), then its leagues' rows, and these before any row of its own (:func:`begin_write`).
Then no two writers can wait for each other in a circle: a writer of one league waits for no
second version row, and the writers of several leagues take turns on the club-wide row. So rows
are locked only through :func:`lock_rows`, which names the leagues and whether the club's tables
are written (``tests/test_architecture.py`` finds any other ``select_for_update``); taking the
club-wide row after a league's, or a second league's without the club-wide one, is refused
(:class:`LockOrderError`). A writer that declares nothing (the admin, a raw statement) takes the
rows as its statements reach them; if that ever closes a circle, PostgreSQL ends one of the two
transactions with an error, never a stale page. SQLite has one writer at a time anyway.

The modules: :mod:`~ratings.versioning.tables` (which tables are versioned, which belong to
leagues, and the statements that change a version row), :mod:`~ratings.versioning.triggers` (the
triggers' SQL on PostgreSQL and SQLite, and :func:`install`), :mod:`~ratings.versioning.locks`
(the writers' locks, :func:`lock_rows`, and :func:`bulk_write`) and
:mod:`~ratings.versioning.reads` (what a page shows, :class:`Shows`, and :func:`current`). Their
public names are all here: callers import them from ``ratings.versioning``.
"""

from ratings.versioning.locks import (
    LockOrderError,
    all_league_ids,
    begin_write,
    bulk_write,
    lock_rows,
    row_triggers_dropped,
)
from ratings.versioning.reads import (
    EVENT_BY_PK,
    EVENT_PLAYERS_BY_PK,
    EVENT_TABLE_BY_PK,
    EVERY_LEAGUE,
    GAME_BY_PK,
    LEAGUE_BY_SLUG,
    PAPER_BY_PK,
    PLAYER_BY_SLUG,
    PLAYERS_A_AND_B,
    SEASON_BY_SLUG,
    Shows,
    Version,
    current,
)
from ratings.versioning.tables import (
    FRAME_YEAR,
    LEAGUE_TABLE,
    LEAGUES,
    PAPER_TABLES,
    PLAYER_TABLE,
    SEASON_FRAME_TABLES,
    SEASON_STANDINGS,
    SEASON_TABLE,
    TABLE,
    UNVERSIONED,
    UnsupportedDatabase,
    league_paths,
    player_paths,
    versioned_tables,
)
from ratings.versioning.triggers import (
    install,
    player_trigger_statements,
    season_tables,
    season_trigger_statements,
    trigger_statements,
)

__all__ = [
    "EVENT_BY_PK",
    "EVENT_PLAYERS_BY_PK",
    "EVENT_TABLE_BY_PK",
    "EVERY_LEAGUE",
    "FRAME_YEAR",
    "GAME_BY_PK",
    "LEAGUES",
    "LEAGUE_BY_SLUG",
    "LEAGUE_TABLE",
    "PAPER_BY_PK",
    "PAPER_TABLES",
    "PLAYERS_A_AND_B",
    "PLAYER_BY_SLUG",
    "PLAYER_TABLE",
    "SEASON_BY_SLUG",
    "SEASON_FRAME_TABLES",
    "SEASON_STANDINGS",
    "SEASON_TABLE",
    "TABLE",
    "UNVERSIONED",
    "LockOrderError",
    "Shows",
    "UnsupportedDatabase",
    "Version",
    "all_league_ids",
    "begin_write",
    "bulk_write",
    "current",
    "install",
    "league_paths",
    "lock_rows",
    "player_paths",
    "player_trigger_statements",
    "row_triggers_dropped",
    "season_tables",
    "season_trigger_statements",
    "trigger_statements",
    "versioned_tables",
]
