"""Tonight on the home page: a club night in progress with its round and progress, and a
logged-in member's own table with its entry link."""

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings.events import services
from ratings.models import Player
from tests.builders import make_event, play_table
from tests.views.pages import LOGGED_IN, QUERIES

pytestmark = pytest.mark.django_db


@pytest.fixture
def tonight_night(league, nine):
    event = make_event(league, nine, name="Friday night", starts_at=timezone.now())
    first = services.round_draw(event=event)
    play_table(first.tables.get(number=1))
    return event


def test_a_night_in_progress_is_on_the_home_page(client, tonight_night):
    page = client.get(reverse("ratings:home")).content.decode()
    assert "Tonight:" in page
    assert tonight_night.get_absolute_url() in page
    assert "Round 1: 1 of 3 tables in" in page


def test_a_member_sees_their_own_table_and_its_entry_link(
    member_client, member_user, tonight_night
):
    table = tonight_night.rounds.get().tables.get(number=2)
    player = Player.objects.get(pk=table.seats.first().player_id)
    player.user = member_user
    player.save()

    page = member_client.get(reverse("ratings:home")).content.decode()

    assert "Your table: table 2." in page
    entry = reverse("ratings:game_new", args=[tonight_night.league.slug]) + f"?table={table.pk}"
    assert entry in page


def test_a_closed_night_or_an_old_one_is_not_tonight(client, league, nine):
    closed = make_event(league, nine, name="Closed night", starts_at=timezone.now())
    services.event_close(event=closed)
    make_event(league, nine, name="Last month", starts_at=timezone.now() - timezone.timedelta(30))
    page = client.get(reverse("ratings:home")).content.decode()
    assert "Tonight:" not in page


def test_tonight_costs_one_query_and_one_more_for_a_member_s_table(
    client, member_client, member_user, tonight_night, django_assert_num_queries
):
    Player.objects.filter(pk=tonight_night.event_players.first().player_id).update(user=member_user)
    with django_assert_num_queries(QUERIES["home"]):
        client.get(reverse("ratings:home"))
    # One more for the member's table, and one for the games waiting for their confirmation.
    with django_assert_num_queries(QUERIES["home"] + LOGGED_IN + 2):
        member_client.get(reverse("ratings:home"))
