"""A rayter file that spells a member's name another way is caught before it is confirmed."""

from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from ratings.models import System

FILE = b"game 2026-01-01 20:00\nJonathan 10\nMarko 5\n"


def test_preview_lists_close_club_names_for_each_new_name(admin_client, make_league, make_player):
    league = make_league(System.RAYTER_HIGHSCORE, name="Hearts")
    make_player("Jonatan")
    make_player("Marko")
    response = admin_client.post(
        reverse("ratings:rayter_import", args=[league.slug]),
        {"file": SimpleUploadedFile("hearts.txt", FILE, "text/plain")},
    )
    preview = response.context["preview"]
    assert preview.summary.new_players == ["Jonathan"]
    assert preview.close_names == {"Jonathan": ["Jonatan"]}
    assert "the club has Jonatan: a typo in the file?" in response.content.decode()


def test_import_command_notes_close_club_names(make_player, tmp_path, capsys):
    make_player("Jonatan")
    path = tmp_path / "hearts.txt"
    path.write_bytes(FILE)
    call_command("import_rayter", str(path), league="hearts", no_progress=True)
    assert "'Jonathan' is a new player, but the club has Jonatan" in capsys.readouterr().out
