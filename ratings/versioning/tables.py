"""Which tables are versioned, and which belong to leagues (see :mod:`ratings.versioning`): the
version tables' names, :data:`UNVERSIONED`, :func:`versioned_tables`, :func:`league_paths`, and the
statements that change a version row, which the triggers and the writers' locks both run."""

from __future__ import annotations

from dataclasses import dataclass

from django.apps import apps
from django.db.models import Field, Model

TABLE = "ratings_dataversion"
LEAGUE_TABLE = "ratings_leagueversion"
LEAGUES = "ratings_league"
PLAYER_TABLE = "ratings_playerversion"
SEASON_TABLE = "ratings_seasonversion"
# The tables no page shows, and why; every other table of every installed app is versioned. A
# table listed here wrongly would leave pages stale; one missing sends every page to be drawn
# again at each of its writes (a session at every login, axes's records at every attempt).
UNVERSIONED = {
    TABLE: "the version itself",
    LEAGUE_TABLE: "the leagues' versions themselves",
    PLAYER_TABLE: "the players' versions themselves",
    SEASON_TABLE: "the seasons' versions themselves",
    "ratings_auditentry": "the audit trail, read in the admin only, whose pages are not cached",
    "ratings_pendingupload": "a rayter file waiting for its uploader's confirmation",
    "django_admin_log": "the admin's history, shown in the admin only",
    "django_session": "written at every login; no page shows a session",
    "axes_accessattempt": "failed logins (django-axes), written at each attempt",
    "axes_accessattemptexpiration": "when a failed login is forgotten (django-axes)",
    "axes_accessfailurelog": "failed logins' log (django-axes)",
    "axes_accesslog": "logins' log (django-axes), written at every login",
    "django_migrations": "migrate's record of what it applied (no model's table)",
    "ratings_apitoken": 'a member\'s API tokens, whose "last used" is written at every call',
    # Written as each task is queued, claimed and finished: what a task changes is versioned.
    "django_tasks_database_dbtaskresult": "the background worker's queue (django-tasks-db)",
    "ratings_invitation": "invitations to join as a player, read in the admin and by their link",
    "ratings_playerclaim": "members' claims of players, read in the admin and on their account",
    "ratings_calendarfeed": "a member's private calendar address, on their own uncached page",
    "ratings_channel": "the leagues' chat channels, read in the admin only",
    "ratings_channelpost": "the chat posts' outbox, written by the worker, read in the admin",
    "ratings_digestsubscription": "a member's digest choice, on their own uncached page",
    "ratings_nightreminder": "the day-before reminders emailed, written by the worker only",
}

# The tables of the digital papers, whose writes change their players' and their league's
# ``papers`` number rather than their ``number`` (ratings.models.PlayerVersion, LeagueVersion):
# at a club night a deal comes every few seconds from some table, and the night's page, its
# players' pages and a paper waiting for its first deal show none of the other tables' deals. A
# page that shows a paper's rows (the paper, a head to head's deals, the leaderboard's papers in
# progress) is keyed by both numbers.
PAPER_TABLES = {"ratings_digitalpaper", "ratings_deal"}

# Seasons' versions (ratings.models.SeasonVersion): the season standings' rows move their season's
# row (and, made or deleted, the frame's: a season's tab comes or goes); the tables the frame of
# a season page shows around its table move the frame's row (year 0): the league's events with
# their players and rounds counted, its papers in progress with their deals counted.
SEASON_STANDINGS = "ratings_seasonstanding"
SEASON_FRAME_TABLES = {
    "ratings_event",
    "ratings_eventplayer",
    "ratings_eventround",
    "ratings_digitalpaper",
    "ratings_deal",
}
FRAME_YEAR = 0

# PostgreSQL: once per transaction (the row remembers the last writer's transaction), so a bulk
# import of thousands of statements bumps the row once, not thousands of times.
BUMP = {
    "postgresql": (
        f"UPDATE {TABLE} SET number = number + 1, txid = txid_current() "
        "WHERE id = 1 AND txid IS DISTINCT FROM txid_current()"
    ),
    "sqlite": f"UPDATE {TABLE} SET number = number + 1 WHERE id = 1",
}
# A league's row holds two numbers: ``number``, which its games, results, standings and events
# change, and ``papers``, which its digital papers and deals change (PAPER_TABLES).
NUMBER, PAPERS = "number", "papers"
TXID = {NUMBER: "txid", PAPERS: "papers_txid"}


