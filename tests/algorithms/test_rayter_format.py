"""The rayter file format (``ratings/algorithms/rayter_format.py``): what :func:`parse` reads and
what it refuses, with line numbers, and that what :func:`format_file` writes reads back the same.

The rayter command's outputs for whole files (parsed by this format, rated by
``ratings.algorithms.rayter``) are checked in ``test_rayter.py``. Nothing here imports the
rayter package.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from ratings.algorithms import rayter, rayter_format
from tests.algorithms import rayter_reference
from tests.builders import RAYTER_LINES

VECTORS = Path(__file__).parent / "vectors"
WORKED_EXAMPLE_FILE = (VECTORS / "rayter_worked_example.txt").read_text(encoding="utf-8")


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
    assert rayter_format.parse(text) == rayter_format.RayterFile(
        games=(
            rayter_format.RayterGame(
                "2011-12-24 22:00", (("Zoë", 1), ("李雷", 0), ("Ἀλέξανδρος_+-9", 0))
            ),
            rayter_format.RayterGame("2011-12-24 23:19", (("Anna-Maria", 1), ("007", 0))),
        ),
        score_type="winnertakesall",
        game_name="Hearts & Spades",
    )
    assert [game.line for game in rayter_format.parse(text).games] == [5, 11]


@pytest.mark.parametrize("spelling", ["winnertakesall", "winner_takes_all"])
def test_both_winner_takes_all_spellings_are_read(spelling):
    parsed = rayter_format.parse(f"score_type {spelling}\n" + WORKED_EXAMPLE_FILE)
    assert parsed.ok and parsed.score_type == "winnertakesall"


def test_the_default_score_type_is_highscore():
    assert rayter_format.parse(WORKED_EXAMPLE_FILE).score_type == "highscore"


def test_every_game_of_a_player_holds_one_string_for_the_name():
    """A 100,000-game file keeps one string a player, not one a line (the fast path and the
    checked path alike: the first line of a name is checked, the others are not)."""
    text = "\n".join(["game 2011-12-24 23:19", "Ann 1", "Bob 2", "game 2011-12-25 23:19"])
    parsed = rayter_format.parse(text + "\nAnn 3\nBob 4\ngame 2011-12-26 23:19\nBob 5\nAnn 6")
    assert parsed.ok
    names = [name for game in parsed.games for name, _score in game.results]
    assert names == ["Ann", "Bob", "Ann", "Bob", "Bob", "Ann"]
    assert len({id(name) for name in names}) == 2


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
def test_any_line_ending_gives_the_same_file_and_line_numbers(ending):
    text = WORKED_EXAMPLE_FILE.replace("\n", ending)
    assert rayter_format.parse(text) == rayter_format.parse(WORKED_EXAMPLE_FILE)
    assert [game.line for game in rayter_format.parse(text).games] == [1, 7]
    bad = ending.join(["game 2011-12-24 23:19", "Dahlia 27", "John fifteen", "Lei 4"])
    assert [error.line for error in rayter_format.parse(bad).errors] == [3]


def test_bytes_with_a_byte_order_mark_and_crlf_parse_like_the_text():
    data = b"\xef\xbb\xbf" + WORKED_EXAMPLE_FILE.replace("\n", "\r\n").encode("utf-8")
    assert rayter_format.parse_bytes(data) == rayter_format.parse(WORKED_EXAMPLE_FILE)


def test_bytes_that_are_not_utf8_are_refused_with_their_line_number():
    data = "game 2011-12-24 23:19\nZoë 1\n".encode() + b"J\xf6rg 2\nAnna 3\nBo\xff 4\n"
    parsed = rayter_format.parse_bytes(data)
    assert [str(error) for error in parsed.errors] == [
        "line 3: not UTF-8 text (byte 0xF6 at byte 2 of the line)",
        "line 5: not UTF-8 text (byte 0xFF at byte 3 of the line)",
    ]


def test_a_syntax_error_on_line_7_says_line_7():
    lines = ["score_type highscore", "game_name Example", *WORKED_EXAMPLE_FILE.splitlines()]
    lines[6] = "Dahlia twenty"
    [error] = rayter_format.parse("\n".join(lines)).errors
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
        ("game 2011-12-24 23:19\nDahlia 27", 1, "has only 1 player; a game needs at least 2"),
        (
            "game 2011-12-24 23:19\n\ngame 2011-12-25 23:19\nA 1\nB 2",
            1,
            "has no players; a game needs at least 2",
        ),
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
    errors = rayter_format.parse(text).errors
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
    assert [error.line for error in rayter_format.parse(text).errors] == [1, 4, 5, 6, 8, 9, 11]


def test_a_game_with_a_bad_time_line_still_has_its_players_checked_without_noise():
    parsed = rayter_format.parse("game 2011-12-24 25:00\nA 1\nB 2\n")
    assert [error.line for error in parsed.errors] == [1]
    assert parsed.games == ()


def test_long_lines_are_cut_in_messages():
    [error] = rayter_format.parse("game 2011-12-24 23:19\n" + "x" * 500 + " y\nA 1\nB 2").errors
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
    parsed = rayter_format.parse(text)
    assert all(isinstance(error.line, int) and error.message for error in parsed.errors)
    if parsed.ok:
        rayter_reference.standings(parsed)


@given(data=st.binary())
def test_parse_bytes_never_raises_on_any_bytes(data):
    rayter_format.parse_bytes(data)


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
    rayter_format.RayterGame,
    time=time_strategy,
    results=st.lists(
        st.tuples(name_strategy, st.integers(-rayter_format.MAX_SCORE, rayter_format.MAX_SCORE)),
        min_size=2,
        max_size=8,
        unique_by=lambda result: result[0],
    ).map(tuple),
)
file_strategy = st.builds(
    rayter_format.RayterFile,
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
    assert rayter_format.parse(text) == rayter_file
    assert rayter_format.parse_bytes(text.encode("utf-8")) == rayter_file


def test_export_writes_rayters_spelling_and_aligned_scores():
    parsed = rayter_format.parse(
        "score_type winner_takes_all\ngame 2011-12-24 23.19\nZoë 1\nAhmed 0\n"
    )
    assert rayter_reference.export(parsed) == (
        "score_type winnertakesall\n\ngame 2011-12-24 23:19\nZoë    1\nAhmed  0\n"
    )


@pytest.mark.parametrize(
    ("game", "message"),
    [
        (rayter_format.RayterGame("2011-12-24 23:19", (("Anna Maria", 1), ("B", 2))), "one word"),
        (rayter_format.RayterGame("2011-12-24 23:19", (("game", 1), ("B", 2))), "keyword"),
        (rayter_format.RayterGame("2011-12-24 23:19", (("#A", 1), ("B", 2))), "contains '#'"),
        (rayter_format.RayterGame("2011-12-24 23:19", (("A", 1.5), ("B", 2))), "whole number"),
        (rayter_format.RayterGame("2011-12-24 23:19", (("A", True), ("B", 2))), "whole number"),
        (rayter_format.RayterGame("2011-12-24 23:19", (("A", 10**15), ("B", 2))), "15"),
        (
            rayter_format.RayterGame("2011-12-24 23:19", (("A", 1),)),
            "has only 1 player; it needs 2",
        ),
        (rayter_format.RayterGame("2011-12-24 23:19", (("A", 1), ("A", 2))), "twice"),
        (rayter_format.RayterGame("2011-12-24 23.19", (("A", 1), ("B", 2))), "is not YYYY-MM-DD"),
        (rayter_format.RayterGame("2011-02-30 23:19", (("A", 1), ("B", 2))), "is not YYYY-MM-DD"),
    ],
)
def test_format_file_refuses_what_parse_would_read_differently(game, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        rayter_format.format_file([game])


def test_format_file_refuses_a_game_name_that_would_not_read_back():
    with pytest.raises(ValueError, match="line break"):
        rayter_format.format_file([], game_name="a\nb")
    with pytest.raises(ValueError, match="surrounding spaces"):
        rayter_format.format_file([], game_name=" a")


def test_export_refuses_a_file_with_errors():
    with pytest.raises(ValueError, match="line 1"):
        rayter_reference.export(rayter_format.parse("Dahlia 27\n"))


# Any text or bytes: a report, never an exception -------------------------------------------------


def assert_parsed_sanely(parsed: rayter_format.RayterFile, line_count: int) -> None:
    assert isinstance(parsed, rayter_format.RayterFile)
    assert all(1 <= error.line <= max(line_count, 1) for error in parsed.errors)
    assert all(isinstance(error.message, str) and error.message for error in parsed.errors)
    if parsed.ok:
        for game in parsed.games:
            assert len(game.results) >= 2
            assert len(set(game.names)) == len(game.names)
            assert all(abs(score) <= rayter_format.MAX_SCORE for score in game.scores)
        rayter_reference.standings(parsed)


@hypothesis_settings(max_examples=300, deadline=None)
@given(text=st.one_of(st.text(), RAYTER_LINES))
def test_the_rayter_parser_reports_instead_of_raising_on_any_text(text):
    assert_parsed_sanely(
        rayter_format.parse(text), len(text.replace("\r\n", "\n").splitlines()) + 1
    )


@hypothesis_settings(max_examples=300, deadline=None)
@given(data=st.one_of(st.binary(), RAYTER_LINES.map(lambda t: t.encode("utf-8", "replace"))))
def test_the_rayter_parser_reports_instead_of_raising_on_any_bytes(data):
    assert_parsed_sanely(rayter_format.parse_bytes(data), data.count(b"\n") + data.count(b"\r") + 1)
