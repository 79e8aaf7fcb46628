"""A league's games list reaches its first games (oldest first) and answers a page past its
end honestly, not with page 1."""

import pytest
from django.urls import reverse

from tests.views.pages import QUERIES

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(prefko_league_with):
    league, _people = prefko_league_with(players=6, games=60)
    return league


def played_times(response) -> list:
    return [row.record.played_at for row in response.context["table"].page.object_list]


def test_oldest_first_starts_with_the_league_s_first_game(client, league):
    url = reverse("ratings:league_games", args=[league.slug])
    newest, oldest = client.get(url), client.get(url, {"order": "oldest"})

    first = league.games.order_by("played_at", "id").first()
    assert played_times(oldest)[0] == first.played_at
    assert played_times(oldest) == sorted(played_times(oldest))
    assert played_times(newest) == sorted(played_times(newest), reverse=True)
    page = oldest.content.decode()
    assert 'aria-current="true">Oldest first</a>' in page
    assert "?order=oldest&amp;page=2" in page or "?page=2&amp;order=oldest" in page


def test_a_page_past_the_end_says_so(client, league):
    url = reverse("ratings:league_games", args=[league.slug])
    assert "There is no page" not in client.get(url, {"page": 2}).content.decode()

    past = client.get(url, {"page": 99})

    assert past.status_code == 200
    page = past.content.decode()
    assert "There is no page 99: the list of games is shorter." in page
    assert "?order=oldest" in page
    assert "<tbody>" not in page  # not page 1's games under it


def test_oldest_first_costs_the_same(client, league, django_assert_num_queries):
    url = reverse("ratings:league_games", args=[league.slug])
    with django_assert_num_queries(QUERIES["games"]):
        assert client.get(url, {"order": "oldest", "page": 2}).status_code == 200
