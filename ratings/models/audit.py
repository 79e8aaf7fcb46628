"""The audit trail: one entry for each change to the club's games, players and leagues."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ratings.models.leagues import League
from ratings.models.players import Player


class AuditAction(models.TextChoices):
    CREATE = "create", _("created")
    UPDATE = "update", _("edited")
    DELETE = "delete", _("deleted")
    RESTORE = "restore", _("restored")
    START_RATING = "start_rating", _("start rating changed")
    MERGE = "merge", _("players merged")
    RENAME = "rename", _("player renamed")
    EVENT_CREATE = "event_create", _("event created")
    EVENT_PLAYERS = "event_players", _("event's players changed")
    ROUND_DRAW = "round_draw", _("round drawn")
    TABLE_GAME = "table_game", _("table's paper in")
    ROUND_CLOSE = "round_close", _("round closed")
    EVENT_CLOSE = "event_close", _("event closed")
    DEAL_ADD = "deal_add", _("deal added")
    DEAL_UNDO = "deal_undo", _("deal taken back")
    DEAL_REPEAL = "deal_repeal", _("deal repealed")
    DEAL_BACK = "deal_back", _("repealed deal brought back")
    DEAL_EDIT = "deal_edit", _("deal edited")
    GAME_HOLD = "game_hold", _("game awaiting confirmation")
    GAME_AGREE = "game_agree", _("game agreed to")
    GAME_CONFIRM = "game_confirm", _("game confirmed")
    GAME_DISPUTE = "game_dispute", _("game disputed")
    GAME_WITHDRAW = "game_withdraw", _("waiting game deleted")
    GAME_HELD_EDIT = "game_held_edit", _("waiting game corrected")
    INVITE = "invite", _("invitation made")
    INVITE_REVOKE = "invite_revoke", _("invitation revoked")
    INVITE_ACCEPT = "invite_accept", _("invitation accepted")
    CLAIM = "claim", _("player claimed")
    CLAIM_APPROVE = "claim_approve", _("claim approved")
    CLAIM_REFUSE = "claim_refuse", _("claim refused")
    PAPER_DISCARD = "paper_discard", _("paper discarded")


class AuditEntry(models.Model):
    """Who changed a game or a start rating, when, and the values before and after.

    Written by the engine in the same transaction as the change. ``game_id`` is a plain number,
    not a foreign key, so the entry outlives a deleted game (whose ``before`` snapshot is what a
    restore rebuilds it from).
    """

    at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("who"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    action = models.CharField(_("action"), max_length=16, choices=AuditAction.choices)
    # None for a change that is no league's (a rename, a merge of a player who never played).
    league = models.ForeignKey(
        League,
        verbose_name=_("league"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="audit_entries",
    )
    game_id = models.BigIntegerField(_("game"), null=True, blank=True, db_index=True)
    player = models.ForeignKey(
        Player,
        verbose_name=_("player"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    # A correction (an edit, deletion, restore or merge) re-rates its league: how many games the
    # replay rated; each player whose rating it moved has a RatingCorrection.
    rerated_games = models.PositiveIntegerField(_("games re-rated"), null=True, blank=True)

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit trail")
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_action_display()} {self.at:%Y-%m-%d %H:%M}"


class RatingCorrection(models.Model):
    """How a correction moved one player's current rating in a league, so that their page can
    say why their rating moved although they did not play.

    Written by the engine with the correction's audit entry: the replay knows each standing
    before and after. ``game_played_at`` is the corrected game's time (None for a merge).
    """

    entry = models.ForeignKey(
        AuditEntry,
        verbose_name=_("audit entry"),
        on_delete=models.CASCADE,
        related_name="corrections",
    )
    # Indexed by correction_player_at, which starts with it.
    league = models.ForeignKey(
        League,
        verbose_name=_("league"),
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="+"
    )
    at = models.DateTimeField(_("when"))
    action = models.CharField(_("action"), max_length=16, choices=AuditAction.choices)
    game_played_at = models.DateTimeField(_("game played at"), null=True, blank=True)
    change = models.FloatField(_("change"))
    rating = models.FloatField(_("rating"))

    class Meta:
        verbose_name = _("rating correction")
        verbose_name_plural = _("rating corrections")
        ordering = ["at", "id"]
        indexes = [
            models.Index(fields=["league", "player", "at"], name="correction_player_at"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.change:+g} {self.at:%Y-%m-%d %H:%M}"
