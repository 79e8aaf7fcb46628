"""A league's last backtest, stored: the page shows it instead of replaying the league."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from ratings.models.leagues import League


class StoredBacktest(models.Model):
    """The figures of a league's last backtest (:func:`ratings.backtest.stored.as_json`), with
    when it was computed and over how many games.

    A backtest replays the whole league under every fitting system: about 20 s for 10,000
    games. The page is public and drawn again after every write, so a big league's page shows
    this row, computed by the ``backtest`` command, and never replays (docs/backtest.md).
    """

    league = models.OneToOneField(
        League, verbose_name=_("league"), on_delete=models.CASCADE, related_name="stored_backtest"
    )
    computed_at = models.DateTimeField(_("computed at"))
    games = models.PositiveIntegerField(_("games"))
    figures = models.JSONField(_("figures"))

    class Meta:
        verbose_name = _("stored backtest")
        verbose_name_plural = _("stored backtests")

    def __str__(self) -> str:
        return f"{self.league} ({self.games})"
