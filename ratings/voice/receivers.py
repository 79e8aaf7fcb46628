"""The game's and the nights' signals, heard: each queues the task that posts it, in the
transaction that sent the signal (so nothing is posted about a write that rolled back). A
league without a channel for that kind queues nothing; one query to know."""

from __future__ import annotations

from ratings.voice import tasks
from ratings.voice.models import Channel, PostKind


def game_counted(sender, *, game, **kwargs) -> None:
    if Channel.objects.posting(game.league_id, PostKind.GAMES).exists():
        tasks.post_game.enqueue(game.pk)


def round_drawn(sender, *, event_round, **kwargs) -> None:
    if Channel.objects.posting(event_round.event.league_id, PostKind.NIGHTS).exists():
        tasks.post_round.enqueue(event_round.pk)


def event_closed(sender, *, event, **kwargs) -> None:
    if Channel.objects.posting(event.league_id, PostKind.NIGHTS).exists():
        tasks.post_standings.enqueue(event.pk)


def _night(event, change: str) -> None:
    if Channel.objects.posting(event.league_id, PostKind.NIGHTS).exists():
        tasks.post_night.enqueue(event.pk, change)


def night_planned(sender, *, event, **kwargs) -> None:
    _night(event, "planned")


def night_moved(sender, *, event, **kwargs) -> None:
    _night(event, "moved")


def night_cancelled(sender, *, event, **kwargs) -> None:
    _night(event, "cancelled")
