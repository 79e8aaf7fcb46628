"""Hostile and broken input, in every form, upload and command: a clear message, nothing written.

Each case posts (or runs) something a careless or malicious user could send and checks that the
answer is a 200 with the form's message or a 4xx page, never a 500, and that the club's tables
are exactly as they were. Names with HTML in them are shown escaped on every page that shows
names, and names that start like a spreadsheet formula are neutralised in the CSV export.
The hypothesis fuzzers at the end are bounded (see FUZZ) so the file runs in well under a minute.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import uuid

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from ratings import engine
from ratings.algorithms import rayter_format
from ratings.models import AuditEntry, Game, League, Player, Result, Standing, System
from tests.algorithms import rayter_reference
from tests.builders import T0, make_league, make_players, paper_entries
from tests.worked_example import SMALL_PAPERS, WORKED_EXAMPLE_FORM, WORKED_EXAMPLE_PLAYERS

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_passwords")]

MB = 1024 * 1024
SCRIPT = '<script>alert("owned")</script>'
IMG = '"><img src=x onerror=alert(1)>'
FUZZ = hypothesis_settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def counts() -> dict[str, int]:
    """Everything a request or command could write."""
    return {
        model.__name__: model.objects.count()
        for model in (League, Game, Result, Player, Standing, AuditEntry)
    }


@pytest.fixture
def league():
    """A Preferans league whose one game the worked example's players played."""
    league = make_league(System.PREFKO, name="Friday")
    players = make_players(WORKED_EXAMPLE_PLAYERS)
    engine.game_record(
        league=league, played_at=T0, entries=paper_entries(players, SMALL_PAPERS), bula=30
    )
    return league


@pytest.fixture
def hearts():
    return make_league(System.RAYTER_LOWSCORE, name="Hearts", game_name="Hearts")


@pytest.fixture
def chess():
    return make_league(System.ELO, name="Chess")


def entry_url(league) -> str:
    return reverse("ratings:game_new", args=[league.slug])


def preview_then_save(client: Client, url: str, data: dict):
    """What a member does: check scores, then save what the preview showed (if it showed any)."""
    data = {"submission_key": str(uuid.uuid4()), **data}
    preview = client.post(url, {**data, "preview": "1"})
    if preview.status_code != 200:
        return preview
    token = preview.context["form"]["previewed"].value() or ""
    return client.post(url, {**data, "previewed": token, "save": "1"})


def form_errors(response) -> str:
    form = response.context["form"]
    return " ".join(str(message) for messages in form.errors.values() for message in messages)


# The paper form -----------------------------------------------------------------------------------


def without_seat(seat: int) -> dict:
    return {
        key: value for key, value in WORKED_EXAMPLE_FORM.items() if not key.endswith(f"_{seat}")
    }


PAPER_CASES = [
    ("a word for a number", {"left_0": "abc"}, "Enter a whole number"),
    ("a decimal", {"left_0": "12.5"}, "Enter a whole number"),
    ("an exponent", {"middle_0": "1e3"}, "Enter a whole number"),
    ("hexadecimal", {"right_0": "0x10"}, "Enter a whole number"),
    ("not a number", {"middle_1": "NaN"}, "Enter a whole number"),
    ("a huge number", {"left_0": "9" * 30}, "less than or equal to 1000000"),
    ("a number too long to parse", {"left_1": "9" * 5000}, "Enter a whole number"),
    ("a huge negative middle", {"middle_0": "-" + "9" * 30}, "greater than or equal to"),
    ("a negative side column", {"right_1": "-10"}, "never negative"),
    ("bula 0", {"bula": "0"}, "above zero"),
    ("a negative bula", {"bula": "-30"}, "above zero"),
    ("a huge bula", {"bula": "9" * 20}, "less than or equal to 10000"),
    ("a bula in words", {"bula": "thirty"}, "Enter a whole number"),
    ("no bula", {"bula": ""}, "This field is required"),
    ("a player twice", {"player_1": "PEDJA"}, "already sits in seat 1"),
    ("a name of punctuation", {"player_0": "<>!"}, "letter or digit"),
    ("a name too long", {"player_0": "x" * 61}, "at most 60 characters"),
    ("a NUL in a name", {"player_0": "Ped\x00ja"}, "Null characters are not allowed"),
    ("a control character", {"player_0": "Ped\x07ja"}, "control characters"),
    ("a DEL character", {"player_0": "Ped\x7fja"}, "control characters"),
    ("a right-to-left override", {"player_0": "Pedja \u202eokraM"}, "text-direction"),
    ("an unreadable character", {"player_0": "Ped\ufffdja"}, "could not be read"),
    ("an impossible date", {"played_at": "2026-02-30T21:30"}, "Enter a valid date/time"),
    ("a date far ahead", {"played_at": "9999-12-31T23:59"}, "future"),
    ("a date before the club", {"played_at": "0001-01-01T00:00"}, "too long ago"),
    ("a NUL in the note", {"note": "a\x00b"}, "Null characters are not allowed"),
    ("a note too long", {"note": "x" * 201}, "at most 200 characters"),
    ("an unbalanced middle column", {"middle_2": "17"}, "sums to 1"),
]


