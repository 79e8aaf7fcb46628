"""Channels in the admin: the URL is a secret, shown only to staff who may change channels, and
masked in the list for everyone; a channel paused after failures shows its last error, and
resuming it queues its waiting posts."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from ratings.voice import services
from ratings.voice.models import Channel, ChannelPost
from tests.builders import make_league, run_tasks

pytestmark = pytest.mark.django_db

SECRET = "tgram://123456789:AAHsecretBotToken/-1001234567"


def staff_with(django_user_model, name: str, *codenames: str) -> Client:
    user = django_user_model.objects.create_user(name, is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(codename__in=codenames))
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def channel():
    return services.channel_add(league=make_league(name="Friday Preferans"), url=SECRET)


def test_staff_who_may_only_look_see_the_url_masked(channel, django_user_model):
    viewer = staff_with(django_user_model, "viewer", "view_channel")
    listing = viewer.get(reverse("admin:ratings_channel_changelist"))
    page = viewer.get(reverse("admin:ratings_channel_change", args=[channel.pk]))
    for response in (listing, page):
        assert response.status_code == 200
        text = response.content.decode()
        assert "secretBotToken" not in text and "123456789" not in text
        assert "tgram://…4567" in text


def test_staff_who_may_change_channels_see_and_edit_the_url(
    channel, django_user_model, django_assert_max_num_queries
):
    editor = staff_with(django_user_model, "editor", "view_channel", "change_channel")
    services.channel_add(league=channel.league, url="json://127.0.0.1/other")
    # The list reads each channel's league with it: no query per row.
    with django_assert_max_num_queries(8):
        listing = editor.get(reverse("admin:ratings_channel_changelist"))
    assert "secretBotToken" not in listing.content.decode()  # the list masks it for all
    page = editor.get(reverse("admin:ratings_channel_change", args=[channel.pk]))
    assert SECRET in page.content.decode()


def test_a_channel_added_in_the_admin_is_checked(django_user_model):
    league = make_league(name="Friday Preferans")
    adder = staff_with(django_user_model, "adder", "view_channel", "add_channel")
    url = reverse("admin:ratings_channel_add")
    refused = adder.post(url, {"league": league.pk, "url": "nonsense://x", "posts": ["games"]})
    assert refused.status_code == 200 and not Channel.objects.exists()
    adder.post(url, {"league": league.pk, "url": SECRET, "posts": ["games", "digest"]})
    assert Channel.objects.get().posts == "games,digest"


def test_resuming_a_paused_channel_queues_its_waiting_posts(channel, django_user_model, webhook):
    Channel.objects.filter(pk=channel.pk).update(
        paused=True, failures=5, last_error="refused", url=webhook.url
    )
    ChannelPost.objects.create(channel=channel, kind="games", key="game:1", title="T", body="B")
    editor = staff_with(django_user_model, "editor", "view_channel", "change_channel")
    listing = editor.get(reverse("admin:ratings_channel_changelist"))
    assert "refused" in listing.content.decode()
    editor.post(
        reverse("admin:ratings_channel_changelist"),
        {"action": "resume", "_selected_action": [channel.pk]},
    )
    run_tasks()
    assert [post["title"] for post in webhook.posts] == ["T"]
    channel.refresh_from_db()
    assert (channel.paused, channel.failures) == (False, 0)


def test_a_test_post_from_the_admin_is_sent_by_the_worker(channel, django_user_model, webhook):
    Channel.objects.filter(pk=channel.pk).update(url=webhook.url)
    editor = staff_with(django_user_model, "editor", "view_channel", "change_channel")
    editor.post(
        reverse("admin:ratings_channel_changelist"),
        {"action": "send_test", "_selected_action": [channel.pk]},
    )
    assert webhook.posts == []  # the request only queued it
    run_tasks()
    assert [post["title"] for post in webhook.posts] == ["A test from Friday Preferans"]


def test_staff_who_may_only_look_cannot_send_or_resume(channel, django_user_model):
    Channel.objects.filter(pk=channel.pk).update(paused=True)
    viewer = staff_with(django_user_model, "viewer", "view_channel")
    for action in ("send_test", "resume"):
        viewer.post(
            reverse("admin:ratings_channel_changelist"),
            {"action": action, "_selected_action": [channel.pk]},
        )
    assert not ChannelPost.objects.exists()
    assert Channel.objects.get().paused
