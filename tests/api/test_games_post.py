"""POST /api/v1/leagues/<slug>/games: the entry form's rules and the engine, through JSON."""

import uuid

import pytest
from django.test import Client

from ratings.models import AuditEntry, Game, Player, Standing, System
from tests.builders import api_game_post
from tests.builders import api_paper as paper
from tests.worked_example import WORKED_EXAMPLE_PAPERS, WORKED_EXAMPLE_PLAYERS

pytestmark = pytest.mark.django_db


def test_it_records_the_worked_example(api, worked_example_league, worked_example_players):
    response = api_game_post(api, worked_example_league, paper())
    assert response.status_code == 201
    body = response.json()
    game = Game.objects.get()
    assert body["id"] == game.pk
    assert body["url"] == f"http://testserver/games/{game.pk}/"
    assert body["seats"] == [
        {"seat": 1, "player": "Pedja", "final": -500.0, "rating_before": 1200.0,
         "rating_after": 1173.0},
        {"seat": 2, "player": "Marko", "final": 40.0, "rating_before": 1150.0,
         "rating_after": 1152.0},
        {"seat": 3, "player": "Johnny", "final": 460.0, "rating_before": 1100.0,
         "rating_after": 1125.0},
    ]  # fmt: skip
    assert game.entered_by.username == "member"
    assert AuditEntry.objects.filter(game_id=game.pk).count() == 1


def test_the_same_key_again_is_the_same_game_with_200(
    api, worked_example_league, worked_example_players
):
    body = paper()
    first = api_game_post(api, worked_example_league, body)
    again = api_game_post(api, worked_example_league, body)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json()
    assert Game.objects.count() == 1
    assert Standing.objects.get(player__name="Pedja").games == 1


def test_the_same_key_with_another_game_is_refused_409_naming_the_game(
    api, worked_example_league, worked_example_players
):
    body = paper()
    first = api_game_post(api, worked_example_league, body)
    game = Game.objects.get()
    other = {**body, "played_at": "2026-03-12T23:10"}
    again = api_game_post(api, worked_example_league, other)
    assert (first.status_code, again.status_code) == (201, 409)
    [error] = again.json()["errors"]
    assert error["field"] == "key"
    assert f"#{game.pk}" in error["message"]
    assert Game.objects.count() == 1
    assert Standing.objects.get(player__name="Pedja").games == 1


def test_the_same_key_with_only_another_note_is_refused_409_and_keeps_the_first(
    api, worked_example_league, worked_example_players
):
    """The note is part of the game: a changed one is another game, never dropped in silence."""
    body = paper(note="Friday final")
    assert api_game_post(api, worked_example_league, body).status_code == 201
    assert api_game_post(api, worked_example_league, body).status_code == 200
    again = api_game_post(api, worked_example_league, {**body, "note": "Saturday final"})
    assert again.status_code == 409
    [error] = again.json()["errors"]
    assert error["field"] == "key"
    assert Game.objects.get().note == "Friday final"


def test_a_key_the_site_form_used_answers_with_that_game(
    api, member_client, worked_example_league, worked_example_players
):
    body = paper()
    data = {"played_at": "2026-03-12T21:30", "bula": "30", "submission_key": body["key"]}
    for seat, (name, (left, middle, right)) in enumerate(
        zip(WORKED_EXAMPLE_PLAYERS, WORKED_EXAMPLE_PAPERS, strict=True)
    ):
        data |= {f"player_{seat}": name, f"left_{seat}": left, f"middle_{seat}": middle}
        data |= {f"right_{seat}": right}
    url = f"/leagues/{worked_example_league.slug}/games/new/"
    preview = member_client.post(url, data | {"preview": "1"})
    data["previewed"] = preview.context["form"]["previewed"].value()
    assert member_client.post(url, data | {"save": "1"}).status_code == 302
    response = api_game_post(api, worked_example_league, body)
    assert response.status_code == 200
    assert Game.objects.count() == 1


def test_a_wrong_paper_is_400_with_the_fields_of_the_form(
    api, worked_example_league, worked_example_players
):
    body = paper(papers=[(320, -20, 160), (120, "four", 60), (-20, 16, 60)])
    response = api_game_post(api, worked_example_league, body)
    assert response.status_code == 400  # not a number at all: the schema refuses it
    assert response.json()["errors"] == [
        {"field": "seats[1].middle", "message": "Enter a whole number.", "suggestions": None}
    ]
    body = paper(papers=[(320, -20, 160), (120, 4, 60), (-20, 16, 60)])
    response = api_game_post(api, worked_example_league, body)
    assert response.status_code == 400
    assert response.json() == {
        "errors": [{"field": "seats[2].left", "message": "Side columns are never negative.",
                    "suggestions": None}]
    }  # fmt: skip
    assert not Game.objects.exists()


