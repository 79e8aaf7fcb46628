"""Error pages in the club's own layout, saying what happened and what to do next."""

import pytest
from django.test import RequestFactory
from django.urls import reverse

from ratings.models import League, System
from ratings.views.errors import server_error

pytestmark = pytest.mark.django_db


def test_a_missing_page_is_the_clubs_404(client, settings):
    settings.CLUB_NAME = "Friday Club"

    response = client.get("/games/999999/")

    assert response.status_code == 404
    assert b"Page not found" in response.content
    assert b"Friday Club" in response.content


def test_a_refusal_is_the_clubs_403(member_client):
    hearts = League.objects.create(name="Hearts", slug="hearts", system=System.RAYTER_LOWSCORE)

    response = member_client.get(reverse("ratings:rayter_import", args=[hearts.slug]))

    assert response.status_code == 403
    assert b"You may not do that" in response.content


def test_a_request_too_big_is_the_clubs_400(member_client):
    body = b"note=" + b"x" * (6 * 1024 * 1024)

    response = member_client.post(
        reverse("ratings:player_new"), body, content_type="application/x-www-form-urlencoded"
    )

    assert response.status_code == 400
    assert b"That request could not be read" in response.content


def test_the_server_error_page_needs_no_database(django_assert_num_queries, settings):
    """A 500 may be the database failing: the page must not ask it for the user or session."""
    settings.CLUB_NAME = "Friday Club"
    request = RequestFactory().get("/")

    with django_assert_num_queries(0):
        response = server_error(request)

    assert response.status_code == 500
    assert b"Something went wrong on our side" in response.content
    assert b"Friday Club" in response.content


# Hostile URLs ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/players/%00/",
        "/players/a%00b/",
        "/players/%FF%FE/",
        "/players/" + "x" * 5000 + "/",
        "/games/99999999999999999999999/",
        "/leagues/friday/?min_games=-1",
        "/leagues/friday/?min_games=99999999999999999999",
        "/leagues/friday/?sort=%00&page=-1",
        "/leagues/friday/?page=99999999999999999999",
        "/leagues/friday/games/?player=%00",
        "/leagues/friday/games/?page=abc&sort=nonsense",
        "/leagues/friday/standings.csv?min_games=%00",
        "/leagues/friday/standings.exe",
        "/players/pedja/?friday-page=%00",
    ],
)
def test_hostile_urls_are_answered_without_a_server_error(client, friday_league, path):
    response = client.get(path)

    assert response.status_code in (200, 400, 404)
