"""No page shows a rating older than the last committed write (ratings.page_cache).

Every page is read, a write is made (through the engine, the event services, the admin, or a
plain UPDATE that no Django code sees), and every page read again must be the page drawn afresh
from the database: through this process's cache, through another process's, and while writers
and readers run side by side.
"""

from __future__ import annotations

import gzip
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from club import settings as settings_module
from ratings import engine, page_cache, pagination, selectors, versioning
from ratings.events import services as event_services
from ratings.events.models import Event
from ratings.models import Game, League, Player, Standing
from ratings.papers import services as paper_services
from tests.builders import (
    OTHER_APPS_STATIC,
    T0,
    make_players,
    one_gzip_member,
    paper_entries,
    production_static_files,
    release_static_files,
)
from tests.papers.deals import SHORT_GAME, enter
from tests.views.pages import (
    CACHED,
    LEADERBOARD_DRAWN,
    LOGGED_IN,
    from_cache,
    played_event,
    urls,
)
from tests.worked_example import SMALL_PAPERS

# Each write commits, as a request's does: on PostgreSQL the version changes once per
# transaction, so inside one test-long transaction nothing would be cached (versioning.current).
pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
CSRF_FIELD = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]+"')


def without_token(content: bytes) -> bytes:
    return CSRF_FIELD.sub(b"", content)


@pytest.fixture
def club(prefko_league_with):
    """A league of 8 with 12 games, a night of 6 of them with its first round played, and the
    pages of its busiest player (the event's page is the night's)."""
    league, people = prefko_league_with(players=8, games=12)
    players = list(Player.objects.filter(standings__league=league).order_by("pk"))
    night = played_event(league, players[:6], rounds=1)
    game = Game.objects.filter(league=league).newest_first().first()
    player = game.results.order_by("seat").first().player
    pages = {page: url for page, url in urls(league, game, player, night).items() if page in CACHED}
    return league, players, player, pages


def read_all(client: Client, pages: dict[str, str]) -> dict[str, bytes]:
    read = {}
    for page, url in pages.items():
        response = client.get(url, follow=True)  # a renamed player's old address redirects
        assert response.status_code == 200, page
        read[page] = without_token(response.content)
    return read


def assert_fresh(client: Client, pages: dict[str, str]) -> dict[str, bytes]:
    """Every page as served equals the page drawn with no cache at all."""
    served = read_all(client, pages)
    cache.clear()
    drawn = read_all(Client(**client.defaults), pages)
    for page in pages:
        assert served[page] == drawn[page], f"{page} was served stale"
    return served


def record(league, players, played_at=None):
    return engine.game_record(
        league=league,
        played_at=played_at or T0 + timedelta(days=30),
        entries=paper_entries(players, SMALL_PAPERS),
        bula=30,
    )


# Writes of every kind, each as a plain function of the club.


def new_game(league, players, player):
    record(league, [player, *[p for p in players if p != player][:2]])


def edited_game(league, players, player):
    game = Game.objects.filter(league=league, results__player=player).newest_first().first()
    seats = [result.player for result in game.results.order_by("seat")]
    engine.game_update(
        game=game,
        played_at=game.played_at,
        entries=paper_entries(seats[::-1], SMALL_PAPERS),
        bula=50,
    )


def deleted_game(league, players, player):
    engine.game_delete(game=Game.objects.filter(league=league).order_by("played_at").first())


def first_game_edited(league, players, player):
    """The whole league re-rated: every rating after the first game changes."""
    game = Game.objects.filter(league=league).order_by("played_at").first()
    engine.game_update(
        game=game,
        played_at=game.played_at,
        entries=paper_entries([r.player for r in game.results.order_by("-seat")], SMALL_PAPERS),
        bula=40,
    )


def renamed(league, players, player):
    engine.player_rename(player=player, name="Renamed Player")


def raw_update(league, players, player):
    """A write no Django signal sees: a plain UPDATE through the cursor."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Standing._meta.db_table} SET rating = rating + 7 WHERE league_id = %s",
            [league.pk],
        )


def backdated_game_of_others(league, players, player):
    """A game of three other players before every game: the league's later games are re-rated,
    the player's among them (their versions move through the rows the replay rewrites)."""
    others = [p for p in players if p != player][:3]
    record(league, others, played_at=Game.objects.order_by("played_at").first().played_at - DAY)


