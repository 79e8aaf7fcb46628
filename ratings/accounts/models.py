"""Members' accounts: an :class:`Invitation` that makes a login for a player, and a
:class:`PlayerClaim`, a member's request to be linked to a player.

The accounts own their models: Django is shown them by ``ratings.apps`` (the core's
:mod:`ratings.models` never imports a feature), so use them from here. The player and the users
are named as ``"ratings.Player"`` and the user model's setting, not imported back.

An invitation's token is shown once, as a link, and only its SHA-256 is kept (as an API token's,
:mod:`ratings.models.api_tokens`): a leaked database row gives nobody a way in, and a token is
found by its digest, one indexed lookup, so no token is ever compared character by character.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from ratings.dates import INVITATION_DAYS
from ratings.models.api_tokens import token_digest

NOTE_LENGTH = 500


class InvitationState(models.TextChoices):
    OPEN = "open", _("open")
    USED = "used", _("used")
    # An invitation is feminine in Serbian, neuter in Russian; a revoked token is masculine.
    REVOKED = "revoked", pgettext_lazy("invitation", "revoked")
    EXPIRED = "expired", _("expired")


class InvitationQuerySet(models.QuerySet):
    def create_for(
        self, player, *, invited_by=None, now: datetime | None = None
    ) -> tuple[Invitation, str]:
        """A new invitation to ``player``: the row and its token, which is kept nowhere and
        must go into the link now."""
        now = now or timezone.now()
        token = secrets.token_urlsafe(32)
        row = self.create(
            player=player,
            digest=token_digest(token),
            invited_by=invited_by,
            created_at=now,
            expires_at=now + timedelta(days=INVITATION_DAYS),
        )
        return row, token

    def by_token(self, token: str) -> Invitation | None:
        """The invitation of ``token`` (any state), its player loaded, or None."""
        return self.select_related("player").filter(digest=token_digest(token)).first()

    def open(self, now: datetime | None = None) -> InvitationQuerySet:
        return self.filter(
            used_at__isnull=True, revoked_at__isnull=True, expires_at__gt=now or timezone.now()
        )


class Invitation(models.Model):
    """A single-use link that makes a login for ``player``, good for :data:`INVITATION_DAYS`."""

    player = models.ForeignKey(
        "ratings.Player",
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="invitations",
    )
    digest = models.CharField(max_length=64, unique=True, editable=False)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("invited by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires at"))
    used_at = models.DateTimeField(_("used at"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    # The login the invitation made.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("login made"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    objects = InvitationQuerySet.as_manager()

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.player} ({self.created_at:%Y-%m-%d})"

    def state(self, now: datetime | None = None) -> InvitationState:
        if self.used_at is not None:
            return InvitationState.USED
        if self.revoked_at is not None:
            return InvitationState.REVOKED
        if self.expires_at <= (now or timezone.now()):
            return InvitationState.EXPIRED
        return InvitationState.OPEN


class ClaimStatus(models.TextChoices):
    PENDING = "pending", _("waiting for the staff")
    APPROVED = "approved", _("approved")
    REFUSED = "refused", _("refused")


class PlayerClaim(models.Model):
    """A member's request to be linked to a player who has no login; staff approve or refuse
    it in the admin. A member has one claim waiting at a time."""

    # A member's waiting claim is found by one_pending_claim_per_member; their few others by
    # a scan of a small table.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("member"),
        on_delete=models.CASCADE,
        related_name="player_claims",
        db_index=False,
    )
    player = models.ForeignKey(
        "ratings.Player",
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="claims",
    )
    note = models.TextField(_("note"), max_length=NOTE_LENGTH, blank=True)
    status = models.CharField(
        _("state"), max_length=16, choices=ClaimStatus.choices, default=ClaimStatus.PENDING
    )
    created_at = models.DateTimeField(_("asked at"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("decided by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        verbose_name = _("player claim")
        verbose_name_plural = _("player claims")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=Q(status="pending"),
                name="one_pending_claim_per_member",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} → {self.player}"
