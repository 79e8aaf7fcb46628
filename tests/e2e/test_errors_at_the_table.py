"""A failed "Check scores" on a phone, as a new member meets it: the page opens on a focused
summary at the top whose link leads to the empty seat, with and without JavaScript."""

from __future__ import annotations

from django.urls import reverse

from .builders import PHONE, fill_in_the_paper, log_in

SEAT_2 = "Seat 2 player: Every seat needs a player."


def check_with_an_empty_seat(browsing, league) -> None:
    page = browsing.page
    log_in(browsing)
    browsing.goto(reverse("ratings:game_new", args=[league.slug]))
    fill_in_the_paper(page)
    page.locator("#id_player_1").fill("")
    page.get_by_role("button", name="Check scores").click()
    page.locator("[data-error-summary]").wait_for()


def test_an_empty_seat_opens_on_a_focused_summary_that_leads_to_the_seat(open_browser, table_club):
    browsing = open_browser(PHONE)
    page = browsing.page
    check_with_an_empty_seat(browsing, table_club)

    summary = page.locator("[data-error-summary]")
    assert page.evaluate("document.activeElement.hasAttribute('data-error-summary')")
    box = summary.bounding_box()
    assert box["y"] >= 0
    assert box["y"] + box["height"] <= PHONE["height"], "the summary is not on the first screen"
    assert page.title().startswith("Error: ")
    assert summary.get_by_role("heading").inner_text() == "There is a problem"
    assert summary.get_by_role("link").all_inner_texts() == [SEAT_2]
    assert not browsing.scrolls_sideways()
    browsing.screenshot("error-summary-phone", full_page=False)

    # The link puts the cursor in the seat's box, its label in view above it.
    summary.get_by_role("link", name=SEAT_2).click()
    assert page.evaluate("document.activeElement.id") == "id_player_1"
    label = page.locator('label[for="id_player_1"]').bounding_box()
    field = page.locator("#id_player_1").bounding_box()
    assert 0 <= label["y"] < field["y"] < PHONE["height"]
    assert page.locator("#id_player_1").get_attribute("aria-invalid") == "true"
    described = page.locator("#id_player_1").get_attribute("aria-describedby").split()
    assert page.locator(f"#{described[0]}").inner_text().endswith("Every seat needs a player.")
    assert browsing.errors == []


def test_without_javascript_the_summary_still_takes_the_focus(open_browser, table_club):
    browsing = open_browser(PHONE, java_script_enabled=False)
    page = browsing.page
    check_with_an_empty_seat(browsing, table_club)

    # The browser applies autofocus at a rendering step of its own after the page loads, not
    # with the load: wait for it (a busy machine saw the load first). A function, not an
    # expression: Playwright evaluates an expression with eval, which the page's policy forbids.
    page.wait_for_function("() => document.activeElement.hasAttribute('data-error-summary')")
    page.locator("[data-error-summary]").get_by_role("link", name=SEAT_2).click()
    assert page.url.endswith("#id_player_1")
    assert browsing.errors == []
