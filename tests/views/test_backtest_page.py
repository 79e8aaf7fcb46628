"""The backtest page of a league."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.urls import reverse

from ratings.backtest import page
from ratings.models import System
from tests.views.pages import VERSION

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
        'Scored game, highest score wins (OpenSkill) <span class="badge">this league\'s system',
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


def test_the_headline_columns_say_they_count_established_pairs(client, make_league):
    """The league's N games are replayed, but the Games and Pairs columns count only the
    established pairs (fewer): a header over them says so."""
    league = make_league(System.ELO)
    html = client.get(reverse("ratings:backtest", args=[league.slug])).content.decode()
    head = html[html.index("<thead>") : html.index("</thead>")]
    assert '<th scope="colgroup" colspan="5">Established pairs</th>' in head
    assert '<th scope="colgroup" colspan="2">Pairs with a new player</th>' in head


def _chess_league(make_league, make_player, record_game, games):
    league = make_league(System.ELO, name="Chess")
    ana, bo = make_player("Ana"), make_player("Bo")
    for n in range(games):
        record_game(league, [ana, bo] if n % 2 else [bo, ana], scores=[1, 0])
    return league


def test_a_big_league_shows_its_stored_backtest_without_replaying(
    client, make_league, make_player, record_game, monkeypatch, django_assert_num_queries
):
    """The page is public and drawn again after every write: a big league's page reads the
    figures the command stored, in one query after the version, and never replays."""
    league = _chess_league(make_league, make_player, record_game, games=6)
    monkeypatch.setattr(page, "LIVE_GAMES", 4)
    call_command("backtest", league.slug, stdout=StringIO())
    record_game(league, [make_player("Cy"), make_player("Dee")], scores=[1, 0])

    def no_replay(league):
        raise AssertionError("a page view replayed a big league")

    monkeypatch.setattr(page, "league_backtest", no_replay)
    with django_assert_num_queries(VERSION + 1):  # the league, its count and stored row
        html = client.get(reverse("ratings:backtest", args=[league.slug])).content.decode()
    assert "The league's 6 games replayed" in html
    assert "1 game recorded since is not in it" in html
    assert "manage.py" not in html  # a visitor is told of no shell command
    assert "Head-to-head, FIDE Elo" in html


def test_a_big_league_never_backtested_says_how_to_compute_it(
    client, make_league, make_player, record_game, monkeypatch
):
    league = _chess_league(make_league, make_player, record_game, games=6)
    monkeypatch.setattr(page, "LIVE_GAMES", 4)
    monkeypatch.setattr(page, "league_backtest", None)
    html = client.get(reverse("ratings:backtest", args=[league.slug])).content.decode()
    assert "its backtest has not been computed yet" in html
    assert "manage.py" not in html and "Compute the backtest now" not in html


def test_staff_compute_a_big_leagues_backtest_from_its_page(
    admin_client, make_league, make_player, record_game, monkeypatch
):
    league = _chess_league(make_league, make_player, record_game, games=6)
    monkeypatch.setattr(page, "LIVE_GAMES", 4)
    url = reverse("ratings:backtest", args=[league.slug])
    assert "Compute the backtest now" in admin_client.get(url).content.decode()

    computed = admin_client.post(reverse("ratings:backtest_run", args=[league.slug]), follow=True)

    html = computed.content.decode()
    assert computed.redirect_chain[-1][0] == url
    assert "The backtest is computed." in html and "The league's 6 games replayed" in html
    assert "Compute it again" in html
    # Beyond what a request may replay, staff are told the command instead.
    monkeypatch.setattr(page, "REQUEST_GAMES", 5)
    cache.clear()  # the page as drawn under the bound before
    html = admin_client.get(url).content.decode()
    assert f"python manage.py backtest {league.slug}" in html and "Compute it again" not in html


def test_a_small_league_is_replayed_fresh_even_with_a_stored_backtest(
    client, make_league, make_player, record_game
):
    league = _chess_league(make_league, make_player, record_game, games=3)
    call_command("backtest", league.slug, stdout=StringIO())
    record_game(league, [make_player("Cy"), make_player("Dee")], scores=[1, 0])
    html = client.get(reverse("ratings:backtest", args=[league.slug])).content.decode()
    assert "The league's 4 games replayed" in html
    assert "recorded since" not in html