def opponent_renamed(league, players, player):
    """The player's page names their opponents."""
    opponent = Game.objects.filter(results__player=player).first().results.exclude(player=player)
    engine.player_rename(player=opponent.first().player, name="Renamed Opponent")


def merged(league, players, player):
    """Another player merged into the player: their games become the player's."""
    met = Player.objects.filter(results__game__results__player=player)
    engine.player_merge(source=next(p for p in players if p not in met), target=player)


def event_renamed(league, players, player):
    """The night's name, on the pages of its players: a plain UPDATE of the event's row."""
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {Event._meta.db_table} SET name = 'Renamed night'")


def round_closed(league, players, player):
    event_services.round_close(event_round=Event.objects.get().rounds.get())


def league_settings(league, players, player):
    League.objects.filter(pk=league.pk).update(name="Renamed League", provisional_games=0)


WRITES = [
    new_game,
    edited_game,
    deleted_game,
    first_game_edited,
    backdated_game_of_others,
    renamed,
    opponent_renamed,
    merged,
    raw_update,
    event_renamed,
    round_closed,
    league_settings,
]
DAY = timedelta(days=1)


@pytest.mark.parametrize("write", WRITES, ids=lambda write: write.__name__)
def test_after_any_write_every_page_is_as_drawn_afresh(client, club, write):
    league, players, player, pages = club
    before = read_all(client, pages)
    version = versioning.current()

    write(league, players, player)

    assert versioning.current() != version
    after = assert_fresh(client, pages)
    changed = {page for page in pages if after[page] != before[page]}
    assert changed, "the write shows on some page"


def test_a_new_game_shows_on_every_page_it_belongs_to(client, club):
    """The pages this game changes do change (the check above is not passing on empty pages)."""
    league, players, player, pages = club
    before = read_all(client, pages)
    new_game(league, players, player)
    after = assert_fresh(client, pages)
    for page in ("home", "leaderboard", "games", "player", "players", "head_to_head"):
        assert after[page] != before[page], page


def test_a_page_is_drawn_again_in_each_period_of_the_clock(
    client, club, django_assert_num_queries, monkeypatch
):
    """Facts that change with the clock, not the data ("games in the last 30 days", who is
    inactive), are at most an hour old: a page is served from the cache within one period of
    CLOCK_FACTS_MAX_AGE and drawn again in the next, with no write between."""
    assert timedelta(hours=1) == page_cache.CLOCK_FACTS_MAX_AGE
    start = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    clock = [start]
    monkeypatch.setattr(timezone, "now", lambda: clock[0])
    url = club[3]["leaderboard"]
    client.get(url)

    clock[0] = start + page_cache.CLOCK_FACTS_MAX_AGE - timedelta(microseconds=1)
    with django_assert_num_queries(1):
        client.get(url)
    clock[0] = start + page_cache.CLOCK_FACTS_MAX_AGE
    with django_assert_num_queries(LEADERBOARD_DRAWN):
        client.get(url)


def test_a_page_drawn_in_the_requests_own_transaction_is_not_cached(client, club, monkeypatch):
    """With ATOMIC_REQUESTS (or a view's own transaction) the version read may be one nobody
    else sees yet, or one a rollback will reuse."""
    url = club[3]["leaderboard"]
    monkeypatch.setitem(connection.settings_dict, "ATOMIC_REQUESTS", True)
    client.get(url)
    client.get(url)
    monkeypatch.setitem(connection.settings_dict, "ATOMIC_REQUESTS", False)

    with CaptureQueriesContext(connection) as drawn:
        client.get(url)
    with CaptureQueriesContext(connection) as cached:
        client.get(url)

    assert len(drawn) > 1
    assert len(cached) == 1


def test_pages_come_from_the_cache_until_a_write(
    client, club, django_assert_num_queries, django_assert_max_num_queries
):
    """The cache is really used (one query: the version; the player page's rank, read when they
    are ranked somewhere), and left after the write."""
    league, players, player, pages = club
    read_all(client, pages)
    for page, url in pages.items():
        with django_assert_max_num_queries(from_cache(page)):
            client.get(url)
    new_game(league, players, player)
    with django_assert_num_queries(LEADERBOARD_DRAWN):  # drawn again
        assert client.get(pages["leaderboard"]).status_code == 200


