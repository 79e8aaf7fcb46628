"""Chances before a game (ratings/chances.py) and the entry preview that shows them."""

from __future__ import annotations

import pytest
from django.urls import reverse
from openskill.models import PlackettLuce

from ratings import chances
from ratings.models import System
from ratings.systems import SkillRating

pytestmark = pytest.mark.django_db


def test_elo_chances_are_its_expected_score(make_league):
    league = make_league(System.ELO)
    assert chances.chances_before(league, [1600.0, 1400.0]) == pytest.approx(
        [1 / (1 + 10 ** (-200 / 400)), 1 / (1 + 10 ** (200 / 400))]
    )


def test_openskill_chances_are_the_packages(make_league):
    league = make_league(System.OPENSKILL_LOWSCORE, start_rating=0)
    ratings = [SkillRating(30.0, 4.0), SkillRating(25.0, 8.0), SkillRating(20.0, 3.0)]
    model = PlackettLuce()
    expected = model.predict_win([[model.rating(r.mu, r.sigma)] for r in ratings])
    assert chances.chances_before(league, ratings) == expected


def test_rayter_chances_come_from_the_leagues_games(make_league, make_player, record_game):
    league = make_league(System.RAYTER_HIGHSCORE)
    assert chances.chances_before(league, [1000.0, 1000.0]) is None  # nothing to go on yet
    strong, weak, middle = make_player(), make_player(), make_player()
    for n in range(20):
        record_game(league, [strong, middle, weak], scores=[30 + n % 3, 20, 10])
    # Mostly won by the better rated: the better rated is the favourite, the chances add to 1.
    found = chances.chances_before(league, [1100.0, 1000.0, 900.0])
    assert found[0] > found[1] > found[2]
    assert sum(found) == pytest.approx(1)


def test_a_fitted_curve_favours_the_better_rating_in_the_systems_direction():
    from ratings.systems import SYSTEMS

    prefko, rayter = SYSTEMS[System.PREFKO], SYSTEMS[System.RAYTER_HIGHSCORE]
    lower_first = prefko.win_chances([900.0, 1000.0, 1100.0], 0.01)
    assert lower_first[0] > lower_first[1] > lower_first[2]
    higher_first = rayter.win_chances([900.0, 1000.0, 1100.0], 0.01)
    assert higher_first == lower_first[::-1]


def test_the_entry_preview_shows_the_chances_and_a_word_on_luck(member_client, make_league):
    league = make_league(System.ELO, name="Chess")
    data = {
        "submission_key": "0b7c3d2e-1111-4222-8333-944455556666",
        "played_at": "2026-03-12T21:30",
        **{"player_0": "Ana", "player_1": "Bo", "outcome": "1"},
    }
    response = member_client.post(
        reverse("ratings:game_new", args=[league.slug]), {**data, "preview": "1"}
    )
    html = response.content.decode()
    assert "Chances to finish first, as the ratings stood before the game:" in html
    assert "Ana 50% · Bo 50%" in html
    assert "Luck is large" in html
