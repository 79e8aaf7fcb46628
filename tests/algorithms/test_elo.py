"""Classic Elo against Perl's Chess::Elo and FIDE Elo against npm @echecs/elo 1.0.2.

The vectors in ``vectors/`` were made by running those libraries
(``python3 scripts/vectors/prefko_elo.py``); these tests read only the files.
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

from ratings.algorithms import elo
from ratings.algorithms.elo import classic, fide, fide_expected, fide_k_factor
from tests.algorithms.v8_pow import v8_pow

VECTORS = Path(__file__).parent / "vectors"
# Whole-number ratings give these gaps (a wider gap counts as 400), and these Ks the FIDE rules.
FIDE_GAPS = range(-400, 401)
FIDE_KS = (10, 20, 40)


def node_pow10(exponent: float) -> float:
    """``10 ** exponent`` as node's Math.pow computes it."""
    return v8_pow(10.0, exponent)


@pytest.fixture
def nodes_pow(monkeypatch):
    """elo computes its powers of ten with node's Math.pow instead of Python's."""
    monkeypatch.setattr(elo, "_pow10", node_pow10)


@functools.cache
def vectors(name: str) -> dict:
    path = VECTORS / f"{name}.json.gz"
    if not path.exists():
        return json.loads((VECTORS / f"{name}.json").read_text())
    with gzip.open(path, "rt") as stream:
        return json.load(stream)


def vector_rows(name: str) -> list[tuple[str, int, list]]:
    return [
        (group, index, row)
        for group, group_rows in vectors(name)["groups"].items()
        for index, row in enumerate(group_rows)
    ]


def fide_from_row(row: list) -> tuple[int, int]:
    """Call fide() with a fide_update vector's inputs (null = the option was not given)."""
    a, b, result, k, k_a, k_b, games_a, games_b, age_a, age_b, ever_a, ever_b, blitz, rapid = row[
        :14
    ]
    return fide(
        a,
        b,
        result,
        k=k,
        k_a=k_a,
        k_b=k_b,
        games_a=games_a,
        games_b=games_b,
        age_a=age_a,
        age_b=age_b,
        ever_2400_a=bool(ever_a),
        ever_2400_b=bool(ever_b),
        blitz=bool(blitz),
        rapid=bool(rapid),
    )


# Classic Elo -------------------------------------------------------------------------------------


def test_classic_worked_example():
    alice, bob = classic(2100, 1200, 0)
    # As the module's documentation prints them (Perl shows numbers with 15 digits).
    assert (f"{alice:.15g}", f"{bob:.15g}") == ("2068.17894295388", "1231.82105704612")


def test_classic_matches_every_chess_elo_vector_bit_for_bit():
    mismatches = []
    for group, index, row in vector_rows("elo_classic"):
        a, b, result, k, divisor, new_a, new_b = row
        got = classic(a, b, result, k=k, divisor=divisor)
        if got != (new_a, new_b):
            mismatches.append((group, index, row, got))
    assert mismatches == []


def test_classic_vectors_cover_the_edge_cases():
    groups = vectors("elo_classic")["groups"]
    for name in (
        "worked_example",
        "equal_ratings",
        "gap_multiple_of_divisor",
        "huge_gaps_and_negative",
    ):
        assert len(groups[name]) > 0, name
    assert sum(len(group) for group in groups.values()) >= 10_000
    assert {row[2] for row in groups["random_integers"]} == {0, 0.5, 1}


def test_classic_survives_a_gap_too_big_for_a_float_power():
    """Perl's 10 ** 2500 is infinity, so the favourite keeps their rating on a win."""
    assert classic(0, 10**6, 0) == (0.0, 10**6)


ratings = st.floats(min_value=0, max_value=3000)
results = st.sampled_from([0, 0.5, 1])


@given(ratings, ratings, results, st.floats(min_value=1, max_value=64))
def test_classic_is_zero_sum(a, b, result, k):
    new_a, new_b = classic(a, b, result, k=k)
    assert math.isclose(new_a + new_b, a + b, rel_tol=0, abs_tol=1e-9)


