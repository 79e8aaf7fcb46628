"""Games waiting for the table's confirmation (:mod:`ratings.entry.confirmation`): the page
of one, and confirming, disputing or deleting it, one tap each."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ratings import entry
from ratings.access import club_readable
from ratings.entry import confirmation, selectors
from ratings.entry.models import HeldGame, HeldStatus
from ratings.forms.reports import GameReportForm


@club_readable
def held_game(request: HttpRequest, key) -> HttpResponse:
    held = get_object_or_404(selectors.held_games(), key=key)
    if held.status == HeldStatus.CONFIRMED and held.game_id is not None:
        return redirect(held.game)
    user = request.user
    return render(
        request,
        "ratings/held_game.html",
        {
            "held": held,
            "league": held.league,
            "seats": list(held.seats.all()),
            "deciders": confirmation.who_may_agree(held),
            "may_confirm": confirmation.may_confirm(held, user),
            "may_dispute": confirmation.may_dispute(held, user),
            "may_withdraw": confirmation.may_withdraw(held, user),
            "dispute_form": GameReportForm(),
        },
    )


def _act(request: HttpRequest, key, act) -> HttpResponse:
    held = get_object_or_404(HeldGame.objects.select_related("league"), key=key)
    try:
        held = act(held)
    except entry.NotAllowed:
        raise PermissionDenied from None
    except entry.NotWaiting as gone:
        messages.info(request, gone.message)
    except entry.Refused as refused:
        messages.error(request, " ".join(refused.messages))
    return redirect(held.game if held.game_id is not None else held)


@login_required
@require_POST
def held_confirm(request: HttpRequest, key) -> HttpResponse:
    def act(held):
        held = confirmation.confirm(held, user=request.user)
        if held.status == HeldStatus.CONFIRMED:
            messages.success(request, _("Confirmed: the game counts and is rated."))
        else:
            messages.success(request, _("Thank you: the game counts once the others confirm."))
        return held

    return _act(request, key, act)


@login_required
@require_POST
def held_dispute(request: HttpRequest, key) -> HttpResponse:
    form = GameReportForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Write what is wrong, in at most 1000 characters."))
        return redirect("ratings:held_game", key)

    def act(held):
        held = confirmation.dispute(held, user=request.user, note=form.cleaned_data["note"])
        messages.success(request, _("Disputed: the game is not rated, and the staff will decide."))
        return held

    return _act(request, key, act)


@login_required
@require_POST
def held_withdraw(request: HttpRequest, key) -> HttpResponse:
    def act(held):
        held = confirmation.withdraw(held, user=request.user)
        messages.success(request, _("The waiting game was deleted."))
        return held

    return _act(request, key, act)
