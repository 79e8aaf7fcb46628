"""Calendar feeds (ratings/events/calendar.py, ratings/views/nights.py): parsed back with
icalendar, as a calendar app reads them."""

from __future__ import annotations

from datetime import timedelta

import icalendar
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ratings.events import calendar, planning
from ratings.models import System
from tests.builders import PASSWORD, make_event, make_league, make_night

pytestmark = pytest.mark.django_db


def parsed(response) -> icalendar.Calendar:
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return icalendar.Calendar.from_ical(response.content)


def vevents(response) -> dict[str, icalendar.Event]:
    """The feed's events by summary."""
    return {str(e["summary"]): e for e in parsed(response).walk("VEVENT")}


@pytest.fixture
def planned(league, nine):
    """The done-when of issue #42: a night planned for next Friday, two members coming and one
    maybe."""
    night = make_night(league, place="Kafana")
    for player, answer in zip(nine[:3], ["coming", "coming", "maybe"], strict=True):
        planning.night_answer(event=night, player=player, answer=answer)
    return night


def test_the_club_feed_lists_the_planned_night_with_the_same_uid_every_time(client, planned):
    first = vevents(client.get("/events.ics"))["Friday night"]
    again = vevents(client.get("/events.ics"))["Friday night"]
    assert first["uid"] == again["uid"] == calendar.event_uid(planned)
    assert first.decoded("dtstart") == planned.starts_at
    assert first.decoded("dtend") - first.decoded("dtstart") == calendar.NIGHT_LENGTH
    assert str(first["location"]) == "Kafana" and str(first["status"]) == "CONFIRMED"
    assert first["sequence"] == 0
    assert str(first["url"]).endswith(planned.get_absolute_url())


def test_a_moved_then_cancelled_night_keeps_its_uid_with_a_higher_sequence(client, planned):
    uid = calendar.event_uid(planned)
    planning.night_move(
        event=planned, starts_at=planned.starts_at + timedelta(hours=1), place="Upstairs"
    )
    planning.night_cancel(event=planned)
    event = vevents(client.get("/events.ics"))["Friday night"]
    assert event["uid"] == uid and event["sequence"] == 2
    assert str(event["status"]) == "CANCELLED" and str(event["location"]) == "Upstairs"


def test_the_feed_is_in_the_clubs_time_zone_with_its_vtimezone(client, planned, settings):
    settings.TIME_ZONE = "Europe/Belgrade"
    feed = parsed(client.get("/events.ics"))
    (zone,) = feed.walk("VTIMEZONE")
    assert str(zone["tzid"]) == "Europe/Belgrade"
    (event,) = feed.walk("VEVENT")
    assert event.decoded("dtstart") == planned.starts_at
    assert event["dtstart"].params["TZID"] == "Europe/Belgrade"


def test_past_nights_of_the_last_year_only(client, league, nine):
    now = timezone.now()
    make_event(league, nine, name="Last month", starts_at=now - timedelta(days=30))
    make_event(league, nine, name="Two years ago", starts_at=now - timedelta(days=700))
    assert set(vevents(client.get("/events.ics"))) == {"Last month"}


def test_a_leagues_feed_lists_its_own_nights(client, league, planned):
    other = make_league(System.PREFKO, name="Sunday")
    make_night(other, name="Sunday night")
    assert set(vevents(client.get(f"/leagues/{league.slug}/events.ics"))) == {"Friday night"}
    assert set(vevents(client.get(f"/leagues/{other.slug}/events.ics"))) == {"Sunday night"}
    assert set(vevents(client.get("/events.ics"))) == {"Friday night", "Sunday night"}
    assert client.get("/leagues/no-such-league/events.ics").status_code == 404


