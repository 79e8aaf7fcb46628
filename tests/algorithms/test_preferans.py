"""The Preferans paper and prefko, checked against npm preferans-rating-js 2.4.5.

The vectors in ``vectors/prefko.json.gz`` were made by running the library itself
(``python3 scripts/vectors/prefko_elo.py``); these tests read only that file.
"""

from __future__ import annotations

import functools
import gzip
import json
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.algorithms import preferans
from ratings.algorithms.preferans import final_scores, rating_changes, rating_terms
from tests.worked_example import WORKED_EXAMPLE_PAPERS

VECTORS = Path(__file__).parent / "vectors"


@functools.cache
def prefko_vectors() -> dict:
    path = VECTORS / "prefko.json.gz"
    if not path.exists():
        path = VECTORS / "prefko.json"
        return json.loads(path.read_text())
    with gzip.open(path, "rt") as stream:
        return json.load(stream)


def all_vectors() -> list[tuple[str, int, list]]:
    return [
        (group, index, row)
        for group, rows in prefko_vectors()["groups"].items()
        for index, row in enumerate(rows)
    ]


# The paper ---------------------------------------------------------------------------------------


def test_final_scores_of_the_worked_example():
    assert final_scores(WORKED_EXAMPLE_PAPERS) == [-500, 40, 460]


def test_final_scores_wrap_around_the_table():
    # Only seat 2 wrote something, on its right side: against seat 0, the next seat round.
    assert final_scores([(0, 0, 0), (0, 0, 0), (0, 0, 10)]) == [10, 0, -10]


@given(
    st.lists(
        st.tuples(st.integers(0, 10_000), st.integers(-1_000, 1_000), st.integers(0, 10_000)),
        min_size=3,
        max_size=3,
    )
)
def test_final_scores_sum_to_ten_times_the_middle_column(papers):
    assert sum(final_scores(papers)) == 10 * sum(middle for _, middle, _ in papers)


@pytest.mark.parametrize(
    ("papers", "message"),
    [
        (WORKED_EXAMPLE_PAPERS[:2], "exactly 3 papers, got 2"),
        ([*WORKED_EXAMPLE_PAPERS, (0, 0, 0)], "exactly 3 papers, got 4"),
        ([(320, -20), (120, 4, 60), (20, 16, 60)], "paper 1 must have three columns"),
        ([(320, -20, 160), (120, 4.5, 60), (20, 16, 60)], "paper 2: the middle column"),
        ([(320, -20, 160), (120, 4, 60), (True, 16, 60)], "paper 3: the left column"),
        ([(320, -20, 160), (120, 4, "60"), (20, 16, 60)], "paper 2: the right column"),
    ],
)
def test_final_scores_refuse_a_bad_paper(papers, message):
    with pytest.raises(ValueError, match=message):
        final_scores(papers)


# prefko: the worked example -----------------------------------------------------------------------


def test_rating_changes_of_the_worked_example():
    assert rating_changes([1200, 1150, 1100], [-500, 40, 460], 30) == [-27, 2, 25]


def test_rating_terms_of_the_worked_example():
    terms = rating_terms([1200, 1150, 1100], [-500, 40, 460], 30)
    assert terms.d == (-18, -32, -14)
    assert terms.t == (-1.4, -2.8, -1.4)
    assert terms.n == (-0.3, -0.3, -0.3)
    assert terms.c == tuple(d + t + n for d, t, n in zip(terms.d, terms.t, terms.n, strict=True))
    assert terms.changes == (-27, 2, 25)


def test_the_best_score_lowers_an_equal_rating():
    """Lower is better: with equal ratings the worked example's winner (-500) loses 25 points."""
    assert rating_changes([1000, 1000, 1000], [-500, 40, 460], 30) == [-25, 2, 23]


def test_a_tie_gives_no_n_term():
    terms = rating_terms([1000, 1100, 1200], [-100, -100, 200], 30)
    assert terms.n == (0, -0.3, -0.3)


def test_rating_terms_are_frozen():
    terms = rating_terms([1200, 1150, 1100], [-500, 40, 460], 30)
    with pytest.raises(AttributeError):
        terms.changes = (0, 0, 0)  # type: ignore[misc]


# prefko: the library's own answers ---------------------------------------------------------------


def test_rating_terms_match_every_preferans_rating_js_vector():
    mismatches = []
    for group, index, row in all_vectors():
        ratings, scores, bula = row[0:3], row[3:6], row[6]
        terms = rating_terms(ratings, scores, bula)
        got = [*terms.d, *terms.t, *terms.n, *terms.c, *terms.changes]
        # float(): JSON writes a whole-valued double as an integer, exact only below 2**53.
        if got != [*map(float, row[7:19]), *row[19:22]]:
            mismatches.append((group, index, row, got))
    assert mismatches == []


def test_rating_changes_are_plain_integers():
    for rows in prefko_vectors()["groups"].values():
        for row in rows[:50]:
            changes = rating_changes(row[0:3], row[3:6], row[6])
            assert changes == row[19:22]
            assert all(type(change) is int for change in changes)


def test_the_vectors_cover_the_edge_cases():
    groups = prefko_vectors()["groups"]
    for name in (
        "worked_example",
        "ties",
        "all_zero_scores",
        "negative_scores",
        "d_on_half_thousandth",
        "t_on_half_thousandth",
        "final_exactly_half",
        "final_nearly_half",
        "large_values",
        "bula_extremes",
    ):
        assert len(groups[name]) > 0, name
    assert sum(len(rows) for rows in groups.values()) >= 20_000
    assert prefko_vectors()["versions"]["preferans-rating-js"] == "2.4.5"


