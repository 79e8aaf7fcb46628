"""A long history on a player's page: the chart draws a bounded line and bounded markers, and
every game is still a link in the table below it, page by page."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from ratings.models import Result

pytestmark = pytest.mark.django_db


def test_every_game_of_a_long_history_is_reachable_from_the_table(client, elo_league_with):
    league = elo_league_with(player="Ana", opponents=4, games=130)
    url = reverse("ratings:player", args=["ana"])
    first = client.get(url).content.decode()

    chart = first[first.index('<div class="chart">') : first.index('<div class="table-wrap">')]
    assert chart.count("<svg") == 2  # a phone's layout and a wide screen's
    for svg in re.findall(r"<svg .*?</svg>", chart, re.S):
        assert svg.count("<a href=") < 130
        points = re.search(r'<polyline class="line" points="([^"]*)"', svg)[1].split()
        assert len(points) <= 130
    assert "the table below lists every game" in chart

    in_tables = set()
    for page in (1, 2, 3):
        html = client.get(url, {f"{league.slug}-page": page}).content.decode()
        table = html[html.index('<table class="player-games cards"') :]
        in_tables |= {int(pk) for pk in re.findall(r'<a href="/games/(\d+)/">', table)}
    games = Result.objects.filter(player__name="Ana").values_list("game", flat=True)
    assert in_tables == set(games)
