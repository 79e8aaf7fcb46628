"""A member's report of a mistake in a game they played (ratings/models/reports.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ratings.forms.reports import GameReportForm, played_in
from ratings.models import Game, GameReport


@login_required
@require_POST
def game_report(request: HttpRequest, pk: int) -> HttpResponse:
    """Only staff edit games: a player of the game tells them what is wrong."""
    game = get_object_or_404(Game, pk=pk)
    if not played_in(request.user, game.results.all()):
        raise PermissionDenied
    form = GameReportForm(request.POST)
    if form.is_valid():
        GameReport.objects.create(
            game=game, reported_by=request.user, note=form.cleaned_data["note"]
        )
        messages.success(request, _("Thank you: the staff will look at this game."))
    else:
        messages.error(request, _("Write what is wrong, in at most 1000 characters."))
    return redirect(game)
