"""The tests' builders, each defined once: small functions that make just what a test needs.

``tests/conftest.py`` hands the common ones to tests as fixtures (``make_player``, ``make_league``,
``record_game``, the worked example's league, players and game); a module that builds outside a
test function (a hypothesis strategy, a module-level helper) imports them from here.
Games are recorded through :func:`ratings.engine.game_record`, the only writer of ratings, so
every test sees ratings exactly as the app computes them.
"""

from __future__ import annotations

import gzip
import io
import itertools
import json
import re
import shutil
import threading
import urllib.error
import urllib.parse
import urllib.request
import uuid
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, time, timedelta
from pathlib import Path
from unittest import mock

from django.conf import settings
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.text import slugify
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from club import settings as club_settings
from ratings import engine
from ratings.backup import files as backup_files
from ratings.events import planning as event_planning
from ratings.events import services as event_services
from ratings.models import AuditEntry, Game, League, Player, Result, Standing, System
from ratings.static_build import static_build
from ratings.systems import SYSTEMS, Kind, rating_system
from tests.worked_example import (
    WORKED_EXAMPLE_PAPERS,
    WORKED_EXAMPLE_PLAYERS,
    WORKED_EXAMPLE_START_RATINGS,
)

T0 = datetime(2026, 1, 1, 20, 0, tzinfo=UTC)
PASSWORD = "pw-for-tests-only"
_numbers = itertools.count(1)


# Players and leagues ----------------------------------------------------------------------------


def make_player(name: str | None = None, **fields) -> Player:
    """A player, with a unique name when none is given."""
    return Player.objects.create_named(name or f"Player {next(_numbers)}", **fields)


def make_players(names: int | Iterable[str], **fields) -> list[Player]:
    """``make_players(3)``: three players with unique names; ``make_players(["Ann", "Bo"])``."""
    if isinstance(names, int):
        names = [None] * names
    return [make_player(name, **fields) for name in names]


def make_league(system: str = System.PREFKO, name: str | None = None, **fields) -> League:
    """A league of ``system``, with a unique name when none is given and a slug made from it."""
    name = name or f"League {next(_numbers)}"
    fields.setdefault("slug", slugify(name))
    return League.objects.create(name=name, system=system, **fields)


# Games ------------------------------------------------------------------------------------------


def paper_entries(players: Sequence[Player], papers) -> list[engine.Entry]:
    """The engine's entries of a Preferans game: each seat's player and (left, middle, right)."""
    return [
        engine.Entry(player_id=p.pk, paper=tuple(paper))
        for p, paper in zip(players, papers, strict=True)
    ]


def score_entries(players: Sequence[Player], scores) -> list[engine.Entry]:
    """The engine's entries of a scored or head-to-head game: each seat's player and score."""
    return [engine.Entry(player_id=p.pk, score=s) for p, s in zip(players, scores, strict=True)]


def game_recorder(start: datetime = T0) -> Callable[..., Game]:
    """A ``record_game(league, players, papers=... | scores=..., **game) -> Game`` function.

    Preferans games take ``papers`` (left, middle, right) per seat and default to bula 30;
    other games take ``scores``. Without ``played_at`` each game is an hour after the last one
    this function recorded, the first at ``start``.
    """
    hours = itertools.count()

    def record_game(
        league: League,
        players: Sequence[Player],
        *,
        papers=None,
        scores=None,
        bula: int | None = None,
        played_at: datetime | None = None,
        **game,
    ) -> Game:
        if papers is not None:
            entries = paper_entries(players, papers)
            bula = 30 if bula is None else bula
        else:
            entries = score_entries(players, scores)
        return engine.game_record(
            league=league,
            played_at=played_at or start + timedelta(hours=next(hours)),
            entries=entries,
            bula=bula,
            **game,
        )

    return record_game


