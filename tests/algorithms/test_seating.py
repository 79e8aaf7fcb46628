"""The table draw of club nights and tournaments (issue #13), checked from the outside.

Every check here counts meetings, byes and seats itself from the rounds ``draw_round`` returns;
events are drawn the way the club draws them, one round per call with the rounds so far as the
history. No test times anything: the draw is bounded by search steps (checked here), and
``bench/seating.py`` measures what those steps cost in seconds.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.algorithms import seating_plan
from ratings.algorithms.seating import DrawMethod, Round, draw_round

METHODS = ["random", "everyone_meets", "by_standings"]


def meetings(rounds: Sequence[Round]) -> Counter[frozenset[int]]:
    """How often each pair shared a table."""
    counts: Counter[frozenset[int]] = Counter()
    for drawn in rounds:
        for table in drawn.tables:
            counts.update(frozenset(pair) for pair in itertools.combinations(table, 2))
    return counts


def repeated_pairs(rounds: Sequence[Round]) -> int:
    """The number of pairs who shared a table more than once."""
    return sum(1 for count in meetings(rounds).values() if count > 1)


def draw_event(
    players: Sequence[int],
    *,
    table_size: int,
    rounds: int,
    method: str = "everyone_meets",
    rounds_total: int | None | str = "same",
    seed: int = 0,
) -> list[Round]:
    """Draw ``rounds`` rounds one call at a time, each call given the rounds before it."""
    total = rounds if rounds_total == "same" else rounds_total
    history: list[Round] = []
    for number in range(rounds):
        history.append(
            draw_round(
                players,
                table_size=table_size,
                history=history,
                method=method,
                rounds_total=total,
                standings=list(reversed(players)),
                seed=seed * 1000 + number,
            )
        )
    return history


@contextmanager
def quick_search() -> Iterator[None]:
    """A small search budget, for checks of a draw's shape that hold whatever the search finds."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(seating_plan, "SEARCH_BUDGET", 20_000)
        yield


def byes_of(rounds: Sequence[Round]) -> list[int]:
    return [player for drawn in rounds for player in drawn.byes]


def assert_well_formed(drawn: Round, players: Sequence[int], table_size: int) -> None:
    seated = [player for table in drawn.tables for player in table]
    assert sorted(seated + list(drawn.byes)) == sorted(players)
    assert all(len(table) == table_size for table in drawn.tables)
    assert len(drawn.tables) == len(players) // table_size
    assert len(drawn.byes) == len(players) % table_size


