"""The rating engine: the one place that writes ratings.

Every service here runs in one transaction with the league locked, so two tables submitting at once,
or an admin correcting an old game while a new one comes in, take turns instead of interleaving. The
turns are the league's: every writer first takes its league's data-version row (and the club-wide
one before it when it writes club-wide tables too, new players; :mod:`ratings.versioning`, "Lock
order"), so writes to two leagues do not wait for each other, and a replay holds only its league
(SQLite has one writer at a time anyway). Games are rated in (played_at, id) order, each by the
league's rating system (:mod:`ratings.systems`).

- Recording a game that is the newest of its league rates just that game from the players'
  standings: its cost does not depend on the league's history.
- Anything else (a game dated before the latest, an edit, a deletion, a changed start rating)
  replays the league from the earliest affected game forward; earlier games are untouched, and so
  are other leagues.

The package, one module per seam:

- :mod:`~ratings.engine.validation`: the one validator every game passes;
- :mod:`~ratings.engine.state`: games as rated and players' states, read from the database;
- :mod:`~ratings.engine.games`: record, edit, delete, restore, start ratings;
- :mod:`~ratings.engine.audit`: the audit trail those changes leave (a game's snapshot, the
  entry, the rating corrections);
- :mod:`~ratings.engine.bulk`: many games at once (imports);
- :mod:`~ratings.engine.players`: merging and renaming players;
- :mod:`~ratings.engine.replay`: rating the newest game, replaying from an earlier one;
- :mod:`~ratings.engine.seasons`: the season standings, kept with the games (one row per seat for
  the newest game, the seasons from a replay's start counted again in its pass);
- :mod:`~ratings.engine.writes`: the SQL that writes games, results and standings.

Callers use the names below (``from ratings import engine; engine.game_record(...)``).
"""

from ratings.engine.audit import audit, audit_user, game_snapshot
from ratings.engine.bulk import ImportedGame, ImportSummary, games_import, games_record_many
from ratings.engine.games import (
    SubmissionReused,
    game_delete,
    game_preview,
    game_record,
    game_restore,
    game_update,
    league_lock,
    league_recompute,
    read_snapshot,
    resubmitted,
    standing_set_start_rating,
)
from ratings.engine.players import (
    MergePart,
    merge_part_add,
    merge_refusal,
    player_merge,
    player_rename,
)
from ratings.engine.replay import collection_paused
from ratings.engine.state import Entry, GameInput, PlayerState
from ratings.engine.validation import (
    EARLIEST_YEAR,
    InvalidGame,
    check_births,
    check_played_at,
    prepare_game,
)

__all__ = [
    "EARLIEST_YEAR",
    "Entry",
    "GameInput",
    "ImportSummary",
    "ImportedGame",
    "InvalidGame",
    "MergePart",
    "PlayerState",
    "SubmissionReused",
    "audit",
    "audit_user",
    "check_births",
    "check_played_at",
    "collection_paused",
    "game_delete",
    "game_preview",
    "game_record",
    "game_restore",
    "game_snapshot",
    "game_update",
    "games_import",
    "games_record_many",
    "league_lock",
    "league_recompute",
    "merge_part_add",
    "merge_refusal",
    "player_merge",
    "player_rename",
    "prepare_game",
    "read_snapshot",
    "resubmitted",
    "standing_set_start_rating",
]