# A version per league ------------------------------------------------------------------------

# The pages of one league (keyed by its version); the others show every league.
LEAGUE_PAGES = [
    *("leaderboard", "season", "games", "games_by_player", "backtest", "game"),
    *("events", "event", "event_table", "round_cards"),
]


def night_round_closed(league, players, player):
    event_services.round_close(event_round=Event.objects.get(league=league).rounds.get())


@pytest.mark.parametrize(
    "write",
    [new_game, edited_game, deleted_game, first_game_edited, raw_update, night_round_closed],
    ids=lambda write: write.__name__,
)
def test_a_write_in_one_league_leaves_the_other_leagues_pages_cached(
    client, club, prefko_league_with, django_assert_num_queries, write
):
    """Every page of the other league stays in the cache (its one query, the versions) and is
    still the page drawn afresh; the written league's pages, and those of the whole club, are
    drawn again and fresh."""
    league, players, player, pages = club
    other, people = prefko_league_with(players=6, games=5, seed=3)
    night = played_event(other, people, rounds=1)
    game = Game.objects.filter(league=other).newest_first().first()
    someone = game.results.order_by("seat").first().player
    others = {
        page: url for page, url in urls(other, game, someone, night).items() if page in LEAGUE_PAGES
    }
    kept = read_all(client, others)
    read_all(client, pages)

    write(league, players, player)

    for page, url in others.items():
        with django_assert_num_queries(from_cache(page)):
            response = client.get(url)
        assert without_token(response.content) == kept[page], page
    assert_fresh(client, {**pages, **others})


def test_a_page_of_some_leagues_is_keyed_by_their_versions_only(client, club):
    """What a page shows: a league's page its league (by its slug, its game or table), the
    club's pages every league; a page of players (a player's, two players', a night's) their
    versions in their leagues."""
    league, players, player, pages = club
    by_league = ("leaderboard", "game", "event_table", "home")
    by_players = ("player", "head_to_head", "event")
    for page in (*by_league, *by_players, "season"):
        client.get(pages[page])
    with CaptureQueriesContext(connection) as queries:
        client.get(pages["season"])
    assert "ratings_seasonversion" in queries[0]["sql"]
    assert "ratings_playerversion" not in queries[0]["sql"]
    for page in (*by_league, *by_players):
        with CaptureQueriesContext(connection) as queries:
            client.get(pages[page])
        version = queries[0]["sql"]
        if page in by_league:
            assert "ratings_leagueversion" in version and "ratings_playerversion" not in version
            assert "ratings_seasonversion" not in version
            assert ("IN (SELECT" in version) == (page != "home"), page
        else:
            assert "ratings_playerversion" in version, page


# A version per player ----------------------------------------------------------------------------

PLAYERS_PAGES = ("player", "head_to_head", "event")


def assert_kept(client, pages: dict[str, str], kept: dict[str, bytes], assert_max_queries) -> None:
    """Each page served from the cache (its versions, and what it reads for its key), as it
    was. A page named ``kind:name`` costs what its kind does."""
    for page, content in kept.items():
        with assert_max_queries(from_cache(page.split(":")[0], after_a_write=True)):
            response = client.get(pages[page])
        assert without_token(response.content) == content, page


def test_a_game_of_other_players_leaves_the_pages_of_players_cached(
    client, club, django_assert_max_num_queries
):
    """A player's page, a head to head and a night's page are keyed by their players' versions:
    a game of three others (new to the league, so nobody's rank moves) leaves them cached, and
    every page is still the page drawn afresh."""
    league, players, player, pages = club
    newcomers = make_players(3)  # a new player is a club-wide write: made before the reading
    kept = read_all(client, {page: pages[page] for page in PLAYERS_PAGES})
    read_all(client, pages)

    record(league, newcomers)

    assert_kept(client, pages, kept, django_assert_max_num_queries)
    after = assert_fresh(client, pages)
    assert newcomers[0].name in after["games"].decode()  # the league's pages moved


