"""The voice's data: a league's channels, the outbox of their posts, and members' digest
choices. No page shows these rows (``versioning.UNVERSIONED``): the admin and the member's own
settings page read them uncached."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ratings.models import League
from ratings.voice.masking import masked_url


class PostKind(models.TextChoices):
    GAMES = "games", _("games")
    NIGHTS = "nights", _("nights")
    DIGEST = "digest", _("digest")


ALL_KINDS = [kind.value for kind in PostKind]
# A channel that failed this many posts in a row is paused until staff resume it.
FAILURES_TO_PAUSE = 5


class ChannelQuerySet(models.QuerySet):
    def posting(self, league_id: int, kind: str):
        """The league's channels that post ``kind`` (paused ones too: their posts wait)."""
        return self.filter(league_id=league_id, posts__contains=kind)

    def posting_any(self, kind: str):
        """Every league's channels that post ``kind``."""
        return self.filter(posts__contains=kind)


class Channel(models.Model):
    league = models.ForeignKey(
        League, verbose_name=_("league"), on_delete=models.CASCADE, related_name="+"
    )
    name = models.CharField(_("name"), max_length=80, blank=True)
    # A secret (a bot's token, a webhook's key): shown masked (masking.masked_url) except to
    # staff who may change channels, never logged.
    url = models.TextField(_("Apprise URL"))
    # What it posts: PostKind values, comma-separated ("games,nights,digest").
    posts = models.CharField(_("posts"), max_length=40, default=",".join(ALL_KINDS))
    paused = models.BooleanField(
        _("paused"),
        default=False,
        help_text=_("A paused channel keeps its posts waiting; they are sent when it resumes."),
    )
    failures = models.PositiveIntegerField(_("failures in a row"), default=0, editable=False)
    last_error = models.TextField(_("last error"), blank=True, editable=False)
    last_sent_at = models.DateTimeField(_("last sent"), null=True, blank=True, editable=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    objects = ChannelQuerySet.as_manager()

    class Meta:
        verbose_name = _("chat channel")
        verbose_name_plural = _("chat channels")
        ordering = ["league", "pk"]

    def __str__(self) -> str:
        return self.name or self.masked_url

    @property
    def masked_url(self) -> str:
        return masked_url(self.url)

    @property
    def kinds(self) -> list[str]:
        return [kind for kind in self.posts.split(",") if kind]


class PostState(models.TextChoices):
    WAITING = "waiting", _("waiting")
    SENT = "sent", _("sent")
    FAILED = "failed", _("failed")


class ChannelPost(models.Model):
    """One message to one channel: the outbox. Written by the worker, sent, retried; a paused
    channel's posts stay waiting and go out when it resumes."""

    # Indexed by channel_post_once, which starts with it.
    channel = models.ForeignKey(
        Channel,
        verbose_name=_("channel"),
        on_delete=models.CASCADE,
        related_name="outbox",
        db_index=False,
    )
    kind = models.CharField(_("kind"), max_length=10, choices=PostKind.choices)
    # What it is about ("game:12", "round:4", "event:3", "digest:2026-11-23"): one post per
    # channel and key, so a task run twice posts once.
    key = models.CharField(_("key"), max_length=60)
    title = models.CharField(_("title"), max_length=200)
    body = models.TextField(_("text"))
    status = models.CharField(
        _("status"), max_length=10, choices=PostState.choices, default=PostState.WAITING
    )
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)

    class Meta:
        verbose_name = _("chat post")
        verbose_name_plural = _("chat posts")
        ordering = ["-pk"]
        constraints = [models.UniqueConstraint(fields=["channel", "key"], name="channel_post_once")]

    def __str__(self) -> str:
        return self.title


class DigestSubscription(models.Model):
    """A member's choice of the weekly digest by email, and the last week it went out."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        on_delete=models.CASCADE,
        related_name="digest",
    )
    weekly = models.BooleanField(_("weekly digest by email"), default=False)
    # The Monday that began the last week whose digest was sent (or skipped as empty): a
    # second run that week sends nothing.
    last_week = models.DateField(_("last week sent"), null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("digest subscription")
        verbose_name_plural = _("digest subscriptions")

    def __str__(self) -> str:
        return str(self.user)


class NightReminder(models.Model):
    """A day-before reminder emailed to a member for a night: kept so that the reminder task,
    run twice, emails nobody twice. The night's day is part of it: a night moved to another day
    is reminded again."""

    # Indexed by night_reminder_once, which starts with it.
    event = models.ForeignKey(
        "ratings.Event",
        verbose_name=_("event"),
        on_delete=models.CASCADE,
        related_name="reminders",
        db_index=False,
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        on_delete=models.CASCADE,
        related_name="night_reminders",
    )
    day = models.DateField(_("night's day"))
    sent_at = models.DateTimeField(_("sent at"), auto_now_add=True)

    class Meta:
        verbose_name = _("night reminder")
        verbose_name_plural = _("night reminders")
        constraints = [
            models.UniqueConstraint(fields=["event", "user", "day"], name="night_reminder_once")
        ]

    def __str__(self) -> str:
        return f"{self.event} · {self.user}"
