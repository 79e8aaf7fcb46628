"""Digital papers in backup_club and restore_club: the deal logs come back exactly, a paper in
progress goes on after the restore, and a deal log that does not give its game is refused."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from ratings.algorithms.paper import Hand
from ratings.models import Game, System
from ratings.papers import selectors, services
from ratings.papers.models import Deal, DigitalPaper
from tests.builders import (
    T0,
    backup_objects,
    backup_signature,
    make_league,
    make_players,
    write_backup,
    write_forged_backup,
)
from tests.papers.deals import SHORT_GAME, enter

PAPER_MODELS = (DigitalPaper, Deal, Game)


def build_papers() -> None:
    league = make_league(System.PREFKO, name="Friday")
    table = (league, make_players(["Ana", "Boris", "Ceca"]))
    finished = services.paper_start(league=league, players=table[1], bula=10, refas=2)
    enter(finished, SHORT_GAME)
    services.paper_finish(paper=finished, played_at=T0)
    going = services.paper_start(league=league, players=table[1][::-1], bula=30)
    enter(going, SHORT_GAME[:2])
    services.deal_repeal(paper=going, number=2)


def stored_paper_rows() -> dict[str, list]:
    return {
        model.__name__: list(
            model.objects.order_by("pk").values_list(
                *(field.attname for field in model._meta.concrete_fields)
            )
        )
        for model in PAPER_MODELS
    }


@pytest.mark.django_db(transaction=True)
def test_papers_are_backed_up_and_restored_exactly_and_go_on(tmp_path):
    build_papers()
    expected = stored_paper_rows()
    backup = tmp_path / "club.json"
    call_command("backup_club", str(backup), stdout=StringIO())
    call_command("flush", interactive=False, verbosity=0)
    call_command("restore_club", str(backup), stdout=StringIO())
    assert stored_paper_rows() == expected
    # The played-out paper (to -6) comes back played out, not ended early.
    assert not Game.objects.get().ended_early
    assert not DigitalPaper.objects.get(game__isnull=False).ended_early
    going = DigitalPaper.objects.get(game__isnull=True)
    services.deal_add(paper=going, hand=Hand(refa=True), after=2)
    assert len(selectors.deal_log(going)["hands"]) == 3


@pytest.mark.django_db(transaction=True)
def test_a_deal_log_that_does_not_give_its_games_columns_is_refused(tmp_path):
    build_papers()
    backup = tmp_path / "club.json"
    call_command("backup_club", str(backup), stdout=StringIO())
    objects = backup_objects(backup)
    for obj in objects:
        if obj["model"] == "ratings.deal" and obj["fields"]["number"] == 4:
            # Rekontra instead of kontra: the value doubled, as the rules give it.
            obj["fields"]["entered"]["contract"]["kontra"] = 2
            obj["fields"]["entered"]["value"] *= 2
    write_backup(backup, objects)
    call_command("flush", interactive=False, verbosity=0)
    with pytest.raises(CommandError, match="digital paper .* gives .* but its game"):
        call_command("restore_club", str(backup), stdout=StringIO())
    assert not DigitalPaper.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_an_open_papers_deal_swapped_for_another_valid_one_is_refused(tmp_path):
    """An open paper has no game to check its deals against: only the file's signature tells
    that one of them was swapped, even with the checksum made again."""
    build_papers()
    backup = tmp_path / "club.json"
    call_command("backup_club", str(backup), stdout=StringIO())
    going = DigitalPaper.objects.get(game__isnull=True).pk
    objects = backup_objects(backup)
    deal = next(
        obj["fields"]
        for obj in objects
        if obj["model"] == "ratings.deal" and obj["fields"]["paper"] == going
        if obj["fields"]["number"] == 2
    )
    assert deal["entered"]["contract"]["name"] == "karo"
    deal["entered"]["contract"]["name"] = "herc"
    deal["entered"]["value"] = 16  # herc on a refa
    forged = tmp_path / "forged.json"
    write_forged_backup(forged, objects, signed=backup_signature(backup))
    call_command("flush", interactive=False, verbosity=0)

    with pytest.raises(CommandError, match=r"its signature \(HMAC-SHA256\) does not match"):
        call_command("restore_club", str(forged), stdout=StringIO())
    assert not DigitalPaper.objects.exists()
    # The same change restores when the operator vouches for it: the content's checks let it by.
    call_command("restore_club", str(forged), "--unsigned", stdout=StringIO())
    assert Deal.objects.get(paper=going, number=2).entered["contract"]["name"] == "herc"


def as_tapped(entered: dict) -> dict:
    """A deal as the pad's taps were kept before the one shape (migration 0033)."""
    if "refa" in entered:
        return entered
    contract = entered["contract"]
    return {
        "declarer": entered["declarer"]["seat"],
        "contract": contract["name"],
        "igra": contract["igra"],
        "on_refa": contract["on_refa"],
        "kontra": contract["kontra"],
        "failed": entered["declarer"]["failed"],
        "followers": [
            {key: f[key] for key in ("seat", "play", "tricks", "failed")}
            for f in entered["followers"]
        ],
    }


@pytest.mark.django_db(transaction=True)
def test_a_backup_made_before_the_one_shape_restores_its_deals_in_it(tmp_path):
    build_papers()
    expected = stored_paper_rows()
    backup = tmp_path / "club.json"
    call_command("backup_club", str(backup), stdout=StringIO())
    objects = backup_objects(backup)
    for obj in objects:
        if obj["model"] == "ratings.deal":
            obj["fields"]["entered"] = as_tapped(obj["fields"]["entered"])
    assert any("contract" in obj["fields"].get("entered", {}) for obj in objects)
    write_backup(backup, objects)
    call_command("flush", interactive=False, verbosity=0)

    call_command("restore_club", str(backup), stdout=StringIO())

    assert stored_paper_rows() == expected


@pytest.mark.django_db(transaction=True)
def test_a_backup_deal_that_is_no_deal_is_refused(tmp_path):
    build_papers()
    backup = tmp_path / "club.json"
    call_command("backup_club", str(backup), stdout=StringIO())
    objects = backup_objects(backup)
    deal = next(obj for obj in objects if obj["model"] == "ratings.deal")
    deal["fields"]["entered"] = {"refa": True, "note": "spilled coffee"}
    write_backup(backup, objects)
    call_command("flush", interactive=False, verbosity=0)
    with pytest.raises(CommandError, match="entered is not a deal"):
        call_command("restore_club", str(backup), stdout=StringIO())
    assert not DigitalPaper.objects.exists()