def test_a_write_of_others_that_moves_a_players_rank_shows_on_their_page(client, club):
    """Other players' standings move a player's rank, which the player's own versions do not
    count: the ranks are kept by every league's versions (page_cache.kept_read), and the
    player's page shows the new rank. (A correction by staff of another player's rating.)"""
    league, players, player, pages = club
    League.objects.filter(pk=league.pk).update(provisional_games=0)  # everyone ranked
    mine = Standing.objects.get(league=league, player=player)
    behind = Standing.objects.filter(league=league, rating__gt=mine.rating).first()
    assert behind is not None, "someone ranked after the player (prefko: a higher rating)"

    def ranks():
        return [standing.rank for standing in selectors.player_standings(player.slug)]

    ranked = ranks()
    before = read_all(client, pages)

    Standing.objects.filter(pk=behind.pk).update(rating=mine.rating - 100)

    assert ranks() == [ranked[0] + 1]
    after = assert_fresh(client, pages)
    assert after["player"] != before["player"]


def test_a_game_off_the_leaderboards_page_leaves_it_as_drawn(client, club):
    """The leaderboard of all time has a second key: its frame's versions and every value of
    the rows it shows (ratings.page_cache.Rows). A game of three newcomers, whom its filter
    leaves off the page, moves the league's version but not the page: it is taken from the
    cache, not drawn (its versions, its frame's, and the statement of its rows, kept by the
    frame's versions: three queries). A game of players on it draws it again. Every page stays
    the page drawn afresh."""
    league, players, player, pages = club
    newcomers = make_players(3)  # a new player is a club-wide write: made before the reading
    newest = Game.objects.filter(league=league).newest_first().first()
    url = reverse("ratings:leaderboard", args=[league.slug]) + "?min_games=2"
    theirs = {**pages, "leaderboard:regulars": url}
    before = read_all(client, theirs)

    record(league, newcomers, played_at=newest.played_at + DAY)

    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert not response.templates, "drawn again"
    assert len(queries) == 3
    assert without_token(response.content) == before["leaderboard:regulars"]
    assert_fresh(client, theirs)

    record(league, players[:3], played_at=newest.played_at + 2 * DAY)

    response = client.get(url)
    assert response.templates, "taken from the cache"
    after = assert_fresh(client, theirs)
    assert after["leaderboard:regulars"] != before["leaderboard:regulars"]


def test_a_later_leaderboard_page_and_one_past_the_end_stay_fresh(client, club, monkeypatch):
    """The second key reads a page's rows by the statement of that page, kept by the frame's
    versions: page 2 follows a game of newcomers and one of its own players, and an address
    past the end (shown as the last page, which the next count moves) has no such statement and
    is drawn again. Pages of 3 rows: the club's 8 players make three pages, 3 newcomers four."""
    monkeypatch.setattr(pagination, "PER_PAGE", 3)
    league, players, player, pages = club
    newest = Game.objects.filter(league=league).newest_first().first()
    leaderboard = reverse("ratings:leaderboard", args=[league.slug])
    theirs = {"second": f"{leaderboard}?page=2", "past the end": f"{leaderboard}?page=9"}
    before = read_all(client, theirs)

    record(league, make_players(3), played_at=newest.played_at + DAY)
    middle = assert_fresh(client, theirs)
    on_page_two = [standing.player for standing in selectors.league_standings(league)[3:6]]
    record(league, on_page_two, played_at=newest.played_at + 2 * DAY)
    after = assert_fresh(client, theirs)

    assert before["past the end"] != middle["past the end"]  # the newcomers' page
    assert middle["second"] != after["second"]


def test_a_deal_at_a_table_leaves_the_night_and_its_players_pages_cached(
    client, club, django_assert_max_num_queries
):
    """A deal changes its players' papers' number only: the night's page and its players'
    pages (which show no paper) stay cached; the paper's page and a head to head of two of its
    players (their papers' deals) are drawn again, fresh."""
    league, players, player, pages = club
    seated = [p for p in players if p != player][:3]
    paper = paper_services.paper_start(league=league, players=seated, bula=30)
    theirs = {
        **pages,
        "paper": reverse("ratings:paper", args=[paper.pk]),
        "player:seated": reverse("ratings:player", args=[seated[0].slug]),
        "head_to_head:seated": reverse(
            "ratings:head_to_head", args=[seated[0].slug, seated[1].slug]
        ),
    }
    kept = read_all(client, {page: theirs[page] for page in ("event", "player:seated")})
    read_all(client, theirs)

    enter(paper, SHORT_GAME[:1])

    assert_kept(client, theirs, kept, django_assert_max_num_queries)
    assert_fresh(client, theirs)