@given(ratings, ratings, results, st.floats(min_value=1, max_value=64))
def test_classic_is_the_same_game_seen_from_either_side(a, b, result, k):
    new_b, new_a = classic(b, a, 1 - result, k=k)
    assert classic(a, b, result, k=k) == (new_a, new_b)


# FIDE Elo: examples ------------------------------------------------------------------------------


def test_fide_worked_examples():
    assert fide(1400, 1400, 1) == (1410, 1390)
    assert fide(1400, 1400, 1, age_a=15) == (1420, 1390)
    assert fide(1400, 1400, 1, games_a=10) == (1420, 1390)


def test_fide_rounds_halves_toward_plus_infinity():
    # Equal ratings: each side moves by K / 2 = 2.5, which Math.round takes up: -2.5 -> -2.
    assert fide(0, 0, 0, k=5) == (-2, 3)
    assert fide(-1000, -1000, 1, k=5) == (-997, -1002)


@pytest.mark.parametrize(
    ("value", "rounded"),
    [
        (2.5, 3),
        (-2.5, -2),
        (-0.5, 0),
        (0.49999999999999994, 0),
        (-1.5, -1),
        (1e15 + 0.5, 10**15 + 1),
    ],
)
def test_js_math_round(value, rounded):
    assert elo._js_math_round(value) == rounded


def test_fide_expected_caps_the_gap_at_400_points():
    assert fide_expected(1400, 1400) == 0.5
    assert fide_expected(1000, 2000) == fide_expected(1000, 1400) == 1 / 11
    assert fide_expected(2000, 1000) == fide_expected(1400, 1000) == 1 / (1 + 0.1)
    assert fide_expected(1400, 1600) == 0.2402530733520421  # the library's README


@pytest.mark.parametrize(
    ("rating", "options", "k"),
    [
        (1400, {}, 20),
        (1400, {"games": 10}, 40),
        (1400, {"games": 30}, 40),
        (1400, {"games": 31}, 20),
        (1400, {"games": 0}, 40),
        (2500, {"games": 0}, 40),
        (1400, {"age": 17}, 40),
        (1400, {"age": 0}, 40),
        (2299, {"age": 17}, 40),
        (2300, {"age": 17}, 20),
        (2400, {"age": 17}, 10),
        (1400, {"age": 18}, 20),
        (2399, {}, 20),
        (2400, {}, 10),
        (2000, {"ever_2400": True}, 10),
        (1400, {"blitz": True}, 20),
        (2600, {"rapid": True}, 20),
        (1400, {"rapid": True, "games": 5, "age": 12}, 20),
    ],
)
def test_fide_k_factor_rules(rating, options, k):
    assert fide_k_factor(rating, **options) == k


def test_fide_explicit_k_overrides_the_rules_per_player():
    assert fide(1400, 1400, 1, k=16) == (1408, 1392)
    assert fide(1400, 1400, 1, k=16, k_a=32) == (1416, 1392)
    assert fide(1400, 1400, 1, k=16, k_b=32) == (1408, 1384)
    assert fide(1400, 1400, 1, k_a=32) == (1416, 1390)
    assert fide(1400, 1400, 1, k=10, games_a=5, games_b=5) == (1405, 1395)


# FIDE Elo: the library's own answers -------------------------------------------------------------


def test_fide_matches_every_echecs_elo_update_vector():
    mismatches = []
    for group, index, row in vector_rows("fide_update"):
        got = fide_from_row(row)
        if list(got) != row[14:]:
            mismatches.append((group, index, row, got))
    assert mismatches == []


def test_fide_k_factor_matches_every_echecs_elo_vector():
    mismatches = []
    for group, index, row in vector_rows("fide_k_factor"):
        rating, games, age, ever, blitz, rapid, k = row
        got = fide_k_factor(
            rating, games=games, age=age, ever_2400=bool(ever), blitz=bool(blitz), rapid=bool(rapid)
        )
        if got != k:
            mismatches.append((group, index, row, got))
    assert mismatches == []


