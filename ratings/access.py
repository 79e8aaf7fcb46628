"""Who may do what: one helper per object, so every view asks the same question the same way.

- Reading: everyone, or only logged-in members when the club is private (CLUB_PRIVATE).
- Entering games and adding players: logged-in members.
- Everything else (editing, deleting and restoring games in the admin, importing files on the
  import page): active staff holding Django's permission for it, asked through :func:`may` by the
  admin and the pages alike. Being staff alone only opens the admin's door: a staff account with
  just the ``view_*`` permissions reads and changes nothing. Importing a file adds games
  (``add_game``); replacing a league's games deletes them too (``delete_game`` as well).
- Running club nights and tournaments: staff with ``add_event``, or a member given the permission
  "Can run club nights and tournaments" (``run_events``, in the admin's user page) creates events;
  an event is run (players, draws, closing) by its organiser while they hold that right, and by
  staff with ``change_event``. Entering a table's paper is entering a game: any member.
"""

from functools import wraps

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from ratings.models import Event, EventTable, Game, League


def club_readable(view):
    """Let visitors read the club's pages, unless the club is private and they are anonymous."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if settings.CLUB_PRIVATE and not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return wrapper


def can_enter_games(user) -> bool:
    return user.is_authenticated and user.is_active


def may(user, action: str, model) -> bool:
    """Whether ``user`` is active staff holding Django's ``<action>_<model>`` permission
    (``view``, ``add``, ``change`` or ``delete``); superusers hold them all."""
    if not (user.is_authenticated and user.is_active and user.is_staff):
        return False
    opts = model._meta
    return user.has_perm(f"{opts.app_label}.{action}_{opts.model_name}")


def can_import_games(user, *, replace: bool = False) -> bool:
    """Importing adds games; replacing first deletes every game of the league."""
    return may(user, "add", Game) and (not replace or may(user, "delete", Game))


def get_league_for_entry(request, slug: str) -> League:
    """The league a member is entering a game into: 404 if it does not exist, 403 for visitors."""
    league = get_object_or_404(League, slug=slug)
    if not can_enter_games(request.user):
        raise PermissionDenied
    return league


def get_league_for_import(request, slug: str) -> League:
    """The league staff import a file into: 404 if it does not exist, 403 without ``add_game``."""
    league = get_object_or_404(League, slug=slug)
    if not can_import_games(request.user):
        raise PermissionDenied
    return league


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
