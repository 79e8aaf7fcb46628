"""Who finished ahead of whom (ratings/algorithms/places.py): the one rule every table follows."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from ratings.algorithms.places import best_first, outcome, places

scores = st.lists(st.integers(min_value=-50, max_value=50), min_size=1, max_size=12)
directions = st.booleans()


def test_ties_share_the_better_place():
    assert places([10, 20, 20, 5], lower_is_better=False) == [3, 1, 1, 4]
    assert places([10, 20, 20, 5], lower_is_better=True) == [2, 3, 3, 1]
    assert best_first([10, 20, 20, 5], lower_is_better=False) == [1, 2, 0, 3]
    assert [outcome(1, 2), outcome(2, 2), outcome(3, 2)] == [1.0, 0.5, 0.0]


def test_tuples_are_placed_as_numbers_are():
    """An event's standings place (points, total) keys."""
    assert places([(1, 5.0), (0, 9.0), (1, 5.0), (1, 4.0)], lower_is_better=True) == [3, 1, 3, 2]


@given(scores, directions)
def test_a_place_is_one_plus_the_better_scores_and_ties_share_it(table, lower):
    placed = places(table, lower_is_better=lower)
    for score, place in zip(table, placed, strict=True):
        better = [other for other in table if (other < score if lower else other > score)]
        assert place == 1 + len(better)
    for i, j in combinations(range(len(table)), 2):
        assert (placed[i] == placed[j]) == (table[i] == table[j])
    assert min(placed) == 1


@given(scores, directions, st.randoms(use_true_random=False))
def test_the_order_of_the_seats_changes_no_place(table, lower, random):
    seats = list(range(len(table)))
    random.shuffle(seats)
    shuffled = places([table[seat] for seat in seats], lower_is_better=lower)
    placed = places(table, lower_is_better=lower)
    assert shuffled == [placed[seat] for seat in seats]


@given(scores)
def test_lower_and_higher_is_better_are_mirrors(table):
    assert places(table, lower_is_better=True) == places(
        [-score for score in table], lower_is_better=False
    )
    ahead = places(table, lower_is_better=False)
    behind = places(table, lower_is_better=True)
    for i in range(len(table)):
        for j in range(len(table)):
            assert outcome(ahead[i], ahead[j]) == 1 - outcome(behind[i], behind[j])


@given(scores, directions)
def test_the_best_come_first_and_ties_keep_their_seat_order(table, lower):
    placed = places(table, lower_is_better=lower)
    order = best_first(table, lower_is_better=lower)
    assert sorted(order) == list(range(len(table)))
    by_place = sorted((place, seat) for seat, place in enumerate(placed))
    assert [(placed[seat], seat) for seat in order] == by_place
