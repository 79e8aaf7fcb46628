"""Rayter against PyPI rayter 2.1.0, through vectors made by running rayter itself.

The fixtures in ``vectors/`` come from ``scripts/vectors/rayter_vectors.py``: random calls of
``rayter.rater.rate_single_game`` with its results, and random rayter files with what the
``rayter FILE`` and ``rayter -m json FILE`` commands printed. Nothing here imports rayter.
The file format's own tests (parsing and writing) are in ``test_rayter_format.py``.
"""

from __future__ import annotations

import gzip
import json
import math
import struct
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.algorithms import rayter, rayter_format
from tests.algorithms import rayter_reference

VECTORS = Path(__file__).parent / "vectors"


def load_json_gz(name: str) -> dict:
    return json.loads(gzip.decompress((VECTORS / name).read_bytes()))


CLI_RECORDS = load_json_gz("rayter_cli.json.gz")["files"]


def bits(values: list[float]) -> list[bytes]:
    """The exact doubles, so 0.0 and -0.0 differ and nothing is compared approximately."""
    return [struct.pack("<d", value) for value in values]


def call(score_type, k, scores, ratings, spelling=None):
    """Call as the vector was made: an argument recorded as null was not passed."""
    keywords = {}
    if score_type is not None:
        keywords["score_type"] = spelling or score_type
    if k is not None:
        keywords["k"] = k
    return rayter.rate_single_game(scores, ratings, **keywords)


def rounded(standings: list[rayter.Standing]) -> list[tuple[str, int, int, int]]:
    return [(s.name, s.games, round(s.rating), round(s.change)) for s in standings]


WORKED_EXAMPLE_FILE = (VECTORS / "rayter_worked_example.txt").read_text(encoding="utf-8")


# rate_single_game ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def rate_vectors() -> list[list]:
    return load_json_gz("rayter_rate_single_game.json.gz")["cases"]


def test_every_rate_single_game_vector_matches_rayter_bit_for_bit(rate_vectors):
    assert len(rate_vectors) >= 30_000
    wrong = [case for case in rate_vectors if bits(call(*case[:4])) != bits(case[4])]
    assert wrong == []


def test_the_vectors_cover_the_edge_cases(rate_vectors):
    score_types = {case[0] for case in rate_vectors}
    assert score_types == {None, *rayter.SCORE_TYPES}
    assert any(case[1] is not None for case in rate_vectors)
    assert {len(case[2]) for case in rate_vectors} == set(range(2, 11))
    assert any(all(score == 0 for score in case[2]) for case in rate_vectors)
    assert any(any(score < 0 for score in case[2]) for case in rate_vectors)
    assert any(any(isinstance(score, float) for score in case[2]) for case in rate_vectors)
    assert any(len(set(case[2])) < len(case[2]) for case in rate_vectors)
    assert any(max(case[3]) > 1e9 for case in rate_vectors)
    assert any(max(case[3]) < 1e-3 for case in rate_vectors)


def test_winner_takes_all_spelling_rates_like_winnertakesall(rate_vectors):
    winner_takes_all = [case for case in rate_vectors if case[0] == "winnertakesall"]
    assert len(winner_takes_all) > 1000
    for score_type, k, scores, ratings, expected in winner_takes_all:
        got = call(score_type, k, scores, ratings, spelling="winner_takes_all")
        assert bits(got) == bits(expected)


def test_the_readme_example_of_rate_single_game():
    changes = rayter.rate_single_game([100, 93, 74], [1889, 1400, 1662], score_type="highscore")
    assert changes == [-1.7346441947565552, 16.22528089887642, -14.49063670411985]


def test_winner_takes_all_puts_less_at_stake():
    assert rayter.rate_single_game([1, 0], [1000, 1000], "winnertakesall") == [20.0, -20.0]
    assert rayter.rate_single_game([1, 0], [1000, 1000], "highscore") == [50.0, -50.0]


def test_lowscore_rewards_the_lowest_score():
    changes = rayter.rate_single_game([10, 20, 30], [1000, 1000, 1000], "lowscore")
    assert changes[0] > 0 > changes[2]


def test_all_zero_scores_share_the_pot_equally():
    changes = rayter.rate_single_game([0, 0, 0], [1200.0, 1000.0, 800.0])
    assert changes == pytest.approx([-10.0, 0.0, 10.0])


