"""A whole short game on one phone, deal by deal, watched from a second phone.

Bula 10: a refa, three games on it (one with a kontra), a mistake taken back with "Undo", then
the preview and the rated game; meanwhile a visitor's phone shows each deal without a reload.
"""

from __future__ import annotations

import re

import pytest

from ratings.models import Game, System
from tests.builders import make_league, make_players

from .builders import PASSWORD, PHONE, log_in


@pytest.fixture
def club(django_user_model):
    league = make_league(System.PREFKO, name="Preferans", provisional_games=0)
    make_players(["Ana", "Boris", "Ceca"])
    django_user_model.objects.create_user("marko", password=PASSWORD)
    return league


def tap_deal(page, *, declarer, contract, followers, kontra=None):
    """Tap one played deal in: followers are {name: tricks}; the others pass."""
    form = page.locator("form[data-deal-form]")
    form.locator("fieldset.taps", has_text="Declarer").get_by_label(declarer).check()
    form.locator("fieldset.taps", has_text="Contract").get_by_label(f"{contract} (").check()
    if kontra:
        form.get_by_label("Kontra").select_option(label=kontra)
    for fieldset in form.locator("fieldset.follower:visible").all():
        name = fieldset.locator("legend").inner_text().strip()
        if name in followers:
            fieldset.get_by_label("followed").check()
            fieldset.get_by_label("Tricks").select_option(str(followers[name]))
        else:
            fieldset.get_by_label("passed").check()


@pytest.mark.django_db(transaction=True)
def test_a_short_game_on_one_phone_watched_on_another(open_browser, club):
    phone = open_browser(PHONE)
    page = phone.page
    log_in(phone)

    phone.goto(f"/leagues/{club.slug}/papers/new/")
    page.get_by_label("Seat 1").fill("Ana")
    page.get_by_label("Seat 2").fill("Boris")
    page.get_by_label("Seat 3").fill("Ceca")
    page.get_by_label("Starting bula").fill("10")
    page.get_by_role("button", name="Start the paper").click()
    page.wait_for_url(re.compile(r"/papers/\d+/$"))
    paper_url = page.url

    watcher = open_browser(PHONE)
    watcher.page.goto(paper_url)
    assert watcher.page.get_by_role("button", name="Add the deal").count() == 0

    form = page.locator("form[data-deal-form]")
    form.get_by_label("refa (all passed)").check()
    form.get_by_role("button", name="Add the deal").click()
    page.wait_for_selector("text=Deal 2")

    tap_deal(page, declarer="Ana", contract="karo", followers={"Boris": 2})
    assert form.locator("input[name=on_refa]").is_checked()  # Ana has a refa to play
    assert form.locator("output.deal-value").inner_text() == "Value 12"
    form.get_by_role("button", name="Add the deal").click()
    page.wait_for_selector("text=Deal 3")

    tap_deal(page, declarer="Boris", contract="pik", followers={"Ceca": 1})
    form.get_by_role("button", name="Add the deal").click()
    page.wait_for_selector("text=Deal 4")

    # A mistake: herc instead of pik. Taken back.
    tap_deal(page, declarer="Ceca", contract="herc", followers={"Boris": 1}, kontra="kontra")
    form.get_by_role("button", name="Add the deal").click()
    page.wait_for_selector("text=Deal 5")
    page.get_by_role("button", name="Undo the last deal").click()
    page.wait_for_selector("text=Deal 4")

    tap_deal(page, declarer="Ceca", contract="pik", followers={"Boris": 1}, kontra="kontra")
    assert form.locator("output.deal-value").inner_text() == "Value 16"
    form.get_by_role("button", name="Add the deal").click()
    page.wait_for_selector("text=The bulas have run out")

    # The watching phone has the fourth deal without a reload.
    watcher.page.wait_for_selector("text=The bulas add up to \u22126.", timeout=15_000)
    phone.screenshot("digital-paper-phone")

    page.get_by_role("link", name="Finish and rate").click()
    page.wait_for_selector("text=Check before saving")
    page.get_by_role("button", name="Save game").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get()
    assert [r.paper for r in game.results.order_by("seat")] == [
        (0, -2, 0),
        (24, 2, 16),
        (8, -6, 0),
    ]
    assert phone.errors == [] and watcher.errors == []
    assert not phone.scrolls_sideways()
