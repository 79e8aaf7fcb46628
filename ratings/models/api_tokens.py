"""API tokens: one per device or bot, named by its member, shown once, stored hashed.

A token is 32 random bytes; only its SHA-256 is kept. A slow password hash would add nothing
(the secret has 256 bits of entropy, nobody can guess it from the digest) and would cost every
API call its time. Each token is its own row, so a member logging in a second device makes a
second token and the first keeps working (NemeStats #490: one token per user was replaced at
each login). Revoking marks the row; the digest stays unique, so a revoked token never
authenticates again.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# "Last used" to the minute: a bot reading every few seconds writes the row once a minute,
# not at every call.
LAST_USED_PRECISION = timedelta(minutes=1)
# Written before the secret so a leaked token is recognisable in logs and secret scanners.
TOKEN_PREFIX = "club_"


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class ApiTokenQuerySet(models.QuerySet):
    def active(self) -> ApiTokenQuerySet:
        return self.filter(revoked_at__isnull=True)

    def create_for(self, user, name: str) -> tuple[ApiToken, str]:
        """A new token for ``user``: the row and the token itself, which is not kept anywhere
        and must be shown to the member now."""
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        row = self.create(user=user, name=name, digest=token_digest(token), hint=token[-4:])
        return row, token

    def authenticate(self, token: str) -> ApiToken | None:
        """The active token with this value, its user loaded, or None; marks it used."""
        row = (
            self.active()
            .select_related("user")
            .filter(digest=token_digest(token), user__is_active=True)
            .first()
        )
        now = timezone.now()
        if row is not None and (
            row.last_used_at is None or now - row.last_used_at >= LAST_USED_PRECISION
        ):
            row.last_used_at = now
            # One UPDATE of one column: the token table is unversioned, so no page is redrawn.
            type(row).objects.filter(pk=row.pk).update(last_used_at=now)
        return row


class ApiToken(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="api_tokens",
    )
    name = models.CharField(_("name"), max_length=80)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    # The token's last four characters, so its member can tell two tokens apart.
    hint = models.CharField(max_length=4, editable=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} (…{self.hint})"

    def revoke(self) -> None:
        if self.revoked_at is None:
            self.revoked_at = timezone.now()
            self.save(update_fields=["revoked_at"])
