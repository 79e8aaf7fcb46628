"""At the card table: a member enters the worked example on a phone, in a real browser.

Log in through the form, open the Preferans league's entry form, type the paper and watch the
live totals, check the scores, save, then read the game, the leaderboard and the player's chart.
The same walk runs at desktop width; with SCREENSHOTS=1 both save docs/screenshots/*.png.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from .builders import (
    DESKTOP,
    PHONE,
    assert_across_the_screen,
    cells,
    fill_in_the_paper,
    log_in,
)

# The worked example as the pages show it.
FINAL_SCORES = ["\u2212500", "40", "460"]  # a real minus sign, as every page writes it
CHANGES = ["−27", "+2", "+25"]
AFTER = ["1173", "1152", "1125"]
PAPER_FIELDS = ("player", "left", "middle", "right")


def column(page, table: str, header: str) -> list[str]:
    """The texts of one column of a table, found by its header."""
    return [cell.strip() for cell in cells(page, table, header).all_inner_texts()]


@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_a_member_enters_the_worked_example_and_reads_the_result(
    open_browser, table_club, size, viewport
):
    browsing = open_browser(viewport)
    page = browsing.page
    log_in(browsing)

    # The leagues page leads to the Preferans league's entry form.
    page.locator("section.league", has_text="Preferans").get_by_role(
        "link", name="Enter a game"
    ).click()
    page.wait_for_url(re.compile(r"/leagues/preferans/games/new/$"))

    # Every field has a label, and Tab goes through the paper in seating order.
    unlabelled = page.evaluate(
        """Array.from(document.querySelectorAll("main input:not([type=hidden]), main select"))
             .filter((field) => field.labels.length === 0).map((field) => field.name)"""
    )
    assert unlabelled == []
    page.locator("#id_ended_early").focus()
    order = []
    for _ in range(12):
        page.keyboard.press("Tab")
        order.append(page.evaluate("document.activeElement.name"))
    assert order == [f"{column}_{seat}" for seat in range(3) for column in PAPER_FIELDS]

    # Typing the paper: the final scores and the middle-column check appear as it is typed.
    status = page.locator("[data-middle-sum]")
    fill_in_the_paper(page)
    for seat, score in enumerate(FINAL_SCORES):
        assert page.locator(f'output[data-final="{seat}"]').inner_text() == score
    assert status.inner_text() == "Middle column sums to 0 ✓"
    assert "sum-ok" in status.get_attribute("class")
    if size == "phone":
        assert not browsing.scrolls_sideways(), "the paper scrolls sideways at 360 px"
    browsing.screenshot(f"entry-{size}")

    # A wrong middle column shows at once, and goes when it is put right.
    page.locator("#id_middle_2").fill("17")
    assert status.inner_text().startswith("Middle column sums to 1:")
    assert "sum-bad" in status.get_attribute("class")
    page.locator("#id_middle_2").fill("16")
    assert status.inner_text() == "Middle column sums to 0 ✓"

    # Check scores: the server's preview of the final scores and the rating changes.
    page.get_by_role("button", name="Check scores").click()
    preview = page.locator("section.preview")
    preview.wait_for()
    # The page opens on the preview, screens below the top of the form on a phone.
    assert preview.evaluate("(el) => document.activeElement === el")
    title = page.locator("#preview-title").evaluate("(el) => el.getBoundingClientRect().top")
    assert 0 <= title < viewport["height"] * 0.75  # in view, with the table below it
    assert column(page, "section.preview table", "Player") == ["Pedja", "Marko", "Johnny"]
    assert column(page, "section.preview table", "Final score") == FINAL_SCORES
    assert column(page, "section.preview table", "Change") == CHANGES
    assert column(page, "section.preview table", "New rating") == AFTER
    if size == "phone":
        assert_across_the_screen(
            browsing, "section.preview table", ("Final score", "Change", "New rating")
        )
    browsing.screenshot(f"preview-{size}")

    # Save: the game page, with the ratings before, the changes and after.
    preview.get_by_role("button", name="Save game").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game_url = page.url.removeprefix(browsing.base_url)
    assert page.locator(".messages").inner_text().strip() == "Game saved and rated."
    assert page.locator("h1").inner_text() == "Game of 2026-03-12 21:30"
    results = "table.results"
    assert column(page, results, "Player") == ["Pedja", "Marko", "Johnny"]
    assert column(page, results, "Final score") == ["−500", "40", "460"]
    assert column(page, results, "Rating before") == ["1200", "1150", "1100"]
    assert column(page, results, "Change") == CHANGES
    assert column(page, results, "Rating after") == AFTER
    if size == "phone":
        assert not browsing.scrolls_sideways(), "the game page scrolls sideways at 360 px"
        # One card per seat: the final score, the change and the ratings all in view.
        assert_across_the_screen(
            browsing, results, ("Final score", "Rating before", "Change", "Rating after")
        )
        heading = page.get_by_role("heading", name="The paper and the ratings")
        heading.evaluate("(el) => el.scrollIntoView({block: 'start'})")
        browsing.screenshot("game-cards-phone", full_page=False)
    browsing.screenshot(f"game-{size}")

    # The leaderboard: prefko ranks ascending, the lowest (best) rating first.
    page.locator("dl.facts").get_by_role("link", name="Preferans").click()
    page.wait_for_url(re.compile(r"/leagues/preferans/$"))
    board = "table.leaderboard"
    assert column(page, board, "Player") == ["Johnny", "Marko", "Pedja"]
    assert column(page, board, "Rating") == ["1125", "1152", "1173"]
    assert column(page, board, "Rank") == ["1", "2", "3"]
    if size == "phone":
        assert not browsing.scrolls_sideways(), "the leaderboard scrolls sideways at 360 px"
        assert_across_the_screen(browsing, board, ("Rank", "Player", "Rating", "Last change"))
        # The games and the date are behind the table's edge: its box scrolls, by keyboard too.
        wrap = page.locator(".table-container", has=page.locator(board))  # django-tables2's
        assert (wrap.get_attribute("role"), wrap.get_attribute("tabindex")) == ("region", "0")
        assert wrap.get_attribute("aria-label") == "Preferans"
    else:
        wrap = page.locator(".table-container", has=page.locator(board))
        assert wrap.get_attribute("tabindex") is None  # it fits: no extra Tab stop
    browsing.screenshot(f"leaderboard-{size}")

    # The player page: the rating-history chart, whose point links to the game.
    page.locator(board).get_by_role("link", name="Pedja").click()
    page.wait_for_url(re.compile(r"/players/pedja/$"))
    # The page holds a phone's and a wide screen's layout; the one that fits is shown.
    chart = page.locator(".chart svg.rating-chart >> visible=true")
    assert chart.get_attribute("class") == f"rating-chart {'phone' if size == 'phone' else 'wide'}"
    box = chart.bounding_box()
    assert box["width"] > 0.8 * min(viewport["width"], 1000)
    assert box["height"] > 220  # readable on a phone: the whole width, and tall
    assert chart.get_attribute("aria-label") == "Rating history: Preferans from 1173 to 1173"
    point = chart.locator(f'a[href="{game_url}"]')
    assert point.count() == 1
    if size == "phone":
        assert not browsing.scrolls_sideways(), "the player page scrolls sideways at 360 px"
        assert_across_the_screen(
            browsing, "table.player-games", ("Played", "Score", "Change", "Rating after")
        )
    browsing.screenshot(f"player-{size}")
    point.click()
    page.wait_for_url(browsing.base_url + game_url)

    assert browsing.errors == []


def test_the_paper_speaks_russian_after_switching_language(open_browser, table_club):
    """The switcher in the header, then the live hints in the chosen language, at 360 px."""
    browsing = open_browser(PHONE)
    page = browsing.page
    log_in(browsing)
    browsing.goto(reverse("ratings:game_new", args=[table_club.slug]))
    page.locator("#language-select").select_option("ru")
    page.get_by_role("button", name="Change language").click()
    page.get_by_role("heading", name="Новая партия: Preferans").wait_for()

    fill_in_the_paper(page)
    assert page.locator("[data-middle-sum]").inner_text() == "Сумма средней колонки — 0 ✓"
    page.locator("#id_left_1").fill("-5")
    hint = page.locator('[data-error-for="left_1"]')
    assert hint.inner_text() == "Боковые колонки не бывают отрицательными."
    assert page.locator("#id_left_1").get_attribute("aria-invalid") == "true"
    page.locator("#id_player_2").fill("pedja")
    assert page.locator('[data-error-for="player_2"]').inner_text() == (
        "pedja уже сидит на месте 1: игрок занимает только одно место."
    )
    assert not browsing.scrolls_sideways(), "the Russian paper scrolls sideways at 360 px"

    # The choice stays for the next page.
    browsing.goto("/")
    assert page.locator("h1").inner_text() == "Лиги"
    assert browsing.errors == []
