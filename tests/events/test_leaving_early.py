"""A player who leaves a club night early: withdrawn from the next rounds (the draw and the
byes follow), their games and standings line kept."""

import pytest
from django.urls import reverse

from ratings.events import services
from ratings.models import Player
from tests.builders import play_table

pytestmark = pytest.mark.django_db


def seated(event_round) -> set[str]:
    return {
        seat.player.name
        for table in event_round.tables.all()
        for seat in table.seats.select_related("player")
    }


def test_a_withdrawn_player_is_not_drawn_again_and_keeps_their_games(
    organiser_client,
    night,
):
    first = services.round_draw(event=night)
    for table in first.tables.all():
        play_table(table)
    leaving = Player.objects.get(name="Vesna")
    assert "Vesna" in seated(first)

    response = organiser_client.post(
        reverse("ratings:event_player_withdraw", args=[night.pk]), {"player": "vesna"}, follow=True
    )

    page = response.content.decode()
    assert "Vesna leaves: not drawn in the next rounds; the games played stay." in page
    assert not night.event_players.filter(player=leaving).exists()
    second = services.round_draw(event=night)
    assert "Vesna" not in seated(second)
    # Eight present: two tables of three and two byes, none of them Vesna's.
    byes = {player.name for player in second.byes.all()}
    assert len(byes) == 2
    assert seated(second) | byes == {"Ana", "Bojan", "Dragan", "Jelena", "Marko", "Milica",
                                     "Nikola", "Pedja"}  # fmt: skip
    standings = organiser_client.get(night.get_absolute_url()).context["page"].standings
    assert "Vesna" in {row.player.name for row in standings}


def test_the_event_page_offers_it_to_the_organiser_only(organiser_client, client, night):
    url = reverse("ratings:event_player_withdraw", args=[night.pk])
    assert f'action="{url}"' in organiser_client.get(night.get_absolute_url()).content.decode()
    assert f'action="{url}"' not in client.get(night.get_absolute_url()).content.decode()
