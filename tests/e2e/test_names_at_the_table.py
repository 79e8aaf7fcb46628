"""A typo at the table, in a real browser on a phone: "Pedia" is caught with "Did you mean
Pedja?", saving without choosing is refused, one tap puts Pedja in the seat; a genuinely new name
("Zorana") goes through in one step."""

from __future__ import annotations

import re

import pytest

from ratings.models import Game, League, Player, System
from tests.worked_example import WORKED_EXAMPLE_PLAYERS

from .builders import PASSWORD, PHONE, fill_in_the_paper, log_in


@pytest.fixture
def club(django_user_model):
    league = League.objects.create(name="Preferans", slug="preferans", system=System.PREFKO)
    for name in WORKED_EXAMPLE_PLAYERS:
        Player.objects.create_named(name)
    django_user_model.objects.create_user("marko", password=PASSWORD)
    return league


def log_in_and_open_the_paper(browsing) -> None:
    log_in(browsing)
    browsing.goto("/leagues/preferans/games/new/")


def test_a_typo_is_caught_and_one_tap_fixes_it(open_browser, club):
    browsing = open_browser(PHONE)
    page = browsing.page
    log_in_and_open_the_paper(browsing)
    fill_in_the_paper(page)
    page.locator("#id_player_0").fill("Pedia")
    page.get_by_role("button", name="Check scores").click()

    suggestion = page.get_by_role("button", name="Did you mean Pedja?")
    suggestion.wait_for()
    assert page.locator("section.preview").count() == 0
    assert not browsing.scrolls_sideways()
    browsing.screenshot("suggestion-phone")

    # Asking to check again without choosing is refused again, and nothing is saved.
    page.get_by_role("button", name="Check scores").click()
    page.get_by_role("button", name="Did you mean Pedja?").wait_for()
    assert not Game.objects.exists()

    page.get_by_role("button", name="Did you mean Pedja?").click()
    preview = page.locator("section.preview")
    preview.wait_for()
    assert page.locator("#id_player_0").input_value() == "Pedja"
    preview.get_by_role("button", name="Save game").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get()
    assert game.results.get(seat=0).player.name == "Pedja"
    assert not Player.objects.filter(name="Pedia").exists()
    assert browsing.errors == []


def test_a_new_name_with_no_close_match_goes_through_in_one_step(open_browser, club):
    browsing = open_browser(PHONE)
    page = browsing.page
    log_in_and_open_the_paper(browsing)
    fill_in_the_paper(page)
    page.locator("#id_player_0").fill("Zorana")
    page.get_by_role("button", name="Check scores").click()
    preview = page.locator("section.preview")
    preview.wait_for()
    assert "new player" in preview.inner_text()
    preview.get_by_role("button", name="Save game").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    assert Game.objects.get().results.get(seat=0).player.name == "Zorana"
