"""Rayter against PyPI rayter 2.1.0, through vectors made by running rayter itself.

The fixtures in ``vectors/`` come from ``scripts/vectors/rayter_vectors.py``: random calls of
``rayter.rater.rate_single_game`` with its results, and random rayter files with what the
``rayter FILE`` and ``rayter -m json FILE`` commands printed. Nothing here imports rayter.
"""

from __future__ import annotations

import gzip
import json
import math
import struct
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.algorithms import rayter
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
    parsed = rayter.parse(record["content"])
    assert parsed.errors == ()
    assert rayter_reference.render_cli_text(parsed, record["name"]) == record["text"]
    assert rayter_reference.render_cli_json(parsed) == record["json"]


@pytest.mark.parametrize("record", CLI_RECORDS, ids=[r["name"] for r in CLI_RECORDS])
def test_standings_are_rayters_unrounded_ratings_and_deltas_bit_for_bit(record):
    standings = rayter_reference.standings(rayter.parse(record["content"]))
    assert [[s.name, s.games] for s in standings] == [row[:2] for row in record["standings"]]
    assert bits([s.rating for s in standings]) == bits([row[2] for row in record["standings"]])
    # rayter's delta is an int 0 for players who were not in the last game.
    assert bits([s.change for s in standings]) == bits([row[3] for row in record["standings"]])


def test_the_cli_fixtures_cover_every_score_type_and_files_out_of_time_order():
    parsed = [rayter.parse(record["content"]) for record in CLI_RECORDS]
    assert {f.score_type for f in parsed} == set(rayter.SCORE_TYPES)
    assert any(not f.chronological for f in parsed)
    assert any("\r\n" in record["content"] for record in CLI_RECORDS)
    assert any(len(f.games) >= 2000 for f in parsed)


def test_the_worked_example_standings():
    parsed = rayter.parse(WORKED_EXAMPLE_FILE)
    assert rounded(rayter_reference.standings(parsed)) == [
        ("John", 2, 1058, 62),
        ("Dahlia", 2, 1029, -3),
        ("Ahmed", 2, 962, -30),
        ("Lei", 2, 951, -30),
    ]
    first_game = rayter.RayterFile(parsed.games[:1])
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
        rayter.parse(WORKED_EXAMPLE_FILE), "rayter_worked_example.txt"
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
    parsed = rayter.parse(WORKED_EXAMPLE_FILE + "\ngame 2011-12-26 20:00\nJohn 5\nLei 9\n")
    by_name = {s.name: s for s in rayter_reference.standings(parsed)}
    assert by_name["Dahlia"].change == 0.0
    assert by_name["Ahmed"].change == 0.0
    assert by_name["Lei"].change > 0 > by_name["John"].change


def test_games_are_rated_in_file_order_not_time_order():
    text = (
        "game 2011-12-25 21:12\nJohn 23\nDahlia 10\n\ngame 2011-12-24 23:19\nDahlia 27\nJohn 15\n"
    )
    in_file_order = rayter.parse(text)
    assert not in_file_order.chronological
    by_time = rayter.RayterFile(tuple(sorted(in_file_order.games, key=lambda game: game.time)))
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
    parsed = rayter.parse("game 2011-01-01 10:00\nQ 5\nP 5\nR 5\ngame 2011-01-01 10:00\nS 0\nT 0\n")
    assert [s.name for s in rayter_reference.standings(parsed)] == ["Q", "P", "R", "S", "T"]


def test_the_command_shows_the_game_name_instead_of_the_file_name():
    parsed = rayter.parse("game_name Kille & co\n" + WORKED_EXAMPLE_FILE)
    assert rayter_reference.render_cli_text(parsed, "x.txt").startswith("Game: Kille & co\n")


def test_an_empty_file_has_empty_standings():
    parsed = rayter.parse("# nothing yet\n")
    assert parsed.ok and parsed.games == ()
    assert rayter_reference.render_cli_text(parsed, "f") == (
        "Game: f\nTotal number of games: 0\nName           Games     Rating    Delta     \n"
    )
    assert rayter_reference.render_cli_json(parsed) == "{}\n"


def test_standings_refuse_a_hand_made_game_with_a_player_twice():
    game = rayter.RayterGame("2011-12-24 23:19", (("A", 1), ("A", 2)))
    with pytest.raises(ValueError, match="each once"):
        rayter_reference.standings(rayter.RayterFile((game,)))


