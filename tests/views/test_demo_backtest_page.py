"""The demo's leagues show their backtest figures, the big Preferans league's included."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import League

pytestmark = pytest.mark.django_db


def test_every_demo_league_shows_its_backtest_figures(demo_club, client):
    """Preferans has more games than a page replays (``ratings.backtest.page.LIVE_GAMES``): the
    demo stores its figures as the ``backtest`` command would, so a newcomer's first look is not
    an empty page."""
    for slug in League.objects.values_list("slug", flat=True):
        html = client.get(reverse("ratings:backtest", args=[slug])).content.decode()
        assert "has not been computed yet" not in html, slug
        assert "Brier score" in html, slug
