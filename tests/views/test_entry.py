"""Entering games through the browser: the preview step, refusals, new players, double submits."""

import uuid

import pytest
from django.urls import reverse

from ratings.models import Game, League, Player, Result, Standing, System
from tests.worked_example import WORKED_EXAMPLE_FORM

pytestmark = pytest.mark.django_db


def url(league):
    return reverse("ratings:game_new", args=[league.slug])


def post(client, league, data, **extra):
    data = {"submission_key": str(uuid.uuid4()), **data, **extra}
    return client.post(url(league), data)


def preview_then_save(client, league, data):
    """Post like a member does: check scores, then press Save on the preview."""
    data = {"submission_key": str(uuid.uuid4()), **data}  # a fresh page, unless data has its key
    preview = client.post(url(league), {**data, "preview": "1"})
    assert preview.status_code == 200
    token = preview.context["form"]["previewed"].value()
    assert token
    return client.post(url(league), {**data, "previewed": token, "save": "1"})


def test_anonymous_visitor_is_sent_to_login(client, worked_example_league):
    response = client.get(url(worked_example_league))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_member_sees_an_empty_paper(member_client, worked_example_league):
    response = member_client.get(url(worked_example_league))
    assert response.status_code == 200
    assert b'name="left_0"' in response.content
    assert b'name="submission_key"' in response.content


def test_preview_shows_final_scores_and_changes_before_anything_is_saved(
    member_client, worked_example_league, worked_example_players
):
    response = post(member_client, worked_example_league, WORKED_EXAMPLE_FORM, preview="1")
    assert response.status_code == 200
    rows = response.context["preview"]
    assert [row["score"] for row in rows] == [-500, 40, 460]
    assert [row["after"] for row in rows] == [1173, 1152, 1125]
    assert not Game.objects.exists()


def test_the_worked_example_saved_shows_the_game_page(
    member_client, member_user, worked_example_league, worked_example_players
):
    response = preview_then_save(member_client, worked_example_league, WORKED_EXAMPLE_FORM)
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == game.get_absolute_url()
    results = list(game.results.order_by("seat"))
    assert [r.score for r in results] == [-500, 40, 460]
    assert [r.rating_after for r in results] == [1173, 1152, 1125]
    assert game.entered_by == member_user


def test_save_without_preview_of_this_data_shows_the_preview_instead(
    member_client, worked_example_league, worked_example_players
):
    response = post(
        member_client, worked_example_league, WORKED_EXAMPLE_FORM, save="1", previewed="forged"
    )
    assert response.status_code == 200
    assert response.context["preview"]
    assert not Game.objects.exists()


def test_changing_data_after_the_preview_needs_a_new_preview(
    member_client, worked_example_league, worked_example_players
):
    data = {"submission_key": str(uuid.uuid4()), **WORKED_EXAMPLE_FORM}
    preview = member_client.post(url(worked_example_league), {**data, "preview": "1"})
    token = preview.context["form"]["previewed"].value()
    changed = {**data, "left_0": "300", "previewed": token, "save": "1"}
    response = member_client.post(url(worked_example_league), changed)
    assert response.status_code == 200
    assert not Game.objects.exists()


def test_double_submit_records_one_game(
    member_client, worked_example_league, worked_example_players
):
    data = {"submission_key": str(uuid.uuid4()), **WORKED_EXAMPLE_FORM}
    preview = member_client.post(url(worked_example_league), {**data, "preview": "1"})
    token = preview.context["form"]["previewed"].value()
    first = member_client.post(
        url(worked_example_league), {**data, "previewed": token, "save": "1"}
    )
    second = member_client.post(
        url(worked_example_league), {**data, "previewed": token, "save": "1"}
    )
    assert first["Location"] == second["Location"]
    assert Game.objects.count() == 1
    assert Result.objects.count() == 3


def test_new_player_is_created_with_the_game_without_leaving_the_form(
    member_client, worked_example_league
):
    data = {**WORKED_EXAMPLE_FORM, "player_2": "Đorđe Novi"}
    preview = post(member_client, worked_example_league, data, preview="1")
    assert [row["new"] for row in preview.context["preview"]] == [True, True, True]
    assert not Player.objects.exists()
    preview_then_save(member_client, worked_example_league, data)
    assert set(Player.objects.values_list("name", flat=True)) == {"Pedja", "Marko", "Đorđe Novi"}
    assert Standing.objects.filter(league=worked_example_league, games=1).count() == 3


def test_existing_player_is_matched_whatever_the_case(
    member_client, worked_example_league, worked_example_players
):
    preview_then_save(
        member_client, worked_example_league, {**WORKED_EXAMPLE_FORM, "player_0": "  pedja "}
    )
    assert Player.objects.count() == 3


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"player_1": "Pedja"}, "player_1", "already sits in seat 1"),
        ({"player_2": ""}, "player_2", "Every seat needs a player"),
        ({"left_0": "12.5"}, "left_0", "whole number"),
        ({"left_0": "abc"}, "left_0", "whole number"),
        ({"right_1": "-10"}, "right_1", "never negative"),
        ({"bula": "0"}, "bula", "above zero"),
        ({"bula": "-5"}, "bula", "above zero"),
        ({"middle_0": "99999999999"}, "middle_0", "less than or equal"),
        ({"played_at": "yesterday"}, "played_at", "valid date"),
        ({"played_at": "2999-01-01T10:00"}, "played_at", "future"),
        ({"player_0": "<>!"}, "player_0", "letter or digit"),
    ],
)
def test_paper_form_refuses_bad_input_on_the_field(
    member_client, worked_example_league, worked_example_players, change, field, message
):
    response = post(
        member_client, worked_example_league, {**WORKED_EXAMPLE_FORM, **change}, save="1"
    )
    assert response.status_code == 200
    errors = " ".join(response.context["form"].errors.get(field, []))
    assert message in errors
    assert not Game.objects.exists()


