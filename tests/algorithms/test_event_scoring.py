"""An event's scoring rules (ratings/algorithms/event_scoring.py): points per table, ties sharing,
the preferans.org preset, standings with the tie-break."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.algorithms.event_scoring import PlayerStanding, Scoring, TablePlay, standings
from ratings.algorithms.event_scoring import table_points as points

# A Preferans table as this club writes final scores: lower is better, below zero is ahead.
PREF = {"scoring": Scoring.PREFERANS_ORG, "lower_is_better": True}


def test_total_gives_the_scores_themselves():
    assert points([-500, 40, 460], scoring="total", lower_is_better=True) == [-500, 40, 460]


def test_places_give_each_place_its_points_in_the_games_direction():
    assert points(
        [-500, 40, 460], scoring="places", lower_is_better=True, points_per_place=[3, 2, 1]
    ) == [3, 2, 1]
    assert points(
        [10, 30, 20, 0], scoring="places", lower_is_better=False, points_per_place=[5, 3, 1]
    ) == [1, 5, 3, 0]


def test_tied_players_share_the_points_of_the_places_they_span():
    assert points(
        [-100, -100, 200], scoring="places", lower_is_better=True, points_per_place=[3, 2, 1]
    ) == [Fraction(5, 2), Fraction(5, 2), 1]
    three_way = points([0, 0, 0], scoring="places", lower_is_better=True, points_per_place=[3, 2])
    assert three_way == [Fraction(5, 3)] * 3


def test_preferans_org_gives_the_only_player_ahead_four():
    # The worked example: Pedja alone is ahead (−500).
    assert points([-500, 40, 460], **PREF) == [4, 1, 0]


def test_preferans_org_gives_second_place_two_when_ahead():
    assert points([-300, -100, 400], **PREF) == [3, 2, 0]


def test_preferans_org_ties_share_the_places_they_span():
    # Two ahead and equal: first (3) and second ahead (2) shared.
    assert points([-200, -200, 400], **PREF) == [Fraction(5, 2), Fraction(5, 2), 0]
    # One ahead, two behind and equal: second not ahead (1) and third (0) shared.
    assert points([-400, 200, 200], **PREF) == [4, Fraction(1, 2), Fraction(1, 2)]
    # Nobody ahead: 3, 1 and 0 shared three ways.
    assert points([0, 0, 0], **PREF) == [Fraction(4, 3)] * 3


def test_zero_is_not_ahead():
    assert points([-100, 0, 100], **PREF) == [4, 1, 0]


def test_preferans_org_in_a_higher_is_better_game_counts_above_zero_as_ahead():
    assert points([500, -40, -460], scoring="preferans_org", lower_is_better=False) == [4, 1, 0]


def test_standings_rank_by_points_then_the_total_score():
    tables = [
        TablePlay((1, 2, 3), (-500, 40, 460)),  # 4, 1, 0
        TablePlay((4, 5, 6), (-300, -100, 400)),  # 3, 2, 0
        TablePlay((1, 4, 5), (200, -250, 50)),  # 0, 4, 1
    ]
    table = standings(range(1, 8), tables, **PREF)
    assert [(s.player, s.place, s.points, s.total) for s in table] == [
        (4, 1, 7.0, -550),
        (1, 2, 4.0, -300),
        (5, 3, 3.0, -50),
        (2, 4, 1.0, 40),
        (6, 5, 0.0, 400),  # no points: the lower total (400) ranks above 460
        (3, 6, 0.0, 460),
        (7, None, 0.0, 0.0),  # present, no game yet: last, unplaced
    ]


def test_players_equal_on_points_and_total_share_a_place():
    tables = [TablePlay((1, 2), (1.0, 0.0)), TablePlay((3, 4), (1.0, 0.0))]
    table = standings([1, 2, 3, 4], tables, scoring="total", lower_is_better=False)
    assert [(s.player, s.place) for s in table] == [(1, 1), (3, 1), (2, 3), (4, 3)]


def test_total_in_a_lower_is_better_game_puts_the_lowest_total_first():
    tables = [TablePlay((1, 2, 3), (-500, 40, 460)), TablePlay((1, 2, 3), (100, -50, -50))]
    table = standings([1, 2, 3], tables, scoring="total", lower_is_better=True)
    assert [(s.player, s.points, s.games) for s in table] == [
        (1, -400, 2),
        (2, -10, 2),
        (3, 410, 2),
    ]


def test_shared_thirds_add_up_exactly():
    # Three three-way ties (4/3 each) are 4 points, equal to a single win alone ahead.
    ties = [TablePlay((1, 2, 3), (0, 0, 0))] * 3
    win = [TablePlay((4, 5, 6), (-100, 50, 50))]
    table = standings([], ties + win, **PREF)
    assert table[0].points == table[1].points == 4.0
    assert {table[0].player, table[1].player} == {1, 4}


@given(st.lists(st.integers(-50, 50), min_size=2, max_size=6), st.booleans())
def test_placement_points_add_up_to_the_points_on_offer(scores, lower_is_better):
    offered = [5, 3, 2, 1, 1, 0]
    got = points(
        scores, scoring="places", lower_is_better=lower_is_better, points_per_place=offered
    )
    assert sum(got) == sum(offered[: len(scores)])


@given(st.lists(st.integers(-50, 50), min_size=3, max_size=3))
def test_a_better_score_never_gets_fewer_preferans_org_points(scores):
    got = points(scores, **PREF)
    for a in range(3):
        for b in range(3):
            if scores[a] < scores[b]:
                assert got[a] >= got[b]


@pytest.mark.parametrize("scoring", list(Scoring))
def test_nobody_played_yet_lists_everyone_unplaced(scoring):
    assert standings([3, 1], [], scoring=scoring, lower_is_better=True) == [
        PlayerStanding(3, None, 0.0, 0.0, 0),
        PlayerStanding(1, None, 0.0, 0.0, 0),
    ]
