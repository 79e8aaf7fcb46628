"""Nights planned ahead, heard by the club's chats: the day-before reminder posted to the
league's night channels (a real local webhook) and emailed to the members coming or maybe
(locmem), once; a night planned, moved and cancelled posted as it happens; the digest's next
night is a planned one."""

from __future__ import annotations

from datetime import datetime, time, timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from ratings import worker
from ratings.events import planning
from ratings.events.models import EventStatus
from ratings.models import System
from ratings.voice import reminders, texts
from ratings.voice.models import ChannelPost, NightReminder
from ratings.voice.tasks import day_before_reminders, post_night
from tests.builders import (
    make_event,
    make_league,
    make_night,
    make_players,
    next_friday,
    run_command,
    run_tasks,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    return make_league(System.PREFKO, name="Friday", provisional_games=0)


@pytest.fixture
def players(league):
    return make_players(["Ana", "Bojan", "Dragan", "Jelena"])


@pytest.fixture
def members(players, django_user_model):
    """Ana and Bojan log in, with an email; Dragan logs in without one; Jelena has no login."""
    users = []
    for player, email in zip(
        players[:3], ["ana@example.org", "bojan@example.org", ""], strict=True
    ):
        player.user = django_user_model.objects.create_user(player.name.lower(), email=email)
        player.save()
        users.append(player.user)
    return users


def tomorrow_at(hour: int) -> datetime:
    zone = timezone.get_default_timezone()
    day = timezone.localtime(timezone.now(), zone).date() + timedelta(days=1)
    return datetime.combine(day, time(hour), tzinfo=zone)


def test_the_day_before_the_night_the_chat_and_the_members_are_reminded_once(
    league, players, members, webhook
):
    """The done-when: a night planned for tomorrow, two members coming; the worker's run of the
    day posts one reminder naming the night and the players and emails both, once."""
    ana, bojan, dragan, jelena = players
    run_command("channel", "add", league.slug, webhook.url, "--posts", "nights")
    night = make_night(league, name="Thursday night", starts_at=tomorrow_at(20), place="Znak")
    planning.night_answer(event=night, player=ana, answer="coming")
    planning.night_answer(event=night, player=bojan, answer="coming")
    planning.night_answer(event=night, player=dragan, answer="maybe")
    planning.night_answer(event=night, player=jelena, answer="no")
    run_tasks()
    assert [post["title"] for post in webhook.posts] == [
        f"Thursday night is planned for {texts.when_text(night.starts_at)}"
    ]

    worker.schedule()
    (run,) = worker.queued_runs(day_before_reminders)
    local = timezone.localtime(run.run_after, timezone.get_default_timezone())
    assert (local.hour, local.minute) == (10, 0) and run.run_after > timezone.now()
    run_tasks(due_by=run.run_after)
    assert len(webhook.posts) == 2
    reminder = webhook.posts[1]
    assert reminder["title"].startswith("Tomorrow: Thursday night")
    assert "Where: Znak" in reminder["message"]
    assert "Coming: Ana, Bojan" in reminder["message"]
    assert "Maybe: Dragan" in reminder["message"] and "Jelena" not in reminder["message"]
    link = texts.absolute(night.get_absolute_url())
    assert link.startswith("http") and link in reminder["message"]
    # Dragan has no email, Jelena said no: Ana and Bojan, one email each.
    assert sorted(email.to[0] for email in mail.outbox) == ["ana@example.org", "bojan@example.org"]
    for email in mail.outbox:
        assert email.subject == reminder["title"]
        assert "Coming: Ana, Bojan" in email.body
        assert link in email.body

    # The task run again (a second worker, a retry): nothing new is sent.
    day_before_reminders.enqueue()
    run_tasks()
    assert len(webhook.posts) == 2 and len(mail.outbox) == 2
    assert NightReminder.objects.count() == 2


def test_only_tomorrows_planned_nights_are_reminded(league, players, members, webhook):
    run_command("channel", "add", league.slug, webhook.url, "--posts", "nights")
    later = make_night(league, name="Later", starts_at=tomorrow_at(20) + timedelta(days=2))
    cancelled = make_night(league, name="Off", starts_at=tomorrow_at(19))
    for night in (later, cancelled):
        planning.night_answer(event=night, player=players[0], answer="coming")
    planning.night_cancel(event=cancelled)
    assert reminders.reminders_send() == 0
    assert mail.outbox == []
    assert not ChannelPost.objects.filter(key__startswith="remind:").exists()


def test_reminders_run_at_ten_in_the_clubs_time(settings):
    settings.TIME_ZONE = "Europe/Belgrade"
    zone = timezone.get_default_timezone()
    morning = datetime(2026, 3, 5, 9, 0, tzinfo=zone)
    assert reminders.next_run(morning) == datetime(2026, 3, 5, 10, 0, tzinfo=zone)
    assert reminders.next_run(morning.replace(hour=10)) == datetime(2026, 3, 6, 10, tzinfo=zone)


def test_a_night_planned_moved_and_cancelled_is_posted_each_time(league, webhook):
    run_command("channel", "add", league.slug, webhook.url, "--posts", "nights")
    night = make_night(league, name="Friday night", place="Club")
    assert webhook.posts == []  # planning only queued the post
    run_tasks()
    (planned,) = webhook.posts
    assert planned["title"].startswith("Friday night is planned for")
    assert "Where: Club" in planned["message"] and night.get_absolute_url() in planned["message"]

    later = night.starts_at + timedelta(hours=1)
    planning.night_move(event=night, starts_at=later, place="Upstairs")
    planning.night_move(event=night, starts_at=later, place="Upstairs")  # no change: no post
    run_tasks()
    assert len(webhook.posts) == 2
    moved = webhook.posts[1]
    assert moved["title"] == f"Friday night is moved to {texts.when_text(later)}"
    assert "Where: Upstairs" in moved["message"]

    planning.night_cancel(event=night)
    run_tasks()
    assert len(webhook.posts) == 3
    assert webhook.posts[2]["title"].endswith("is cancelled")
    post_night.enqueue(night.pk, "cancelled")  # run twice: posted once
    run_tasks()
    assert len(webhook.posts) == 3


def test_a_league_without_night_channels_queues_nothing(league, webhook):
    run_command("channel", "add", league.slug, webhook.url, "--posts", "games")
    with_channel = make_night(league)
    other = make_league(System.PREFKO, name="Other")
    make_night(other)
    planning.night_cancel(event=with_channel)
    run_tasks()
    assert webhook.posts == []


def test_the_digests_next_night_is_the_next_planned_one(league, players):
    friday = next_friday()
    # A night started ahead of its time and a cancelled one are no "next planned night".
    make_event(league, players[:3], name="Started", starts_at=friday - timedelta(days=1))
    cancelled = make_night(league, name="Cancelled", starts_at=friday - timedelta(hours=2))
    planning.night_cancel(event=cancelled)
    assert texts.next_night(league) is None
    planned = make_night(league, name="Planned", starts_at=friday)
    make_night(league, name="After", starts_at=friday + timedelta(days=7))
    assert texts.next_night(league) == planned
    assert planned.status == EventStatus.PLANNED


def test_a_night_moved_in_the_admin_is_posted_too(league, webhook, admin_client):
    run_command("channel", "add", league.slug, webhook.url, "--posts", "nights")
    night = make_night(league, name="Friday night", place="Club")
    run_tasks()
    later = timezone.localtime(night.starts_at + timedelta(hours=1))
    response = admin_client.post(
        reverse("admin:ratings_event_change", args=[night.pk]),
        {
            "name": night.name,
            "starts_at_0": later.date().isoformat(),
            "starts_at_1": later.time().isoformat(),
            "place": "Upstairs",
            "organiser": "",
            "event_players-TOTAL_FORMS": "0",
            "event_players-INITIAL_FORMS": "0",
            "event_players-MIN_NUM_FORMS": "0",
            "event_players-MAX_NUM_FORMS": "1000",
        },
    )
    assert response.status_code == 302, response.context and response.context["errors"]
    run_tasks()
    assert [post["title"] for post in webhook.posts][1:] == [
        f"Friday night is moved to {texts.when_text(later)}"
    ]
