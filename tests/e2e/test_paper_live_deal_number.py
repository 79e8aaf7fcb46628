"""A phone that watched another phone's deal arrive enters the next one.

The live refresh updated the paper and the deal list but not the form: it still said "Deal 2"
with the deals it was seen after, and the next deal was refused. A refusal also left the phone
on the deal form's POST-only address.
"""

from __future__ import annotations

import re

import pytest

from ratings.models import System
from ratings.papers import services
from tests.builders import make_league, make_players
from tests.papers.deals import REFA, played

from .builders import ANOTHER_PHONE, PASSWORD, PHONE, log_in


@pytest.fixture
def paper(django_user_model):
    league = make_league(System.PREFKO, name="Preferans", provisional_games=0)
    players = make_players(["Ana", "Boris", "Ceca"])
    django_user_model.objects.create_user("marko", password=PASSWORD)
    return services.paper_start(league=league, players=players, bula=10)


@pytest.mark.django_db(transaction=True)
def test_a_watching_phone_enters_the_deal_after_the_one_it_saw_arrive(open_browser, paper):
    phone = open_browser(PHONE)
    page = phone.page
    log_in(phone)
    phone.goto(f"/papers/{paper.pk}/")
    page.get_by_role("heading", name="Deal 1").wait_for()

    with ANOTHER_PHONE:
        services.deal_add(paper=paper, hand=REFA, after=0)
    page.get_by_role("heading", name="Deal 2").wait_for()
    form = page.locator("form[data-deal-form]")
    form.locator("button[value=refa]").click()
    page.get_by_role("heading", name="Deal 3").wait_for()
    assert paper.deals.count() == 2
    assert phone.errors == []
    assert not phone.scrolls_sideways()


@pytest.mark.django_db(transaction=True)
def test_a_refused_deal_leaves_the_phone_on_the_papers_address(open_browser, paper):
    phone = open_browser(PHONE)
    page = phone.page
    log_in(phone)
    phone.goto(f"/papers/{paper.pk}/")
    form = page.locator("form[data-deal-form]")
    form.locator("[data-seat-button='2']").click()  # a tap: the pad keeps its number
    # Another phone enters a deal while this one taps.
    with ANOTHER_PHONE:
        services.deal_add(
            paper=paper, hand=played(1, "pik", followers=[(2, "followed", 2, False)]), after=0
        )
    form.locator("button[value=refa]").click()
    page.get_by_text("another phone entered one meanwhile").first.wait_for()
    assert re.search(rf"/papers/{paper.pk}/$", page.url)
    # The pad is for the deal after the other phone's: tapped again.
    form.locator("button[value=refa]").click()
    page.get_by_role("heading", name="Deal 3").wait_for()
    assert paper.deals.count() == 2
    assert phone.errors == []
