"""The opponents' tallies an import counts in its rating pass (ratings/engine/opponents.py)."""

from collections import Counter
from itertools import permutations

from hypothesis import given
from hypothesis import strategies as st

from ratings.engine import opponents
from ratings.models import League

# Games of 2 to 5 seats from 6 players, each seat's place from 1 to 3: ties are common.
games = st.lists(
    st.lists(st.tuples(st.integers(1, 6), st.integers(1, 3)), min_size=2, max_size=5).filter(
        lambda seats: len({player for player, _place in seats}) == len(seats)
    ),
    max_size=30,
)


@given(games)
def test_new_games_count_every_pair_as_the_places_say(seats_of_games):
    counted = opponents.NewGames(League(pk=7))
    expected = Counter()
    for seats in seats_of_games:
        counted.add([player for player, _place in seats], [place for _player, place in seats])
        for (player, place), (opponent, other) in permutations(seats, 2):
            if player > opponent:
                continue  # a row a pair, the smaller id first
            expected[player, opponent] += 1
            kind = "ahead" if place < other else "level" if place == other else "behind"
            expected[player, opponent, kind] += 1
    rows = counted.rows()
    assert rows == sorted(rows, key=lambda row: (row[1], row[2]))
    assert len({(row[1], row[2]) for row in rows}) == len(rows)  # a row a pair
    assert {
        (player, opponent): (league, games, ahead, level, behind)
        for league, player, opponent, games, ahead, level, behind in rows
    } == {
        pair: (
            7,
            games,
            expected[(*pair, "ahead")],
            expected[(*pair, "level")],
            expected[(*pair, "behind")],
        )
        for pair, games in expected.items()
        if len(pair) == 2
    }
