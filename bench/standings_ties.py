"""Time a rayter league's standings, whose ties are ordered by each player's first game.

    python bench/standings_ties.py                   # SQLite file bench/out/bench.sqlite3
    DATABASE_URL=postgres://... python bench/standings_ties.py
    python bench/standings_ties.py --players 500 --games 5000

It imports a winner-takes-all rayter file (four players a game drawn from ``--players``, so
every loser of a first game ties) with ``import_rayter``, then reads the league's standings
(``selectors.league_standings``) whole and as the leaderboard's first page of 50, ``--runs``
times each, and prints the best time of each against the same reads ordered by name (the tie
order before issue #44): the first-game order adds three correlated subqueries per standing.
"""

from __future__ import annotations

import argparse
import io
import random
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.run import setup_django  # noqa: E402


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--games", type=int, default=30_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seed", type=int, default=44)
    return parser.parse_args()


def rayter_file(players: int, games: int, rng: random.Random) -> str:
    names = [f"P{n:05d}x" for n in range(players)]
    lines = ["score_type winnertakesall"]
    moment = datetime(2020, 1, 1)
    for _ in range(games):
        moment += timedelta(minutes=30)
        lines += ["", f"game {moment:%Y-%m-%d %H:%M}"]
        winner = rng.randrange(4)
        lines += [f"{name} {int(seat == winner)}" for seat, name in enumerate(rng.sample(names, 4))]
    return "\n".join(lines) + "\n"


def best_ms(read, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        list(read())
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main() -> None:
    args = parse_args()
    vendor = setup_django(fresh=True)
    from django.core.management import call_command

    from ratings import selectors
    from ratings.models import League

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ties.txt"
        path.write_text(rayter_file(args.players, args.games, random.Random(args.seed)))
        call_command(
            "import_rayter", str(path), league="ties", no_progress=True, stdout=io.StringIO()
        )
    league = League.objects.get(slug="ties")

    system = type(league.rating_system)

    def by_name(read):
        # The read as it was: the system's ties by name, without the first game's subqueries.
        def run():
            system.ties_by_first_game = False
            try:
                return read()
            finally:
                del system.ties_by_first_game  # inherited again from Rayter

        return run

    reads = {
        "all standings": lambda: list(selectors.league_standings(league, show_inactive=True)),
        "first page of 50": lambda: list(
            selectors.league_standings(league, show_inactive=True)[:50]
        ),
    }
    print(f"{vendor}: {args.players} players, {args.games} games")
    for label, read in reads.items():
        ours, before = best_ms(read, args.runs), best_ms(by_name(read), args.runs)
        print(f"  {label}: {ours:.1f} ms by first game, {before:.1f} ms by name")


if __name__ == "__main__":
    main()
