"""Rayter's file format: the text files of PyPI ``rayter`` 2.1.0, read and written.

Source: rayter 2.1.0 (https://github.com/peterjaric/rayter, ``pip install rayter==2.1.0``):
``rayter/game_parser.py`` (``GamesParser``) and ``rayter/main.py`` (the ``rayter FILE [-m json]``
command). The rating of the games read is :mod:`ratings.algorithms.rayter`'s; this module imports
its score types from there, never the other way round. ``scripts/vectors/rayter_vectors.py``
runs the real package to make the files that ``tests/algorithms/test_rayter.py`` and
``tests/algorithms/test_rayter_format.py`` check.

Where this module deliberately differs from rayter 2.1.0 (the rating's differences are listed
in :mod:`ratings.algorithms.rayter`):

- ``score_type winner_takes_all`` (the spelling of rayter's own README) is read as
  ``winnertakesall``. rayter's parser skips that line with a "Syntax error" message and rates
  the file as highscore.
- The parser refuses, with line numbers, what rayter skips with a printed message or silently
  tolerates: a player twice in one game (rayter keeps the last score), a game with fewer than two
  players, a player line before the first game, malformed lines and timestamps (rayter accepts
  month 13 and hour 99), unknown or repeated directives, a ``score_type`` after the first game
  (rayter applies the file's last ``score_type`` to every game, even those above it), player
  names that are keywords (rayter reads ``game 10`` as a player called "game"), and scores of
  more than 15 digits.
- It is more lenient about layout, which never changes the meaning: a UTF-8 byte order mark,
  leading and trailing whitespace on any line (rayter refuses an indented line, and a
  ``score_type`` line with trailing spaces; it keeps trailing spaces in the ``game_name``), and
  ``HH.MM`` times are read as ``HH:MM``.

So every file :func:`parse` accepts is rated by the ``rayter`` command exactly as the games it
reads are rated by :mod:`ratings.algorithms.rayter` in file order, apart from the byte order
mark, indentation, trailing whitespace and the ``winner_takes_all`` spelling listed above. (The
command's own bookkeeping, its standings in file order and its printed tables, is modelled for
the tests in ``tests/algorithms/rayter_reference.py``.)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Final, NamedTuple

# A score_type line is read with the rating's own table of spellings, so a file accepts exactly
# the spellings the rating does.
from ratings.algorithms.rayter import (
    SCORE_TYPE_HIGH_SCORE,
    SCORE_TYPE_SPELLINGS,
    normalize_score_type,
)

__all__ = [
    "KEYWORDS",
    "MAX_SCORE",
    "ParseError",
    "RayterFile",
    "RayterGame",
    "format_file",
    "parse",
    "parse_bytes",
    "parse_lines",
]

# Scores stay far below 2**53, so int and float scores give the same floats (the engine stores
# floats, the file holds ints) and no sum can overflow.
MAX_SCORE: Final = 10**15 - 1

# The words that open a line of a rayter file: a player cannot be named one of them.
KEYWORDS: Final = frozenset({"game", "game_name", "score_type"})
_NAME_PUNCTUATION: Final = "_+-"
_TIME_FORMAT: Final = "YYYY-MM-DD HH:MM"
# Every valid time of day as written ("HH:MM", or rayter's "HH.MM") and as stored ("HH:MM").
_CLOCKS: Final = {
    f"{hour:02d}{separator}{minute:02d}": f"{hour:02d}:{minute:02d}"
    for hour in range(24)
    for minute in range(60)
    for separator in ":."
}


# Reading files -----------------------------------------------------------------------------------


class ParseError(NamedTuple):
    """One problem in a rayter file: its line number (from 1) and what is wrong."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass(frozen=True, slots=True)
class RayterGame:
    """One game of a rayter file.

    ``time`` is ``YYYY-MM-DD HH:MM`` as written (``HH.MM`` is read as ``HH:MM``); ``results``
    holds the (name, score) pairs in file order. ``line`` is where the ``game`` line stood; it is
    where the game came from, not part of it, so equality ignores it.
    """

    time: str
    results: tuple[tuple[str, int], ...]
    line: int = field(default=0, compare=False)

    @property
    def names(self) -> list[str]:
        return [name for name, _score in self.results]

    @property
    def scores(self) -> list[int]:
        return [score for _name, score in self.results]