def test_the_vectors_include_three_way_and_two_way_ties():
    ties = prefko_vectors()["groups"]["ties"]
    assert any(row[3] == row[4] == row[5] for row in ties)
    assert any(len({row[3], row[4], row[5]}) == 2 for row in ties)


def test_plain_float_rounding_would_get_some_vectors_wrong():
    """The nearly-half vectors are the ones mathjs's 12-decimal snap decides."""
    differs = 0
    for row in prefko_vectors()["groups"]["final_nearly_half"]:
        c12, c13, c23 = row[16:19]
        plain = [math.floor(v + 0.5) for v in ((c12 + c13) / 2, (-c12 + c23) / 2)]
        plain.append(math.floor((-c13 + -c23) / 2 + 0.5))
        differs += plain != row[19:22]
    assert differs > 0


@pytest.mark.parametrize(
    ("value", "decimals", "expected"),
    [
        (2.4999999999999996, 0, 3),  # snapped to 2.5 first, then half away from zero
        (-2.4999999999999996, 0, -3),
        (2.5, 0, 3),
        (-2.5, 0, -3),
        (0.0005, 3, 0.001),
        (-0.0005, 3, -0.001),
        (1.0004999999999999, 3, 1.001),
        (1.0004, 3, 1.0),
        (1.4, 3, 1.4),
        (1e21, 3, 1e21),
    ],
)
def test_mathjs_round(value, decimals, expected):
    assert preferans._mathjs_round(value, decimals) == expected


# prefko: invariants ------------------------------------------------------------------------------

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)
ratings = st.lists(st.one_of(st.integers(0, 3000), finite), min_size=3, max_size=3)
scores = st.lists(st.one_of(st.integers(-10_000, 10_000), finite), min_size=3, max_size=3)
bulas = st.one_of(st.integers(1, 200), st.floats(min_value=0.01, max_value=1e4))


@given(ratings, scores, bulas, st.permutations([0, 1, 2]))
def test_changing_the_seat_order_permutes_the_changes(ratings, scores, bula, order):
    changes = rating_changes(ratings, scores, bula)
    reordered = rating_changes([ratings[i] for i in order], [scores[i] for i in order], bula)
    assert reordered == [changes[i] for i in order]


@given(ratings, scores, bulas)
def test_changes_add_up_to_zero_up_to_rounding(ratings, scores, bula):
    assert abs(sum(rating_changes(ratings, scores, bula))) <= 1


@given(ratings, scores, bulas)
def test_the_terms_add_up(ratings, scores, bula):
    terms = rating_terms(ratings, scores, bula)
    assert terms.c == tuple(d + t + n for d, t, n in zip(terms.d, terms.t, terms.n, strict=True))
    assert list(terms.changes) == rating_changes(ratings, scores, bula)


# prefko: refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ratings", "scores", "bula", "message"),
    [
        ([1200, 1150], [-500, 40, 460], 30, "exactly 3 players, got 2 ratings"),
        ([1200, 1150, 1100, 1000], [-500, 40, 460], 30, "exactly 3 players, got 4 ratings"),
        ([1200, 1150, 1100], [-500, 500], 30, "exactly 3 players, got 2 scores"),
        ([1200, 1150, 1100], [-500, 40, 460], 0, "bula must be a positive number, got 0"),
        ([1200, 1150, 1100], [-500, 40, 460], -30, "bula must be a positive number, got -30"),
        ([1200, 1150, 1100], [-500, 40, 460], math.nan, "bula must be a finite number"),
        ([1200, 1150, 1100], [-500, 40, 460], math.inf, "bula must be a finite number"),
        ([1200, 1150, 1100], [-500, 40, 460], True, "bula must be a number, got True"),
        ([1200, 1150, 1100], [-500, 40, 460], "30", "bula must be a number, got '30'"),
        ([1200, math.nan, 1100], [-500, 40, 460], 30, r"ratings\[1\] must be a finite number"),
        ([1200, 1150, 1100], [-500, 40, -math.inf], 30, r"scores\[2\] must be a finite number"),
        ([1200, 1150, None], [-500, 40, 460], 30, r"ratings\[2\] must be a number, got None"),
        ([1200, 1150, 1100], [False, 40, 460], 30, r"scores\[0\] must be a number, got False"),
        ([10**400, 1150, 1100], [-500, 40, 460], 30, r"ratings\[0\] is too large"),
        ([1e308, -1e308, 0], [-500, 40, 460], 30, "too large to rate this game"),
    ],
)
def test_rating_changes_refuse_bad_input(ratings, scores, bula, message):
    with pytest.raises(ValueError, match=message):
        rating_changes(ratings, scores, bula)


def test_rating_terms_carry_each_seats_average():
    """The game page explains each change by its average, read from the terms, not worked out
    again (preferans.CHANGE_FORMULAS says how)."""
    terms = rating_terms([1200, 1150, 1100], [-500, 40, 460], 30)
    c12, c13, c23 = terms.c
    assert terms.averages == ((c12 + c13) / 2, (-c12 + c23) / 2, (-c13 - c23) / 2)
    assert [round(average) for average in terms.averages] == list(terms.changes)
