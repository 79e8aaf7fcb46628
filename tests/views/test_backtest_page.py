"""The backtest page of a league."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import System

pytestmark = pytest.mark.django_db


def test_the_page_shows_each_system_and_says_a_small_league_is_too_small(
    client, make_league, make_player, record_game
):
    league = make_league(System.OPENSKILL_HIGHSCORE, name="Yamb", start_rating=0)
    players = [make_player() for _ in range(4)]
    for n in range(5):
        record_game(league, players, scores=[800 + (n * 37 + 13 * i) % 90 for i in range(4)])
    response = client.get(reverse("ratings:backtest", args=[league.slug]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Too few games to tell the systems apart" in html
    assert "The league's 5 games replayed" in html
    for label in (
        "Scored game, highest score wins (OpenSkill) (this league's)",
        "Scored game, highest score wins (Rayter)",
        "Classic Elo over each pair at the table",
    ):
        assert label in html


def test_the_leaderboard_links_the_page(client, make_league):
    league = make_league(System.ELO)
    html = client.get(reverse("ratings:leaderboard", args=[league.slug])).content.decode()
    assert reverse("ratings:backtest", args=[league.slug]) in html


def test_an_unknown_league_is_404(client):
    assert client.get(reverse("ratings:backtest", args=["nowhere"])).status_code == 404


def test_it_speaks_serbian(client, make_league, settings):
    league = make_league(System.ELO)
    response = client.get(
        reverse("ratings:backtest", args=[league.slug]), HTTP_ACCEPT_LANGUAGE="sr-latn"
    )
    assert "Koliko dobro rejting predviđa" in response.content.decode()
