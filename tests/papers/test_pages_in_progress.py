"""Papers in progress are found again: the leaderboard and the home page list them, and a game
finished from a paper links back to it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import System
from ratings.papers import services
from tests.papers.deals import SHORT_GAME, enter

pytestmark = pytest.mark.django_db


@pytest.fixture
def paper(make_league, make_player):
    league = make_league(System.PREFKO, name="Friday")
    players = [make_player(name) for name in ("Ana", "Boris", "Ceca")]
    return services.paper_start(league=league, players=players, bula=10)


def _listed(text: str, paper) -> bool:
    return f'href="{reverse("ratings:paper", args=[paper.pk])}"' in text


@pytest.mark.parametrize("page", ["leaderboard", "home"])
def test_a_paper_in_progress_is_listed_with_its_players_and_deals(
    member_client, client, paper, page
):
    enter(paper, SHORT_GAME[:2])
    args = [paper.league.slug] if page == "leaderboard" else []
    url = reverse(f"ratings:{page}", args=args)
    for who in (member_client, client):
        text = who.get(url).content.decode()
        assert "Papers in progress" in text and _listed(text, paper)
        assert "Ana, Boris, Ceca" in text and "2 deals" in text


def test_the_cached_leaderboard_shows_each_new_deal_and_drops_a_finished_paper(
    member_client, paper
):
    url = reverse("ratings:leaderboard", args=[paper.league.slug])
    assert "0 deals" in member_client.get(url).content.decode()
    enter(paper, SHORT_GAME[:1])
    assert "1 deal" in member_client.get(url).content.decode()
    enter(paper, SHORT_GAME[1:])
    services.paper_finish(paper=paper, ended_early=False)
    text = member_client.get(url).content.decode()
    assert "Papers in progress" not in text and not _listed(text, paper)


def test_a_leagues_page_lists_only_its_own_papers(member_client, paper, make_league):
    other = make_league(System.PREFKO, name="Monday")
    text = member_client.get(reverse("ratings:leaderboard", args=[other.slug])).content.decode()
    assert not _listed(text, paper)


def test_a_game_finished_from_a_paper_links_to_it(client, paper, record_game):
    enter(paper, SHORT_GAME)
    game = services.paper_finish(paper=paper, ended_early=False)
    assert _listed(client.get(game.get_absolute_url()).content.decode(), paper)
    typed = record_game(
        paper.league,
        list(paper.players),
        papers=[(0, -2, 0), (24, 2, 16), (8, -6, 0)],
        bula=10,
        ended_early=True,
    )
    assert "/papers/" not in client.get(typed.get_absolute_url()).content.decode()
