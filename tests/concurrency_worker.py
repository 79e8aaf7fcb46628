"""Run by tests/test_concurrency.py in separate processes against one SQLite file.

    python -m tests.concurrency_worker record LEAGUE_SLUG WORKER GAMES
    python -m tests.concurrency_worker verify LEAGUE_SLUG

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
from ratings.models import Game, League, Player, Result, Standing  # noqa: E402

PAPERS = [[(10, 2, 4), (6, -1, 8), (0, -1, 2)], [(0, -3, 40), (12, 1, 0), (30, 2, 6)]]


def record(slug: str, worker: int, count: int) -> None:
    league = League.objects.get(slug=slug)
    players = list(Player.objects.order_by("pk"))
    for n in range(count):
        seats = [players[(worker + n + i) % len(players)] for i in range(3)]
        engine.game_record(
            league=league,
            played_at=datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=worker * 100 + n),
            entries=[
                engine.Entry(player_id=p.pk, paper=paper)
                for p, paper in zip(seats, PAPERS[n % 2], strict=True)
            ],
            bula=30,
        )


def verify(slug: str) -> None:
    league = League.objects.get(slug=slug)
    stored = sorted(Result.objects.values_list("pk", "rating_before", "rating_after"))
    standings = sorted(Standing.objects.values_list("player_id", "rating", "games"))
    engine.league_recompute(league=league)
    assert stored == sorted(Result.objects.values_list("pk", "rating_before", "rating_after"))
    assert standings == sorted(Standing.objects.values_list("player_id", "rating", "games"))
    print("OK", Game.objects.filter(league=league).count())


if __name__ == "__main__":
    if sys.argv[1] == "record":
        record(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        verify(sys.argv[2])
