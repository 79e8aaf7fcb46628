"""The games list's filter suggests the league's players as the member types. The page does not
carry their names (a big league has thousands, in every drawing of the page and every phone's
download of it): static/forms.js fetches them when the box is first used, under the pages'
content security policy."""

from __future__ import annotations

from django.urls import reverse

from .builders import PHONE


def test_the_filter_box_suggests_the_leagues_players_once_used(open_browser, policed_club):
    browsing = open_browser(PHONE)
    browsing.goto(reverse("ratings:league_games", args=[policed_club["league"].slug]))
    page = browsing.page
    options = page.locator("#league-players option")
    assert options.count() == 0

    page.get_by_label("Player").focus()

    options.nth(2).wait_for(state="attached")  # (no wait_for_function: the pages forbid eval)
    assert [option.get_attribute("value") for option in options.all()] == [
        "Johnny",
        "Marko",
        "Pedja",
    ]
    page.get_by_label("Player").blur()
    page.get_by_label("Player").focus()
    page.wait_for_load_state("networkidle")
    assert options.count() == 3  # asked for once: not filled twice
    assert browsing.errors == []
