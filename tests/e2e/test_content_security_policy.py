"""The Content Security Policy in a real browser: the club's pages and the admin keep to it.

Chromium loads every main page, as a visitor, a member and staff, and uses what runs on them
(the paper's live totals, the admin's calendar, actions and autocomplete). Any CSP violation
fails the test, whether Chromium reports it in the console or as a ``securitypolicyviolation``
event, and so does a page sent without the policy. The chart must still be drawn in its colours,
now that they come from the club's stylesheet.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from ratings import engine
from ratings.models import League, Player, System
from tests.worked_example import WORKED_EXAMPLE_PAPERS

from .conftest import DESKTOP

PASSWORD = "a-long-password-for-the-policy"
PLAYED = [datetime(2026, 3, 12, 21, 30, tzinfo=UTC), datetime(2026, 3, 19, 21, 30, tzinfo=UTC)]
# Reported for each violation: which rule, what was blocked, and where.
WATCH_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.reportCspViolation(
    `${event.effectiveDirective} blocked ${event.blockedURI || "inline"} `
    + `at ${event.sourceFile}:${event.lineNumber} on ${document.location.pathname}`
  );
});
"""


@pytest.fixture
def club(django_user_model):
    """A Preferans league with two games, a member and staff who may use the whole admin."""
    league = League.objects.create(name="Preferans", slug="preferans", system=System.PREFKO)
    players = [Player.objects.create_named(name) for name in ("Pedja", "Marko", "Johnny")]
    games = [
        engine.game_record(
            league=league,
            played_at=played,
            entries=[
                engine.Entry(player_id=p.pk, paper=paper)
                for p, paper in zip(players, WORKED_EXAMPLE_PAPERS, strict=True)
            ],
            bula=30,
        )
        for played in PLAYED
    ]
    django_user_model.objects.create_user("marko", password=PASSWORD)
    staff = django_user_model.objects.create_user("staff", password=PASSWORD, is_staff=True)
    staff.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="ratings"),
        Permission.objects.get(codename="view_user"),  # to pick a player's account
    )
    return {"league": league, "game": games[0], "player": players[0]}


class Policed:
    """A browser page that records every CSP violation and checks each page has the policy."""

    def __init__(self, browsing):
        self.browsing = browsing
        self.page = browsing.page
        self.violations: list[str] = []
        self.page.expose_function("reportCspViolation", lambda text: self.violations.append(text))
        self.page.add_init_script(WATCH_VIOLATIONS)
        # The admin's pages name no icon, so Chromium asks for /favicon.ico (a 404, logged as an
        # error); the club's pages declare an empty one. Not the policy's business.
        self.page.route("**/favicon.ico", lambda route: route.fulfill(status=204))

    def visit(self, path: str, status: int = 200) -> None:
        response = self.page.goto(self.browsing.base_url + path)
        assert response.status == status, (path, response.status)
        self.assert_policy(response.headers.get("content-security-policy", ""), path)
        if status != 200:  # Chromium logs the page's own status as an error: not a violation
            self.browsing.errors.remove(
                f"Failed to load resource: the server responded with a status of {status} "
                f"({response.status_text})"
            )

    def wait_for(self, pattern: str) -> None:
        self.page.wait_for_url(re.compile(pattern))

    @staticmethod
    def assert_policy(header: str, path: str) -> None:
        assert "default-src 'self'" in header, (path, header)
        assert "unsafe-inline" not in header, (path, header)

    def log_in(self, url: str, username: str, after: str) -> None:
        self.visit(url)
        self.page.locator("#id_username").fill(username)
        self.page.locator("#id_password").fill(PASSWORD)
        self.page.locator("form [type=submit]").last.click()
        self.wait_for(after)

    def assert_clean(self) -> None:
        # A violation also reaches the console ("Refused to apply inline style…") as an error.
        assert self.violations == []
        assert self.browsing.errors == []


def test_the_club_pages_keep_to_the_policy(open_browser, club):
    policed = Policed(open_browser(DESKTOP))
    page = policed.page
    league, game = club["league"], club["game"]

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
    policed.visit(reverse("ratings:player", args=[club["player"].slug]))
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


def test_the_admin_works_under_the_policy(open_browser, club):
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
    policed.visit(reverse("admin:ratings_game_change", args=[club["game"].pk]))
    page.locator("#id_note").fill("checked under the policy")
    page.locator("[name=_save]").click()
    policed.wait_for(r"/admin/ratings/game/$")
    assert page.locator(".messagelist .success").count() == 1

    # A league with its standings inline, a new league (slug typed for you), a new player (the
    # account picked by autocomplete), the audit trail.
    policed.visit(reverse("admin:ratings_league_change", args=[club["league"].pk]))
    policed.visit(reverse("admin:ratings_league_add"))
    page.locator("#id_name").press_sequentially("Ana Marija")
    assert page.locator("#id_slug").input_value() == "ana-marija"
    policed.visit(reverse("admin:ratings_player_add"))
    page.locator(".select2-selection").first.click()
    page.locator(".select2-results__option").first.wait_for()
    policed.visit(reverse("admin:ratings_auditentry_changelist"))

    policed.assert_clean()
