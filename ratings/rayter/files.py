"""Rayter files in: the one path from a file's bytes to the engine (the way back out, standings
and export, is :mod:`ratings.rayter.standings`).

The ``import_rayter`` command and the import page come through here, so a file is read, checked
and imported the same way wherever it comes from. Parsing is
:mod:`ratings.algorithms.rayter_format`'s and the rating arithmetic
:mod:`ratings.algorithms.rayter`'s; every write goes through :func:`ratings.engine.games_import`.

What the club does differently from the ``rayter`` command, on purpose:

- A file with any problem is refused as a whole, with every problem and its line; nothing is
  written (not even the league the import would have created).
- Games are rated by time, then file order (the engine's (played_at, id) order); rayter rates
  them in file order. For a file in time order the two agree; for any other the import says so.
- Player names are the club's: "john" in a file is the club's John. One file spelling a name two
  ways ("John" and "john") is refused, since rayter would rate them as two players.
- rayter names cannot hold spaces or punctuation, so the export writes "Anna Maria" as
  ``Anna_Maria``, and ``Anna_Maria+2`` when the club also has an "Anna_Maria"
  (:mod:`ratings.rayter.names`); the import reads each such word back as its player.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, tzinfo
from typing import NamedTuple

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import IntegrityError, connection, transaction
from django.db.models import SET_NULL
from django.utils import timezone

from ratings import engine
from ratings.algorithms import rayter, rayter_format
from ratings.engine.validation import latest_allowed
from ratings.models import Game, League, Player, Result
from ratings.names import NameIndex
from ratings.player_names import clean_player_name, name_key
from ratings.rayter.names import rayter_words
from ratings.selectors import league_standings_rows
from ratings.systems import for_rayter_score_type

PLAYER_NAME_MAX = Player._meta.get_field("name").max_length
LEAGUE_NAME_MAX = League._meta.get_field("name").max_length
LEAGUE_SLUG_MAX = League._meta.get_field("slug").max_length
GAME_NAME_MAX = League._meta.get_field("game_name").max_length
_PROGRESS_STEP = 20_000


@dataclass(frozen=True)
class Problem:
    """One reason a file cannot be imported: its line (None for the file as a whole) and why."""

    line: int | None
    message: str

    def __str__(self) -> str:
        return self.message if self.line is None else f"line {self.line}: {self.message}"


class RayterImportError(Exception):
    """A file that cannot be imported, with every problem found: nothing was written."""

    def __init__(self, problems: Iterable[Problem]):
        # Problems of the whole file (the league, an empty file) first, then in line order.
        self.problems = sorted(problems, key=lambda p: (p.line is not None, p.line or 0))
        super().__init__("\n".join(str(problem) for problem in self.problems))


class SkippedGame(NamedTuple):
    """A game of the file skipped as already in the league."""

    line: int
    played_at: datetime


@dataclass
class RayterImport:
    """What an import did (or, for a dry run, would do)."""

    league: League
    league_created: bool
    summary: engine.ImportSummary
    file_games: int
    # Things worth knowing that do not stop the import (e.g. games not in time order).
    notices: list[str] = field(default_factory=list)
    # The league's standings after the import; filled only for dry runs (previews).
    standings: list[rayter.Standing] = field(default_factory=list)
    # Each new player's name -> the club's players with close names (a typo in the file?).
    close_names: dict[str, list[str]] = field(default_factory=dict)
    # The games skipped as already in the league, with their lines.
    skipped: list[SkippedGame] = field(default_factory=list)


class NoProgress:
    """A progress bar that shows nothing: the default; the command passes tqdm instead."""

    def __init__(self, *args, **kwargs):
        pass

    def __enter__(self) -> NoProgress:
        return self

    def __exit__(self, *exc) -> None:
        return None

    def update(self, n: int = 1) -> None:
        pass


Progress = Callable[..., NoProgress]


# Reading ---------------------------------------------------------------------------------------


def binary_problem(data: bytes) -> Problem | None:
    """A NUL byte means a binary file (a spreadsheet, an archive), never a text file."""
    at = data.find(b"\x00")
    if at < 0:
        return None
    line = data.count(b"\n", 0, at) + 1
    return Problem(
        line,
        "the file contains NUL bytes: it is a binary file (a spreadsheet? an archive?), not a"
        " rayter text file",
    )


def is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def read_rayter(data: bytes, *, progress: Progress = NoProgress) -> rayter_format.RayterFile:
    """Parse the bytes of a rayter file: UTF-8, a byte order mark allowed, any line endings.

    Never raises: a binary file, bytes that are not UTF-8 and every syntax error are in the
    result's ``errors``, each with its line.
    """
    return _read(data, progress)[0]


def _read(data: bytes, progress: Progress) -> tuple[rayter_format.RayterFile, list[str]]:
    """The parsed file and its lines (to find where a name stands when reporting it)."""
    problem = binary_problem(data)
    if problem is not None:
        return rayter_format.RayterFile(
            errors=(rayter_format.ParseError(problem.line, problem.message),)
        ), []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        # parse_bytes names each line that is not UTF-8 and still checks the others.
        parsed = rayter_format.parse_bytes(data)
        text = data.decode("utf-8", errors="replace")
    else:
        parsed = None
    # Line ends as rayter_format.parse reads them: LF, CRLF or CR.
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if parsed is None:
        with progress(total=len(lines), desc="Reading", unit=" lines") as bar:
            parsed = rayter_format.parse_lines(_ticking(lines, bar))
    return parsed, lines


def _ticking(lines: list[str], bar: NoProgress) -> Iterator[str]:
    for start in range(0, len(lines), _PROGRESS_STEP):
        yield from lines[start : start + _PROGRESS_STEP]
        bar.update(min(_PROGRESS_STEP, len(lines) - start))


# Names -----------------------------------------------------------------------------------------


def _line_of(lines: list[str], game_line: int, name: str) -> int:
    """The line of ``name`` in the game starting on ``game_line`` (the game's line if not found)."""
    for index in range(game_line, len(lines)):
        tokens = lines[index].split()
        if tokens and tokens[0] == "game":
            break
        if tokens and tokens[0] == name:
            return index + 1
    return game_line


def _name_problems(
    games: Sequence[rayter_format.RayterGame], lines: list[str], max_seats: int
) -> tuple[list[Problem], set[str]]:
    """What the club cannot store although rayter reads it (long names, names spelled two ways,
    games with more seats than a scored game has), and the file's names as written."""
    problems = []
    checked: set[str] = set()  # names as written, each checked once
    first_spelling: dict[str, tuple[str, int]] = {}
    for game in games:
        results = game.results
        if len(results) > max_seats:
            problems.append(
                Problem(
                    game.line,
                    f"the game has {len(results)} players; a game has at most {max_seats}",
                )
            )
        for name, _score in results:
            if name in checked:
                continue
            checked.add(name)
            line = _line_of(lines, game.line, name)
            first = first_spelling.setdefault(name_key(name), (name, line))
            if first[0] != name:
                problems.append(
                    Problem(
                        line,
                        f"{name!r} is {first[0]!r} (line {first[1]}) spelled differently: the"
                        " club counts them as one player, rayter as two; spell them the same",
                    )
                )
            elif len(name) > PLAYER_NAME_MAX:
                problems.append(
                    Problem(
                        line,
                        f"the name {name[:20]}… is {len(name)} characters long; the club's"
                        f" names have at most {PLAYER_NAME_MAX}",
                    )
                )
            else:
                try:
                    clean_player_name(name)  # the one rule for a name, as on every path
                except ValidationError as error:
                    problems.append(Problem(line, f"{name!r}: {' '.join(error.messages)}"))
    return problems, checked


def _club_spellings(names: Iterable[str]) -> dict[str, str]:
    """For each name of the file the club knows, the club's spelling of it.

    A word :func:`rayter_words` gives a club player is that player (so a file exported from the
    club comes back to the same players, two names written alike included); any other name is
    the player of the same name in any case (as in the engine).
    """
    club = list(Player.objects.values_list("pk", "name"))
    exact = {name_key(name): name for _pk, name in club}
    by_word = {name_key(word): name for name, word in rayter_words(club).items()}
    spellings = {}
    for name in names:
        known = by_word.get(name_key(name)) or exact.get(name_key(name))
        if known is not None:
            spellings[name] = known
    return spellings


# Times -----------------------------------------------------------------------------------------


def _aware_times(
    games: Sequence[rayter_format.RayterGame], zone: tzinfo
) -> tuple[dict[str, datetime], list[Problem]]:
    """Each distinct ``YYYY-MM-DD HH:MM`` of the file, read in the club's zone, as an aware
    datetime in UTC: what the database keeps, and what the engine then compares, sorts and
    writes without looking the zone up again for each game.

    Every game whose date the engine's rule refuses (before 1900, or in the future) is a problem
    on its line, found here before any time is converted: year 1 in a zone east of UTC would be
    year 0 in UTC, which no datetime holds. A wall time the clocks skipped (a DST gap) is a
    problem; one they passed twice is read as the first (fold 0), like any other ambiguous local
    time.
    """
    times: dict[str, datetime] = {}
    refused: dict[str, str] = {}
    # Each day's midnight, whether the clocks change that day (only then can a time be missing),
    # whether every time of the day is one the engine takes (then none is checked on its own),
    # and for such a day without a change its midnight in UTC (else None): each of its times in
    # UTC is then that and the clock, with no zone looked up for each game. Each HH:MM as the
    # time since midnight on the wall clock, which is what adding a timedelta to an aware
    # datetime counts (a file has 100,000 times and 1,440 clocks).
    days: dict[str, tuple[datetime, bool, bool, datetime | None]] = {}
    clocks: dict[str, timedelta] = {}
    problems = []
    latest = latest_allowed()
    for game in games:
        text = game.time
        if text in times:
            continue
        if text in refused:
            problems.append(Problem(game.line, refused[text]))
            continue
        day = days.get(text[:10])
        if day is None:
            date = (int(text[:4]), int(text[5:7]), int(text[8:10]))
            first = datetime(*date, tzinfo=zone)
            last = datetime(*date, 23, 59, tzinfo=zone)
            # The engine's rule is a range of times: the whole day passes if its ends do.
            allowed = _engine_takes(first, latest) and _engine_takes(last, latest)
            changes = first.utcoffset() != last.utcoffset()
            utc_midnight = first.astimezone(UTC) if allowed and not changes else None
            day = days[text[:10]] = (first, changes, allowed, utc_midnight)
        clock = clocks.get(text[11:])
        if clock is None:
            clock = clocks[text[11:]] = timedelta(hours=int(text[11:13]), minutes=int(text[14:16]))
        first, changes, allowed, utc_midnight = day
        if utc_midnight is not None:
            times[text] = utc_midnight + clock
            continue
        aware = first + clock
        if not allowed:
            try:
                engine.check_played_at(aware, latest)
            except ValidationError as error:
                refused[text] = " ".join(error.messages)
                problems.append(Problem(game.line, refused[text]))
                continue
        # In a gap the offset before the change (fold 0) is smaller than the one after it.
        if changes and aware.utcoffset() < aware.replace(fold=1).utcoffset():
            problems.append(
                Problem(
                    game.line,
                    f"{text} does not exist in the club's time zone {zone} (the clocks skipped it)",
                )
            )
        times[text] = aware.astimezone(UTC)
    return times, problems


def _engine_takes(moment: datetime, latest: datetime) -> bool:
    try:
        engine.check_played_at(moment, latest)
    except ValidationError:
        return False
    return True


def _first_out_of_order(
    games: Sequence[rayter_format.RayterGame],
) -> rayter_format.RayterGame | None:
    for before, game in itertools.pairwise(games):
        if game.time < before.time:
            return game
    return None


# Importing -------------------------------------------------------------------------------------


def import_rayter(
    *,
    data: bytes,
    league_slug: str,
    replace: bool = False,
    actor=None,
    name: str | None = None,
    create: bool = True,
    dry_run: bool = False,
    progress: Progress = NoProgress,
) -> RayterImport:
    """Import a rayter file into the league ``league_slug``, all or nothing.

    With ``create`` a new slug makes a scored league (its system from the file's score type, its
    name ``name``, else the file's game_name, else the slug). ``replace`` deletes the league's
    games first; without it games already in the league are skipped, so importing a file twice
    changes nothing. ``dry_run`` does everything, reads the resulting standings and rolls it all
    back: the preview. Raises :class:`RayterImportError` with every problem (each with its line
    where it has one); then nothing is written.
    """
    parsed, lines = _read(data, progress)
    problems = [Problem(error.line, error.message) for error in parsed.errors]
    if not parsed.games and not parsed.errors:
        problems.append(Problem(None, "the file has no games"))
    _fewest, most = for_rayter_score_type(parsed.score_type).seats
    name_problems, names = _name_problems(parsed.games, lines, most)
    problems += name_problems
    times, time_problems = _aware_times(parsed.games, timezone.get_default_timezone())
    problems += time_problems

    notices = []
    late = _first_out_of_order(parsed.games)
    if late is not None and not problems:
        notices.append(
            f"The games are not in time order (line {late.line}: {late.time} comes after a later"
            " game). The club rates games by time, rayter in file order, so these standings can"
            " differ from the rayter command's."
        )

    try:
        with transaction.atomic():
            league, created, league_problems = _target_league(
                league_slug, parsed, name=name, create=create, notices=notices
            )
            if problems or league_problems:
                raise RayterImportError([*league_problems, *problems])
            spellings = _club_spellings(names)
            games = _imported_games(parsed.games, times, spellings, progress)
            # One step: the engine reports no progress of its own. Shown at once (no delay) so a
            # long import says which phase it is in.
            with progress(
                total=len(games), desc="Rating and saving", unit=" games", delay=0
            ) as bar:
                summary = engine.games_import(
                    league=league, games=games, replace=replace, actor=actor
                )
                bar.update(len(games))
            result = RayterImport(
                league=league,
                league_created=created,
                summary=summary,
                file_games=len(parsed.games),
                notices=notices,
                skipped=[
                    SkippedGame(parsed.games[index].line, games[index].played_at)
                    for index in summary.skipped
                ],
            )
            result.close_names = _close_names(summary.new_players)
            if dry_run:
                result.standings = league_standings_rows(league)
                # The checks the database defers to the commit, met now: the preview must
                # refuse what the confirmation would.
                connection.check_constraints(
                    table_names=[model._meta.db_table for model in written_models()]
                )
                transaction.set_rollback(True)
    except engine.InvalidGame as error:
        # The league's rules refused a game: say on which line.
        line = parsed.games[error.index].line
        raise RayterImportError([Problem(line, message) for message in error.messages]) from error
    except ValidationError as error:
        # The engine's backstop: whatever the checks above missed, still without a 500.
        raise RayterImportError([Problem(None, message) for message in error.messages]) from error
    except IntegrityError as error:
        raise RayterImportError(
            [Problem(None, f"the database refused the import ({error}); nothing was written")]
        ) from error
    return result


def written_models() -> list:
    """The models an import writes: games, results, and what refers to a game and lets it go
    (an event's table), found from the models so that this names no feature's model."""
    freed = [rel.related_model for rel in Game._meta.related_objects if rel.on_delete is SET_NULL]
    return [Game, Result, *freed]


def _close_names(new_players: list[str]) -> dict[str, list[str]]:
    """For each new name of a file, the club's players whose names are close (one query)."""
    if not new_players:
        return {}
    club = NameIndex(Player.objects.exclude(name__in=new_players).values_list("pk", "name"))
    found = {name: [m.name for m in club.close_matches(name)] for name in new_players}
    return {name: matches for name, matches in found.items() if matches}


def _target_league(
    slug: str,
    parsed: rayter_format.RayterFile,
    *,
    name: str | None,
    create: bool,
    notices: list[str],
) -> tuple[League | None, bool, list[Problem]]:
    """The league to import into (created when new and allowed), and why it cannot be used."""
    league = League.objects.filter(slug=slug).first()
    score_type = parsed.score_type
    if league is None:
        if not create:
            return None, False, [Problem(None, f"there is no league {slug!r}")]
        return _create_league(slug, parsed, name)
    if name is not None and name != league.name:
        notices.append(f"--name is ignored: the league {league.name!r} already exists.")
    if league.rating_system.rayter_score_type is None:
        kind = league.get_system_display()
        return (
            league,
            False,
            [
                Problem(
                    None,
                    f"the league {league.name!r} ({slug}) is not a scored league ({kind}): a"
                    " rayter file goes into a scored league",
                )
            ],
        )
    if league.rating_system.rayter_score_type != score_type:
        implied = ""
        if score_type == rayter.SCORE_TYPE_HIGH_SCORE:
            implied = " (a file without a score_type line is highscore)"
        return (
            league,
            False,
            [
                Problem(
                    None,
                    f"the file's score type is {score_type}{implied} but the league"
                    f" {league.name!r} ({slug}) is {league.rating_system.rayter_score_type}",
                )
            ],
        )
    return league, False, []


def _create_league(
    slug: str, parsed: rayter_format.RayterFile, name: str | None
) -> tuple[League | None, bool, list[Problem]]:
    problems = []
    try:
        validate_slug(slug)
    except ValidationError:
        problems.append(
            Problem(None, f"{slug!r} is not a slug: use letters, digits, '-' and '_' only")
        )
    if len(slug) > LEAGUE_SLUG_MAX:
        problems.append(Problem(None, f"the slug is longer than {LEAGUE_SLUG_MAX} characters"))
    game_name = parsed.game_name or ""
    if len(game_name) > GAME_NAME_MAX:
        problems.append(Problem(None, f"the game_name is longer than {GAME_NAME_MAX} characters"))
    if name is not None:
        league_name = " ".join(name.split())
        if not league_name:
            problems.append(Problem(None, "the league's name is empty"))
        elif League.objects.filter(name=league_name).exists():
            problems.append(Problem(None, f"there is already a league named {league_name!r}"))
    else:
        # The file's game name is a natural name, but two leagues may play the same game.
        league_name = game_name[:LEAGUE_NAME_MAX] or slug
        if League.objects.filter(name=league_name).exists():
            league_name = f"{league_name} ({slug})"
        if League.objects.filter(name=league_name).exists():
            problems.append(
                Problem(None, f"there is already a league named {league_name!r}: give a name")
            )
    if len(league_name) > LEAGUE_NAME_MAX:
        problems.append(
            Problem(None, f"the league's name is longer than {LEAGUE_NAME_MAX} characters")
        )
    if problems:
        return None, False, problems
    league = League.objects.create(
        slug=slug,
        name=league_name,
        system=for_rayter_score_type(parsed.score_type).code,
        game_name=game_name,
        # rayter ranks everyone: a league made from its file starts without a provisional
        # threshold, so its standings are the rayter command's (the admin can set one).
        provisional_games=0,
    )
    return league, True, []


def _imported_games(
    games: Sequence[rayter_format.RayterGame],
    times: dict[str, datetime],
    spellings: dict[str, str],
    progress: Progress,
) -> list[engine.ImportedGame]:
    """The file's games as the engine takes them: aware times, the club's spelling of names."""
    imported = []
    renamed = {name: club for name, club in spellings.items() if name != club}
    with progress(total=len(games), desc="Checking", unit=" games") as bar:
        for start in range(0, len(games), _PROGRESS_STEP):
            for game in games[start : start + _PROGRESS_STEP]:
                results = game.results
                scores = [(renamed.get(n, n), s) for n, s in results] if renamed else results
                imported.append(engine.ImportedGame(times[game.time], scores))
            bar.update(min(_PROGRESS_STEP, len(games) - start))
    return imported
