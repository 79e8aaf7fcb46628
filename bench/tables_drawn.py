"""ClubTable against django-tables2's own template: the pages as a visitor gets them, with the
page cache in place, drawn (a cache miss) and served from the cache (a hit).

    python bench/tables_drawn.py                  # SQLite file bench/out/tables.sqlite3
    python bench/tables_drawn.py --samples 3 --players 10 --games 20   # a quick run

It builds a Preferans league with ``bench/synthetic_club.py``'s builders (``--players`` players,
``--games`` games: by default a full first page of 50 rows on each page), then for the
leaderboard, the games list and the players directory takes turns, ``--samples`` times, between
``ClubTable``'s rows and django-tables2's ``django_tables2/table.html``, each first in turn:
each draws the page after the page cache is emptied (the first visitor after a write), then
serves it from the cache (every visitor after them). Both ask for gzip, as a browser does. It
prints the median and the least process time and the median wall time, and checks that both
draw the same HTML (``tests/views/test_tables.py`` checks it on every table).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from contextlib import contextmanager, nullcontext
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import run, synthetic_club  # noqa: E402

PAGES = {
    "leaderboard": "/leagues/big/",
    "games list": "/leagues/big/games/",
    "players directory": "/players/",
}
WAYS = ("ClubTable", "django-tables2")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=120)
    parser.add_argument("--games", type=int, default=1_000)
    parser.add_argument("--samples", type=int, default=40, help="requests of each kind per page")
    parser.add_argument("--seed", type=int, default=7)
    return parser.parse_args(argv)


@contextmanager
def stock_rendering():
    """Every ClubTable drawn through django-tables2's own template (its rows included), as
    ``tests/views/pages.py`` does for the HTML tests."""
    from tests.views.pages import club_tables

    tables = club_tables()
    before = [table._meta.template_name for table in tables]
    for table in tables:
        table._meta.template_name = "django_tables2/table.html"
    try:
        yield
    finally:
        for table, name in zip(tables, before, strict=True):
            table._meta.template_name = name


def timed(request: Callable[[], object]) -> tuple[float, float, object]:
    """The wall and process time of one request, and its response."""
    wall, cpu = time.perf_counter(), time.process_time()
    response = request()
    return time.perf_counter() - wall, time.process_time() - cpu, response


def measure(client, url: str, samples: int) -> dict[tuple[str, str], list[tuple[float, float]]]:
    """``samples`` draws and cache hits of ``url`` each way, taking turns."""
    from django.core.cache import cache

    from tests.views.pages import normalised

    times: dict[tuple[str, str], list[tuple[float, float]]] = {}
    drawn_html = {}
    for sample in range(samples):
        for way in WAYS if sample % 2 else reversed(WAYS):  # neither always first
            with stock_rendering() if way == "django-tables2" else nullcontext():
                cache.clear()
                for kind in ("drawn", "cached"):
                    wall, cpu, response = timed(lambda: client.get(url))
                    assert response.status_code == 200, (url, response.status_code)
                    times.setdefault((way, kind), []).append((wall, cpu))
                plain = client.get(url, headers={"Accept-Encoding": "identity"})
                drawn_html[way] = normalised(plain.content)
    assert drawn_html["ClubTable"] == drawn_html["django-tables2"], url
    return times


def summary(values: list[tuple[float, float]]) -> str:
    walls, cpus = [wall for wall, _ in values], [cpu for _, cpu in values]
    return (
        f"CPU {run.ms(statistics.median(cpus))} (least {run.ms(min(cpus))}),"
        f" wall {run.ms(statistics.median(walls))}"
    )


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    run.setup_django(fresh=True, sqlite_name="tables.sqlite3")

    from django.test import Client

    from ratings.models import League, Player, System

    rng = random.Random(args.seed)
    players = [Player.objects.create_named(f"Player {n}").pk for n in range(args.players)]
    league = League.objects.create(name="Big", slug="big", system=System.PREFKO)
    synthetic_club.build_preferans(
        league, players, args.games, rng, datetime(2020, 1, 1, 19, tzinfo=UTC)
    )
    client = Client(headers={"Accept-Encoding": "gzip"})  # as every browser asks
    print(f"{args.players} players, {args.games} games, {args.samples} samples a figure")
    for name, url in PAGES.items():
        client.get(url)  # warm up: templates loaded, URLs resolved
        times = measure(client, url, args.samples)
        for kind in ("drawn", "cached"):
            ours, stock = times["ClubTable", kind], times["django-tables2", kind]
            # Process time: the wall time of this shared machine is mostly other jobs' turns.
            ratio = statistics.median(c for _, c in stock) / statistics.median(c for _, c in ours)
            print(
                f"{name}, {kind}: ClubTable {summary(ours)}; django-tables2 {summary(stock)};"
                f" django-tables2 / ClubTable {ratio:.2f}"
            )


if __name__ == "__main__":
    main()