def test_fide_expected_with_nodes_pow_matches_every_echecs_elo_vector_bit_for_bit(nodes_pow):
    mismatches = []
    for group, index, row in vector_rows("fide_expected"):
        a, b, expected = row
        if fide_expected(a, b) != float(expected):
            mismatches.append((group, index, row, fide_expected(a, b)))
    assert mismatches == []


def test_fide_expected_with_pythons_pow_is_within_two_units_in_the_last_place():
    """The app's own pow: a unit or two in the last place from node's now and then."""
    mismatches = []
    for group, index, row in vector_rows("fide_expected"):
        a, b, expected = row
        if abs(fide_expected(a, b) - float(expected)) > 2 * math.ulp(float(expected)):
            mismatches.append((group, index, row, fide_expected(a, b)))
    assert mismatches == []


def test_pythons_pow_never_changes_a_fide_rating(monkeypatch):
    """Every whole-number gap, K 10, 20 and 40 and every result, with Python's pow and node's.

    The two pows differ in the last bit on some of these exponents (65 of the 801 with glibc),
    and so do the expected scores; the new ratings must not. Where the change before rounding
    differs, it must also lie more than 1e-6 from a half, so that adding it to any whole-number
    rating below a billion (whose float error is below 1e-7) rounds the same way with either pow.
    """

    def outcomes() -> dict:
        return {
            (gap, k, result): (
                k * (result - fide_expected(1400, 1400 + gap)),
                fide(1400, 1400 + gap, result, k=k),
            )
            for gap in FIDE_GAPS
            for k in FIDE_KS
            for result in elo.RESULTS
        }

    pythons = outcomes()
    monkeypatch.setattr(elo, "_pow10", node_pow10)
    nodes = outcomes()

    assert len(pythons) == 801 * 3 * 3
    assert [case for case in pythons if pythons[case][1] != nodes[case][1]] == []
    differing = [case for case in pythons if pythons[case][0] != nodes[case][0]]
    assert differing, "the two pows agree on every gap: the check compared nothing"
    near_a_half = [
        case
        for case in differing
        for change in (pythons[case][0], nodes[case][0])
        if abs(change - math.floor(change) - 0.5) <= 1e-6
    ]
    assert near_a_half == []


def test_fide_vectors_cover_the_edge_cases():
    update = vectors("fide_update")["groups"]
    for name in ("worked_examples", "cap_400", "halves_before_rounding", "k_rules"):
        assert len(update[name]) > 0, name
    assert sum(len(group) for group in update.values()) >= 10_000
    gaps = {abs(row[1] - row[0]) for row in update["cap_400"]}
    assert {399, 400, 401} <= gaps
    k_rows = vectors("fide_k_factor")["groups"]["rules"]
    assert {row[6] for row in k_rows} == {10, 20, 40}
    assert any(row[1] == 0 for row in k_rows) and any(row[2] == 0 for row in k_rows)
    assert vectors("fide_update")["versions"]["@echecs/elo"] == "1.0.2"


def test_v8_pow_is_exact_on_easy_powers():
    assert v8_pow(10.0, 1.0) == 10.0
    assert v8_pow(10.0, -1.0) == 0.1
    assert v8_pow(10.0, 0.0) == 1.0
    assert v8_pow(10.0, 0.5) == math.sqrt(10.0)


# FIDE Elo: invariants ----------------------------------------------------------------------------

whole_ratings = st.integers(0, 3000)
ks = st.one_of(st.none(), st.integers(1, 60))
games = st.one_of(st.none(), st.integers(0, 100))
ages = st.one_of(st.none(), st.integers(0, 90))


