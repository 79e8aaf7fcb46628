"""The phone's deal pad: the deal posted by fetch answers JSON, one tap per follower's tricks,
who deals, and the words and values the pad shows come from the server."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from ratings.models import System
from ratings.papers import selectors, services
from tests.papers.deals import REFA, SHORT_GAME, enter

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def paper(make_league, make_player):
    league = make_league(System.PREFKO, name="Friday")
    players = [make_player(name) for name in ("Ana", "Boris", "Ceca")]
    return services.paper_start(league=league, players=players, bula=10)


def test_a_deal_from_the_pad_is_answered_in_json(
    member_client, paper, django_assert_max_num_queries
):
    url = reverse("ratings:paper_deal", args=[paper.pk])
    taps = {"after": "0", "kind": "played", "declarer": "1", "contract": "pik", "tricks_2": "2"}
    with django_assert_max_num_queries(20):
        response = member_client.post(url, taps, **JSON)
    assert response.status_code == 200
    assert response.json() == {"ok": True, "deals": 1}
    followers = paper.deals.get().entered["followers"]
    # Tricks tapped: the follower came; nothing tapped: passed.
    assert followers[0] == {"seat": 2, "play": "followed", "tricks": 2, "failed": False}
    assert followers[1]["play"] == "passed"


def test_the_refa_button_alone_adds_a_refa(member_client, paper):
    url = reverse("ratings:paper_deal", args=[paper.pk])
    response = member_client.post(url, {"after": "0", "kind": "refa"}, **JSON)
    assert response.json()["ok"]
    assert paper.deals.get().entered == REFA.to_json()


def test_a_refused_deal_is_answered_with_why_and_the_paper_unchanged(member_client, paper):
    url = reverse("ratings:paper_deal", args=[paper.pk])
    response = member_client.post(url, {"after": "0", "kind": "played"}, **JSON)
    assert response.status_code == 200
    assert response.json() == {
        "ok": False,
        "errors": ["Who declared?"],
        "deals": 0,
        "stale": False,
        "reused": False,
    }
    enter(paper, [REFA])  # another phone
    answer = member_client.post(url, {"after": "0", "kind": "refa"}, **JSON).json()
    assert (answer["ok"], answer["stale"], answer["deals"]) == (False, True, 1)
    assert paper.deals.count() == 1


def test_a_browser_without_javascript_still_gets_the_page(member_client, paper):
    url = reverse("ratings:paper_deal", args=[paper.pk])
    response = member_client.post(url, {"after": "0", "kind": "refa"})
    assert response.status_code == 302


def test_the_deal_passes_round_the_table_refe_included(paper):
    assert [selectors.dealer_seat(n) for n in range(1, 8)] == [1, 2, 3, 1, 2, 3, 1]
    assert [selectors.first_bidder_seat(n) for n in range(1, 4)] == [2, 3, 1]
    enter(paper, [REFA, REFA])
    page = selectors.paper_page(paper.pk)
    assert [deal.dealer for deal in page.deals] == ["Ana", "Boris"]
    assert page.next_dealer["name"] == "Ceca"
    assert page.next_first_bidder["name"] == "Ana"
    assert page.open_refa_counts == "2,2,2"


def test_the_pad_shows_the_servers_values_and_words(member_client, paper):
    enter(paper, [REFA])
    response = member_client.get(reverse("ratings:paper", args=[paper.pk]))
    text = response.content.decode()
    words = json.loads(
        text.split('id="pad-words" type="application/json">')[1].split("</script>")[0]
    )
    # values[contract][igra][on a refa][kontra]
    assert words["values"]["pik"][0][0][0] == 4
    assert words["values"]["sans"][1][1][2] == 4 * 2 * (14 + 2)
    assert words["names"] == ["Ana", "Boris", "Ceca"]
    assert "Boris deals, Ceca bids first" in text
    assert 'data-open-refa-counts="1,1,1"' in text


def test_the_finish_replaces_the_pad_when_the_bulas_run_out(member_client, paper):
    enter(paper, SHORT_GAME)
    text = member_client.get(reverse("ratings:paper", args=[paper.pk])).content.decode()
    assert "data-deal-form" not in text
    assert "Finish and rate" in text
