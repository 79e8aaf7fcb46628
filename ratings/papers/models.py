"""The digital paper's data: a paper (in progress or finished into a game) and its deals in order.

The league, players, game and event table are named as "ratings.<Model>": the papers own
their models, which Django is shown by ``ratings.apps``; use them from here.
A deal keeps what was said at the table (``Deal.entered``: a
:class:`ratings.algorithms.paper.Hand`'s ``to_json()``, the one shape of a deal, whatever path
brought it), never the paper it makes: the paper is drawn from the deals each time, so an edited
deal redraws everything after it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from ratings.models import Player


class DigitalPaper(models.Model):
    """A Preferans game kept deal by deal: three players in seat order, the bula, the refe cap.

    ``game`` is set when the paper is finished (the game it was rated as); ``finished_at`` stays
    when that game is later deleted, so a finished paper never takes deals again.
    """

    league = models.ForeignKey(
        "ratings.League", verbose_name=_("league"), on_delete=models.CASCADE, related_name="+"
    )
    player_1 = models.ForeignKey(
        "ratings.Player", verbose_name=_("seat 1"), on_delete=models.PROTECT, related_name="+"
    )
    player_2 = models.ForeignKey(
        "ratings.Player", verbose_name=_("seat 2"), on_delete=models.PROTECT, related_name="+"
    )
    player_3 = models.ForeignKey(
        "ratings.Player", verbose_name=_("seat 3"), on_delete=models.PROTECT, related_name="+"
    )
    bula = models.PositiveIntegerField(_("starting bula"))
    refas = models.PositiveSmallIntegerField(
        _("refe cap"), null=True, blank=True, help_text=_("Empty: no cap.")
    )
    # The league's house rules when the paper was started (HouseRules.json: {} for prefko's
    # library's), kept with the paper so that a later change of the league's settings never
    # redraws a paper kept under the old ones.
    # (Empty, None, in rows from before house rules: the library's. No default, so that SQLite
    # adds the column in place instead of rebuilding a table the deals' triggers read.)
    house_rules = models.JSONField(_("house rules"), null=True, blank=True)
    started_at = models.DateTimeField(_("started at"), auto_now_add=True)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("started by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    ended_early = models.BooleanField(
        _("ended early"),
        default=False,
        help_text=_("Stopped by the clock before the bulas ran out."),
    )
    # Discarded by one of its players (a paper started by mistake): kept for the audit and for
    # staff (the admin's filter), gone from the pages and the lists of papers in progress.
    # Who discarded it is in its audit entry.
    discarded_at = models.DateTimeField(_("discarded at"), null=True, blank=True)
    # A club night's or tournament's table whose paper this is: finished, its game is the table's.
    event_table = models.ForeignKey(
        "ratings.EventTable",
        verbose_name=_("event table"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    game = models.OneToOneField(
        "ratings.Game",
        verbose_name=_("game"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="digital_paper",
    )

    class Meta:
        verbose_name = _("digital paper")
        verbose_name_plural = _("digital papers")
        constraints = [
            models.CheckConstraint(condition=Q(bula__gt=0), name="digitalpaper_bula_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.league}: {', '.join(p.name for p in self.players)} ({self.bula})"

    # The seats' fields in seat order: a player's papers are found through all three.
    SEATS = ("player_1", "player_2", "player_3")

    @classmethod
    def seating(cls, player: Player, *, via: str = "") -> Q:
        """The papers ``player`` sits at, in any seat; ``via="paper__"`` from their deals."""
        seats = [Q(**{f"{via}{seat}": player}) for seat in cls.SEATS]
        return seats[0] | seats[1] | seats[2]

    @property
    def players(self) -> tuple[Player, Player, Player]:
        return (self.player_1, self.player_2, self.player_3)

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


class Deal(models.Model):
    """One deal of a digital paper, numbered from 1 in the order entered (refe included)."""

    paper = models.ForeignKey(
        DigitalPaper,
        verbose_name=_("digital paper"),
        on_delete=models.CASCADE,
        related_name="deals",
        db_index=False,  # deal_number_once's index leads with it
    )
    number = models.PositiveSmallIntegerField(_("number"))
    entered = models.JSONField(_("what was entered"))
    repealed = models.BooleanField(_("repealed"), default=False)
    entered_at = models.DateTimeField(_("entered at"), auto_now_add=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # The phone's one-time key for this deal (as a game form's ``submission_key``): the same
    # key again finds the deal already recorded, never a second one (deal_submission_once).
    submission_key = models.UUIDField(_("submission key"), null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        ordering = ["paper", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["submission_key"],
                condition=Q(submission_key__isnull=False),
                name="deal_submission_once",
            ),
            models.UniqueConstraint(fields=["paper", "number"], name="deal_number_once"),
            models.CheckConstraint(condition=Q(number__gt=0), name="deal_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.paper_id}: deal {self.number}"
