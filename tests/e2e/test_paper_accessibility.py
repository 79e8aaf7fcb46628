"""The digital paper's page in axe, as the paper in progress with a repealed deal (the struck
number and its "bring back" button) and finished, at 360 and 1280 px in the three languages:
no serious or critical violation (the repealed deal once failed colour contrast)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import Player, System
from ratings.papers import services
from tests.builders import make_league
from tests.papers.deals import SHORT_GAME

from .builders import DESKTOP, PASSWORD, PHONE, Audit, log_in


@pytest.fixture
def papers(django_user_model):
    league = make_league(System.PREFKO, name="Preferans", provisional_games=0)
    players = [Player.objects.create_named(name) for name in ("Ana", "Boris", "Ceca")]
    django_user_model.objects.create_user("marko", password=PASSWORD)
    in_progress = services.paper_start(league=league, players=players, bula=10)
    for after, said in enumerate(SHORT_GAME[:3]):
        services.deal_add(paper=in_progress, hand=said, after=after)
    services.deal_repeal(paper=in_progress, number=2)
    finished = services.paper_start(league=league, players=players, bula=10)
    for after, said in enumerate(SHORT_GAME):
        services.deal_add(paper=finished, hand=said, after=after)
    services.deal_repeal(paper=finished, number=3)
    services.paper_finish(paper=finished, ended_early=True)
    return in_progress, finished


@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_a_paper_with_a_repealed_deal_passes_axe(open_browser, papers, size, viewport):
    browsing = open_browser(viewport)
    log_in(browsing)
    for language in ("en", "sr-latn", "ru"):
        browsing.page.context.add_cookies(
            [{"name": "django_language", "value": language, "url": browsing.base_url}]
        )
        audit = Audit(browsing, f"{language} {size}")
        for paper in papers:
            audit.visit(reverse("ratings:paper", args=[paper.pk]))
            audit.check(f"paper {paper.pk}")
        assert audit.failures == [], "\n".join(audit.failures)
    assert browsing.errors == []