def elo_chain() -> tuple[League, list[Player], Game]:
    """A classic Elo league where Ann beats Bob, then Bob beats Cid a day later: Cid's rating
    hangs on the first game (returned), which he did not play."""
    league = make_league(System.ELO)
    ann, bob, cid = make_players(["Ann", "Bob", "Cid"])
    first = engine.game_record(
        league=league, played_at=T0, entries=score_entries([ann, bob], [1, 0])
    )
    engine.game_record(
        league=league, played_at=T0 + timedelta(days=1), entries=score_entries([bob, cid], [1, 0])
    )
    return league, [ann, bob, cid], first


def record_history(league: League, players: Sequence[Player], history, start=T0) -> list[Game]:
    """Record Preferans games given as (papers, seat order) pairs, a day apart, in that order."""
    return [
        engine.game_record(
            league=league,
            played_at=start + timedelta(days=day),
            entries=paper_entries([players[i] for i in order], papers),
            bula=30,
        )
        for day, (papers, order) in enumerate(history)
    ]


def entries_for(players: Sequence[Player], op: dict) -> tuple[list[engine.Entry], int | None]:
    """The entries and bula of a drawn operation (``op["seats"]`` index ``players``, ``op["data"]``
    is :func:`game_data`'s): the property tests' games, whatever the system."""
    chosen = [players[i] for i in op["seats"]]
    if "papers" in op["data"]:
        return paper_entries(chosen, op["data"]["papers"]), op["data"]["bula"]
    return score_entries(chosen, op["data"]["scores"]), None


# The worked example -----------------------------------------------------------------------------


def worked_example_players(league: League, players: Sequence[Player] = ()) -> list[Player]:
    """Pedja, Marko and Johnny, with their own start ratings 1200, 1150 and 1100 in ``league``.

    Given ``players`` (the three of another league) they get those start ratings in ``league``.
    """
    players = list(players) or make_players(WORKED_EXAMPLE_PLAYERS)
    for player, rating in zip(players, WORKED_EXAMPLE_START_RATINGS, strict=True):
        engine.standing_set_start_rating(league=league, player=player, rating=rating)
    return players


# The admin's forms, as a browser posts them --------------------------------------------------


def paper_rows(players, papers) -> list[tuple]:
    """Admin rows (player, seat, paper, score) seated in the order given."""
    return [
        (player, seat, paper, None)
        for seat, (player, paper) in enumerate(zip(players, papers, strict=True))
    ]


def local(moment) -> tuple[str, str]:
    """A moment as the admin's split date and time fields show it, in the club's time zone."""
    moment = timezone.localtime(moment)
    return moment.strftime("%Y-%m-%d"), moment.strftime("%H:%M:%S")


def management(prefix, total, initial=0) -> dict:
    """An inline formset's management form."""
    return {
        f"{prefix}-TOTAL_FORMS": str(total),
        f"{prefix}-INITIAL_FORMS": str(initial),
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
    }


def game_post(league, played_at, seats, *, bula=30, results=None, game=None) -> dict:
    """The admin's game form: ``seats`` are (player, seat, paper or None, score or None) rows,
    the seat as stored (from 0); the form numbers seats from 1, as the site does.

    With ``game`` the rows edit that game's existing results (``results``, in the same order);
    extra rows beyond them are new.
    """
    day, clock = local(played_at)
    data = {"played_at_0": day, "played_at_1": clock, "bula": "" if bula is None else bula}
    data["note"] = ""
    if game is None:
        data["league"] = league.pk
    existing = list(results or [])
    data.update(management("results", len(seats), len(existing)))
    for i, (player, seat, paper, score) in enumerate(seats):
        left, middle, right = paper if paper else ("", "", "")
        data.update(
            {
                f"results-{i}-player": player.pk,
                f"results-{i}-seat": seat + 1,
                f"results-{i}-left": left,
                f"results-{i}-middle": middle,
                f"results-{i}-right": right,
                f"results-{i}-score": "" if score is None else score,
            }
        )
        if i < len(existing):
            data[f"results-{i}-id"] = existing[i].pk
            data[f"results-{i}-game"] = game.pk
    data["_save"] = "Save"
    return data


def _blank_if_none(value) -> object:
    return "" if value is None else value