# A version per season ----------------------------------------------------------------------------


def test_a_game_of_another_season_leaves_a_season_page_cached(
    client, club, django_assert_max_num_queries
):
    """A season page is keyed by its season's version and its frame's (which seasons have
    games, the league's events and papers in progress): a game of this season by players who
    have played in it leaves last season's page cached, and every page is still the page drawn
    afresh, this season's changed."""
    league, players, player, pages = club
    newest = Game.objects.filter(league=league).newest_first().first()
    seated = [result.player for result in newest.results.order_by("seat")]
    earlier = newest.played_at.replace(year=newest.played_at.year - 1)
    record(league, seated, played_at=earlier)  # a season before: its tab comes
    theirs = {
        **pages,
        "season:last": reverse("ratings:leaderboard", args=[league.slug])
        + f"?season={earlier.year}&min_games=1",
    }
    kept = read_all(client, {"season:last": theirs["season:last"]})
    before = read_all(client, theirs)

    record(league, seated, played_at=newest.played_at + DAY)

    assert_kept(client, theirs, kept, django_assert_max_num_queries)
    after = assert_fresh(client, theirs)
    assert after["season"] != before["season"]


def test_what_a_season_page_shows_around_its_table_draws_it_again(client, club):
    """The frame: a paper started in the league (its papers in progress) and its first deal
    (their deal counts) show on every season page of the league, which is drawn again."""
    league, players, player, pages = club
    before = read_all(client, pages)

    paper = paper_services.paper_start(league=league, players=players[:3], bula=30)
    started = assert_fresh(client, pages)
    enter(paper, SHORT_GAME[:1])
    dealt = assert_fresh(client, pages)

    assert before["season"] != started["season"] != dealt["season"]


# Conditional GET --------------------------------------------------------------------------------


def test_the_browser_gets_304_until_the_data_changes(client, club):
    league, players, player, pages = club
    client.get(pages["leaderboard"])  # the first visit sets the CSRF cookie its page's form uses
    first = client.get(pages["leaderboard"])
    etag = first["ETag"]
    assert "no-cache" in first["Cache-Control"]

    again = client.get(pages["leaderboard"], headers={"if-none-match": etag})
    assert again.status_code == 304
    assert again.content == b""

    new_game(league, players, player)
    changed = client.get(pages["leaderboard"], headers={"if-none-match": etag})
    assert changed.status_code == 200
    assert changed["ETag"] != etag


def watch(client, url: str, etag: str):
    return client.get(url, headers={"if-none-match": etag})


def test_a_phone_watching_a_paper_gets_304_for_one_query_until_a_deal_at_its_table(
    client, member_client, club, django_assert_num_queries
):
    """The live paper's refresh (static/paper_live.js): 304 without drawing, one query, while
    other tables deal and other players' games are recorded; the page again after its own
    table's deal. A member's page (with the deal form) is their own, keyed the same way."""
    league, players, player, pages = club
    mine, others = players[:3], players[3:6]
    paper = paper_services.paper_start(league=league, players=mine, bula=30)
    other = paper_services.paper_start(league=league, players=others, bula=30)
    enter(paper, SHORT_GAME[:1])  # past the first deal, the page shows no league's outlook
    url = reverse("ratings:paper", args=[paper.pk])
    etags = {}
    for name, watcher in (("visitor", client), ("member", member_client)):
        watcher.get(url)  # the first visit sets the CSRF cookie
        etags[name] = watcher.get(url)["ETag"]
        with django_assert_num_queries(1 if name == "visitor" else 1 + LOGGED_IN):
            assert watch(watcher, url, etags[name]).status_code == 304

    enter(other, SHORT_GAME[:2])
    record(league, [p for p in players if p not in mine][:3])
    for name, watcher in (("visitor", client), ("member", member_client)):
        assert watch(watcher, url, etags[name]).status_code == 304, name

    enter(paper, SHORT_GAME[1:2])
    for name, watcher in (("visitor", client), ("member", member_client)):
        fresh = watch(watcher, url, etags[name])
        assert fresh.status_code == 200 and fresh["ETag"] != etags[name], name
        assert fresh.content.count(b"data-live-paper") == 1


