"""The club's pages as the view tests know them: each page's pinned number of SQL queries
(tests/views/test_page_queries.py checks them), its URL on a small club, and helpers that read
a page (its text; its tables against django-tables2's own rendering).

Shared by the page tests; a new page gets its count and its URL here (docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import re

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ratings.events import services as event_services
from ratings.events.models import Event, EventTable
from ratings.tables import ClubTable
from tests.builders import make_event, play_table

LOGGED_IN = 2  # the session, and the user with their player (ratings.auth.ClubBackend)
# Every HTML page first reads the data version (ratings.page_cache): each count below starts
# with it, before the queries listed. While that page is in the cache at that version, the
# version is its only query (test_a_page_drawn_at_this_version_is_one_query). So do the exports
# (ratings.download_cache: the version, then the cache; tests/views/test_heavy_downloads.py).
VERSION = 1
# The leaderboard drawn at committed versions, its second key read (on either database).
LEADERBOARD_DRAWN = 9
QUERIES = {
    # the leagues, their player and game counts and last game as subqueries; the nights in
    # progress with their latest round's progress (a member seated tonight: one more, their
    # table); the digital papers in progress with their players and deal counts; the nights
    # planned ahead (with one more for their answers when there are some)
    "home": 5,
    # the versions of its frame (its second key, ratings.page_cache.Rows); the league with its
    # first and last season; the count of standings; the page's rows by the statement the second
    # key keeps (the count beside them); the page of standings, ranked by a window; the seasons
    # with games (for the tabs); its latest events; its digital papers in progress (a Preferans
    # league's). PostgreSQL's run counts two fewer: there the test's own transaction wrote the
    # versions (see "event"), and a page drawn uncached reads no second key.
    "leaderboard": LEADERBOARD_DRAWN if connection.vendor == "sqlite" else LEADERBOARD_DRAWN - 2,
    "export": 3,  # the league; all its (filtered) standings with their rank
    # the league with its first and last season; the seasons with games; the season's table, every
    # player's games, places and ratings in the period by window functions (a list: no count);
    # its latest events; its digital papers in progress
    "season": 6,
    "season_export": 3,  # the league; the season's table
    # the league; the page of games and one more (no count), their seats; its games waiting for
    # the table's confirmation (with their seats when there are some)
    "games": 5,
    "games_by_player": 6,  # the same, and the typed player looked up in the league
    # the games list's names (a download, as the exports: no layout): the league; its players
    # who have played
    "names_export": 3,
    # the league with its game count and stored backtest; a small league's results in rating
    # order (replayed in memory; a big one shows its stored figures: no replay)
    "backtest": 3,
    "game": 3,  # the game with its league, who entered it and its neighbours; its results
    # Every league's versions (which keep the player's ranks, page_cache.kept_read: not on
    # PostgreSQL, where the page is drawn uncached, see "event"); the player's standings with
    # the player; the ranked players better than them in each league where they are ranked (one
    # aggregate); their whole history; the opponents on the pages shown; the opponents they met
    # most often in every league (their tallies); their shared first places in every league
    # (their season standings); the results of the events they played (their places worked out
    # from them). The whole history holds the games and the
    # corrections that moved their rating (one query for both), and with each game its place,
    # from which the rest of the statistics of every league are worked out. And the games
    # waiting for their table's confirmation with them at it (their seats when there are some).
    "player": 10 if connection.vendor == "sqlite" else 9,
    # both players; their record per league; those leagues; their games together; the third
    # players at their tables; both rating histories in those leagues; the deals of the
    # digital papers they both sat at
    "head_to_head": 8,
    "players": 4,  # the count, the page of players, their standings with leagues
    "players_search": 5,  # the same, and every (pk, name) for the typos of a 4+ letter name
    # Events: whatever the number of rounds, tables and players.
    "events": 4,  # the league; the count and the page of events with their players and rounds
    # The event with its league and organiser; its players; every round's tables and seats;
    # the byes; the results of its games (standings, results, rating changes, all from them);
    # and first its own row, for the page's key (KEY_READS). PostgreSQL's run counts one fewer:
    # there the test's own transaction wrote the versions, which the version query sees
    # (txid_current_if_assigned), so the page is drawn uncached and reads no key.
    "event": 7 if connection.vendor == "sqlite" else 6,
    "event_table": 3,  # the table with its round, event and league; its seats with results
    # the event with its league; the round's tables and seats; every seated player's rating;
    # the league's latest games and their results (prefko's chances and place changes)
    "round_cards": 6,
}


# What a page reads at every request beside the versions, for its key (page_cache's
# ``read_too``), and so what it costs from the cache: every league's versions, by which the
# player's ranks are kept (their rank moves with other players' games; the page drawn reads the
# standings and the ranked players better than them once per those versions).
# A club night's page reads its event's row (its players' versions cover the rest, but a night
# with nobody present yet has none).
KEY_READS = {"player": 1, "event": 1}


# What a page's key reads again after a write into one of its leagues: the player's ranks (their
# standings and the ranked players better than them), kept until then.
KEY_READS_AFTER_A_WRITE = {"player": 2}


def from_cache(page: str, *, after_a_write: bool = False) -> int:
    """The queries of a page served from the cache (at most, after a write elsewhere)."""
    again = KEY_READS_AFTER_A_WRITE.get(page, 0) if after_a_write else 0
    return VERSION + KEY_READS.get(page, 0) + again


# Pages that ask Django whether the user holds a permission (may they create or run events?):
# Django reads the user's and their groups' permissions once per request, two queries, for
# members on the events list and for staff on an event (a member's event page needs no
# permission unless they organise it). Staff are asked on every page whether they may read the
# mistake reports, whose open count the header shows them (ratings/page_cache.py).
PERMISSIONS = 2
ASKS_PERMISSIONS = {"member": {"events"}, "staff": set(QUERIES)}


def logged_in(page: str, role: str = "member") -> int:
    if page == "names_export":
        return QUERIES[page]  # no layout and no throttle: nothing asks who it is
    if page.endswith("export"):
        # No layout, but the throttle asks who it is (ratings.throttling: members are not
        # throttled): the session and the user.
        return QUERIES[page] + LOGGED_IN
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
        "names_export": reverse("ratings:league_player_names", args=[league.slug]),
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


# The HTML pages that are cached (the exports are cached too, but sent as a stream from the
# cache: tests/views/test_heavy_downloads.py).
CACHED = [page for page in QUERIES if not page.endswith("export")]


TABLE = re.compile(r'(?:FROM|JOIN)\s+"?(\w+)"?', re.IGNORECASE)


def tables_read(client, url: str) -> set[str]:
    """The tables a page's queries name."""
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200, url
    return {name for query in queries for name in TABLE.findall(query["sql"])}


def text(response) -> str:
    """The page's visible text, tags stripped and whitespace collapsed."""
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def club_tables() -> list[type[ClubTable]]:
    found, pending = [], [ClubTable]
    while pending:
        for subclass in pending.pop().__subclasses__():
            found.append(subclass)
            pending.append(subclass)
    return found


def normalised(html: bytes) -> str:
    """Whitespace between tags is the templates', not the page's; CSRF tokens differ per page."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html.decode())
    return re.sub(r">\s+<", "><", html).strip()


def assert_same_as_django_tables2(client, monkeypatch, urls: list[str]) -> None:
    ours = {url: client.get(url).content for url in urls}
    with monkeypatch.context() as patch:
        for table in club_tables():
            patch.setattr(table._meta, "template_name", "django_tables2/table.html")
        stock = {url: client.get(url).content for url in urls}
    for url in urls:
        assert b"<tbody" in ours[url], url
        assert normalised(ours[url]) == normalised(stock[url]), url
