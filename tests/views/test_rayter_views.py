"""The rayter pages: staff upload a file to a league (preview, then confirm); anyone who may read
a league downloads it as a rayter file."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission
from django.contrib.sessions.models import Session
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from ratings import engine
from ratings.models import AuditEntry, Game, PendingUpload, Player, Standing, System
from ratings.rayter import standings as rayter_standings
from tests.builders import (
    FUZZ,
    HEARTS_FILE,
    MB,
    OUT_OF_RANGE,
    OUT_OF_RANGE_PROBLEMS,
    RAYTER_LINES,
    SCRIPT,
    ZONES,
    hearts_games,
    table_counts,
)
from tests.views.pages import VERSION

pytestmark = pytest.mark.django_db

WORKED_EXAMPLE = (
    Path(__file__).parent.parent / "algorithms" / "vectors" / "rayter_worked_example.txt"
).read_bytes()


@pytest.fixture
def staff_user(staff_user):
    """Staff who may import and replace: the page asks for add_game, and delete_game to replace."""
    staff_user.user_permissions.add(
        *Permission.objects.filter(codename__in=["add_game", "delete_game"])
    )
    return staff_user


@pytest.fixture
def league(make_league):
    return make_league(System.RAYTER_HIGHSCORE, name="Kille", slug="kille", game_name="Kille")


def import_url(league) -> str:
    return reverse("ratings:rayter_import", args=[league.slug])


def export_url(league) -> str:
    return reverse("ratings:rayter_export", args=[league.slug])


def upload(client, league, data: bytes, name: str = "games.txt", **fields):
    return client.post(
        import_url(league), {"file": SimpleUploadedFile(name, data, "text/plain"), **fields}
    )


def confirm(client, league, token: str):
    return client.post(import_url(league), {"confirm": "1", "token": token})


# Who may import ---------------------------------------------------------------------------------


def test_visitor_is_sent_to_log_in(client, league):
    response = client.get(import_url(league))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_member_cannot_import(member_client, league):
    assert member_client.get(import_url(league)).status_code == 403
    assert upload(member_client, league, WORKED_EXAMPLE).status_code == 403
    assert not Game.objects.exists()


def test_member_cannot_confirm_a_staff_upload(member_client, staff_client, league):
    token = upload(staff_client, league, WORKED_EXAMPLE).context["token"]

    response = confirm(member_client, league, token)

    assert response.status_code == 403
    assert not Game.objects.exists()


def test_staff_see_the_upload_form(staff_client, league):
    response = staff_client.get(import_url(league))

    assert response.status_code == 200
    assert b'enctype="multipart/form-data"' in response.content


def test_leagues_of_other_kinds_take_no_rayter_files(staff_client, make_league):
    prefko = make_league(System.PREFKO)

    assert staff_client.get(import_url(prefko)).status_code == 404


def test_unknown_league_is_not_found(staff_client):
    assert staff_client.get("/leagues/nope/import/").status_code == 404


# Preview and confirm ----------------------------------------------------------------------------


def test_preview_shows_what_the_import_would_do_and_writes_nothing(staff_client, league):
    response = upload(staff_client, league, WORKED_EXAMPLE)

    assert response.status_code == 200
    preview = response.context["preview"]
    assert (preview.summary.games, preview.summary.players) == (2, 4)
    assert preview.summary.new_players == ["Ahmed", "Dahlia", "John", "Lei"]
    assert [(s.name, round(s.rating)) for s in preview.standings] == [
        ("John", 1058),
        ("Dahlia", 1029),
        ("Ahmed", 962),
        ("Lei", 951),
    ]
    page = response.content.decode()
    assert "New to the club: Ahmed, Dahlia, John, Lei" in page
    assert '<td>John</td><td class="num">2</td><td class="num">1058</td>' in page
    assert not Game.objects.exists()
    assert not Player.objects.exists()


def test_confirm_imports_the_previewed_file(staff_client, staff_user, league):
    token = upload(staff_client, league, WORKED_EXAMPLE).context["token"]

    response = confirm(staff_client, league, token)

    assert response.status_code == 302
    assert response["Location"] == league.get_absolute_url()
    assert Game.objects.filter(league=league, entered_by=staff_user).count() == 2
    ratings = Standing.objects.leaderboard(league).values_list("player__name", "rating")
    assert [(name, round(rating)) for name, rating in ratings] == [
        ("John", 1058),
        ("Dahlia", 1029),
        ("Ahmed", 962),
        ("Lei", 951),
    ]
    assert not PendingUpload.objects.exists()
    page = staff_client.get(response["Location"]).content.decode()
    assert "Imported 2 games; 0 skipped as already there; 4 new players." in page


def test_the_import_message_counts_in_the_singular_too(staff_client, league, make_player):
    make_player("Dahlia")
    one_game = WORKED_EXAMPLE.split(b"\n\n")[0] + b"\n"
    token = upload(staff_client, league, one_game).context["token"]

    response = confirm(staff_client, league, token)

    page = staff_client.get(response["Location"]).content.decode()
    assert "Imported 1 game; 0 skipped as already there; 3 new players." in page


def test_confirming_twice_imports_once(staff_client, league):
    token = upload(staff_client, league, WORKED_EXAMPLE).context["token"]
    confirm(staff_client, league, token)

    response = confirm(staff_client, league, token)

    assert response.status_code == 302
    assert response["Location"] == import_url(league)
    assert Game.objects.count() == 2


def test_confirm_with_a_wrong_token_imports_nothing(staff_client, league):
    upload(staff_client, league, WORKED_EXAMPLE)

    response = confirm(staff_client, league, "forged")

    assert response["Location"] == import_url(league)
    assert not Game.objects.exists()
    page = staff_client.get(import_url(league)).content.decode()
    assert "no longer waiting to be imported" in page


def test_confirm_in_another_league_imports_nothing(staff_client, league, make_league):
    other = make_league(System.RAYTER_HIGHSCORE)
    token = upload(staff_client, league, WORKED_EXAMPLE).context["token"]

    response = confirm(staff_client, other, token)

    assert response["Location"] == import_url(other)
    assert not Game.objects.exists()


def test_preview_and_confirm_with_replace(staff_client, league):
    confirm(staff_client, league, upload(staff_client, league, WORKED_EXAMPLE).context["token"])
    other = b"game 2022-02-02 20:00\nJohn 5\nMaria 7\n"

    response = upload(staff_client, league, other, replace="on")

    assert response.context["preview"].summary.replaced == 2
    assert "2 games of the league will be deleted first." in response.content.decode()
    assert Game.objects.count() == 2
    confirm(staff_client, league, response.context["token"])
    assert Game.objects.count() == 1


def test_uploading_the_same_file_again_skips_its_games(staff_client, league):
    confirm(staff_client, league, upload(staff_client, league, WORKED_EXAMPLE).context["token"])

    response = upload(staff_client, league, WORKED_EXAMPLE)

    preview = response.context["preview"]
    assert (preview.summary.games, len(preview.summary.skipped)) == (0, 2)
    assert "line 7" in response.content.decode()


# Refused uploads --------------------------------------------------------------------------------


def test_file_with_errors_lists_each_with_its_line(staff_client, league):
    data = b"game 2020-01-01 10:00\nAnna 1\nBo 2\n\ngame 2020-01-01 11:00\nAnna x\nBo 2\nCy\n"

    response = upload(staff_client, league, data)

    assert response.status_code == 200
    page = response.content.decode()
    assert "The file was not imported" in page
    assert "line 6: expected &#x27;NAME SCORE&#x27;, got &#x27;Anna x&#x27;" in page
    assert "line 8: " in page
    assert "token" not in response.context
    assert not PendingUpload.objects.exists()
    assert not Game.objects.exists()


def test_file_of_another_score_type_is_refused(staff_client, league):
    response = upload(staff_client, league, b"score_type lowscore\n" + WORKED_EXAMPLE)

    assert "the file&#x27;s score type is lowscore but the league" in response.content.decode()


def test_oversized_upload_is_refused(staff_client, league, settings):
    settings.RAYTER_UPLOAD_MAX_BYTES = 100

    response = upload(staff_client, league, WORKED_EXAMPLE)

    assert response.status_code == 200
    assert response.context["form"].errors["file"] == [
        "The file is 179\xa0bytes; a rayter file may be at most 100\xa0bytes."
    ]
    assert "preview" not in response.context


def test_binary_upload_is_refused(staff_client, league):
    response = upload(staff_client, league, b"PK\x03\x04\x00\x00\x08\x00", name="games.xlsx")

    assert response.status_code == 200
    assert "This is not a text file" in response.context["form"].errors["file"][0]


def test_invalid_utf8_upload_is_refused_naming_the_line(staff_client, league):
    response = upload(staff_client, league, b"game 2020-01-01 10:00\nAnna 1\nBj\xf6rn 2\n")

    assert response.status_code == 200
    page = response.content.decode()
    assert "The file is not UTF-8 text: save it as UTF-8 and upload it again." in page
    assert "line 3: not UTF-8 text (byte 0xF6 at byte 3 of the line)" in page
    assert not Game.objects.exists()


def test_empty_upload_is_refused(staff_client, league):
    response = upload(staff_client, league, b"")

    assert response.context["form"].errors["file"] == ["The submitted file is empty."]


def test_bom_and_crlf_upload(staff_client, league):
    data = "\ufeffgame 2020-01-01 10:00\r\nZoë 3\r\n李雷 1\r\n".encode()

    response = upload(staff_client, league, data)

    assert [s.name for s in response.context["preview"].standings] == ["Zoë", "李雷"]


# Download ---------------------------------------------------------------------------------------


def test_download_is_the_leagues_rayter_file(client, league, make_player, record_game):
    players = [make_player(name) for name in ("Dahlia", "John")]
    record_game(league, players, scores=[27, 15])

    response = client.get(export_url(league))

    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="kille.txt"'
    assert response.content.decode() == rayter_standings.export_rayter(league)
    assert response.content.startswith(b"score_type highscore\ngame_name Kille\n\ngame 2026-")
    assert b"Dahlia  27\nJohn    15\n" in response.content


def test_download_costs_three_queries_after_the_version(
    client, league, make_player, record_game, django_assert_num_queries
):
    """The league, the club's names (each player's one word in the file, told apart from
    names written alike) and every result with its game and player: no query per game (an
    n+1). First the data version the download is cached by (ratings.download_cache)."""
    players = [make_player() for _ in range(4)]
    for n in range(6):
        record_game(league, players[n % 2 : n % 2 + 3], scores=[n, 2, 3])

    with django_assert_num_queries(VERSION + 3):
        response = client.get(export_url(league))

    assert response.content.count(b"\ngame ") == 6


def test_download_of_an_empty_league(client, league):
    response = client.get(export_url(league))

    assert response.content == b"score_type highscore\ngame_name Kille\n"


def test_download_of_a_private_club_needs_a_login(client, member_client, league, settings):
    settings.CLUB_PRIVATE = True

    assert client.get(export_url(league)).status_code == 302
    assert member_client.get(export_url(league)).status_code == 200


def test_download_of_other_kinds_of_league_is_not_found(client, make_league):
    assert client.get(export_url(make_league(System.ELO))).status_code == 404


def test_league_that_cannot_be_written_says_why(client, league, make_player, record_game):
    # A score the engine now refuses (systems.Rayter.checked_scores), as a league entered
    # before that rule, or restored from its backup, may still hold.
    game = record_game(league, [make_player("Ann"), make_player("Bo")], scores=[1, 2])
    game.results.filter(seat=0).update(score=1.5)

    response = client.get(export_url(league), follow=True)

    assert response.redirect_chain == [(league.get_absolute_url(), 302)]
    assert "Ann&#x27;s score 1.5 is not a whole number" in response.content.decode()


# Links on the leaderboard -----------------------------------------------------------------------


def test_leaderboard_links_the_download_for_everyone(client, league):
    page = client.get(league.get_absolute_url()).content.decode()

    assert export_url(league) in page
    assert import_url(league) not in page


def test_leaderboard_links_the_import_for_staff(staff_client, member_client, league):
    assert import_url(league) in staff_client.get(league.get_absolute_url()).content.decode()
    assert import_url(league) not in member_client.get(league.get_absolute_url()).content.decode()


def test_leaderboard_of_other_leagues_has_no_rayter_links(staff_client, make_league):
    chess = make_league(System.ELO)

    page = staff_client.get(chess.get_absolute_url()).content.decode()

    assert "rayter" not in page


# Replacing a league's games from the import page -------------------------------------------------


def test_a_preview_of_a_replace_deletes_nothing_and_writes_no_entry(
    hearts_league, importer, client
):
    engine.games_import(league=hearts_league, games=hearts_games(3))
    client.force_login(importer)

    response = client.post(
        reverse("ratings:rayter_import", args=[hearts_league.slug]),
        {"file": SimpleUploadedFile("h.txt", HEARTS_FILE), "replace": "on"},
    )

    assert response.context["preview"].summary.replaced == 3
    assert "The audit trail keeps each of them" in response.content.decode()
    assert Game.objects.filter(league=hearts_league).count() == 3
    assert not AuditEntry.objects.filter(action="delete").exists()


def test_a_replace_on_the_import_page_is_restorable(hearts_league, importer, client):
    engine.games_import(league=hearts_league, games=hearts_games(3))
    snapshots = {g.pk: engine.game_snapshot(g) for g in Game.objects.filter(league=hearts_league)}
    client.force_login(importer)
    url = reverse("ratings:rayter_import", args=[hearts_league.slug])
    preview = client.post(url, {"file": SimpleUploadedFile("h.txt", HEARTS_FILE), "replace": "on"})

    client.post(url, {"confirm": "1", "token": preview.context["token"]})

    deletions = AuditEntry.objects.filter(action="delete", league=hearts_league, user=importer)
    assert {entry.game_id: entry.before for entry in deletions} == snapshots


# The previewed upload waits in a table, not in the session --------------------------------------
def preview(client, league, data: bytes = HEARTS_FILE, **fields):
    return client.post(import_url(league), {"file": SimpleUploadedFile("h.txt", data), **fields})


def confirm_followed(client, league, token: str):
    return client.post(import_url(league), {"confirm": "1", "token": token}, follow=True)


@pytest.fixture
def importer_client(importer, client):
    client.force_login(importer)
    return client


def test_a_previewed_file_waits_in_a_table_and_the_session_stays_small(
    hearts_league, importer, importer_client
):
    # About 400 KB: the session once carried all of it, read and written on every page.
    data = HEARTS_FILE + b"# a comment that pads the file\n" * 12_000
    session_key = importer_client.session.session_key

    response = preview(importer_client, hearts_league, data)

    assert response.context["preview"]
    pending = PendingUpload.objects.get()
    assert (pending.user, pending.league, pending.replace) == (importer, hearts_league, False)
    assert bytes(pending.data) == data
    assert pending.token_hash != response.context["token"]
    session = Session.objects.get(session_key=session_key)
    assert len(session.session_data) < 2_000


def test_confirming_imports_the_waiting_file_and_deletes_it(hearts_league, importer_client):
    token = preview(importer_client, hearts_league).context["token"]

    response = confirm_followed(importer_client, hearts_league, token)

    assert "Imported 1 game;" in response.content.decode()
    assert Game.objects.filter(league=hearts_league).count() == 1
    assert not PendingUpload.objects.exists()


def test_an_upload_waits_for_its_own_user_only(hearts_league, importer_client, django_user_model):
    token = preview(importer_client, hearts_league).context["token"]
    other = django_user_model.objects.create_user("other", is_staff=True, is_superuser=True)
    other_client = type(importer_client)()
    other_client.force_login(other)

    response = confirm_followed(other_client, hearts_league, token)

    assert "no longer waiting to be imported" in response.content.decode()
    assert not Game.objects.exists()
    assert PendingUpload.objects.count() == 1  # still the importer's to confirm


def test_an_upload_waits_for_its_own_league_only(hearts_league, importer_client, make_league):
    other = make_league(System.RAYTER_LOWSCORE)
    token = preview(importer_client, hearts_league).context["token"]

    response = confirm_followed(importer_client, other, token)

    assert "no longer waiting to be imported" in response.content.decode()
    assert not Game.objects.exists()


def test_an_upload_left_for_more_than_a_day_is_not_imported(hearts_league, importer_client):
    token = preview(importer_client, hearts_league).context["token"]
    PendingUpload.objects.update(created_at=timezone.now() - timedelta(days=1, minutes=1))

    response = confirm_followed(importer_client, hearts_league, token)

    assert "no longer waiting to be imported" in response.content.decode()
    assert not Game.objects.exists()


def test_a_new_upload_replaces_the_last_one_and_clears_expired_ones(
    hearts_league, importer_client, make_league, django_user_model
):
    elsewhere = make_league(System.RAYTER_LOWSCORE)
    someone = django_user_model.objects.create_user("someone", is_staff=True)
    fresh = PendingUpload.objects.create(
        token_hash="a" * 64, user=someone, league=hearts_league, data=HEARTS_FILE
    )
    stale = PendingUpload.objects.create(
        token_hash="b" * 64, user=someone, league=hearts_league, data=HEARTS_FILE
    )
    PendingUpload.objects.filter(pk=stale.pk).update(created_at=timezone.now() - timedelta(days=2))
    first = preview(importer_client, hearts_league).context["token"]
    other_league = preview(importer_client, elsewhere).context["token"]

    second = preview(importer_client, hearts_league).context["token"]

    waiting = set(PendingUpload.objects.values_list("pk", flat=True))
    assert fresh.pk in waiting and stale.pk not in waiting
    assert len(waiting) == 3  # someone's fresh one, and one per league of the importer's
    assert (
        "no longer waiting"
        in confirm_followed(importer_client, hearts_league, first).content.decode()
    )
    assert (
        "Imported 1 game;"
        in confirm_followed(importer_client, hearts_league, second).content.decode()
    )
    assert (
        "Imported 1 game;"
        in confirm_followed(importer_client, elsewhere, other_league).content.decode()
    )


def test_a_failed_preview_leaves_nothing_waiting(hearts_league, importer_client):
    token = preview(importer_client, hearts_league).context["token"]

    response = preview(importer_client, hearts_league, b"game 2025-13-01 20:00\nAna 1\nEma 2\n")

    assert "token" not in response.context
    assert not PendingUpload.objects.exists()
    assert (
        "no longer waiting"
        in confirm_followed(importer_client, hearts_league, token).content.decode()
    )


# Years the calendar cannot hold, on the upload page ----------------------------------------------


@pytest.mark.parametrize("zone", ZONES)
def test_the_upload_page_refuses_years_1_and_9999_on_every_line_in_any_time_zone(
    settings, hearts_league, importer_client, zone
):
    settings.TIME_ZONE = zone

    response = preview(importer_client, hearts_league, OUT_OF_RANGE)

    assert response.status_code == 200
    assert [str(problem) for problem in response.context["problems"]] == OUT_OF_RANGE_PROBLEMS
    assert "token" not in response.context
    assert not Game.objects.exists()
    assert not Player.objects.exists()


# Uploads: the rayter import page ------------------------------------------------------------------


@pytest.fixture
def rayter_staff(django_user_model):
    """Staff who may import (the import page asks for staff, nothing more)."""
    user = django_user_model.objects.create_user("importer", is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(content_type__app_label="ratings"))
    client = Client()
    client.force_login(user)
    return client


def rayter_import_url(friday_league) -> str:
    return reverse("ratings:rayter_import", args=[friday_league.slug])


def upload_rayter(client: Client, friday_league, data: bytes, name: str = "hearts.txt"):
    upload = SimpleUploadedFile(name, data, content_type="text/plain")
    return client.post(rayter_import_url(friday_league), {"file": upload})


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
def test_the_rayter_upload_refuses_hostile_files(rayter_staff, hearts_league, case, data, message):
    before = table_counts()

    response = upload_rayter(rayter_staff, hearts_league, data)

    assert response.status_code == 200
    assert message in response.content.decode()
    assert "<script>alert" not in response.content.decode()
    assert table_counts() == before


def test_a_confirmation_with_a_forged_token_imports_nothing(rayter_staff, hearts_league):
    upload_rayter(rayter_staff, hearts_league, b"game 2026-01-01 20:00\nAnna 10\nBojan 3\n")
    before = table_counts()

    response = rayter_staff.post(
        rayter_import_url(hearts_league), {"confirm": "1", "token": "forged"}
    )

    assert response.status_code == 302
    assert table_counts() == before


@FUZZ
@given(
    data=st.one_of(
        st.binary(max_size=3000), RAYTER_LINES.map(lambda t: t.encode("utf-8", "replace"))
    )
)
def test_fuzzed_rayter_uploads_never_fail_and_write_nothing(rayter_staff, hearts_league, data):
    before = table_counts()

    response = upload_rayter(rayter_staff, hearts_league, data)

    assert response.status_code == 200
    assert table_counts() == before  # the upload only previews; the confirmation imports
