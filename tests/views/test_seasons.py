"""The leaderboard for a period: ?season=YYYY or ?from=…&to=…, the tabs, and the exports."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

import pytest
from django.urls import reverse

from ratings.models import System
from tests.builders import leaderboard_export
from tests.views.pages import QUERIES, assert_same_as_django_tables2
from tests.worked_example import WORKED_EXAMPLE_PAPERS

pytestmark = pytest.mark.django_db

# A league of two-player games over three years with a gap: 2023 and 2025, none in 2024.
DAYS = {
    datetime(2023, 3, 1, 20, tzinfo=UTC): ("Ana", "Bojan", (1, 0)),
    datetime(2023, 6, 1, 20, tzinfo=UTC): ("Bojan", "Ceca", (0.5, 0.5)),
    datetime(2025, 2, 1, 20, tzinfo=UTC): ("Ana", "Ceca", (0, 1)),
    datetime(2025, 2, 2, 20, tzinfo=UTC): ("Ana", "Bojan", (0, 1)),
    datetime(2025, 7, 9, 20, tzinfo=UTC): ("Ceca", "Bojan", (1, 0)),
}


@pytest.fixture
def chess(make_league, make_player, record_game):
    league = make_league(System.ELO, name="Chess", start_rating=1500)
    people = {name: make_player(name) for name in ("Ana", "Bojan", "Ceca")}
    for played_at, (white, black, scores) in DAYS.items():
        record_game(league, [people[white], people[black]], scores=scores, played_at=played_at)
    return league


def leaderboard(client, league, **query):
    return client.get(reverse("ratings:leaderboard", args=[league.slug]), query)


def csv_rows(response) -> list[dict]:
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def test_it_has_a_tab_for_each_year_with_games(client, chess):
    response = leaderboard(client, chess)

    labels = [tab.label for tab in response.context["tabs"]]
    assert labels == ["All time", "2023", "2025"]
    assert [tab.current for tab in response.context["tabs"]] == [True, False, False]
    assert 'href="/leagues/chess/?season=2025"' in response.content.decode()


def test_a_season_shows_the_period_table(client, chess):
    response = leaderboard(client, chess, season=2025)

    html = response.content.decode()
    assert "Season 2025" in html
    assert [tab.current for tab in response.context["tabs"]] == [False, False, True]
    rows = {row.name: row for row in response.context["table"].data}
    assert {name: row.games for name, row in rows.items()} == {"Ana": 2, "Bojan": 2, "Ceca": 2}
    assert {name: row.wins for name, row in rows.items()} == {"Ana": 0, "Bojan": 1, "Ceca": 2}
    assert "Rating at the end" in html
    assert "Wins" in html  # two-player games: first places read as wins


def test_ratings_carry_on_from_one_season_to_the_next(client, chess):
    """A season is a view: its change starts from the rating the year before ended with."""
    seasons = {
        year: {
            row.name: row for row in leaderboard(client, chess, season=year).context["table"].data
        }
        for year in (2023, 2025)
    }
    for name in ("Ana", "Bojan"):
        before = seasons[2023][name].rating
        after = seasons[2025][name]
        assert after.rating - after.change == pytest.approx(before)
    assert seasons[2025]["Ceca"].rating == chess.standings.get(player__name="Ceca").rating


def test_dates_give_a_period_and_either_end_may_be_open(client, chess):
    spring = leaderboard(client, chess, **{"from": "2025-02-01", "to": "2025-02-01"})
    since = leaderboard(client, chess, **{"from": "2025-02-02"})
    until = leaderboard(client, chess, to="2023-12-31")

    assert sorted(row.name for row in spring.context["table"].data) == ["Ana", "Ceca"]
    assert "From 2025-02-01 to 2025-02-01" in spring.content.decode()
    assert sum(row.games for row in since.context["table"].data) == 4
    assert "From 2025-02-02" in since.content.decode()
    assert sum(row.games for row in until.context["table"].data) == 4
    assert "Until 2023-12-31" in until.content.decode()


def test_it_ranks_by_change_in_the_league_direction(
    client, worked_example_league, worked_example_players, record_game
):
    """prefko: a lower rating is better, so the biggest fall ranks first."""
    pedja, marko, johnny = worked_example_players
    record_game(
        worked_example_league,
        worked_example_players,
        papers=WORKED_EXAMPLE_PAPERS,
        played_at=datetime(2026, 3, 1, tzinfo=UTC),
    )
    by_change = (
        leaderboard(client, worked_example_league, season=2026, by="change").context["table"].data
    )
    by_rating = leaderboard(client, worked_example_league, season=2026).context["table"].data

    assert [(row.rank, row.name) for row in by_change] == [
        (1, "Pedja"),
        (2, "Marko"),
        (3, "Johnny"),
    ]
    assert [row.change for row in by_change] == [-27, 2, 25]
    assert [(row.rank, row.name) for row in by_rating] == [
        (1, "Johnny"),
        (2, "Marko"),
        (3, "Pedja"),
    ]
    assert [row.rating for row in by_rating] == [1125, 1152, 1173]


def test_a_bad_period_is_a_form_error_and_the_whole_history_is_shown(client, chess):
    for query, message in (
        ({"season": "next"}, "Enter a whole number."),
        ({"from": "1.2.2025"}, "Enter a valid date."),
        ({"from": "2025-03-01", "to": "2025-02-01"}, "The period ends before it starts."),
        ({"season": "2025", "from": "2025-02-01"}, "Choose a season or dates, not both."),
    ):
        response = leaderboard(client, chess, **query)

        assert response.status_code == 200
        html = response.content.decode()
        assert message in html, query
        assert "Showing the whole history instead." in html
        assert response.context["period"] is None


def test_the_exports_follow_the_period(client, chess):
    rows = csv_rows(leaderboard_export(client, chess, season=2025, by="change"))
    payload = leaderboard_export(client, chess, "json", season=2025).json()

    assert list(rows[0]) == [
        "rank", "name", "games", "rating", "change", "average_score", "first_places",
        "shared_first_places", "provisional",
    ]  # fmt: skip
    assert sorted((row["name"], row["games"]) for row in rows) == [
        ("Ana", "2"),
        ("Bojan", "2"),
        ("Ceca", "2"),
    ]
    assert payload["period"] == {
        "season": 2025,
        "from": "2025-01-01",
        "to": "2025-12-31",
        "ranked_by": "rating",
    }
    assert [row["name"] for row in payload["standings"]] == [row.name for row in (
        leaderboard(client, chess, season=2025).context["table"].data
    )]  # fmt: skip
    disposition = leaderboard_export(client, chess, **{"from": "2025-02-01"})["Content-Disposition"]
    assert "chess-from-2025-02-01-standings.csv" in disposition


def test_the_page_links_its_exports_with_the_period(client, chess):
    html = leaderboard(client, chess, season=2025, min_games=2).content.decode()

    assert "/leagues/chess/standings.csv?min_games=2&amp;season=2025" in html


@pytest.mark.parametrize(
    "query",
    [{"season": "x"}, {"from": "2025-13-01"}, {"from": "2025-03-01", "to": "2025-01-01"}],
)
def test_an_export_with_a_bad_period_is_a_400_saying_why(client, chess, query):
    response = leaderboard_export(client, chess, **query)

    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/plain")
    assert response.content.decode().strip()


def test_the_period_table_reads_as_django_tables2_renders_it(client, monkeypatch, chess):
    assert_same_as_django_tables2(
        client,
        monkeypatch,
        [
            reverse("ratings:leaderboard", args=[chess.slug]) + "?season=2025",
            reverse("ratings:leaderboard", args=[chess.slug]) + "?from=2023-01-01&sort=-games",
            reverse("ratings:leaderboard", args=[chess.slug]) + "?season=2024",
        ],
    )


def test_a_year_without_games_is_an_empty_table(client, chess):
    response = leaderboard(client, chess, season=2024)

    assert "No one played in this league in this period." in response.content.decode()


def test_the_season_page_costs_the_same_whatever_the_history(
    client, chess, prefko_league_with, django_assert_num_queries
):
    """A list rendered from one query: the count is the page's, never the league's (pinned with
    the other pages' in tests/views/test_page_queries.py)."""
    big, _people = prefko_league_with(players=30, games=120)
    # A head-to-head league has no paper, so no query for the digital papers in progress.
    for league, season, papers in ((chess, 2025, 0), (big, 2026, 1)):
        with django_assert_num_queries(QUERIES["season"] - 1 + papers):
            assert leaderboard(client, league, season=season).status_code == 200
        with django_assert_num_queries(QUERIES["season_export"]):
            assert leaderboard_export(client, league, season=season).status_code == 200
