"""Sending one post of the outbox, by the worker: Apprise does the talking; this module keeps
the books (sent, retried after its backoff, the channel paused after failures in a row)."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django_tasks import task

from ratings.voice.masking import scrubbed
from ratings.voice.models import FAILURES_TO_PAUSE, Channel, ChannelPost, PostState
from ratings.voice.texts import Text

# Apprise logs what it sends and why it failed, hosts and sometimes tokens among it: its
# records are caught for each send (deliver) and kept, scrubbed, as the post's error, and never
# reach the server's logs.
logging.getLogger("apprise").propagate = False

# How long a failed post waits before its next try: 1 minute, 5, 30, 2 hours, 6 hours. A
# channel failing FAILURES_TO_PAUSE posts in a row is paused before the list runs out.
BACKOFF = (
    timedelta(minutes=1),
    timedelta(minutes=5),
    timedelta(minutes=30),
    timedelta(hours=2),
    timedelta(hours=6),
)
ERROR_LENGTH = 1000


def deliver(url: str, text: Text) -> str | None:
    """Send ``text`` to ``url`` now: None when it went, else why not (scrubbed of the URL)."""
    # Imported here, as in services.clean_url: Apprise and its plugins take longer to import
    # than the rest of the voice, which every process loads (its models, admin and receivers),
    # each command's start included.
    import apprise

    notifier = apprise.Apprise()
    if not notifier.add(url):
        return _("Apprise does not know this URL.")
    with apprise.LogCapture(level=logging.WARNING) as captured:
        try:
            sent = notifier.notify(title=text.title, body=text.body)
        except Exception as error:  # a plugin's own bug must not stop the worker
            sent, extra = False, f"{type(error).__name__}: {error}"
        else:
            extra = ""
        log = captured.getvalue()
    if sent:
        return None
    error = "\n".join(filter(None, [log.strip(), extra])) or _("The channel refused the post.")
    return scrubbed(error, url)[-ERROR_LENGTH:]


def post_send(*, post: ChannelPost) -> bool:
    """Send one post of the outbox, unless it went already or its channel is paused. On a
    failure it is queued again after its backoff, or its channel paused after
    FAILURES_TO_PAUSE failures in a row (the post waits for the channel to resume). Whether
    it was sent now."""
    channel = post.channel
    if post.status != PostState.WAITING or channel.paused:
        return False
    error = deliver(channel.url, Text(post.title, post.body))
    now = timezone.now()
    with transaction.atomic():
        if error is None:
            ChannelPost.objects.filter(pk=post.pk).update(
                status=PostState.SENT, sent_at=now, attempts=F("attempts") + 1
            )
            Channel.objects.filter(pk=channel.pk).update(failures=0, last_sent_at=now)
            return True
        post.attempts += 1
        ChannelPost.objects.filter(pk=post.pk).update(attempts=post.attempts, last_error=error)
        Channel.objects.filter(pk=channel.pk).update(failures=F("failures") + 1, last_error=error)
        channel.refresh_from_db(fields=["failures"])
        if channel.failures >= FAILURES_TO_PAUSE:
            Channel.objects.filter(pk=channel.pk).update(paused=True)
        elif post.attempts <= len(BACKOFF):
            send_post.using(run_after=now + BACKOFF[post.attempts - 1]).enqueue(post.pk)
        else:
            ChannelPost.objects.filter(pk=post.pk).update(status=PostState.FAILED)
    return False


@task()
def send_post(post_id: int) -> bool:
    """Send one post of the outbox (queued when it is written, after each backoff and when its
    channel resumes); whether it went now."""
    post = ChannelPost.objects.select_related("channel").filter(pk=post_id).first()
    return post is not None and post_send(post=post)