@pytest.mark.parametrize("offset", ["+23:59", "-16:00", "+16:00"])
def test_a_time_whose_offset_postgresql_cannot_keep_is_refused(
    api, worked_example_league, worked_example_players, offset
):
    """PostgreSQL keeps offsets up to 15:59 from UTC: beyond, recording the game was a 500."""
    response = api_game_post(
        api, worked_example_league, paper(played_at=f"2026-03-12T21:30:00{offset}")
    )
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["field"] == "played_at"
    assert "-15:59 and +15:59" in error["message"]
    assert not Game.objects.exists()
    # The furthest a time zone goes, and a little more, are kept.
    assert (
        api_game_post(
            api, worked_example_league, paper(played_at="2026-03-12T21:30:00+15:59")
        ).status_code
        == 201
    )


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"bula": 2**31}, "bula"),
        ({"bula": 0}, "bula"),
        ({"played_at": 1773350000}, "played_at"),
        (
            {"seats": [{"player": "Pedja", "left": 10**12, "middle": 0, "right": 0}]},
            "seats[0].left",
        ),
        ({"seats": [{"player": "Ana", "score": 1e300}]}, "seats[0].score"),
    ],
)
def test_a_number_beyond_its_columns_range_is_refused_naming_it(
    api, worked_example_league, worked_example_players, change, field
):
    response = api_game_post(api, worked_example_league, paper(**change))
    assert response.status_code == 400
    assert [error["field"] for error in response.json()["errors"]] == [field]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"bula": "30"}, "bula"),
        ({"bula": 30.5}, "bula"),
        ({"ended_early": 1}, "ended_early"),
        ({"ended_early": "yes"}, "ended_early"),
        ({"refas": "2"}, "refas"),
        ({"seats": [{"player": "Ana", "score": "1"}]}, "seats[0].score"),
    ],
)
def test_numbers_and_flags_are_json_numbers_and_booleans_as_the_file_types_them(
    api, worked_example_league, worked_example_players, change, field
):
    """pydantic took "30" for 30, 30.5 for 30 and 1 or "yes" for true: a value the OpenAPI file
    calls invalid was recorded."""
    response = api_game_post(api, worked_example_league, paper(**change))
    assert response.status_code == 400
    assert [error["field"] for error in response.json()["errors"]] == [field]
    assert not Game.objects.exists()


def test_a_middle_column_not_summing_to_zero_is_refused(
    api, worked_example_league, worked_example_players
):
    body = paper(papers=[(320, -20, 160), (120, 5, 60), (20, 16, 60)])
    errors = api_game_post(api, worked_example_league, body).json()["errors"]
    assert [error["field"] for error in errors] == ["seats"]
    assert "sums to 1" in errors[0]["message"]
    # The API's way, not the site's box ("Mark the game as ended early").
    assert 'Send "ended_early": true' in errors[0]["message"]
    assert "Mark the game" not in errors[0]["message"]


def test_a_name_close_to_a_members_is_refused_with_suggestions(
    api, worked_example_league, worked_example_players
):
    body = paper(players=("Pedia", "Marko", "Johnny"))
    response = api_game_post(api, worked_example_league, body)
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["field"] == "seats[0].player"
    assert error["suggestions"] == ["Pedja"]
    assert "Did you mean Pedja?" in error["message"]
    # The API's way to confirm a new member, not the site's box ("tick 'Pedia is a new member'").
    assert 'list Pedia in "new_players"' in error["message"]
    assert "tick" not in error["message"]
    assert not Player.objects.filter(name="Pedia").exists()


def test_a_close_name_listed_in_new_players_is_a_new_member(
    api, worked_example_league, worked_example_players
):
    body = paper(players=("Pedia", "Marko", "Johnny"), new_players=["Pedia"])
    response = api_game_post(api, worked_example_league, body)
    assert response.status_code == 201
    assert response.json()["seats"][0]["player"] == "Pedia"
    assert Player.objects.filter(name="Pedia").exists()


def test_a_value_the_league_does_not_take_is_refused(
    api, worked_example_league, worked_example_players
):
    body = paper()
    body["seats"][1]["score"] = 3
    errors = api_game_post(api, worked_example_league, body).json()["errors"]
    assert [error["field"] for error in errors] == ["seats[1].score"]


