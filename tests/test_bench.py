"""The benchmarks in bench/: each script runs to the end on the smallest club it takes (a smoke
run, so a benchmark the docs rest a decision on cannot rot unnoticed); and the load test's pages
(``bench/loadtest_pages.py``): on a small club built by the benchmark's own builders, each page
answers the status ``bench/loadtest.sh`` checks for, and a club without an event is given the
club night the event pages need."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from ratings.events.models import Event, EventTable
from ratings.models import Game, League, Player, System

BENCH = Path(__file__).resolve().parent.parent / "bench"

# Each script with the smallest inputs it takes: seconds of work, not a measurement.
SMOKE_RUNS = {
    "backtest_page.py": ["--games", "30", "--samples", "1"],
    # 2 tables, a deal a second each, a paper finished and confirmed every 2 deals, for 3 s.
    "club_night.py": [
        *("--tables", "2", "--deal-every", "1", "--deals-per-paper", "2", "--refresh", "1"),
        *("--board-phones", "2", "--board-every", "1", "--history", "10", "--workers", "1"),
        *("--warmup", "1", "--seconds", "3"),
    ],
    "backup_restore.py": [
        *("--players", "12", "--games", "20", "--scored", "5", "--duels", "5", "--runs", "1"),
    ],
    "export_games.py": ["--players", "12", "--games", "20", "--runs", "1"],
    "rayter_shapes.py": [
        *("--shapes", "3", "--players", "10", "--games", "20", "--runs", "1", "--without-rayter"),
    ],
    "run.py": ["--players", "30", "--games", "60", "--scored", "0", "--samples", "1"],
    "season_page.py": ["--players", "12", "--games", "40", "--samples", "1"],
    "seating.py": ["--seeds", "1", "--most-players", "7", "--guarantee-seeds", "1"],
    "standings_ties.py": ["--players", "12", "--games", "20", "--runs", "1"],
    "tables_drawn.py": ["--players", "10", "--games", "20", "--samples", "1"],
}
# The scripts that measure a club built before (bench/run.py --build-only), in this order: the
# writer records games after the rest have read the club.
ON_A_BUILT_CLUB = {
    "replay.py": ["--runs", "1", "--case", "both"],
    "loadtest_pages.py": ["--league", "big"],
    "loadtest_writer.py": ["--rate", "4", "--seconds", "0.5"],
}
MODULES = {"synthetic_club.py"}  # the club the others build: imported, not run


def bench_run(
    script: str, arguments: list[str], out: Path, database: str | None = None
) -> subprocess.CompletedProcess:
    """``bench/<script> arguments`` in a process of its own, its files in ``out``: on the
    ``database`` given, else on SQLite in ``out`` whatever the suite's (a benchmark empties its
    database)."""
    env = {name: value for name, value in os.environ.items() if name != "DATABASE_URL"}
    env["BENCH_OUT"] = str(out)
    if database:
        env["DATABASE_URL"] = database
    done = subprocess.run(
        [sys.executable, BENCH / script, *arguments],
        cwd=BENCH.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"{script}: {done.stderr[-2000:]}"
    return done


def test_every_bench_script_has_a_smoke_run():
    scripts = {path.name for path in BENCH.glob("*.py")}
    assert scripts == set(SMOKE_RUNS) | set(ON_A_BUILT_CLUB) | MODULES


# What a smoke run must have done, beyond ending well (a request that failed ends it badly).
SMOKE_SAYS = {
    "club_night.py": [
        "deal posted",
        "paper watched: 304",
        "paper watched: 200",
        "paper finished",
        "game confirmed",
        "leaderboard: 200",
        "night's page: 200",
        "a watcher sees a deal:",
        "server CPU: gunicorn",
    ],
}


@pytest.mark.parametrize("script", SMOKE_RUNS)
def test_a_benchmark_runs_on_the_smallest_club(script, tmp_path):
    done = bench_run(script, SMOKE_RUNS[script], tmp_path)
    assert done.stdout.strip()
    for said in SMOKE_SAYS.get(script, []):
        assert said in done.stdout, (said, done.stdout)


def test_the_benchmarks_of_a_built_club_run_on_the_smallest_one(tmp_path):
    club = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    bench_run("run.py", ["--players", "30", "--games", "60", "--build-only"], tmp_path, club)
    outputs = {
        script: bench_run(script, arguments, tmp_path, club).stdout
        for script, arguments in ON_A_BUILT_CLUB.items()
    }
    assert "full: from game" in outputs["replay.py"]
    assert outputs["loadtest_pages.py"].startswith("404 page (reference)\t/no-such-page/\t404")
    assert "WRITER games=" in outputs["loadtest_writer.py"]
    assert "errors=0" in outputs["loadtest_writer.py"]


@pytest.fixture(name="bench")
def bench_modules():
    sys.path.insert(0, str(BENCH))
    try:
        import loadtest_pages
        import synthetic_club

        yield synthetic_club, loadtest_pages
        sys.modules.pop("loadtest_writer", None)
    finally:
        sys.path.remove(str(BENCH))


@pytest.mark.django_db
def test_every_page_of_the_load_test_answers_its_status(client, bench):
    builders, loadtest_pages = bench
    Player.objects.bulk_create(
        Player(name=f"Player {n:02d}", slug=f"player-{n:02d}") for n in range(30)
    )
    ids = list(Player.objects.order_by("pk").values_list("pk", flat=True))
    big = League.objects.create(name="Big Preferans", slug="big", system=System.PREFKO)
    builders.build_preferans(big, ids, 300, random.Random(1), datetime(2015, 1, 1, 19, tzinfo=UTC))
    assert not Event.objects.exists()

    pages = loadtest_pages.pages("big")

    event = Event.objects.get()
    assert event.is_closed
    assert event.rounds.count() == builders.EVENT_ROUNDS
    assert not EventTable.objects.filter(round__event=event, game__isnull=True).exists()
    assert pages[0] == ("404 page (reference)", "/no-such-page/", 404)
    assert f"/events/{event.pk}/" in [path for _label, path, _status in pages]
    for label, path, status in pages:
        assert client.get(path).status_code == status, (label, path)
    assert loadtest_pages.pages("big") == pages  # the same pages, no second club night
    assert Event.objects.count() == 1


def test_a_million_games_end_before_today(bench):
    """The benchmark died at 880,000 games 7 minutes apart from 2015 ("That date is in the
    future"): the gap shrinks to fit, and stays 7 minutes where that fits."""
    builders, _pages = bench
    now = datetime(2026, 11, 26, 12, tzinfo=UTC)
    assert builders.game_gap(200_000, now=now) == timedelta(minutes=7)
    gap = builders.game_gap(1_000_000, now=now)
    assert gap < timedelta(minutes=7)
    assert builders.START + gap * 1_000_000 + builders.ROOM <= now
    assert gap.microseconds == 0  # whole seconds


@pytest.mark.django_db
def test_the_load_tests_writer_records_a_game_after_the_last(bench):
    """bench/loadtest_writer.py records through the engine, played now: after every game of
    the league, so a write never replays."""
    builders, _pages = bench
    import loadtest_writer

    Player.objects.bulk_create(
        Player(name=f"Player {n:02d}", slug=f"player-{n:02d}") for n in range(10)
    )
    ids = list(Player.objects.order_by("pk").values_list("pk", flat=True))
    big = League.objects.create(name="Big Preferans", slug="big", system=System.PREFKO)
    builders.build_preferans(big, ids, 20, random.Random(1), datetime(2015, 1, 1, 19, tzinfo=UTC))
    last = Game.objects.filter(league=big).chronological().last()

    game = loadtest_writer.record_one(big, ids, builders.skew_weights(len(ids)), random.Random(2))

    assert Game.objects.filter(league=big).count() == 21
    assert game.played_at > last.played_at
    assert game.results.count() == 3
    summary = loadtest_writer.summary([0.010, 0.020, 0.030], errors=0)
    assert summary.startswith("WRITER games=3 errors=0 p50_ms=20.0 ")
