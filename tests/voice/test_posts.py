"""Posts to the club's chats, against a real local webhook: a game recorded through the API
reaches the channel only once the worker runs; a failing channel is retried with backoff, then
paused, and its posts go out when it resumes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from ratings.models import ApiToken
from ratings.voice import services
from ratings.voice.masking import masked_url, scrubbed
from ratings.voice.models import Channel, ChannelPost, PostState
from ratings.voice.sending import send_post
from tests.builders import (
    api_game_post,
    api_paper,
    make_event,
    make_league,
    make_players,
    play_round,
    run_command,
    run_tasks,
)
from tests.worked_example import WORKED_EXAMPLE_PLAYERS

pytestmark = pytest.mark.django_db


@pytest.fixture
def preferans(worked_example_league, worked_example_players):
    return worked_example_league


@pytest.fixture
def api(member_user) -> Client:
    _row, token = ApiToken.objects.create_for(member_user, "Phone")
    return Client(headers={"Authorization": f"Bearer {token}"})


def test_a_game_recorded_through_the_api_is_posted_by_the_worker(preferans, api, webhook):
    run_command("channel", "add", preferans.slug, webhook.url, "--posts", "games")
    assert api_game_post(api, preferans, api_paper()).status_code == 201
    assert webhook.posts == []  # the request only queued the work
    run_tasks()
    assert len(webhook.posts) == 1
    post = webhook.posts[0]
    assert post["path"] == "/hook"
    for name in WORKED_EXAMPLE_PLAYERS:
        assert name in post["message"]
    assert "−27" in post["message"] and "/games/" in post["message"]
    assert preferans.name in post["title"]
    assert ChannelPost.objects.get().status == PostState.SENT
    assert Channel.objects.get().last_sent_at is not None
    run_tasks()
    assert len(webhook.posts) == 1


def test_a_league_without_a_games_channel_queues_nothing(preferans, api, webhook):
    services.channel_add(league=preferans, url=webhook.url, posts=["digest"])
    assert api_game_post(api, preferans, api_paper()).status_code == 201
    assert not DBTaskResult.objects.exists()


def test_a_failing_channel_is_retried_with_backoff_then_paused(
    preferans, api, closed_port_url, webhook
):
    channel = services.channel_add(league=preferans, url=closed_port_url, posts=["games"])
    assert api_game_post(api, preferans, api_paper()).status_code == 201
    run_tasks()
    channel.refresh_from_db()
    post = ChannelPost.objects.get()
    assert (channel.failures, channel.paused, post.attempts) == (1, False, 1)
    retry = DBTaskResult.objects.filter(task_path=send_post.module_path, status="READY").get()
    assert retry.run_after > timezone.now() + timedelta(seconds=50)
    for _ in range(4):
        run_tasks(due_by=timezone.now() + timedelta(hours=7))
    channel.refresh_from_db()
    post.refresh_from_db()
    assert (channel.failures, channel.paused, post.attempts) == (5, True, 5)
    assert post.status == PostState.WAITING  # not lost: it waits for the channel
    assert not DBTaskResult.objects.filter(task_path=send_post.module_path, status="READY").exists()
    port = closed_port_url.rsplit(":", 1)[1].split("/")[0]
    assert channel.last_error and port not in channel.last_error
    assert closed_port_url not in channel.last_error

    # Staff fix the URL and resume the channel: the waiting post goes out.
    Channel.objects.filter(pk=channel.pk).update(url=webhook.url)
    assert "1 waiting posts queued" in run_command("channel", "resume", str(channel.pk))
    run_tasks()
    post.refresh_from_db()
    assert post.status == PostState.SENT
    assert len(webhook.posts) == 1


def test_a_paused_channel_keeps_new_posts_waiting(preferans, api, webhook):
    services.channel_add(league=preferans, url=webhook.url, posts=["games"])
    Channel.objects.update(paused=True)
    assert api_game_post(api, preferans, api_paper()).status_code == 201
    run_tasks()
    assert webhook.posts == []
    assert ChannelPost.objects.get().status == PostState.WAITING


def test_a_nights_drawn_round_and_final_standings_are_posted(webhook):
    league = make_league(name="Club nights")
    event = make_event(league, make_players(["Ana", "Bora", "Ceca"]))
    services.channel_add(league=league, url=webhook.url, posts=["nights"])
    from ratings.events import services as event_services

    event_round = event_services.round_draw(event=event)
    play_round(event_round)
    event_services.event_close(event=event)
    run_tasks()
    titles = [post["title"] for post in webhook.posts]
    assert titles == ["Club night: round 1 drawn", "Club night: final standings"]
    assert "Table 1: " in webhook.posts[0]["message"]
    standings = webhook.posts[1]["message"]
    assert all(name in standings for name in ("Ana", "Bora", "Ceca"))
    assert standings.startswith("1. ")


def test_a_held_game_is_posted_once_the_table_confirms_it(webhook):
    from django.contrib.auth.models import User

    from ratings import entry
    from ratings.entry import confirmation
    from ratings.models.leagues import Confirmation

    league = make_league(confirmation=Confirmation.ANOTHER_SEAT)
    players = make_players(["Ana", "Bora", "Ceca"])
    ana, bora = (User.objects.create_user(name.lower()) for name in ("Ana", "Bora"))
    for player, user in zip(players, (ana, bora), strict=False):
        player.user = user
        player.save(update_fields=["user"])
    services.channel_add(league=league, url=webhook.url, posts=["games"])
    seats = tuple(
        entry.SeatIn(player=p.name, left=left, middle=middle, right=right)
        for p, (left, middle, right) in zip(
            players, [(10, -4, 20), (30, 2, 0), (0, 2, 10)], strict=True
        )
    )
    submission = entry.Submission(
        league=league, played_at=timezone.now() - timedelta(hours=1), seats=seats, bula=30
    )
    held, _created = entry.submit(entry.check(submission), entered_by=ana)
    run_tasks()
    assert webhook.posts == []  # waiting for the table: it does not count yet
    confirmation.confirm(held, user=bora)
    run_tasks()
    assert len(webhook.posts) == 1
    assert all(name in webhook.posts[0]["message"] for name in ("Ana", "Bora", "Ceca"))


# The command ---------------------------------------------------------------------------------


def test_channel_list_masks_the_url(preferans):
    secret = "tgram://123456789:AAHsecretBotToken/-1001234567"
    run_command("channel", "add", preferans.slug, secret)
    listed = run_command("channel", "list")
    assert "secretBotToken" not in listed and "123456789" not in listed
    assert "tgram://…4567" in listed
    assert "games,nights,digest" in listed


def test_channel_add_refuses_an_unknown_url_and_kind(preferans):
    from django.core.management import CommandError

    with pytest.raises(CommandError, match="Apprise does not know"):
        run_command("channel", "add", preferans.slug, "nonsense://x")
    with pytest.raises(CommandError, match="posts some of"):
        run_command("channel", "add", preferans.slug, "json://127.0.0.1/x", "--posts", "gossip")
    assert not Channel.objects.exists()


def test_channel_test_sends_now_and_says_when_it_fails(preferans, webhook, closed_port_url):
    good = services.channel_add(league=preferans, url=webhook.url)
    assert "test post sent" in run_command("channel", "test", str(good.pk))
    assert len(webhook.posts) == 1
    bad = services.channel_add(league=preferans, url=closed_port_url)
    from django.core.management import CommandError

    with pytest.raises(CommandError, match="failed") as failure:
        run_command("channel", "test", str(bad.pk))
    assert closed_port_url not in str(failure.value)


def test_channel_remove(preferans):
    channel = services.channel_add(league=preferans, url="json://127.0.0.1/x")
    assert "removed" in run_command("channel", "remove", str(channel.pk))
    assert not Channel.objects.exists()


# Secrets -------------------------------------------------------------------------------------


def test_an_error_is_scrubbed_of_every_piece_of_the_url():
    url = "discord://1234567890/AbCdEfGhIjKlMn_token"
    error = f"Failed to post to {url}: 1234567890 said no to AbCdEfGhIjKlMn_token"
    cleaned = scrubbed(error, url)
    assert "1234567890" not in cleaned and "AbCdEfGhIjKlMn_token" not in cleaned
    assert masked_url(url) == "discord://…oken"
