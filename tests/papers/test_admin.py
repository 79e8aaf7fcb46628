"""Digital papers in the admin: a corrected deal redraws the paper and re-rates its game."""

import json

import pytest
from django.urls import reverse

from ratings.models import Deal, System
from ratings.papers import services
from tests.builders import T0
from tests.papers.deals import SHORT_GAME, enter, played, start
from tests.replays import assert_unchanged_by_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(make_league, make_player):
    league = make_league(System.PREFKO)
    table = (league, [make_player(name) for name in ("Ana", "Boris", "Ceca")])
    paper = start(table)
    enter(paper, SHORT_GAME)
    services.paper_finish(paper=paper, played_at=T0)
    paper.refresh_from_db()
    return paper


def test_a_corrected_deal_re_rates_the_game_through_the_engine(admin_client, finished):
    deal = Deal.objects.get(paper=finished, number=4)
    changed = played(3, "pik", on_refa=True, kontra=2, followers=[(2, "followed", 1, False)])
    response = admin_client.post(
        reverse("admin:ratings_deal_change", args=[deal.pk]),
        {"entered": json.dumps(changed), "repealed": ""},
    )
    assert response.status_code == 302
    game = finished.game
    assert [r.paper for r in game.results.order_by("seat")] == [
        (0, -2, 0),
        (24, 2, 32),
        (8, -22, 0),
    ]
    assert_unchanged_by_recompute(finished.league)


def test_a_deal_the_rules_refuse_is_a_form_error_and_changes_nothing(admin_client, finished):
    deal = Deal.objects.get(paper=finished, number=2)
    before = [r.paper for r in finished.game.results.order_by("seat")]
    response = admin_client.post(
        reverse("admin:ratings_deal_change", args=[deal.pk]),
        {"entered": json.dumps({"refa": True}), "repealed": "on"},
    )
    assert response.status_code == 200
    assert "hand 2: a refa cannot be repealed" in response.content.decode()
    assert [r.paper for r in finished.game.results.order_by("seat")] == before


def test_the_paper_and_deal_pages_render(admin_client, finished):
    for url in (
        reverse("admin:ratings_digitalpaper_changelist"),
        reverse("admin:ratings_digitalpaper_change", args=[finished.pk]),
        reverse("admin:ratings_deal_changelist"),
        reverse("admin:ratings_deal_change", args=[finished.deals.first().pk]),
    ):
        assert admin_client.get(url).status_code == 200, url