@pytest.mark.parametrize(
    ("scores", "ratings", "kwargs", "message"),
    [
        ([5], [1000], {}, "at least 2 players"),
        ([], [], {}, "at least 2 players"),
        ([5, 3], [1000], {}, "2 scores but 1 ratings"),
        ([5, float("nan")], [1000, 1000], {}, "finite"),
        ([5, 3], [1000, float("inf")], {}, "finite"),
        ([5, True], [1000, 1000], {}, "not a number"),
        ([5, 3], [1000, "1000"], {}, "not a number"),
        ([5, None], [1000, 1000], {}, "not a number"),
        ("53", [1000, 1000], {}, "list of numbers"),
        (5, [1000, 1000], {}, "list of numbers"),
        ([5, 3], [1000, 1000], {"score_type": "golf"}, "unknown score type"),
        ([5, 3], [1000, 1000], {"score_type": None}, "unknown score type"),
        ([5, 3], [1000, 1000], {"k": -0.1}, "k must be from 0 to 1"),
        ([5, 3], [1000, 1000], {"k": 1.5}, "k must be from 0 to 1"),
        ([5, 3], [1000, 1000], {"k": float("nan")}, "k must be from 0 to 1"),
        ([5, 3], [1000, 1000], {"k": True}, "k must be a number"),
        ([5, 3], [1000, 1000], {"k": "0.05"}, "k must be a number"),
        ([10**400, 3], [1000, 1000], {}, "too large"),
        ([1e308, -1e308], [1000, 1000], {}, "too large"),
    ],
)
def test_invalid_arguments_are_refused_with_the_reason(scores, ratings, kwargs, message):
    with pytest.raises(ValueError, match=message):
        rayter.rate_single_game(scores, ratings, **kwargs)


def test_normalize_score_type_accepts_both_spellings():
    assert rayter.normalize_score_type("winner_takes_all") == "winnertakesall"
    assert rayter.normalize_score_type("winnertakesall") == "winnertakesall"
    assert [rayter.normalize_score_type(t) for t in rayter.SCORE_TYPES] == list(rayter.SCORE_TYPES)
    with pytest.raises(ValueError, match="unknown score type 'Lowscore'"):
        rayter.normalize_score_type("Lowscore")


finite_ratings = st.floats(min_value=0, max_value=1e7, allow_nan=False)
scores_strategy = st.one_of(
    st.integers(-(10**6), 10**6), st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)
)


@given(
    data=st.lists(st.tuples(scores_strategy, finite_ratings), min_size=2, max_size=12),
    score_type=st.sampled_from([*rayter.SCORE_TYPES, "winner_takes_all"]),
    k=st.one_of(st.none(), st.floats(0, 1)),
)
def test_rate_single_game_conserves_the_total_rating(data, score_type, k):
    scores = [score for score, _rating in data]
    ratings = [rating for _score, rating in data]
    changes = rayter.rate_single_game(scores, ratings, score_type, k)
    assert len(changes) == len(scores)
    assert abs(math.fsum(changes)) <= 1e-9 * max(1.0, math.fsum(ratings))


def test_rate_game_gives_new_ratings_by_name_with_newcomers_at_1000():
    new = rayter_reference.rate_game({"Dahlia": 1032.5}, [("Dahlia", 10), ("Lei", 4)], "highscore")
    changes = rayter.rate_single_game([10, 4], [1032.5, 1000.0], "highscore")
    assert new == {"Dahlia": 1032.5 + changes[0], "Lei": 1000.0 + changes[1]}


def test_rate_game_refuses_a_player_twice():
    with pytest.raises(ValueError, match="'Lei' is in the game twice"):
        rayter_reference.rate_game({}, [("Lei", 10), ("Ahmed", 4), ("Lei", 3)])


# Standings and the rayter command --------------------------------------------------------------


@pytest.mark.parametrize("record", CLI_RECORDS, ids=[r["name"] for r in CLI_RECORDS])
def test_the_rayter_command_output_is_reproduced_byte_for_byte(record):
    parsed = rayter_format.parse(record["content"])
    assert parsed.errors == ()
    assert rayter_reference.render_cli_text(parsed, record["name"]) == record["text"]
    assert rayter_reference.render_cli_json(parsed) == record["json"]


@pytest.mark.parametrize("record", CLI_RECORDS, ids=[r["name"] for r in CLI_RECORDS])
def test_standings_are_rayters_unrounded_ratings_and_deltas_bit_for_bit(record):
    standings = rayter_reference.standings(rayter_format.parse(record["content"]))
    assert [[s.name, s.games] for s in standings] == [row[:2] for row in record["standings"]]
    assert bits([s.rating for s in standings]) == bits([row[2] for row in record["standings"]])
    # rayter's delta is an int 0 for players who were not in the last game.
    assert bits([s.change for s in standings]) == bits([row[3] for row in record["standings"]])


