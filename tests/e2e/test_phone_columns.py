"""The columns a player came for, within a 360 px screen: no number behind a table's edge.

The head-to-head games table (the second player's change, who finished ahead), the
leaderboard's "Last change" in Russian and Serbian, whose headers are the longest, and the
backtest's scores.
"""

from __future__ import annotations

import pytest

from .builders import PHONE, assert_across_the_screen


def test_head_to_head_shows_both_changes_and_who_was_ahead(open_browser, demo_club):
    browsing = open_browser(PHONE)
    page = browsing.page
    browsing.goto("/players/pedja/vs/marko/")
    table = "table.head-to-head-games"
    page.locator(table).first.wait_for()
    # Played, Pedja, Change, Marko, Change, Ahead: every column but the date's.
    for column in range(2, 7):
        found = page.locator(f"{table} tbody td:nth-child({column})")
        assert found.count() > 0
        assert all(browsing.across_the_screen(found)), f"column {column} is off the screen"
    assert not browsing.scrolls_sideways()
    assert browsing.errors == []


@pytest.mark.parametrize(
    ("locale", "last_change"), [("ru-RU", "Последнее изменение"), ("sr-Latn", "Poslednja promena")]
)
def test_the_leaderboard_s_last_change_fits_in_every_language(
    open_browser, demo_club, locale, last_change
):
    browsing = open_browser(PHONE, locale=locale)
    browsing.goto("/leagues/preferans/")
    browsing.page.locator("table.leaderboard").wait_for()
    assert_across_the_screen(browsing, "table.leaderboard", (last_change,))
    assert not browsing.scrolls_sideways()
    assert browsing.errors == []


def test_the_backtest_shows_every_systems_scores(open_browser, demo_club):
    browsing = open_browser(PHONE)
    browsing.goto("/leagues/preferans/backtest/")
    scores = browsing.page.locator(".table-wrap table").first.locator("tbody td")
    scores.first.wait_for()
    assert scores.count() >= 3 * 8
    assert all(browsing.across_the_screen(scores)), "a system's score is off the screen"
    assert not browsing.scrolls_sideways()
    assert browsing.errors == []
