"""A member's report of a mistake in a game they played: its form, and who may send one."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from ratings.models.reports import NOTE_LENGTH


class GameReportForm(forms.Form):
    note = forms.CharField(
        label=gettext_lazy("What is wrong?"),
        max_length=NOTE_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


def played_in(user, results) -> bool:
    """Whether the member's own player sat at this game (its results, already loaded)."""
    player = getattr(user, "player", None) if user.is_authenticated else None
    return player is not None and any(result.player_id == player.pk for result in results)
