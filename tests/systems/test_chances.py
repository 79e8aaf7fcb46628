"""Chances before a game (ratings/chances.py) and the entry preview that shows them."""

from __future__ import annotations

import pytest
from django.urls import reverse
from openskill.models import PlackettLuce

from ratings import chances
from ratings.algorithms import preferans
from ratings.events import services as event_services
from ratings.models import System
from ratings.papers import services as paper_services
from ratings.systems import SkillRating
from tests.builders import make_event
from tests.worked_example import (
    WORKED_EXAMPLE_FORM,
    WORKED_EXAMPLE_PAPERS,
    WORKED_EXAMPLE_PLAYERS,
)

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


@pytest.fixture
def worked_example_league(make_league, make_player, record_game):
    """A Preferans league whose one game is the worked example (final scores -500, 40, 460,
    bula 30): its usual scores per place."""
    league = make_league(System.PREFKO, name="Pref")
    players = [make_player(name) for name in WORKED_EXAMPLE_PLAYERS]
    record_game(league, players, papers=WORKED_EXAMPLE_PAPERS)
    return league, players


def test_the_usual_scores_per_place_come_from_the_leagues_games(worked_example_league):
    league, _players = worked_example_league
    history = chances.league_history(league)
    assert history.bula == 30
    assert history.place_scores == pytest.approx((-500 / 30, 40 / 30, 460 / 30))


def test_a_preferans_place_change_is_prefkos_change_with_the_usual_scores(worked_example_league):
    league, _players = worked_example_league
    history = chances.league_history(league)
    changes = chances.place_changes(league, [1000.0, 1000.0, 1000.0], 30, history)
    # First at equal ratings: the worked example's winner, who loses 25 (lower is better).
    assert changes[0][0] == -25
    # Third: the others keep their seat order among the equal ratings, best first.
    assert changes[0][2] == preferans.rating_changes([1000] * 3, [460, -500, 40], 30)[0]
    assert changes[0][0] < changes[0][1] < changes[0][2]
    # The others ahead by their ratings: seat 2, better rated (lower), takes first before seat 1.
    changes = chances.place_changes(league, [1000.0, 1100.0, 900.0], 30, history)
    assert changes[0][1] == preferans.rating_changes([1000, 1100, 900], [40, 460, -500], 30)[0]


def test_no_place_changes_outside_preferans_nor_without_games(make_league):
    elo, pref = make_league(System.ELO), make_league(System.PREFKO)
    assert chances.place_changes(elo, [1000.0, 1000.0], None, chances.league_history(elo)) is None
    assert chances.place_changes(pref, [1000.0] * 3, 30, chances.league_history(pref)) is None


def test_the_preferans_preview_shows_each_places_change(member_client, worked_example_league):
    league, _players = worked_example_league
    response = member_client.post(
        reverse("ratings:game_new", args=[league.slug]),
        {
            **WORKED_EXAMPLE_FORM,
            "submission_key": "0b7c3d2e-1111-4222-8333-944455556667",
            "preview": "1",
        },
    )
    html = response.content.decode()
    assert "Rating change for a first, second or third place" in html
    assert "Luck is large" in html


def test_a_papers_start_shows_the_chances_in_a_fixed_number_of_queries(
    client, worked_example_league, django_assert_num_queries
):
    """The versions the page is keyed by; the paper with its league and players; its deals; the
    players' ratings; the league's latest games and their results."""
    league, players = worked_example_league
    paper = paper_services.paper_start(league=league, players=players, bula=30)
    with django_assert_num_queries(6):
        html = client.get(reverse("ratings:paper", args=[paper.pk])).content.decode()
    assert "Chances to finish first" in html
    assert "Rating change for a first, second or third place" in html
    assert "Luck is large" in html


def test_each_table_card_shows_its_chances(client, make_league, make_player, record_game):
    league = make_league(System.ELO, name="Chess")
    players = [make_player(name) for name in ("Ana", "Bo", "Cy", "Dee")]
    event = make_event(league, players)
    event_services.round_draw(event=event)
    html = client.get(reverse("ratings:round_cards", args=[event.pk, 1])).content.decode()
    assert html.count("Chances to finish first") == 2  # two tables of two
    assert html.count("50%") == 4  # everyone at the start rating
    assert "Luck is large" in html


def test_tables_outlooks_read_the_ratings_once_for_every_table(
    make_league, make_player, record_game, django_assert_num_queries
):
    league = make_league(System.ELO)
    ana, bo, cy, dee = (make_player(name) for name in ("Ana", "Bo", "Cy", "Dee"))
    record_game(league, [ana, bo], scores=[1, 0])
    with django_assert_num_queries(1):  # Elo's own model: no history needed
        found = chances.tables_outlooks(
            league, [[(ana.pk, "Ana"), (bo.pk, "Bo")], [(cy.pk, "Cy"), (dee.pk, "Dee")]]
        )
    assert found[0][0].chance > 0.5 > found[0][1].chance
    assert [o.chance for o in found[1]] == [0.5, 0.5]
    assert found[0][0].name == "Ana"
