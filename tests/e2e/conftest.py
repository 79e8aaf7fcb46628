"""End-to-end tests in a real browser: Debian's Chromium, driven by Playwright for Python.

They need ``/usr/bin/chromium`` (``apt-get install chromium``) and the ``playwright`` package
(the test extra). Playwright never downloads a browser here: it starts the system's Chromium
(never run ``playwright install``). Without either, the tests are skipped with the reason, so
the plain test command passes on any machine; with ``E2E_REQUIRED=1`` (CI sets it) a missing
browser fails them instead, so CI cannot skip them silently.

``SCREENSHOTS=1`` makes the tests save the pages to ``docs/screenshots/`` (see docs/testing.md).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission

from ratings import engine
from ratings.models import League, Player, System
from tests.builders import make_league, worked_example_players
from tests.worked_example import WORKED_EXAMPLE_PAPERS

from .builders import ANOTHER_PHONE, PASSWORD, PLAYED, POLICY_PASSWORD, SCREENSHOT_DIR

CHROMIUM = Path(os.environ.get("E2E_CHROMIUM", "/usr/bin/chromium"))
# As root Chromium needs --no-sandbox; the rest keep it off the (closed) network and quiet.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not CHROMIUM.exists():
        return f"{CHROMIUM} is missing (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is missing (pip install -e '.[test]')"
    return None


@pytest.fixture(scope="session")
def live_server(request) -> Iterator:
    """pytest-django's live server, built with production's HTTPS redirect off, serving one
    request at a time (``ANOTHER_PHONE`` in tests/e2e/builders.py says why).

    Its middleware is built once, when the server starts, so the per-test ``settings``
    override (tests/conftest.py) comes too late for SecurityMiddleware, which would send the
    browser to https:// on a server that speaks plain HTTP.
    """
    from django.test.utils import override_settings
    from pytest_django.live_server_helper import LiveServer

    address = (
        request.config.getvalue("liveserver")
        or os.environ.get("DJANGO_LIVE_TEST_SERVER_ADDRESS")
        or "localhost"
    )
    with override_settings(SECURE_SSL_REDIRECT=False):
        server = LiveServer(address)
    app = server.thread.httpd.get_app()

    def one_request_at_a_time(environ, start_response):
        with ANOTHER_PHONE:
            return app(environ, start_response)

    server.thread.httpd.set_app(one_request_at_a_time)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator:
    """Chromium for one test module.

    Playwright's sync API keeps an asyncio loop running in this thread while it is started,
    and Django refuses database calls from a thread with a running loop; the tests' own
    database work (builders, the transactional flush) is plain synchronous code, so the check
    is switched off while the browser runs, and back on after.
    """
    reason = _missing()
    if reason:
        if os.environ.get("E2E_REQUIRED") == "1":
            pytest.fail(f"E2E_REQUIRED=1 but the browser tests cannot run: {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
            )
            yield chromium
            chromium.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


class Browsing:
    """A page in a fresh browser context, and the JavaScript errors it has met."""

    def __init__(self, page, base_url: str):
        self.page = page
        self.base_url = base_url
        self.errors: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on(
            "console",
            lambda message: self.errors.append(message.text) if message.type == "error" else None,
        )

    def goto(self, path: str) -> None:
        self.page.goto(self.base_url + path)

    def scrolls_sideways(self) -> bool:
        """Whether the page is wider than the screen (a table's own scroll box does not count)."""
        return self.page.evaluate(
            "document.documentElement.scrollWidth > document.documentElement.clientWidth"
        )

    def screenshot(self, name: str, *, full_page: bool = True) -> None:
        """docs/screenshots/<name>.png of the whole page (or of the screen, what a member sees
        first), only when SCREENSHOTS=1."""
        if os.environ.get("SCREENSHOTS") != "1":
            return
        SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SCREENSHOT_DIR / f"{name}.png"), full_page=full_page)

    def across_the_screen(self, locator) -> list[bool]:
        """For each element: whether it is wholly within the screen's width without scrolling
        sideways, neither off the page's edge nor hidden behind a table's own scroll box (a
        phone shows what is down the page by scrolling down; nobody should have to scroll a
        table sideways to find a number)."""
        return locator.evaluate_all(
            """(elements) => elements.map((el) => {
                 const box = el.getBoundingClientRect();
                 const clip = el.closest(".table-wrap, .table-container");
                 const edge = clip ? clip.getBoundingClientRect() : {left: 0, right: innerWidth};
                 return box.width > 0 && box.left >= Math.max(0, edge.left) - 0.5
                   && box.right <= Math.min(innerWidth, edge.right) + 0.5
                   && (!clip || clip.scrollLeft === 0);
               })"""
        )


@pytest.fixture
def open_browser(browser, live_server):
    """open_browser(viewport) -> Browsing: a new context, so no cookies leak between tests."""
    contexts = []

    def open_(viewport: dict, **options) -> Browsing:
        options = {"color_scheme": "light", "locale": "en-GB", **options}
        context = browser.new_context(viewport=viewport, **options)
        context.set_default_timeout(15_000)
        contexts.append(context)
        return Browsing(context.new_page(), live_server.url)

    yield open_
    for context in contexts:
        context.close()


# The clubs the browser tests walk through ------------------------------------------------------


@pytest.fixture
def table_club(django_user_model):
    """The Preferans league (start 1000) with the worked example's players and a member."""
    # The worked example's three are ranked (the demo shows a provisional player).
    league = make_league(System.PREFKO, name="Preferans", start_rating=1000, provisional_games=0)
    worked_example_players(league)
    django_user_model.objects.create_user("marko", password=PASSWORD)
    return league


@pytest.fixture
def policed_club(django_user_model):
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
    django_user_model.objects.create_user("marko", password=POLICY_PASSWORD)
    staff = django_user_model.objects.create_user("staff", password=POLICY_PASSWORD, is_staff=True)
    staff.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="ratings"),
        Permission.objects.get(codename="view_user"),  # to pick a player's account
    )
    return {"league": league, "game": games[0], "player": players[0]}