def test_the_cli_fixtures_cover_every_score_type_and_files_out_of_time_order():
    parsed = [rayter_format.parse(record["content"]) for record in CLI_RECORDS]
    assert {f.score_type for f in parsed} == set(rayter.SCORE_TYPES)
    assert any(not f.chronological for f in parsed)
    assert any("\r\n" in record["content"] for record in CLI_RECORDS)
    assert any(len(f.games) >= 2000 for f in parsed)


def test_the_worked_example_standings():
    parsed = rayter_format.parse(WORKED_EXAMPLE_FILE)
    assert rounded(rayter_reference.standings(parsed)) == [
        ("John", 2, 1058, 62),
        ("Dahlia", 2, 1029, -3),
        ("Ahmed", 2, 962, -30),
        ("Lei", 2, 951, -30),
    ]
    first_game = rayter_format.RayterFile(parsed.games[:1])
    assert rounded(rayter_reference.standings(first_game)) == [
        ("Dahlia", 1, 1032, 32),
        ("John", 1, 995, -5),
        ("Ahmed", 1, 992, -8),
        ("Lei", 1, 980, -20),
    ]


def test_the_worked_example_as_the_command_prints_it():
    record = next(r for r in CLI_RECORDS if r["name"] == "rayter_worked_example.txt")
    assert record["content"] == WORKED_EXAMPLE_FILE
    assert rayter_reference.render_cli_text(
        rayter_format.parse(WORKED_EXAMPLE_FILE), "rayter_worked_example.txt"
    ) == (
        "Game: rayter_worked_example.txt\n"
        "Total number of games: 2\n"
        "Name           Games     Rating    Delta     \n"
        "John                 2     1058       62\n"
        "Dahlia               2     1029       -3\n"
        "Ahmed                2      962      -30\n"
        "Lei                  2      951      -30\n"
    )


def test_delta_is_the_change_in_the_last_game_and_zero_for_those_not_in_it():
    parsed = rayter_format.parse(WORKED_EXAMPLE_FILE + "\ngame 2011-12-26 20:00\nJohn 5\nLei 9\n")
    by_name = {s.name: s for s in rayter_reference.standings(parsed)}
    assert by_name["Dahlia"].change == 0.0
    assert by_name["Ahmed"].change == 0.0
    assert by_name["Lei"].change > 0 > by_name["John"].change


def test_games_are_rated_in_file_order_not_time_order():
    text = (
        "game 2011-12-25 21:12\nJohn 23\nDahlia 10\n\ngame 2011-12-24 23:19\nDahlia 27\nJohn 15\n"
    )
    in_file_order = rayter_format.parse(text)
    assert not in_file_order.chronological
    by_time = rayter_format.RayterFile(
        tuple(sorted(in_file_order.games, key=lambda game: game.time))
    )
    assert by_time.chronological
    # By hand: John +19.70 then -15.27 in file order; Dahlia +14.29 then -20.41 by time.
    assert rounded(rayter_reference.standings(in_file_order)) == [
        ("John", 2, 1004, -15),
        ("Dahlia", 2, 996, 15),
    ]
    assert rounded(rayter_reference.standings(by_time)) == [
        ("John", 2, 1006, 20),
        ("Dahlia", 2, 994, -20),
    ]


def test_equal_ratings_keep_the_order_players_first_appear_in():
    parsed = rayter_format.parse(
        "game 2011-01-01 10:00\nQ 5\nP 5\nR 5\ngame 2011-01-01 10:00\nS 0\nT 0\n"
    )
    assert [s.name for s in rayter_reference.standings(parsed)] == ["Q", "P", "R", "S", "T"]


def test_the_command_shows_the_game_name_instead_of_the_file_name():
    parsed = rayter_format.parse("game_name Kille & co\n" + WORKED_EXAMPLE_FILE)
    assert rayter_reference.render_cli_text(parsed, "x.txt").startswith("Game: Kille & co\n")


def test_an_empty_file_has_empty_standings():
    parsed = rayter_format.parse("# nothing yet\n")
    assert parsed.ok and parsed.games == ()
    assert rayter_reference.render_cli_text(parsed, "f") == (
        "Game: f\nTotal number of games: 0\nName           Games     Rating    Delta     \n"
    )
    assert rayter_reference.render_cli_json(parsed) == "{}\n"


def test_standings_refuse_a_hand_made_game_with_a_player_twice():
    game = rayter_format.RayterGame("2011-12-24 23:19", (("A", 1), ("A", 2)))
    with pytest.raises(ValueError, match="each once"):
        rayter_reference.standings(rayter_format.RayterFile((game,)))


def test_standings_refuse_a_file_with_errors():
    with pytest.raises(ValueError, match="line 2"):
        rayter_reference.standings(rayter_format.parse("game 2011-01-01 10:00\nA x\nB 1\nC 2\n"))