def test_a_malformed_deal_is_refused_naming_its_hand(
    api, worked_example_league, worked_example_players
):
    # Games posted as deals: tests/api/test_games_post_deals.py.
    seats = [{"player": name} for name in WORKED_EXAMPLE_PLAYERS]
    body = paper() | {"seats": seats, "deals": [{"value": 4}]}
    errors = api_game_post(api, worked_example_league, body).json()["errors"]
    assert [error["field"] for error in errors] == ["deals"]
    assert "hand 1" in errors[0]["message"]


def test_a_scored_game(api, make_league):
    league = make_league(System.RAYTER_HIGHSCORE, name="Hearts")
    body = {
        "key": str(uuid.uuid4()),
        "played_at": "2026-03-12T21:30",
        "seats": [{"player": "Ann", "score": 30}, {"player": "Bo", "score": 10}],
    }
    response = api_game_post(api, league, body)
    assert response.status_code == 201
    assert [seat["final"] for seat in response.json()["seats"]] == [30.0, 10.0]
    body["key"] = str(uuid.uuid4())
    body["seats"][1] = {"player": "Bo"}
    errors = api_game_post(api, league, body).json()["errors"]
    assert errors == [
        {"field": "seats[1].score", "message": "Every player needs a score.", "suggestions": None}
    ]


def test_a_head_to_head_game(api, make_league):
    league = make_league(System.ELO, name="Chess")
    body = {
        "key": str(uuid.uuid4()),
        "played_at": "2026-03-12T21:30",
        "seats": [{"player": "Ann", "score": 1}, {"player": "Bo", "score": 0}],
    }
    response = api_game_post(api, league, body)
    assert response.status_code == 201
    assert [seat["rating_after"] for seat in response.json()["seats"]] == [1016.0, 984.0]
    body["key"] = str(uuid.uuid4())
    body["seats"][1]["score"] = 1
    assert [e["field"] for e in api_game_post(api, league, body).json()["errors"]] == ["seats"]


def test_without_a_token_it_is_401(worked_example_league, worked_example_players, client):
    assert api_game_post(client, worked_example_league, paper()).status_code == 401
    bad = Client(headers={"Authorization": "Bearer club_not-a-token"})
    assert api_game_post(bad, worked_example_league, paper()).status_code == 401
    assert not Game.objects.exists()


def test_a_revoked_token_is_401(api, member_user, worked_example_league, worked_example_players):
    member_user.api_tokens.get().revoke()
    assert api_game_post(api, worked_example_league, paper()).status_code == 401


def test_an_inactive_members_token_is_401(
    api, member_user, worked_example_league, worked_example_players
):
    member_user.is_active = False
    member_user.save()
    assert api_game_post(api, worked_example_league, paper()).status_code == 401


def test_an_unknown_league_is_404(api):
    assert api_game_post(api, type("L", (), {"slug": "nowhere"}), paper()).status_code == 404


def test_writes_are_throttled_per_token_with_retry_after(
    api, settings, worked_example_league, worked_example_players
):
    settings.API_WRITE_RATE = "2/min"
    statuses = [api_game_post(api, worked_example_league, paper()).status_code for _ in range(2)]
    assert statuses == [201, 201]
    throttled = api_game_post(api, worked_example_league, paper())
    assert throttled.status_code == 429
    assert int(throttled["Retry-After"]) >= 1


def test_a_repeated_key_costs_a_fixed_number_of_queries(
    api, worked_example_league, worked_example_players, django_assert_num_queries
):
    body = paper()
    api_game_post(api, worked_example_league, body)
    # The token (used a moment ago: not marked again); the league; the form's players and
    # their birth dates; the key's game and its results, compared with the game sent; its
    # results with their players for the answer.
    with django_assert_num_queries(7):
        assert api_game_post(api, worked_example_league, body).status_code == 200


def test_a_member_the_club_does_not_let_enter_games_is_403(
    api, monkeypatch, worked_example_league, worked_example_players
):
    # The rule is ratings.access's, asked as the entry form's view asks it.
    monkeypatch.setattr("ratings.api.auth.can_enter_games", lambda user: False)
    response = api_game_post(api, worked_example_league, paper())
    assert response.status_code == 403
    assert not Game.objects.exists()


def test_in_every_language_the_refusal_names_the_apis_field_not_the_sites_box(
    api, worked_example_league, worked_example_players
):
    body = paper(players=("Pedia", "Marko", "Johnny"))
    for language, box in (("sr-latn", "označite"), ("ru", "отметьте")):
        response = api.post(
            f"/api/v1/leagues/{worked_example_league.slug}/games",
            body,
            content_type="application/json",
            headers={"Accept-Language": language},
        )
        [error] = response.json()["errors"]
        assert '"new_players"' in error["message"] and box not in error["message"].lower()
