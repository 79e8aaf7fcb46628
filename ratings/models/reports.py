"""A member's report of a mistake in a game they played: a short note to the staff, who alone
may edit games. Shown in the admin with the game; never changes a rating by itself."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ratings.models.games import Game

NOTE_LENGTH = 1000


class GameReport(models.Model):
    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="reports"
    )
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("reported by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    note = models.TextField(_("what is wrong"), max_length=NOTE_LENGTH)
    created_at = models.DateTimeField(_("reported at"), auto_now_add=True)
    resolved = models.BooleanField(_("resolved"), default=False)

    class Meta:
        verbose_name = _("mistake report")
        verbose_name_plural = _("mistake reports")

    def __str__(self) -> str:
        return f"Game {self.game_id}: {self.note[:40]}"