def partitions(players: Sequence[int], size: int) -> Iterator[list[tuple[int, ...]]]:
    """Every way to split ``players`` into tables of ``size`` (seat order and table order aside)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for mates in itertools.combinations(rest, size - 1):
        left = [player for player in rest if player not in mates]
        for tables in partitions(left, size):
            yield [(first, *mates), *tables]


# Hypothesis: the shape of every draw ----------------------------------------------------------


@st.composite
def events(draw: st.DrawFn) -> dict:
    """A draw to make: players present, table size, method, seed and a history.

    The history was drawn at random from a group that overlaps the players present now, so it
    holds players who have left, and players present now arrive late.
    """
    table_size = draw(st.integers(2, 6), label="table_size")
    count = draw(st.integers(table_size, 30), label="players")
    players = draw(st.permutations(range(1, 41)).map(lambda ids: ids[:count]), label="ids")
    earlier_group = draw(
        st.lists(st.sampled_from(range(1, 41)), min_size=6, max_size=20, unique=True)
    )
    history = []
    for number in range(draw(st.integers(0, 4), label="rounds played")):
        group = earlier_group if len(earlier_group) >= table_size else players
        history.append(
            draw_round(group, table_size=table_size, history=history, method="random", seed=number)
        )
    return {
        "players": players,
        "table_size": table_size,
        "history": history,
        "method": draw(st.sampled_from(METHODS), label="method"),
        "rounds_total": draw(st.sampled_from([None, len(history) + 1, len(history) + 3])),
        "standings": draw(st.permutations(players), label="standings"),
        "seed": draw(st.integers(0, 2**32), label="seed"),
    }


@settings(max_examples=60, deadline=None)
@given(events())
def test_every_player_present_is_seated_once_or_has_a_bye(event):
    with quick_search():
        drawn = draw_round(**event)
    assert_well_formed(drawn, event["players"], event["table_size"])


@settings(max_examples=40, deadline=None)
@given(events())
def test_the_same_seed_gives_the_same_draw(event):
    with quick_search():
        assert draw_round(**event) == draw_round(**event)


@settings(max_examples=40, deadline=None)
@given(events())
def test_players_only_in_the_history_are_not_drawn(event):
    with quick_search():
        drawn = draw_round(**event)
    drawn_ids = {player for table in drawn.tables for player in table} | set(drawn.byes)
    assert drawn_ids <= set(event["players"])


@settings(max_examples=40, deadline=None)
@given(
    table_size=st.integers(2, 6),
    extra=st.integers(1, 5),
    tables=st.integers(1, 5),
    rounds=st.integers(2, 8),
    method=st.sampled_from(METHODS),
    seed=st.integers(0, 2**32),
)
def test_nobody_sits_out_twice_while_someone_has_not_sat_out(
    table_size, extra, tables, rounds, method, seed
):
    players = list(range(1, table_size * tables + extra % table_size + 1))
    sat_out: Counter[int] = Counter()
    with quick_search():
        rounds_drawn = draw_event(
            players, table_size=table_size, rounds=rounds, method=method, seed=seed
        )
    for drawn in rounds_drawn:
        sat_out.update(drawn.byes)
        if any(sat_out[player] > 1 for player in drawn.byes):
            assert all(sat_out[player] >= 1 for player in players)
        # With the same players every round, bye counts never drift more than one apart.
        assert max(sat_out[p] for p in players) - min(sat_out[p] for p in players) <= 1


def test_byes_go_to_late_arrivals_before_anyone_sits_out_twice():
    early = list(range(1, 11))  # ten players, tables of three: one bye a round
    history = draw_event(early, table_size=3, rounds=10, method="random")
    assert sorted(byes_of(history)) == early  # each has sat out once
    late = 99  # eleven players now: two byes a round
    for seed in range(10):
        drawn = draw_round(
            [*early, late], table_size=3, history=history, method="random", seed=seed
        )
        assert late in drawn.byes


def test_a_history_of_bare_tables_counts_unseated_players_as_sitting_out():
    players = [1, 2, 3, 4]
    history = [[(1, 2)]]  # 3 and 4 were not seated: they sat out
    drawn = draw_round(players, table_size=2, history=history, method="random", seed=1)
    assert_well_formed(drawn, players, 2)
    seven = list(range(1, 8))
    bare = [[(1, 2, 3), (4, 5, 6)]]  # 7 sat out round 1
    for seed in range(20):
        drawn = draw_round(seven, table_size=3, history=bare, method="random", seed=seed)
        assert 7 not in drawn.byes


def test_history_may_mix_rounds_and_bare_tables_and_name_players_who_left():
    history = [
        Round(tables=((1, 2, 3), (4, 5, 6)), byes=(7,)),
        [(1, 4, 7), (2, 5, 100)],  # 100 has left; 3 and 6 sat out
    ]
    drawn = draw_round(range(1, 8), table_size=3, history=history, method="random", seed=3)
    assert_well_formed(drawn, list(range(1, 8)), 3)
    assert drawn.byes[0] in (1, 2, 4, 5)  # the only ones who have not sat out


# everyone_meets: the guarantees of the issue -----------------------------------------------------


@pytest.mark.parametrize("seed", range(60))
def test_nine_players_over_four_rounds_meet_every_other_player_exactly_once(seed):
    players = list(range(1, 10))
    rounds = draw_event(players, table_size=3, rounds=4, seed=seed)
    for drawn in rounds:
        assert_well_formed(drawn, players, 3)
    counts = meetings(rounds)
    assert len(counts) == 36  # all pairs of nine
    assert set(counts.values()) == {1}


@pytest.mark.parametrize("seed", range(60))
def test_twelve_players_over_four_rounds_never_meet_twice(seed):
    players = list(range(101, 113))
    rounds = draw_event(players, table_size=3, rounds=4, seed=seed)
    for drawn in rounds:
        assert_well_formed(drawn, players, 3)
    assert repeated_pairs(rounds) == 0
    assert len(meetings(rounds)) == 48


@pytest.mark.parametrize("seed", range(20))
def test_the_same_seed_for_every_round_also_keeps_twelve_players_apart(seed):
    players = list(range(1, 13))
    history: list[Round] = []
    for _ in range(4):
        history.append(
            draw_round(
                players,
                table_size=3,
                history=[list(drawn.tables) for drawn in history],  # as bare tables, too
                method=DrawMethod.EVERYONE_MEETS,
                rounds_total=4,
                seed=seed,
            )
        )
    assert repeated_pairs(history) == 0


@pytest.mark.parametrize("seed", range(3))
def test_a_fifth_round_for_twelve_players_repeats_as_few_pairs_as_possible(seed):
    players = list(range(1, 13))
    history = draw_event(players, table_size=3, rounds=4, seed=seed)
    met = set(meetings(history))

    def repeats(tables: Sequence[Sequence[int]]) -> int:
        return sum(
            frozenset(pair) in met for table in tables for pair in itertools.combinations(table, 2)
        )

    fewest = min(repeats(tables) for tables in partitions(players, 3))  # all 15,400 of them
    assert fewest > 0  # a fifth round without a repeat does not exist
    for rounds_total in (None, 5):
        fifth = draw_round(
            players,
            table_size=3,
            history=history,
            method="everyone_meets",
            rounds_total=rounds_total,
            seed=seed,
        )
        assert repeats(fifth.tables) == fewest


@pytest.mark.parametrize("seed", range(20))
def test_ten_players_in_tables_of_three_meet_no_one_twice_and_rotate_byes(seed):
    players = list(range(1, 11))
    rounds = draw_event(players, table_size=3, rounds=4, seed=seed)
    assert repeated_pairs(rounds) == 0
    assert len(set(byes_of(rounds))) == 4


@pytest.mark.parametrize(("count", "seed"), [(n, s) for n in (7, 8, 10, 12) for s in range(5)])
def test_head_to_head_everyone_meets_is_a_round_robin(count, seed):
    players = list(range(1, count + 1))
    rounds = draw_event(players, table_size=2, rounds=count - 1 + count % 2, seed=seed)
    counts = meetings(rounds)
    assert len(counts) == count * (count - 1) // 2
    assert set(counts.values()) == {1}
    if count % 2:  # one bye a round: each player sits out exactly once
        assert sorted(byes_of(rounds)) == players


def test_without_rounds_total_a_round_avoids_pairs_that_met():
    players = list(range(1, 10))
    history = [Round(tables=((1, 2, 3), (4, 5, 6), (7, 8, 9)))]
    for seed in range(10):
        drawn = draw_round(
            players, table_size=3, history=history, method="everyone_meets", seed=seed
        )
        assert repeated_pairs([*history, drawn]) == 0


@contextmanager
def search_work() -> Iterator[list[int]]:
    """Collect the work each ``everyone_meets`` draw spends searching (in the module's units)."""
    spent: list[int] = []
    original = seating_plan.everyone_meets

    def record(*args):
        tables, byes, work = original(*args)
        spent.append(work)
        return tables, byes, work

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(seating_plan, "everyone_meets", record)
        yield spent


# What keeps a draw for 30 players within a second is a number of steps, not a clock: a step
# overshoots the budget by little (bench/seating.py measures the seconds).
STEPS_BOUND = seating_plan.SEARCH_BUDGET + 10_000


@settings(max_examples=25, deadline=None)
@given(events())
def test_a_draw_for_up_to_30_players_takes_a_bounded_number_of_steps(event):
    with search_work() as spent:
        draw_round(**{**event, "method": "everyone_meets"})
    assert len(spent) == 1
    assert spent[0] <= STEPS_BOUND


def test_a_draw_that_cannot_avoid_repeats_stops_when_the_budget_is_spent():
    with search_work() as spent:
        for seed in range(3):
            draw_round(
                range(30),
                table_size=6,
                history=[],
                method="everyone_meets",
                rounds_total=12,
                seed=seed,
            )
    assert all(seating_plan.SEARCH_BUDGET <= work <= STEPS_BOUND for work in spent)


# Seats -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [9, 12])
@pytest.mark.parametrize("method", METHODS)
def test_nobody_sits_in_seat_one_at_every_table_of_the_night(count, method):
    players = list(range(1, count + 1))
    for seed in range(25):
        rounds = draw_event(players, table_size=3, rounds=4, method=method, seed=seed)
        first = Counter(table[0] for drawn in rounds for table in drawn.tables)
        assert max(first.values()) < 4


def test_seat_order_is_not_always_the_order_of_the_ids():
    orders = {
        draw_round(range(1, 4), table_size=3, history=[], method="random", seed=seed).tables[0]
        for seed in range(30)
    }
    assert len(orders) == 6


# by_standings ------------------------------------------------------------------------------------


def test_by_standings_seats_the_leaders_together_as_in_a_playoff():
    players = list(range(1, 13))
    standings = [7, 3, 11, 1, 9, 2, 12, 5, 8, 4, 10, 6]
    drawn = draw_round(
        players, table_size=3, history=[], method="by_standings", standings=standings
    )
    assert [set(table) for table in drawn.tables] == [
        {7, 3, 11},
        {1, 9, 2},
        {12, 5, 8},
        {4, 10, 6},
    ]
    assert drawn.byes == ()


def test_by_standings_gives_the_bye_to_the_lowest_placed_who_has_not_had_one():
    players = list(range(1, 11))
    standings = list(range(1, 11))
    first = draw_round(
        players, table_size=3, history=[], method="by_standings", standings=standings
    )
    assert first.byes == (10,)
    assert [set(t) for t in first.tables] == [{1, 2, 3}, {4, 5, 6}, {7, 8, 9}]
    second = draw_round(
        players, table_size=3, history=[first], method="by_standings", standings=standings
    )
    assert second.byes == (9,)
    assert [set(t) for t in second.tables] == [{1, 2, 3}, {4, 5, 6}, {7, 8, 10}]


def test_by_standings_puts_unranked_players_last_in_the_order_given_and_ignores_absent_ones():
    drawn = draw_round(
        [5, 4, 3, 2, 1, 6],
        table_size=2,
        history=[],
        method="by_standings",
        standings=[6, 99, 1],  # 99 is not here; 5, 4, 3, 2 are unranked
    )
    assert [set(t) for t in drawn.tables] == [{6, 1}, {5, 4}, {3, 2}]


# Table sizes -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "table_size"),
    [("Preferans", 3), ("head-to-head", 2)] + [("scored", size) for size in range(2, 7)],
)
@pytest.mark.parametrize("method", METHODS)
def test_each_league_gets_tables_of_its_size(game, table_size, method):
    for count in range(table_size, 31, 3):
        players = list(range(1, count + 1))
        with quick_search():
            rounds = draw_event(players, table_size=table_size, rounds=2, method=method)
        for drawn in rounds:
            assert_well_formed(drawn, players, table_size)


