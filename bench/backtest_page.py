"""Time the backtest page of a 10,000-game Preferans league, and the command that stores it.

    python bench/backtest_page.py                 # SQLite file bench/out/backtest.sqlite3
    python bench/backtest_page.py --games 2000    # a smaller league

It builds the league with ``bench/synthetic_club.py``'s builders (200 players, the club's
skew), times ``backtest`` (the replay under every fitting system, stored for the page), then the
page drawn (the page cache emptied first, as for the first visitor after a write) and served
from the cache, with their SQL queries; and the page of a league of ``LIVE_GAMES`` games, the
biggest still replayed when its page is drawn.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import UTC, datetime
from io import StringIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import run, synthetic_club  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=5)
    args = parser.parse_args()
    run.setup_django(fresh=True, sqlite_name="backtest.sqlite3")

    from django.core.management import call_command
    from django.test import Client

    from ratings.backtest.page import LIVE_GAMES
    from ratings.models import League, Player, System

    rng = random.Random(11)
    players = [Player.objects.create_named(f"Player {n}").pk for n in range(200)]
    start = datetime(2020, 1, 1, tzinfo=UTC)
    big = League.objects.create(name="Big", slug="big", system=System.PREFKO)
    small = League.objects.create(name="Small", slug="small", system=System.PREFKO)
    synthetic_club.build_preferans(big, players, args.games, rng, start)
    synthetic_club.build_preferans(small, players, LIVE_GAMES, rng, start)

    began = time.perf_counter()
    call_command("backtest", "big", stdout=StringIO())
    command = time.perf_counter() - began
    client = Client()
    print(f"backtest big ({args.games} games), stored: {run.ms(command)}")
    for league in ("big", "small"):
        drawn, drawn_queries, cached, cached_queries = run.time_page(
            client, f"/leagues/{league}/backtest/", args.samples
        )
        print(
            f"/leagues/{league}/backtest/: drawn {run.ms(drawn)} ({drawn_queries} queries), "
            f"cached {run.ms(cached)} ({cached_queries} queries)"
        )


if __name__ == "__main__":
    main()