def league_post(league, standing_rows=(), new_rows=(), **changes) -> dict:
    """The admin's league form with its own-start-rating inline."""
    data = {
        "name": league.name,
        "slug": league.slug,
        "system": league.system,
        "start_rating": league.start_rating,
        "game_name": league.game_name,
        "description": league.description,
        "provisional_games": _blank_if_none(league.provisional_games),
        "inactive_days": _blank_if_none(league.inactive_days),
        "confirmation": league.confirmation,
        "confirmation_hours": league.confirmation_hours,
        # The system's own settings, each a field of the form by its name.
        **{name: _blank_if_none(value) for name, value in league.system_settings.items()},
        **changes,
    }
    rows = list(standing_rows) + list(new_rows)
    data.update(management("standings", len(rows), len(standing_rows)))
    for i, (standing, rating) in enumerate(standing_rows):
        data[f"standings-{i}-id"] = standing.pk
        data[f"standings-{i}-league"] = league.pk
        data[f"standings-{i}-start_rating"] = "" if rating is None else rating
    for i, (player, rating) in enumerate(new_rows, start=len(standing_rows)):
        data[f"standings-{i}-player"] = player.pk
        data[f"standings-{i}-start_rating"] = rating
    data["_save"] = "Save"
    return data


def formset_errors(response) -> list[str]:
    errors = []
    for inline in response.context["inline_admin_formsets"]:
        errors += list(inline.formset.non_form_errors())
        for form_errors in inline.formset.errors:
            errors += [str(e) for messages in form_errors.values() for e in messages]
    return errors


# Club nights and tournaments ----------------------------------------------------------------------


def event_form(names, **fields) -> dict:
    """The new event page's form as an organiser fills it in: a night of four rounds at tables
    of three, everyone meeting everyone, with ``names`` in the player boxes."""
    data = {
        "name": "Friday night",
        "starts_at": "2026-03-13T19:00",
        "rounds_total": "4",
        "table_size": "3",
        "draw_method": "everyone_meets",
        "scoring": "preferans_org",
        "points_per_place": "",
        **fields,
    }
    return data | {f"player_{n}": name for n, name in enumerate(names)}


def make_event(league: League, players: Sequence[Player], **fields):
    """An event of ``league`` with these players present, through the events' service.

    Defaults: "Club night", starting at T0, open-ended, drawn so that everyone meets, summed
    scores, a fixed seed (so a test's draw is always the same).
    """
    fields.setdefault("name", "Club night")
    fields.setdefault("starts_at", T0)
    fields.setdefault("organiser", None)
    fields.setdefault("rounds_total", None)
    fields.setdefault("seed", 13)
    return event_services.event_create(league=league, players=list(players), **fields)


def next_friday(now: datetime | None = None) -> datetime:
    """20:00 next Friday in the club's time zone (a week on if today is Friday)."""
    today = timezone.localtime(now or timezone.now()).date()
    days = (4 - today.weekday()) % 7 or 7
    return timezone.make_aware(datetime.combine(today + timedelta(days=days), time(20, 0)))


def make_night(league: League, **fields):
    """A night of ``league`` planned ahead, through the planning service: "Friday night" at
    20:00 next Friday, open-ended, a fixed seed."""
    fields.setdefault("name", "Friday night")
    fields.setdefault("starts_at", next_friday())
    fields.setdefault("organiser", None)
    fields.setdefault("rounds_total", None)
    fields.setdefault("seed", 13)
    return event_planning.night_plan(league=league, **fields)


def play_table(table, papers=None, *, scores=None, order=None, **game) -> Game:
    """Record a table's paper through the events' service: Preferans ``papers`` (or ``scores``)
    given in the table's seat order as drawn; ``order`` reseats them (indices of the seats)."""
    seated = [seat.player for seat in table.seats.order_by("seat").select_related("player")]
    if order is not None:
        seated = [seated[i] for i in order]
    if scores is None:
        entries = paper_entries(seated, papers or [(10, 2, 4), (6, -1, 8), (0, -1, 2)])
        game.setdefault("bula", 30)
    else:
        entries = score_entries(seated, scores)
    game.setdefault("played_at", T0 + timedelta(minutes=table.round.number * 60 + table.number))
    return event_services.table_record_game(table=table, entries=entries, **game)


