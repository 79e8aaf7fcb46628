"""Every refusal of the API in the documented shape, ``{"errors": [{"field", "message",
"suggestions"}]}``, with a status its OpenAPI file lists (ratings/api/errors.py)."""

import pytest
from django.test import Client

from ratings.models import Game
from tests.builders import api_game_post as post
from tests.builders import api_paper as paper

pytestmark = pytest.mark.django_db


def errors_of(response, status: int) -> list[dict]:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json; charset=utf-8"
    body = response.json()
    assert set(body) == {"errors"}
    for error in body["errors"]:
        assert set(error) == {"field", "message", "suggestions"}
        assert error["message"]
    return body["errors"]


@pytest.mark.parametrize("body", ["not json", "{'key': 1}", '{"bula": NaN}', '{"bula": Infinity}'])
def test_a_body_that_is_not_json_is_400(api, worked_example_league, body):
    response = api.post(
        f"/api/v1/leagues/{worked_example_league.slug}/games", body, "application/json"
    )
    [error] = errors_of(response, 400)
    assert error == {"field": None, "message": "The body is not JSON.", "suggestions": None}


def test_a_missing_field_or_a_malformed_value_is_400_naming_each_field(
    api, worked_example_league, worked_example_players
):
    body = paper()
    del body["played_at"]
    body["seats"][1]["middle"] = "four"
    body["key"] = "not a key"
    errors = errors_of(post(api, worked_example_league, body), 400)
    assert {error["field"]: error["message"] for error in errors} == {
        "key": "Enter a UUID such as 0b6f1c8e-3d4a-4f7e-9a55-2f1c7a1e9d10.",
        "played_at": "This field is required.",
        "seats[1].middle": "Enter a whole number.",
    }
    assert not Game.objects.exists()


def test_a_malformed_value_is_refused_in_the_requests_language(
    api, worked_example_league, worked_example_players
):
    body = {**paper(), "bula": "trideset"}
    response = api.post(
        f"/api/v1/leagues/{worked_example_league.slug}/games",
        body,
        content_type="application/json",
        headers={"Accept-Language": "sr-latn"},
    )
    [error] = errors_of(response, 400)
    assert error["field"] == "bula"
    assert error["message"] == "Unesite ceo broj."
    response = api.post(
        f"/api/v1/leagues/{worked_example_league.slug}/games",
        {**body, "bula": 30, "played_at": "2026-03-12T21:30:00+23:59"},
        content_type="application/json",
        headers={"Accept-Language": "ru"},
    )
    [error] = errors_of(response, 400)
    assert error["message"] == "Смещение от UTC должно быть между -15:59 и +15:59."


def test_a_body_over_a_mib_is_413_not_an_html_page(api, worked_example_league, settings):
    body = '{"note": "' + "x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE + '"}'
    response = api.post(
        f"/api/v1/leagues/{worked_example_league.slug}/games", body, "application/json"
    )
    [error] = errors_of(response, 413)
    assert error["field"] is None


def test_no_token_a_member_who_may_not_enter_an_unknown_league_and_the_throttle(
    api, monkeypatch, settings, worked_example_league, worked_example_players
):
    assert errors_of(post(Client(), worked_example_league, paper()), 401)
    assert errors_of(Client(headers={"Authorization": "Bearer nope"}).get("/api/v1/leagues"), 401)
    assert errors_of(api.get("/api/v1/leagues/nowhere/standings"), 404)
    assert errors_of(api.get("/api/v1/games/123456"), 404)
    settings.API_WRITE_RATE = "1/min"
    monkeypatch.setattr("ratings.api.auth.can_enter_games", lambda user: False)
    assert errors_of(post(api, worked_example_league, paper()), 403)
    monkeypatch.undo()
    throttled = post(api, worked_example_league, paper())
    assert errors_of(throttled, 429)
    assert int(throttled["Retry-After"]) >= 1


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/leagues/a%00b/standings",
        "/api/v1/leagues/a%00b/events",
        "/api/v1/players/a%00b/history",
        "/api/v1/players/a%00b/vs/pedja",
        "/api/v1/games/a%00b",
        "/api/v1/events/1%00",
        # An id beyond the database's bigint names nothing either.
        "/api/v1/games/9223372036854775808",
        "/api/v1/events/0",
    ],
)
def test_an_address_with_a_nul_byte_names_nothing_404(api, worked_example_players, path):
    """PostgreSQL refuses a NUL in a query: the path's shape refuses it first, as the site's
    addresses do (ratings/urls.py)."""
    assert errors_of(api.get(path), 404)


def test_a_post_to_an_address_with_a_nul_byte_is_404(
    api, worked_example_league, worked_example_players
):
    response = api.post("/api/v1/leagues/a%00b/games", paper(), content_type="application/json")
    assert errors_of(response, 404)
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("/games?league=a%00b", "league"),
        ("/games?player=a%00b", "player"),
        ("/players?q=a%00b", "q"),
    ],
)
def test_a_nul_byte_in_a_query_is_400_naming_it(api, worked_example_players, query, field):
    [error] = errors_of(api.get(f"/api/v1{query}"), 400)
    assert error["field"] == field


def test_each_refusal_of_a_post_is_in_the_shape_and_with_a_status_the_openapi_file_lists(
    api, worked_example_league, worked_example_players, settings
):
    """What a developer following docs/api.md gets wrong first, each answered in the one shape
    with a status the operation lists: a client generated from the file expects every one."""
    operation = api.get("/api/v1/openapi.json").json()["paths"]["/api/v1/leagues/{slug}/games"]
    listed = {int(status) for status in operation["post"]["responses"]}
    url = f"/api/v1/leagues/{worked_example_league.slug}/games"
    no_played_at = {key: value for key, value in paper().items() if key != "played_at"}
    settings.MAX_REQUEST_BYTES = 1024 * 1024
    refusals = {
        "malformed JSON": (api.post(url, '{"key": ', "application/json"), 400, None),
        "a missing field": (post(api, worked_example_league, no_played_at), 400, "played_at"),
        "a bad UUID": (post(api, worked_example_league, {**paper(), "key": "1-2-3"}), 400, "key"),
        "an unknown league": (
            api.post("/api/v1/leagues/nowhere/games", paper(), "application/json"),
            404,
            None,
        ),
        # Over MAX_REQUEST_BYTES: refused by the site's middleware before anything reads it.
        "a huge body": (
            api.generic("POST", url, b"{}", "application/json", CONTENT_LENGTH=str(17 * 2**20)),
            413,
            None,
        ),
    }
    for what, (response, status, field) in refusals.items():
        assert status in listed, what
        [error] = errors_of(response, status)
        assert error["field"] == field, what
    assert not Game.objects.exists()
