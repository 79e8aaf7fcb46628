"""Saving after the paper changed below its preview, and a saved preview sent again."""

import uuid

import pytest

from ratings.models import Game
from tests.builders import entry_url
from tests.worked_example import WORKED_EXAMPLE_FORM

pytestmark = pytest.mark.django_db


def previewed(client, league):
    data = {"submission_key": str(uuid.uuid4()), **WORKED_EXAMPLE_FORM}
    preview = client.post(entry_url(league), {**data, "preview": "1"})
    return {**data, "previewed": preview.context["form"]["previewed"].value(), "save": "1"}


def test_save_after_an_edit_below_the_preview_says_the_paper_changed(
    member_client, worked_example_league, worked_example_players
):
    data = previewed(member_client, worked_example_league)
    response = member_client.post(entry_url(worked_example_league), {**data, "left_0": "300"})

    assert not Game.objects.exists()
    assert response.context["preview"]
    assert "The paper changed after the last check" in response.content.decode()
    # A first check says nothing of the kind.
    first = member_client.post(
        entry_url(worked_example_league), {**WORKED_EXAMPLE_FORM, "preview": 1}
    )
    assert "The paper changed" not in first.content.decode()


def test_a_saved_preview_sent_again_says_it_was_saved_already(
    member_client, worked_example_league, worked_example_players
):
    data = previewed(member_client, worked_example_league)
    saved = member_client.post(entry_url(worked_example_league), data, follow=True)
    assert "Game saved and rated." in saved.content.decode()

    again = member_client.post(entry_url(worked_example_league), data, follow=True)

    game = Game.objects.get()
    assert again.redirect_chain[-1][0] == game.get_absolute_url()
    page = again.content.decode()
    assert "This game was saved already: here it is." in page
    assert "Game saved and rated." not in page


def test_a_saved_preview_sent_again_with_another_note_is_not_the_saved_game(
    member_client, worked_example_league, worked_example_players
):
    """Back after Save, the note changed, Save again: another game under the page's key, so it
    is shown again to check (a new key once saved), never taken for the saved one."""
    data = previewed(member_client, worked_example_league)
    member_client.post(entry_url(worked_example_league), data)

    again = member_client.post(entry_url(worked_example_league), {**data, "note": "late table"})

    assert again.status_code == 200
    assert again.context["preview"]
    assert "This game was saved already" not in again.content.decode()
    assert Game.objects.get().note == ""


def test_the_form_opened_back_with_a_saved_key_opens_its_game(
    member_client, worked_example_league, worked_example_players
):
    """The Back button on a saved preview, through the service worker (templates/offline/sw.js):
    the form's address with the page's key opens the game saved under it, and nothing else."""
    data = previewed(member_client, worked_example_league)
    member_client.post(entry_url(worked_example_league), data)
    game = Game.objects.get()

    back = member_client.get(entry_url(worked_example_league), {"back": data["submission_key"]})
    assert back.status_code == 302 and back["Location"] == game.get_absolute_url()
    page = member_client.get(back["Location"]).content.decode()
    assert "This game was saved already: here it is." in page
    for key in (str(uuid.uuid4()), "not-a-key", ""):  # no game under it: the empty form
        form = member_client.get(entry_url(worked_example_league), {"back": key})
        assert form.status_code == 200 and form.context["form"]
    assert Game.objects.count() == 1