def play_round(event_round, papers_by_table=None) -> list[Game]:
    """Record every table of the round, each with the papers given for it (by table number), or
    the small paper."""
    return [
        play_table(table, (papers_by_table or {}).get(table.number))
        for table in event_round.tables.order_by("number")
    ]


# Languages --------------------------------------------------------------------------------------


def in_language(client: Client, code: str) -> Client:
    """``client``, asking for the pages in ``code`` ("ru", "sr-latn") from now on."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = code
    return client


# Logging in through the login form, as a browser does ------------------------------------------

WRONG = "not-the-password"


def log_in(client: Client, username: str, password: str, **extra):
    return client.post(reverse("login"), {"username": username, "password": password}, **extra)


def fail_five_times(client: Client, username: str, **extra) -> list[int]:
    return [log_in(client, username, WRONG, **extra).status_code for _ in range(5)]


# A member's browser against the live server (tests of writers in parallel) ---------------------


class Browser:
    """A member's browser: a session cookie, CSRF, and the form's hidden fields."""

    def __init__(self, base_url: str, user):
        client = Client()
        client.force_login(user)
        self.base_url = base_url
        self.cookies = {"sessionid": client.cookies["sessionid"].value}
        self.opener = urllib.request.build_opener(_NoRedirect())

    def get(self, path: str) -> tuple[int, str]:
        return self._open(path, None)

    def post(self, path: str, data: dict) -> tuple[int, str]:
        body = {**data, "csrfmiddlewaretoken": self.cookies["csrftoken"]}
        return self._open(path, urllib.parse.urlencode(body).encode())

    def _open(self, path: str, body: bytes | None) -> tuple[int, str]:
        cookie = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        request = urllib.request.Request(
            self.base_url + path, data=body, headers={"Cookie": cookie}
        )
        try:
            response = self.opener.open(request, timeout=120)
        except urllib.error.HTTPError as error:
            response = error
        with response:
            for header in response.headers.get_all("Set-Cookie") or []:
                name, _, rest = header.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
            return response.status, response.read().decode(errors="replace")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def hidden(html: str, name: str) -> str:
    match = re.search(rf'name="{name}" value="([^"]*)"', html)
    assert match, f"no hidden {name} in the page"
    return match.group(1)


# Imports: a Hearts league's games and files ---------------------------------------------------


T0_2025 = datetime(2025, 3, 1, 19, 0, tzinfo=UTC)
HEARTS_FILE = b"score_type lowscore\ngame 2025-06-01 20:00\nAna 3\nEma 9\n"


def hearts_games(count: int, *, start: datetime = T0_2025, names=("Ana", "Bora", "Ceca", "Duda")):
    """``count`` Hearts games an hour apart, four players each, as an import brings them."""
    return [
        engine.ImportedGame(
            played_at=start + timedelta(hours=n),
            scores=[(name, float((n * 7 + seat * 5) % 26)) for seat, name in enumerate(names)],
        )
        for n in range(count)
    ]


def ratings_of(league) -> tuple[list, list]:
    """Every result's ratings and every standing of ``league``, to compare before and after."""
    results = Result.objects.filter(game__league=league).order_by("game_id", "seat")
    standings = Standing.objects.filter(league=league).order_by("player_id")
    return (
        list(results.values_list("game_id", "player_id", "score", "rating_before", "rating_after")),
        list(standings.values_list("player_id", "rating", "games")),
    )


def backup_objects(path) -> list[dict]:
    """The objects of a backup_club file, without its signature."""
    data = path.read_bytes()
    items = json.loads(gzip.decompress(data) if path.name.endswith(".gz") else data)
    return [item for item in items if backup_files.SIGNATURE not in item]


def write_backup(path, objects: list[dict]) -> None:
    """``objects`` written as backup_club writes them, signed with this server's key: a file
    changed by its operator, so that restore_club's own checks of the content are what refuses
    it, not the signature."""
    texts, seal = _sealed(objects)
    _write_backup_text(path, texts, seal.signature())


