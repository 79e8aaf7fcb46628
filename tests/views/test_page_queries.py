"""Every page runs a fixed number of SQL queries, whatever the size of the club.

The counts are pinned so that an N+1 (a query per standing, per game, per opponent or per league)
fails here instead of slowing the pages down as the leagues grow. For a logged-in visitor the
HTML pages add three queries, the session, the user and the player linked to the user (for "My
page"), which the base layout needs for its menu; the export renders no layout and so adds none.
A visitor's pages never ask for a linked player.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from ratings.events import services as event_services
from ratings.models import Event, EventTable, Game, Player, Scoring, Standing, System
from tests.builders import make_event, play_table
from tests.worked_example import WORKED_EXAMPLE_PAPERS

pytestmark = pytest.mark.django_db

LOGGED_IN = 2  # the session, and the user with their player (ratings.auth.ClubBackend)
# Every HTML page first reads the data version (ratings.page_cache): each count below starts
# with it, before the queries listed. While that page is in the cache at that version, the
# version is its only query (test_a_page_drawn_at_this_version_is_one_query). The exports are
# streamed from the database, never cached, and read no version.
VERSION = 1
QUERIES = {
    # the leagues, their player and game counts and last game as subqueries; the nights in
    # progress with their latest round's progress (a member seated tonight: one more, their table)
    "home": 3,
    # the league with its first and last game; the years with games (for the season tabs); the
    # count and the page of standings, ranked by a window; its latest events
    "leaderboard": 6,
    "export": 2,  # the league; all its (filtered) standings with their rank
    # the league with its first and last game; the years with games; the season's table, every
    # player's games, places and ratings in the period by window functions (a list: no count);
    # its latest events
    "season": 5,
    "season_export": 2,  # the league; the season's table
    # the league; the page of games and one more (no count), their results; the filter's names
    "games": 5,
    "games_by_player": 6,  # the same, and the typed player looked up in the league
    "backtest": 3,  # the league; its results in rating order (replayed in memory)
    "game": 3,  # the game with its league, who entered it and its neighbours; its results
    # The player's standings with the player; the ranked players better than them in each
    # league where they are ranked (one aggregate); their whole history; the opponents on the pages
    # shown; their statistics in every league (places, streaks, best and worst by window
    # functions); the opponents they met most often in every league; the results of the events
    # they played (their places worked out from them).
    "player": 8,
    # both players; their record per league; those leagues; their games together; the third
    # players at their tables; both rating histories in those leagues
    "head_to_head": 7,
    "players": 4,  # the count, the page of players, their standings with leagues
    "players_search": 5,  # the same, and every (pk, name) for the typos of a 4+ letter name
    # Events: whatever the number of rounds, tables and players.
    "events": 4,  # the league; the count and the page of events with their players and rounds
    # The event with its league and organiser; its players; every round's tables and seats;
    # the byes; the results of its games (standings, results, rating changes, all from them).
    "event": 6,
    "event_table": 3,  # the table with its round, event and league; its seats with results
    "round_cards": 3,  # the event with its league; the round's tables and seats
}


# Pages that ask Django whether the user holds a permission (may they create or run events?):
# Django reads the user's and their groups' permissions once per request, two queries, for
# members on the events list and for staff on an event (a member's event page needs no
# permission unless they organise it).
PERMISSIONS = 2
ASKS_PERMISSIONS = {"member": {"events"}, "staff": {"events", "event"}}


def logged_in(page: str, role: str = "member") -> int:
    if page.endswith("export"):
        return QUERIES[page]
    return QUERIES[page] + LOGGED_IN + (PERMISSIONS if page in ASKS_PERMISSIONS[role] else 0)


def urls(league, game, player, event=None) -> dict[str, str]:
    event = event or Event.objects.get()
    table = EventTable.objects.filter(round__event=event).order_by("round__number", "number")[0]
    opponent = game.results.exclude(player=player).select_related("player").first().player
    season = f"?season={game.played_at.year}"
    return {
        "home": reverse("ratings:home"),
        "leaderboard": reverse("ratings:leaderboard", args=[league.slug]) + "?min_games=1",
        "export": reverse("ratings:leaderboard_export", args=[league.slug, "csv"]),
        "games": reverse("ratings:league_games", args=[league.slug]),
        "games_by_player": reverse("ratings:league_games", args=[league.slug])
        + f"?player={player.slug}",
        "game": reverse("ratings:game", args=[game.pk]),
        "backtest": reverse("ratings:backtest", args=[league.slug]),
        "player": reverse("ratings:player", args=[player.slug]),
        "players": reverse("ratings:player_list"),
        "players_search": reverse("ratings:player_list") + f"?q={player.name[:5]}",
        "events": reverse("ratings:event_list", args=[league.slug]),
        "event": reverse("ratings:event", args=[event.pk]),
        "event_table": reverse("ratings:event_table", args=[table.pk]),
        "round_cards": reverse("ratings:round_cards", args=[event.pk, 1]),
        "season": reverse("ratings:leaderboard", args=[league.slug]) + season + "&min_games=1",
        "season_export": reverse("ratings:leaderboard_export", args=[league.slug, "csv"]) + season,
        "head_to_head": reverse("ratings:head_to_head", args=[player.slug, opponent.slug]),
    }


def played_event(league, players, *, rounds: int, **fields) -> Event:
    """An event of ``league`` with ``rounds`` rounds drawn and every paper in but the last
    round's first table (so the page shows results, progress and a table waiting)."""
    event = make_event(league, players, rounds_total=rounds, **fields)
    for number in range(1, rounds + 1):
        drawn = event_services.round_draw(event=event)
        for table in drawn.tables.order_by("number")[1 if number == rounds else 0 :]:
            play_table(table)
    return event


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
    """Logged in: the same queries plus the session and the user, and still at most ten."""
    assert logged_in(page) <= 10
    with django_assert_num_queries(logged_in(page)):
        assert member_client.get(small_club[page]).status_code == 200


CACHED = [page for page in QUERIES if not page.endswith("export")]


@pytest.mark.django_db(transaction=True)  # committed, as a request's writes are
@pytest.mark.parametrize("page", CACHED)
def test_a_page_drawn_at_this_version_is_one_query(
    page, client, member_client, small_club, django_assert_num_queries
):
    """Asked again with no write in between, a page is the version and the cache: one query
    (for a member also their session and user, whose page is their own)."""
    first = client.get(small_club[page])
    with django_assert_num_queries(VERSION):
        again = client.get(small_club[page])
    assert again.content == first.content.replace(_csrf_field(first), _csrf_field(again)), (
        "the same page, but for its CSRF token"
    )
    member_client.get(small_club[page])
    with django_assert_num_queries(VERSION + LOGGED_IN):
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
