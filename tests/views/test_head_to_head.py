"""Two players head to head: /players/<a>/vs/<b>/, and the player page's form that leads there."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings import engine
from ratings.models import System
from tests.worked_example import WORKED_EXAMPLE_PAPERS

from .pages import QUERIES, assert_same_as_django_tables2

pytestmark = pytest.mark.django_db


def versus(client, a, b, **query):
    return client.get(reverse("ratings:head_to_head", args=[a.slug, b.slug]), query)


@pytest.fixture
def friday(worked_example_league, worked_example_players, record_game, make_player):
    """Pedja and Marko at three tables with Johnny (the worked example's paper, seats turned:
    the first seat scores −500, the second 40, the third 460), and Pedja once without Marko."""
    pedja, marko, johnny = worked_example_players
    ana = make_player("Ana")
    games = [
        record_game(
            worked_example_league, [pedja, marko, johnny], papers=WORKED_EXAMPLE_PAPERS
        ),  # Pedja ahead
        record_game(
            worked_example_league, [marko, pedja, johnny], papers=WORKED_EXAMPLE_PAPERS
        ),  # Marko ahead
        record_game(
            worked_example_league, [johnny, marko, pedja], papers=WORKED_EXAMPLE_PAPERS
        ),  # Marko ahead
        record_game(
            worked_example_league, [pedja, ana, johnny], papers=WORKED_EXAMPLE_PAPERS
        ),  # without Marko
    ]
    return worked_example_league, (pedja, marko, johnny, ana), games


def test_it_shows_their_record_games_and_chart(client, friday):
    league, (pedja, marko, johnny, ana), games = friday

    response = versus(client, pedja, marko)

    html = response.content.decode()
    assert "Pedja against Marko" in html
    (section,) = response.context["sections"]
    record = section.record
    assert (record.games, record.a_ahead, record.b_ahead, record.level) == (3, 1, 2, 0)
    assert (record.a_score_sum, record.b_score_sum) == (-500 + 40 + 460, 40 - 500 + 40)
    assert [row.game_id for row in section.table.data] == [g.pk for g in games[2::-1]]
    for game in games[:3]:
        assert f'href="{reverse("ratings:game", args=[game.pk])}"' in html
    assert "Finished ahead" in html
    assert "Average final score" in html
    assert "−140" in html  # Marko's average: (40 − 500 + 40) / 3
    # Both rating lines on one chart.
    assert section.chart.count('class="line"') >= 4  # two legend lines, two polylines
    assert "Rating history: Pedja from" in section.chart
    assert "; Marko from" in section.chart


def test_it_names_the_third_players_they_met_most_often(client, friday):
    _league, (pedja, marko, johnny, ana), _games = friday

    (section,) = versus(client, pedja, marko).context["sections"]

    assert [(c.name, c.games) for c in section.companions] == [("Johnny", 3)]
    assert "Most often at the table with them:" in versus(client, pedja, marko).content.decode()


def test_swapped_it_is_the_same_record_the_other_way(client, friday):
    _league, (pedja, marko, _johnny, _ana), _games = friday

    (ab,) = versus(client, pedja, marko).context["sections"]
    (ba,) = versus(client, marko, pedja).context["sections"]

    assert (ab.record.a_ahead, ab.record.b_ahead) == (ba.record.b_ahead, ba.record.a_ahead)
    assert ab.record.a_score_sum == ba.record.b_score_sum


def test_head_to_head_games_read_wins_draws_and_points(
    client, make_league, make_player, record_game
):
    chess = make_league(System.FIDE, name="Chess")
    ana, bojan = make_player("Ana"), make_player("Bojan")
    for scores in ([1, 0], [0.5, 0.5], [0, 1], [1, 0]):
        record_game(chess, [ana, bojan], scores=scores)

    response = versus(client, ana, bojan)

    html = response.content.decode()
    (section,) = response.context["sections"]
    assert (section.record.a_ahead, section.record.b_ahead, section.record.level) == (2, 1, 1)
    assert (section.record.a_score_sum, section.record.b_score_sum) == (2.5, 1.5)
    assert "4 games together, 1 of them a draw." in html
    assert "Points per game" in html
    assert "Winner" in html
    assert section.companions == []


def test_without_a_shared_game_it_says_so(client, friday, django_assert_num_queries):
    _league, (_pedja, marko, _johnny, ana), _games = friday

    with django_assert_num_queries(3):  # the data version; both players; their (empty) record
        response = versus(client, marko, ana)

    assert response.status_code == 200
    assert "Marko and Ana have not played a game together yet." in response.content.decode()


def test_unknown_players_are_404_and_one_player_goes_to_their_page(client, friday):
    _league, (pedja, _marko, _johnny, _ana), _games = friday

    unknown = client.get(reverse("ratings:head_to_head", args=[pedja.slug, "nobody"]))
    same = versus(client, pedja, pedja)

    assert unknown.status_code == 404
    assert same.status_code == 302
    assert same["Location"] == reverse("ratings:player", args=[pedja.slug])


def test_an_old_address_redirects_to_the_players_now(client, friday):
    _league, (pedja, marko, _johnny, _ana), _games = friday
    engine.player_rename(player=marko, name="Marko Markovic")
    marko.refresh_from_db()

    response = client.get(reverse("ratings:head_to_head", args=[pedja.slug, "marko"]))

    assert response.status_code == 301
    assert response["Location"] == reverse("ratings:head_to_head", args=[pedja.slug, marko.slug])


def test_it_is_reachable_from_both_players_pages(client, friday):
    _league, (pedja, marko, _johnny, _ana), _games = friday

    for a, b in ((pedja, marko), (marko, pedja)):
        html = client.get(reverse("ratings:player", args=[a.slug])).content.decode()
        assert f'href="{reverse("ratings:head_to_head", args=[a.slug, b.slug])}"' in html


def test_the_player_pages_form_leads_there(client, friday):
    _league, (pedja, marko, _johnny, _ana), _games = friday
    url = reverse("ratings:head_to_head_pick", args=[pedja.slug])

    by_name = client.get(url, {"opponent": " marko "})
    unknown = client.get(url, {"opponent": "Zorana"})
    himself = client.get(url, {"opponent": pedja.slug})

    assert by_name.status_code == 302
    assert by_name["Location"] == reverse("ratings:head_to_head", args=[pedja.slug, marko.slug])
    assert "No player “Zorana”." in unknown.content.decode()
    assert "Choose someone else." in himself.content.decode()
    assert (
        f'action="{url}"'
        in client.get(reverse("ratings:player", args=[pedja.slug])).content.decode()
    )


def test_the_player_pages_form_takes_a_name_as_the_games_filter_does(client, friday):
    """Part of a name, another spelling, or a typo, as the games list's filter takes them."""
    _league, (pedja, marko, _johnny, _ana), _games = friday
    url = reverse("ratings:head_to_head_pick", args=[pedja.slug])
    to_marko = reverse("ratings:head_to_head", args=[pedja.slug, marko.slug])

    assert client.get(url, {"opponent": "mark"})["Location"] == to_marko
    assert client.get(url, {"opponent": "MARKO"})["Location"] == to_marko
    typo = client.get(url, {"opponent": "Marco"})
    assert typo.status_code == 200
    assert "No player “Marco”. Did you mean Marko?" in typo.content.decode()


