"""A rayter file previewed on the import page, waiting for its uploader to confirm it."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ratings.models.leagues import League


class PendingUploadQuerySet(models.QuerySet):
    def expired(self) -> PendingUploadQuerySet:
        return self.filter(created_at__lt=timezone.now() - PendingUpload.LIFETIME)

    def waiting(self) -> PendingUploadQuerySet:
        return self.filter(created_at__gte=timezone.now() - PendingUpload.LIFETIME)


class PendingUpload(models.Model):
    """A rayter file previewed on the import page, waiting for its uploader to confirm it.

    Here rather than in the session: a previewed 4 MB file made a 1.3 MB session row, read and
    written on every page that member opened. Found by the hash of a random token that only the
    confirm form carries, and only for the same user and league; deleted when confirmed, and
    after :attr:`LIFETIME` (the next upload clears the expired ones).
    """

    LIFETIME = timedelta(days=1)

    token_hash = models.CharField(_("token hash"), max_length=64, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("who"),
        on_delete=models.CASCADE,
        related_name="+",
    )
    league = models.ForeignKey(
        League, verbose_name=_("league"), on_delete=models.CASCADE, related_name="+"
    )
    replace = models.BooleanField(_("replace the league's games"), default=False)
    # The bytes exactly as previewed (checked to be UTF-8 text), imported as they are.
    data = models.BinaryField(_("file"))
    created_at = models.DateTimeField(_("uploaded at"), auto_now_add=True, db_index=True)

    objects = PendingUploadQuerySet.as_manager()

    class Meta:
        verbose_name = _("pending upload")
        verbose_name_plural = _("pending uploads")

    def __str__(self) -> str:
        return f"{self.league} ({self.created_at:%Y-%m-%d %H:%M})"
