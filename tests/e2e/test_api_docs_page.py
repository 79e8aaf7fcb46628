"""The API's docs page in a real browser: the club's own page drawn from the OpenAPI file, under
the site's Content Security Policy with no violation and with no axe finding of any impact, and
the member's tokens page likewise."""

from __future__ import annotations

import pytest
from django.urls import reverse

from .builders import DESKTOP, PASSWORD, PHONE, Audit, Policed, log_in


def test_the_api_docs_page_draws_under_the_policy(open_browser, policed_club):
    policed = Policed(open_browser(DESKTOP))
    page = policed.page
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    policed.visit("/api/v1/docs")
    assert page.get_by_role("heading", level=1).inner_text().startswith("Card club API")
    page.get_by_role("heading", name="POST /api/v1/leagues/{slug}/games").wait_for()
    assert all(url.startswith(policed.browsing.base_url) for url in requested), requested

    policed.log_in(reverse("login"), "marko", after=r"/$")
    policed.visit(reverse("ratings:api_tokens"))
    page.get_by_label("Device or bot").fill("Phone")
    page.get_by_role("button", name="Make a token").click()
    assert page.locator("#new-token").inner_text().startswith("club_")
    policed.assert_clean()


@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_the_api_docs_page_has_no_axe_finding_at_all(open_browser, size, viewport, live_server):
    """Not only no serious one: Swagger UI's page had regions outside any landmark, headings out
    of order and no main landmark (moderate), which a page of the site does not have."""
    for language in ("en", "sr-latn", "ru"):
        browsing = open_browser(viewport)
        browsing.page.context.add_cookies(
            [{"name": "django_language", "value": language, "url": browsing.base_url}]
        )
        audit = Audit(browsing, f"{language} {size}")
        audit.visit("/api/v1/docs")
        assert audit.failures + audit.minor == [], "\n".join(audit.failures + audit.minor)
        # Nothing wider than the phone: the examples scroll inside their own boxes.
        width = audit.page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], (language, width)
        assert browsing.errors == []


def test_the_tokens_page_and_the_offline_banner_pass_axe(open_browser, django_user_model):
    django_user_model.objects.create_user("marko", password=PASSWORD)
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        browsing = open_browser(viewport)
        audit = Audit(browsing, f"en {size}")
        page = audit.page
        log_in(browsing)
        audit.visit(reverse("ratings:api_tokens"))
        audit.submit("Make a token", "no name")
        page.get_by_label("Device or bot").fill("Phone")
        audit.submit("Make a token", "a new token")
        # The banner as a member meets it: a paper waiting, and one refused.
        page.evaluate(
            # "/" is no form: sending the first fails and it stays waiting.
            """clubPapers.put({key: "k1", url: "/", fields: [], keptAt: 0})
                 .then(() => clubPapers.put({key: "k2", url: "/", fields: [], refused: true}))"""
        )
        audit.visit(reverse("ratings:home"))
        page.locator("#offline-queue").get_by_text("1 paper waiting to be sent").wait_for()
        audit.check("the offline banner")
        assert audit.failures == [], audit.failures
