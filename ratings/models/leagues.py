"""A league: what it plays, how it is rated, its provisional and inactive thresholds."""

from __future__ import annotations

import math
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ratings.systems import Kind, RatingSystem, System, rating_system

# Bounds a club will not need to pass: a threshold past them is a typing mistake.
MAX_PROVISIONAL_GAMES = 1000
MAX_INACTIVE_DAYS = 3650


class Confirmation(models.TextChoices):
    """Who must agree before a member's game counts (staff entries count at once)."""

    NONE = "none", _("Nobody: a member's game counts at once")
    ANOTHER_SEAT = "another_seat", _("Another player at the table")
    EVERY_SEAT = "every_seat", _("Every other player at the table with a login")


class League(models.Model):
    name = models.CharField(_("name"), max_length=80, unique=True)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    system = models.CharField(_("rating system"), max_length=24, choices=System.choices)
    start_rating = models.FloatField(
        _("start rating"), default=1000, help_text=_("Every new player's first rating.")
    )
    game_name = models.CharField(
        _("game name"), max_length=80, blank=True, help_text=_("e.g. Hearts; used in rayter files.")
    )
    description = models.TextField(_("description"), blank=True)
    provisional_games = models.PositiveSmallIntegerField(
        _("provisional until"),
        null=True,
        blank=True,
        help_text=_(
            "Players with fewer games are listed after the ranked ones, unranked. Empty: the "
            "system's default (10 games for Preferans and scored games, 0 for head-to-head)."
        ),
    )
    inactive_days = models.PositiveSmallIntegerField(
        _("inactive after (days)"),
        null=True,
        blank=True,
        help_text=_(
            "Players without a game for this many days are hidden from the ranking (a toggle "
            "shows them). Empty: never."
        ),
    )
    confirmation = models.CharField(
        _("confirmation"),
        max_length=16,
        choices=Confirmation.choices,
        default=Confirmation.NONE,
        help_text=_(
            "A game a member enters waits, unrated, until the table agrees (docs/confirmation.md)."
        ),
    )
    confirmation_hours = models.PositiveSmallIntegerField(
        _("confirmed after (hours)"),
        default=24,
        help_text=_("A waiting game nobody disputed counts after this many hours."),
    )
    # The rating system's own settings (K-factor, speed, refe cap…), as its settings form
    # declares and checks them (RatingSystem.settings_form); read through ``system_settings``.
    settings = models.JSONField(_("settings"), default=dict, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        constraints = [
            models.CheckConstraint(
                condition=Q(system__in=System.values), name="league_system_known"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("ratings:leaderboard", args=[self.slug])

    def clean(self) -> None:
        errors = {}
        if self.provisional_games is not None and self.provisional_games > MAX_PROVISIONAL_GAMES:
            errors["provisional_games"] = ngettext(
                "At most %(most)d game: empty uses the system's default.",
                "At most %(most)d games: empty uses the system's default.",
                MAX_PROVISIONAL_GAMES,
            ) % {"most": MAX_PROVISIONAL_GAMES}
        if self.inactive_days is not None and not 1 <= self.inactive_days <= MAX_INACTIVE_DAYS:
            errors["inactive_days"] = ngettext(
                "From 1 to %(most)d day: empty hides nobody.",
                "From 1 to %(most)d days: empty hides nobody.",
                MAX_INACTIVE_DAYS,
            ) % {"most": MAX_INACTIVE_DAYS}
        if errors:
            raise ValidationError(errors)
        if self.start_rating is None or not math.isfinite(self.start_rating):
            raise ValidationError({"start_rating": _("The start rating must be a finite number.")})
        if self.integer_ratings and self.start_rating != int(self.start_rating):
            raise ValidationError(
                {"start_rating": _("This rating system uses whole numbers: use a whole number.")}
            )
        try:
            system = self.rating_system
        except KeyError:
            return  # an unknown system: the field's own choices refuse it
        try:
            self.settings = system.clean_settings(self.settings)
        except ValidationError as error:
            raise ValidationError({"settings": error.messages}) from None

    @property
    def rating_system(self) -> RatingSystem:
        """The object that knows this league's rules: ask it, do not compare system codes."""
        return rating_system(self.system)

    # Shortcuts to the system, for templates and queries that read the league.

    @property
    def system_settings(self) -> dict:
        """The league's settings of its rating system, each missing one at its default."""
        return self.rating_system.settings_of(self)

    @property
    def kind(self) -> Kind:
        return self.rating_system.kind

    @property
    def lower_is_better(self) -> bool:
        """prefko ratings fall when a player wins: there a LOWER rating is better."""
        return self.rating_system.lower_is_better

    @property
    def integer_ratings(self) -> bool:
        return self.rating_system.integer_ratings

    @property
    def provisional_until(self) -> int:
        """Players with fewer games than this are provisional (0: nobody is)."""
        if self.provisional_games is None:
            return self.rating_system.default_provisional_games
        return self.provisional_games

    @property
    def has_thresholds(self) -> bool:
        return bool(self.rating_system.provisional_rule(self) or self.inactive_days)

    def inactive_before(self, now=None):
        """Players whose last game is before this moment are inactive (None: nobody is)."""
        if not self.inactive_days:
            return None
        return (now or timezone.now()) - timedelta(days=self.inactive_days)
