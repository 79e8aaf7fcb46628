"""Every write of the voice: channels added, removed, resumed; posts written to the outbox and
sent. Sending (ratings/voice/sending.py) happens in the worker or the ``channel test`` command,
never in a request."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings.models import League
from ratings.voice.models import ALL_KINDS, Channel, ChannelPost, PostState
from ratings.voice.sending import deliver, post_send, send_post
from ratings.voice.texts import Text


def clean_url(url: str) -> str:
    """The URL if Apprise knows how to send to it (refused otherwise, without repeating it)."""
    import apprise  # here, not at every process's start: see sending.deliver

    url = url.strip()
    if not url or not apprise.Apprise().add(url):
        raise ValidationError(
            _("Apprise does not know this URL: see docs/club-voice.md for examples.")
        )
    return url


def clean_kinds(kinds) -> str:
    """What a channel posts, as stored: known kinds, in their usual order."""
    kinds = {kind.strip() for kind in kinds if kind.strip()}
    unknown = kinds - set(ALL_KINDS)
    if unknown or not kinds:
        raise ValidationError(
            _("A channel posts some of: %(kinds)s.") % {"kinds": ", ".join(ALL_KINDS)}
        )
    return ",".join(kind for kind in ALL_KINDS if kind in kinds)


def channel_add(*, league: League, url: str, posts=ALL_KINDS, name: str = "") -> Channel:
    return Channel.objects.create(
        league=league, url=clean_url(url), posts=clean_kinds(posts), name=name
    )


def channel_remove(*, channel: Channel) -> None:
    channel.delete()


def channel_resume(*, channel: Channel) -> int:
    """Unpause a channel: its count of failures starts again and its waiting posts are queued,
    oldest first. How many."""
    with transaction.atomic():
        Channel.objects.filter(pk=channel.pk).update(paused=False, failures=0)
        waiting = list(
            ChannelPost.objects.filter(channel=channel, status=PostState.WAITING)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        for pk in waiting:
            send_post.enqueue(pk)
    channel.paused, channel.failures = False, 0
    return len(waiting)


def posts_write(*, league_id: int, kind: str, key: str, text: Text) -> list[ChannelPost]:
    """One post of ``text`` for each of the league's channels that post ``kind`` (once per
    channel and key, so a task run twice writes nothing new), each queued to be sent unless its
    channel is paused. The new posts."""
    written = []
    with transaction.atomic():
        for channel in Channel.objects.posting(league_id, kind):
            post, created = ChannelPost.objects.get_or_create(
                channel=channel,
                key=key,
                defaults={"kind": kind, "title": text.title[:200], "body": text.body},
            )
            if created:
                written.append(post)
                if not channel.paused:
                    send_post.enqueue(post.pk)
    return written


def _test_text(channel: Channel) -> Text:
    return Text(
        _("A test from %(league)s") % {"league": channel.league.name},
        _("This channel will post the league's news here."),
    )


def channel_test_queue(*, channel: Channel) -> ChannelPost:
    """A test post written to the outbox and queued for the worker (the admin's button: a
    request never sends). Its result shows in the outbox and on the channel."""
    text = _test_text(channel)
    with transaction.atomic():
        post = ChannelPost.objects.create(
            channel=channel,
            kind=channel.kinds[0] if channel.kinds else ALL_KINDS[0],
            key=f"test:{timezone.now().isoformat()}",
            title=text.title,
            body=text.body,
        )
        send_post.enqueue(post.pk)
    return post


def channel_test(*, channel: Channel) -> ChannelPost:
    """A test post to the channel, sent now (by the ``channel test`` command, not a request),
    through the outbox as any post: the post, with its state and error."""
    text = _test_text(channel)
    post = ChannelPost.objects.create(
        channel=channel,
        kind=channel.kinds[0] if channel.kinds else ALL_KINDS[0],
        key=f"test:{timezone.now().isoformat()}",
        title=text.title,
        body=text.body,
    )
    if channel.paused:
        # A test says whether the URL works: try it even while the channel is paused.
        error = deliver(channel.url, text)
        post.status = PostState.SENT if error is None else PostState.FAILED
        post.last_error = error or ""
        post.attempts = 1
        post.sent_at = timezone.now() if error is None else None
        post.save()
    else:
        post_send(post=post)
    post.refresh_from_db()
    return post