def test_a_feed_costs_one_query_whatever_the_number_of_nights(
    client, league, nine, django_assert_num_queries
):
    """A query per night (its league) would be an n+1 a calendar app repeats every hour."""
    for n in range(5):
        make_night(league, name=f"Night {n}", starts_at=timezone.now() + timedelta(days=n + 1))
    with django_assert_num_queries(1):
        assert len(vevents(client.get("/events.ics"))) == 5
    with django_assert_num_queries(2):  # the league, its nights
        client.get(f"/leagues/{league.slug}/events.ics")


def test_the_night_page_offers_add_to_calendar(client, planned):
    page = client.get(planned.get_absolute_url()).content.decode()
    url = reverse("ratings:event_ics", args=[planned.pk])
    assert f'href="{url}"' in page
    (event,) = parsed(client.get(url)).walk("VEVENT")
    assert event["uid"] == calendar.event_uid(planned)


# A member's private address -----------------------------------------------------------------------


def private_addresses(client: Client) -> dict[str, str]:
    """Make the member's private address on their calendar page: the addresses shown once."""
    response = client.post(reverse("ratings:calendar_settings"))
    assert response.status_code == 302
    page = client.get(reverse("ratings:calendar_settings")).content.decode()
    addresses = {}
    for line in page.splitlines():
        if "/calendar/" in line and "<code>" in line:
            url = line.split("<code>")[1].split("</code>")[0]
            addresses[url.rsplit("/", 1)[-1] if "leagues" not in url else "league"] = url
    shown_again = client.get(reverse("ratings:calendar_settings")).content.decode()
    assert "://testserver/calendar/" not in shown_again  # shown once
    return addresses


@pytest.fixture
def vesna_client(nine, django_user_model) -> Client:
    member = django_user_model.objects.create_user("vesna", password=PASSWORD)
    vesna = nine[8]
    vesna.user = member
    vesna.save()
    client = Client()
    client.force_login(member)
    return client


def test_a_members_feed_lists_the_nights_they_are_coming_to(
    vesna_client, league, nine, planned, django_assert_num_queries
):
    other = make_night(league, name="Maybe night", starts_at=planned.starts_at + timedelta(7))
    planning.night_answer(event=planned, player=nine[8], answer="coming")
    planning.night_answer(event=other, player=nine[8], answer="maybe")
    addresses = private_addresses(vesna_client)
    mine = addresses["mine.ics"]
    anonymous = Client()
    with django_assert_num_queries(2):  # the key, the nights
        response = anonymous.get(mine)
    assert set(vevents(response)) == {"Friday night"}


def test_a_revoked_or_replaced_address_stops_working(vesna_client, planned):
    first = private_addresses(vesna_client)["mine.ics"]
    second = private_addresses(vesna_client)["mine.ics"]
    assert Client().get(first).status_code == 404
    assert Client().get(second).status_code == 200
    vesna_client.post(reverse("ratings:calendar_settings"), {"action": "revoke"})
    assert Client().get(second).status_code == 404
    assert Client().get("/calendar/not-a-key/mine.ics").status_code == 404


def test_a_private_club_serves_feeds_only_at_private_addresses(
    vesna_client, league, planned, settings
):
    settings.CLUB_PRIVATE = True
    anonymous = Client()
    assert anonymous.get("/events.ics").status_code == 404
    assert anonymous.get(f"/leagues/{league.slug}/events.ics").status_code == 404
    assert vesna_client.get("/events.ics").status_code == 404
    assert anonymous.get(reverse("ratings:event_ics", args=[planned.pk])).status_code == 302
    addresses = private_addresses(vesna_client)
    assert set(vevents(anonymous.get(addresses["events.ics"]))) == {"Friday night"}
    assert set(vevents(anonymous.get(addresses["league"]))) == {"Friday night"}


def test_the_calendar_page_is_for_members(client):
    response = client.get(reverse("ratings:calendar_settings"))
    assert response.status_code == 302 and "login" in response["Location"]


def test_uid_is_stable_across_time_zones(planned, settings):
    uid = calendar.event_uid(planned)
    settings.TIME_ZONE = "America/New_York"
    assert calendar.event_uid(planned) == uid
