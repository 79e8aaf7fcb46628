"""An invited person joins on their phone (360 px, in Russian, the longest words): the link's
form, the player's page they land on logged in; and a member's claim page at the same width."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.accounts import services
from ratings.models import Player

from .builders import PASSWORD, TOUCH_PHONE


@pytest.mark.django_db(transaction=True)
def test_an_invited_person_joins_on_a_phone_and_claims_fit_it(open_browser, table_club):
    pedja = Player.objects.get(name="Pedja")
    _invitation, token = services.invitation_create(player=pedja)
    browsing = open_browser(locale="ru-RU", **TOUCH_PHONE)
    page = browsing.page

    browsing.goto(reverse("ratings:invitation", args=[token]))
    assert not browsing.scrolls_sideways()
    browsing.screenshot("invitation-phone")
    page.locator("#id_username").fill("pedja")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.locator("main button[type=submit]").click()
    page.wait_for_url(browsing.base_url + pedja.get_absolute_url())
    assert page.get_by_role("link", name="Моя страница").is_visible()
    assert Player.objects.get(pk=pedja.pk).user.get_username() == "pedja"

    # Marko's login (table_club's member) has no player: he claims one.
    other = open_browser(locale="ru-RU", **TOUCH_PHONE)
    other.goto(reverse("login"))
    other.page.locator("#id_username").fill("marko")
    other.page.locator("#id_password").fill(PASSWORD)
    other.page.locator("main button[type=submit]").click()
    other.page.wait_for_url(other.base_url + "/")
    other.page.get_by_role("link", name="Указать своего игрока").click()
    other.page.locator("#id_player").fill("Marko")
    other.page.locator("#id_note").fill("По пятницам за третьим столом")
    other.page.locator("main button[type=submit]").click()
    other.page.get_by_text("ждёт администрацию клуба").wait_for()
    assert not other.scrolls_sideways()
    other.screenshot("claim-phone")
    assert browsing.errors == [] and other.errors == []
