"""The accounts' forms: the login an invited person chooses (Django's own user-creation form:
its username rules and the club's password validators) and a member's claim of a player."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from ratings.accounts.models import NOTE_LENGTH
from ratings.form_fields import PlayerNameField
from ratings.forms import find_player
from ratings.models import Player


class InvitationForm(UserCreationForm):
    """A username and a password typed twice. Only validates: the login is made by
    ``services.invitation_accept``, with the player linked in the same transaction."""

    def __init__(self, *args, player: Player, **kwargs):
        super().__init__(*args, **kwargs)
        # The password may not look like the player's name either.
        self.instance.first_name = player.name
        self.fields["username"].widget.attrs["autocomplete"] = "username"


class ClaimForm(forms.Form):
    player = PlayerNameField(
        label=_("Your player"),
        help_text=_("Your name as the club's papers write it."),
    )
    note = forms.CharField(
        label=_("Note for the staff"),
        required=False,
        max_length=NOTE_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Optional: how the staff can tell it is you."),
    )

    def clean_player(self) -> Player:
        typed = self.cleaned_data["player"]
        return find_player(
            typed,
            Player.objects.filter(user__isnull=True),
            not_found=str(_("The club has no player without a login called %(value)s.")),
        )
