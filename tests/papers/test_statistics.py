"""A player's deals from the digital papers: declared, made, by contract, refe, supe, falls."""

import pytest
from django.urls import reverse

from ratings.papers import services
from ratings.papers.statistics import player_deal_statistics
from tests.papers.deals import REFA, SHORT_GAME, enter, played, start

pytestmark = pytest.mark.django_db


def test_a_players_deals_are_counted_from_the_papers_they_sat_at(table):
    league, (ana, boris, ceca) = table
    paper = start(table)
    enter(
        paper,
        [
            *SHORT_GAME,
            played(2, "herc", failed=True, followers=[(3, "followed", 5, False)]),
            played(3, "pik", followers=[(1, "followed", 1, True), (2, "followed", 1, False)]),
        ],
    )
    # A repealed deal counts for nothing.
    enter(paper, [played(2, "sans", followers=[(1, "followed", 2, False)])])
    services.deal_repeal(paper=paper, number=7)

    boris_stats = player_deal_statistics(boris)
    assert (boris_stats.papers, boris_stats.deals, boris_stats.refe) == (1, 6, 1)
    assert (boris_stats.declared, boris_stats.made, boris_stats.refe_played) == (2, 1, 1)
    assert [(c.contract, c.declared, c.made) for c in boris_stats.contracts] == [
        ("pik", 1, 1),
        ("herc", 1, 0),
    ]
    # Boris followed Ana (2 tricks x 12), Ceca (1 x 16) and Ceca again (1 x 4).
    assert (boris_stats.follows, boris_stats.supe_written, boris_stats.falls) == (3, 44, 0)
    # Against Boris: Ceca's trick on his pik (8), her five on his failed herc (5 x 8).
    assert boris_stats.supe_conceded == 48

    ana_stats = player_deal_statistics(ana)
    assert (ana_stats.declared, ana_stats.made, ana_stats.made_percent) == (1, 1, 100)
    assert (ana_stats.follows, ana_stats.falls) == (1, 1)


def test_the_deals_page_shows_them_and_the_player_page_links_there(client, table):
    league, (ana, _boris, _ceca) = table
    enter(start(table), [REFA, *SHORT_GAME[1:]])
    url = reverse("ratings:player_deals", args=[ana.slug])
    html = client.get(url).content.decode()
    assert "Declared" in html and "karo" in html
    empty = client.get(reverse("ratings:player_deals", args=["nobody"]))
    assert empty.status_code == 404


def test_the_deals_page_runs_the_same_queries_however_many_papers(
    client, table, django_assert_num_queries
):
    """The player; their deals with the papers."""
    _league, (ana, _boris, _ceca) = table
    url = reverse("ratings:player_deals", args=[ana.slug])
    for _ in range(3):
        enter(start(table), SHORT_GAME)
        with django_assert_num_queries(2):
            assert client.get(url).status_code == 200