def test_a_paper_before_its_first_deal_follows_its_leagues_games_not_its_papers(client, club):
    """Its first page shows each player's chances from the league's recent games: a game of
    other players draws it again; the other tables' deals (at a club night, every few seconds)
    do not, nor a deal taken back there."""
    league, players, player, pages = club
    paper = paper_services.paper_start(league=league, players=players[:3], bula=30)
    other = paper_services.paper_start(league=league, players=players[3:6], bula=30)
    url = reverse("ratings:paper", args=[paper.pk])
    client.get(url)
    etag = client.get(url)["ETag"]

    enter(other, SHORT_GAME[:2])
    paper_services.deal_undo(paper=other, after=2)
    assert watch(client, url, etag).status_code == 304
    leaderboard = client.get(pages["leaderboard"])  # its papers in progress: drawn again
    assert watch(client, pages["leaderboard"], leaderboard["ETag"]).status_code == 304
    enter(other, SHORT_GAME[1:2])
    assert watch(client, pages["leaderboard"], leaderboard["ETag"]).status_code == 200

    record(league, players[3:6])
    assert watch(client, url, etag).status_code == 200


def test_a_phone_watching_a_night_gets_304_while_its_tables_deal(
    client, club, django_assert_num_queries
):
    """The night's page: two queries (its players' versions, its own row) answer 304 while
    its tables' papers fill; a round closed draws it again."""
    league, players, player, pages = club
    night = Event.objects.get()
    table = night.rounds.get().tables.filter(game=None).first()
    seated = [seat.player for seat in table.seats.order_by("seat")]
    paper = paper_services.paper_start(league=league, players=seated, bula=30, table=table)
    url = pages["event"]
    client.get(url)
    etag = client.get(url)["ETag"]

    enter(paper, SHORT_GAME[:2])
    with django_assert_num_queries(from_cache("event")):
        assert watch(client, url, etag).status_code == 304

    night_round_closed(league, players, player)
    assert watch(client, url, etag).status_code == 200


def test_a_release_that_changes_only_a_script_draws_every_page_again(client, club, tmp_path):
    """A page names its static files by their hashed addresses, and a shared cache outlives the
    restart after a release: a page cached before would load the release before's script."""
    league, players, player, pages = club
    with production_static_files(tmp_path, ignore=OTHER_APPS_STATIC) as source:
        read_all(client, pages)
        before = client.get(pages["leaderboard"])
        script = source / "offline.js"
        script.write_text(script.read_text() + "\n// changed\n")
        release_static_files(ignore=OTHER_APPS_STATIC)

        after = client.get(pages["leaderboard"], headers={"if-none-match": before["ETag"]})
        assert after.status_code == 200
        assert (
            re.search(rb"/static/offline\.\w+\.js", after.content).group()
            != re.search(rb"/static/offline\.\w+\.js", before.content).group()
        )
        assert_fresh(client, pages)


def test_a_page_for_another_language_or_member_is_its_own(client, member_client, club):
    league, players, player, pages = club
    english = client.get(pages["leaderboard"])
    serbian = client.get(pages["leaderboard"], headers={"accept-language": "sr-latn"})
    member = member_client.get(pages["leaderboard"])
    assert english["ETag"] != serbian["ETag"]
    assert b'lang="sr-latn"' in serbian.content
    assert b"Log out" in member.content and b"Log out" not in english.content
    assert (
        client.get(pages["leaderboard"], headers={"if-none-match": member["ETag"]}).status_code
        == 200
    )


