"""Nights planned ahead on the pages (ratings/views/nights.py): planned by the organiser,
answered in one tap on the home page and the night's page, started from the answers."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from ratings.events.models import Event, EventPlayer, EventStatus
from ratings.models import System
from tests.builders import PASSWORD, make_league, make_night, make_players, next_friday

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    return make_league(System.PREFKO, name="Friday")


@pytest.fixture
def players():
    return make_players(["Ana", "Bojan", "Dragan", "Jelena"])


def member_of(player, django_user_model) -> Client:
    """A logged-in client of a member whose login is linked to ``player``."""
    user = django_user_model.objects.create_user(player.slug, password=PASSWORD)
    player.user = user
    player.save()
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def organiser_client(django_user_model) -> Client:
    user = django_user_model.objects.create_user("organiser", password=PASSWORD)
    user.user_permissions.add(Permission.objects.get(codename="run_events"))
    client = Client()
    client.force_login(user)
    return client


def answer(client: Client, night, value: str, next_url: str = "/"):
    url = reverse("ratings:night_answer", args=[night.pk])
    return client.post(url, {"answer": value, "next": next_url})


def pressed(html: str) -> list[str]:
    return re.findall(r'value="(\w+)" aria-pressed="true"', html)


def test_the_organiser_plans_a_night_with_its_place(organiser_client, league):
    url = reverse("ratings:night_new", args=[league.slug])
    assert organiser_client.get(url).status_code == 200
    when = next_friday().strftime("%Y-%m-%dT%H:%M")
    response = organiser_client.post(
        url,
        {
            "name": "Friday night",
            "starts_at": when,
            "place": "Kafana",
            "rounds_total": "3",
            "table_size": "3",
            "draw_method": "everyone_meets",
            "scoring": "total",
        },
    )
    night = Event.objects.get()
    assert response.status_code == 302 and response["Location"] == night.get_absolute_url()
    assert (night.status, night.place, night.rounds_total) == (EventStatus.PLANNED, "Kafana", 3)
    page = organiser_client.get(night.get_absolute_url()).content.decode()
    assert "Planned: not started yet" in page and "Start the night" in page


def test_members_answer_in_one_tap_from_the_home_page(league, players, django_user_model):
    """The done-when of issue #42: two members answer coming and one maybe; the home page
    shows who is coming, and each member's own answer pressed."""
    night = make_night(league, place="Kafana")
    ana, bojan, dragan = (member_of(p, django_user_model) for p in players[:3])
    home = ana.get("/").content.decode()
    assert "Friday night" in home and "Kafana" in home and "Are you coming?" in home
    assert answer(ana, night, "coming")["Location"] == "/"
    answer(bojan, night, "coming")
    answer(dragan, night, "maybe")
    home = ana.get("/").content.decode()
    assert "2 coming" in home and "1 maybe" in home
    assert pressed(home) == ["coming"]
    assert pressed(dragan.get("/").content.decode()) == ["maybe"]
    visitor = Client().get("/").content.decode()
    assert "2 coming" in visitor and "Are you coming?" not in visitor


def test_the_night_is_started_from_those_coming(
    organiser_client, league, players, django_user_model
):
    organiser = django_user_model.objects.get(username="organiser")
    night = make_night(league, organiser=organiser)
    for player, value in zip(players[:3], ["coming", "coming", "maybe"], strict=True):
        answer(member_of(player, django_user_model), night, value, night.get_absolute_url())
    page = organiser_client.get(night.get_absolute_url()).content.decode()
    ticked = re.findall(r'value="(\d+)"[^>]*checked', page)
    assert sorted(int(pk) for pk in ticked) == sorted([players[0].pk, players[1].pk])
    assert f'value="{players[2].pk}"' in page  # maybe: offered, not ticked
    response = organiser_client.post(
        reverse("ratings:night_start", args=[night.pk]),
        {"players": [players[0].pk, players[1].pk]},
    )
    assert response.status_code == 302
    night.refresh_from_db()
    assert night.status == EventStatus.STARTED
    present = set(EventPlayer.objects.filter(event=night).values_list("player_id", flat=True))
    assert present == {players[0].pk, players[1].pk}
    # A late arrival, as today, then the first round.
    organiser_client.post(
        reverse("ratings:event_players_add", args=[night.pk]), {"player_0": "Jelena"}
    )
    organiser_client.post(reverse("ratings:round_draw", args=[night.pk]))
    assert night.rounds.count() == 1


def test_a_player_who_did_not_answer_cannot_be_started_with(organiser_client, league, players):
    night = make_night(league)
    organiser_client.post(reverse("ratings:night_start", args=[night.pk]))  # nobody: allowed
    other = make_night(league, name="Other")
    organiser_client.post(
        reverse("ratings:night_start", args=[other.pk]), {"players": [players[0].pk]}
    )
    other.refresh_from_db()
    assert other.status == EventStatus.PLANNED  # not among the answers: refused


def test_an_answer_goes_back_only_to_this_site(league, players, django_user_model):
    night = make_night(league)
    client = member_of(players[0], django_user_model)
    response = answer(client, night, "coming", "https://evil.example/")
    assert response["Location"] == night.get_absolute_url()


def test_a_member_without_a_player_is_told(member_client, league):
    night = make_night(league)
    response = member_client.post(
        reverse("ratings:night_answer", args=[night.pk]), {"answer": "coming"}, follow=True
    )
    assert "no player of the club" in response.content.decode()


def test_a_cancelled_night_says_so_and_takes_no_answer(
    organiser_client, league, players, django_user_model
):
    organiser = django_user_model.objects.get(username="organiser")
    night = make_night(league, organiser=organiser)
    organiser_client.post(reverse("ratings:night_cancel", args=[night.pk]))
    client = member_of(players[0], django_user_model)
    page = client.get(night.get_absolute_url()).content.decode()
    assert "Cancelled" in page and "Are you coming?" not in page
    response = answer(client, night, "coming", night.get_absolute_url())
    assert "This night is cancelled." in client.get(response["Location"]).content.decode()


def test_the_home_page_with_planned_nights_runs_a_pinned_number_of_queries(
    league, players, django_user_model, django_assert_num_queries
):
    """For a member with nights planned: the home page's own queries (tests/views/pages.py),
    the member's session, login and player, the page cache's versions, the answers of every
    night in one query (not one per night), and the games waiting for the member's
    confirmation."""
    members = [member_of(player, django_user_model) for player in players]
    for n in range(3):
        night = make_night(league, name=f"Night {n}")
        for member in members:
            answer(member, night, "coming")
    with django_assert_num_queries(9):
        page = members[0].get("/").content.decode()
    assert page.count("Are you coming?") == 3 and page.count("4 coming") == 3


def test_the_organiser_moves_a_planned_night(organiser_client, league, django_user_model):
    organiser = django_user_model.objects.get(username="organiser")
    night = make_night(league, organiser=organiser, place="Kafana")
    page = organiser_client.get(night.get_absolute_url()).content.decode()
    assert "Another time or place" in page
    when = night.starts_at.strftime("%Y-%m-%dT21:30")
    organiser_client.post(
        reverse("ratings:night_move", args=[night.pk]), {"starts_at": when, "place": "Upstairs"}
    )
    night.refresh_from_db()
    assert (night.place, night.sequence, night.starts_at.strftime("%H:%M")) == (
        "Upstairs",
        1,
        "21:30",
    )
    refused = organiser_client.post(
        reverse("ratings:night_move", args=[night.pk]), {"starts_at": "", "place": "X"}
    )
    assert refused.status_code == 302
    night.refresh_from_db()
    assert night.place == "Upstairs"
