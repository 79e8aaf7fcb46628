"""A club night's bula, agreed once: every table's paper form starts with it."""

import pytest
from django.urls import reverse

from ratings.events import services
from ratings.events.models import Event
from ratings.models import System
from tests.builders import make_event, make_league

pytestmark = pytest.mark.django_db


def event_form(names, **fields) -> dict:
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


def test_the_organiser_sets_the_night_s_bula_and_each_table_starts_with_it(
    organiser_client,
    league,
    nine,
):
    names = [player.name for player in nine]
    created = organiser_client.post(
        reverse("ratings:event_new", args=[league.slug]), event_form(names, bula="50")
    )
    assert created.status_code == 302, created.context["form"].errors
    event = Event.objects.get()
    assert event.bula == 50
    assert "Starting bula" in organiser_client.get(event.get_absolute_url()).content.decode()

    table = services.round_draw(event=event).tables.order_by("number").first()
    form = organiser_client.get(
        reverse("ratings:game_new", args=[league.slug]), {"table": table.pk}
    ).context["form"]
    assert form["bula"].value() == 50


def test_a_night_without_a_bula_leaves_the_box_empty(organiser_client, league, nine):
    event = make_event(league, nine)
    table = services.round_draw(event=event).tables.first()
    form = organiser_client.get(
        reverse("ratings:game_new", args=[league.slug]), {"table": table.pk}
    ).context["form"]
    assert form["bula"].value() is None


def test_a_league_without_a_paper_is_asked_for_no_bula(organiser_client):
    chess = make_league(System.ELO, name="Chess")
    page = organiser_client.get(reverse("ratings:event_new", args=[chess.slug]))
    assert "bula" not in page.context["form"].fields
