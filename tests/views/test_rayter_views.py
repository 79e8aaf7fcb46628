"""The rayter pages: staff upload a file to a league (preview, then confirm); anyone who may read
a league downloads it as a rayter file."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from ratings.models import Game, PendingUpload, Player, Standing, System
from ratings.rayter import standings as rayter_standings

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


def test_download_costs_two_queries(
    client, league, make_player, record_game, django_assert_num_queries
):
    """The league and every result with its game and player: no query per game (an n+1)."""
    players = [make_player() for _ in range(4)]
    for n in range(6):
        record_game(league, players[n % 2 : n % 2 + 3], scores=[n, 2, 3])

    with django_assert_num_queries(2):
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
