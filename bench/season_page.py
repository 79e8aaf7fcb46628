"""A season's table drawn from the season standings the engine keeps, next to the same page
drawn by the query over every result of the year (issue #31), and what keeping them costs the
engine's writes.

    DATABASE_URL=postgres://... python bench/season_page.py --games 100000
    DATABASE_URL=postgres://... python bench/season_page.py --keep    # reuse the club built

It builds a Preferans league as bench/run.py does (games 7 minutes apart from 2015, so a full year
holds about 75,000 games), then prints the busiest season's page drawn (the page cache emptied
before each request), both ways, alternating request by request; each table's own query; a
game recorded at the end of the league; and the rebuild of that season (what a replay from a
point in it adds).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.run import busiest_season, ms, setup_django  # noqa: E402
from bench.synthetic_club import build_preferans  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--samples", type=int, default=15)
    parser.add_argument("--keep", action="store_true", help="reuse the database's club as is")
    args = parser.parse_args()
    vendor = setup_django(fresh=not args.keep)

    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from ratings import engine
    from ratings.dates import season_start
    from ratings.engine import seasons
    from ratings.models import Game, League, Player, System
    from ratings.selectors import seasons as season_reads

    if not args.keep:
        print(f"Building {args.games:,} Preferans games on {vendor}…")
        players = [
            Player(name=f"Player {n:04d}", slug=f"player-{n:04d}") for n in range(args.players)
        ]
        Player.objects.bulk_create(players, batch_size=2000)
        ids = list(Player.objects.order_by("pk").values_list("pk", flat=True))
        league = League.objects.create(name="Big Preferans", slug="big", system=System.PREFKO)
        start = datetime(2015, 1, 1, 19, 0, tzinfo=UTC)
        seconds = build_preferans(league, ids, args.games, random.Random(2026), start)
        print(f"built in {seconds:.1f} s")
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    league = League.objects.get(slug="big")
    year, games = busiest_season(league)
    url = f"/leagues/{league.slug}/?season={year}"
    client = Client(headers={"Accept-Encoding": "gzip"})
    whole_season = season_reads.season_standings
    ways = {
        "season standings": whole_season,
        "results (before)": lambda league, start, end, **kw: season_reads.period_standings(
            league, start, end, **kw
        ),
    }
    drawn: dict[str, list[float]] = {way: [] for way in ways}
    queries: dict[str, int] = {}
    from ratings import selectors
    from ratings.views import pages

    try:
        for sample in range(args.samples + 1):  # the first of each warms up
            for way, read in ways.items():
                pages.selectors.season_standings = read
                cache.clear()
                began = time.perf_counter()
                with CaptureQueriesContext(connection) as captured:
                    assert client.get(url).status_code == 200
                if sample:
                    drawn[way].append(time.perf_counter() - began)
                queries[way] = len(captured.captured_queries)
    finally:
        pages.selectors.season_standings = whole_season
        selectors.season_standings = whole_season

    print(f"\n{vendor}: {league.name}, season {year} ({games:,} games), {args.samples} samples")
    for way in ways:
        print(
            f"page drawn, {way}: median {ms(statistics.median(drawn[way]))} "
            f"({queries[way]} SQL queries)"
        )
    bounds = (season_start(year), season_start(year + 1))
    for label, read in (
        ("season standings", season_reads.season_standings),
        ("results", season_reads.period_standings),
    ):
        times = []
        for _ in range(args.samples):
            began = time.perf_counter()
            rows = read(league, *bounds)
            times.append(time.perf_counter() - began)
        print(f"table query, {label}: median {ms(statistics.median(times))} ({len(rows)} rows)")

    last = Game.objects.filter(league=league).chronological().last()
    seats = list(last.results.order_by("seat").values_list("player_id", "left", "middle", "right"))
    times = []
    for n in range(args.samples):
        began = time.perf_counter()
        engine.game_record(
            league=league,
            played_at=last.played_at + timedelta(minutes=n + 1),
            entries=[engine.Entry(player_id=p, paper=(a, b, c)) for p, a, b, c in seats],
            bula=last.bula,
        )
        times.append(time.perf_counter() - began)
    print(
        f"record the newest game (one season row per seat): median {ms(statistics.median(times))}"
    )
    last_year = last.played_at.year
    times = []
    for _ in range(3):
        began = time.perf_counter()
        seasons.rebuild(league, season_start(last_year))
        times.append(time.perf_counter() - began)
    print(
        f"rebuild the season {last_year} (what a replay from a point in it adds): "
        f"median {ms(statistics.median(times))}"
    )
    began = time.perf_counter()
    seasons.rebuild(league)
    print(f"rebuild every season of the league: {ms(time.perf_counter() - began)}")


if __name__ == "__main__":
    main()