def write_forged_backup(path, objects: list[dict], *, signed: dict) -> None:
    """``objects`` written as backup_club writes them under the ``signed`` file's signature
    with its checksum made again, as anyone can: only the HMAC, which needs the key, is left
    to tell the change."""
    texts, seal = _sealed(objects)
    checksum = seal.signature()[backup_files.SIGNATURE]["sha256"]
    signature = {backup_files.SIGNATURE: {**signed[backup_files.SIGNATURE], "sha256": checksum}}
    _write_backup_text(path, texts, signature)


def backup_signature(path) -> dict:
    """The signature of a backup_club file (``.json``): the array's last item."""
    return json.loads(path.read_text())[-1]


def _sealed(objects: list[dict]) -> tuple[list[str], backup_files.Seal]:
    """Each object's text as the file holds it, and their seal under this server's key."""
    seal = backup_files.Seal()
    texts = [json.dumps(obj) for obj in objects]
    for text in texts:
        seal.add(text)
    return texts, seal


def _write_backup_text(path, texts: list[str], signature: dict) -> None:
    text = "[\n" + ",\n".join([*texts, json.dumps(signature)]) + "\n]\n"
    path.write_bytes(gzip.compress(text.encode()) if path.name.endswith(".gz") else text.encode())


def write_file(tmp_path, name: str, data: bytes) -> str:
    """``data`` written to ``tmp_path / name``; its path, for a command's argument."""
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


# A rayter file whose years the calendar cannot hold, in every time zone the tests try.
ZONES = ["UTC", "Europe/Belgrade", "America/New_York", "Pacific/Kiritimati"]
OUT_OF_RANGE = (
    b"score_type lowscore\n"  # line 1
    b"game 0001-01-01 00:00\nAna 1\nEma 2\n"  # line 2
    b"game 2025-06-01 20:00\nAna 3\nEma 4\n"  # line 5
    b"game 9999-12-31 23:59\nAna 5\nEma 6\n"  # line 8
    b"game 0001-01-01 00:00\nAna 7\nEma 8\n"  # line 11
    b"game 1899-12-31 23:59\nAna 9\nEma 0\n"  # line 14
)
OUT_OF_RANGE_PROBLEMS = [
    "line 2: That date is too long ago.",
    "line 8: That date is in the future.",
    "line 11: That date is too long ago.",
    "line 14: That date is too long ago.",
]

# Text a rayter file may hold, and worse: the parser and the upload page must report, not raise.
RAYTER_TOKENS = st.sampled_from(
    [
        "game",
        "2026-01-01",
        "20:00",
        "20.00",
        "24:00",
        "2026-02-30",
        "score_type",
        "lowscore",
        "winner_takes_all",
        "game_name",
        "#",
        "Anna",
        "Bojan",
        "anna",
        "-",
        "-5",
        "10",
        "9" * 16,
        "\ufeff",
        "\t",
        "é",
        "1.5",
    ]
)
RAYTER_LINES = st.lists(
    st.one_of(st.lists(RAYTER_TOKENS, max_size=4).map(" ".join), st.text(max_size=30)),
    max_size=30,
).map("\n".join)


# Hostile and broken input: a clear message, nothing written ------------------------------------


MB = 1024 * 1024
SCRIPT = '<script>alert("owned")</script>'
IMG = '"><img src=x onerror=alert(1)>'
# Names a spreadsheet would run: the CSV export neutralises them.
FORMULAS = ['=HYPERLINK("http://evil.example","x")', "+1+1", "-2+3 cmd", "@SUM(A1)"]
# The message of a game another staff member changed or deleted meanwhile.
GONE = "This game was changed or deleted meanwhile: reload the page and try again."
# The fuzzers of hostile input are bounded, so their modules stay quick.
FUZZ = hypothesis_settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def table_counts() -> dict[str, int]:
    """Everything a request or command could write: a refusal leaves each count as it was."""
    return {
        model.__name__: model.objects.count()
        for model in (League, Game, Result, Player, Standing, AuditEntry)
    }


