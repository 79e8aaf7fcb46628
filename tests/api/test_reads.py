"""The API's reads: shapes, filters, and a pinned number of queries whatever the club's size.

The counts are pinned so that an N+1 (a query per standing, per game, per seat) fails here.
A call with a token adds one query, the token with its member (and, once a minute, marking it
used).
"""

import re

import pytest
from django.test import Client

from ratings.events import services as event_services
from ratings.models import System
from tests.builders import make_event, play_table
from tests.worked_example import WORKED_EXAMPLE_PAPERS

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(prefko_league_with):
    return prefko_league_with(players=6, games=8)


def get(client: Client, path: str):
    response = client.get(f"/api/v1{path}")
    assert response.status_code == 200, response.content
    return response.json()


def test_leagues(client, club, django_assert_num_queries):
    league, _players = club
    with django_assert_num_queries(1):
        [row] = get(client, "/leagues")
    assert row["slug"] == league.slug
    assert (row["games"], row["players"], row["kind"], row["lower_is_better"]) == (
        8,
        6,
        "preferans",
        True,
    )


def test_standings_rank_best_first_with_status(client, club, django_assert_num_queries):
    league, _players = club
    league.provisional_games = 5
    league.save()
    with django_assert_num_queries(2):  # the league; the standings ranked by a window
        rows = get(client, f"/leagues/{league.slug}/standings")
    assert set(rows[0]) == {"rank", "player", "player_slug", "rating", "games", "status"}
    ranked = [row for row in rows if row["status"] == "ranked"]
    assert [row["rank"] for row in ranked] == sorted(row["rank"] for row in ranked)
    assert [row["rating"] for row in ranked] == sorted(row["rating"] for row in ranked)
    assert all(row["rank"] is None for row in rows if row["status"] == "provisional")


def test_players_search_as_the_directory(client, typo_club, django_assert_num_queries):
    with django_assert_num_queries(2):  # the players; their standings with leagues
        names = [row["name"] for row in get(client, "/players?q=ped")]
    assert names == ["Pedia", "Pedja"]
    assert [row["name"] for row in get(client, "/players?q=mar")] == ["Marko"]
    assert [row["name"] for row in get(client, "/players?q=Pedja")] == ["Pedia", "Pedja"]


def test_a_players_history_per_league(client, club, django_assert_num_queries):
    league, players = club
    with django_assert_num_queries(3):  # the player; their history; its leagues
        [history] = get(client, f"/players/{players[0].slug}/history")
    assert history["league"] == league.slug
    first, *rest = history["games"]
    for before, after in zip(history["games"], rest, strict=False):
        assert after["rating_before"] == before["rating_after"]


def test_games_by_cursor_newest_first(client, club, django_assert_num_queries):
    league, players = club
    with django_assert_num_queries(2):  # the page of games and one more; their results
        page = get(client, f"/games?league={league.slug}&limit=5")
    assert len(page["games"]) == 5
    rest = get(client, f"/games?league={league.slug}&limit=5&cursor={page['next_cursor']}")
    assert len(rest["games"]) == 3
    assert rest["next_cursor"] is None
    every = [game["played_at"] for game in page["games"] + rest["games"]]
    assert every == sorted(every, reverse=True)
    assert len({game["id"] for game in page["games"] + rest["games"]}) == 8
    mine = get(client, f"/games?player={players[0].slug}&limit=200")["games"]
    assert all(players[0].slug in {s["player_slug"] for s in game["seats"]} for game in mine)
    since = every[2]
    assert len(get(client, f"/games?since={since.replace('+', '%2B')}")["games"]) == 3


def test_a_bad_cursor_is_400(client, club):
    response = client.get("/api/v1/games?cursor=bm9wZQ")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "cursor"


@pytest.mark.parametrize(
    "cursor", ["0.0", "-9999999999999999.1", "9999999999999999.999999999999999999"]
)
def test_every_cursor_of_the_documented_pattern_is_taken(client, club, cursor):
    """The OpenAPI file gives the cursor's pattern: any text of it is a page (maybe empty),
    never a refusal."""
    games = client.get("/api/v1/openapi.json").json()["paths"]["/api/v1/games"]["get"]
    [schema] = [p["schema"] for p in games["parameters"] if p["name"] == "cursor"]
    [text, _null] = schema["anyOf"]
    assert re.fullmatch(text["pattern"], cursor)
    assert client.get(f"/api/v1/games?cursor={cursor}").status_code == 200