@pytest.mark.parametrize(
    ("case", "change", "message"), PAPER_CASES, ids=[c[0] for c in PAPER_CASES]
)
def test_the_paper_form_refuses_hostile_input(member_client, league, case, change, message):
    before = counts()

    response = preview_then_save(
        member_client, entry_url(league), {**WORKED_EXAMPLE_FORM, **change}
    )

    assert response.status_code == 200
    assert message in form_errors(response)
    assert counts() == before


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_the_paper_form_refuses_a_missing_seat(member_client, league, seat):
    before = counts()

    response = preview_then_save(member_client, entry_url(league), without_seat(seat))

    assert response.status_code == 200
    errors = " ".join(response.context["form"].errors[f"player_{seat}"])
    assert errors == "Every seat needs a player."
    assert counts() == before


@pytest.mark.parametrize("typed", ["Đorđe", "đorđe", "ĐORĐE"])
def test_a_player_whose_name_starts_with_a_non_ascii_capital_is_found(member_client, typed):
    """SQLite's LOWER() leaves "Đ" alone: the name must still find the player, not a 500."""
    league = League.objects.create(name="Friday", slug="friday", system=System.PREFKO)
    dorde = Player.objects.create_named("Đorđe")
    data = {**WORKED_EXAMPLE_FORM, "player_0": typed}

    preview = member_client.post(
        entry_url(league), {**data, "submission_key": str(uuid.uuid4()), "preview": "1"}
    )
    response = preview_then_save(member_client, entry_url(league), data)

    assert [row["new"] for row in preview.context["preview"]][0] is False
    assert response.status_code == 302
    assert Game.objects.get().results.get(seat=0).player == dorde
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Johnny", "Marko", "Đorđe"]


def test_an_empty_post_is_a_form_error(member_client, league):
    before = counts()

    response = member_client.post(entry_url(league), {})

    assert response.status_code == 200
    assert "This field is required" in form_errors(response)
    assert counts() == before


def test_a_forged_submission_key_is_a_form_error(member_client, league):
    before = counts()

    response = member_client.post(
        entry_url(league), {**WORKED_EXAMPLE_FORM, "submission_key": "'; DROP--"}
    )

    assert response.status_code == 200
    assert "Enter a valid UUID" in form_errors(response)
    assert counts() == before


def test_a_forged_preview_token_saves_nothing(member_client, league):
    before = counts()
    data = {
        **WORKED_EXAMPLE_FORM,
        "submission_key": str(uuid.uuid4()),
        "save": "1",
        "previewed": "0" * 64,
    }

    response = member_client.post(entry_url(league), data)

    assert response.status_code == 200
    assert response.context["preview"]  # shown again, to be checked first
    assert counts() == before


def test_a_date_long_ago_is_refused_in_a_time_zone_ahead_of_utc(member_client, league, settings):
    """Year 1 in Belgrade is year 0 in UTC: Python cannot store it, so the form must refuse."""
    settings.TIME_ZONE = "Europe/Belgrade"
    before = counts()

    response = preview_then_save(
        member_client, entry_url(league), {**WORKED_EXAMPLE_FORM, "played_at": "0001-01-01T00:30"}
    )

    assert response.status_code == 200
    assert "too long ago" in form_errors(response)
    assert counts() == before


