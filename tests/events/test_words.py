"""Words of the event pages that mean one thing in English and two in Serbian and Russian."""

import pytest
from django.conf import settings
from django.urls import reverse

pytestmark = pytest.mark.django_db


def in_language(client, code: str):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = code
    return client


# The table draw of a night, and a drawn game: one English word, two in each language.
TABLE_DRAW = {"ru": ("Жеребьёвка", "Ничья"), "sr-latn": ("Žreb", "Remi")}


@pytest.mark.parametrize("code", TABLE_DRAW)
def test_the_table_draw_is_not_a_drawn_game(organiser_client, night, code):
    seating, drawn_game = TABLE_DRAW[code]
    in_language(organiser_client, code)
    pages = [
        organiser_client.get(reverse("ratings:event", args=[night.pk])),
        organiser_client.get(reverse("ratings:event_new", args=[night.league.slug])),
    ]
    for response in pages:
        page = response.content.decode()
        assert seating in page
        assert drawn_game not in page
