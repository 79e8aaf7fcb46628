"""Who may run club nights and tournaments, and which table's paper a member enters: the events'
own helpers of :mod:`ratings.access`'s kind, one per object.

Running them: staff with ``add_event``, or a member given the permission "Can run club nights
and tournaments" (``run_events``, in the admin's user page) creates events; an event is run
(players, draws, closing) by its organiser while they hold that right, and by staff with
``change_event``. Entering a table's paper is entering a game: any member.
"""

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from ratings.access import may
from ratings.events.models import Event, EventTable
from ratings.models import League


def can_create_events(user) -> bool:
    """Staff with ``add_event``, or a member given the right to run events."""
    if may(user, "add", Event):
        return True
    return user.is_authenticated and user.is_active and user.has_perm("ratings.run_events")


def can_run_event(user, event: Event) -> bool:
    """Whether ``user`` may change the event: its players, draws and closing."""
    if may(user, "change", Event):
        return True
    return event.organiser_id == user.pk and can_create_events(user)


def get_league_for_events(request, slug: str) -> League:
    """The league an organiser creates an event in: 404 if it does not exist, 403 without the
    right (visitors go to the login page first, by the view's login_required)."""
    league = get_object_or_404(League, slug=slug)
    if not can_create_events(request.user):
        raise PermissionDenied
    return league


def get_event_to_run(request, pk: int) -> Event:
    """An event its organiser (or staff) runs: 404 if it does not exist, 403 for anyone else."""
    event = get_object_or_404(Event.objects.select_related("league"), pk=pk)
    if not can_run_event(request.user, event):
        raise PermissionDenied
    return event


def get_table_for_entry(request, league: League) -> EventTable | None:
    """The event table whose paper is entered (``?table=<id>``), or None: 404 for a table that
    does not exist or whose event is another league's. Any member enters a table's paper."""
    table_id = request.GET.get("table")
    if table_id is None:
        return None
    if not (table_id.isascii() and table_id.isdigit() and len(table_id) <= 18):
        raise Http404("No such table")
    return get_object_or_404(
        EventTable.objects.select_related("round__event"),
        pk=int(table_id),
        round__event__league=league,
    )
