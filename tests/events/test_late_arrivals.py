"""Late arrivals on a club night's page: a "Did you mean …?" tap adds the player, and the page
goes back to the event after a post (its address never becomes one that answers 405)."""

import pytest
from django.urls import reverse

from ratings.models import Player

pytestmark = pytest.mark.django_db


def test_did_you_mean_adds_the_late_player_and_goes_back_to_the_event(
    organiser_client,
    night,
):
    zoran = Player.objects.create_named("Zoran")
    url = reverse("ratings:event_players_add", args=[night.pk])
    asked = organiser_client.post(url, {"player_0": "Zorana"})
    assert "Did you mean Zoran?" in asked.content.decode()

    tapped = organiser_client.post(url, {"player_0": "Zorana", "use_player_0": "Zoran"})

    assert tapped.status_code == 302
    assert tapped["Location"] == night.get_absolute_url()
    assert night.event_players.filter(player=zoran).exists()
    page = organiser_client.get(tapped["Location"]).content.decode()
    assert "Present from the next round: Zoran." in page


def test_the_late_arrivals_address_opened_again_leads_to_the_event(
    organiser_client,
    night,
):
    """A refused name shows the page again with the box open, at the box; opened again (a
    reload, a shared link) the address goes to the event instead of answering 405."""
    url = reverse("ratings:event_players_add", args=[night.pk])
    refused = organiser_client.post(url, {"player_0": "Zorana", "player_1": "Zorana"})
    page = refused.content.decode()
    assert refused.status_code == 200
    assert '<details id="late-arrivals" open>' in page
    assert "#late-arrivals" in page  # the form's answer opens at the box

    again = organiser_client.get(url)

    assert again.status_code == 302
    assert again["Location"] == night.get_absolute_url()
