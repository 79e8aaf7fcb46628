"""Time the engine's replay of a league on an existing database, rolled back after each run.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/<copy of clubbench> python bench/replay.py
    python bench/replay.py --league big --runs 3          # SQLite: bench/out/bench.sqlite3

Two cases, each an edit of one game's paper through ``engine.game_update`` (so every later
rating moves, as in bench/run.py): the league's first game (a full replay) and the first game of
the middle of a season (the latest season but one, from July on). Each run is one transaction,
rolled back, so the database is the same for the next run and for other code. For each run it
prints the wall time, this process's CPU time and, on PostgreSQL, the server backend's CPU time
(read from /proc: the server must run on this machine), each also per result replayed. Never
point it at a database others rely on: it writes (then rolls back).
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--league", default="big", help="the league's slug")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--case", choices=["full", "mid", "both"], default="both")
    return parser.parse_args()


def setup_django() -> None:
    if "DATABASE_URL" not in os.environ:
        os.environ["DATABASE_URL"] = f"sqlite:///{ROOT / 'bench' / 'out' / 'bench.sqlite3'}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ.setdefault("ALLOWED_HOSTS", "localhost")
    import django

    django.setup()


def backend_cpu(pid: int | None) -> float:
    """The PostgreSQL backend's user + system CPU seconds (0 when unknown)."""
    if pid is None:
        return 0.0
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    args = parse_args()
    setup_django()
    from django.db import connection, transaction

    from ratings import engine
    from ratings.dates import season_of, season_start
    from ratings.models import Game, League, Result

    league = League.objects.get(slug=args.league)
    games = Game.objects.filter(league=league).chronological()
    first = games.first()
    last = games.last()
    year = max(season_of(first.played_at), season_of(last.played_at) - 1)
    middle = season_start(year).replace(month=7)
    mid = games.filter(played_at__gte=middle).first()
    cases = {"full": first, "mid": mid}
    if args.case != "both":
        cases = {args.case: cases[args.case]}
    if "mid" in cases and mid is None:  # a club of one season's first half
        print(f"mid: no game from {middle:%Y-%m-%d} on, not timed")
        del cases["mid"]

    pid = None
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            (pid,) = cursor.fetchone()
    print(f"{connection.vendor}, league {league.slug}, {datetime.now():%Y-%m-%d %H:%M}")
    for name, game in cases.items():
        replayed = Result.objects.filter(league=league, played_at__gte=game.played_at).count()
        print(f"{name}: from game {game.pk} at {game.played_at:%Y-%m-%d}, {replayed:,} results")
        results = list(game.results.order_by("seat"))
        entries = [
            engine.Entry(player_id=r.player_id, paper=(r.left + 2, r.middle, r.right))
            for r in results
        ]
        for run in range(args.runs):
            with transaction.atomic():
                wall, cpu, server = time.perf_counter(), time.process_time(), backend_cpu(pid)
                engine.game_update(
                    game=game, played_at=game.played_at, entries=entries, bula=game.bula
                )
                wall = time.perf_counter() - wall
                cpu = time.process_time() - cpu
                server = backend_cpu(pid) - server
                transaction.set_rollback(True)
            per = 1e6 / replayed
            print(
                f"  run {run + 1}: wall {wall:6.2f} s ({wall * per:5.1f} µs/result)"
                f"  python cpu {cpu:6.2f} s ({cpu * per:5.1f} µs)"
                + (f"  server cpu {server:6.2f} s ({server * per:5.1f} µs)" if pid else "")
            )


if __name__ == "__main__":
    main()
