"""The backtest page of a league: which rating system predicts its own games best."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from ratings import versioning
from ratings.access import club_readable
from ratings.algorithms.backtest import MIN_GAMES, MIN_PAIRS
from ratings.backtest import page, run, stored
from ratings.page_cache import cached_page
from ratings.throttling import heavy_read


@require_safe
@club_readable
@cached_page(shows=versioning.LEAGUE_BY_SLUG)
@heavy_read
def league_backtest(request: HttpRequest, slug: str) -> HttpResponse:
    """Every fitting system replayed over the league's games, each game predicted from the
    ratings before it (ratings/backtest/; docs/backtest.md). A small league is replayed
    here; a big one shows the figures its ``backtest`` command stored: anyone may open this
    page, and a replay of 10,000 games takes seconds."""
    league = page.league_for_page(slug)
    if league is None:
        raise Http404
    return render(
        request,
        "ratings/league_backtest.html",
        {
            "league": league,
            "backtest": page.shown_backtest(league),
            "runs_in_request": page.runs_in_request(league),
            "new_games": run.NEW_GAMES,
            "min_games": MIN_GAMES,
            "min_pairs": MIN_PAIRS,
        },
    )


# Storing a league's figures is a write: staff with the permission for it, not every staff.
RUN_PERMISSION = "ratings.change_storedbacktest"


@login_required
@require_POST
def league_backtest_run(request: HttpRequest, slug: str) -> HttpResponse:
    """Staff compute a big league's backtest from its page, for the page to show: while the
    request waits, for a league of at most ``page.REQUEST_GAMES`` games (the worker will
    take this over)."""
    if not request.user.has_perm(RUN_PERMISSION):
        raise PermissionDenied
    league = page.league_for_page(slug)
    if league is None:
        raise Http404
    if page.runs_in_request(league):
        stored.backtest_stored(league=league, result=run.league_backtest(league))
        messages.success(request, _("The backtest is computed."))
    else:
        messages.error(
            request,
            _("Too many games to compute while the page waits: run the backtest command."),
        )
    return redirect("ratings:backtest", slug=league.slug)