def test_middle_column_error_explains_why_and_ended_early_allows_it(
    member_client, worked_example_league, worked_example_players
):
    response = post(
        member_client, worked_example_league, {**WORKED_EXAMPLE_FORM, "middle_2": "17"}, preview="1"
    )
    form = response.context["form"]
    assert "the game ends when the bulas add up to zero" in " ".join(form.non_field_errors())
    # Said once, for the column: not under each Middle box, which are only marked invalid.
    assert not any(f"middle_{seat}" in form.errors for seat in range(3))
    assert response.content.decode().count("The middle column sums to 1") == 2  # summary, paper
    preview_then_save(
        member_client,
        worked_example_league,
        {**WORKED_EXAMPLE_FORM, "middle_2": "17", "ended_early": "on"},
    )
    assert Game.objects.get().ended_early


def test_duel_form_records_a_draw(member_client):
    league = League.objects.create(name="Chess", slug="chess", system=System.ELO, start_rating=1600)
    preview_then_save(
        member_client,
        league,
        {"played_at": "2026-03-12T21:30", "player_0": "Ana", "player_1": "Bo", "outcome": "draw"},
    )
    assert sorted(Result.objects.values_list("score", flat=True)) == [0.5, 0.5]


def test_scored_form_ignores_empty_rows_and_needs_two_players(member_client):
    league = League.objects.create(
        name="Hearts", slug="hearts", system=System.RAYTER_LOWSCORE, game_name="Hearts"
    )
    data = {"played_at": "2026-03-12T21:30", "player_0": "Ana", "score_0": "26"}
    response = post(member_client, league, data, preview="1")
    assert "at least two players" in " ".join(response.context["form"].non_field_errors())
    preview_then_save(member_client, league, {**data, "player_3": "Bo", "score_3": "0"})
    game = Game.objects.get()
    assert list(game.results.order_by("seat").values_list("player__name", "score")) == [
        ("Ana", 26.0),
        ("Bo", 0.0),
    ]


def test_scored_form_needs_a_score_for_every_named_player(member_client):
    league = League.objects.create(name="Hearts", slug="hearts", system=System.RAYTER_LOWSCORE)
    data = {"played_at": "2026-03-12T21:30", "player_0": "Ana", "score_0": "26", "player_1": "Bo"}
    response = post(member_client, league, data, preview="1")
    assert "needs a score" in " ".join(response.context["form"].errors["score_1"])


def test_member_can_add_a_player_and_return_to_the_form(member_client, worked_example_league):
    back = url(worked_example_league)
    response = member_client.post(
        reverse("ratings:player_new"), {"name": "Mila", "birth_date": "2010-04-01", "next": back}
    )
    assert response["Location"] == back
    assert Player.objects.get().name == "Mila"


def test_player_form_refuses_a_name_the_club_has(member_client, worked_example_players):
    response = member_client.post(reverse("ratings:player_new"), {"name": "PEDJA"})
    assert "already has a player" in " ".join(response.context["form"].errors["name"])


def test_player_form_ignores_an_offsite_next(member_client):
    response = member_client.post(
        reverse("ratings:player_new"), {"name": "Mila", "next": "https://evil.example/"}
    )
    assert response["Location"] == Player.objects.get().get_absolute_url()


# The same page saved twice ----------------------------------------------------------------------
# Back after saving, then the next game typed into the same page: the same submission_key with
# other scores answered "Game saved and rated." and linked the first game; the second was lost.


def test_the_same_page_sent_again_with_another_game_is_not_dropped(member_client):
    league = League.objects.create(name="Chess", slug="chess", system=System.ELO)
    first = {
        "submission_key": str(uuid.uuid4()),
        "played_at": "2026-03-12T21:30",
        "player_0": "Ana",
        "player_1": "Bo",
        "outcome": "draw",
    }
    preview_then_save(member_client, league, first)
    again = {**first, "played_at": "2026-03-12T22:30", "outcome": "1"}
    preview = member_client.post(url(league), {**again, "preview": "1"})
    token = preview.context["form"]["previewed"].value()

    refused = member_client.post(url(league), {**again, "previewed": token, "save": "1"})

    assert refused.status_code == 200
    assert "saved already, as game #" in refused.content.decode()
    assert Game.objects.count() == 1
    form = refused.context["form"]
    assert str(form["submission_key"].value()) != first["submission_key"]
    resent = {**again, "submission_key": form["submission_key"].value()}
    saved = member_client.post(
        url(league), {**resent, "previewed": form["previewed"].value(), "save": "1"}
    )
    assert saved.status_code == 302
    assert Game.objects.count() == 2


def test_the_same_page_sent_again_with_the_same_game_is_the_first_game(member_client):
    league = League.objects.create(name="Chess", slug="chess", system=System.ELO)
    data = {
        "submission_key": str(uuid.uuid4()),
        "played_at": "2026-03-12T21:30",
        "player_0": "Ana",
        "player_1": "Bo",
        "outcome": "draw",
    }
    first = preview_then_save(member_client, league, data)
    second = preview_then_save(member_client, league, data)

    assert first.status_code == second.status_code == 302
    assert first.url == second.url
    assert Game.objects.count() == 1