def test_standings_refuse_a_file_with_errors():
    with pytest.raises(ValueError, match="line 2"):
        rayter_reference.standings(rayter.parse("game 2011-01-01 10:00\nA x\nB 1\nC 2\n"))


# Parsing ---------------------------------------------------------------------------------------


def test_a_file_with_every_accepted_feature_parses():
    text = (
        "\ufeff# Hearts at Anna's\r\n"
        "score_type  winner_takes_all \r\n"
        "game_name\tHearts & Spades  \r\n"
        "\r\n"
        "game\t2011-12-24   22.00\r\n"
        "  Zoë\t\t1\r\n"
        "李雷 0\r\n"
        "   # indented comment\r\n"
        "Ἀλέξανδρος_+-9\u3000-0\r\n"
        "\r\n"
        "game 2011-12-24 23:19\r\n"
        "Anna-Maria 1\r\n"
        "007 0"
    )
    assert rayter.parse(text) == rayter.RayterFile(
        games=(
            rayter.RayterGame("2011-12-24 22:00", (("Zoë", 1), ("李雷", 0), ("Ἀλέξανδρος_+-9", 0))),
            rayter.RayterGame("2011-12-24 23:19", (("Anna-Maria", 1), ("007", 0))),
        ),
        score_type="winnertakesall",
        game_name="Hearts & Spades",
    )
    assert [game.line for game in rayter.parse(text).games] == [5, 11]


@pytest.mark.parametrize("spelling", ["winnertakesall", "winner_takes_all"])
def test_both_winner_takes_all_spellings_are_read(spelling):
    parsed = rayter.parse(f"score_type {spelling}\n" + WORKED_EXAMPLE_FILE)
    assert parsed.ok and parsed.score_type == "winnertakesall"


def test_the_default_score_type_is_highscore():
    assert rayter.parse(WORKED_EXAMPLE_FILE).score_type == "highscore"


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
def test_any_line_ending_gives_the_same_file_and_line_numbers(ending):
    text = WORKED_EXAMPLE_FILE.replace("\n", ending)
    assert rayter.parse(text) == rayter.parse(WORKED_EXAMPLE_FILE)
    assert [game.line for game in rayter.parse(text).games] == [1, 7]
    bad = ending.join(["game 2011-12-24 23:19", "Dahlia 27", "John fifteen", "Lei 4"])
    assert [error.line for error in rayter.parse(bad).errors] == [3]


def test_bytes_with_a_byte_order_mark_and_crlf_parse_like_the_text():
    data = b"\xef\xbb\xbf" + WORKED_EXAMPLE_FILE.replace("\n", "\r\n").encode("utf-8")
    assert rayter.parse_bytes(data) == rayter.parse(WORKED_EXAMPLE_FILE)


def test_bytes_that_are_not_utf8_are_refused_with_their_line_number():
    data = "game 2011-12-24 23:19\nZoë 1\n".encode() + b"J\xf6rg 2\nAnna 3\nBo\xff 4\n"
    parsed = rayter.parse_bytes(data)
    assert [str(error) for error in parsed.errors] == [
        "line 3: not UTF-8 text (byte 0xF6 at byte 2 of the line)",
        "line 5: not UTF-8 text (byte 0xFF at byte 3 of the line)",
    ]


def test_a_syntax_error_on_line_7_says_line_7():
    lines = ["score_type highscore", "game_name Example", *WORKED_EXAMPLE_FILE.splitlines()]
    lines[6] = "Dahlia twenty"
    [error] = rayter.parse("\n".join(lines)).errors
    assert str(error) == "line 7: expected 'NAME SCORE', got 'Dahlia twenty'"
    assert error == (7, "expected 'NAME SCORE', got 'Dahlia twenty'")


