"""A game the table has not agreed to yet: a member's submission in a league with confirmation,
held as it was entered until the other players confirm it (or the league's window passes) and
only then recorded through the entry service.

Why not a game row with a flag: a held game has no result, standing, statistic, season row,
export line or backtest entry to leave out, because it is none of those until it counts. The
submission's one-time key stays its identity: the game it becomes carries the same key, so a
held game is found by its key before and after, and recording it twice is impossible.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ratings.events.models import EventTable
from ratings.models import Game, League, Player

NOTE_LENGTH = 1000


class HeldStatus(models.TextChoices):
    PENDING = "pending", _("awaiting confirmation")
    DISPUTED = "disputed", _("disputed")
    CONFIRMED = "confirmed", _("confirmed")
    WITHDRAWN = "withdrawn", _("deleted")


class HeldGameQuerySet(models.QuerySet):
    def waiting(self):
        """Pending or disputed: not rated, not closed."""
        return self.filter(status__in=(HeldStatus.PENDING, HeldStatus.DISPUTED))

    def seating(self, player: Player):
        return self.filter(seats__player=player)


class HeldGame(models.Model):
    # Waiting games are found by held_waiting; closed ones are read by key or by their game.
    league = models.ForeignKey(
        League, verbose_name=_("league"), on_delete=models.CASCADE, related_name="+", db_index=False
    )
    # The submission's one-time key (the client's, or one made for it): the game's identity
    # while it waits, and the key the game it becomes is recorded under.
    key = models.UUIDField(_("key"), unique=True, editable=False)
    played_at = models.DateTimeField(_("played at"))
    bula = models.PositiveIntegerField(_("starting bula"), null=True, blank=True)
    ended_early = models.BooleanField(_("ended early"), default=False)
    note = models.CharField(_("note"), max_length=200, blank=True)
    table = models.ForeignKey(
        EventTable,
        verbose_name=_("table"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )
    # Names (name keys) the member confirmed as new players although close to another's.
    new_names = models.JSONField(_("new names"), default=list, blank=True)
    # What the interface keeps beside the game once it is recorded (a paper to link, a deal
    # log to keep): the name of an after-hook registered with ratings.entry.confirmation, and
    # its JSON arguments.
    after = models.CharField(_("then"), max_length=40, blank=True)
    after_args = models.JSONField(_("then with"), default=dict, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("entered at"), auto_now_add=True)
    # When it counts unless disputed first (the league's window from the entry).
    confirm_by = models.DateTimeField(_("counts by"))
    status = models.CharField(
        _("status"), max_length=16, choices=HeldStatus.choices, default=HeldStatus.PENDING
    )
    disputed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("disputed by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    dispute_note = models.TextField(_("what is wrong"), max_length=NOTE_LENGTH, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("closed by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    # The game it became once confirmed.
    game = models.OneToOneField(
        Game,
        verbose_name=_("game"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="held",
    )

    objects = HeldGameQuerySet.as_manager()

    class Meta:
        verbose_name = _("game awaiting confirmation")
        verbose_name_plural = _("games awaiting confirmation")
        indexes = [
            # The league's waiting games, newest first (its games page, the admin's filter).
            models.Index(
                fields=["league", "-played_at"],
                name="held_waiting",
                condition=Q(status__in=("pending", "disputed")),
            ),
        ]

    def __str__(self) -> str:
        names = ", ".join(seat.name for seat in self.seats.all())
        return f"{self.league}: {names} ({self.get_status_display()})"

    def get_absolute_url(self) -> str:
        return reverse("ratings:held_game", args=[self.key])

    @property
    def waiting(self) -> bool:
        return self.status in (HeldStatus.PENDING, HeldStatus.DISPUTED)


class HeldSeat(models.Model):
    """A seat of a held game as entered: a club's player (or a new name), with the paper's
    columns or the score, and whether that player agreed."""

    # Indexed by held_seat_once, which starts with it.
    held = models.ForeignKey(
        HeldGame,
        verbose_name=_("game"),
        on_delete=models.CASCADE,
        related_name="seats",
        db_index=False,
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    # None for a new player, created only when the game counts.
    player = models.ForeignKey(
        Player,
        verbose_name=_("player"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    name = models.CharField(_("name"), max_length=80)
    left = models.IntegerField(_("left"), null=True, blank=True)
    middle = models.IntegerField(_("middle"), null=True, blank=True)
    right = models.IntegerField(_("right"), null=True, blank=True)
    score = models.FloatField(_("score"), null=True, blank=True)
    agreed_at = models.DateTimeField(_("agreed at"), null=True, blank=True)
    agreed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("agreed by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["held", "seat"], name="held_seat_once"),
        ]

    def __str__(self) -> str:
        return self.name