def test_a_message_is_shown_once_to_its_visitor_and_never_answered_with_304(
    client, django_user_model, club
):
    """An organiser's refused action leaves a message and changes no data: their next page
    shows it (not 304), the one after does not, and a visitor's copy never had it."""
    league, players, player, pages = club
    url = pages["event"]
    organiser = Client()
    organiser.force_login(django_user_model.objects.create_superuser("boss"))
    close = reverse("ratings:round_close", args=[Event.objects.get().pk, 1])
    assert organiser.post(close).status_code == 302
    closed = organiser.get(url)
    assert b"Round 1 is closed" in closed.content
    etag = organiser.get(url)["ETag"]

    organiser.post(close)  # refused: already closed
    refused = organiser.get(url, headers={"if-none-match": etag})
    assert refused.status_code == 200
    assert b"already closed" in refused.content
    assert organiser.get(url, headers={"if-none-match": etag}).status_code == 304
    assert b"already closed" not in client.get(url).content
    assert b"Round 1 is closed" not in client.get(url).content


def test_each_visitor_gets_their_own_csrf_token_on_a_cached_page(club):
    """The language form of a page drawn for someone else still posts."""
    league, players, player, pages = club
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    first.get(pages["leaderboard"])
    page = second.get(pages["leaderboard"])  # from the cache
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page.content).group(1)
    changed = second.post(
        reverse("set_language"),
        {"language": "ru", "next": pages["leaderboard"], "csrfmiddlewaretoken": token.decode()},
    )
    assert changed.status_code == 302
    assert b"<!--club:" not in page.content


# Compressed for the browser ---------------------------------------------------------------------


def test_every_page_is_gzipped_for_a_browser_with_its_own_token_and_messages(
    client, django_user_model, club
):
    """What a browser gets (it asks for gzip) is the page as drawn, compressed after the page
    cache filled in the visitor's CSRF token and messages, in one gzip member (a page from the
    cache is compressed in pieces, ratings.page_gzip: every reader must read it as one); its
    weak ETag still gets 304. Another visitor of the same cached page gets their own token."""
    league, players, player, pages = club
    gzip_please = {"accept-encoding": "gzip, deflate, br"}
    for url in pages.values():
        plain = client.get(url)
        packed = client.get(url, headers=gzip_please)
        assert packed["Content-Encoding"] == "gzip", url
        assert "Accept-Encoding" in packed["Vary"]
        assert len(packed.content) < len(plain.content), url
        unpacked = one_gzip_member(packed.content)
        assert without_token(unpacked) == without_token(plain.content), url
        assert CSRF_FIELD.search(unpacked) and b"<!--club:" not in unpacked
        others = one_gzip_member(Client().get(url, headers=gzip_please).content)
        assert without_token(others) == without_token(unpacked), url
        assert CSRF_FIELD.search(others)[0] != CSRF_FIELD.search(unpacked)[0], url

        etag = packed["ETag"]
        assert etag.startswith('W/"')  # gzip weakens it: the bytes are not the page's own
        assert client.get(url, headers={**gzip_please, "if-none-match": etag}).status_code == 304

    organiser = Client()
    organiser.force_login(django_user_model.objects.create_superuser("boss"))
    close = reverse("ratings:round_close", args=[Event.objects.get().pk, 1])
    assert organiser.post(close).status_code == 302
    shown = organiser.get(pages["event"], headers=gzip_please)
    assert b"Round 1 is closed" in gzip.decompress(shown.content)


# Another process, and writers beside readers (PostgreSQL: a server's database) --------------


def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("another process needs a database it can open: run with PostgreSQL")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def server():
    """The app in another process, on this test's database, with its own page cache."""
    postgresql_only()
    database = connection.settings_dict
    url = (
        f"postgres://{database['USER'] or 'postgres'}@{database['HOST'] or '127.0.0.1'}:"
        f"{database['PORT'] or 5432}/{database['NAME']}"
    )
    port = free_port()
    environment = {**os.environ, "DATABASE_URL": url, "DEBUG": "1", "CACHE_URL": "locmem://"}
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
            cwd=ROOT,
            env=environment,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(base + "/", timeout=10)
                break
            except urllib.error.HTTPError:
                break  # it answers: what the page says is the test's business
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    process.kill()
                    log.seek(0)
                    pytest.fail(f"the server did not start:\n{log.read().decode(errors='replace')}")
                time.sleep(0.2)
        yield base
        process.terminate()
        process.wait(10)