def test_it_reads_as_django_tables2_renders_it(
    client, monkeypatch, friday, make_league, record_game
):
    _league, (pedja, marko, johnny, _ana), _games = friday
    chess = make_league(System.ELO, name="Chess")
    record_game(chess, [pedja, marko], scores=[0.5, 0.5])
    for language in ("en", "sr-latn", "ru"):
        client.cookies["django_language"] = language
        assert_same_as_django_tables2(
            client,
            monkeypatch,
            [
                reverse("ratings:head_to_head", args=[pedja.slug, marko.slug]),
                reverse("ratings:head_to_head", args=[johnny.slug, pedja.slug]) + "?page=1",
            ],
        )


def test_it_costs_the_same_whatever_their_history(
    client, friday, elo_league_with, django_assert_num_queries
):
    """Six queries for two players with three games or with a thousand."""
    _league, (pedja, marko, _johnny, _ana), _games = friday
    with django_assert_num_queries(QUERIES["head_to_head"]):
        assert versus(client, pedja, marko).status_code == 200

    league = elo_league_with(player="Marathon", opponents=2, games=1000)
    marathon, rival = (
        league.standings.get(player__name=name).player for name in ("Marathon", "Opponent 0")
    )
    with django_assert_num_queries(QUERIES["head_to_head"]):
        response = versus(client, marathon, rival, **{f"{league.slug}-page": 3})
    (section,) = response.context["sections"]
    assert section.record.games == 500
    assert section.table.page.number == 3
