"""A member's own pages on a phone in Serbian and Russian, whose words run longer than English:
the API tokens' list fits the screen (a card a token), and the offline banner puts each count
on a line of its own."""

from __future__ import annotations

import pytest
from django.urls import reverse

from .builders import PASSWORD, PHONE, log_in


def phone_in_language(browsing, code: str) -> None:
    browsing.page.context.add_cookies(
        [{"name": "django_language", "value": code, "url": browsing.base_url}]
    )


@pytest.mark.parametrize("code", ["sr-latn", "ru"])
def test_the_token_list_fits_a_phone(open_browser, django_user_model, code):
    django_user_model.objects.create_user("marko", password=PASSWORD)
    browsing = open_browser(PHONE)
    page = browsing.page
    log_in(browsing)
    phone_in_language(browsing, code)
    browsing.goto(reverse("ratings:api_tokens"))
    for name in ("Telefon za stolom kluba", "Bot"):
        page.locator("#id_name").fill(name)
        page.locator("form.card button.primary").click()
        page.locator("#new-token").wait_for()
    # The new token, 48 letters without a space, shown once above the list.
    assert not browsing.scrolls_sideways(), f"the new token scrolls sideways ({code})"
    browsing.screenshot(f"tokens-phone-{code}")
    browsing.goto(reverse("ratings:api_tokens"))  # the list as it reads later
    assert not browsing.scrolls_sideways(), f"the token list scrolls sideways at 360 px ({code})"
    revoke = page.locator("table.cards button")
    assert revoke.count() == 2
    assert all(browsing.across_the_screen(revoke))
    revoke.first.click()  # a revoked token's row says so instead
    page.wait_for_url(browsing.base_url + reverse("ratings:api_tokens"))
    assert revoke.count() == 1 and all(browsing.across_the_screen(revoke))
    assert not browsing.scrolls_sideways(), f"the revoked row scrolls sideways ({code})"
    assert browsing.errors == []


def test_the_offline_banner_puts_each_count_on_its_own_line(open_browser, django_user_model):
    django_user_model.objects.create_user("marko", password=PASSWORD)
    browsing = open_browser(PHONE)
    page = browsing.page
    log_in(browsing)
    phone_in_language(browsing, "ru")
    # A paper and three deals kept: their addresses are no forms, so they stay waiting.
    page.evaluate(
        """Promise.all([
             clubPapers.put({key: "p", url: "/", fields: [], keptAt: 0}),
             ...[1, 2, 3].map((n) => clubPapers.put(
               {key: "d" + n, url: "/papers/999/deal/", fields: [], keptAt: n})),
           ])"""
    )
    browsing.goto("/")
    banner = page.locator("#offline-queue")
    banner.get_by_text("3 раздачи ждут отправки").wait_for()
    lines = banner.locator(".offline-line")
    assert lines.all_inner_texts() == ["1 лист ждёт отправки", "3 раздачи ждут отправки"]
    # In one step of the page's: the banner is drawn again when its sends come back refused,
    # and a line found before that is gone from the page (no box) by the next call.
    tops = lines.evaluate_all("(lines) => lines.map((line) => line.getBoundingClientRect().top)")
    assert len(tops) == 2 and tops[1] > tops[0]  # one under the other, not run together
    assert all("404" in error or "405" in error for error in browsing.errors)
