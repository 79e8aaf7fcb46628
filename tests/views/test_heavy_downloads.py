"""Downloads of a whole league cannot stall the site (issue #30, point 10).

Each export is cached by the data version as the pages are (ratings/download_cache.py): asked
again with no write in between, it is the version query and nothing else. An anonymous visitor
asking for more than ``HEAVY_READ_RATE`` of them (each address different, so none is in the
cache) gets a 429 with ``Retry-After``; members and staff are not throttled
(ratings/throttling.py, docs/operations.md).
"""

from __future__ import annotations

import socket

import pytest
from django.test import override_settings
from django.urls import reverse

from ratings.models import System
from tests.views.pages import VERSION
from tests.worked_example import WORKED_EXAMPLE_PAPERS

pytestmark = pytest.mark.django_db


@pytest.fixture
def downloads(worked_example_league, worked_example_game, make_league, make_player, record_game):
    """Every download of the club, on a league with a game (a scored league for rayter.txt)."""
    kille = make_league(System.RAYTER_HIGHSCORE, name="Kille", slug="kille", game_name="Kille")
    record_game(kille, [make_player("Dahlia"), make_player("John")], scores=[27, 15])
    slug = worked_example_league.slug
    return {
        "standings.csv": reverse("ratings:leaderboard_export", args=[slug, "csv"]),
        "standings.json": reverse("ratings:leaderboard_export", args=[slug, "json"]),
        "season.csv": reverse("ratings:leaderboard_export", args=[slug, "csv"])
        + f"?season={worked_example_game.played_at.year}",
        "games.csv": reverse("ratings:games_export", args=[slug, "csv"]),
        "games.json": reverse("ratings:games_export", args=[slug, "json"]),
        "rayter.txt": reverse("ratings:rayter_export", args=["kille"]),
    }


def body(response) -> bytes:
    if response.streaming:
        return b"".join(response.streaming_content)
    return response.content


@pytest.mark.django_db(transaction=True)  # committed, as a request's writes are
@pytest.mark.parametrize(
    "download",
    ["standings.csv", "standings.json", "season.csv", "games.csv", "games.json", "rayter.txt"],
)
def test_a_download_asked_again_at_this_version_is_one_query(
    client, member_client, downloads, download, django_assert_num_queries
):
    """The version, then the cache: the same bytes, the same file name, no query of the data."""
    url = downloads[download]
    first = client.get(url)
    assert first.status_code == 200
    expected = body(first)
    with django_assert_num_queries(VERSION):
        again = client.get(url)
        assert body(again) == expected
    assert again.streaming == first.streaming  # the games stream; a leaderboard is whole
    assert again["Content-Type"] == first["Content-Type"]
    assert again["Content-Disposition"] == first["Content-Disposition"]
    # A member gets the same file from the cache, without even their session read.
    with django_assert_num_queries(VERSION):
        assert body(member_client.get(url)) == expected


@pytest.mark.django_db(transaction=True)
def test_a_write_makes_the_next_download_fresh(
    client, downloads, worked_example_league, worked_example_players, record_game
):
    url = downloads["games.csv"]
    before = body(client.get(url))
    record_game(
        worked_example_league, worked_example_players, papers=WORKED_EXAMPLE_PAPERS, bula=30
    )
    after = body(client.get(url))
    assert after.count(b"\n") == before.count(b"\n") + 3


@pytest.mark.django_db(transaction=True)
def test_a_download_bigger_than_the_limit_is_sent_but_not_kept(
    client, downloads, settings, django_assert_num_queries
):
    settings.DOWNLOAD_CACHE_MAX_BYTES = 10
    url = downloads["games.json"]
    first = body(client.get(url))
    # Read again: the league, its results, its digital papers.
    with django_assert_num_queries(VERSION + 3):
        assert body(client.get(url)) == first


