from django.conf import settings
from django.utils.functional import SimpleLazyObject


def club(request):
    """The club's name, for the base layout."""
    return {"club_name": settings.CLUB_NAME}


def my_player(request):
    """The logged-in member's own player (None if no player is linked to their login), for the
    header's "My page".

    Looked up only when a template asks, and then once: a visitor's page, which never asks,
    costs no query, and a member's one.
    """
    return {"my_player": SimpleLazyObject(lambda: _linked_player(request.user))}


def _linked_player(user):
    if not user.is_authenticated:
        return None
    # The reverse one-to-one raises Player.DoesNotExist (an AttributeError too) when unlinked.
    return getattr(user, "player", None)