def entry_url(league) -> str:
    return reverse("ratings:game_new", args=[league.slug])


def entry_post(client: Client, league, data: dict, **extra):
    """``data`` posted to ``league``'s entry form, with a fresh one-time key unless it has one."""
    return client.post(entry_url(league), {"submission_key": str(uuid.uuid4()), **data, **extra})


def api_game_post(client: Client, league, body: dict):
    """``body`` posted as JSON to the API's games of ``league``."""
    return client.post(
        f"/api/v1/leagues/{league.slug}/games", body, content_type="application/json"
    )


def leaderboard_export(client: Client, league, fmt: str = "csv", **params):
    """``league``'s leaderboard exported as ``fmt`` ("csv" or "json"), with these filters."""
    return client.get(reverse("ratings:leaderboard_export", args=[league.slug, fmt]), params)


def run_tasks(*, due_by=None) -> str:
    """Drain the worker's queue as ``manage.py db_worker --batch`` does: every task that is due
    (with ``due_by``, also those due by then, as if that time had come). What it printed."""
    if due_by is not None:
        from django_tasks_db.models import DBTaskResult

        DBTaskResult.objects.filter(status="READY", run_after__lte=due_by).update(
            run_after=timezone.now()
        )
    # The worker closes the connection between tasks (a long-running process's hygiene); here
    # the tasks run in the test's transaction, on its connection, which must stay open.
    with mock.patch(
        "django_tasks_db.management.commands.db_worker.close_old_connections", lambda: None
    ):
        return run_command("db_worker", "--batch", "--no-startup-delay", "--no-reload")


def run_command(*args, **options) -> str:
    """What ``manage.py`` command ``args`` prints (its errors are kept from the test's output)."""
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO(), **options)
    return out.getvalue()


def check_then_save(client: Client, url: str, data: dict):
    """What a member does: check scores, then save what the preview showed (if it showed any)."""
    data = {"submission_key": str(uuid.uuid4()), **data}
    preview = client.post(url, {**data, "preview": "1"})
    if preview.status_code != 200:
        return preview
    token = preview.context["form"]["previewed"].value() or ""
    return client.post(url, {**data, "previewed": token, "save": "1"})


def form_errors(response) -> str:
    """The entry form's errors, as one string."""
    form = response.context["form"]
    return " ".join(str(message) for messages in form.errors.values() for message in messages)


def assert_escaped(response, names=(SCRIPT, IMG)) -> None:
    """A page that shows the hostile names: each of them escaped, as Django escapes, none raw."""
    assert response.status_code == 200
    page = response.content.decode()
    assert "<script>alert" not in page
    assert "<img src=x" not in page
    for name in names:
        assert escape(name) in page, (
            f"{name} is not shown escaped on {response.request['PATH_INFO']}"
        )


# Games of every rating system, for property tests -----------------------------------------------

# Every system the app has (ratings.systems.SYSTEMS): a new one is drawn without a change here,
# as long as its kind of game is one game_data knows.
SYSTEM_CODES = st.sampled_from(sorted(SYSTEMS))
PAPER = st.tuples(st.integers(0, 400), st.integers(-60, 60), st.integers(0, 400))
BULAS = st.sampled_from([10, 30, 50, 60])


@st.composite
def game_data(draw, code: str, bulas=BULAS) -> tuple[int, dict]:
    """(seats, data) of a valid game of the system ``code``: ``{"papers": ..., "bula": ...}``,
    finished papers, for a system with a paper; else ``{"scores": ...}`` as its kind takes them."""
    system = rating_system(code)
    fewest, most = system.seats
    if system.has_paper:
        papers = draw(st.lists(PAPER, min_size=fewest, max_size=fewest))
        # A finished game: the middle column sums to zero.
        left, _middle, right = papers[-1]
        papers[-1] = (left, -sum(middle for _l, middle, _r in papers[:-1]), right)
        return fewest, {"papers": papers, "bula": draw(bulas)}
    if system.kind == Kind.DUEL:
        return 2, {"scores": list(draw(st.sampled_from([(1, 0), (0, 1), (0.5, 0.5)])))}
    if system.kind == Kind.SCORED:
        seats = draw(st.integers(fewest, min(most, 5)))
        # Whole numbers, as a Rayter league takes (systems.Rayter.checked_scores).
        scores = st.integers(-20, 200) | st.integers(-(10**9), 10**9)
        return seats, {"scores": draw(st.lists(scores, min_size=seats, max_size=seats))}
    raise NotImplementedError(f"{system!r}: teach game_data the games of its kind")