@pytest.mark.parametrize("seats", ["-5", "0", "abc", "9" * 40, "1e9"])
def test_the_scored_form_survives_any_number_of_rows(member_client, hearts, seats):
    response = member_client.get(entry_url(hearts), {"seats": seats})

    assert response.status_code == 200
    assert 2 <= response.context["form"].seat_count <= 50


SCORED_CASES = [
    ("not a number", {"score_0": "NaN"}, "Enter a whole number"),
    ("infinity", {"score_0": "inf"}, "Enter a whole number"),
    ("an overflowing exponent", {"score_1": "1e999"}, "Enter a whole number"),
    ("a fraction", {"score_1": "10.5"}, "Enter a whole number"),
    ("a huge score", {"score_0": "10000000000"}, "less than or equal to"),
    ("a word", {"score_1": "lots"}, "Enter a whole number"),
    ("a missing score", {"score_1": ""}, "Every player needs a score"),
    ("a player twice", {"player_1": "anna"}, "is already player 1"),
    ("one player", {"player_1": "", "score_1": ""}, "at least two players"),
]


@pytest.mark.parametrize(
    ("case", "change", "message"), SCORED_CASES, ids=[c[0] for c in SCORED_CASES]
)
def test_the_scored_form_refuses_hostile_input(member_client, hearts, case, change, message):
    data = {
        "played_at": "2026-03-12T21:30",
        "player_0": "Anna",
        "score_0": "26",
        "player_1": "Bojan",
        "score_1": "3",
    }
    before = counts()

    response = preview_then_save(member_client, entry_url(hearts), {**data, **change})

    assert response.status_code == 200
    assert message in form_errors(response)
    assert counts() == before


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"outcome": "2"}, "Select a valid choice"),
        ({"outcome": ""}, "This field is required"),
        ({"player_1": "ANA"}, "is already player 1"),
    ],
)
def test_the_duel_form_refuses_hostile_input(member_client, chess, change, message):
    data = {"played_at": "2026-03-12T21:30", "player_0": "Ana", "player_1": "Bo", "outcome": "1"}
    before = counts()

    response = preview_then_save(member_client, entry_url(chess), {**data, **change})

    assert response.status_code == 200
    assert message in form_errors(response)
    assert counts() == before


# The player form --------------------------------------------------------------------------------

PLAYER_CASES = [
    ("no name", {"name": ""}, "This field is required"),
    ("only spaces", {"name": "   "}, "This field is required"),
    ("a name too long", {"name": "x" * 61}, "at most 60 characters"),
    ("a name the club has", {"name": "  pedja "}, "already has a player called"),
    ("punctuation only", {"name": "!!!"}, "letter or digit"),
    ("a NUL", {"name": "a\x00b"}, "Null characters are not allowed"),
    ("a terminal escape", {"name": "\x1b[31mAna"}, "control characters"),
    ("an unreadable character", {"name": "Ana\ufffd"}, "could not be read"),
    ("an impossible birth date", {"name": "Ana", "birth_date": "2026-13-45"}, "valid date"),
    ("a five-digit year", {"name": "Ana", "birth_date": "99999-01-01"}, "valid date"),
    ("a birth date ahead", {"name": "Ana", "birth_date": "2999-01-01"}, "future"),
    ("a birth date before 1900", {"name": "Ana", "birth_date": "0001-01-01"}, "1900"),
]


@pytest.mark.parametrize(
    ("case", "data", "message"), PLAYER_CASES, ids=[c[0] for c in PLAYER_CASES]
)
def test_the_player_form_refuses_hostile_input(member_client, league, case, data, message):
    before = counts()

    response = member_client.post(reverse("ratings:player_new"), data)

    assert response.status_code == 200
    assert message in form_errors(response)
    assert counts() == before


def test_the_player_form_does_not_redirect_off_site(member_client, league):
    response = member_client.post(
        reverse("ratings:player_new"), {"name": "Ana", "next": "https://evil.example/"}
    )

    assert response.status_code == 302
    assert response["Location"] == Player.objects.get(name="Ana").get_absolute_url()


# Bodies: too big, too many fields, binary, not UTF-8 ----------------------------------------------


def big_form_body(size: int) -> bytes:
    return (
        b"note="
        + b"x" * size
        + b"&"
        + "&".join(f"{k}={v}" for k, v in WORKED_EXAMPLE_FORM.items()).encode()
    )


