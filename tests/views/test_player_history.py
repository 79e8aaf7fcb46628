"""A long history on a player's page: the chart draws a bounded line and bounded markers, and
every game is still a link in the table below it, page by page."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from ratings import engine, selectors
from ratings.charts import correction_text, day_text
from ratings.models import RatingCorrection, Result
from ratings.templatetags.club_format import signed
from tests.builders import T0, elo_chain, make_player, score_entries

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


def test_a_correction_that_moved_the_rating_shows_in_the_players_history(client):
    """Cid did not play the game staff corrected, yet his rating moved: his page says why, in
    the list under the chart and as a marker on it."""
    league, (ann, bob, cid), first = elo_chain()
    engine.game_update(game=first, played_at=T0, entries=score_entries([ann, bob], [0, 1]))
    correction = RatingCorrection.objects.get(player=cid)

    html = client.get(reverse("ratings:player", args=[cid.slug])).content.decode()

    change = signed(correction.change)
    line = f"Re-rated after a correction to the game of Jan. 1, 2026: {change}"
    corrections = html[html.index('<ul class="corrections">') :].split("</ul>")[0]
    # One date format in the line, and the game corrected linked (several a day are common).
    day = day_text(correction.at)
    game = f'<a href="{first.get_absolute_url()}">the game of Jan. 1, 2026</a>'
    assert f"{day}: Re-rated after a correction to {game}: {change}" in corrections
    chart = html[html.index('<div class="chart">') : html.index('<ul class="corrections">')]
    assert chart.count('<g class="correction">') == 2  # in each layout
    assert line in chart
    ann_page = client.get(reverse("ratings:player", args=[ann.slug])).content.decode()
    assert "Re-rated after" in ann_page  # Ann played it: her rating moved too


def test_a_merge_that_moved_the_rating_says_so():
    league, (ann, bob, cid), _first = elo_chain()
    dan = make_player("Dan")
    engine.game_record(
        league=league, played_at=T0 + timedelta(days=2), entries=score_entries([dan, bob], [1, 0])
    )
    engine.player_merge(source=dan, target=ann)

    _history, corrections = selectors.player_history_and_corrections(ann)
    rows = corrections[league.pk]

    assert [row.action for row in rows] == ["merge"]
    assert correction_text(rows[0]).startswith("Re-rated after two players were merged: ")


def test_a_correction_reads_in_serbian_with_the_month_in_the_genitive(client):
    league, (ann, bob, cid), first = elo_chain()
    engine.game_update(game=first, played_at=T0, entries=score_entries([ann, bob], [0, 1]))
    client.cookies["django_language"] = "sr-latn"

    html = client.get(reverse("ratings:player", args=[cid.slug])).content.decode()

    corrections = html[html.index('<ul class="corrections">') :].split("</ul>")[0]
    assert ">partije od 1. januara 2026.</a>" in corrections
