"""Nights planned ahead and the calendar: planning a night, a member's one-tap answer, starting
or cancelling a planned night, the calendar feeds and a member's private calendar address.

Writes go through :mod:`ratings.events.planning`, the feeds are drawn by
:mod:`ratings.events.calendar`. The feeds are not page-cached: each is one query (two at a
private address). A private club (``CLUB_PRIVATE``) serves them only at a member's private
address, since a calendar app cannot log in: its public addresses answer 404.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ratings.access import club_readable
from ratings.events import calendar, planning
from ratings.events.access import get_event_to_run, get_league_for_events
from ratings.events.answers import answers_of
from ratings.events.forms import AnswerForm, MoveForm, NightForm, StartForm
from ratings.events.models import Answer, Event
from ratings.models import League

# The session key of a private calendar address just made, shown once by the next page.
NEW_FEED_KEY = "ratings.new_calendar_key"


@login_required
@require_http_methods(["GET", "POST"])
def night_new(request: HttpRequest, slug: str) -> HttpResponse:
    """Plan a night ahead: when, where and its rules; members then answer whether they come."""
    league = get_league_for_events(request, slug)
    if request.method == "POST":
        form = NightForm(request.POST, league=league)
        if form.is_valid():
            event = form.save(organiser=request.user)
            messages.success(
                request,
                _("%(name)s is planned: members can now answer whether they come.")
                % {"name": event.name},
            )
            return redirect(event)
    else:
        form = NightForm(league=league)
    return render(request, "ratings/night_new.html", {"league": league, "form": form})


def _back(request: HttpRequest, event: Event) -> HttpResponse:
    """Back where the answer was given (the home page or the night's page), never elsewhere."""
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect(event)


@login_required
@require_POST
def night_answer(request: HttpRequest, pk: int) -> HttpResponse:
    """A member's one-tap answer to a planned night: coming, maybe or can't come."""
    event = get_object_or_404(Event.objects.select_related("league"), pk=pk)
    player = getattr(request.user, "player", None)
    form = AnswerForm(request.POST)
    if player is None:
        messages.error(request, _("Your login has no player of the club to answer for."))
    elif not form.is_valid():
        messages.error(request, _("Choose coming, maybe or can't come."))
    else:
        try:
            planning.night_answer(event=event, player=player, answer=form.cleaned_data["answer"])
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            said = {
                Answer.COMING: _("You are coming to %(name)s."),
                Answer.MAYBE: _("You may come to %(name)s."),
                Answer.NO: _("You can't come to %(name)s."),
            }[form.cleaned_data["answer"]]
            messages.success(request, said % {"name": event.name})
    return _back(request, event)


@login_required
@require_POST
def night_start(request: HttpRequest, pk: int) -> HttpResponse:
    """Start a planned night with the players the organiser kept of those who answered."""
    event = get_event_to_run(request, pk)
    answers = answers_of([event])[event.pk]
    form = StartForm(request.POST, answers=answers)
    if not form.is_valid():
        messages.error(request, _("Choose the players present among those who answered."))
        return redirect(event)
    try:
        planning.night_start(event=event, players=form.cleaned_data["players"], actor=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request,
            _("%(name)s has started: add any late arrivals, then draw the first round.")
            % {"name": event.name},
        )
    return redirect(event)


@login_required
@require_POST
def night_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_event_to_run(request, pk)
    try:
        planning.night_cancel(event=event, actor=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("%(name)s is cancelled.") % {"name": event.name})
    return redirect(event)


@login_required
@require_POST
def night_move(request: HttpRequest, pk: int) -> HttpResponse:
    """Another time or place for a planned night."""
    event = get_event_to_run(request, pk)
    form = MoveForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, " ".join(errors))
        return redirect(event)
    try:
        planning.night_move(
            event=event,
            starts_at=form.cleaned_data["starts_at"],
            place=form.cleaned_data["place"].strip(),
            actor=request.user,
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("%(name)s is moved.") % {"name": event.name})
    return redirect(event)