@pytest.mark.parametrize(
    ("url", "who"),
    [
        (lambda league: entry_url(league), "member_user"),
        (lambda league: reverse("ratings:player_new"), "member_user"),
        (lambda league: reverse("login"), None),
        (lambda league: reverse("admin:ratings_game_add"), "admin_user"),
    ],
    ids=["entry", "player", "login", "admin"],
)
def test_a_ten_megabyte_form_post_is_a_clear_400(request, league, url, who):
    client = Client()
    if who:
        client.force_login(request.getfixturevalue(who))
    before = counts()

    response = client.post(
        url(league), big_form_body(10 * MB), content_type="application/x-www-form-urlencoded"
    )

    assert response.status_code == 400
    assert b"That request could not be read" in response.content
    assert counts() == before


def test_a_ten_megabyte_multipart_field_is_a_clear_400(member_client, league):
    before = counts()

    response = member_client.post(
        entry_url(league), {**WORKED_EXAMPLE_FORM, "note": "x" * (10 * MB)}
    )

    assert response.status_code == 400
    assert counts() == before


def test_a_ten_megabyte_file_sent_to_the_entry_form_is_ignored(member_client, league):
    before = counts()
    upload = SimpleUploadedFile("paper.bin", b"\x00" * (10 * MB))

    response = member_client.post(
        entry_url(league), {**WORKED_EXAMPLE_FORM, "paper": upload, "preview": "1"}
    )

    assert response.status_code == 200
    assert counts() == before


def test_thousands_of_fields_are_a_400(member_client, league):
    body = "&".join(f"f{n}=1" for n in range(5000))
    before = counts()

    response = member_client.post(
        entry_url(league), body, content_type="application/x-www-form-urlencoded"
    )

    assert response.status_code == 400
    assert counts() == before


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("application/octet-stream", bytes(range(256)) * 40),
        ("application/x-www-form-urlencoded", bytes(range(256)) * 40),
        ("multipart/form-data; boundary=xyz", b"--xyz\r\n\x00\xff garbage \r\n--xy"),
        ("multipart/form-data", b"no boundary at all"),
        ("multipart/form-data; boundary=" + "b" * 200, b"--" + b"b" * 200),
        ("application/json", b'{"player_0": "Pedja"}'),
        ("application/x-www-form-urlencoded; charset=no-such-charset", b"player_0=Pedja"),
    ],
    ids=[
        "octet-stream",
        "binary-form",
        "broken-multipart",
        "no-boundary",
        "long-boundary",
        "json",
        "unknown-charset",
    ],
)
def test_binary_and_malformed_bodies_write_nothing(member_client, league, content_type, body):
    before = counts()

    # generic() sends the bytes as they are; post() would re-encode them in the charset.
    response = member_client.generic("POST", entry_url(league), body, content_type=content_type)

    assert response.status_code in (200, 400)
    assert counts() == before


def form_body(player_0: bytes) -> bytes:
    fields = {**WORKED_EXAMPLE_FORM, "submission_key": str(uuid.uuid4()), "preview": "1"}
    fields.pop("player_0")
    return b"player_0=" + player_0 + b"&" + "&".join(f"{k}={v}" for k, v in fields.items()).encode()


@pytest.mark.parametrize("name", [b"Ped%FFja", b"Ana%C3%28", b"%ED%A0%80x", b"Ana%C0%AF"])
def test_a_name_that_is_not_utf8_is_refused(member_client, league, name):
    before = counts()

    response = member_client.generic(
        "POST", entry_url(league), form_body(name), content_type="application/x-www-form-urlencoded"
    )

    assert response.status_code == 200
    assert "could not be read" in " ".join(response.context["form"].errors["player_0"])
    assert counts() == before


def test_raw_bytes_that_are_not_utf8_are_read_as_latin_1(member_client, league):
    """No browser sends them unencoded; Django then reads the whole body as Latin-1.

    "Pedÿja" is close to the club's Pedja: the member confirms a new member."""
    before = counts()

    response = member_client.generic(
        "POST",
        entry_url(league),
        form_body(b"Ped\xffja") + b"&new_player_0=1",
        content_type="application/x-www-form-urlencoded",
    )

    assert response.status_code == 200
    assert [row["name"] for row in response.context["preview"]][0] == "Pedÿja"
    assert counts() == before


