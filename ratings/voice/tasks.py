"""The voice's work for the worker: each task reads what it posts when it runs (so a request
only queues a row), writes the outbox and queues each post's sending (ratings/voice/sending.py).
The weekly digest and the day-before reminders are registered as recurring work in
ratings/apps.py."""

from __future__ import annotations

from django_tasks import task

from ratings.events.models import Event, EventRound
from ratings.models import Game
from ratings.voice import digest, reminders
from ratings.voice.models import PostKind
from ratings.voice.services import posts_write
from ratings.voice.texts import game_text, night_text, round_text, standings_text


@task()
def post_game(game_id: int) -> int:
    """A game that counts, to its league's game channels; how many posts (0: deleted since)."""
    game = Game.objects.select_related("league").filter(pk=game_id).first()
    if game is None:
        return 0
    text = game_text(game)
    return len(
        posts_write(league_id=game.league_id, kind=PostKind.GAMES, key=f"game:{game_id}", text=text)
    )


@task()
def post_round(round_id: int) -> int:
    """A night's round just drawn, to its league's night channels."""
    event_round = EventRound.objects.select_related("event__league").filter(pk=round_id).first()
    if event_round is None:
        return 0
    text = round_text(event_round)
    league_id = event_round.event.league_id
    return len(
        posts_write(league_id=league_id, kind=PostKind.NIGHTS, key=f"round:{round_id}", text=text)
    )


@task()
def post_standings(event_id: int) -> int:
    """A closed night's final standings, to its league's night channels."""
    event = Event.objects.select_related("league").filter(pk=event_id).first()
    if event is None:
        return 0
    text = standings_text(event)
    return len(
        posts_write(
            league_id=event.league_id, kind=PostKind.NIGHTS, key=f"event:{event_id}", text=text
        )
    )


@task()
def post_night(event_id: int, change: str) -> int:
    """A night planned, moved or cancelled (``change``), to its league's night channels. Read
    when the task runs: a night planned then cancelled before it runs is not posted as planned,
    and two moves before it runs are one post of the latest time."""
    event = Event.objects.select_related("league").filter(pk=event_id).first()
    if event is None or (change != "cancelled" and event.is_cancelled):
        return 0
    key = f"{change}:{event_id}"
    if change == "moved":
        key += f":{event.sequence}"
    text = night_text(event, change)
    return len(posts_write(league_id=event.league_id, kind=PostKind.NIGHTS, key=key, text=text))


@task()
def day_before_reminders() -> int:
    """Tomorrow's nights, to their night channels and the members coming; emails sent."""
    return reminders.reminders_send()


@task()
def weekly_digest() -> int:
    """Last week's digest, to members who opted in and to digest channels; emails sent."""
    return digest.digest_send()
