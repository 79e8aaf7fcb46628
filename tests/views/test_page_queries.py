"""Every page runs a fixed number of SQL queries, whatever the size of the club.

The counts are pinned so that an N+1 (a query per standing, per game, per opponent or per league)
fails here instead of slowing the pages down as the leagues grow (the counts, with what each
query reads, are ``QUERIES`` in tests/views/pages.py). For a logged-in visitor the
HTML pages add three queries, the session, the user and the player linked to the user (for "My
page"), which the base layout needs for its menu; the export renders no layout and so adds none.
A visitor's pages never ask for a linked player.
"""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from ratings.events.models import Scoring
from ratings.models import Game, Player, Standing, System
from tests.views.pages import (
    CACHED,
    LOGGED_IN,
    QUERIES,
    from_cache,
    logged_in,
    played_event,
    urls,
)
from tests.worked_example import WORKED_EXAMPLE_PAPERS

pytestmark = pytest.mark.django_db


@pytest.fixture
def small_club(worked_example_game, worked_example_league, worked_example_players):
    """One league, one game, three players, and a night of one round at one table."""
    played_event(worked_example_league, worked_example_players, rounds=1)
    return urls(worked_example_league, worked_example_game, worked_example_players[0])


@pytest.fixture
def big_club(prefko_league_with, make_league, record_game):
    """Three leagues; the busiest has 70 players and 160 games, more than a page of each.

    Its busiest player also plays in the other two leagues, so the player page has three
    sections with a chart and a table each.
    """
    league, people = prefko_league_with(players=70, games=160)
    busiest = Standing.objects.filter(league=league).order_by("-games").first().player
    # Events of the busiest player: a finished night, and a tournament of 15 at its 4th round.
    others = [person for person in people if person != busiest]
    for _ in range(2):
        played_event(league, [busiest, *others[:8]], rounds=3, scoring=Scoring.PREFERANS_ORG)
    tournament = played_event(league, [busiest, *others[20:34]], rounds=4)
    opponents = others
    for system in (System.ELO, System.FIDE):
        other = make_league(system)
        for n in range(60):
            record_game(other, [busiest, opponents[n]], scores=[n % 2, 1 - n % 2])
    middle = Game.objects.filter(league=league).newest_first()[80]
    return urls(league, middle, busiest, tournament)


@pytest.mark.parametrize("page", QUERIES)
def test_each_page_runs_a_pinned_number_of_queries_for_visitors(
    page, client, small_club, django_assert_num_queries
):
    """No N+1: the count is the page's, not the data's (see the module docstring)."""
    with django_assert_num_queries(QUERIES[page]):
        assert client.get(small_club[page]).status_code == 200


@pytest.mark.parametrize("page", QUERIES)
def test_each_page_runs_a_pinned_number_of_queries_for_members(
    page, member_client, small_club, django_assert_num_queries
):
    """Logged in: the same queries plus the session and the user, and still at most ten (a
    leaderboard eleven: it also reads its page's rows by the statement it keeps for its second
    key; a player's page twelve: it also lists the games waiting for their table's
    confirmation, and reads every league's versions, which keep the player's ranks between two
    games)."""
    assert logged_in(page) <= {"leaderboard": 11, "player": 12}.get(page, 10)
    with django_assert_num_queries(logged_in(page)):
        assert member_client.get(small_club[page]).status_code == 200


@pytest.mark.django_db(transaction=True)  # committed, as a request's writes are
@pytest.mark.parametrize("page", CACHED)
def test_a_page_drawn_at_this_version_is_one_query(
    page, client, member_client, small_club, django_assert_num_queries
):
    """Asked again with no write in between, a page is the version and the cache: one query
    (for a member also their session and user, whose page is their own)."""
    first = client.get(small_club[page])
    with django_assert_num_queries(from_cache(page)):
        again = client.get(small_club[page])
    assert again.content == first.content.replace(_csrf_field(first), _csrf_field(again)), (
        "the same page, but for its CSRF token"
    )
    member_client.get(small_club[page])
    with django_assert_num_queries(from_cache(page) + LOGGED_IN):
        assert member_client.get(small_club[page]).status_code == 200