@pytest.mark.parametrize(
    "path",
    [
        "/players/%00/",
        "/players/a%00b/",
        "/players/%FF%FE/",
        "/players/" + "x" * 5000 + "/",
        "/games/99999999999999999999999/",
        "/leagues/friday/?min_games=-1",
        "/leagues/friday/?min_games=99999999999999999999",
        "/leagues/friday/?sort=%00&page=-1",
        "/leagues/friday/?page=99999999999999999999",
        "/leagues/friday/games/?player=%00",
        "/leagues/friday/games/?page=abc&sort=nonsense",
        "/leagues/friday/standings.csv?min_games=%00",
        "/leagues/friday/standings.exe",
        "/players/pedja/?friday-page=%00",
    ],
)
def test_hostile_urls_are_answered_without_a_server_error(client, league, path):
    response = client.get(path)

    assert response.status_code in (200, 400, 404)


# Names with HTML: escaped everywhere --------------------------------------------------------------


@pytest.fixture
def hostile_club(make_league, make_player, record_game):
    """A league and players whose names are HTML, with a game between them."""
    league = make_league(System.PREFKO, name=f"Friday {IMG}", slug="hostile")
    players = [make_player(SCRIPT), make_player(IMG), make_player("Plain Name")]
    game = record_game(league, players, papers=[(10, 2, 4), (6, -1, 8), (0, -1, 2)])
    return league, players, game


def assert_escaped(response) -> None:
    assert response.status_code == 200
    html = response.content.decode()
    assert "<script>alert" not in html
    assert "<img src=x" not in html
    assert "&lt;script&gt;alert" in html or "&lt;img src=x" in html


def test_html_names_are_escaped_on_every_page(client, hostile_club):
    league, players, game = hostile_club
    pages = [
        reverse("ratings:home"),
        reverse("ratings:leaderboard", args=[league.slug]),
        reverse("ratings:league_games", args=[league.slug]),
        reverse("ratings:game", args=[game.pk]),
        reverse("ratings:player", args=[players[0].slug]),
        reverse("ratings:player", args=[players[1].slug]),
    ]

    for url in pages:
        assert_escaped(client.get(url))


def test_html_names_are_escaped_in_the_entry_preview(member_client, league):
    data = {**WORKED_EXAMPLE_FORM, "player_0": SCRIPT, "player_1": IMG}

    response = member_client.post(
        entry_url(league), {**data, "submission_key": str(uuid.uuid4()), "preview": "1"}
    )

    assert response.context["preview"]
    assert_escaped(response)


def test_html_names_are_escaped_in_the_entry_form_suggestions(member_client, hostile_club):
    league, _players, _game = hostile_club

    assert_escaped(member_client.get(entry_url(league)))


def test_html_names_are_escaped_in_the_admin(admin_client, hostile_club):
    league, players, game = hostile_club
    deleted = engine.game_record(
        league=league,
        played_at=game.played_at,
        entries=[engine.Entry(player_id=p.pk, paper=(0, 0, 0)) for p in players],
        bula=30,
    )
    engine.game_delete(game=deleted)
    entry = AuditEntry.objects.get(action="delete")
    pages = [
        reverse("admin:ratings_game_changelist"),
        reverse("admin:ratings_player_changelist"),
        reverse("admin:ratings_player_change", args=[players[0].pk]),
        reverse("admin:ratings_league_change", args=[league.pk]),
        reverse("admin:ratings_auditentry_changelist"),
        reverse("admin:ratings_auditentry_change", args=[entry.pk]),
    ]

    for url in pages:
        assert_escaped(admin_client.get(url))


def test_html_names_are_escaped_in_the_admin_game_page(admin_client, hostile_club):
    _league, _players, game = hostile_club

    assert_escaped(admin_client.get(reverse("admin:ratings_game_change", args=[game.pk])))


# Names that look like formulas: neutralised in the CSV export ------------------------------------

FORMULAS = ['=HYPERLINK("http://evil.example","x")', "+1+1", "-2+3 cmd", "@SUM(A1)"]


