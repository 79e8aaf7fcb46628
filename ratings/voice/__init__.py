"""The club's voice: posts to the club's chats and the weekly digest (docs/club-voice.md).

A league's staff add **channels**, each an Apprise URL (Telegram, Discord, Slack, Matrix,
email, a JSON webhook…) with what it posts: games once they count, a night's drawn round and
final standings, the weekly digest. Nothing is sent in a request: the game's transaction (or the
event's) queues a task for the worker, which writes one :class:`~ratings.voice.models.ChannelPost`
per channel (the outbox: every post is a row with its state, so nothing is lost) and sends it,
retrying with backoff; a channel failing again and again is paused and shows its last error in
the admin. Members opt in to a weekly **digest** by email on their own settings page.

Modules: ``models.py`` (Channel, ChannelPost, DigestSubscription), ``masking.py`` (a URL masked
for display and scrubbed out of error text), ``texts.py`` (what a post or digest says, in the
league's language), ``services.py`` (channels added, removed, tested, resumed; posts written
to the outbox), ``sending.py`` (a post sent, retried, its channel paused), ``digest.py`` (the
week's digest: each member's and each league's, idempotent), ``tasks.py`` (the worker's tasks;
the digest's weekly schedule is registered in ratings/apps.py), ``receivers.py`` (the game and
event signals turned into queued tasks), ``forms.py``, ``views.py`` (the member's digest setting
and the one-click unsubscribe) and ``admin.py``.
"""
