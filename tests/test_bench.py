"""The load test's pages (``bench/loadtest_pages.py``): on a small club built by the benchmark's
own builders, each page answers the status ``bench/loadtest.sh`` checks for, and a club without
an event is given the club night the event pages need."""

from __future__ import annotations

import random
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from ratings.events.models import Event, EventTable
from ratings.models import Game, League, Player, System

BENCH = Path(__file__).resolve().parent.parent / "bench"


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