@pytest.mark.parametrize(
    ("query", "field"),
    [
        # PostgreSQL keeps offsets up to 15:59: beyond, it refused the query with a 500.
        ("until=2026-01-01T00:00:00-17:15", "until"),
        ("since=2026-01-01T00:00:00%2B23:59", "since"),
        # pydantic took a number for seconds since 1970.
        ("since=0.78", "since"),
        ("until=1700000000", "until"),
        # Before year 1 in UTC: SQLite's adapter overflowed.
        ("since=0001-01-01T00:00:00%2B01:00", "since"),
        # Beyond the shape's bound: ninja's own 422, in another shape.
        ("limit=201", "limit"),
    ],
)
def test_a_time_or_number_the_database_cannot_take_is_400_naming_it(client, club, query, field):
    response = client.get(f"/api/v1/games?{query}")
    assert response.status_code == 400, response.content
    [error] = response.json()["errors"]
    assert error["field"] == field


def test_a_time_without_an_offset_is_the_clubs(client, club, settings):
    assert len(get(client, "/games?since=1900-01-01T00:00")["games"]) == 8
    assert get(client, "/games?until=1900-01-01T00:00:00")["games"] == []


@pytest.mark.parametrize("offset", [2**63, 2**64 + 5, 10**9 + 1, -1])
def test_a_players_offset_out_of_range_is_400(client, club, offset):
    response = client.get(f"/api/v1/players?offset={offset}")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "offset"
    assert get(client, f"/players?offset={10**9}") == []


def test_a_game_with_its_seats(client, worked_example_game, django_assert_num_queries):
    with django_assert_num_queries(2):
        game = get(client, f"/games/{worked_example_game.pk}")
    assert [seat["final"] for seat in game["seats"]] == [-500, 40, 460]
    assert [(s["left"], s["middle"], s["right"]) for s in game["seats"]] == [
        tuple(paper) for paper in WORKED_EXAMPLE_PAPERS
    ]
    assert client.get("/api/v1/games/999999").status_code == 404


def test_head_to_head(client, typo_club, django_assert_num_queries):
    league, pedja, pedia = typo_club
    with django_assert_num_queries(3):  # both players; their record; the leagues
        body = get(client, "/players/pedja/vs/marko")
    [record] = body["leagues"]
    assert (record["league"], record["games"]) == (league.slug, 2)
    assert client.get("/api/v1/players/pedja/vs/nobody").status_code == 404


def test_events_with_rounds_tables_and_standings(
    client, make_league, make_player, django_assert_num_queries
):
    league = make_league(System.PREFKO)
    players = [make_player() for _ in range(6)]
    event = make_event(league, players)
    event_round = event_services.round_draw(event=event)
    play_table(event_round.tables.order_by("number").first(), WORKED_EXAMPLE_PAPERS)
    [summary] = get(client, f"/leagues/{league.slug}/events")
    assert (summary["id"], summary["players"], summary["rounds"]) == (event.pk, 6, 1)
    with django_assert_num_queries(5):
        body = get(client, f"/events/{event.pk}")
    [round_one] = body["rounds"]
    played, waiting = round_one["tables"]
    assert played["game_id"] is not None and waiting["game_id"] is None
    assert sorted(seat["final"] for seat in played["seats"]) == [-500, 40, 460]
    assert len(body["standings"]) == 6


def test_a_private_club_reads_only_with_a_token(settings, api, client, club):
    settings.CLUB_PRIVATE = True
    assert client.get("/api/v1/leagues").status_code == 401
    assert api.get("/api/v1/leagues").status_code == 200


def test_a_token_that_is_not_valid_is_401_even_where_reading_needs_none(client, club):
    assert client.get("/api/v1/leagues").status_code == 200
    bad = Client(headers={"Authorization": "Bearer club_revoked-long-ago"})
    assert bad.get("/api/v1/leagues").status_code == 401


def test_a_token_costs_one_query_and_marks_its_use_once_a_minute(
    api, club, django_assert_num_queries
):
    with django_assert_num_queries(1 + 2):  # the token with its member; "last used"
        api.get("/api/v1/leagues")
    with django_assert_num_queries(1 + 1):
        api.get("/api/v1/leagues")
