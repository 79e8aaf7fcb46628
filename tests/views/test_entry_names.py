"""A typo at the table does not fork a player: a new name close to a player's is refused until
the member chooses the player or confirms a new member; a genuinely new name goes through."""

from __future__ import annotations

import uuid

import pytest

from ratings.models import Game, Player, System
from tests.builders import entry_post
from tests.worked_example import WORKED_EXAMPLE_PAPERS


@pytest.fixture
def league(make_league, make_player):
    for name in ("Pedja", "Marko", "Johnny"):
        make_player(name)
    return make_league(System.PREFKO, name="Preferans")


def named_paper(*names: str) -> dict:
    data = {
        "played_at": "2026-03-12T21:30",
        "bula": "30",
        "submission_key": str(uuid.uuid4()),
        "preview": "1",
    }
    for seat, (name, (left, middle, right)) in enumerate(
        zip(names, WORKED_EXAMPLE_PAPERS, strict=True)
    ):
        data |= {
            f"player_{seat}": name,
            f"left_{seat}": left,
            f"middle_{seat}": middle,
            f"right_{seat}": right,
        }
    return data


def save(client, league, data):
    """Press Save on the preview the data gives."""
    preview = entry_post(client, league, data)
    token = preview.context["form"]["previewed"].value()
    assert token, preview.context["form"].errors
    return entry_post(client, league, {**data, "previewed": token, "save": "1"})


def test_a_close_new_name_is_refused_with_a_suggestion(member_client, league):
    response = entry_post(member_client, league, named_paper("Pedia", "Marko", "Johnny"))
    assert response.status_code == 200
    errors = response.context["form"].errors["player_0"]
    assert "Did you mean Pedja?" in errors[0]
    assert response.context["preview"] is None
    page = response.content.decode()
    assert 'name="use_player_0" value="Pedja"' in page
    assert 'name="new_player_0"' in page


def test_saving_a_close_new_name_without_choosing_is_refused(member_client, league):
    data = named_paper("Pedia", "Marko", "Johnny")
    response = entry_post(member_client, league, {**data, "save": "1", "previewed": "x"})
    assert "player_0" in response.context["form"].errors
    assert not Game.objects.exists()
    assert not Player.objects.filter(name="Pedia").exists()


def test_choosing_the_suggestion_puts_the_player_in_the_seat(member_client, league):
    data = named_paper("Pedia", "Marko", "Johnny")
    response = entry_post(member_client, league, {**data, "use_player_0": "Pedja", "save": "1"})
    form = response.context["form"]
    assert not form.errors
    assert form["player_0"].value() == "Pedja"
    assert response.context["preview"] is not None
    assert not Game.objects.exists()  # choosing is not saving

    saved = save(member_client, league, {**data, "player_0": "Pedja"})
    game = Game.objects.get()
    assert saved["Location"] == game.get_absolute_url()
    assert game.results.get(seat=0).player.name == "Pedja"
    assert not Player.objects.filter(name="Pedia").exists()


def test_a_confirmed_new_member_is_created(member_client, league):
    data = {**named_paper("Pedia", "Marko", "Johnny"), "new_player_0": "1"}
    preview = entry_post(member_client, league, data)
    assert not preview.context["form"].errors
    assert preview.context["preview"][0]["new"]
    save(member_client, league, data)
    assert Game.objects.get().results.get(seat=0).player.name == "Pedia"


def test_a_genuinely_new_name_goes_through_in_one_step(member_client, league):
    data = named_paper("Zorana", "Marko", "Johnny")
    preview = entry_post(member_client, league, data)
    assert not preview.context["form"].errors
    assert preview.context["preview"][0]["new"]
    save(member_client, league, data)
    assert Player.objects.filter(name="Zorana").exists()


@pytest.mark.parametrize("typed", ["Johny", "Pedja.", "Peđa", "PEDIA"])
def test_every_typo_of_the_issue_is_caught(member_client, league, typed):
    response = entry_post(member_client, league, named_paper(typed, "Marko", "Johnny"))
    assert "player_0" in response.context["form"].errors


def test_head_to_head_and_scored_forms_catch_typos_too(member_client, league, make_league):
    for system, data in (
        (System.ELO, {"outcome": "1"}),
        (System.RAYTER_HIGHSCORE, {"score_0": "10", "score_1": "5"}),
    ):
        other = make_league(system)
        response = entry_post(
            member_client,
            other,
            {
                "played_at": "2026-03-12T21:30",
                "submission_key": str(uuid.uuid4()),
                "player_0": "Pedia",
                "player_1": "Marko",
                "preview": "1",
                **data,
            },
        )
        assert "Did you mean Pedja?" in response.context["form"].errors["player_0"][0]
