"""One rule for a name and one identity, over every path that names a player.

The admin's player form took "Ana\u202eXYZ" (a right-to-left override) that the entry pages
refused; a rename stored "  Pedja   Two  " as typed; invisible characters (U+200B, U+200D,
U+FEFF, a lone accent) made names that show exactly like "Marko". And Python and the database
folded case differently: with "ΟΔΟΣ Adv" in the club, a game for "οδοσ Adv" answered 500 ("no free
slug after 10 tries") and /players/new/ printed "Constraint player_name_unique_ci is violated.".
Now every path asks ratings.player_names (clean_player_name, name_key), and the unique
constraint is on the stored name_key.
"""

from __future__ import annotations

import uuid
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import transaction
from django.urls import reverse

from ratings import engine
from ratings.models import Game, Player, PlayerAlias, System
from ratings.player_names import clean_player_name, name_key
from ratings.rayter import files as rayter_files
from tests.builders import (
    T0,
    backup_objects,
    make_event,
    make_league,
    make_player,
    make_players,
    write_backup,
)

# (a name, words of its refusal)
REFUSED = [
    pytest.param("Ana\u202eXYZ", "text-direction", id="right-to-left-override"),
    pytest.param("Ana\u2067XYZ", "text-direction", id="right-to-left-isolate"),
    pytest.param("Mar\u200bko", "invisible", id="zero-width-space"),
    pytest.param("Mar\u200dko", "invisible", id="zero-width-joiner"),
    pytest.param("\ufeffMarko", "invisible", id="byte-order-mark"),
    pytest.param("\u0301Marko", "accent", id="lone-accent-first"),
    pytest.param("Marko \u0308", "accent", id="lone-accent-after-a-space"),
    pytest.param("\x1b[31mAna", "control", id="escape"),
    pytest.param("Ana\x07", "control", id="bell"),
    pytest.param("Ped\ufffdja", "could not be read", id="replacement-character"),
    pytest.param(" . ", "letter or digit", id="no-letter"),
]


@pytest.mark.parametrize(("name", "words"), REFUSED)
def test_the_rule_refuses_names_that_hide_or_reorder_characters(name, words):
    with pytest.raises(ValidationError, match=words):
        clean_player_name(name)


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("  Pedja   Two  ", "Pedja Two"),
        ("Pedja\tTwo", "Pedja Two"),
        ("Jose\u0301", "José"),  # an accent on its letter is composed
        ("Đorđe", "Đorđe"),
        ("Zoë", "Zoë"),
        ("ΟΔΟΣ Adv", "ΟΔΟΣ Adv"),
    ],
)
def test_the_rule_stores_a_name_trimmed_and_composed(typed, stored):
    assert clean_player_name(typed) == stored


@pytest.mark.parametrize(
    ("one", "other", "same"),
    [
        ("ΟΔΟΣ Adv", "οδοσ Adv", True),
        ("ΟΔΟΣ Adv", "οδος adv", True),
        ("Straße", "STRASSE", True),
        ("Pedja  Two", "pedja two", True),
        ("Ｍａｒｋｏ", "Marko", True),  # full-width letters
        ("José", "Jose\u0301", True),
        ("İvo Adv", "Ivo Adv", False),
        ("Pedja", "Peđa", False),  # close, not the same: ratings.names suggests it
    ],
)
def test_one_identity_for_every_spelling_of_a_name(one, other, same):
    assert (name_key(one) == name_key(other)) is same


# Every path -------------------------------------------------------------------------------------


def by_players_new(client, name):
    response = client.post(reverse("ratings:player_new"), {"name": name})
    assert response.status_code == 200
    raise ValidationError(response.context["form"].errors["name"])


def by_admin_add(client, name):
    response = client.post(reverse("admin:ratings_player_add"), {"name": name, "new_member": "1"})
    assert response.status_code == 200
    raise ValidationError(response.context["adminform"].form.errors["name"])


def by_admin_rename(client, name):
    player = Player.objects.get(name="Vesna")
    response = client.post(
        reverse("admin:ratings_player_change", args=[player.pk]),
        {"name": name, "new_member": "1"},
    )
    if response.status_code == 200:
        raise ValidationError(response.context["adminform"].form.errors["name"])
    assert response.status_code == 302


def by_rename(_client, name):
    engine.player_rename(player=Player.objects.get(name="Vesna"), name=name)


def by_get_or_create(_client, name):
    Player.objects.get_or_create_named(name)


def by_event(_client, name):
    make_event(make_league(System.PREFKO), make_players(3), new_names=[name])


def by_late_arrival(_client, name):
    from ratings.events import services

    event = make_event(make_league(System.PREFKO), make_players(3))
    services.event_players_add(event=event, players=[], new_names=[name])


def by_import(_client, name):
    league = make_league(System.RAYTER_HIGHSCORE)
    engine.games_import(
        league=league, games=[engine.ImportedGame(played_at=T0, scores=[(name, 1), ("Bo", 0)])]
    )


def by_rayter_file(_client, name):
    text = f"score_type highscore\ngame 2026-01-01 20:00\n{name} 10\nBo 5\n"
    try:
        rayter_files.import_rayter(data=text.encode(), league_slug="file")
    except rayter_files.RayterImportError as error:
        raise ValidationError(str(error)) from None


PATHS = [
    by_players_new,
    by_admin_add,
    by_admin_rename,
    by_rename,
    by_get_or_create,
    by_event,
    by_late_arrival,
    by_import,
    by_rayter_file,
]