def bump_league(number: str = NUMBER) -> str:
    """PostgreSQL: change a league's ``number`` or ``papers`` (``%s``: the league) once per
    transaction."""
    txid = TXID[number]
    return (
        f"UPDATE {LEAGUE_TABLE} SET {number} = {number} + 1, {txid} = txid_current() "
        f"WHERE league_id = %s AND {txid} IS DISTINCT FROM txid_current()"
    )


class UnsupportedDatabase(RuntimeError):
    pass


def bump_sql(vendor: str) -> str:
    try:
        return BUMP[vendor]
    except KeyError:
        raise UnsupportedDatabase(
            f"The club runs on SQLite or PostgreSQL; {vendor} has no data-version triggers."
        ) from None


def versioned_tables() -> list[str]:
    """Every table of every installed app, many-to-many tables included, but
    :data:`UNVERSIONED`: the club's own, and who is logged in with what they may do (a member's
    page shows their name and the links their permissions give)."""
    tables = {model._meta.db_table for model in apps.get_models(include_auto_created=True)}
    return sorted(tables - UNVERSIONED.keys())


def models_by_table() -> dict[str, type[Model]]:
    return {m._meta.db_table: m for m in apps.get_models(include_auto_created=True)}


def _paths(
    model: type[Model], seen: frozenset = frozenset(), to: str = "League"
) -> list[tuple[Field, ...]]:
    """Every chain of foreign keys that cannot be empty from ``model`` to a league (or to the
    ratings model named ``to``)."""
    target_model = apps.get_model("ratings", to)
    if model is target_model:
        return []
    paths = []
    for field in model._meta.concrete_fields:
        if not field.is_relation or not (field.many_to_one or field.one_to_one):
            continue
        target = field.related_model
        if target is target_model and (not field.null or (to != "League" and not seen)):
            # A row's own player may be missing (a waiting game's seat of a new name): the
            # triggers skip the rows without one.
            paths.append((field,))
            continue
        if field.null:
            continue
        if target is target_model:
            paths.append((field,))
        elif target not in seen and target is not model:
            paths += [(field, *rest) for rest in _paths(target, seen | {model}, to)]
    return paths


def _chains(model: type[Model], seen: frozenset = frozenset()) -> list[tuple[Field, ...]]:
    """Every chain of foreign keys that cannot be empty from ``model``, to any model."""
    chains = []
    for field in model._meta.concrete_fields:
        if not field.is_relation or field.null or not (field.many_to_one or field.one_to_one):
            continue
        target = field.related_model
        if target is model or target in seen:
            continue
        chains.append((field,))
        chains += [(field, *rest) for rest in _chains(target, seen | {model})]
    return chains


def league_paths() -> dict[str, list[tuple[Field, ...]]]:
    """The versioned tables whose rows belong to a league, each with the chains of foreign keys
    that lead to it (its own ``league`` column, or through its game, its round, its paper…):
    their writes change the versions of those leagues. Every other versioned table is
    club-wide."""
    models = models_by_table()
    found = {table: _paths(models[table]) for table in versioned_tables()}
    return {table: paths for table, paths in found.items() if paths}


@dataclass(frozen=True)
class PlayerPaths:
    """How the rows of a league's table lead to the players whose versions their writes change
    (see "Players' versions" in :mod:`ratings.versioning`): chains of foreign keys that cannot
    be empty from the row to a player (a result's, a paper's three), and the rows below it that
    name a player (``below``: a game's results, an event's players and seats, a table's seats):
    the players of an event, a game or a table that a player's page shows."""

    forward: list[tuple[Field, ...]]
    # (the table below, its chain of foreign keys up to this row, its player's column)
    below: list[tuple[str, tuple[Field, ...], Field]]


def player_paths() -> dict[str, PlayerPaths]:
    """The tables of :func:`league_paths` whose writes change players' versions in the row's
    league: those with a player (``forward``) or with rows below them that name one
    (``below``). A table with both changes only its own players: a row below that names a player
    is written itself (or deleted before its parent), and changes its own."""
    leagues = league_paths()
    models = models_by_table()
    player = apps.get_model("ratings", "Player")
    named = {
        table: [f for f in models[table]._meta.concrete_fields if f.related_model is player]
        for table in leagues
    }
    found = {}
    for table in leagues:
        forward = _paths(models[table], to="Player")
        below = []
        if not forward:
            for child, fields in named.items():
                for chain in _chains(models[child]):
                    if chain[-1].related_model is models[table]:
                        below += [(child, chain, field) for field in fields]
        if forward or below:
            found[table] = PlayerPaths(forward, below)
    return found
