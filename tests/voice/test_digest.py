"""The weekly digest: a member opts in on their own page, the worker sends last week's digest
once (locmem email), a signed link unsubscribes in one click, and digest channels get the
league's week."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ratings import worker
from ratings.voice import digest, services
from ratings.voice.models import DigestSubscription
from ratings.voice.tasks import weekly_digest
from tests.builders import run_tasks
from tests.worked_example import WORKED_EXAMPLE_PAPERS

pytestmark = pytest.mark.django_db


@pytest.fixture
def last_weeks_games(worked_example_league, worked_example_players, record_game, member_user):
    """Two games of the worked example last week, Pedja being the member's player."""
    pedja = worked_example_players[0]
    pedja.user = member_user
    pedja.save()
    _monday, start, _end = digest.last_week(timezone.now())
    for day in (1, 3):
        record_game(
            worked_example_league,
            worked_example_players,
            papers=WORKED_EXAMPLE_PAPERS,
            played_at=start + timedelta(days=day, hours=20),
        )
    return worked_example_league


@pytest.fixture
def subscribed(member_user):
    member_user.email = "pedja@example.org"
    member_user.save()
    return DigestSubscription.objects.create(user=member_user, weekly=True)


def test_the_worker_sends_last_weeks_digest_once(last_weeks_games, subscribed):
    worker.schedule()
    (run,) = worker.queued_runs(weekly_digest)
    assert timezone.localtime(run.run_after).weekday() == 0
    run_tasks(due_by=run.run_after)
    assert len(mail.outbox) == 1
    email = mail.outbox[0]
    assert email.to == ["pedja@example.org"]
    assert "Friday Preferans: 2 games, rating −53" in email.body
    # In prefko a lower rating is better: Pedja's fall is the week's one improvement.
    assert "Top movers: Pedja −53" in email.body
    link = email.extra_headers["List-Unsubscribe"].strip("<>")
    assert link in email.body and link.startswith("http")

    # A second run that week sends nothing: the week is remembered.
    weekly_digest.enqueue()
    run_tasks()
    assert len(mail.outbox) == 1
    subscribed.refresh_from_db()
    assert subscribed.last_week == digest.last_week(timezone.now())[0]


def test_members_who_did_not_opt_in_or_played_nothing_get_nothing(
    last_weeks_games, django_user_model
):
    django_user_model.objects.create_user("quiet", email="quiet@example.org")
    DigestSubscription.objects.create(
        user=django_user_model.objects.create_user("idle", email="idle@example.org"), weekly=True
    )
    assert digest.digest_send() == 0
    assert mail.outbox == []


def test_the_digest_posts_the_leagues_week_to_its_digest_channels(last_weeks_games, webhook):
    services.channel_add(league=last_weeks_games, url=webhook.url, posts=["digest"])
    weekly_digest.enqueue()
    run_tasks()
    assert len(webhook.posts) == 1
    assert "2 games this week." in webhook.posts[0]["message"]
    digest.digest_send()
    run_tasks()
    assert len(webhook.posts) == 1


def test_the_unsubscribe_link_works_in_one_click_without_logging_in(subscribed, member_user):
    link = reverse("ratings:digest_unsubscribe", args=[digest.unsubscribe_token(member_user)])
    response = Client().get(link)
    assert response.status_code == 200
    subscribed.refresh_from_db()
    assert not subscribed.weekly


def test_a_mail_programs_one_click_post_unsubscribes_without_a_csrf_token(subscribed, member_user):
    link = reverse("ratings:digest_unsubscribe", args=[digest.unsubscribe_token(member_user)])
    assert Client(enforce_csrf_checks=True).post(link).status_code == 200
    subscribed.refresh_from_db()
    assert not subscribed.weekly


def test_a_forged_unsubscribe_link_is_404(subscribed, member_user):
    token = digest.unsubscribe_token(member_user)
    forged = f"{member_user.pk + 1}{token[token.index(':') :]}"
    for bad in (forged, "nonsense"):
        assert Client().get(reverse("ratings:digest_unsubscribe", args=[bad])).status_code == 404
    subscribed.refresh_from_db()
    assert subscribed.weekly


def test_a_member_opts_in_on_their_own_settings_page(
    member_client, member_user, django_assert_max_num_queries
):
    url = reverse("ratings:digest_settings")
    # The session, the member with their player (the header), their subscription.
    with django_assert_max_num_queries(4):
        page = member_client.get(url)
    assert page.status_code == 200
    assert member_client.post(url, {"weekly": "on"}).status_code == 302
    assert DigestSubscription.objects.get(user=member_user).weekly
    member_client.post(url, {})
    assert not DigestSubscription.objects.get(user=member_user).weekly


def test_visitors_are_sent_to_log_in(client):
    response = client.get(reverse("ratings:digest_settings"))
    assert response.status_code == 302 and "/login" in response["Location"]


@pytest.mark.parametrize(
    ("now", "expected"),
    [
        (datetime(2026, 11, 28, 20, 0), datetime(2026, 11, 30, 8, 0)),  # Saturday
        (datetime(2026, 11, 30, 7, 59), datetime(2026, 11, 30, 8, 0)),  # Monday, before
        (datetime(2026, 11, 30, 8, 0), datetime(2026, 12, 7, 8, 0)),  # Monday, at eight
    ],
)
def test_the_digest_runs_on_monday_at_eight_club_time(settings, now, expected):
    settings.TIME_ZONE = "Europe/Belgrade"
    assert digest.next_run(timezone.make_aware(now)) == timezone.make_aware(expected)
