"""A member's report of a mistake in a game they played: its form, who may send one, and the
reports they sent."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from ratings.models.reports import NOTE_LENGTH, GameReport


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


def reports_by(user, game) -> list[GameReport]:
    """The reports the member sent about this game, newest first."""
    return list(GameReport.objects.filter(game=game, reported_by=user).order_by("-created_at"))
