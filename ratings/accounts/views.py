"""The accounts' pages: an invitation's link (choose a login, become the player's member) and a
member's account (their player, or a claim of one and its state). Never cached: each is one
person's."""

from __future__ import annotations

import math

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from ratings.accounts import services
from ratings.accounts.forms import ClaimForm, InvitationForm
from ratings.accounts.models import ClaimStatus, Invitation, PlayerClaim
from ratings.models import Player
from ratings.page_cache import cache_call
from ratings.throttling import SettingRateThrottle

# The backend that made the login: Django's, reading the player with the user (ratings/auth.py).
LOGIN_BACKEND = "ratings.auth.ClubBackend"


class InvitationThrottle(SettingRateThrottle):
    """Requests to invitation links per address (``INVITATION_RATE``): a token has 256 bits, so
    this is not what makes guessing hopeless; it keeps anyone from hammering the page."""

    scope = "invitation"
    rate_setting = "INVITATION_RATE"
    default_rate = "20/min"


def _too_many(throttle: InvitationThrottle) -> HttpResponse:
    seconds = math.ceil(throttle.wait())
    response = HttpResponse(
        ngettext(
            "Too many requests from your address. Please try again in %(seconds)d second.",
            "Too many requests from your address. Please try again in %(seconds)d seconds.",
            seconds,
        )
        % {"seconds": seconds},
        status=429,
        content_type="text/plain; charset=utf-8",
    )
    response["Retry-After"] = str(seconds)
    return response


@never_cache
@require_http_methods(["GET", "POST"])
def invitation_accept(request, token: str):
    """An invitation's link: a form for a username and password while it is open; a clear
    page when it is unknown (404) or used, withdrawn or expired, or its player has a login
    (410). Sent, it makes the login, links the player and logs the person in."""
    throttle = InvitationThrottle()
    if cache_call(throttle.allow_request, request) is False:
        return _too_many(throttle)
    invitation = Invitation.objects.by_token(token)
    if invitation is None:
        return _closed(request, _("This invitation link is not valid."), status=404)
    if request.user.is_authenticated:
        return _closed(
            request,
            _("You are logged in as %(user)s: log out to accept this invitation.")
            % {"user": request.user.get_username()},
            status=200,
        )
    try:
        services.invitation_check(invitation)
    except services.InvitationRefused as refused:
        return _closed(request, refused.message, status=410)
    player = invitation.player
    form = InvitationForm(request.POST or None, player=player)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.invitation_accept(
                invitation=invitation,
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
            )
        except services.InvitationRefused as refused:
            return _closed(request, refused.message, status=410)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            login(request, user, backend=LOGIN_BACKEND)
            messages.success(
                request,
                _("Welcome, %(player)s: you are a member of the club.") % {"player": player.name},
            )
            return redirect(player.get_absolute_url())
    return render(request, "ratings/invitation_accept.html", {"form": form, "player": player})


def _closed(request, message: str, *, status: int) -> HttpResponse:
    return render(request, "ratings/invitation_closed.html", {"message": message}, status=status)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def account(request):
    """The member's account: their player, or a claim of a player without a login and the
    state of the claims they made."""
    player = Player.objects.filter(user=request.user).first()
    claims = list(PlayerClaim.objects.filter(user=request.user).select_related("player"))
    waiting = any(claim.status == ClaimStatus.PENDING for claim in claims)
    form = None
    if player is None and not waiting:
        form = ClaimForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                services.claim_create(
                    user=request.user,
                    player=form.cleaned_data["player"],
                    note=form.cleaned_data["note"],
                )
            except ValidationError as error:
                form.add_error(None, error)
            else:
                messages.success(request, _("Your claim is sent to the club's staff."))
                return redirect("ratings:account")
    elif request.method == "POST":
        return redirect("ratings:account")
    names = (
        Player.objects.filter(user__isnull=True).order_by("name").values_list("name", flat=True)
        if form is not None
        else []
    )
    return render(
        request,
        "ratings/account_claim.html",
        {"player": player, "claims": claims, "form": form, "player_names": names},
    )
