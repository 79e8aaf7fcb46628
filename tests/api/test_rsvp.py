"""POST /api/v1/events/<id>/rsvp: a member's answer to a night planned ahead, with a token."""

from __future__ import annotations

import pytest
from django.test import Client

from ratings.events import planning
from ratings.events.answers import answers_of
from ratings.models import System
from tests.builders import make_league, make_night, make_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    return make_night(make_league(System.PREFKO, name="Friday"))


@pytest.fixture
def ana(member_user):
    return make_player("Ana", user=member_user)


def rsvp(client: Client, night, body) -> tuple[int, dict]:
    response = client.post(f"/api/v1/events/{night.pk}/rsvp", body, content_type="application/json")
    return response.status_code, response.json()


def test_a_member_answers_and_answers_again(api, night, ana, django_assert_max_num_queries):
    """The token (and its last use), the night, the member's player, the league's version, the
    night locked, the answer read and written (update_or_create, in savepoints), the answers
    read back: fifteen statements with the savepoints, whatever the number of answers."""
    with django_assert_max_num_queries(15):
        status, body = rsvp(api, night, {"answer": "maybe"})
    assert status == 200
    assert body == {"event": night.pk, "answer": "maybe", "coming": [], "maybe": ["Ana"], "no": []}
    status, body = rsvp(api, night, {"answer": "coming"})
    assert (status, body["coming"], body["maybe"]) == (200, ["Ana"], [])
    assert answers_of([night])[night.pk].coming == [ana]


def test_an_answer_not_of_the_three_is_refused_by_its_field(api, night, ana):
    status, body = rsvp(api, night, {"answer": "yes"})
    assert status == 400
    assert body["errors"][0]["field"] == "answer"


def test_a_started_or_cancelled_night_takes_no_answer(api, night, ana):
    planning.night_cancel(event=night)
    status, body = rsvp(api, night, {"answer": "coming"})
    assert status == 400
    assert body == {
        "errors": [{"field": None, "message": "This night is cancelled.", "suggestions": None}]
    }


def test_a_member_without_a_player_is_forbidden(api, night):
    status, body = rsvp(api, night, {"answer": "coming"})
    assert status == 403 and body["errors"][0]["message"]


def test_without_a_token_401_and_an_unknown_night_404(api, client, night, ana):
    assert rsvp(client, night, {"answer": "coming"})[0] == 401
    response = api.post("/api/v1/events/999999/rsvp", {"answer": "coming"}, "application/json")
    assert response.status_code == 404
    assert answers_of([night])[night.pk].coming == []


def test_the_event_reads_say_a_nights_status_and_place(api, night):
    planning.night_move(event=night, starts_at=night.starts_at, place="Kafana")
    body = api.get(f"/api/v1/events/{night.pk}").json()
    assert (body["status"], body["place"]) == ("planned", "Kafana")
    (summary,) = api.get(f"/api/v1/leagues/{night.league.slug}/events").json()
    assert (summary["status"], summary["place"]) == ("planned", "Kafana")
