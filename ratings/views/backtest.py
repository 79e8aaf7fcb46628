"""The backtest page of a league: which rating system predicts its own games best."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from ratings import backtest
from ratings.access import club_readable
from ratings.algorithms.backtest import MIN_GAMES, MIN_PAIRS
from ratings.models import League
from ratings.page_cache import cached_page


@require_safe
@club_readable
@cached_page
def league_backtest(request: HttpRequest, slug: str) -> HttpResponse:
    """Every fitting system replayed over the league's games, each game predicted from the
    ratings before it (ratings/backtest.py; docs/backtest.md)."""
    league = get_object_or_404(League, slug=slug)
    return render(
        request,
        "ratings/league_backtest.html",
        {
            "league": league,
            "backtest": backtest.league_backtest(league),
            "new_games": backtest.NEW_GAMES,
            "min_games": MIN_GAMES,
            "min_pairs": MIN_PAIRS,
        },
    )
