"""Logging in: Django's own backend, reading the member's linked player with the user."""

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend


class ClubBackend(ModelBackend):
    """ModelBackend whose ``get_user`` (run once per request for a logged-in member) joins the
    member's player, so the header's "My page" costs no query of its own."""

    def get_user(self, user_id):
        users = get_user_model()._default_manager.select_related("player")
        user = users.filter(pk=user_id).first()
        return user if user is not None and self.user_can_authenticate(user) else None