# The calendar -------------------------------------------------------------------------------------


def _ics(request: HttpRequest, events, *, name: str, filename: str) -> HttpResponse:
    body = calendar.calendar_file(events, name=name, absolute=request.build_absolute_uri)
    response = HttpResponse(body, content_type=calendar.CONTENT_TYPE)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _public_feeds() -> None:
    """A private club's feeds are at its members' private addresses only."""
    if settings.CLUB_PRIVATE:
        raise Http404("This club's calendars are at its members' private addresses")


@require_safe
def club_feed(request: HttpRequest) -> HttpResponse:
    """Every league's nights: ``/events.ics``."""
    _public_feeds()
    return _ics(request, calendar.feed_events(), name=settings.CLUB_NAME, filename="club.ics")


@require_safe
def league_feed(request: HttpRequest, slug: str) -> HttpResponse:
    """A league's nights: ``/leagues/<slug>/events.ics``."""
    _public_feeds()
    return _league_ics(request, slug)


def _league_ics(request: HttpRequest, slug: str) -> HttpResponse:
    league = get_object_or_404(League, slug=slug)
    return _ics(
        request,
        calendar.feed_events(league=league),
        name=f"{settings.CLUB_NAME}: {league.name}",
        filename=f"{league.slug}.ics",
    )


def _owner(key: str):
    user = calendar.feed_owner(key)
    if user is None:
        raise Http404("No such calendar")
    return user


@require_safe
def private_club_feed(request: HttpRequest, key: str) -> HttpResponse:
    _owner(key)
    return _ics(request, calendar.feed_events(), name=settings.CLUB_NAME, filename="club.ics")


@require_safe
def private_league_feed(request: HttpRequest, key: str, slug: str) -> HttpResponse:
    _owner(key)
    return _league_ics(request, slug)


@require_safe
def my_feed(request: HttpRequest, key: str) -> HttpResponse:
    """The nights the address's member answered "coming" to."""
    user = _owner(key)
    return _ics(
        request,
        calendar.member_events(user),
        name=_("%(club)s: my nights") % {"club": settings.CLUB_NAME},
        filename="my-nights.ics",
    )


@require_safe
@club_readable
def event_ics(request: HttpRequest, pk: int) -> HttpResponse:
    """One night's file, for the night page's "Add to calendar" (the member's own browser
    downloads it, logged in: a private club serves it to members)."""
    event = get_object_or_404(Event.objects.select_related("league"), pk=pk)
    return _ics(request, [event], name=event.name, filename=f"night-{event.pk}.ics")


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def calendar_settings(request: HttpRequest) -> HttpResponse:
    """The member's calendar: the feeds to subscribe to, and their private address (made,
    made again, or revoked; shown once when made)."""
    if request.method == "POST":
        if request.POST.get("action") == "revoke":
            if calendar.feed_revoke(request.user):
                messages.success(request, _("Your private calendar address is revoked."))
        else:
            request.session[NEW_FEED_KEY] = calendar.feed_make(request.user)
        return redirect("ratings:calendar_settings")
    key = request.session.pop(NEW_FEED_KEY, None)
    absolute = request.build_absolute_uri
    leagues = list(League.objects.order_by("name"))
    private = None
    if key is not None:
        private = {
            "mine": absolute(reverse("ratings:my_feed", args=[key])),
            "club": absolute(reverse("ratings:private_club_feed", args=[key])),
            "leagues": [
                (
                    league.name,
                    absolute(reverse("ratings:private_league_feed", args=[key, league.slug])),
                )
                for league in leagues
            ],
        }
    public = None
    if not settings.CLUB_PRIVATE:
        public = {
            "club": absolute(reverse("ratings:club_feed")),
            "leagues": [
                (league.name, absolute(reverse("ratings:league_feed", args=[league.slug])))
                for league in leagues
            ],
        }
    return render(
        request,
        "ratings/calendar_settings.html",
        {
            "private": private,
            "public": public,
            "has_address": hasattr(request.user, "calendar_feed"),
        },
    )
