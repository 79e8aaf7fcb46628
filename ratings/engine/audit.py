"""The audit trail of the engine's changes: a game as plain data (the snapshot an edit or a
deletion keeps, and a restore reads back), a league's games snapshotted in bulk before an
import replaces them, and the entry each change leaves, with the rating corrections a re-rating
made. Only the engine's services write here, inside their transaction."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from operator import itemgetter

from django.db import connection
from django.utils import timezone

from ratings.engine import sql
from ratings.engine.replay import Rerated
from ratings.models import AuditAction, AuditEntry, Game, League, RatingCorrection, Result

# The columns a snapshot reads: a game's own, and each of its results' in seat order.
_GAME_COLUMNS = ("pk", "played_at", "bula", "ended_early", "note", "entered_by_id", "created_at")
_RESULT_COLUMNS = ("player_id", "player__name", "seat", "left", "middle", "right", "score")
# Deleted games' snapshots written per INSERT when a whole league's games are deleted at once.
SNAPSHOT_BATCH = 1000


def _snapshot(game_row: Sequence, result_rows: Iterable[Sequence]) -> dict:
    """A game as plain data, from its row (:data:`_GAME_COLUMNS`) and its results' rows
    (:data:`_RESULT_COLUMNS`, in seat order): the one format of the audit trail."""
    game_id, played_at, bula, ended_early, note, entered_by_id, created_at = game_row
    return {
        "id": game_id,
        "played_at": played_at.isoformat(),
        "bula": bula,
        "ended_early": ended_early,
        "note": note,
        "entered_by_id": entered_by_id,
        # When it was entered: a restored game keeps it (the game page's "Entered").
        "created_at": created_at.isoformat(),
        "results": [
            {
                "player_id": player_id,
                "player": name,
                "seat": seat,
                "paper": None if middle is None else [left, middle, right],
                "score": score,
            }
            for player_id, name, seat, left, middle, right, score in result_rows
        ],
    }


def game_snapshot(game: Game) -> dict:
    """A game as plain data, for the audit trail and for restoring a deleted game."""
    results = game.results.order_by("seat").values_list(*_RESULT_COLUMNS)
    return _snapshot([getattr(game, column) for column in _GAME_COLUMNS], results)


def league_snapshots(league: League) -> Iterator[dict]:
    """Every game of the league as :func:`game_snapshot` gives it, in id order, from two queries
    read side by side (a league of 100,000 games is never held in memory at once)."""
    games = (
        Game.objects.filter(league=league)
        .order_by("pk")
        .values_list(*_GAME_COLUMNS)
        .iterator(chunk_size=SNAPSHOT_BATCH)
    )
    results = (
        Result.objects.filter(game__league=league)
        .order_by("game_id", "seat")
        .values_list("game_id", *_RESULT_COLUMNS)
        .iterator(chunk_size=SNAPSHOT_BATCH * 4)
    )
    by_game = itertools.groupby(results, key=itemgetter(0))
    waiting = next(by_game, None)
    for game_row in games:
        while waiting is not None and waiting[0] < game_row[0]:
            waiting = next(by_game, None)  # results of no listed game: none in practice
        rows: list = []
        if waiting is not None and waiting[0] == game_row[0]:
            rows = [row[1:] for row in waiting[1]]
            waiting = next(by_game, None)
        yield _snapshot(game_row, rows)


def audit_league_deletion(league: League, actor) -> int:
    """Before every game of a locked league is deleted at once (an import's replace): one
    deletion entry per game, with the snapshot a single deletion keeps, so "Restore deleted
    game" brings any of them back. Returns the number of games.

    Two reads and a multi-row INSERT per batch, through the engine's write layer: model
    instances and ``bulk_create`` cost more than the rest of the replace at 100,000 games.
    """
    user = audit_user(actor)
    adapt_json = connection.ops.adapt_json_value
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    columns = ["at", "action", "league_id", "user_id", "game_id", "before"]
    count = 0
    snapshots = league_snapshots(league)
    while batch := list(itertools.islice(snapshots, SNAPSHOT_BATCH)):
        sql.insert(
            AuditEntry,
            columns,
            [
                (
                    now,
                    AuditAction.DELETE.value,
                    league.pk,
                    user.pk if user else None,
                    snapshot["id"],
                    adapt_json(snapshot, None),
                )
                for snapshot in batch
            ],
        )
        count += len(batch)
    return count


def audit_user(actor):
    """The member to name as who did something (the audit trail, who entered a game or a deal,
    who started a paper): None for commands and anonymous callers. The one rule of it."""
    return actor if actor is not None and getattr(actor, "is_authenticated", False) else None


def audit(
    action,
    league,
    actor,
    *,
    game=None,
    game_id=None,
    player=None,
    before=None,
    after=None,
    rerated: Rerated | None = None,
    corrected: datetime | None = None,
) -> AuditEntry:
    """Write the audit entry of a change; for a correction that re-rated the league
    (``rerated``), with the number of games and, per player whose rating it moved, a
    :class:`RatingCorrection` (``corrected``: the corrected game's time, None for a merge)."""
    entry = AuditEntry.objects.create(
        action=action,
        # A league, or its id (an event's writes know only the id).
        league_id=getattr(league, "pk", league),
        user=audit_user(actor),
        game_id=game_id if game_id is not None else (game.pk if game else None),
        player=player,
        before=before,
        after=after,
        rerated_games=None if rerated is None else rerated.games,
    )
    if rerated is not None and rerated.moved:
        RatingCorrection.objects.bulk_create(
            RatingCorrection(
                entry=entry,
                league=league,
                player_id=player_id,
                at=entry.at,
                action=action,
                game_played_at=corrected,
                change=change,
                rating=rating,
            )
            for player_id, (rating, change) in sorted(rerated.moved.items())
        )
    return entry
