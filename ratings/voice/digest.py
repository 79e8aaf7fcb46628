"""The weekly digest: each member who opted in gets their week by email (their games, rating
changes, their leagues' top movers and next nights), and each league's channels that post the
digest get the league's week. Run by the worker every Monday morning (ratings/voice/tasks.py);
a member's last week sent is kept, so a second run in the same week sends nothing."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.urls import reverse
from django.utils import timezone, translation

from ratings.models import League
from ratings.voice.models import Channel, DigestSubscription, PostKind
from ratings.voice.services import posts_write
from ratings.voice.texts import absolute, league_digest_text, member_digest_text

# When the digest goes out: Monday, 08:00 in the club's time zone (TIME_ZONE).
DIGEST_WEEKDAY = 0
DIGEST_TIME = time(8, 0)
_SALT = "ratings.voice.digest.unsubscribe"


def next_run(now: datetime) -> datetime:
    """The first Monday 08:00 of the club's time after ``now``."""
    local = timezone.localtime(now)
    days = (DIGEST_WEEKDAY - local.weekday()) % 7
    candidate = timezone.make_aware(datetime.combine(local.date() + timedelta(days), DIGEST_TIME))
    if candidate <= now:
        candidate = timezone.make_aware(
            datetime.combine(local.date() + timedelta(days + 7), DIGEST_TIME)
        )
    return candidate


def last_week(now: datetime) -> tuple[date, datetime, datetime]:
    """The last whole week (Monday to Sunday, club time) before ``now``: its Monday, and its
    start and end as moments."""
    today = timezone.localtime(now).date()
    monday = today - timedelta(days=today.weekday() + 7)
    start = timezone.make_aware(datetime.combine(monday, time.min))
    end = timezone.make_aware(datetime.combine(monday + timedelta(days=7), time.min))
    return monday, start, end


def unsubscribe_token(user) -> str:
    """The signed token of a member's one-click unsubscribe link (no login needed)."""
    return signing.dumps(user.pk, salt=_SALT)


def unsubscribe_user_id(token: str) -> int | None:
    try:
        return int(signing.loads(token, salt=_SALT))
    except (signing.BadSignature, TypeError, ValueError):
        return None


def unsubscribe_url(user) -> str:
    return absolute(reverse("ratings:digest_unsubscribe", args=[unsubscribe_token(user)]))


def email_possible() -> bool:
    """Whether the club can send email: a mail server (EMAIL_HOST), or a backend that needs
    none (the console in development, locmem in tests)."""
    return bool(settings.EMAIL_HOST) or settings.EMAIL_BACKEND != (
        "django.core.mail.backends.smtp.EmailBackend"
    )


def digest_send(now: datetime | None = None) -> int:
    """The last week's digest to every member who opted in and has not had it, and to the
    leagues' digest channels; how many emails went."""
    now = now or timezone.now()
    week, start, end = last_week(now)
    sent = 0
    if email_possible():
        subscriptions = (
            DigestSubscription.objects.filter(weekly=True, user__is_active=True)
            .exclude(last_week__gte=week)
            .select_related("user__player")
            .order_by("pk")
        )
        league_lines: dict[int, list[str]] = {}
        for subscription in subscriptions:
            sent += _member_send(subscription, week, start, end, league_lines)
    leagues = League.objects.filter(
        pk__in=Channel.objects.posting_any(PostKind.DIGEST).values("league_id")
    )
    for league in leagues:
        text = league_digest_text(league, start, end)
        if text is not None:
            posts_write(league_id=league.pk, kind=PostKind.DIGEST, key=f"digest:{week}", text=text)
    return sent


def _member_send(
    subscription: DigestSubscription, week: date, start, end, league_lines: dict
) -> int:
    user = subscription.user
    player = getattr(user, "player", None)
    link = unsubscribe_url(user)
    text = None
    if user.email:
        with translation.override(settings.LANGUAGE_CODE):
            text = member_digest_text(
                player.pk if player else None, week, start, end, link, league_lines
            )
    if text is not None:
        EmailMessage(
            subject=text.title,
            body=text.body,
            to=[user.email],
            headers={
                "List-Unsubscribe": f"<{link}>",
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            },
        ).send()
    # Marked even when there was nothing to say: the week is done for this member.
    DigestSubscription.objects.filter(pk=subscription.pk).update(last_week=week)
    return int(text is not None)
