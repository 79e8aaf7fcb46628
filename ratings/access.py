"""Who may do what: one helper per object, so every view asks the same question the same way.

- Reading: everyone, or only logged-in members when the club is private (CLUB_PRIVATE).
- Entering games and adding players: logged-in members.
- Everything else (editing, deleting and restoring games in the admin, importing files on the
  import page): active staff holding Django's permission for it, asked through :func:`may` by the
  admin and the pages alike. Being staff alone only opens the admin's door: a staff account with
  just the ``view_*`` permissions reads and changes nothing. Importing a file adds games
  (``add_game``); replacing a league's games deletes them too (``delete_game`` as well).
- Running club nights and tournaments: :mod:`ratings.events.access`, the events' own.
"""

from functools import wraps

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from ratings.models import Game, League


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
