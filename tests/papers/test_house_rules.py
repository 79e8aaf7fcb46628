"""A league's house rules on its papers: chosen in the league's settings, kept by each paper
started under them, shown on the paper's page (the rules themselves:
tests/algorithms/test_paper_rules.py)."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from ratings.algorithms.paper import LIBRARY, HouseRules
from ratings.papers import selectors, services
from tests.papers.deals import enter, played, start

pytestmark = pytest.mark.django_db

# Bula 10: 30 -> 16 -> 6 bulas left, then seat 3 falls on herc (8) with seat 1 taking 5 tricks.
TO_SIX = [played(1, "sans"), played(2, "tref")]
FALL = played(3, "herc", failed=True, followers=[(1, "followed", 5, False)])


@pytest.fixture
def club_rules(table):
    league, _players = table
    league.settings = {"double_fall": True, "kontra_on_pik": False}
    league.save()
    return table


def test_a_paper_keeps_the_house_rules_of_its_league_when_started(club_rules):
    league, _players = club_rules
    paper = start(club_rules)
    assert selectors.house_rules(paper) == HouseRules(double_fall=True, kontra_on_pik=False)
    enter(paper, [*TO_SIX, FALL])
    assert selectors.drawn_paper(paper).columns == [(40, -4, 0), (0, 0, 0), (0, 26, 0)]
    # The league's rules changed later: the paper keeps those it was kept by.
    league.settings = {}
    league.save()
    paper.refresh_from_db()
    assert selectors.drawn_paper(paper).columns == [(40, -4, 0), (0, 0, 0), (0, 26, 0)]
    assert selectors.house_rules(start(club_rules)) == LIBRARY
    # Its log says the rules, so its export replays the same paper.
    assert selectors.deal_log(paper)["rules"] == {"double_fall": True, "kontra_on_pik": False}


def test_a_deal_the_house_rules_refuse_is_refused_naming_the_deal(club_rules):
    paper = start(club_rules)
    kontra_on_pik = played(1, "pik", kontra=1, followers=[(2, "followed", 1, False)])
    with pytest.raises(ValidationError, match="hand 1: the house rules give no kontra on pik"):
        services.deal_add(paper=paper, hand=kontra_on_pik, after=0)
    assert not paper.deals.exists()


def test_a_played_out_paper_under_house_rules_is_rated_and_agrees_with_its_game(club_rules):
    paper = start(club_rules)
    enter(paper, [*TO_SIX, FALL, played(3, "sans"), played(3, "sans")])  # 26 -> 12 -> -2
    game = services.paper_finish(paper=paper)
    assert [r.paper for r in game.results.order_by("seat")] == [
        (40, -4, 0),
        (0, 0, 0),
        (0, -2, 0),
    ]
    assert not game.ended_early
    assert selectors.first_paper_difference() is None  # restore_club's check


def test_the_paper_page_shows_its_house_rules(client, club_rules):
    paper = start(club_rules)
    page = client.get(reverse("ratings:paper", args=[paper.pk])).content.decode()
    rules = page.split('class="house-rules"', 1)[1].split("</details>", 1)[0]
    assert "Double fall near the end</dt><dd>applied" in rules
    assert "Kontra on pik</dt><dd>not given" in rules
    assert "Supa on a failed betl</dt><dd>tricks × value" in rules
    league, _players = club_rules
    league.settings = {}
    league.save()
    library = client.get(reverse("ratings:paper", args=[start(club_rules).pk])).content.decode()
    assert "House rules · as prefko" in library and "library keeps them" in library


def test_the_leagues_settings_check_the_house_rules(table):
    league, _players = table
    system = league.rating_system
    assert system.clean_settings({"betl_fall_supa": 60, "max_kontra": "2"}) == {
        "refas": None,
        "betl_fall_supa": 60,
        "kontra_on_pik": True,
        "double_fall": False,
        "max_kontra": 2,
    }
    with pytest.raises(ValidationError, match="supa on a failed betl"):
        system.clean_settings({"betl_fall_supa": 0})
