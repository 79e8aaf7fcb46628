"""Who may do what: one helper per object, so every view asks the same question the same way.

- Reading: everyone, or only logged-in members when the club is private (CLUB_PRIVATE).
- Entering games and adding players: logged-in members.
- Editing and deleting games, importing files: staff (in Django admin or the import page).
"""

from functools import wraps

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from ratings.models import League


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


def can_edit_games(user) -> bool:
    return user.is_authenticated and user.is_active and user.is_staff


def get_league_for_entry(request, slug: str) -> League:
    """The league a member is entering a game into: 404 if it does not exist, 403 for visitors."""
    league = get_object_or_404(League, slug=slug)
    if not can_enter_games(request.user):
        raise PermissionDenied
    return league


def get_league_for_staff(request, slug: str) -> League:
    league = get_object_or_404(League, slug=slug)
    if not can_edit_games(request.user):
        raise PermissionDenied
    return league
