"""Events in backup_club and restore_club: a night and a tournament come back exactly (players
present, rounds with their byes, tables with their games or marked not played, seats, the
organiser, the audit trail; nights planned ahead with their answers, a member's calendar
address), and the tournament goes on after the restore."""

from __future__ import annotations

import copy
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import transaction

from ratings import engine
from ratings.events import calendar, planning, selectors, services
from ratings.events.models import (
    CalendarFeed,
    Event,
    EventAnswer,
    EventPlayer,
    EventRound,
    EventTable,
    Scoring,
    TableSeat,
)
from ratings.models import AuditEntry, System
from tests.builders import (
    T0,
    backup_objects,
    make_event,
    make_league,
    make_night,
    make_players,
    play_round,
    play_table,
    write_backup,
)

EVENT_MODELS = (
    Event,
    EventPlayer,
    EventRound,
    EventTable,
    TableSeat,
    EventAnswer,
    CalendarFeed,
    AuditEntry,
)


def build_events() -> None:
    organiser = get_user_model().objects.create_user("vesna", password="pw-for-tests-only")
    league = make_league(System.PREFKO, name="Friday")
    players = make_players(10)
    night = make_event(league, players, organiser=organiser, rounds_total=2)
    play_round(services.round_draw(event=night, actor=organiser))
    second = services.round_draw(event=night, actor=organiser)
    play_table(second.tables.get(number=1))
    services.event_close(event=night, actor=organiser)  # tables 2 and 3 not played
    cup = make_event(
        league, players[:6], name="Cup", organiser=organiser, scoring=Scoring.PREFERANS_ORG
    )
    play_round(services.round_draw(event=cup))
    planned = make_night(league, organiser=organiser, place="Kafana")
    for player, answer in zip(players[:3], ["coming", "maybe", "no"], strict=True):
        planning.night_answer(event=planned, player=player, answer=answer)
    planning.night_cancel(event=make_night(league, name="Cancelled"))
    calendar.feed_make(organiser)


def event_rows() -> dict[str, list]:
    rows = {}
    for model in EVENT_MODELS:
        fields = [field.attname for field in model._meta.concrete_fields]
        rows[model.__name__] = list(model.objects.order_by("pk").values_list(*fields))
    rows["byes"] = sorted(EventRound.byes.through.objects.values_list("eventround_id", "player_id"))
    rows["organisers"] = list(Event.objects.order_by("pk").values_list("organiser__username"))
    return rows


@pytest.mark.django_db(transaction=True)
def test_events_are_backed_up_and_restored_exactly(tmp_path):
    build_events()
    expected = event_rows()
    standings = [selectors.event_standings(event) for event in Event.objects.order_by("pk")]
    assert expected["byes"], "the night of ten has byes"
    backup = tmp_path / "club.json.gz"

    call_command("backup_club", str(backup), stdout=StringIO())
    call_command("flush", interactive=False, verbosity=0)
    assert not Event.objects.exists()
    call_command("restore_club", str(backup), stdout=StringIO())

    assert event_rows() == expected
    assert [selectors.event_standings(e) for e in Event.objects.order_by("pk")] == standings


@pytest.mark.django_db(transaction=True)
def test_a_restored_tournament_goes_on(tmp_path):
    build_events()
    backup = tmp_path / "club.json"
    call_command("backup_club", str(backup), stdout=StringIO())
    call_command("flush", interactive=False, verbosity=0)
    call_command("restore_club", str(backup), stdout=StringIO())
    highest = max(EventTable.objects.values_list("pk", flat=True))

    drawn = services.round_draw(event=Event.objects.get(name="Cup"))

    assert drawn.number == 2
    assert min(drawn.tables.values_list("pk", flat=True)) > highest
    play_round(drawn)


# What restore_club refuses, as the live rules do -------------------------------------------------
# Each of these was restored, and the event page, the player's page or the audit restore then
# answered 500.


@pytest.fixture(scope="module")
def night_objects(django_db_setup, django_db_blocker, tmp_path_factory) -> list[dict]:
    """A night with a played table, and a second league with a game, as a backup's objects."""
    backup = tmp_path_factory.mktemp("backup") / "club.json"
    with django_db_blocker.unblock(), transaction.atomic():
        league = make_league(System.PREFKO, name="Friday")
        players = make_players(6)
        night = make_event(league, players)
        play_round(services.round_draw(event=night))
        other = make_league(System.ELO, name="Chess")
        engine.game_record(
            league=other,
            played_at=T0,
            entries=[
                engine.Entry(player_id=players[0].pk, score=1.0),
                engine.Entry(player_id=players[1].pk, score=0.0),
            ],
        )
        engine.player_rename(player=players[5], name="Renamed")
        call_command("backup_club", str(backup), stdout=StringIO())
        transaction.set_rollback(True)
    return backup_objects(backup)


