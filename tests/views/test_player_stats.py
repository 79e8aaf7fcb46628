"""A player's statistics on their page: what it says, in each league's direction, and its cost.

The numbers themselves are checked against a brute force in tests/selectors/test_statistics.py; here
the page shows them, linked, and its query count does not grow with the history or the leagues.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings.models import Game, League, Player, System
from tests.worked_example import WORKED_EXAMPLE_PAPERS

from .pages import QUERIES, assert_same_as_django_tables2

pytestmark = pytest.mark.django_db


def page(client, player, **query):
    return client.get(reverse("ratings:player", args=[player.slug]), query)


def panel_of(response, league):
    (section,) = [s for s in response.context["sections"] if s.league.pk == league.pk]
    return section.statistics


def test_the_page_shows_the_statistics_of_each_league(
    client, worked_example_game, worked_example_players
):
    pedja = worked_example_players[0]

    response = page(client, pedja)

    html = response.content.decode()
    assert "Statistics" in html
    assert "First places" in html
    assert "Average final score" in html
    assert "First places in a row" in html
    assert f'href="{reverse("ratings:game", args=[worked_example_game.pk])}"' in html
    numbers = panel_of(response, worked_example_game.league).numbers
    assert (numbers.games, numbers.first_places, numbers.average_place) == (1, 1, 1.0)
    assert (numbers.best_game.value, numbers.best_rating.value) == (-500, 1173)


def test_each_opponent_row_links_the_head_to_head_page(
    client, worked_example_game, worked_example_players
):
    pedja, marko, johnny = worked_example_players

    html = page(client, pedja).content.decode()

    for other in (marko, johnny):
        url = reverse("ratings:head_to_head", args=[pedja.slug, other.slug])
        assert f'href="{url}"' in html
    assert "Ahead – level – behind" in html
    assert ">1–0–0</a>" in html


def test_best_is_the_lowest_final_score_in_preferans(
    client, worked_example_league, worked_example_players, record_game
):
    pedja, marko, johnny = worked_example_players
    record_game(
        worked_example_league, worked_example_players, papers=WORKED_EXAMPLE_PAPERS
    )  # Pedja -500: best, Johnny 460
    # The same paper, seats turned: Johnny now writes Pedja's columns.
    worst = record_game(worked_example_league, [marko, johnny, pedja], papers=WORKED_EXAMPLE_PAPERS)

    numbers = panel_of(page(client, pedja), worked_example_league).numbers

    assert numbers.best_game.value == -500
    assert (numbers.worst_game.game_id, numbers.worst_game.value) == (worst.pk, 460)
    # prefko: a lower rating is better, so the best rating is the lowest one.
    assert numbers.best_rating.value < numbers.worst_rating.value
    assert (numbers.first_places, numbers.current_streak, numbers.longest_streak) == (1, 0, 1)


def test_a_head_to_head_league_reads_wins_draws_and_losses(
    client, make_league, make_player, record_game
):
    chess = make_league(System.ELO, name="Chess")
    ana, bojan = make_player("Ana"), make_player("Bojan")
    for scores in ([1, 0], [0.5, 0.5], [1, 0], [0, 1]):
        record_game(chess, [ana, bojan], scores=scores)

    response = page(client, ana)

    html = response.content.decode()
    assert "Won – drawn – lost" in html
    assert "2 – 1 – 1" in html
    assert "Points per game" in html
    assert "Unbeaten in a row" in html
    numbers = panel_of(response, chess).numbers
    assert (numbers.wins, numbers.draws, numbers.losses) == (2, 1, 1)
    assert numbers.longest_streak == 3  # a win, a draw, a win
    assert numbers.best_game.value == 1


def test_recent_games_are_those_of_the_last_30_days(client, make_league, make_player, record_game):
    hearts = make_league(System.RAYTER_LOWSCORE, name="Hearts")
    people = [make_player(name) for name in ("Ana", "Bojan", "Ceca")]
    now = timezone.now()
    for days in (45, 31, 29, 2):
        record_game(hearts, people, scores=[3, 9, 9], played_at=now - timedelta(days=days))

    response = page(client, people[0])

    numbers = panel_of(response, hearts).numbers
    assert (numbers.games, numbers.recent_games, numbers.first_places) == (4, 2, 4)
    assert "(2 in the last 30 days)" in response.content.decode()
    # Bojan and Ceca shared second place every time.
    assert panel_of(page(client, people[1]), hearts).numbers.average_place == 2


def test_the_statistics_read_as_django_tables2_renders_them(
    client, monkeypatch, worked_example_game, worked_example_players, make_league, record_game
):
    duel = make_league(System.FIDE, name="Chess")
    record_game(duel, worked_example_players[:2], scores=[0.5, 0.5])
    assert_same_as_django_tables2(
        client,
        monkeypatch,
        [reverse("ratings:player", args=[p.slug]) for p in worked_example_players],
    )


def test_the_page_costs_the_same_however_many_leagues_and_games(
    client,
    worked_example_game,
    worked_example_players,
    make_league,
    record_game,
    django_assert_num_queries,
):
    """Each statistic is one query for all the player's leagues (not one per league)."""
    pedja = worked_example_players[0]
    with django_assert_num_queries(QUERIES["player"]):
        page(client, pedja)
    for system, seats in ((System.ELO, 2), (System.RAYTER_HIGHSCORE, 3), (System.FIDE, 2)):
        league = make_league(system)
        for n in range(30):
            record_game(
                league, worked_example_players[:seats], scores=[n % 2, 1 - n % 2, 0][:seats]
            )

    with django_assert_num_queries(QUERIES["player"]):
        response = page(client, pedja)
    assert len(response.context["sections"]) == 4
    assert all(section.statistics for section in response.context["sections"])


# As a new member would: the demo club --------------------------------------------------------


def test_on_the_demo_club_pedjas_page_has_his_statistics_and_his_record_against_marko(
    client, demo_club
):
    pedja = Player.objects.get(name="Pedja")
    preferans = League.objects.get(slug="preferans")

    html = page(client, pedja).content.decode()

    assert "Statistics" in html
    assert "Met most often" in html
    record = re.search(r'<a href="/players/pedja/vs/marko/" [^>]*>(\d+)–(\d+)–(\d+)</a>', html)
    assert record, "Pedja's record against Marko links to /players/pedja/vs/marko/"
    versus = client.get("/players/pedja/vs/marko/")
    assert versus.status_code == 200
    (section,) = versus.context["sections"]
    assert (section.record.a_ahead, section.record.level, section.record.b_ahead) == tuple(
        int(n) for n in record.groups()
    )

    year = timezone.localtime(Game.objects.filter(league=preferans).latest("played_at").played_at)
    season = client.get(f"/leagues/preferans/?season={year.year}")
    assert f"Season {year.year}" in season.content.decode()
    assert season.context["table"].__class__.__name__ == "SeasonTable"
    assert (
        len(season.context["table"].data) == 13
    )  # the twelve regulars and the guest of the last night
