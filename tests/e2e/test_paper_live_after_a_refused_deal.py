"""A phone told its deal was refused still follows the paper live.

The refusal is rendered at the deal form's address (/papers/<id>/deal/, POST only); the live
refresh fetched the page's own address, got 405 every five seconds and never showed the other
phone's deal: on the phone that most needs to see it.
"""

from __future__ import annotations

import pytest

from ratings.models import System
from ratings.papers import services
from tests.builders import make_league, make_players
from tests.papers.deals import REFA, played

from .builders import ANOTHER_PHONE, PASSWORD, PHONE, log_in


@pytest.mark.django_db(transaction=True)
def test_a_phone_whose_deal_was_refused_still_sees_new_deals(open_browser, django_user_model):
    league = make_league(System.PREFKO, name="Preferans", provisional_games=0)
    players = make_players(["Ana", "Boris", "Ceca"])
    django_user_model.objects.create_user("marko", password=PASSWORD)
    paper = services.paper_start(league=league, players=players, bula=10, refas=1)
    services.deal_add(paper=paper, hand=REFA, after=0)

    phone = open_browser(PHONE)
    page = phone.page
    log_in(phone)
    phone.goto(f"/papers/{paper.pk}/")
    form = page.locator("form[data-deal-form]")
    form.locator("button[value=refa]").click()
    page.get_by_text("no more refe, the cap is 1").first.wait_for()

    # Another phone enters the next deal.
    with ANOTHER_PHONE:
        services.deal_add(
            paper=paper, hand=played(1, "pik", followers=[(2, "followed", 2, False)]), after=1
        )
    page.locator("ol.deal-list > li").nth(1).wait_for()
    assert phone.errors == []
    assert not phone.scrolls_sideways()
