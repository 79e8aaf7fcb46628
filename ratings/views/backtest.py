"""The backtest page of a league: which rating system predicts its own games best."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from ratings import backtest, versioning
from ratings.access import club_readable
from ratings.algorithms.backtest import MIN_GAMES, MIN_PAIRS
from ratings.page_cache import cached_page
from ratings.throttling import heavy_read


@require_safe
@club_readable
@cached_page(shows=versioning.LEAGUE_BY_SLUG)
@heavy_read
def league_backtest(request: HttpRequest, slug: str) -> HttpResponse:
    """Every fitting system replayed over the league's games, each game predicted from the
    ratings before it (ratings/backtest.py; docs/backtest.md). A small league is replayed
    here; a big one shows the figures its ``backtest`` command stored: anyone may open this
    page, and a replay of 10,000 games takes seconds."""
    league = backtest.league_for_page(slug)
    if league is None:
        raise Http404
    return render(
        request,
        "ratings/league_backtest.html",
        {
            "league": league,
            "backtest": backtest.shown_backtest(league),
            "new_games": backtest.NEW_GAMES,
            "min_games": MIN_GAMES,
            "min_pairs": MIN_PAIRS,
        },
    )