# The API ------------------------------------------------------------------------------------------


def api_paper(players=WORKED_EXAMPLE_PLAYERS, papers=WORKED_EXAMPLE_PAPERS, **extra) -> dict:
    """A Preferans game as the API takes it: the worked example with a new key."""
    return {
        "key": str(uuid.uuid4()),
        "played_at": "2026-03-12T21:30:00+00:00",
        "bula": 30,
        "seats": [
            {"player": name, "left": left, "middle": middle, "right": right}
            for name, (left, middle, right) in zip(players, papers, strict=True)
        ],
        **extra,
    }


# The API from real parallel clients ---------------------------------------------------------------


def api_post(url: str, token: str, body: dict) -> tuple[int, dict]:
    """POST ``body`` as JSON with a bearer token; the status and the JSON answer."""
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        response = urllib.request.urlopen(request, timeout=120)
    except urllib.error.HTTPError as error:
        response = error
    with response:
        return response.status, json.loads(response.read() or b"{}")


def api_posts_at_once(url: str, tokens: Sequence[str], body: dict) -> list[tuple[int, dict]]:
    """One client a token, each posting ``body`` at the same moment (a barrier); their answers.
    Fails if a client hangs (a deadlock)."""
    answers: list[tuple[int, dict]] = []
    start = threading.Barrier(len(tokens))

    def client(token):
        start.wait()
        answers.append(api_post(url, token, body))

    threads = [threading.Thread(target=client, args=(token,)) for token in tokens]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not any(thread.is_alive() for thread in threads), "a client hung: deadlock?"
    return answers


# Static files as production collects them ------------------------------------------------------

# The settings module's own value, production's storage (hashed names and their manifest): the
# suite draws its pages with unhashed names instead (the root conftest.py overrides STORAGES).
PRODUCTION_STORAGES = club_settings.STORAGES
# Folders of other apps' files, left out where a test only loads the club's own pages.
OTHER_APPS_STATIC = ("admin", "django_tables2")


@contextmanager
def production_static_files(folder: Path, *, ignore: Sequence[str] = ()) -> Iterator[Path]:
    """The static files collected into ``folder`` as a release collects them, served as
    production serves them (WhiteNoise, from the collected folder only).

    The club's own files are collected from a copy (the folder yielded): a test may change a
    file there and call :func:`release_static_files`, never touching the repository's."""
    source = folder / "static"
    shutil.copytree(settings.STATICFILES_DIRS[0], source)
    with override_settings(
        STORAGES=PRODUCTION_STORAGES,
        STATIC_ROOT=folder / "collected",
        STATICFILES_DIRS=[source],
        WHITENOISE_USE_FINDERS=False,
    ):
        try:
            release_static_files(ignore=ignore)
            yield source
        finally:
            static_build.cache_clear()


def release_static_files(*, ignore: Sequence[str] = ()) -> None:
    """``collectstatic`` as a release runs it, and what the restart after it forgets: the build
    the service worker read once per process."""
    patterns = [option for pattern in ignore for option in ("--ignore", pattern)]
    call_command("collectstatic", "--no-input", *patterns, verbosity=0)
    static_build.cache_clear()


def one_gzip_member(packed: bytes) -> bytes:
    """What ``packed`` holds, which must be one whole gzip member and nothing after it, as every
    browser reads it (some stop after the first member; Python's gzip.decompress reads on)."""
    reader = zlib.decompressobj(16 + zlib.MAX_WBITS)
    unpacked = reader.decompress(packed)
    assert reader.eof and not reader.unused_data
    return unpacked