def _first(objects, model):
    return next(obj for obj in objects if obj["model"] == model)


def _points_per_place(objects):
    _first(objects, "ratings.event")["fields"].update(
        scoring="places", points_per_place=["x", {"a": 1}, None, 1e300]
    )


def _points_without_places(objects):
    _first(objects, "ratings.event")["fields"].update(points_per_place={"a": 1})


def _a_table_of_four(objects):
    seat = copy.deepcopy(_first(objects, "ratings.tableseat"))
    players = [obj["pk"] for obj in objects if obj["model"] == "ratings.player"]
    seated = {
        obj["fields"]["player"]
        for obj in objects
        if obj["model"] == "ratings.tableseat" and obj["fields"]["table"] == seat["fields"]["table"]
    }
    seat["pk"] = 9999
    seat["fields"].update(seat=3, player=next(p for p in players if p not in seated))
    objects.append(seat)


def _a_game_of_another_league(objects):
    chess = next(
        obj["pk"]
        for obj in objects
        if obj["model"] == "ratings.league" and obj["fields"]["name"] == "Chess"
    )
    game = next(
        obj["pk"]
        for obj in objects
        if obj["model"] == "ratings.game" and obj["fields"]["league"] == chess
    )
    _first(objects, "ratings.eventtable")["fields"]["game"] = game


def _an_alias_of_a_live_address(objects):
    _first(objects, "ratings.playeralias")["fields"]["slug"] = _first(objects, "ratings.player")[
        "fields"
    ]["slug"]


def _born_after_the_first_game(objects):
    _first(objects, "ratings.player")["fields"]["birth_date"] = "2026-01-02"


def _a_name_with_an_escape(objects):
    _first(objects, "ratings.player")["fields"]["name"] = "\x1b[31mAna"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "says"),
    [
        (_points_per_place, "Points per place are whole numbers"),
        (_points_without_places, "not as it stores them"),
        (_a_table_of_four, "more than its size"),
        (_a_game_of_another_league, "of another league"),
        (_an_alias_of_a_live_address, "is also a player's address"),
        (_born_after_the_first_game, "after their first game"),
        (_a_name_with_an_escape, "control characters"),
    ],
    ids=lambda value: value.__name__.strip("_") if callable(value) else None,
)
def test_restore_refuses_what_the_live_rules_refuse(tmp_path, night_objects, change, says):
    objects = copy.deepcopy(night_objects)
    change(objects)
    path = tmp_path / "club.json"
    write_backup(path, objects)

    with pytest.raises(CommandError, match=says):
        call_command("restore_club", str(path), stdout=StringIO())
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_the_night_restores_as_it_was_backed_up(tmp_path, night_objects):
    path = tmp_path / "club.json"
    write_backup(path, night_objects)
    call_command("restore_club", str(path), stdout=StringIO())
    assert Event.objects.count() == 1


def _a_deleted_game_with_a_garbage_time(objects):
    audit = next(
        obj for obj in objects if obj["model"] == "ratings.auditentry" and obj["fields"]["before"]
    )
    audit["fields"]["before"]["played_at"] = "garbage"


def _a_deleted_game_with_results_that_are_text(objects):
    audit = next(
        obj for obj in objects if obj["model"] == "ratings.auditentry" and obj["fields"]["before"]
    )
    audit["fields"]["before"]["results"] = "x"


@pytest.fixture(scope="module")
def deleted_game_objects(django_db_setup, django_db_blocker, tmp_path_factory) -> list[dict]:
    backup = tmp_path_factory.mktemp("backup") / "club.json"
    with django_db_blocker.unblock(), transaction.atomic():
        league = make_league(System.ELO, name="Chess")
        ana, bo = make_players(2)
        game = engine.game_record(
            league=league,
            played_at=T0,
            entries=[
                engine.Entry(player_id=ana.pk, score=1.0),
                engine.Entry(player_id=bo.pk, score=0.0),
            ],
        )
        engine.game_delete(game=game)
        call_command("backup_club", str(backup), stdout=StringIO())
        transaction.set_rollback(True)
    return backup_objects(backup)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "change", [_a_deleted_game_with_a_garbage_time, _a_deleted_game_with_results_that_are_text]
)
def test_restore_refuses_a_damaged_snapshot_of_a_deleted_game(
    tmp_path, deleted_game_objects, change
):
    objects = copy.deepcopy(deleted_game_objects)
    change(objects)
    path = tmp_path / "club.json"
    write_backup(path, objects)

    with pytest.raises(CommandError, match="audit entry .* is damaged"):
        call_command("restore_club", str(path), stdout=StringIO())
