"""A restored game keeps the moment it was entered (the game page's "Entered"), not the
restore's."""

from datetime import UTC, datetime

import pytest

from ratings import engine
from ratings.models import AuditAction, AuditEntry, Game

pytestmark = pytest.mark.django_db

ENTERED = datetime(2026, 3, 12, 22, 5, tzinfo=UTC)


def deleted(game) -> AuditEntry:
    Game.objects.filter(pk=game.pk).update(created_at=ENTERED)
    engine.game_delete(game=Game.objects.get(pk=game.pk))
    return AuditEntry.objects.get(action=AuditAction.DELETE, game_id=game.pk)


def test_a_restored_game_keeps_its_entered_time(worked_example_game):
    restored = engine.game_restore(entry=deleted(worked_example_game))

    assert restored.created_at == ENTERED
    assert Game.objects.get(pk=restored.pk).created_at == ENTERED


def test_a_deletion_audited_before_snapshots_kept_it_finds_it_in_the_creation(
    worked_example_game,
):
    """Older deletions' snapshots have no entered time: their game's creation entry has it."""
    AuditEntry.objects.filter(action=AuditAction.CREATE, game_id=worked_example_game.pk).update(
        at=ENTERED
    )
    entry = deleted(worked_example_game)
    entry.before.pop("created_at", None)
    entry.save()

    restored = engine.game_restore(entry=entry)

    assert Game.objects.get(pk=restored.pk).created_at == ENTERED