def _csrf_field(response) -> bytes:
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', response.content)
    return token.group(0) if token else b""


def test_the_counts_do_not_grow_with_the_club(
    client, staff_client, big_club, django_assert_num_queries
):
    """No N+1 as the league grows: many players, games, pages and leagues, the same counts."""
    for page, url in big_club.items():
        with django_assert_num_queries(QUERIES[page]):
            assert client.get(url).status_code == 200, page
        # An export is the same file for everyone: the visitor's would be in the cache (on
        # SQLite; on PostgreSQL this test's own transaction wrote the version: no cache).
        cache.clear()
        with django_assert_num_queries(logged_in(page, "staff")):
            assert staff_client.get(url).status_code == 200, page


def test_later_pages_and_other_sorts_cost_the_same(client, big_club, django_assert_num_queries):
    """Paging and sorting change the SQL, never the number of queries."""
    for url, extra in (
        (big_club["leaderboard"], "&page=2&sort=-games"),
        (big_club["games"], "?page=3"),
    ):
        page = "leaderboard" if "min_games" in url else "games"
        with django_assert_num_queries(QUERIES[page]):
            assert client.get(url + extra).status_code == 200


def test_a_member_linked_to_a_player_costs_the_same(
    member_user, member_client, small_club, django_assert_num_queries
):
    """The header's "My page" asks for the member's player once, linked or not."""
    Player.objects.filter(name="Pedja").update(user=member_user)
    with django_assert_num_queries(logged_in("player")):
        response = member_client.get(small_club["player"])
    assert "My page" in response.content.decode()


def test_a_later_page_of_players_costs_the_same(client, big_club, django_assert_num_queries):
    """The leagues are fetched for the page's players only, on page 2 as on page 1."""
    with django_assert_num_queries(QUERIES["players"]):
        response = client.get(big_club["players"], {"page": 2})
    assert len(response.context["table"].page.object_list) == 20


def test_a_player_with_thousands_of_games_costs_the_same(
    client, elo_league_with, django_assert_num_queries
):
    """The chart needs every game but gets them in one query; opponents only for one page."""
    league = elo_league_with(player="Marathon", opponents=40, games=3200)
    player = Standing.objects.get(league=league, player__name="Marathon").player
    url = reverse("ratings:player", args=[player.slug])

    with django_assert_num_queries(QUERIES["player"]):
        response = client.get(url, {f"{league.slug}-page": 20})
    assert response.status_code == 200
    (section,) = response.context["sections"]
    assert section.standing.games == 3200
    assert len(section.table.page.object_list) == 50
    assert section.table.page.number == 20


def test_the_worked_example_game_with_terms_is_two_queries(
    client, worked_example_league, worked_example_players, record_game, django_assert_num_queries
):
    """The prefko terms are recomputed from the stored ratings: no query of their own."""
    game = record_game(worked_example_league, worked_example_players, papers=WORKED_EXAMPLE_PAPERS)
    with django_assert_num_queries(QUERIES["game"]):
        assert (
            "Why the ratings moved"
            in client.get(reverse("ratings:game", args=[game.pk])).content.decode()
        )


def test_an_event_page_costs_the_same_after_one_round_or_eight(
    client, make_league, django_assert_num_queries
):
    """Rounds, tables, seats, byes and results are read a query each for the whole event."""
    league = make_league(System.PREFKO)
    players = [Player.objects.create_named(f"Guest {n}") for n in range(13)]
    short = played_event(league, players[:6], rounds=1)
    long = played_event(league, players, rounds=8, scoring=Scoring.PREFERANS_ORG)

    for event in (short, long):
        for page in ("event", "round_cards"):
            args = [event.pk] if page == "event" else [event.pk, 1]
            with django_assert_num_queries(QUERIES[page]):
                assert client.get(reverse(f"ratings:{page}", args=args)).status_code == 200
    assert long.rounds.count() == 8
