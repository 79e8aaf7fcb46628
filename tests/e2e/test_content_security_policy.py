"""The Content Security Policy in a real browser: the club's pages and the admin keep to it.

Chromium loads every main page, as a visitor, a member and staff, and uses what runs on them
(the paper's live totals, the admin's calendar, actions and autocomplete). Any CSP violation
fails the test, whether Chromium reports it in the console or as a ``securitypolicyviolation``
event, and so does a page sent without the policy. The chart must still be drawn in its colours,
now that they come from the club's stylesheet.
"""

from __future__ import annotations

import re

from django.urls import reverse

from tests.worked_example import WORKED_EXAMPLE_PAPERS

from .builders import DESKTOP, Policed


def test_the_club_pages_keep_to_the_policy(open_browser, policed_club):
    policed = Policed(open_browser(DESKTOP))
    page = policed.page
    league, game = policed_club["league"], policed_club["game"]

    for path in [
        reverse("ratings:home"),
        reverse("ratings:leaderboard", args=[league.slug]),
        reverse("ratings:league_games", args=[league.slug]),
        reverse("ratings:game", args=[game.pk]),
        reverse("admin:login"),
    ]:
        policed.visit(path)
    policed.visit("/games/999999/", status=404)

    # The player's chart is drawn, in its colours from club.css.
    policed.visit(reverse("ratings:player", args=[policed_club["player"].slug]))
    line = page.locator(".chart svg.rating-chart .s0 polyline.line >> visible=true")
    assert line.is_visible()
    stroke = line.evaluate("(el) => [getComputedStyle(el).stroke, getComputedStyle(el).fill]")
    assert stroke == ["rgb(11, 98, 164)", "none"]

    # A member logs in and types a paper: paper.js runs under the policy.
    policed.log_in(reverse("login"), "marko", after=r"/$")
    policed.visit(reverse("ratings:game_new", args=[league.slug]))
    for seat, (left, middle, right) in enumerate(WORKED_EXAMPLE_PAPERS):
        page.locator(f"#id_left_{seat}").fill(str(left))
        page.locator(f"#id_middle_{seat}").fill(str(middle))
        page.locator(f"#id_right_{seat}").fill(str(right))
    assert page.locator('output[data-final="0"]').inner_text() == "\u2212500"  # a real minus sign
    policed.visit(reverse("ratings:player_new"))

    policed.assert_clean()


def test_the_admin_works_under_the_policy(open_browser, policed_club):
    policed = Policed(open_browser(DESKTOP))
    page = policed.page
    policed.log_in(reverse("admin:login"), "staff", after=r"/admin/$")

    # The change list's actions: "select all" counts the games (actions.js).
    policed.visit(reverse("admin:ratings_game_changelist"))
    page.locator("#action-toggle").check()
    assert page.locator(".action-counter").inner_text().startswith("2 of 2")

    # A new game: the date shortcuts and the calendar (DateTimeShortcuts.js, calendar.js).
    policed.visit(reverse("admin:ratings_game_add"))
    page.locator(".datetimeshortcuts").first.get_by_role("link", name="Today").click()
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", page.locator("#id_played_at_0").input_value())
    page.locator(".datetimeshortcuts .date-icon").first.click()
    assert page.locator(".calendarbox").first.is_visible()

    # A game with its results inline; saving it re-rates the league.
    policed.visit(reverse("admin:ratings_game_change", args=[policed_club["game"].pk]))
    page.locator("#id_note").fill("checked under the policy")
    page.locator("[name=_save]").click()
    policed.wait_for(r"/admin/ratings/game/$")
    assert page.locator(".messagelist .success").count() == 1

    # A league with its standings inline, a new league (slug typed for you), a new player (the
    # account picked by autocomplete), the audit trail.
    policed.visit(reverse("admin:ratings_league_change", args=[policed_club["league"].pk]))
    policed.visit(reverse("admin:ratings_league_add"))
    page.locator("#id_name").press_sequentially("Ana Marija")
    assert page.locator("#id_slug").input_value() == "ana-marija"
    policed.visit(reverse("admin:ratings_player_add"))
    page.locator(".select2-selection").first.click()
    page.locator(".select2-results__option").first.wait_for()
    policed.visit(reverse("admin:ratings_auditentry_changelist"))

    policed.assert_clean()