def test_formula_names_are_neutralised_in_the_csv_export(
    client, make_league, make_player, record_game
):
    league = make_league(System.ELO, name="Chess", slug="chess")
    players = [make_player(name) for name in FORMULAS]
    for first, second in zip(players, players[1:], strict=False):
        record_game(league, [first, second], scores=[1, 0])

    response = client.get(reverse("ratings:leaderboard_export", args=[league.slug, "csv"]))

    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert sorted(row["name"] for row in rows) == sorted("'" + name for name in FORMULAS)
    # JSON is data, not a spreadsheet: the names as they are.
    data = client.get(reverse("ratings:leaderboard_export", args=[league.slug, "json"])).json()
    assert sorted(row["name"] for row in data["standings"]) == sorted(FORMULAS)


def test_formula_names_are_neutralised_in_the_standings_command(
    make_league, make_player, record_game
):
    league = make_league(System.RAYTER_HIGHSCORE, name="Rummy", slug="rummy")
    players = [make_player(name) for name in FORMULAS]
    record_game(league, players, scores=[4, 3, 2, 1])
    out = io.StringIO()

    call_command("standings", league.slug, "--format", "csv", stdout=out)

    names = [row["name"] for row in csv.DictReader(io.StringIO(out.getvalue()))]
    assert sorted(names) == sorted("'" + name for name in FORMULAS)


# Uploads: the rayter import page ------------------------------------------------------------------


@pytest.fixture
def rayter_staff(django_user_model):
    """Staff who may import (the import page asks for staff, nothing more)."""
    user = django_user_model.objects.create_user("importer", is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(content_type__app_label="ratings"))
    client = Client()
    client.force_login(user)
    return client


def rayter_import_url(league) -> str:
    return reverse("ratings:rayter_import", args=[league.slug])


def upload_rayter(client: Client, league, data: bytes, name: str = "hearts.txt"):
    upload = SimpleUploadedFile(name, data, content_type="text/plain")
    return client.post(rayter_import_url(league), {"file": upload})


