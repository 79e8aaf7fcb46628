"""No query parameter makes a public page answer 500: a bad one gets a 400, or the page
answers as if it were absent, or the nearest valid page (issue #30, point 9).

Every page of tests/views/pages.py, plus the downloads, is asked with each parameter it reads
(and one it does not) set to each hostile value: huge and negative numbers, dates at the ends of
the calendar, non-ASCII, empty, a NUL byte, the parameter repeated.
"""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.urls import reverse

from tests.views.pages import played_event, urls

pytestmark = pytest.mark.django_db

# Every parameter a public page reads (forms, tables' sort and page, each player table's prefix).
PARAMETERS = (
    *("page", "sort", "per_page", "min_games", "inactive", "season", "from", "to", "by"),
    *("player", "q", "order", "system", "unknown"),
)
HOSTILE = (
    "9999-12-31",
    "0001-01-01",
    "-1",
    "200000000000000000",
    "1" * 400,
    "1e308",
    "NaN",
    "",
    "Ђорђе ✓",
    "\x00",
    "-",
    "2026-02-30",
)


@pytest.fixture
def pages(worked_example_game, worked_example_league, worked_example_players, settings):
    # Every download is asked hundreds of times: the throttle would answer most with a 429.
    settings.HEAVY_READ_RATE = "100000/min"
    played_event(worked_example_league, worked_example_players, rounds=1)
    found = urls(worked_example_league, worked_example_game, worked_example_players[0])
    slug = worked_example_league.slug
    found["games_csv"] = reverse("ratings:games_export", args=[slug, "csv"])
    found["games_json"] = reverse("ratings:games_export", args=[slug, "json"])
    found["standings_json"] = reverse("ratings:leaderboard_export", args=[slug, "json"])
    found["rayter"] = reverse("ratings:rayter_export", args=[slug])
    return found


def _with(url: str, query: str) -> str:
    return url + ("&" if "?" in url else "?") + query


def _names(page: str, slug: str) -> tuple[str, ...]:
    # The player page's tables read their parameters under the league's prefix.
    if page == "player":
        return (*PARAMETERS, *(f"{slug}-{name}" for name in PARAMETERS))
    return PARAMETERS


@pytest.mark.parametrize("value", HOSTILE)
def test_no_hostile_parameter_value_is_a_server_error(client, pages, worked_example_league, value):
    """Each parameter alone, then all of them at once, each given twice."""
    failures = []
    for page, url in pages.items():
        names = _names(page, worked_example_league.slug)
        asked = [_with(url, urlencode({name: value})) for name in names]
        asked.append(_with(url, urlencode([(name, value) for name in names for _ in (1, 2)])))
        for address in asked:
            status = client.get(address).status_code
            if status >= 500:
                failures.append((page, address, status))
    assert not failures, failures


@pytest.mark.parametrize(
    "query",
    [
        "from=9999-12-31&to=9999-12-31",
        "from=0001-01-01&to=0001-01-01",
        "from=0001-01-01",
        "to=9999-12-31",
        "season=9998",
        "season=1900",
    ],
)
def test_no_period_at_the_ends_of_the_calendar_is_a_server_error(client, pages, query):
    for page, url in pages.items():
        assert client.get(_with(url, query)).status_code < 500, (page, query)


def test_a_period_past_the_calendar_is_a_bad_request_for_the_export(client, pages):
    """The export says why (the page shows the form's error): issue #30's ``to=9999-12-31``."""
    response = client.get(_with(pages["export"], "to=9999-12-31"))
    assert response.status_code == 400
    assert client.get(_with(pages["standings_json"], "from=0001-01-01")).status_code == 400


def test_a_page_past_any_league_is_the_nearest_page_not_a_database_error(client, pages):
    """``page=200000000000000000`` once asked the database for an OFFSET past ``bigint``."""
    response = client.get(_with(pages["games"], "page=200000000000000000"))
    assert response.status_code == 200
