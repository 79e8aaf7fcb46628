"""A phone passed on after a logout shows no page of the member who logged out, even without
network: the service worker forgets the pages it kept when someone logs in or out."""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as PlaywrightError

from .builders import PASSWORD, PHONE, log_in


def test_pages_kept_while_logged_in_are_forgotten_at_logout(open_browser, django_user_model):
    django_user_model.objects.create_user("marko", password=PASSWORD)
    browsing = open_browser(PHONE)
    page = browsing.page
    log_in(browsing)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    browsing.goto("/players/")  # through the worker, which keeps a copy
    assert page.locator(".nav .user").inner_text().strip().endswith("marko")

    page.get_by_role("button", name="Log out").click()
    page.wait_for_url(browsing.base_url + "/")
    page.get_by_role("link", name="Log in").wait_for()
    page.context.set_offline(True)
    with pytest.raises(PlaywrightError, match="ERR_FAILED"):
        browsing.goto("/players/")  # nothing kept: the browser's own page for no network
