"""The rayter import page's "Replace the league's games" box: its label beside the box and the
help under the label, on a phone and on a desktop (it used to sit right of its help text and
wrap letter by letter at 360 px)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from ratings.models import System
from tests.builders import make_league

from .builders import DESKTOP, PHONE

PASSWORD = "a-long-password-for-the-import"


@pytest.fixture
def league(django_user_model):
    staff = django_user_model.objects.create_user("staff", password=PASSWORD, is_staff=True)
    staff.user_permissions.add(*Permission.objects.filter(codename__in=["add_game", "delete_game"]))
    return make_league(System.RAYTER_HIGHSCORE, name="Kille", game_name="Kille")


@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_the_replace_box_has_its_label_beside_it_and_the_help_below(
    open_browser, league, size, viewport
):
    browsing = open_browser(viewport)
    page = browsing.page
    browsing.goto(reverse("login"))
    page.locator("#id_username").fill("staff")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(browsing.base_url + "/")
    browsing.goto(reverse("ratings:rayter_import", args=[league.slug]))

    box = page.locator("#id_replace").bounding_box()
    label = page.locator('label[for="id_replace"]').bounding_box()
    help_text = page.locator("#id_replace_helptext").bounding_box()
    assert label["x"] > box["x"] + box["width"]  # beside the box, after it
    assert abs((label["y"] + label["height"] / 2) - (box["y"] + box["height"] / 2)) < 12
    assert help_text["y"] >= label["y"] + label["height"] - 1  # under the label
    assert abs(help_text["x"] - label["x"]) < 2  # lined up with it
    assert label["height"] < 40  # one line, not a letter a line
    assert page.locator("#id_replace").get_attribute("aria-describedby") == "id_replace_helptext"
    assert not browsing.scrolls_sideways()
    assert browsing.errors == []