def fetch(base: str, url: str) -> bytes:
    with urllib.request.urlopen(base + url, timeout=30) as response:
        return without_token(response.read())


def test_another_process_serves_the_new_numbers_after_a_write_here(client, club, server):
    league, players, player, pages = club
    # Asked at the other server's address: a table card's QR code holds the address it was
    # printed from.
    client.defaults["HTTP_HOST"] = server.removeprefix("http://")
    before = {page: fetch(server, url) for page, url in pages.items()}
    assert {page: fetch(server, url) for page, url in pages.items()} == before  # its cache

    new_game(league, players, player)

    theirs = {page: fetch(server, url) for page, url in pages.items()}
    ours = assert_fresh(client, pages)
    for page in pages:
        assert theirs[page] == ours[page], page
    assert theirs["leaderboard"] != before["leaderboard"]


LEADERBOARD_ROW = re.compile(
    r'<a href="/players/([^/"]+)/">[^<]*</a>.*?</td><td class="num">[^<]*</td>'
    r'<td class="num">.*?</td><td class="num">(\d+)</td>'
)
GAME_LINK = re.compile(r'href="/games/(\d+)/"')


def state_now(league) -> dict:
    """What the leaderboard and the games list show: each player's games, the newest game."""
    return {
        "games": dict(
            Standing.objects.filter(league=league, games__gt=0).values_list("player__slug", "games")
        ),
        "newest": Game.objects.filter(league=league).newest_first().values_list("pk", flat=True)[0],
    }


def test_pages_read_while_games_are_written_show_a_state_the_database_was_in(club):
    """Two writers record games while two readers read the leaderboard and the games list:
    every page read shows the state of some committed version between the version read just
    before the request and the one just after (never an older one)."""
    postgresql_only()
    league, players, player, pages = club
    states = {versioning.current().league(league.pk)[0]: state_now(league)}
    errors: list[BaseException] = []
    done = threading.Event()

    def writer(seed: int) -> None:
        rng = random.Random(seed)
        for n in range(8):
            with transaction.atomic():
                record(league, rng.sample(players, 3), T0 + timedelta(days=40, hours=seed * 10 + n))
                # The league's version row is this transaction's until it commits: its number
                # and the state are exactly what the commit makes visible.
                with connection.cursor() as cursor:
                    cursor.execute(
                        "SELECT number FROM ratings_leagueversion WHERE league_id = %s",
                        [league.pk],
                    )
                    (number,) = cursor.fetchone()
                states[number] = state_now(league)

    def reader() -> None:
        browser = Client()
        while not done.is_set():
            for page in ("leaderboard", "games"):
                low = versioning.current().league(league.pk)[0]
                html = browser.get(pages[page]).content.decode()
                high = versioning.current().league(league.pk)[0]
                if page == "leaderboard":
                    key = "games"
                    shown = {slug: int(games) for slug, games in LEADERBOARD_ROW.findall(html)}
                else:
                    key, shown = "newest", int(GAME_LINK.search(html).group(1))  # newest first
                fits = [v for v in range(low, high + 1) if states.get(v, {}).get(key) == shown]
                assert fits, f"{page} read between versions {low} and {high} shows no such state"

    def guarded(target, *args):
        def run():
            try:
                target(*args)
            except BaseException as error:  # reported below
                errors.append(error)
            finally:
                connection.close()

        return threading.Thread(target=run)

    readers = [guarded(reader) for _ in range(2)]
    writers = [guarded(writer, seed) for seed in (1, 2)]
    for thread in readers + writers:
        thread.start()
    for thread in writers:
        thread.join()
    done.set()
    for thread in readers:
        thread.join()
    assert not errors, errors
    assert len(states) == 17  # the start and 16 games, each its own version


def test_a_cache_that_is_down_costs_speed_not_the_page(client, club, caplog):
    """CACHE_URL pointing at a Redis that does not answer: every page is still drawn."""
    league, players, player, pages = club
    nowhere = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    with override_settings(CACHES={"default": settings_module.cache_from_url(nowhere)}):
        for url in pages.values():
            assert client.get(url, follow=True).status_code == 200, url
    assert "The page cache failed" in caplog.text