UPLOAD_CASES = [
    (
        "ten megabytes",
        b"game 2026-01-01 20:00\nAnna 1\nBojan 2\n" + b"# pad\n" * (10 * MB // 6),
        "at most",
    ),
    ("binary", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not a text file"),
    ("not UTF-8", b"game 2026-01-01 20:00\nAnn\xe9 10\nBojan 3\n", "UTF-8"),
    ("empty", b"", "empty"),
    ("not rayter", b"hello world\nthis is not a rayter file\n", "line 1"),
    ("a player twice", b"game 2026-01-01 20:00\nAnna 10\nAnna 3\n", "already in this game"),
    ("a huge score", b"game 2026-01-01 20:00\nAnna " + b"9" * 40 + b"\nBojan 3\n", "line 2"),
    ("a month 13", b"game 2026-13-01 20:00\nAnna 10\nBojan 3\n", "line 1"),
    ("HTML names", f"game 2026-01-01 20:00\n{SCRIPT} 10\nBojan 3\n".encode(), "line 2"),
]


@pytest.mark.parametrize(
    ("case", "data", "message"), UPLOAD_CASES, ids=[c[0] for c in UPLOAD_CASES]
)
def test_the_rayter_upload_refuses_hostile_files(rayter_staff, hearts, case, data, message):
    before = counts()

    response = upload_rayter(rayter_staff, hearts, data)

    assert response.status_code == 200
    assert message in response.content.decode()
    assert "<script>alert" not in response.content.decode()
    assert counts() == before


def test_a_confirmation_with_a_forged_token_imports_nothing(rayter_staff, hearts):
    upload_rayter(rayter_staff, hearts, b"game 2026-01-01 20:00\nAnna 10\nBojan 3\n")
    before = counts()

    response = rayter_staff.post(rayter_import_url(hearts), {"confirm": "1", "token": "forged"})

    assert response.status_code == 302
    assert counts() == before


# Commands -----------------------------------------------------------------------------------------


def write(tmp_path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


RAYTER_COMMAND_CASES = [
    ("binary", b"\x00\x01\x02\xff" * 100),
    ("not UTF-8", b"game 2026-01-01 20:00\nAnn\xe9 10\nBojan 3\n"),
    ("not rayter", b"<html><body>hello</body></html>\n"),
    ("a huge score", b"game 2026-01-01 20:00\nAnna " + b"9" * 40 + b"\nBojan 3\n"),
    ("a negative time", b"game -2026-01-01 20:00\nAnna 1\nBojan 3\n"),
    ("a player twice", b"game 2026-01-01 20:00\nAnna 10\nAnna 3\n"),
]


@pytest.mark.parametrize(
    ("case", "data"), RAYTER_COMMAND_CASES, ids=[c[0] for c in RAYTER_COMMAND_CASES]
)
def test_import_rayter_refuses_hostile_files(tmp_path, hearts, case, data):
    before = counts()

    with pytest.raises(CommandError, match="nothing was written"):
        call_command(
            "import_rayter",
            write(tmp_path, "f.txt", data),
            "--league",
            hearts.slug,
            "--no-progress",
            stdout=io.StringIO(),
        )

    assert counts() == before


def test_import_rayter_refuses_a_missing_file(tmp_path, hearts):
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_rayter", str(tmp_path / "nope.txt"), "--league", hearts.slug)


@pytest.mark.parametrize("slug", ["no-such-league", "bad slug!", "x" * 300])
def test_league_commands_refuse_unknown_leagues(slug):
    before = counts()

    for command in ("recompute_ratings", "export_rayter", "standings"):
        with pytest.raises(CommandError):
            call_command(command, slug, stdout=io.StringIO())

    assert counts() == before


RESTORE_CASES = [
    ("not gzip", "club.json.gz", b"this is not gzip"),
    ("gzip of garbage", "club.json.gz", gzip.compress(b"\x00\xff not json")),
    ("truncated json", "club.json", b'[{"model": "ratings.league", "pk": 1, "fields": {'),
    ("an unknown model", "club.json", json.dumps([{"model": "evil.thing", "pk": 1}]).encode()),
    (
        "a broken league",
        "club.json",
        json.dumps(
            [{"model": "ratings.league", "pk": 1, "fields": {"name": "x", "system": "nope"}}]
        ).encode(),
    ),
    ("not a list", "club.json", b'{"model": "ratings.league"}'),
    ("binary", "club.json", bytes(range(256))),
    ("a spreadsheet", "club.xlsx", b"PK\x03\x04"),
]


@pytest.mark.parametrize(("case", "name", "data"), RESTORE_CASES, ids=[c[0] for c in RESTORE_CASES])
def test_restore_club_refuses_broken_files_with_a_clear_message(tmp_path, case, name, data):
    with pytest.raises(CommandError) as refused:
        call_command("restore_club", write(tmp_path, name, data), stdout=io.StringIO())

    assert "nothing was restored" in str(refused.value) or "json" in str(refused.value)
    assert counts() == {name: 0 for name in counts()}


def test_restore_club_refuses_a_missing_file(tmp_path):
    with pytest.raises(CommandError):
        call_command("restore_club", str(tmp_path / "nope.json.gz"), stdout=io.StringIO())


@pytest.mark.parametrize("name", ["club.txt", "club", "club.json.zip"])
def test_backup_club_wants_a_json_file_name(tmp_path, name):
    with pytest.raises(CommandError, match=r"\.json"):
        call_command("backup_club", str(tmp_path / name))


def test_backup_club_reports_a_folder_it_cannot_write(tmp_path):
    with pytest.raises(CommandError, match="No such file or directory"):
        call_command("backup_club", str(tmp_path / "missing" / "club.json.gz"))


# Fuzzers ----------------------------------------------------------------------------------------

NUMBERISH = st.one_of(
    st.integers(min_value=-50, max_value=400).map(str),
    st.integers().map(str),
    st.text(max_size=12),
    st.sampled_from(["", " ", "0", "-0", "1e3", "12.5", "NaN", "٣", "9" * 25, "-" + "9" * 25]),
)
NAMES = st.one_of(
    st.sampled_from(
        ["Pedja", "Marko", "Johnny", "pedja", "Ana", "", SCRIPT, "=1+1", "Đorđe", "ĐORĐE", "Åsa"]
    ),
    st.text(max_size=70),
)


@st.composite
def paper_posts(draw) -> dict:
    data = {
        "submission_key": str(uuid.uuid4()),
        "played_at": draw(
            st.one_of(
                st.sampled_from(["2026-03-12T21:30", "2026-03-12", "2999-01-01T00:00", ""]),
                st.datetimes().map(lambda moment: moment.strftime("%Y-%m-%dT%H:%M")),
                st.text(max_size=20),
            )
        ),
        "bula": draw(NUMBERISH),
        "note": draw(st.text(max_size=210)),
    }
    if draw(st.booleans()):
        data["ended_early"] = "on"
    for seat in range(3):
        if draw(st.integers(0, 9)) == 0:
            continue  # a missing seat
        data[f"player_{seat}"] = draw(NAMES)
        for column in ("left", "middle", "right"):
            data[f"{column}_{seat}"] = draw(NUMBERISH)
    if draw(st.booleans()):
        # A paper that adds up, so some examples get through to the save.
        a, b = draw(st.integers(-40, 40)), draw(st.integers(-40, 40))
        for seat, middle in enumerate((a, b, -a - b)):
            data[f"middle_{seat}"] = str(middle)
    return data


def ratings(league) -> list[tuple]:
    results = Result.objects.filter(game__league=league).order_by("pk")
    standings = Standing.objects.filter(league=league).order_by("pk")
    return [
        *results.values_list("pk", "rating_before", "rating_after"),
        *standings.values_list("pk", "rating", "games"),
    ]


def assert_game_is_valid(game: Game) -> None:
    results = list(game.results.order_by("seat"))
    assert len(results) == 3
    assert len({r.player_id for r in results}) == 3
    assert game.bula is not None and game.bula > 0
    assert all(r.left >= 0 and r.right >= 0 for r in results)
    assert sum(r.middle for r in results) == 0 or game.ended_early


@FUZZ
@given(data=paper_posts())
def test_fuzzed_paper_posts_never_fail_and_store_only_valid_games(member_client, league, data):
    before = counts()

    response = preview_then_save(member_client, entry_url(league), data)

    if response.status_code == 302:
        game = Game.objects.latest("id")
        assert response["Location"] == game.get_absolute_url()
        assert_game_is_valid(game)
        # Whatever the date, the league's ratings are those of a replay from scratch.
        stored = ratings(league)
        engine.league_recompute(league=league)
        assert ratings(league) == stored
    else:
        assert response.status_code == 200
        assert counts() == before


@FUZZ
@given(body=st.binary(max_size=2000))
def test_fuzzed_raw_bodies_never_fail(member_client, league, body):
    before = counts()

    response = member_client.post(
        entry_url(league), body, content_type="application/x-www-form-urlencoded"
    )

    assert response.status_code in (200, 400)
    assert counts() == before


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


def assert_parsed_sanely(parsed: rayter_format.RayterFile, line_count: int) -> None:
    assert isinstance(parsed, rayter_format.RayterFile)
    assert all(1 <= error.line <= max(line_count, 1) for error in parsed.errors)
    assert all(isinstance(error.message, str) and error.message for error in parsed.errors)
    if parsed.ok:
        for game in parsed.games:
            assert len(game.results) >= 2
            assert len(set(game.names)) == len(game.names)
            assert all(abs(score) <= rayter_format.MAX_SCORE for score in game.scores)
        rayter_reference.standings(parsed)


@hypothesis_settings(max_examples=300, deadline=None)
@given(text=st.one_of(st.text(), RAYTER_LINES))
def test_the_rayter_parser_reports_instead_of_raising_on_any_text(text):
    assert_parsed_sanely(
        rayter_format.parse(text), len(text.replace("\r\n", "\n").splitlines()) + 1
    )


@hypothesis_settings(max_examples=300, deadline=None)
@given(data=st.one_of(st.binary(), RAYTER_LINES.map(lambda t: t.encode("utf-8", "replace"))))
def test_the_rayter_parser_reports_instead_of_raising_on_any_bytes(data):
    assert_parsed_sanely(rayter_format.parse_bytes(data), data.count(b"\n") + data.count(b"\r") + 1)


@FUZZ
@given(
    data=st.one_of(
        st.binary(max_size=3000), RAYTER_LINES.map(lambda t: t.encode("utf-8", "replace"))
    )
)
def test_fuzzed_rayter_uploads_never_fail_and_write_nothing(rayter_staff, hearts, data):
    before = counts()

    response = upload_rayter(rayter_staff, hearts, data)

    assert response.status_code == 200
    assert counts() == before  # the upload only previews; the confirmation imports
