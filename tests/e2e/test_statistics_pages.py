"""Statistics as a new member finds them on the demo club, on a phone: Pedja's page shows his
statistics, his record against Marko leads to their head-to-head page, and the Preferans
leaderboard's tab for this year shows the season's table. No page scrolls sideways.

With SCREENSHOTS=1 it saves docs/screenshots/stats-phone.png (Pedja's statistics) and
head-to-head-phone.png.
"""

from __future__ import annotations

import os

from django.utils import timezone

from ratings.models import Game

from .builders import PHONE, SCREENSHOT_DIR


def test_a_new_member_reads_pedjas_statistics_and_his_record_against_marko(open_browser, demo_club):
    browsing = open_browser(PHONE)
    page = browsing.page

    browsing.goto("/players/pedja/")
    statistics = page.locator(".statistics").first
    statistics.wait_for()
    assert "First places" in statistics.inner_text()
    assert "Met most often" in statistics.inner_text()
    assert not browsing.scrolls_sideways()
    if os.environ.get("SCREENSHOTS") == "1":
        SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
        statistics.screenshot(path=str(SCREENSHOT_DIR / "stats-phone.png"))

    statistics.locator('a[href="/players/pedja/vs/marko/"]').click()
    page.wait_for_url(browsing.base_url + "/players/pedja/vs/marko/")
    assert page.get_by_role("heading", name="Pedja against Marko").is_visible()
    # A phone's drawing and a wide screen's: club.css shows the one that fits.
    assert page.locator("svg.rating-chart:visible").count() == 1
    assert "Their games together" in page.locator("main").inner_text()
    assert not browsing.scrolls_sideways()
    browsing.screenshot("head-to-head-phone")
    assert browsing.errors == []


def test_the_preferans_leaderboard_tab_for_this_year_shows_the_season(open_browser, demo_club):
    browsing = open_browser(PHONE)
    page = browsing.page
    last = Game.objects.filter(league__slug="preferans").latest("played_at").played_at
    year = str(timezone.localtime(last).year)

    browsing.goto("/leagues/preferans/")
    page.locator("nav.tabs").get_by_role("link", name=year).click()
    page.wait_for_url(browsing.base_url + f"/leagues/preferans/?season={year}")

    assert page.get_by_role("heading", name=f"Season {year}").is_visible()
    assert page.locator("table.season tbody tr").count() == 13  # twelve regulars and a guest
    assert not browsing.scrolls_sideways()
    assert browsing.errors == []
