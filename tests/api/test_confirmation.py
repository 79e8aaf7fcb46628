"""Confirmation through the API: a member's post in a league with confirmation answers 201
pending with no ratings; another seated member's token confirms it (200, rated) or disputes it;
the member who entered it and members not at the table are refused 403, a game not pending 409;
``GET /games?status=pending`` lists what waits for the token's member."""

import pytest
from django.test import Client

from ratings.entry.models import HeldGame, HeldStatus
from ratings.models import ApiToken, Game, Player, Standing
from ratings.models.leagues import Confirmation
from tests.builders import api_game_post
from tests.builders import api_paper as paper

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(worked_example_league, worked_example_players, member_user, django_user_model):
    """Pedja's member posts; Marko's member may confirm; a stranger sat nowhere."""
    worked_example_league.confirmation = Confirmation.ANOTHER_SEAT
    worked_example_league.save()
    Player.objects.filter(name="Pedja").update(user=member_user)
    marko = django_user_model.objects.create_user("marko", password="x")
    Player.objects.filter(name="Marko").update(user=marko)
    stranger = django_user_model.objects.create_user("stranger", password="x")
    return worked_example_league, _client(marko), _client(stranger)


def _client(user) -> Client:
    _row, token = ApiToken.objects.create_for(user, "Phone")
    return Client(headers={"Authorization": f"Bearer {token}"})


def _confirm(client, key):
    return client.post(f"/api/v1/games/{key}/confirm")


def test_a_pending_post_is_confirmed_by_another_seat(api, table):
    league, marko, stranger = table
    posted = api_game_post(api, league, paper())
    assert posted.status_code == 201
    body = posted.json()
    assert (body["id"], body["status"]) == (None, "pending")
    assert {seat["rating_after"] for seat in body["seats"]} == {None}
    assert not Game.objects.exists() and not Standing.objects.filter(games__gt=0).exists()
    key = body["key"]
    # The same post again is the same waiting game.
    again = api_game_post(api, league, {**paper(), "key": key})
    assert again.status_code == 200 and again.json()["key"] == key
    assert HeldGame.objects.count() == 1

    waiting = marko.get("/api/v1/games?status=pending").json()["games"]
    assert [game["key"] for game in waiting] == [key]
    assert api.get("/api/v1/games?status=pending").json()["games"] == []
    assert Client().get("/api/v1/games?status=pending").status_code == 401

    assert _confirm(api, key).status_code == 403  # the member who entered it
    assert _confirm(stranger, key).status_code == 403
    confirmed = _confirm(marko, key)
    assert confirmed.status_code == 200
    game = Game.objects.get()
    assert confirmed.json()["id"] == game.pk and confirmed.json()["status"] == "confirmed"
    assert [seat["rating_after"] for seat in confirmed.json()["seats"]] == [1173.0, 1152.0, 1125.0]
    assert _confirm(marko, key).status_code == 409
    # Posting it again now answers with the game it became.
    assert api_game_post(api, league, {**paper(), "key": key}).json()["id"] == game.pk


def test_a_dispute_leaves_it_unrated_for_the_staff(api, table):
    league, marko, stranger = table
    key = api_game_post(api, league, paper()).json()["key"]
    assert (
        stranger.post(
            f"/api/v1/games/{key}/dispute", {"note": "no"}, content_type="application/json"
        ).status_code
        == 403
    )
    disputed = marko.post(
        f"/api/v1/games/{key}/dispute",
        {"note": "Johnny's right was 20"},
        content_type="application/json",
    )
    assert disputed.status_code == 200 and disputed.json()["status"] == "disputed"
    assert HeldGame.objects.get().status == HeldStatus.DISPUTED
    assert _confirm(marko, key).status_code == 409
    assert not Game.objects.exists()


def test_an_unknown_key_is_404(api, table):
    assert _confirm(api, "00000000-0000-0000-0000-000000000001").status_code == 404
