"""A player's deals from the digital papers: declared, made, by contract, refe, supe, falls."""

import pytest
from django.urls import reverse

from ratings.papers import services
from ratings.papers.statistics import SideDeals, pair_deal_statistics, player_deal_statistics
from tests.papers.deals import REFA, SHORT_GAME, enter, played, start

pytestmark = pytest.mark.django_db


def test_a_players_deals_are_counted_from_the_papers_they_sat_at(table):
    league, (ana, boris, ceca) = table
    paper = start(table, bula=30)  # the deals after SHORT_GAME's come before the end
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


def test_two_players_deals_against_each_other_are_counted_each_way(table, make_player):
    league, (ana, boris, ceca) = table
    paper = start(table, bula=30)  # the deals after SHORT_GAME's come before the end
    enter(
        paper,
        [
            *SHORT_GAME,
            played(2, "herc", failed=True, followers=[(3, "followed", 5, False)]),
            played(3, "pik", followers=[(1, "followed", 1, True), (2, "followed", 1, False)]),
            played(2, "sans", followers=[(1, "followed", 2, False)]),
        ],
    )
    services.deal_repeal(paper=paper, number=7)  # counts for nothing
    # A paper Ana and Boris did not both sit at counts for nothing either.
    dora = make_player("Dora")
    enter(start((league, [ana, ceca, dora])), [played(1, "pik")])

    pair = pair_deal_statistics(boris, ceca)[league.pk]
    assert pair.papers == 1
    # Boris's pik (Ceca 1 trick x 8) and failed herc (5 x 8); Ceca's pik with kontra on a
    # refa (Boris 1 x 16) and her pik (1 x 4).
    assert pair.first == SideDeals(declared=2, made=1, followed=2, supe=48, falls=0)
    assert pair.second == SideDeals(declared=2, made=2, followed=2, supe=20, falls=0)
    pair = pair_deal_statistics(ana, boris)[league.pk]
    assert pair.first == SideDeals(declared=1, made=1, followed=1, supe=24, falls=0)
    assert pair.second == SideDeals(declared=2, made=1, followed=0, supe=0, falls=0)
    assert pair_deal_statistics(boris, dora) == {}


def test_the_head_to_head_page_shows_their_deals(client, table):
    league, (ana, boris, _ceca) = table
    paper = start(table)
    enter(paper, SHORT_GAME)
    services.paper_finish(paper=paper)
    html = client.get(reverse("ratings:head_to_head", args=[ana.slug, boris.slug])).content
    html = html.decode()
    assert "Their deals against each other" in html and "From 1 digital paper." in html