GAME = "game 2011-12-24 23:19\nJohn 1\nLei 2\n"


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (GAME + "Dahlia twenty", 4, "expected 'NAME SCORE'"),
        (GAME + "Dahlia\t \ttwenty", 4, "got 'Dahlia twenty'"),
        (GAME + "Dahlia 2.5", 4, "scores are whole numbers"),
        (GAME + "Dahlia +5", 4, "got 'Dahlia +5'"),
        (GAME + "Dahlia 1_000", 4, "got 'Dahlia 1_000'"),
        (GAME + "Dahlia ٣", 4, "got 'Dahlia ٣'"),
        (GAME + "Dahlia", 4, "got 'Dahlia'"),
        (GAME + "Anna Maria 12", 4, "names cannot contain spaces"),
        (GAME + "Dahlia 27 # win", 4, "comment must be on a line"),
        (GAME + "Dahl!a 27", 4, "contains '!' (U+0021)"),
        (GAME + "Zoe\u0308 27", 4, "(U+0308)"),
        (GAME + "Dahlia 1000000000000000", 4, "too large"),
        (GAME + "John 3", 4, "already in this game (line 2)"),
        ("Dahlia 27\ngame 2011-12-24 23:19\nJohn 1\nLei 2", 1, "before the first 'game"),
        ("game 2011-12-24 23:19\nDahlia 27", 1, "has 1 player(s)"),
        ("game 2011-12-24 23:19\n\ngame 2011-12-25 23:19\nA 1\nB 2", 1, "has 0 player(s)"),
        ("game 2011-12-24\nA 1\nB 2", 1, "expected 'game YYYY-MM-DD HH:MM'"),
        ("game 24.12.2011 23:19\nA 1\nB 2", 1, "must look like YYYY-MM-DD HH:MM"),
        ("game 2011-12-24 9:19\nA 1\nB 2", 1, "must look like YYYY-MM-DD HH:MM"),
        ("game 2011-13-24 23:19\nA 1\nB 2", 1, "2011-13-24 is not a real date"),
        ("game 2011-02-29 23:19\nA 1\nB 2", 1, "2011-02-29 is not a real date"),
        ("game 2011-12-24 24:00\nA 1\nB 2", 1, "24:00 is not a time of day"),
        ("game 2011-12-24 23:19 extra\nA 1\nB 2", 1, "expected 'game YYYY-MM-DD HH:MM'"),
        ("game 10\nA 1\nB 2", 1, "'game' cannot be a player's name"),
        ("score_type golf\n" + WORKED_EXAMPLE_FILE, 1, "expected 'score_type highscore'"),
        ("score_type\n" + WORKED_EXAMPLE_FILE, 1, "expected 'score_type highscore'"),
        ("score_type 12\n" + WORKED_EXAMPLE_FILE, 1, "'score_type' cannot be a player's name"),
        (
            "score_type lowscore\nscore_type lowscore\n" + WORKED_EXAMPLE_FILE,
            2,
            "already given on line 1",
        ),
        (WORKED_EXAMPLE_FILE + "score_type lowscore\n", 12, "must come before the first game"),
        ("game_name\n" + WORKED_EXAMPLE_FILE, 1, "game_name needs a name"),
        (
            "game_name A\ngame_name B\n" + WORKED_EXAMPLE_FILE,
            2,
            "game_name is already given on line 1",
        ),
        ("Score_Type lowscore\n" + WORKED_EXAMPLE_FILE, 1, "got 'Score_Type lowscore'"),
    ],
)
def test_every_problem_is_refused_with_its_line_number(text, line, message):
    errors = rayter.parse(text).errors
    assert len(errors) == 1
    assert errors[0].line == line
    assert message in errors[0].message
    assert str(errors[0]).startswith(f"line {line}: ")


def test_every_problem_is_reported_not_just_the_first():
    text = (
        "Early 5\n"  # 1: before any game
        "game 2011-12-24 23:19\n"
        "Dahlia 27\n"
        "Dahlia 28\n"  # 4: twice
        "John fifteen\n"  # 5: not a number
        "game 2011-12-25 99:99\n"  # 6: bad time
        "Lei 4\n"
        "Lei 5\n"  # 8: twice, in a game with a bad time line
        "game 2011-12-26 10:00\n"  # 9: one player
        "Ahmed 4\n"
        "score_type lowscore\n"  # 11: after the games
    )
    assert [error.line for error in rayter.parse(text).errors] == [1, 4, 5, 6, 8, 9, 11]


def test_a_game_with_a_bad_time_line_still_has_its_players_checked_without_noise():
    parsed = rayter.parse("game 2011-12-24 25:00\nA 1\nB 2\n")
    assert [error.line for error in parsed.errors] == [1]
    assert parsed.games == ()


def test_long_lines_are_cut_in_messages():
    [error] = rayter.parse("game 2011-12-24 23:19\n" + "x" * 500 + " y\nA 1\nB 2").errors
    assert len(error.message) < 120


text_lines = st.lists(
    st.one_of(
        st.text(max_size=30),
        st.sampled_from(["game 2011-12-24 23:19", "score_type lowscore", "game_name G", "# c"]),
        st.builds(lambda n, s: f"{n} {s}", st.text(min_size=1, max_size=8), st.integers()),
    ),
    max_size=20,
)