@pytest.mark.django_db(transaction=True)
def test_a_download_cut_short_is_not_kept(client, downloads, django_assert_num_queries):
    """A client that leaves mid-file (the stream closed unread) leaves nothing in the cache."""
    url = downloads["games.csv"]
    client.get(url).close()
    # Read again: the league, its results.
    with django_assert_num_queries(VERSION + 2):
        body(client.get(url))


def _burst(client, url: str, times: int) -> list:
    # Each address different (a parameter no view reads), so none comes from the cache.
    return [client.get(url, {"nocache": n}) for n in range(times)]


@pytest.mark.parametrize("download", ["standings.csv", "games.json", "rayter.txt"])
def test_an_anonymous_burst_past_the_rate_gets_429_with_retry_after(
    client, downloads, settings, download
):
    settings.HEAVY_READ_RATE = "3/min"
    responses = _burst(client, downloads[download], 5)
    assert [r.status_code for r in responses] == [200, 200, 200, 429, 429]
    refused = responses[-1]
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert "Too many downloads" in refused.content.decode()


def test_the_backtest_page_is_throttled_too(client, worked_example_league, settings):
    settings.HEAVY_READ_RATE = "2/min"
    url = reverse("ratings:backtest", args=[worked_example_league.slug])
    assert [r.status_code for r in _burst(client, url, 3)] == [200, 200, 429]


def test_every_heavy_download_counts_against_one_rate(client, downloads, settings):
    settings.HEAVY_READ_RATE = "2/min"
    assert client.get(downloads["games.csv"]).status_code == 200
    assert client.get(downloads["rayter.txt"]).status_code == 200
    assert client.get(downloads["standings.json"]).status_code == 429


def test_another_address_has_its_own_rate(client, downloads, settings):
    settings.HEAVY_READ_RATE = "1/min"
    url = downloads["games.csv"]
    assert client.get(url, REMOTE_ADDR="203.0.113.1").status_code == 200
    assert client.get(url + "?x", REMOTE_ADDR="203.0.113.1").status_code == 429
    assert client.get(url + "?y", REMOTE_ADDR="203.0.113.2").status_code == 200


def test_a_forged_forwarded_for_does_not_escape_the_rate(client, downloads, settings):
    """Without a trusted proxy X-Forwarded-For is anyone's to write: the socket's address counts."""
    settings.HEAVY_READ_RATE = "1/min"
    url = downloads["games.csv"]
    assert client.get(url, HTTP_X_FORWARDED_FOR="198.51.100.1").status_code == 200
    assert client.get(url + "?x", HTTP_X_FORWARDED_FOR="198.51.100.2").status_code == 429


@pytest.mark.django_db(transaction=True)
def test_a_download_from_the_cache_is_not_counted(client, downloads, settings):
    settings.HEAVY_READ_RATE = "1/min"
    url = downloads["games.csv"]
    assert body(client.get(url))  # read to its end: kept in the cache
    assert [client.get(url).status_code for _ in range(5)] == [200] * 5


@pytest.mark.parametrize("who", ["member_client", "staff_client"])
def test_members_and_staff_are_not_throttled(request, downloads, settings, who):
    settings.HEAVY_READ_RATE = "1/min"
    logged_in = request.getfixturevalue(who)
    for url in downloads.values():
        assert [r.status_code for r in _burst(logged_in, url, 3)] == [200] * 3


def test_a_cache_that_is_down_costs_speed_not_the_download(client, downloads, settings):
    """The downloads' cache and the throttle's history share ``CACHE_URL``: a Redis that does
    not answer lets every download through, drawn afresh."""
    nowhere = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": ""}
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))  # a port nothing listens on once closed
        nowhere["LOCATION"] = f"redis://127.0.0.1:{probe.getsockname()[1]}/0"
    settings.HEAVY_READ_RATE = "1/min"
    with override_settings(CACHES={"default": nowhere}):
        for url in downloads.values():
            for _ in range(2):
                response = client.get(url)
                assert response.status_code == 200, url
                assert body(response)