@dataclass(frozen=True, slots=True)
class RayterFile:
    """A parsed rayter file: its games in file order, score type, optional game name, errors.

    ``score_type`` is rayter's spelling (highscore when the file does not say). ``errors`` lists
    every problem found, in line order; a file with errors must not be rated or imported.
    """

    games: tuple[RayterGame, ...] = ()
    score_type: str = SCORE_TYPE_HIGH_SCORE
    game_name: str | None = None
    errors: tuple[ParseError, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def chronological(self) -> bool:
        """Whether the games are in time order. rayter rates them in FILE order regardless."""
        return all(a.time <= b.time for a, b in itertools.pairwise(self.games))


def parse(text: str) -> RayterFile:
    """Parse the text of a rayter file; never raises, problems go to ``RayterFile.errors``.

    Lines end with LF, CRLF or CR, as when rayter reads the file; a leading byte order mark is
    ignored.
    """
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return parse_lines(text.split("\n"))


def parse_bytes(data: bytes) -> RayterFile:
    """Parse an uploaded rayter file, which must be UTF-8 (a byte order mark is allowed).

    Never raises: bytes that are not UTF-8 are reported with their line number, and the rest of
    the file is still checked.
    """
    try:
        return parse(data.decode("utf-8"))
    except UnicodeDecodeError:
        pass
    # UTF-8 never uses the bytes of CR and LF inside a character, so lines can be cut first.
    lines = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
    encoding_errors: dict[int, ParseError] = {}
    texts = []
    for number, raw in enumerate(lines, start=1):
        try:
            texts.append(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            bad = raw[exc.start : exc.start + 1].hex().upper()
            encoding_errors[number] = ParseError(
                number, f"not UTF-8 text (byte 0x{bad} at byte {exc.start + 1} of the line)"
            )
            texts.append(raw.decode("utf-8", errors="replace"))
    parsed = parse_lines(texts)
    # The replacement characters would be reported again as bad names: one error per bad line.
    others = [error for error in parsed.errors if error.line not in encoding_errors]
    errors = sorted([*encoding_errors.values(), *others], key=lambda error: error.line)
    return RayterFile(parsed.games, parsed.score_type, parsed.game_name, tuple(errors))


def parse_lines(lines: Iterable[str]) -> RayterFile:
    """Parse a rayter file given as lines (with or without their line endings); never raises."""
    parser = _Parser()
    good_names, good_dates = parser.good_names, parser.good_dates
    seen, results = parser.seen, parser.results
    for number, line in enumerate(lines, start=1):
        tokens = line.split()
        if len(tokens) == 2:
            # The common line, a player of the current game, is read here without a call.
            name, score_text = tokens
            known = good_names.get(name)  # the string every game holds for the name
            if (
                seen is not None
                and known is not None
                and known not in seen
                and score_text.isascii()
                and len(score_text) <= 15
                and (score_text.isdigit() or (score_text[0] == "-" and score_text[1:].isdigit()))
            ):
                seen[known] = number
                results.append((known, int(score_text)))
                continue
        elif len(tokens) == 3 and tokens[0] == "game" and tokens[1] in good_dates:
            # The other common line, a game's start on a day already read, with one call.
            clock = _CLOCKS.get(tokens[2])
            if clock is not None:
                parser.next_game(number, f"{tokens[1]} {clock}")
                seen, results = parser.seen, parser.results
                continue
        elif not tokens:
            continue
        if number == 1 and line.startswith("\ufeff"):
            line = line[1:]
            tokens = line.split()
            if not tokens:
                continue
        parser.feed(number, line, tokens)
        seen, results = parser.seen, parser.results
    return parser.finish()


class _Parser:
    """Reads lines one at a time, split-based with no regular expressions."""

    def __init__(self) -> None:
        self.games: list[RayterGame] = []
        self.errors: list[ParseError] = []
        self.score_type = SCORE_TYPE_HIGH_SCORE
        self.score_type_line = 0
        self.game_name: str | None = None
        self.game_name_line = 0
        self.seen_game = False
        # The game being read: its line, time (None when its game line was malformed), results,
        # and the line of each of its names (None before the first game line).
        self.game_line = 0
        self.game_time: str | None = None
        self.results: list[tuple[str, int]] = []
        self.seen: dict[str, int] | None = None
        self.game_errors = 0
        # Names and dates known to be valid, so each is checked only once. A name maps to its
        # first spelling's string, which every game of the name then holds: a file of 100,000
        # games keeps 500 names, not 200,000 copies, and their hashes are worked out once.
        self.good_names: dict[str, str] = {}
        self.good_dates: set[str] = set()

    def error(self, number: int, message: str) -> None:
        self.errors.append(ParseError(number, message))

    def feed(self, number: int, line: str, tokens: list[str]) -> None:
        first = tokens[0]
        if first[0] == "#":
            return
        if first == "game":
            self.start_game(number, line, tokens)
        elif first == "score_type":
            self.read_score_type(number, line, tokens)
        elif first == "game_name":
            self.read_game_name(number, line)
        else:
            self.read_result(number, line, tokens)

    def start_game(self, number: int, line: str, tokens: list[str]) -> None:
        if len(tokens) == 3:
            date, clock = tokens[1], _CLOCKS.get(tokens[2], "")
            if clock and _date_problem(date, self.good_dates) is None:
                self.next_game(number, f"{date} {clock}")
                return
        self.next_game(number, None)
        message = f"expected 'game {_TIME_FORMAT}', got {_shown(line)}"
        if len(tokens) == 3:
            message += f": {_time_problem(tokens[1], tokens[2])}"
        elif len(tokens) == 2 and _integer(tokens[1]) is not None:
            message += " ('game' cannot be a player's name)"
        self.error(number, message)

    def next_game(self, number: int, time: str | None) -> None:
        """Close the game being read and start the one whose game line is ``number``; ``time``
        is None when that line is malformed (its players are still checked)."""
        if self.seen is not None:
            self.close_game()
        self.seen_game = True
        self.game_line = number
        self.game_time = time
        self.results = []
        self.seen = {}
        self.game_errors = 0

    def close_game(self) -> None:
        if self.seen is None:
            return
        if self.game_time is not None:
            # A game whose player lines had errors is not also reported as too small.
            if len(self.results) < 2 and not self.game_errors:
                self.error(
                    self.game_line,
                    f"the game has {_players(len(self.results))}; a game needs at least 2",
                )
            else:
                self.games.append(RayterGame(self.game_time, tuple(self.results), self.game_line))
        self.seen = None

    def read_score_type(self, number: int, line: str, tokens: list[str]) -> None:
        value = tokens[1] if len(tokens) == 2 else None
        score_type = SCORE_TYPE_SPELLINGS.get(value) if value else None
        if score_type is None:
            message = (
                f"expected 'score_type highscore', 'score_type lowscore' or "
                f"'score_type winnertakesall', got {_shown(line)}"
            )
            if value is not None and _integer(value) is not None:
                message += " ('score_type' cannot be a player's name)"
            self.error(number, message)
        elif self.score_type_line:
            self.error(number, f"score_type is already given on line {self.score_type_line}")
        elif self.seen_game:
            self.error(
                number,
                "score_type must come before the first game (rayter applies it to every game"
                " in the file, including those above it)",
            )
        else:
            self.score_type = score_type
            self.score_type_line = number

    def read_game_name(self, number: int, line: str) -> None:
        name = line.strip()[len("game_name") :].strip()
        if not name:
            self.error(number, "game_name needs a name, e.g. 'game_name Hearts'")
        elif self.game_name_line:
            self.error(number, f"game_name is already given on line {self.game_name_line}")
        else:
            self.game_name = name
            self.game_name_line = number

    def result_error(self, number: int, message: str) -> None:
        self.error(number, message)
        self.game_errors += 1

    def read_result(self, number: int, line: str, tokens: list[str]) -> None:
        if len(tokens) != 2:
            self.result_error(number, _result_shape_problem(line, tokens))
            return
        name, score_text = tokens
        score = _integer(score_text)
        if score is None:
            message = f"expected 'NAME SCORE', got {_shown(line)}"
            if _is_decimal(score_text):
                message += ": scores are whole numbers"
            self.result_error(number, message)
            return
        if name not in self.good_names:
            problem = _name_problem(name)
            if problem:
                self.result_error(number, problem)
                return
            self.good_names[name] = name
        name = self.good_names[name]
        if abs(score) > MAX_SCORE:
            self.result_error(number, f"score {score_text} is too large (at most 15 digits)")
            return
        if self.seen is None:
            self.result_error(
                number, f"{_shown(line)} comes before the first 'game {_TIME_FORMAT}' line"
            )
            return
        earlier = self.seen.get(name)
        if earlier is not None:
            self.result_error(number, f"{name!r} is already in this game (line {earlier})")
            return
        self.seen[name] = number
        self.results.append((name, score))

    def finish(self) -> RayterFile:
        self.close_game()
        errors = sorted(self.errors, key=lambda error: error.line)
        return RayterFile(tuple(self.games), self.score_type, self.game_name, tuple(errors))


def _integer(text: str) -> int | None:
    """The value of an integer written like rayter's ``-?[0-9]+`` (ASCII digits only), or None."""
    digits = text[1:] if text[:1] == "-" else text
    if digits.isdigit() and digits.isascii():
        return int(text)
    return None


def _is_decimal(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def _name_problem(name: str) -> str | None:
    """Why rayter would not read ``name`` as a player name (``[\\w+-]+``), or None."""
    if name in KEYWORDS:
        return f"{name!r} is a keyword and cannot be a player's name"
    letters = name
    for mark in _NAME_PUNCTUATION:
        letters = letters.replace(mark, "")
    if letters and not letters.isalnum():
        bad = next(char for char in letters if not char.isalnum())
        return (
            f"name {_quoted(name)} contains {_quoted(bad)} (U+{ord(bad):04X}): names are letters,"
            " digits, '_', '+' and '-'"
        )
    return None


def _time_problem(date: str, clock: str) -> str | None:
    """Why ``date clock`` is not a ``YYYY-MM-DD HH:MM`` time (``HH.MM`` allowed), or None."""
    digits = date[:4] + date[5:7] + date[8:] + clock[:2] + clock[3:]
    if not (
        len(date) == 10
        and date[4] == date[7] == "-"
        and len(clock) == 5
        and clock[2] in ":."
        and len(digits) == 12
        and digits.isdigit()
        and digits.isascii()
    ):
        return f"the time must look like {_TIME_FORMAT}"
    if clock not in _CLOCKS:
        return f"{clock} is not a time of day (00:00 to 23:59)"
    return _date_problem(date)


def _date_problem(date: str, good_dates: set[str] | None = None) -> str | None:
    """Why ``date`` is not a real day written ``YYYY-MM-DD``, or None.

    Dates found good are added to ``good_dates``, and dates in it are not checked again.
    """
    if good_dates is not None and date in good_dates:
        return None
    if not (len(date) == 10 and date[4] == date[7] == "-" and date.isascii()):
        return f"the time must look like {_TIME_FORMAT}"
    if not (date[:4] + date[5:7] + date[8:]).isdigit():
        return f"the time must look like {_TIME_FORMAT}"
    try:
        datetime(int(date[:4]), int(date[5:7]), int(date[8:]))
    except ValueError as exc:
        return f"{date} is not a real date ({exc})"
    if good_dates is not None:
        good_dates.add(date)
    return None


def _result_shape_problem(line: str, tokens: list[str]) -> str:
    message = f"expected 'NAME SCORE', got {_shown(line)}"
    if any(token.startswith("#") for token in tokens[1:]):
        return message + ": a comment must be on a line of its own, starting with '#'"
    if len(tokens) > 2 and _integer(tokens[-1]) is not None:
        joined = "_".join(tokens[:-1])
        return message + f": names cannot contain spaces (write {joined})"
    return message


def _quoted(text: str) -> str:
    if not text.isprintable():
        text = repr(text)[1:-1]
    return f"'{text}'"


def _shown(line: str, limit: int = 60) -> str:
    """A line for a message: whitespace runs as one space (they mean the same), cut if long."""
    text = " ".join(line.split())
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return _quoted(text)


# Writing files -----------------------------------------------------------------------------------


def format_file(
    games: Iterable[RayterGame],
    *,
    score_type: str = SCORE_TYPE_HIGH_SCORE,
    game_name: str | None = None,
) -> str:
    """The text of a rayter file with these games, readable by this parser and by rayter.

    Raises ValueError for anything :func:`parse` would refuse or read differently (bad names,
    times or scores, fewer than two players, a game name with line breaks).
    """
    score_type = normalize_score_type(score_type)
    lines = [f"score_type {score_type}"]
    if game_name is not None:
        if not isinstance(game_name, str) or not game_name or game_name != game_name.strip():
            raise ValueError(f"game name {game_name!r} must be text without surrounding spaces")
        if "\n" in game_name or "\r" in game_name:
            raise ValueError(f"game name {game_name!r} cannot contain a line break")
        lines.append(f"game_name {game_name}")
    good_names: set[str] = set()
    good_dates: set[str] = set()
    for game in games:
        time = game.time
        date, _space, clock = time.partition(" ") if isinstance(time, str) else ("", "", "")
        if clock[2:3] != ":" or clock not in _CLOCKS or _date_problem(date, good_dates):
            raise ValueError(f"game time {time!r} is not {_TIME_FORMAT}")
        lines.append("")
        lines.append(f"game {time}")
        names = [name for name, _score in game.results]
        if len(names) < 2:
            raise ValueError(f"the game at {time} has {_players(len(names))}; it needs 2")
        if len(set(names)) != len(names):
            raise ValueError(f"the game at {time} has a player twice")
        width = max(len(name) for name in names)
        for name, score in game.results:
            if name not in good_names:
                problem = _export_name_problem(name)
                if problem:
                    raise ValueError(f"the game at {time}: {problem}")
                good_names.add(name)
            if isinstance(score, bool) or not isinstance(score, int) or abs(score) > MAX_SCORE:
                raise ValueError(
                    f"the game at {time}: score {score!r} is not a whole number of at most 15"
                    " digits"
                )
            lines.append(f"{name:<{width}}  {score}")
    return "\n".join(lines) + "\n"


def _players(count: int) -> str:
    """A game's too few players, in words: "only 1 player", "no players"."""
    return "only 1 player" if count == 1 else "no players" if count == 0 else f"{count} players"


def _export_name_problem(name: str) -> str | None:
    if not isinstance(name, str) or not name or len(name.split()) != 1 or name != name.strip():
        return f"player name {name!r} must be one word"
    return _name_problem(name)
