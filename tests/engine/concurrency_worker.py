"""Run by tests/engine/test_concurrency.py in separate processes against one SQLite file.

    python -m tests.engine.concurrency_worker record LEAGUE_SLUG WORKER GAMES
    python -m tests.engine.concurrency_worker verify LEAGUE_SLUG

``record`` enters GAMES games through the engine, each in its own transaction; ``verify`` prints
"OK <games>" when every stored rating equals a from-scratch replay.
"""

import os
import sys
from datetime import UTC, datetime, timedelta

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
os.environ.setdefault("DEBUG", "true")

import django  # noqa: E402

django.setup()

from ratings import engine  # noqa: E402
from ratings.models import Game, League, Player  # noqa: E402
from tests.builders import paper_entries  # noqa: E402
from tests.replays import assert_unchanged_by_recompute  # noqa: E402
from tests.worked_example import MORE_PAPERS  # noqa: E402


def record(slug: str, worker: int, count: int) -> None:
    league = League.objects.get(slug=slug)
    players = list(Player.objects.order_by("pk"))
    for n in range(count):
        seats = [players[(worker + n + i) % len(players)] for i in range(3)]
        engine.game_record(
            league=league,
            played_at=datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=worker * 100 + n),
            entries=paper_entries(seats, MORE_PAPERS[n % 2]),
            bula=30,
        )


def verify(slug: str) -> None:
    league = League.objects.get(slug=slug)
    assert_unchanged_by_recompute(league)
    print("OK", Game.objects.filter(league=league).count())


if __name__ == "__main__":
    if sys.argv[1] == "record":
        record(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        verify(sys.argv[2])