def test_the_method_may_be_the_enum_or_its_string():
    players = list(range(1, 10))
    for method in DrawMethod:
        kwargs = {"table_size": 3, "history": [], "standings": players, "seed": 4}
        assert draw_round(players, method=method, **kwargs) == draw_round(
            players, method=method.value, **kwargs
        )


# Refusals ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("table_size", [0, 1, 7, True, 3.0])
def test_table_size_outside_two_to_six_is_refused(table_size):
    with pytest.raises(ValueError, match="table_size"):
        draw_round(range(12), table_size=table_size, history=[], method="random")


def test_fewer_players_than_a_table_is_refused():
    with pytest.raises(ValueError, match="a table of 4 needs at least 4 players, got 3"):
        draw_round([1, 2, 3], table_size=4, history=[], method="random")


def test_a_player_present_twice_is_refused():
    with pytest.raises(ValueError, match="more than once: 2"):
        draw_round([1, 2, 3, 2], table_size=2, history=[], method="random")


def test_an_unknown_method_is_refused_with_the_known_ones():
    with pytest.raises(ValueError, match="unknown draw method 'swiss'.*everyone_meets"):
        draw_round([1, 2, 3], table_size=3, history=[], method="swiss")


def test_by_standings_without_standings_is_refused():
    with pytest.raises(ValueError, match="needs the standings"):
        draw_round([1, 2, 3], table_size=3, history=[], method="by_standings")


@pytest.mark.parametrize(
    ("history", "message"),
    [
        ([[(1, 2), (2, 3)]], "history round 1 seats player 2 twice"),
        ([Round(tables=((1, 2),), byes=(1,))], "history round 1 both seats and byes 1"),
        ([["ab"]], "a table must be a sequence of ids"),
    ],
)
def test_a_malformed_history_is_refused(history, message):
    with pytest.raises(ValueError, match=message):
        draw_round([1, 2, 3, 4], table_size=2, history=history, method="random")


def test_a_bad_rounds_total_or_seed_is_refused():
    with pytest.raises(ValueError, match="rounds_total"):
        draw_round([1, 2], table_size=2, history=[], method="random", rounds_total=0)
    with pytest.raises(ValueError, match="seed"):
        draw_round([1, 2], table_size=2, history=[], method="random", seed="x")