@pytest.mark.parametrize("path", PATHS, ids=lambda path: path.__name__)
@pytest.mark.parametrize(
    ("name", "words"),
    [
        pytest.param("Ana\u202eXYZ", "text-direction", id="rlo"),
        pytest.param("Mar\u200bko", "invisible", id="zwsp"),
        pytest.param("\u0301Marko", "accent", id="lone-accent"),
        pytest.param("Ana\x1b", "control", id="esc"),
    ],
)
def test_every_path_refuses_the_name_naming_why(admin_client, path, name, words):
    make_player("Vesna")
    # A rayter file's names are words of letters and digits: its reader names the character.
    with pytest.raises(ValidationError, match=words if path is not by_rayter_file else "U\\+"):
        path(admin_client, name)
    hidden = [ch for ch in name if not ch.isalnum()]
    names = Player.objects.values_list("name", flat=True)
    assert not [stored for stored in names if any(ch in stored for ch in hidden)]


@pytest.mark.parametrize(
    "path",
    [by_admin_rename, by_rename, by_get_or_create, by_event, by_late_arrival],
    ids=lambda path: path.__name__,
)
def test_every_path_stores_a_name_trimmed(admin_client, path):
    make_player("Vesna")
    path(admin_client, "  Pedja   Two  ")
    assert Player.objects.filter(name="Pedja Two").count() == 1
    assert not Player.objects.filter(name__startswith=" ")


def test_the_admin_adds_a_player_with_a_trimmed_name(admin_client):
    response = admin_client.post(
        reverse("admin:ratings_player_add"), {"name": "  Pedja   Two  ", "new_member": "1"}
    )
    assert response.status_code == 302
    assert Player.objects.get().name == "Pedja Two"


@pytest.mark.parametrize(
    ("existing", "typed", "same"),
    [
        ("ΟΔΟΣ Adv", "οδοσ Adv", True),
        ("ΟΔΟΣ Adv", "ΟΔΟΣ  ADV", True),
        ("Straße Adv", "STRASSE Adv", True),
        ("Ivo Adv", "İvo Adv", False),
        ("İvo Adv", "Ivo Adv", False),
    ],
)
def test_a_game_for_a_name_in_another_case_is_saved_for_the_one_identity(
    member_client, existing, typed, same
):
    league = make_league(System.ELO, name="Chess")
    known = make_player(existing)
    make_player("Boris")
    url = reverse("ratings:game_new", args=[league.slug])
    data = {
        "played_at": "2026-01-01T20:00",
        "submission_key": str(uuid.uuid4()),
        "player_0": typed,
        "player_1": "Boris",
        "outcome": "draw",
        "new_player_0": "on",
    }
    preview = member_client.post(url, {**data, "preview": "1"})
    assert preview.status_code == 200
    token = preview.context["form"]["previewed"].value()

    response = member_client.post(url, {**data, "previewed": token, "save": "1"})

    assert response.status_code == 302, response.context["form"].errors
    seated = Game.objects.get().results.get(seat=0).player
    assert (seated == known) is same
    assert Player.objects.count() == (2 if same else 3)


@pytest.mark.parametrize(
    ("existing", "typed"), [("ΟΔΟΣ Adv", "οδοσ Adv"), ("Straße", "STRASSE"), ("Ana", " ana ")]
)
def test_a_new_player_named_like_one_the_club_has_is_a_form_error(member_client, existing, typed):
    make_player(existing)

    response = member_client.post(reverse("ratings:player_new"), {"name": typed})

    assert response.status_code == 200
    assert "already has a player called" in " ".join(response.context["form"].errors["name"])
    assert "onstraint" not in response.content.decode()
    assert Player.objects.count() == 1


def test_two_players_of_one_identity_cannot_be_stored_whoever_writes(db):
    Player.objects.create_named("ΟΔΟΣ Adv")
    with pytest.raises(Exception), transaction.atomic():  # noqa: B017 the database refuses
        Player.objects.create(name="οδοσ Adv", slug="odos-2")
    assert Player.objects.count() == 1


def test_restore_refuses_a_name_the_rule_refuses_and_derives_the_keys(db, tmp_path):
    backup = tmp_path / "club.json"
    with transaction.atomic():
        make_player("Marko")
        call_command("backup_club", str(backup), stdout=StringIO())
        transaction.set_rollback(True)
    objects = backup_objects(backup)
    player = next(obj for obj in objects if obj["model"] == "ratings.player")

    player["fields"].update(name="Mar\u200bko")
    write_backup(backup, objects)
    with pytest.raises(CommandError, match="invisible"):
        call_command("restore_club", str(backup), stdout=StringIO())

    player["fields"].update(name="Marko", search_key="zzz", name_key="other")
    write_backup(backup, objects)
    call_command("restore_club", str(backup), stdout=StringIO())
    restored = Player.objects.get()
    assert (restored.search_key, restored.name_key) == ("marko", "marko")


# Merged names ----------------------------------------------------------------------------------


def test_a_merged_name_typed_again_finds_the_player_it_was_merged_into(db):
    source, target = make_player("Pedia"), make_player("Pedja")
    engine.player_merge(source=source, target=target)

    assert Player.objects.named("pedia") == target
    assert Player.objects.get_or_create_named("Pedia") == target
    assert PlayerAlias.objects.get(player=target).name == "Pedia"
    assert Player.objects.count() == 1
