"""Rayter files out: a league's standings as the ``rayter`` command prints them (its text table)
and its games as a rayter file. (The standings as CSV or JSON are the leaderboard's export,
:mod:`ratings.exports`.)

The ``standings`` and ``export_rayter`` commands and the download page come through here. The rows
are :func:`ratings.selectors.league_standings_rows`; names are written the way
:func:`ratings.rayter.names.rayter_words` says, the rule the import reads them back by; the file
format is :mod:`ratings.algorithms.rayter_format`'s.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from django.utils import timezone

from ratings.algorithms import rayter, rayter_format
from ratings.models import League, Player, Result
from ratings.rayter.names import rayter_words
from ratings.selectors import Status


class RayterExportError(Exception):
    """A league that cannot be written as a rayter file, with every reason."""

    def __init__(self, problems: Iterable[str]):
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


# Standings -------------------------------------------------------------------------------------


def standings_text(
    title: str, game_count: int, rows: Sequence[rayter.Standing], *, status: bool = False
) -> str:
    """The standings as the ``rayter`` command prints them, with its Delta column called Change
    (and with ``status``, a last column saying who is provisional or inactive).

    rayter.render_cli_text renders only from a parsed file, so its line format is repeated here;
    tests/rayter/test_rayter_files.py checks the two agree line for line on the CLI's own outputs.
    """
    head = f"{'Name':<15}{'Games':<10}{'Rating':<10}{'Change':<10}"
    lines = [
        f"Game: {title}",
        f"Total number of games: {game_count}",
        head + ("Status" if status else ""),
    ]
    for row in rows:
        line = f"{row.name:<15}{row.games:7d}{round(row.rating):9d}{round(row.change):9d}"
        if status and row.status != Status.RANKED:
            line += f"   {row.status.label}"
        lines.append(line)
    return "\n".join(lines) + "\n"


# Exporting -------------------------------------------------------------------------------------


def export_rayter(league: League) -> str:
    """The league's games as a rayter file: importing it into an empty league gives the same
    standings.

    Games in rating order ((played_at, id)), times in the club's time zone to the minute (games
    in the same minute keep their order, since an import keeps file order), seats in order,
    whole-number scores without ".0", names as :func:`ratings.rayter.names.rayter_words` writes
    them (one word each, two names written alike told apart by a suffix). Two queries. Raises
    :class:`RayterExportError` for a league that is not a scored one or a score that is not a
    whole number.
    """
    score_type = league.rating_system.rayter_score_type
    if score_type is None:
        raise RayterExportError(
            [f"{league.name} is not a scored league: only scored leagues have rayter files"]
        )
    zone = timezone.get_default_timezone()
    rows = (
        Result.objects.filter(game__league=league)
        .order_by("game__played_at", "game_id", "seat")
        .values_list("game_id", "game__played_at", "player__name", "score")
    )
    problems: list[str] = []
    written = rayter_words(Player.objects.values_list("pk", "name"))
    games: list[rayter_format.RayterGame] = []
    for game_id, seats in itertools.groupby(rows.iterator(chunk_size=10_000), lambda r: r[0]):
        seats = list(seats)
        played_at = seats[0][1].astimezone(zone)
        time = (
            f"{played_at.year:04d}-{played_at.month:02d}-{played_at.day:02d}"
            f" {played_at.hour:02d}:{played_at.minute:02d}"
        )
        results = []
        for _id, _at, name, score in seats:
            if not score.is_integer() or abs(score) > rayter_format.MAX_SCORE:
                problems.append(
                    f"game {game_id} ({time}): {name}'s score {score:g} is not a whole number of"
                    " at most 15 digits, which is all a rayter file can hold"
                )
                continue
            results.append((written[name], int(score)))
        games.append(rayter_format.RayterGame(time, tuple(results)))
    if problems:
        raise RayterExportError(problems)
    game_name = " ".join(league.game_name.split()) or None
    try:
        return rayter_format.format_file(games, score_type=score_type, game_name=game_name)
    except ValueError as error:
        raise RayterExportError([str(error)]) from error
