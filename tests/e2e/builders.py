"""The browser tests' helpers, each defined once: screen sizes, logging in, typing the worked
example's paper, and a page that watches the Content Security Policy. Their clubs are fixtures in
tests/e2e/conftest.py (``table_club``, ``policed_club``).
"""

from __future__ import annotations

import re
import threading
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.urls import reverse

from tests.worked_example import WORKED_EXAMPLE_FORM

SCREENSHOT_DIR = Path(settings.BASE_DIR) / "docs" / "screenshots"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
TOUCH_PHONE = {"viewport": PHONE, "is_mobile": True, "has_touch": True}
PASSWORD = "a-long-password-for-the-table"
POLICY_PASSWORD = "a-long-password-for-the-policy"
PLAYED = [datetime(2026, 3, 12, 21, 30, tzinfo=UTC), datetime(2026, 3, 19, 21, 30, tzinfo=UTC)]
# pytest-django hands the tests' in-memory SQLite database to the live server as the test's own
# connection, so the server's threads and the test's share it; two statements interleaved on it
# fail with "database table is locked". The live server serves one request at a time under this
# lock (tests/e2e/conftest.py), and a test that writes while a page is open, as another phone
# would, takes it too: ``with ANOTHER_PHONE: services.deal_add(...)``.
ANOTHER_PHONE = threading.RLock()
# axe-core findings of these impacts fail a test; the others are printed for a human.
FAILING = ("serious", "critical")
# Reported for each violation: which rule, what was blocked, and where.
WATCH_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.reportCspViolation(
    `${event.effectiveDirective} blocked ${event.blockedURI || "inline"} `
    + `at ${event.sourceFile}:${event.lineNumber} on ${document.location.pathname}`
  );
});
"""


def log_in(browsing) -> None:
    page = browsing.page
    browsing.goto("/")
    page.get_by_role("link", name="Log in").click()
    page.get_by_label("Username").fill("marko")
    page.get_by_label("Password").fill(PASSWORD)
    page.locator("main").get_by_role("button", name="Log in").click()
    page.wait_for_url(browsing.base_url + "/")
    assert page.locator(".nav .user").inner_text().strip().endswith("marko")


def fill_in_the_paper(page) -> None:
    """The worked example, typed field by field in the form's order."""
    for field, value in WORKED_EXAMPLE_FORM.items():
        page.locator(f"#id_{field}").fill(value)


class Policed:
    """A browser page that records every CSP violation and checks each page has the policy."""

    def __init__(self, browsing):
        self.browsing = browsing
        self.page = browsing.page
        self.violations: list[str] = []
        self.page.expose_function("reportCspViolation", lambda text: self.violations.append(text))
        self.page.add_init_script(WATCH_VIOLATIONS)

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
        self.page.locator("#id_password").fill(POLICY_PASSWORD)
        self.page.locator("form [type=submit]").last.click()
        self.wait_for(after)

    def assert_clean(self) -> None:
        # A violation also reaches the console ("Refused to apply inline style…") as an error.
        assert self.violations == []
        assert self.browsing.errors == []


class Audit:
    """A browser page that runs axe on each state of each page it is shown."""

    def __init__(self, browsing, label: str):
        from axe_playwright_python.sync_playwright import Axe

        self.axe = Axe()
        self.browsing = browsing
        self.page = browsing.page
        self.label = label
        self.failures: list[str] = []
        self.minor: list[str] = []
        self.checked: list[str] = []

    def visit(self, path: str, status: int = 200) -> None:
        response = self.page.goto(self.browsing.base_url + path)
        assert response.status == status, (path, response.status)
        if status != 200:  # Chromium logs the page's own status as an error: not a finding
            self.browsing.errors.remove(
                f"Failed to load resource: the server responded with a status of {status} "
                f"({response.status_text})"
            )
        self.check(path)

    def check(self, state: str) -> None:
        """Run axe on the page as it is now."""
        results = self.axe.run(self.page).response
        self.checked.append(state)
        for violation in results["violations"]:
            targets = [" ".join(node["target"]) for node in violation["nodes"]][:5]
            line = (
                f"{self.label} {state}: {violation['id']} ({violation['impact']}) "
                f"{violation['help']} at {targets}"
            )
            if violation["impact"] in FAILING:
                self.failures.append(line)
            else:
                self.minor.append(line)

    def submit(self, button: str, state: str) -> None:
        self.page.locator("main").get_by_role("button", name=button).first.click()
        self.page.wait_for_load_state()
        self.check(state)


def open_paper(open_browser, league, **device):
    """A browser on ``device`` (its ``viewport`` and any other option of the browser's context),
    logged in, on ``league``'s entry form."""
    viewport = device.pop("viewport")
    browsing = open_browser(viewport, **device)
    log_in(browsing)
    browsing.goto(reverse("ratings:game_new", args=[league.slug]))
    return browsing


def cells(page, table: str, header: str):
    """The cells of one column of a table, found by its header."""
    headers = [h.strip() for h in page.locator(f"{table} thead th").all_inner_texts()]
    index = headers.index(header) + 1
    return page.locator(f"{table} tbody td:nth-child({index})")


def assert_across_the_screen(browsing, table: str, headers: tuple[str, ...]) -> None:
    """On a phone, each of these columns' cells is within the screen's width: no number a
    player came for is behind the table's edge (a page that merely does not scroll sideways
    could still hide them in the table's own scroll box)."""
    for header in headers:
        found = cells(browsing.page, table, header)
        assert found.count() > 0, header
        assert all(browsing.across_the_screen(found)), f"{header} is off the screen at 360 px"