@given(text=st.one_of(st.text(), text_lines.map("\n".join)))
def test_parse_never_raises_on_any_text(text):
    parsed = rayter.parse(text)
    assert all(isinstance(error.line, int) and error.message for error in parsed.errors)
    if parsed.ok:
        rayter_reference.standings(parsed)


@given(data=st.binary())
def test_parse_bytes_never_raises_on_any_bytes(data):
    rayter.parse_bytes(data)


# Writing files ---------------------------------------------------------------------------------

KEYWORDS = {"game", "game_name", "score_type"}
name_strategy = st.text(
    alphabet=st.one_of(st.characters(categories=["L", "N"]), st.sampled_from("_+-")),
    min_size=1,
    max_size=12,
).filter(lambda name: all(c.isalnum() or c in "_+-" for c in name) and name not in KEYWORDS)
time_strategy = st.datetimes(
    min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31, 23, 59)
).map(lambda t: f"{t.year:04d}-{t.month:02d}-{t.day:02d} {t.hour:02d}:{t.minute:02d}")
game_strategy = st.builds(
    rayter.RayterGame,
    time=time_strategy,
    results=st.lists(
        st.tuples(name_strategy, st.integers(-rayter.MAX_SCORE, rayter.MAX_SCORE)),
        min_size=2,
        max_size=8,
        unique_by=lambda result: result[0],
    ).map(tuple),
)
file_strategy = st.builds(
    rayter.RayterFile,
    games=st.lists(game_strategy, max_size=6).map(tuple),
    score_type=st.sampled_from(rayter.SCORE_TYPES),
    game_name=st.one_of(
        st.none(),
        st.text(min_size=1, max_size=20)
        .map(str.strip)
        .filter(lambda name: name and "\n" not in name and "\r" not in name),
    ),
)


@given(rayter_file=file_strategy)
def test_export_then_parse_gives_the_same_file(rayter_file):
    text = rayter_reference.export(rayter_file)
    assert rayter.parse(text) == rayter_file
    assert rayter.parse_bytes(text.encode("utf-8")) == rayter_file


def test_export_writes_rayters_spelling_and_aligned_scores():
    parsed = rayter.parse("score_type winner_takes_all\ngame 2011-12-24 23.19\nZoë 1\nAhmed 0\n")
    assert rayter_reference.export(parsed) == (
        "score_type winnertakesall\n\ngame 2011-12-24 23:19\nZoë    1\nAhmed  0\n"
    )


@pytest.mark.parametrize(
    ("game", "message"),
    [
        (rayter.RayterGame("2011-12-24 23:19", (("Anna Maria", 1), ("B", 2))), "one word"),
        (rayter.RayterGame("2011-12-24 23:19", (("game", 1), ("B", 2))), "keyword"),
        (rayter.RayterGame("2011-12-24 23:19", (("#A", 1), ("B", 2))), "contains '#'"),
        (rayter.RayterGame("2011-12-24 23:19", (("A", 1.5), ("B", 2))), "whole number"),
        (rayter.RayterGame("2011-12-24 23:19", (("A", True), ("B", 2))), "whole number"),
        (rayter.RayterGame("2011-12-24 23:19", (("A", 10**15), ("B", 2))), "15"),
        (rayter.RayterGame("2011-12-24 23:19", (("A", 1),)), "1 player(s)"),
        (rayter.RayterGame("2011-12-24 23:19", (("A", 1), ("A", 2))), "twice"),
        (rayter.RayterGame("2011-12-24 23.19", (("A", 1), ("B", 2))), "is not YYYY-MM-DD"),
        (rayter.RayterGame("2011-02-30 23:19", (("A", 1), ("B", 2))), "is not YYYY-MM-DD"),
    ],
)
def test_format_file_refuses_what_parse_would_read_differently(game, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        rayter.format_file([game])


def test_format_file_refuses_a_game_name_that_would_not_read_back():
    with pytest.raises(ValueError, match="line break"):
        rayter.format_file([], game_name="a\nb")
    with pytest.raises(ValueError, match="surrounding spaces"):
        rayter.format_file([], game_name=" a")


def test_export_refuses_a_file_with_errors():
    with pytest.raises(ValueError, match="line 1"):
        rayter_reference.export(rayter.parse("Dahlia 27\n"))
