"""ClubTable against django-tables2's own template: the CPU time of drawing a page of 50 rows.

    .venv/bin/python -m pytest bench/tables_drawn.py -s -q

A pytest module (it uses the test database and the tests' builders), not part of the suite
(``testpaths`` is ``tests``). With the page cache off, each page of 50 rows (the leaderboard,
the games list, the players directory of a 60-player, 150-game league) is drawn 40 times with
``ClubTable``'s rows and 40 times with django-tables2's ``django_tables2/table.html``, taking
turns; it prints the median and the least process time of each and checks that both drew the
same HTML. What a cached page costs does not depend on either.
"""

from __future__ import annotations

import random
import statistics
import time

import pytest
from django.test import override_settings
from django.urls import reverse

from ratings.models import System
from tests.builders import game_recorder, make_league, make_player
from tests.views.test_tables import club_tables, normalised
from tests.worked_example import random_paper

pytestmark = pytest.mark.django_db
RUNS = 40


def drawn(client, url: str) -> tuple[float, bytes]:
    start = time.process_time()
    content = client.get(url).content
    return time.process_time() - start, content


@override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}})
def test_club_table_against_django_tables2(client, monkeypatch):
    rng = random.Random(7)
    league = make_league(System.PREFKO)
    people = [make_player() for _ in range(60)]
    record_game = game_recorder()
    for _ in range(150):
        record_game(league, rng.sample(people, 3), papers=random_paper(rng))
    urls = {
        "leaderboard": reverse("ratings:leaderboard", args=[league.slug]),
        "games list": reverse("ratings:league_games", args=[league.slug]),
        "players directory": reverse("ratings:player_list"),
    }
    for name, url in urls.items():
        for _ in range(3):
            client.get(url)
        ours, stock = [], []
        for _ in range(RUNS):
            seconds, club_html = drawn(client, url)
            ours.append(seconds)
            with monkeypatch.context() as patch:
                for table in club_tables():
                    patch.setattr(table._meta, "template_name", "django_tables2/table.html")
                seconds, stock_html = drawn(client, url)
                stock.append(seconds)
        assert normalised(club_html) == normalised(stock_html), name
        print(
            f"\n{name}: ClubTable {statistics.median(ours) * 1000:.1f} ms "
            f"(least {min(ours) * 1000:.1f}), django-tables2 "
            f"{statistics.median(stock) * 1000:.1f} ms (least {min(stock) * 1000:.1f})"
        )