@given(whole_ratings, whole_ratings, results, ks, ks, games, games, ages, ages)
def test_fide_is_the_same_game_seen_from_either_side(
    a, b, result, k_a, k_b, g_a, g_b, age_a, age_b
):
    forward = fide(
        a, b, result, k_a=k_a, k_b=k_b, games_a=g_a, games_b=g_b, age_a=age_a, age_b=age_b
    )
    new_b, new_a = fide(
        b, a, 1 - result, k_a=k_b, k_b=k_a, games_a=g_b, games_b=g_a, age_a=age_b, age_b=age_a
    )
    assert forward == (new_a, new_b)


@given(whole_ratings, whole_ratings, results, st.integers(1, 60))
def test_fide_with_equal_k_is_zero_sum_up_to_rounding(a, b, result, k):
    new_a, new_b = fide(a, b, result, k=k)
    assert abs((new_a - a) + (new_b - b)) <= 1


@given(whole_ratings, whole_ratings, st.integers(1, 60))
def test_fide_winner_never_loses_points(a, b, k):
    new_a, new_b = fide(a, b, 1, k=k)
    assert new_a >= a and new_b <= b


# Refusals ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"result": 2}, r"result must be 1 \(win\), 0.5 \(draw\) or 0 \(loss\), got 2"),
        ({"result": -1}, "result must be"),
        ({"result": True}, "result must be"),
        ({"result": "1"}, "result must be"),
        ({"result": math.nan}, "result must be"),
        ({"a": math.nan}, "rating a must be a finite number"),
        ({"b": math.inf}, "rating b must be a finite number"),
        ({"a": "1400"}, "rating a must be a number, got '1400'"),
        ({"b": None}, "rating b must be a number, got None"),
        ({"a": True}, "rating a must be a number, got True"),
        ({"k": 0}, "k must be a positive number, got 0"),
        ({"k": -32}, "k must be a positive number, got -32"),
        ({"divisor": 0}, "divisor must be a positive number, got 0"),
        ({"k": math.inf}, "k must be a finite number"),
    ],
)
def test_classic_refuses_bad_input(kwargs, message):
    arguments = {"a": 1400, "b": 1400, "result": 1} | kwargs
    with pytest.raises(ValueError, match=message):
        classic(**arguments)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"result": 0.25}, "result must be"),
        ({"result": False}, "result must be"),
        ({"a": math.inf}, "rating a must be a finite number"),
        ({"b": "x"}, "rating b must be a number"),
        ({"k": 0}, "k must be a positive number, got 0"),
        ({"k_a": 0}, "k_a must be a positive number, got 0"),
        ({"k_b": -10}, "k_b must be a positive number, got -10"),
        ({"k": True}, "k must be a number, got True"),
        ({"games_a": -1}, "games_a cannot be negative, got -1"),
        ({"age_b": -3}, "age_b cannot be negative, got -3"),
        ({"age_a": math.nan}, "age_a must be a finite number"),
        ({"games_b": "10"}, "games_b must be a number"),
        ({"ever_2400_a": 1}, "ever_2400_a must be True or False, got 1"),
        ({"blitz": "yes"}, "blitz must be True or False"),
        ({"rapid": None}, "rapid must be True or False"),
    ],
)
def test_fide_refuses_bad_input(kwargs, message):
    arguments = {"a": 1400, "b": 1400, "result": 1} | kwargs
    with pytest.raises(ValueError, match=message):
        fide(**arguments)


@pytest.mark.parametrize(
    ("rating", "kwargs", "message"),
    [
        (math.nan, {}, "rating must be a finite number"),
        (None, {}, "rating must be a number"),
        (1400, {"games": -5}, "games cannot be negative, got -5"),
        (1400, {"age": -1}, "age cannot be negative"),
        (1400, {"games": False}, "games must be a number, got False"),
    ],
)
def test_fide_k_factor_refuses_bad_input(rating, kwargs, message):
    with pytest.raises(ValueError, match=message):
        fide_k_factor(rating, **kwargs)


def test_fide_expected_refuses_bad_input():
    with pytest.raises(ValueError, match="rating b must be a finite number"):
        fide_expected(1400, math.nan)
