"""Events in backup_club and restore_club: a night and a tournament come back exactly (players
present, rounds with their byes, tables with their games or marked not played, seats, the
organiser, the audit trail), and the tournament goes on after the restore."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from ratings.events import selectors, services
from ratings.models import (
    AuditEntry,
    Event,
    EventPlayer,
    EventRound,
    EventTable,
    Scoring,
    System,
    TableSeat,
)
from tests.builders import make_event, make_league, make_players, play_round, play_table

EVENT_MODELS = (Event, EventPlayer, EventRound, EventTable, TableSeat, AuditEntry)


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
